"""`carto repair transcript-paths`: Codex rollouts that moved on archive (and back), strictly."""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.logio.reader import ReadReport, iter_lines
from carto_core.repair import run_repair
from carto_core.repair.transcripts import TranscriptPaths
from carto_core.transcript.resolver import TranscriptRoots

SID = "0199aaaa-0000-7000-8000-00000000000a"
OTHER = "0199bbbb-0000-7000-8000-00000000000b"
NAME = f"rollout-2026-03-01T10-00-00-{SID}.jsonl"


def codex_home(tmp_path):
    home = tmp_path / ".codex"
    (home / "sessions" / "2026" / "03" / "01").mkdir(parents=True)
    (home / "archived_sessions").mkdir()
    return home


def rows(home: Home, label: str) -> dict:
    return {line.row["event_id"]: line.row for line in iter_lines(home.log(label), ReadReport(label))}


def test_archived_unarchived_and_gone_rollouts(tmp_path):
    codex = codex_home(tmp_path)
    live = codex / "sessions" / "2026" / "03" / "01" / NAME
    (codex / "archived_sessions" / NAME).write_text("{}\n")  # archived since it was recorded
    back_name = f"rollout-2026-03-02T09-00-00-{OTHER}.jsonl"
    (codex / "sessions" / "2026" / "03" / "02").mkdir(parents=True)
    (codex / "sessions" / "2026" / "03" / "02" / back_name).write_text("{}\n")  # unarchived
    home = Home(tmp_path / "home")
    append_rows(home.log("milestones"), [
        {"event_id": "m1", "provider": "codex", "session_id": SID, "transcript_path": str(live)},
        {"event_id": "m2", "provider": "codex", "session_id": OTHER,
         "transcript_path": str(codex / "archived_sessions" / back_name)},
        {"event_id": "m3", "provider": "codex", "session_id": "0199cccc-0000-7000-8000-00000000000c",
         "transcript_path": str(codex / "sessions" / "2026" / "03" / "03" / "rollout-gone.jsonl")},
        {"event_id": "m4", "provider": "claude", "session_id": "x", "transcript_path": "/gone/x.jsonl"},
        {"event_id": "m5", "provider": "codex", "session_id": SID,
         "transcript_path": str(codex / "archived_sessions" / NAME)},  # already right
    ])
    append_rows(home.log("changelog"), [
        {"event_id": "m1", "provider": "codex", "session_id": SID, "transcript_path": str(live)}])
    repair = TranscriptPaths(TranscriptRoots(codex=(codex,)))
    dry = run_repair(repair, home)
    assert (dry["stale"], dry["moved"], dry["missing"], dry["fixed"], dry["would_fix"]) == (5, 3, 2, 0, 3)
    done = run_repair(TranscriptPaths(TranscriptRoots(codex=(codex,))), home, write=True)
    assert done["fixed"] == 3
    after = rows(home, "milestones")
    assert after["m1"]["transcript_path"] == str(codex / "archived_sessions" / NAME)
    assert after["m2"]["transcript_path"] == str(codex / "sessions" / "2026" / "03" / "02" / back_name)
    assert after["m3"]["transcript_path"].endswith("rollout-gone.jsonl")  # kept: found nowhere
    assert after["m4"]["transcript_path"] == "/gone/x.jsonl"  # Claude, found nowhere: kept
    assert rows(home, "changelog")["m1"]["transcript_path"] == str(codex / "archived_sessions" / NAME)


def test_a_session_hunt_only_accepts_the_rollout_named_for_the_session(tmp_path):
    codex = codex_home(tmp_path)
    moved = codex / "sessions" / "2026" / "04" / "01"
    moved.mkdir(parents=True)
    (moved / f"rollout-2026-04-01T08-00-00-{SID}.jsonl").write_text("{}\n")  # renamed, same thread
    home = Home(tmp_path / "home")
    append_rows(home.log("changelog"), [
        {"event_id": "c1", "provider": "codex", "session_id": SID, "transcript_path": "/old/box/.codex/sessions/x/" + NAME},
        {"event_id": "c2", "provider": "codex", "session_id": OTHER, "transcript_path": "/old/box/.codex/sessions/y.jsonl"},
    ])
    done = run_repair(TranscriptPaths(TranscriptRoots(codex=(codex,))), home, write=True)
    assert (done["moved"], done["missing"]) == (1, 1)
    assert rows(home, "changelog")["c1"]["transcript_path"] == str(moved / f"rollout-2026-04-01T08-00-00-{SID}.jsonl")


def test_row_appended_by_another_process_during_the_repair_survives(tmp_path, during_write):
    codex = codex_home(tmp_path)
    (codex / "archived_sessions" / NAME).write_text("{}\n")
    home = Home(tmp_path / "home")
    append_rows(home.log("changelog"), [{"event_id": "c1", "provider": "codex", "session_id": SID,
                                         "transcript_path": str(codex / "sessions" / "2026" / "03" / "01" / NAME)}])
    repair = TranscriptPaths(TranscriptRoots(codex=(codex,)))
    during_write(repair, "changelog", home.log("changelog"), {"event_id": "during"})
    assert run_repair(repair, home, write=True)["fixed"] == 1
    assert sorted(rows(home, "changelog")) == ["c1", "during"]


def test_cli_with_a_codex_home(tmp_path):
    codex = codex_home(tmp_path)
    (codex / "archived_sessions" / NAME).write_text("{}\n")
    home = Home(tmp_path / "home")
    append_rows(home.log("changelog"), [{"event_id": "c1", "provider": "codex", "session_id": SID,
                                         "transcript_path": str(codex / "sessions" / "2026" / "03" / "01" / NAME)}])
    env = {"CARTO_HOME": str(home.root)}
    result = CliRunner().invoke(cli, ["repair", "transcript-paths", "--codex-home", str(codex), "--json"], env=env)
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert (doc["stale"], doc["moved"], doc["fixed"], doc["would_fix"], doc["dry_run"]) == (1, 1, 0, 1, True)
    result = CliRunner().invoke(cli, ["repair", "transcript-paths", "--codex-home", str(codex), "--write"], env=env)
    assert result.exit_code == 0 and "1 fixed" in result.stdout
    result = CliRunner().invoke(cli, ["repair", "transcript-paths", "--codex-home", str(codex)], env=env)
    assert result.exit_code == 3
