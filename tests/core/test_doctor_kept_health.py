"""`carto doctor` reads every row of every log once; later runs read only what was appended
since (`<home>/.carto/doctor-logs.json`: counts, line numbers, the newest time, no row text),
and report what a full read reports. A log rewritten, replaced or truncated is read whole again.
Piped, a long read says how far it got in a plain line now and then."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio import reader

ROW = ('{{"event_id":"evt-{n:06d}","timestamp":"2026-09-{day:02d}T10:00:00Z","type":"tool_bash",'
       '"summary":"Ran: make step {n}","project":"p","session":"s"}}\n')


def _rows(first: int, count: int, day: int = 8) -> str:
    return "".join(ROW.format(n=n, day=day) for n in range(first, first + count))


@pytest.fixture
def home(tmp_path, monkeypatch):
    root = tmp_path / "home"
    (root / ".carto").mkdir(mode=0o700, parents=True)
    root.chmod(0o700)
    (root / "tool-use-log.jsonl").write_text(_rows(0, 50) + "not json at all\n" + _rows(50, 50))
    (root / "changelog.jsonl").write_text(_rows(0, 30) + '{"event_id":"evt-torn","timest')
    for log in root.glob("*.jsonl"):
        log.chmod(0o600)
    monkeypatch.setenv("CARTO_HOME", str(root))
    monkeypatch.setenv("CARTO_PROGRESS", "0")
    return root


@pytest.fixture
def reads(monkeypatch):
    """Where each read of a log started: {log name: [start offsets]}."""
    seen: dict[str, list[int]] = {}
    real = reader.iter_lines

    def spy(path, report=None, **kwargs):
        seen.setdefault(os.path.basename(path), []).append(kwargs.get("start", 0))
        return real(path, report, **kwargs)

    monkeypatch.setattr(reader, "iter_lines", spy)
    return seen


def _logs() -> dict:
    result = CliRunner().invoke(cli, ["doctor", "--no-probe", "--json"])
    assert result.exit_code in (0, 1), result.output
    return {log["log"]: log for log in json.loads(result.stdout)["logs"]}


def _full_read(home) -> dict:
    (home / ".carto" / "doctor-logs.json").unlink()
    return _logs()


def test_a_second_run_reads_only_what_was_appended(home, reads):
    first = _logs()
    assert reads["tool-use-log.jsonl"] == [0] and reads["changelog.jsonl"] == [0]
    assert (home / ".carto" / "doctor-logs.json").stat().st_mode & 0o777 == 0o600
    assert "make step" not in (home / ".carto" / "doctor-logs.json").read_text()  # no row text
    reads.clear()
    assert _logs() == first
    tool_end = (home / "tool-use-log.jsonl").stat().st_size
    assert reads["tool-use-log.jsonl"] == [tool_end]  # nothing new: read from its end
    # the torn last line stays out of what is kept: read (and said) again each run
    assert reads["changelog.jsonl"][0] == (home / "changelog.jsonl").read_bytes().rindex(b"\n") + 1
    assert first["changelog"]["problems"] == {"torn_line": 1}

    with open(home / "tool-use-log.jsonl", "a") as log:
        log.write(_rows(100, 5, day=9) + "[1, 2]\n")
    reads.clear()
    grown = _logs()
    assert reads["tool-use-log.jsonl"] == [tool_end]
    assert grown["tool-use"]["rows"] == 105 and grown["tool-use"]["malformed"] == 2
    assert grown["tool-use"]["newest_timestamp"] == "2026-09-09T10:00:00Z"
    assert grown["tool-use"]["problem_lines"] == {"malformed_json": [51], "not_an_object": [107]}
    assert grown == _full_read(home)


def test_a_log_rewritten_or_cut_is_read_whole_again(home, reads):
    _logs()
    path = home / "tool-use-log.jsonl"
    # replaced by a file of the same size (a rewrite: another inode)
    data = path.read_bytes().replace(b"not json at all", b'{"event_id":"x"}' + b" " * 15)
    replacement = home / "tool-use-log.jsonl.new"
    replacement.write_bytes(data)
    os.replace(replacement, path)
    reads.clear()
    after = _logs()
    assert reads["tool-use-log.jsonl"] == [0]
    assert after["tool-use"]["malformed"] == 0 and after["tool-use"]["rows"] == 101
    # edited in place to the same size: its mtime moved, its size did not
    with open(path, "r+b") as log:
        log.write(b"garbage\n")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    reads.clear()
    edited = _logs()
    assert reads["tool-use-log.jsonl"] == [0]
    assert edited["tool-use"]["malformed"] == 2  # the first row, cut in two
    # cut short
    path.write_bytes(path.read_bytes()[: len(data) // 2])
    reads.clear()
    cut = _logs()
    assert reads["tool-use-log.jsonl"] == [0]
    assert cut == _full_read(home)


def test_a_damaged_kept_file_is_a_full_read(home, reads):
    first = _logs()
    (home / ".carto" / "doctor-logs.json").write_text('{"version": 1, "logs": {"tool-use": {"state": 7}}}')
    reads.clear()
    assert _logs() == first
    assert reads["tool-use-log.jsonl"] == [0]


def test_a_home_without_its_state_folder_gets_none(home, reads):
    """doctor makes no folder in a home (tests/install/test_doctor_hooks.py): without `.carto/`
    every run reads every row."""
    (home / ".carto").rmdir()
    first = _logs()
    reads.clear()
    assert _logs() == first
    assert reads["tool-use-log.jsonl"] == [0]
    assert not (home / ".carto").exists()


def test_piped_a_long_read_says_how_far_it_got_in_plain_lines(home, monkeypatch):
    """Piped (`carto doctor 2>&1 | less`), the read of a large home printed nothing for many
    seconds. A stderr that is no terminal gets a plain line every PLAIN_EVERY seconds (none in
    a shorter run), never redrawn."""
    from carto_core.util import progress

    monkeypatch.delenv("CARTO_PROGRESS")
    quick = CliRunner().invoke(cli, ["doctor", "--no-probe"])
    assert "carto: checking" not in quick.stderr
    (home / ".carto" / "doctor-logs.json").unlink()
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.0, raising=False)
    done = CliRunner().invoke(cli, ["doctor", "--no-probe"])
    lines = done.stderr.splitlines()
    assert "carto: checking every row of tool-use-log.jsonl" in lines, lines
    assert "\r" not in done.stderr and "\x1b" not in done.stderr
    assert done.stdout.startswith("home: ")
