"""The keep-up job's budget: it runs niced on one thread, records each run's CPU seconds and
peak RSS in its log, and `carto doctor` reports them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from click.testing import CliRunner

from carto_core.capture import keepup
from carto_core.cli import cli
from carto_core.jobs import budget
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home


def test_the_policy_lowers_the_priority_and_loads_blas_on_one_thread():
    """In a child process (a nice increment cannot be undone): numpy loaded after the policy
    runs OpenBLAS on one thread, and the process is 10 nicer than its parent."""
    script = ("import os, json\n"
              "from carto_core.jobs.budget import apply_policy\n"
              "before = os.nice(0)\n"
              "policy = apply_policy()\n"
              "import numpy\n"
              "from threadpoolctl import threadpool_info\n"
              "blas = [p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas']\n"
              "print(json.dumps({'before': before, 'after': os.nice(0), 'policy': policy, 'blas': blas,\n"
              "                  'jobs': os.environ['CARTO_JOBS'], 'minilm': os.environ['CARTO_MINILM_THREADS']}))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARTO_KEEPUP")
           and k not in budget.THREAD_VARIABLES}
    got = json.loads(subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                                    text=True, check=True).stdout)
    assert got["after"] == min(19, got["before"] + budget.NICE_DEFAULT) == got["policy"]["nice"]
    assert got["blas"] and set(got["blas"]) == {1}
    assert (got["jobs"], got["minilm"], got["policy"]["threads"]) == ("1", "1", 1)
    env.update(CARTO_KEEPUP_NICE="0", CARTO_KEEPUP_THREADS="2")
    got = json.loads(subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                                    text=True, check=True).stdout)
    assert got["after"] == got["before"] and (got["jobs"], got["policy"]["threads"]) == ("2", 2)


def test_measure_counts_this_process_cpu_and_its_peak():
    with budget.measure() as cost:
        total = 0
        for i in range(3_000_000):
            total += i
        block = bytearray(64 << 20)  # 64 MB touched: the peak is at least that
        block[::4096] = b"x" * len(block[::4096])
    assert cost["cpu_s"] > 0.05 and cost["cpu_s"] <= cost["wall_s"] + 0.05
    assert cost["peak_rss_mb"] >= 64


def test_the_summary_reads_the_last_runs_that_recorded_a_budget(tmp_path):
    path = tmp_path / keepup.LOG
    assert budget.summary(path) is None
    old = [{"timestamp": "t", "outcome": "ok", "embedded": 1}]  # a run before budgets were kept
    runs = [{"timestamp": f"t{i}", "outcome": "ok", "embedded": i, "cpu_s": float(i),
             "peak_rss_mb": 100.0 + i, "nice": 10, "threads": 1} for i in range(60)]
    append_rows(path, old + runs)
    got = budget.summary(path)
    # The last 50 runs: 10..59.
    assert got["runs"] == budget.RUNS == 50
    assert got["cpu_s"] == {"median": 34.5, "max": 59.0}
    assert got["peak_rss_mb"] == {"median": 134.5, "max": 159.0}
    assert got["last"]["embedded"] == 59


def test_the_summary_reads_only_the_end_of_a_long_log(tmp_path, monkeypatch):
    path = tmp_path / keepup.LOG
    monkeypatch.setattr(budget, "TAIL_BYTES", 400)
    append_rows(path, [{"timestamp": f"t{i}", "outcome": "ok", "embedded": i, "cpu_s": 1000.0 + i,
                        "peak_rss_mb": 1.0} for i in range(40)])
    got = budget.summary(path)
    assert 0 < got["runs"] < 10 and got["last"]["embedded"] == 39
    assert got["cpu_s"]["max"] == 1039.0 and got["cpu_s"]["median"] > 1030


def test_doctor_reports_the_keep_up_budget(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    append_rows(home.log("prompts"), [{"event_id": "evt-1", "summary": "hello"}])
    env = {"CARTO_HOME": str(home.root)}
    got = json.loads(CliRunner().invoke(cli, ["doctor", "--json", "--no-probe"], env=env).stdout)
    assert got["keep_up"] is None
    append_rows(home.state / keepup.LOG, [
        {"timestamp": "2026-12-02T10:00:00Z", "outcome": "ok", "embedded": 4, "cpu_s": 2.5,
         "peak_rss_mb": 180.0, "nice": 10, "threads": 1},
        {"timestamp": "2026-12-02T10:05:00Z", "outcome": "ok", "embedded": 7, "cpu_s": 1.5,
         "peak_rss_mb": 170.0, "nice": 10, "threads": 1}])
    got = json.loads(CliRunner().invoke(cli, ["doctor", "--json", "--no-probe"], env=env).stdout)
    assert got["keep_up"]["last"]["embedded"] == 7
    assert got["keep_up"]["cpu_s"] == {"median": 2.0, "max": 2.5}
    text = CliRunner().invoke(cli, ["doctor", "--no-probe"], env=env).output
    assert ("keep-up: last run 2026-12-02T10:05:00Z ok, 7 embedded, 1.5 s CPU, 170 MB peak "
            "(nice 10, 1 thread)") in text
    assert "last 2 runs: CPU median 2.0 s, max 2.5 s; peak RSS median 175 MB, max 180 MB" in text
