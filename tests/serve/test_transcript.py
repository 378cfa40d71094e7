"""`GET /api/transcript`: served through the one resolver and confined to the transcript roots."""

from __future__ import annotations

import json
import os

from carto_core.evaluation.sample import SESSIONS


def claude_file(roots):
    return roots.claude[0] / "-work-webshop" / f"{SESSIONS['a']}.jsonl"


def independent_message_count(path) -> int:
    count = 0
    for line in path.read_text().splitlines():
        row = json.loads(line)
        blocks = row["message"]["content"]
        if any(b.get("type") == "text" for b in blocks):
            count += 1
    return count


def test_recorded_path_inside_roots_is_served(client, roots):
    path = claude_file(roots)
    body = client.get("/api/transcript", params={"path": str(path)}).json()
    assert body["path_status"] == "recorded" and body["provider"] == "claude"
    assert body["total"] == independent_message_count(path) == 3
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    # Text is returned verbatim; the page, not the API, keeps it inert.
    assert body["messages"][2]["text"] == "<b>bold?</b> and thanks"


def test_moved_transcript_found_by_session_hunt(client, roots, home):
    # The sample rows recorded /home/demo/.claude/... which does not exist here.
    recorded = f"/home/demo/.claude/projects/-work-webshop/{SESSIONS['a']}.jsonl"
    body = client.get("/api/transcript", params={"path": recorded}).json()
    assert body["path_status"] == "resolved"
    assert body["path"] == str(claude_file(roots))
    by_sid = client.get("/api/transcript", params={"session_id": SESSIONS["a"]}).json()
    assert by_sid["path"] == str(claude_file(roots)) and by_sid["total"] == 3


def test_paging(client, roots):
    body = client.get("/api/transcript", params={"path": str(claude_file(roots)), "offset": 1,
                                                 "limit": 1}).json()
    assert body["total"] == 3 and len(body["messages"]) == 1
    assert body["messages"][0]["role"] == "assistant"


def test_dotdot_is_refused(client, roots, tmp_path):
    secret = tmp_path / "secret.jsonl"
    secret.write_text('{"type":"user","message":{"role":"user","content":"SECRET"}}\n')
    sneaky = f"{roots.claude[0]}/../secret.jsonl"
    response = client.get("/api/transcript", params={"path": sneaky})
    assert response.status_code == 403
    assert response.json()["code"] == "TRANSCRIPT_FORBIDDEN"
    assert "SECRET" not in response.text


def test_absolute_path_outside_roots_is_refused(client, tmp_path):
    secret = tmp_path / "outside.jsonl"
    secret.write_text('{"type":"user","message":{"role":"user","content":"SECRET"}}\n')
    for path in (str(secret), "/etc/passwd"):
        response = client.get("/api/transcript", params={"path": path})
        assert response.status_code == 403, path
        assert "SECRET" not in response.text and "root:" not in response.text


def test_symlink_escaping_the_roots_is_refused(client, roots, tmp_path):
    secret = tmp_path / "target.jsonl"
    secret.write_text('{"type":"user","message":{"role":"user","content":"SECRET"}}\n')
    link = roots.claude[0] / "-work-webshop" / "link.jsonl"
    os.symlink(secret, link)
    response = client.get("/api/transcript", params={"path": str(link)})
    assert response.status_code == 403 and "SECRET" not in response.text
    # A symlinked folder escaping the root is refused the same way.
    folder = roots.claude[0] / "escape"
    os.symlink(tmp_path, folder)
    response = client.get("/api/transcript", params={"path": str(folder / "target.jsonl")})
    assert response.status_code == 403


def test_relative_and_nul_paths_are_refused(client):
    for path in ("secret.jsonl", "-work-webshop/x.jsonl"):
        assert client.get("/api/transcript", params={"path": path}).status_code == 403
    # A NUL never reaches the disk: the parameter itself is refused.
    assert client.get("/api/transcript", params={"path": "/tmp/a\x00b"}).status_code == 400


def test_missing_and_bad_requests(client):
    assert client.get("/api/transcript").json()["code"] == "TRANSCRIPT_PATH_REQUIRED"
    missing = client.get("/api/transcript", params={"session_id": "0000dead-0000-4000-8000-000000000000"})
    assert missing.status_code == 404
    assert client.get("/api/transcript", params={"session_id": "../../etc"}).status_code == 400
