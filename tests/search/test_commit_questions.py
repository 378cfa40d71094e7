"""The commit questions behind the record band (docs/ranking.md, "A home of few records"): each
set names one commit a question, no commit is asked twice across the sets, and the benchmark
that asks them still runs against the search it measures."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETS = ROOT / "benchmarks" / "search" / "commit_sets"


def _sets() -> dict[str, list[dict]]:
    return {path.stem: json.loads(path.read_text()) for path in sorted(SETS.glob("*.json"))}


def test_each_set_asks_one_commit_a_question_and_none_twice():
    sets = _sets()
    assert {"para-in", "para-2", "para-3", "para-4"} <= set(sets)
    asked: dict[str, str] = {}
    for name, cases in sets.items():
        assert 30 <= len(cases) <= 40, name
        for case in cases:
            assert case["query"].strip() and case["subject"].strip()
            [commit] = case["expect"]
            assert re.fullmatch(r"git-[0-9a-f]{7}", commit), (name, commit)
            assert commit not in asked, (name, commit, asked.get(commit))
            asked[commit] = name


@pytest.mark.slow
def test_the_benchmark_builds_a_small_home_and_asks_with_the_floor_on_and_off(tmp_path):
    """A source home whose commits are para-in's answers (their subjects as written) and ten
    others; asked of a home of 35 of them: every answer is held, five others drawn."""
    cases = _sets()["para-in"]
    rows = [{"event_id": case["expect"][0], "timestamp": f"2026-10-{n % 28 + 1:02d}T10:00:00Z",
             "type": "git_commit", "project": "carto",
             "summary": f"[feature] Commit {case['expect'][0][4:]}: {case['subject']}"}
            for n, case in enumerate(cases)]
    rows += [{"event_id": f"git-{n:07x}", "timestamp": "2026-09-01T10:00:00Z",
              "type": "git_commit", "project": "carto",
              "summary": f"[chore] Commit {n:07x}: bump the lock file {n}"} for n in range(10)]
    source = tmp_path / "source"
    source.mkdir()
    (source / "changelog.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    env = {**os.environ, "CARTO_EMBEDDER": "minilm", "CARTO_KEEPUP": "0",
           "TMPDIR": str(tmp_path)}
    env.pop("CARTO_HOME", None)
    env.pop("CARTO_SEARCH_FLOOR", None)
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks/search/commit_questions.py"),
                           str(source), "--sets", "para-in", "--commits", "35", "--off"],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert [line.split(", floor ")[1].split(":")[0] for line in lines] == ["on", "off"]
    figures = [tuple(int(x) for x in re.findall(r"(?:found|hit@1|hit@10) (\d+)", line))
               for line in lines]
    (found_on, first_on, top_on), (found_off, first_off, top_off) = figures
    assert found_off == len(cases)  # with the floor off every search counts as found
    assert 0 < top_on <= found_on <= len(cases) and first_on <= top_on
    assert first_off <= top_off <= len(cases)
    [home] = list(tmp_path.glob("carto-commits-*/home"))
    held = [json.loads(line)["event_id"] for line in (home / "changelog.jsonl").open()]
    assert len(held) == 35 and {case["expect"][0] for case in cases} <= set(held)
