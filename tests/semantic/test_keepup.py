"""The semantic ladder keeps up by itself: after ingest and from Stop/SessionEnd, a detached,
locked, rate-limited job embeds the new rows; `carto search --json` says how many are left."""

from __future__ import annotations

import json
import os
import time

from click.testing import CliRunner

from carto_core.logio.appendlog import append_rows
from carto_core.capture import detached
from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.capture import keepup
from carto_core.jobs import keepup as keepup_job


def _spawns(monkeypatch) -> list:
    calls = []
    monkeypatch.setattr(detached, "spawn", lambda home, module, args: calls.append((module, args)))
    return calls


def test_started_when_due_then_rate_limited(tmp_path, monkeypatch):
    monkeypatch.setenv("CARTO_KEEPUP", "1")
    monkeypatch.setenv("CARTO_KEEPUP_INTERVAL_SECONDS", "300")
    calls = _spawns(monkeypatch)
    home = Home(tmp_path)
    assert keepup.maybe_start(home) == "started"
    assert calls == [("carto_core.jobs.keepup", ["--home", str(home.root)])]
    assert keepup.maybe_start(home) is None  # within the cooldown: one stat, nothing started
    assert keepup.maybe_start(home, force=True) == "started"  # ingest ignores the cooldown
    stamp = home.state / keepup.STAMP
    old = time.time() - 301
    os.utime(stamp, (old, old))
    assert keepup.maybe_start(home) == "started" and len(calls) == 3


def test_off_switches(tmp_path, monkeypatch):
    calls = _spawns(monkeypatch)
    for variable in ("CARTO_KEEPUP", "CARTO_SEMANTIC"):
        monkeypatch.setenv("CARTO_KEEPUP", "1")
        monkeypatch.setenv(variable, "0")
        assert keepup.maybe_start(Home(tmp_path), force=True) is None
        monkeypatch.delenv("CARTO_SEMANTIC", raising=False)
    assert calls == []


def test_a_run_that_cannot_help_backs_hooks_off(tmp_path, monkeypatch):
    monkeypatch.setenv("CARTO_KEEPUP", "1")
    monkeypatch.setenv("CARTO_KEEPUP_INTERVAL_SECONDS", "0")
    home = Home(tmp_path)
    append_rows(home.log("prompts"), [{"event_id": "evt-1", "summary": "hello"}])
    monkeypatch.setenv("CARTO_SEMANTIC", "0")  # the job sees the ladder off
    assert keepup_job.run(home)["outcome"] == "disabled"
    monkeypatch.delenv("CARTO_SEMANTIC")
    calls = _spawns(monkeypatch)
    assert keepup.maybe_start(home) is None and calls == []  # backed off for an hour
    assert keepup.maybe_start(home, force=True) is None      # even for ingest
    line = json.loads((home.state / keepup.LOG).read_text().splitlines()[-1])
    assert line["outcome"] == "disabled"


def test_a_second_job_exits_while_one_holds_the_lock(tmp_path):
    home = Home(tmp_path)
    with detached.exclusive(home, keepup.LOCK) as held:
        assert held
        assert keepup_job.run(home) == {"outcome": "locked"}


def test_after_ingest_the_new_rows_are_embedded_and_search_says_so(tmp_path, monkeypatch,
                                                                   shared_fixtures):
    """The real detached child: `carto ingest` starts it, it embeds, search reports 0 left."""
    import shutil

    monkeypatch.setenv("CARTO_KEEPUP", "1")
    monkeypatch.setenv("CARTO_EMBEDDER", "lsa")
    home = tmp_path / "home"
    shutil.copytree(shared_fixtures / "claude", tmp_path / "src")
    env = {"CARTO_HOME": str(home)}
    before = CliRunner().invoke(cli, ["search", "session", "--json", "--all"], env=env)
    result = CliRunner().invoke(cli, ["ingest", "claude", "--root", str(tmp_path / "src"), "--json"],
                                env=env)
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["semantic_keep_up"] == "started" and document["rows_written"] > 0
    log = home / ".carto" / keepup.LOG
    deadline = time.time() + 120
    while time.time() < deadline and not (log.exists() and log.read_text().strip()):
        time.sleep(0.2)
    line = json.loads(log.read_text().splitlines()[-1])
    assert line["outcome"] == "ok" and line["embedded"] == document["rows_written"]
    # The child ran under the budget's policy, and recorded what the run cost.
    assert (line["threads"], line["nice"]) == (1, min(19, os.nice(0) + 10))
    assert line["cpu_s"] > 0 and line["peak_rss_mb"] > 10
    after = json.loads(CliRunner().invoke(cli, ["search", "session", "--json", "--all"], env=env).stdout)
    assert after["semantic"]["state"] == "available" and after["semantic"]["not_embedded"] == 0
    assert before.exit_code in (0, 3)


def test_search_counts_the_events_not_embedded_yet(tmp_path, monkeypatch):
    from carto_core.plugin.registry import get_registries
    from carto_core.semantic.indexer import run_index

    monkeypatch.setenv("CARTO_EMBEDDER", "lsa")
    home = Home(tmp_path)
    append_rows(home.log("prompts"), [{"event_id": f"evt-{n}", "timestamp": "2026-11-01T00:00:00Z",
                                       "summary": f"prompt {n} about {['kiwis', 'emus', 'rheas'][n % 3]}"}
                                      for n in range(20)])
    append_rows(home.log("milestones"), [{"event_id": "evt-empty", "milestone": ""}])  # no text
    assert run_index(home, registries=get_registries()).outcome == "ok"

    def pending():
        # "kiwis" is a lookup, whose gated semantic ladder is not checked unless asked for
        result = CliRunner().invoke(cli, ["search", "kiwis", "--json", "--all", "--semantic"],
                                    env={"CARTO_HOME": str(home.root)})
        return json.loads(result.stdout)["semantic"]["not_embedded"]

    assert pending() == 0  # the text-less milestone can never be embedded: not counted
    append_rows(home.log("prompts"), [{"event_id": f"evt-new-{n}", "summary": f"new kiwis {n}"}
                                      for n in range(3)])
    assert pending() == 3
    run_index(home, registries=get_registries())
    assert pending() == 0
    no = CliRunner().invoke(cli, ["search", "kiwis", "--json", "--no-semantic"], env={"CARTO_HOME": str(home.root)})
    assert json.loads(no.stdout)["semantic"]["not_embedded"] is None
