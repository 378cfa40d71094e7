"""`carto ingest claude|codex|hermes`: --since WHEN, --settle SECONDS and the older --since-days,
and a summary that says how many turns are still open and when they are final."""

from __future__ import annotations

import json
import os
import time

import pytest
from click.testing import CliRunner

from carto_core.cli import cli


def _transcript(folder, sid: str, *, age_days: float = 0, live: bool = True):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{sid}.jsonl"
    start = time.time() - (60 if live else 86_400 * max(age_days, 1))
    lines = []
    for n, (kind, text) in enumerate((("user", "first question"), ("assistant", "first answer"),
                                       ("user", "second question"), ("assistant", "working on it"))):
        message = {"role": kind, "content": [{"type": "text", "text": text}]}
        if kind == "assistant":
            message["id"] = f"m{n}"
        lines.append(json.dumps({"type": kind, "uuid": f"{sid}-{n}", "sessionId": sid, "cwd": "/w/p",
                                 "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + n)),
                                 "message": message}))
    path.write_text("\n".join(lines) + "\n")
    if age_days:
        stamp = time.time() - age_days * 86_400
        os.utime(path, (stamp, stamp))
    return path


def ingest(*args: str):
    return CliRunner().invoke(cli, ["ingest", *args])


def test_open_turns_are_reported_and_settle_zero_makes_them_final(tmp_path):
    root = tmp_path / "projects"
    _transcript(root / "-w-p", "live-1")
    result = ingest("claude", "--root", str(root), "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert (document["rows_written"], document["open_turns"]) == (2, 1)
    assert document["open_until"] > time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    text = ingest("claude", "--root", str(root))
    assert "1 turn still open (written as it stands, rewritten as it grows; final once its " \
           "transcript is quiet, by 20" in text.stdout, text.stdout
    final = json.loads(ingest("claude", "--root", str(root), "--settle", "0", "--json").stdout)
    assert (final["rows_written"], final["revised"], final["open_turns"]) == (1, 1, 0)


@pytest.mark.parametrize("source", ["claude", "codex"])
def test_since_when_and_the_older_since_days_agree(tmp_path, source):
    root = tmp_path / "projects"
    if source == "claude":
        _transcript(root / "-w-p", "recent", age_days=2, live=False)
        _transcript(root / "-w-p", "old", age_days=20, live=False)
    else:
        import sys

        sys.path.insert(0, str(__import__("pathlib").Path(__file__).parents[2] / "codex" / "tests"))
        from _codex_rollouts import meta, user_event, write_rollout

        for sid, age in (("aaaaaaaa-0000-4000-8000-000000000001", 2), ("aaaaaaaa-0000-4000-8000-000000000002", 20)):
            path = write_rollout(root, sid, [meta(sid, "/w/p"), user_event(f"question {sid[-1]}")])
            stamp = time.time() - age * 86_400
            os.utime(path, (stamp, stamp))
    counts = []
    for flags in (["--since", "7d"], ["--since-days", "7"], []):
        home = tmp_path / f"home-{len(counts)}"
        result = CliRunner().invoke(cli, ["ingest", source, "--root", str(root), *flags, "--json"],
                                    env={"CARTO_HOME": str(home)})
        assert result.exit_code == 0, result.output
        counts.append(json.loads(result.stdout)["streams"])
    assert counts[0] == counts[1] == counts[2] - 1


@pytest.mark.parametrize("source", ["claude", "codex", "hermes"])
def test_bad_window_flags_are_usage_errors(tmp_path, source):
    bad = ingest(source, "--since", "the day before never")
    assert bad.exit_code == 2 and "--since" in bad.output
    both = ingest(source, "--since", "7d", "--since-days", "7")
    assert both.exit_code == 2 and "not both" in both.output
    negative = ingest(source, "--settle", "-1")
    assert negative.exit_code == 2
