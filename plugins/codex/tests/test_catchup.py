"""Codex's SessionStart catch-up: the same detached, locked, cooled-down ingest as Claude's
(`carto_core.capture.catchup`), over rollouts changed in the last days."""

from __future__ import annotations

import fcntl
import json
import os
import sys
import time
from pathlib import Path

from carto_core.capture import catchup
from carto_core.jobs import catchup as catchup_job
from carto_core.logio.home import Home
from carto_core.capture.hookpath import run
from carto_core.logio.reader import iter_lines

from carto_codex.capture import CATCH_UP_SOURCE

sys.path.insert(0, str(Path(__file__).parent))
from _codex_rollouts import assistant_item, meta, turn_complete, user_event, write_rollout  # noqa: E402

LAST_FILE, LOCK_FILE, RUN_LOG = catchup.state_files("codex")
SID = "0199aaaa-0000-7000-8000-00000000c0de"


def codex_home_with(tmp_path: Path, prompts: list[str], *, age_days: float = 1.0) -> Path:
    """A Codex home holding one finished rollout with one turn per prompt, `age_days` old."""
    root = tmp_path / "codex"
    lines = [meta(SID, "/w/shop")]
    for prompt in prompts:
        lines += [user_event(prompt), assistant_item("done: " + prompt), turn_complete()]
    path = write_rollout(root / "sessions" / "2026" / "02" / "01", SID, lines)
    stamp = time.time() - age_days * 86_400
    os.utime(path, (stamp, stamp))
    return root


def turns(home: Home) -> list[dict]:
    return [line.row for line in iter_lines(home.log("turns"))]


def wait_for_run_line(home: Home) -> dict:
    """The detached child's one-line result (bounded wait; the hook itself never waits)."""
    run_log = home.state / RUN_LOG
    deadline = time.time() + 60
    while time.time() < deadline and not (run_log.exists() and run_log.read_text().endswith("\n")):
        time.sleep(0.2)
    return json.loads(run_log.read_text().splitlines()[-1])


def test_catch_up_ingests_recent_rollouts_under_the_lock(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    monkeypatch.setenv("CODEX_HOME", str(codex_home_with(tmp_path, ["fix the cart", "add tests"])))
    assert catchup.due(home, "codex")
    result = catchup_job.run(home, "codex", CATCH_UP_SOURCE)
    assert result["outcome"] == "done" and result["written"] == {"turns": 2}
    assert [row["event_id"] for row in turns(home)] == [f"turn-codex-{SID}-1", f"turn-codex-{SID}-2"]
    # Idempotent: a second run writes nothing new.
    assert catchup_job.run(home, "codex", CATCH_UP_SOURCE)["rows_written"] == 0
    with open(home.state / LOCK_FILE, "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert catchup_job.run(home, "codex", CATCH_UP_SOURCE) == {"outcome": "locked"}
    assert len(turns(home)) == 2


def test_catch_up_reads_only_the_last_days(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    monkeypatch.setenv("CODEX_HOME", str(codex_home_with(tmp_path, ["old work"], age_days=30)))
    result = catchup_job.run(home, "codex", CATCH_UP_SOURCE)  # CARTO_CATCHUP_DAYS: 7
    assert result["outcome"] == "done" and result["streams"] == 0 and turns(home) == []
    assert catchup_job.run(home, "codex", CATCH_UP_SOURCE, days=31)["written"] == {"turns": 1}


def test_session_start_hook_spawns_the_catch_up_once_per_cooldown(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    monkeypatch.setenv("CODEX_HOME", str(codex_home_with(tmp_path, ["fix the cart"])))
    monkeypatch.setenv("CARTO_CATCHUP", "1")
    # Claude's cooldown is its own: a fresh Claude stamp does not hold Codex's catch-up back.
    home.state.mkdir(parents=True)
    (home.state / catchup.state_files("claude")[0]).write_text("0")
    payload = {"session_id": "s-1", "transcript_path": None, "cwd": str(tmp_path), "hook_event_name": "SessionStart",
               "model": "gpt-5-codex", "permission_mode": "default", "source": "startup"}
    assert run("codex", "SessionStart", json.dumps(payload).encode(), home) is None
    stamp = (home.state / LAST_FILE).stat().st_mtime
    assert not catchup.due(home, "codex")
    run("codex", "SessionStart", json.dumps(payload).encode(), home)  # within the cooldown
    assert (home.state / LAST_FILE).stat().st_mtime == stamp
    line = wait_for_run_line(home)
    assert line["outcome"] == "done" and line["rows_written"] == 1 and line["streams"] == 1
    assert [row["event_id"] for row in turns(home)] == [f"turn-codex-{SID}-1"]
    assert (home.state / RUN_LOG).read_text().count("\n") == 1  # one child, not two
    assert not (home.state / "hook.log").exists()


def test_catch_up_that_cannot_run_says_so_in_hook_log(tmp_path):
    home = Home(tmp_path / "home")
    assert catchup_job.main(["--home", str(home.root), "--provider", "codex", "--source", "carto_codex.nope:gone"]) == 0
    problems = (home.state / "hook.log").read_text().splitlines()
    assert len(problems) == 1 and "codex catch-up failed: ModuleNotFoundError" in problems[0]
