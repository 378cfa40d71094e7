"""The team benchmarks still run against the code they measure: each, at a tiny size, exits 0
and reports what its docs/performance.md figures are read from. They call the team's own
functions (`query_for`, `team.search.run`), whose signatures no other test holds them to."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _run(script: str, *args: str, work: Path) -> subprocess.CompletedProcess:
    work.mkdir(parents=True, exist_ok=True)
    os.chmod(work, 0o755)  # the server's own user reads its data folder under it when run as root
    env = {**os.environ, "CARTO_EMBEDDER": "wordllama", "CARTO_KEEPUP": "0"}
    env.pop("CARTO_HOME", None)
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "team" / script), *args,
                           "--work", str(work)], env=env, capture_output=True, text=True,
                          timeout=600)


def test_the_team_search_benchmark_runs_and_reports_both_sets(tmp_path):
    out = tmp_path / "out.json"
    done = _run("bench_team.py", "search", "--events", "2000", "--queries", "3", "--out", str(out),
                work=tmp_path / "work")
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(out.read_text())
    for name in ("tuned", "held_out"):
        part = report["sets"][name]
        assert part["queries"] == 3 and part["team_p50_ms"] > 0 and part["local_p50_ms"] > 0
        assert part["ladders"]["vector"] == 3 and part["ladders"]["keyword"] == 3


def test_the_team_search_profile_runs_each_question(tmp_path):
    done = _run("profile_search.py", "--events", "2000", "--queries", "3", work=tmp_path / "work")
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"q"')]
    assert len(rows) == 3 and all(row["whole"] > 0 and row["old_keyword"] > 0 for row in rows)
