"""Backfill reads what the live hook would read, nothing more: a stream's file owned by another
user is refused (the hook's own owner check, `carto_core.util.safeio`), and so is a symlink in
the agent's folders that leads out of them; a symlink inside them, and the user's own files,
are read. Other accounts only exist for root: the ownership cases skip elsewhere, saying so."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.util.safeio import ForeignFile, leads_out, open_own

OTHER_UID = 65534  # nobody


def claude_transcript(path: Path, session: str, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [{"type": "user", "uuid": f"{session}-1", "sessionId": session, "cwd": "/w/proj",
              "timestamp": "2026-02-01T10:00:00Z", "message": {"role": "user", "content": [
                  {"type": "text", "text": text}]}},
             {"type": "assistant", "uuid": f"{session}-2", "sessionId": session, "cwd": "/w/proj",
              "timestamp": "2026-02-01T10:00:05Z", "message": {"role": "assistant", "id": f"m-{session}",
                                                                "content": [{"type": "text", "text": "done"}]}}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    old = path.stat().st_mtime - 86_400
    os.utime(path, (old, old))
    return path


def codex_rollout(path: Path, session: str, text: str) -> Path:
    def line(kind, payload):
        return json.dumps({"timestamp": "2026-02-01T10:00:00.000Z", "type": kind, "payload": payload})

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([
        line("session_meta", {"id": session, "timestamp": "2026-02-01T10:00:00.000Z", "cwd": "/w/proj"}),
        line("event_msg", {"type": "user_message", "message": text}),
        line("response_item", {"type": "message", "role": "assistant",
                               "content": [{"type": "output_text", "text": "done"}]}),
        line("event_msg", {"type": "task_complete"})]) + "\n")
    old = path.stat().st_mtime - 86_400
    os.utime(path, (old, old))
    return path


def ingest(tmp_path, provider: str, root: Path) -> tuple[str, list[str]]:
    home = tmp_path / "home"
    result = CliRunner().invoke(cli, ["ingest", provider, "--root", str(root)],
                                env={"CARTO_HOME": str(home), "CARTO_KEEPUP": "0"})
    assert result.exit_code == 0, result.output
    turns = home / "turns.jsonl"
    texts = [json.loads(line).get("summary", "") for line in turns.read_text().splitlines()] \
        if turns.exists() else []
    return result.output, texts


def needs_root():
    if os.geteuid() != 0:
        pytest.skip("a file of another user can only be made by root (chown)")


@pytest.mark.parametrize("provider", ["claude", "codex"])
def test_a_symlink_out_of_the_agents_folders_is_refused(tmp_path, provider):
    write = claude_transcript if provider == "claude" else codex_rollout
    root = tmp_path / "agent"
    folder = root / ("-w-proj" if provider == "claude" else "sessions/2026/02/01")
    name = "{}.jsonl" if provider == "claude" else "rollout-2026-02-01T10-00-00-{}.jsonl"
    write(folder / name.format("own-session"), "own-session", "OWN TURN TEXT")
    outside = write(tmp_path / "elsewhere" / name.format("outside-session"), "outside-session",
                    "OUTSIDE TURN TEXT")
    (folder / name.format("linked-out")).symlink_to(outside)
    # a symlink that stays inside the agent's folders is read
    inner = write(root / "kept" / name.format("inner-session"), "inner-session", "INNER TURN TEXT")
    (folder / name.format("linked-in")).symlink_to(inner)
    output, texts = ingest(tmp_path, provider, root)
    joined = " ".join(texts)
    assert "OWN TURN TEXT" in joined and "INNER TURN TEXT" in joined
    assert "OUTSIDE TURN TEXT" not in joined
    assert "skipped 1 x a symlink out of the source's folders (never read)" in output


@pytest.mark.parametrize("provider", ["claude", "codex"])
def test_another_users_file_is_refused_directly_or_through_a_symlink(tmp_path, provider):
    needs_root()
    write = claude_transcript if provider == "claude" else codex_rollout
    root = tmp_path / "agent"
    folder = root / ("-w-proj" if provider == "claude" else "sessions/2026/02/01")
    name = "{}.jsonl" if provider == "claude" else "rollout-2026-02-01T10-00-00-{}.jsonl"
    write(folder / name.format("own-session"), "own-session", "OWN TURN TEXT")
    theirs = write(folder / name.format("their-session"), "their-session", "THEIR TURN TEXT")
    os.chown(theirs, OTHER_UID, OTHER_UID)
    # inside the agent's folders, pointing at another user's file there
    (folder / name.format("linked-theirs")).symlink_to(theirs)
    output, texts = ingest(tmp_path, provider, root)
    joined = " ".join(texts)
    assert "OWN TURN TEXT" in joined and "THEIR TURN TEXT" not in joined
    # (Codex's discovery lists a file once by its real path: the link and its target are one)
    refused = {"claude": 2, "codex": 1}[provider]
    assert f"skipped {refused} x another user's file (never read)" in output


def test_open_own_checks_the_descriptor(tmp_path):
    needs_root()
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    mine.write_text("a")
    theirs.write_text("b")
    os.chown(theirs, OTHER_UID, OTHER_UID)
    with open_own(mine) as handle:
        assert handle.read() == b"a"
    with pytest.raises(ForeignFile):
        open_own(theirs)


def test_leads_out(tmp_path):
    root = tmp_path / "root"
    (root / "a").mkdir(parents=True)
    (root / "a" / "f").write_text("x")
    (tmp_path / "out").write_text("y")
    (root / "in").symlink_to(root / "a" / "f")
    (root / "out").symlink_to(tmp_path / "out")
    (tmp_path / "alias").symlink_to(root)  # a root given through a symlink of its own
    assert not leads_out(root / "a" / "f", [root])
    assert not leads_out(root / "in", [root])
    assert leads_out(root / "out", [root])
    assert not leads_out(tmp_path / "alias" / "in", [tmp_path / "alias"])
    assert leads_out(tmp_path / "alias" / "out", [tmp_path / "alias"])
    assert not leads_out(tmp_path / "out", [root])  # not in the root as written: not its call
    assert not leads_out(root / "out", [root / "out"])  # a root named as the file itself
