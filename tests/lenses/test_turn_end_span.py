"""A turn row holds its end (`ended`: the time of the transcript's newest line in the turn), and
a backfilled session's span ends there, not at its last prompt or tool call: the answer written
after the last call is part of the session. Rows written before turns held it still read, and
end where they did.

Inputs are the shared fixtures' real transcripts (`shared/fixtures/SOURCES.md`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from carto_core.logio.home import current_home
from tests.clikit import object_rows, run

SESSION = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
CLAUDE_FILE = f"claude/claude-code-viewer/projects/sample-project/{SESSION}.jsonl"
ROLLOUT = "codex/claude-code-log/sessions/2026/01/02/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"


def _stamps(path: Path) -> list[str]:
    out = []
    for raw in path.read_text("utf-8").splitlines():
        stamp = json.loads(raw).get("timestamp")
        if isinstance(stamp, str):
            out.append(stamp)
    return out


def _session(sid: str) -> dict:
    (found,) = [s for s in run("sessions", "--json")["sessions"] if s["session_id"] == sid]
    return found


def test_a_backfilled_claude_session_ends_at_its_last_answer(shared_fixtures, tmp_path):
    folder = tmp_path / "projects" / "-work-demo"
    folder.mkdir(parents=True)
    shutil.copy(shared_fixtures / CLAUDE_FILE, folder)
    run("ingest", "claude", "--root", str(folder.parent), "--history", "none", "--settle", "0", "--json")
    rows = {r["event_id"]: r for r in object_rows(current_home().log("turns"))}

    main = rows[f"turn-{SESSION}-1"]
    last_line = _stamps(folder / f"{SESSION}.jsonl")[-1]
    assert main["ended"] == last_line == "2025-09-07T09:54:26.499Z"
    last_call = max(t["at"] for t in main["tools"])
    assert last_call < last_line  # the answer came after the last call
    assert rows[f"turn-{SESSION}-side-1"]["ended"] == "2025-09-07T09:52:48.176Z"

    listed = _session(SESSION)
    assert listed["ended"].startswith("2025-09-07T09:54:26")
    shown = run("session", SESSION[:8], "--json")["session"]
    assert (shown["started"], shown["ended"]) == (listed["started"], listed["ended"])
    assert "09:54:26" in run("digest", "session", SESSION[:8])


def test_turn_rows_without_an_end_still_read_and_end_at_their_last_call(shared_fixtures, tmp_path):
    folder = tmp_path / "projects" / "-work-demo"
    folder.mkdir(parents=True)
    shutil.copy(shared_fixtures / CLAUDE_FILE, folder)
    run("ingest", "claude", "--root", str(folder.parent), "--history", "none", "--settle", "0", "--json")
    log = current_home().log("turns")
    old = [{k: v for k, v in r.items() if k != "ended"} for r in object_rows(log)]
    log.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in old), "utf-8")

    listed = _session(SESSION)
    assert listed["ended"].startswith("2025-09-07T09:54:06")  # the last call the turns' work counts
    assert listed["turns"] == 3


def test_a_backfilled_codex_turn_holds_its_end(shared_fixtures, tmp_path):
    day = tmp_path / "codex" / "sessions" / "2026" / "01" / "02"
    day.mkdir(parents=True)
    shutil.copy(shared_fixtures / ROLLOUT, day)
    run("ingest", "codex", "--root", str(tmp_path / "codex"), "--settle", "0", "--json")
    rows = object_rows(current_home().log("turns"))
    assert rows and all(r["ended"] > r["timestamp"] for r in rows)
    # its last line, of a type no reader knows, was written while the turn went on
    assert _stamps(day / Path(ROLLOUT).name)[-1] == rows[-1]["ended"] == "2026-01-02T03:04:16.000Z"
    assert _session(rows[0]["session"])["ended"].startswith(rows[-1]["ended"][:19])
