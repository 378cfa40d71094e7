"""The memory desk (`/api/desk`, `/api/desk/day`) and file review
(`/api/sessions/{id}/review`): filters against an independent reading of the sample logs, a
backfilled session's work from its turns, and review confined to the session's repository."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.lenses.digest import day_digest
from carto_core.evaluation.sample import SESSIONS, sample_rows
from carto_core.serve import desk as desk_module
from carto_core.util.timeparse import format_timestamp, utcnow

from .conftest import write_transcript


def test_desk_evidence_filters(client, home):
    every = client.get("/api/desk", params={"days": 3650}).json()
    ids = {s["session_id"] for s in every["sessions"]}
    assert {SESSIONS["a"], SESSIONS["b"]} <= ids
    by_id = {s["session_id"]: s for s in every["sessions"]}
    a = by_id[SESSIONS["a"]]
    assert a["evidence"] == ["commits", "edits", "wrapup", "unresolved"]
    assert a["unresolved"] == ["bundles and coupons stacking"]
    assert a["key_insight"] == "Cart.total() is the single place prices combine"
    assert {f["path"] for f in a["files"]} == {"/work/webshop/src/cart.py", "/work/webshop/src/discounts.py"}
    assert a["last_commits"][0]["subject"].startswith("feat(cart): discount codes")
    # each filter keeps exactly the sessions whose evidence holds it
    for kind in ("commits", "edits", "wrapup", "unresolved"):
        got = {s["session_id"] for s in client.get("/api/desk", params={"days": 3650, "evidence": kind}).json()["sessions"]}
        assert got == {sid for sid, s in by_id.items() if kind in s["evidence"]}, kind
    unwrapped = {s["session_id"] for s in client.get("/api/desk", params={"days": 3650, "evidence": "no_wrapup"}).json()["sessions"]}
    assert unwrapped == {sid for sid, s in by_id.items() if "wrapup" not in s["evidence"]}
    assert SESSIONS["a"] not in unwrapped
    # provider and project as /api/sessions selects them
    for params in ({"provider": "codex"}, {"project": "infra"}):
        listed = {s["session_id"] for s in client.get("/api/sessions", params={"days": 3650, **params}).json()["sessions"]}
        got = {s["session_id"] for s in client.get("/api/desk", params={"days": 3650, **params}).json()["sessions"]}
        assert got == listed and got, params
    # a file two sessions touched comes first among the shared files
    assert every["files"][0]["sessions"] == sorted(every["files"][0]["sessions"])
    assert all(len(a_["sessions"]) >= len(b_["sessions"]) for a_, b_ in zip(every["files"], every["files"][1:]))


def test_a_desk_card_says_whether_its_transcript_is_on_this_machine(client, home, roots):
    """Each card linked the transcript analysis, and for a session whose transcript is not here
    the link ended in "Could not load: no transcript found". Session a's transcript is under the
    roots, b's is not; a session whose recorded path moved is found by its id, as
    /api/transcript finds it."""
    moved = "0d5e0000-0000-4000-8000-0000000000d5"
    write_transcript(roots.claude[0] / "-work-notes" / f"{moved}.jsonl", moved, [("user", "list the notes")])
    append_rows(home.log("changelog"), [{
        "event_id": "evt-moved-1", "timestamp": format_timestamp(utcnow()), "type": "tool_bash",
        "summary": "Ran: ls", "project": "notes", "session_id": moved, "provider": "claude",
        "transcript_path": f"/gone/{moved}.jsonl"}])
    by_id = {s["session_id"]: s for s in client.get("/api/desk", params={"days": 3650}).json()["sessions"]}
    assert by_id[SESSIONS["a"]]["transcript_available"] is True
    assert by_id[SESSIONS["b"]]["transcript_available"] is False
    assert by_id[moved]["transcript_available"] is True
    # the same answer as the session page and /api/transcript give
    for sid, session in by_id.items():
        page = client.get(f"/api/sessions/{sid}").json()["session"]
        assert page["transcript_available"] is session["transcript_available"], sid
        asked = {"session_id": sid, **({"path": session["transcript_path"]} if session["transcript_path"] else {})}
        found = client.get("/api/transcript", params=asked).status_code == 200
        assert found is session["transcript_available"], sid


def test_desk_window_bounds(client):
    for bad in ({"days": 3651}, {"days": 0}, {"evidence": "everything"}, {"limit": 2001}):
        answer = client.get("/api/desk", params=bad)
        assert answer.status_code == 400 and answer.json()["code"] == "PARAM_INVALID", bad


def test_backfilled_session_shows_its_turn_work(client, home):
    now = format_timestamp(utcnow())
    append_rows(home.log("turns"), [{
        "event_id": "turn-backfilled-0", "timestamp": now, "project": "notes", "type": "transcript",
        "provider": "claude", "summary": "tidy the notes", "session": "backfilled", "turn_idx": 0,
        "cwd": "/work/notes",
        "tools": [{"name": "Edit", "input": "/work/notes/a.md", "at": now, "edits": ["/work/notes/a.md"]},
                  {"name": "Bash", "input": "git commit -m tidy", "at": now,
                   "commit": {"sha": "abc1234", "subject": "tidy notes"}}]}])
    row = next(s for s in client.get("/api/desk", params={"days": 1}).json()["sessions"]
               if s["session_id"] == "backfilled")
    assert row["evidence"] == ["commits", "edits"]
    assert row["files"] == [{"path": "/work/notes/a.md", "touches": 1}]
    assert row["last_commits"][0]["subject"] == "tidy notes"


def test_day_is_the_digest(client, home):
    # The sample's events are hours old: just after midnight UTC "today" holds none of them,
    # so the day asked by date is the day of the newest one (and "today" must agree with the
    # digest too, whatever it holds).
    newest = max(row["timestamp"] for _, row in sample_rows())[:10]
    for day, busy in ((newest, True), ("today", False)):
        answer = client.get("/api/desk/day", params={"day": day, "git": "false"})
        assert answer.status_code == 200
        got = answer.json()
        want = json.loads(json.dumps(day_digest(home, day, no_git=True)))
        got.pop("generated_at"), want.pop("generated_at")
        assert got == want, day
        assert got["projects"] or not busy, "the day's projects"
    assert client.get("/api/desk/day", params={"day": "2026-13-45"}).status_code == 400
    assert client.get("/api/desk/day", params={"day": "last week"}).status_code == 400


# --------------------------------------------------------------------------- file review


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x"})
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture
def repo_session(home, tmp_path):
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "src" / "cart.py").write_text("def total():\n    return 1\n")
    _git(repo, "add", ".")
    first = _git(repo, "commit", "-qm", "first")
    (repo / "src" / "cart.py").write_text("def total():\n    return 2\n")
    second = _git(repo, "commit", "-qam", "second: totals are two")
    outside = tmp_path / "secret.txt"
    outside.write_text("THE-OUTSIDE-SECRET")
    (repo / "link").symlink_to(outside)
    append_rows(home.log("changelog"), [{
        "event_id": "evt-review-1", "timestamp": format_timestamp(utcnow()), "type": "tool_file_edit",
        "summary": f"Modified: {repo}/src/cart.py", "project": "repo", "session_id": "review-session",
        "provider": "claude", "cwd": str(repo)}])
    return repo, first, second, outside


def test_review_a_file_and_a_commit(client, repo_session):
    repo, first, second, _ = repo_session
    base = "/api/sessions/review-session/review"
    file = client.get(base, params={"path": "src/cart.py"}).json()
    assert file["kind"] == "file" and file["text"] == "def total():\n    return 2\n"
    assert file["repository"] == os.path.realpath(repo) and file["path"] == "src/cart.py"
    absolute = client.get(base, params={"path": f"{repo}/src/cart.py"}).json()
    assert absolute["text"] == file["text"]
    diff = client.get(base, params={"commit": second[:10]}).json()
    assert diff["commit"]["sha"] == second and diff["commit"]["subject"] == "second: totals are two"
    assert diff["files"] == [{"status": "M", "path": "src/cart.py"}]
    assert "-    return 1\n+    return 2" in diff["text"]
    one = client.get(base, params={"commit": first, "path": "src/cart.py"}).json()
    assert "+    return 1" in one["text"] and "return 2" not in one["text"]


def test_review_takes_the_short_id_every_view_shows(client, repo_session):
    """The session page resolves a prefix; its review said "no events carry that session id"
    for the same eight characters, a session that plainly has events."""
    _, _, second, _ = repo_session
    answer = client.get("/api/sessions/review-s/review", params={"commit": second[:10]})
    assert answer.status_code == 200, answer.text
    assert answer.json()["session_id"] == "review-session"
    assert answer.json()["commit"]["sha"] == second
    unknown = client.get("/api/sessions/zzzz/review", params={"commit": second[:10]})
    assert unknown.status_code == 404 and unknown.json()["error"] == "no session id starts with that"


def test_review_never_leaves_the_repository(client, repo_session, tmp_path):
    repo, _, second, outside = repo_session
    base = "/api/sessions/review-session/review"
    for path in (str(outside), "../secret.txt", "link", f"{repo}/../secret.txt", "/etc/passwd",
                 "src/\x00cart.py"):
        answer = client.get(base, params={"path": path})
        assert answer.status_code in (400, 403), path
        assert "THE-OUTSIDE-SECRET" not in answer.text and "root:" not in answer.text
        if answer.status_code == 403:
            assert answer.json()["code"] == "REVIEW_FORBIDDEN"
    assert client.get(base, params={"commit": second, "path": "link"}).status_code == 403
    # a commit is hex; one the repository lacks is a 404; neither path nor commit is a 400
    assert client.get(base, params={"commit": "HEAD~1"}).status_code == 400
    assert client.get(base, params={"commit": "--output=/tmp/x"}).status_code == 400
    assert client.get(base, params={"commit": "deadbeefdeadbeef"}).json()["code"] == "COMMIT_NOT_FOUND"
    assert client.get(base).json()["code"] == "REVIEW_TARGET_REQUIRED"
    assert client.get(base, params={"path": "src/none.py"}).json()["code"] == "FILE_NOT_FOUND"
    missing = client.get("/api/sessions/no-such-session/review", params={"path": "src/cart.py"})
    assert missing.status_code == 404 and missing.json()["code"] == "SESSION_NOT_FOUND"
    # a session whose folder is in no repository
    norepo = client.get(f"/api/sessions/{SESSIONS['a']}/review", params={"path": "src/cart.py"})
    assert norepo.status_code == 404 and norepo.json()["code"] == "REPOSITORY_NOT_FOUND"


def test_review_is_bounded(client, repo_session, monkeypatch):
    repo, _, _, _ = repo_session
    monkeypatch.setattr(desk_module, "REVIEW_BYTES_MAX", 1000)
    (repo / "big.txt").write_text("x" * 5000)
    answer = client.get("/api/sessions/review-session/review", params={"path": "big.txt"}).json()
    assert answer["truncated"] is True and len(answer["text"]) == 1000 and answer["bytes"] == 5000
    _git(repo, "add", "big.txt")
    sha = _git(repo, "commit", "-qm", "big")
    diff = client.get("/api/sessions/review-session/review", params={"commit": sha}).json()
    assert diff["truncated"] is True and len(diff["text"].encode()) <= 1000
