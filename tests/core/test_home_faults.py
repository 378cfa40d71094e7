"""Every command on a read-only, full or vanished home: one line naming the problem, an exit code
of docs/cli.md, never a traceback; `carto search` on a read-only home still answers, from the
logs, writing nothing, and says so.

The faults are injected into whole `carto` processes by `tests/faults/sitecustomize.py` (on
PYTHONPATH): every write under the home fails with EROFS or ENOSPC, reads work. No root, no
real full disk. A vanished home is a CARTO_HOME that does not exist.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from carto_core.evaluation.sample import SESSIONS, build_sample_home

FAULTS_DIR = Path(__file__).resolve().parents[1] / "faults"
CARTO = [sys.executable, "-c", "import sys; from carto_core.entry import main; sys.exit(main())"]
DOCUMENTED_CODES = {0, 1, 2, 3, 4, 75}
WORDS = {"readonly": "read-only", "full": "no space", "vanished": "does not exist"}

#: Every command of `carto --help` that touches the home, with arguments that make it work, and
#: its exit code on a home that cannot be written: the same as on a healthy home for what only
#: reads, 1 (with the fault named) for what must write.
COMMANDS = [
    (["search", "rounding"], 0), (["search", "rounding", "--json"], 0), (["search", "--get", "evt-x"], 3),
    (["search", "--project", "webshop"], 0), (["search", "--touch", "evt-x"], 1),
    (["facts", "census", "--json"], 0), (["facts", "tempo"], 0), (["standup", "--no-git"], 0),
    (["digest", "day", "today", "--no-git"], 0), (["digest", "session", "--session", SESSIONS["a"]], 0),
    (["wrapup", "--session", SESSIONS["a"], "--decision", "keep it"], 1), (["trustmap"], 0),
    (["profile"], 1), (["index"], 1), (["ingest", "git", "--root", "REPO", "--all-authors"], 1),
    (["doctor"], 1),  # it finds the torn row below, as on a healthy home
    (["config"], 0), (["plugins"], 0), (["repair", "torn-rows", "--write"], 1),
]
#: Commands that may start a home that does not exist (they write one), and those that need none.
STARTS_A_HOME = {"ingest", "index"}
NEEDS_NO_HOME = {"config", "plugins", "ingest"}


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    home = tmp_path_factory.mktemp("faults") / "home"
    os.environ.setdefault("CARTO_HOME", str(home))
    build_sample_home(home)
    # One torn row and one glued row, so `repair torn-rows --write` has something to write.
    with open(home / "changelog.jsonl", "ab") as handle:
        handle.write(b'{"event_id":"evt-torn","summ{"event_id":"evt-glued","summary":"glued"}\n')
    return home


def carto(home: Path, args: list[str], fault: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0"}
    if fault in ("readonly", "full"):
        env["PYTHONPATH"] = os.pathsep.join([str(FAULTS_DIR), env.get("PYTHONPATH", "")])
        env["CARTO_TEST_FAULT"] = f"{fault}:{home}"
    args = [str(Path(__file__).resolve().parents[2]) if a == "REPO" else a for a in args]
    return subprocess.run([*CARTO, *args], capture_output=True, env=env, timeout=120, stdin=subprocess.DEVNULL)


def snapshot(home: Path) -> dict:
    return {str(p.relative_to(home)): p.stat().st_size for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("fault", ["readonly", "full", "vanished"])
@pytest.mark.parametrize("args, code", COMMANDS, ids=[" ".join(a[:2]) for a, _ in COMMANDS])
def test_every_command_degrades_to_one_line_and_a_documented_code(sample, tmp_path, fault, args, code):
    if fault == "vanished":
        home = tmp_path / "gone" / "home"
    else:
        home = sample
        before = snapshot(home)
    done = carto(home, args, fault)
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert done.returncode in DOCUMENTED_CODES, (done.returncode, err)
    said = [line for line in err.splitlines() if line.startswith("carto:")]
    if fault != "vanished":
        assert snapshot(home) == before  # nothing written, nothing half-written
        assert done.returncode == code, err
        if code == 1 and args[0] != "doctor":
            assert sum(WORDS[fault] in line.lower() for line in said) == 1, err
        return
    if args[0] not in STARTS_A_HOME:
        assert not home.exists(), f"carto {args[0]} created a home that did not exist"
    if args[0] in NEEDS_NO_HOME:
        return
    report = err + done.stdout.decode("utf-8", "replace") if args[0] == "doctor" else "\n".join(said)
    assert str(home) in report and ("does not exist" in report or "no changelog" in report), err


@pytest.mark.parametrize("fault", ["readonly", "full"])
def test_search_on_a_home_that_cannot_be_written_answers_and_says_so(sample, fault):
    before = snapshot(sample)
    done = carto(sample, ["search", "rounding decimal", "--json"], fault)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["results"] and "read_only_home" in document
    assert document["read_only_home"]["why"] in ("on a read-only file system", "on a full disk (no space left)")
    assert "telemetry" in " ".join(document["read_only_home"]["skipped"])
    err = done.stderr.decode()
    assert "answering from the logs without writing" in err and str(sample) in err
    assert snapshot(sample) == before
    # The same answer as on a writable home (a copy: the writable run builds its caches).
    copy = sample.parent / f"writable-{fault}"
    shutil.copytree(sample, copy, dirs_exist_ok=True)
    normal = json.loads(carto(copy, ["search", "rounding decimal", "--json", "--all"], "none").stdout)
    assert [r["event_id"] for r in normal["results"]] == [r["event_id"] for r in document["results"]]


def test_a_write_command_on_a_read_only_home_names_it(sample):
    done = carto(sample, ["index"], "readonly")
    assert done.returncode == 1
    assert done.stderr.decode().strip().splitlines() == [
        f"carto: the home {sample} is on a read-only file system: carto index writes its indexes "
        "there (carto search still answers, from the logs)"]
    done = carto(sample, ["profile"], "full")
    assert done.returncode == 1
    (line,) = done.stderr.decode().strip().splitlines()
    assert line.startswith("carto: profile: no space left on the disk holding ")


@pytest.mark.parametrize("args", [["search", "rounding"], ["search", "rounding", "--json"],
                                  ["facts", "census"], ["sessions", "--since", "10y"],
                                  ["doctor"], ["config"]],
                         ids=lambda a: " ".join(a[:2]))
def test_a_reader_that_leaves_early_ends_the_command_quietly(sample, args):
    """`carto sessions | head -1`: the reader closes the pipe before carto has written. The
    command ends with exit 1 and says nothing of it, as any command line tool does; it once
    named the pipe as a fault of the home ("carto: sessions: Broken pipe: a file") and then
    failed again flushing at exit ("Exception ignored ... BrokenPipeError", exit 120)."""
    read, write = os.pipe()
    os.close(read)  # every write to stdout fails with EPIPE, whatever its size
    try:
        done = subprocess.run([*CARTO, *args], stdout=write, stderr=subprocess.PIPE,
                              env={**os.environ, "CARTO_HOME": str(sample), "CARTO_CATCHUP": "0"},
                              timeout=120, stdin=subprocess.DEVNULL)
    finally:
        os.close(write)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 1, err
    assert not [word for word in ("Broken pipe", "BrokenPipeError", "Exception ignored", "Traceback",
                                  "carto: ") if word in err], err
