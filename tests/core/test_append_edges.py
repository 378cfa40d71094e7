"""Appends that never lose a row: after a torn last line, with lone surrogates, on a full or
read-only home (faults injected into `os.write` / `os.open`: no root, no real full disk)."""

from __future__ import annotations

import errno
import json
import os

import orjson
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from carto_core.logio import appendlog
from carto_core.logio import spill
from carto_core.logio.appendlog import append_lines, append_rows
from carto_core.logio.jsonl import dumps_row, loads_line, replace_surrogates
from carto_core.logio.reader import ReadReport, iter_lines


def read(path):
    report = ReadReport(str(path))
    return [line.row for line in iter_lines(path, report)], report


# --- torn last line --------------------------------------------------------------------------


def test_append_after_a_torn_last_line_starts_a_line_of_its_own(tmp_path):
    path = tmp_path / "changelog.jsonl"
    path.write_bytes(b'{"event_id":"a"}\n{"event_id":"torn","summary":"cut he')
    sealed = []
    append_lines(path, [dumps_row({"event_id": "b"})], on_seal=sealed.append)
    assert path.read_bytes() == b'{"event_id":"a"}\n{"event_id":"torn","summary":"cut he\n{"event_id":"b"}\n'
    rows, report = read(path)
    assert [r["event_id"] for r in rows] == ["a", "b"]
    assert report.problems == {"torn_row": 1}  # counted (doctor shows it), never silent
    assert sealed == [str(path)]


def test_append_to_a_clean_or_empty_log_adds_no_blank_line(tmp_path):
    path = tmp_path / "x.jsonl"
    append_rows(path, [{"event_id": "a"}])
    append_rows(path, [{"event_id": "b"}])
    assert path.read_bytes() == b'{"event_id":"a"}\n{"event_id":"b"}\n'


def test_reader_reads_a_row_an_older_appender_glued_to_a_torn_one(tmp_path):
    path = tmp_path / "changelog.jsonl"
    path.write_bytes(b'{"event_id":"torn","summ{"event_id":"b","nested":{"k":1}}\n')
    rows, report = read(path)
    assert rows == [{"event_id": "b", "nested": {"k": 1}}]
    assert report.problems == {"glued_row": 1}


def test_the_retry_after_a_swap_writes_the_row_to_the_new_file(tmp_path, monkeypatch):
    """The file is replaced between the appender's write and its check (a rewrite that read
    before the write and copies no tail): the row must be written again to the new file."""
    path = tmp_path / "changelog.jsonl"
    path.write_bytes(b'{"event_id":"old"}\n')
    real_write = os.write
    swapped = []

    def write_then_swap(fd, data):
        done = real_write(fd, data)
        if not swapped and b'"new"' in data:
            swapped.append(True)
            replacement = tmp_path / "replacement"
            replacement.write_bytes(b'{"event_id":"old"}\n')
            os.replace(replacement, path)
        return done

    with monkeypatch.context() as patch:
        patch.setattr(appendlog.os, "write", write_then_swap)
        assert append_rows(path, [{"event_id": "new"}]) == 1
    assert [r["event_id"] for r in read(path)[0]] == ["old", "new"]


# --- lone surrogates -------------------------------------------------------------------------


def test_dumps_row_replaces_lone_surrogates_instead_of_failing():
    line = dumps_row({"event_id": "e", "cwd": "/src/caf\udce9", "summary": "cut \ud83d emoji", "\udc80k": 1})
    assert json.loads(line) == {"event_id": "e", "cwd": "/src/caf\ufffd", "summary": "cut \ufffd emoji",
                                "\ufffdk": 1}
    assert line.decode("utf-8")  # valid UTF-8


def test_a_lone_surrogate_escape_in_a_log_is_read_as_replacement_and_serialisable(tmp_path):
    path = tmp_path / "changelog.jsonl"
    path.write_bytes(b'{"event_id":"e","summary":"cut \\ud83d here","pair":"\\ud83d\\ude00"}\n')
    rows, report = read(path)
    assert rows == [{"event_id": "e", "summary": "cut \ufffd here", "pair": "\U0001f600"}]
    assert report.problems == {"lone_surrogate": 1}
    orjson.dumps(rows[0])  # what `search --json` does: raised on a lone surrogate before
    value, problem = loads_line(b'{"a":"\\ud83d\\ude00"}')
    assert (value, problem) == ({"a": "\U0001f600"}, None)  # a real pair is no problem


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(max_size=5), st.text(alphabet=st.characters(min_codepoint=0xD7F0,
                                                                              max_codepoint=0xE010),
                                                       max_size=6), min_size=1, max_size=4))
def test_any_row_with_surrogates_encodes_to_one_valid_line(row):
    original = {"event_id": "e", **row}
    line = dumps_row(original)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    # Every surrogate became U+FFFD and nothing else changed (keys that became equal: the last
    # one wins, as a JSON decoder does).
    assert json.loads(line) == {replace_surrogates(k): replace_surrogates(v) for k, v in original.items()}


# --- full or read-only home: the spill file --------------------------------------------------


def _refuse_writes_under(monkeypatch, folder, code):
    """`os.write` into any file under `folder` fails with `code` (a full disk, a quota)."""
    real_write = os.write
    folder = os.fspath(folder)

    def write(fd, data):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            target = ""
        if target.startswith(folder + os.sep):
            raise OSError(code, os.strerror(code))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)


def test_rows_a_full_home_refuses_are_spilled_and_flushed_by_the_next_write(tmp_path, monkeypatch):
    home = tmp_path / "home"
    log = home / "changelog.jsonl"
    append_rows(log, [{"event_id": "before"}])
    with monkeypatch.context() as patch:
        _refuse_writes_under(patch, home, errno.ENOSPC)
        result = spill.land(home, log, [dumps_row({"event_id": "s1"}), dumps_row({"event_id": "s2"})])
    assert (result["written"], result["spilled"], result["dropped"]) == (0, 2, 0)
    assert result["error"].errno == errno.ENOSPC
    assert [r["event_id"] for r in read(log)[0]] == ["before"]
    spilled = spill.spill_path(home)
    assert os.path.exists(spilled) and os.path.dirname(spilled) == os.environ["CARTO_SPILL_DIR"]
    assert not spilled.startswith(str(home))
    after = spill.land(home, log, [dumps_row({"event_id": "next"})])
    assert (after["written"], after["flushed"]) == (1, 2)
    assert [r["event_id"] for r in read(log)[0]] == ["before", "next", "s1", "s2"]
    assert not os.path.exists(spilled)
    assert [n for n in os.listdir(os.environ["CARTO_SPILL_DIR"]) if ".flush-" in n] == []


def test_a_row_refused_half_way_through_a_batch_spills_only_the_rest(tmp_path, monkeypatch):
    home = tmp_path / "home"
    log = home / "changelog.jsonl"
    real_write = os.write
    calls = []

    def second_write_fails(fd, data):
        calls.append(data)
        if len(calls) == 2:
            raise OSError(errno.EDQUOT, "quota")
        return real_write(fd, data)

    with monkeypatch.context() as patch:  # (monkeypatch.undo would also undo the conftest's env)
        patch.setattr(appendlog.os, "write", second_write_fails)
        result = spill.land(home, log, [dumps_row({"event_id": f"r{i}"}) for i in range(3)])
    assert (result["written"], result["spilled"]) == (1, 2)
    spill.flush(home)
    assert [r["event_id"] for r in read(log)[0]] == ["r0", "r1", "r2"]


def test_the_spill_file_is_bounded(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("CARTO_SPILL_MAX_BYTES", "300")  # an entry is ~150 bytes here
    with monkeypatch.context() as patch:
        _refuse_writes_under(patch, home, errno.EROFS)
        result = spill.land(home, home / "changelog.jsonl",
                            [dumps_row({"event_id": f"r{i}", "pad": "x" * 60}) for i in range(5)])
    assert result["written"] == 0 and result["spilled"] + result["dropped"] == 5
    assert 1 <= result["spilled"] < 5
    assert os.path.getsize(spill.spill_path(home)) <= 300


def test_a_spill_entry_never_writes_outside_its_home(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    path = spill.spill_path(home)
    with open(path, "w") as handle:
        handle.write(json.dumps({"home": str(home), "log": "../escape.jsonl", "line": "{}"}) + "\n")
        handle.write(json.dumps({"home": "/elsewhere", "log": "changelog.jsonl", "line": "{}"}) + "\n")
        handle.write('{"home": "cut by a cra')
    assert spill.flush(home) == (0, 0)
    assert not (tmp_path / "escape.jsonl").exists() and not (home / "changelog.jsonl").exists()


def _spill_entries(home, *event_ids):
    return "".join(json.dumps({"home": os.path.abspath(home), "log": "changelog.jsonl",
                               "line": dumps_row({"event_id": e}).decode().rstrip("\n")}) + "\n"
                   for e in event_ids)


def _dead_pid() -> int:
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_claim_whose_flusher_died_is_adopted_by_the_next_flush(tmp_path):
    """A flusher killed between its claim and its unlink (the hook's wall-clock cap) used to
    leave `<spill>.flush-<pid>` for ever: its rows were never appended."""
    home = tmp_path / "home"
    home.mkdir()
    path = spill.spill_path(home)
    with open(f"{path}.flush-{_dead_pid()}", "w") as handle:
        handle.write(_spill_entries(home, "orphan1", "orphan2"))
    with open(path, "w") as handle:
        handle.write(_spill_entries(home, "newer"))
    assert spill.flush(home) == (3, 0)
    assert [r["event_id"] for r in read(home / "changelog.jsonl")[0]] == ["orphan1", "orphan2", "newer"]
    assert [n for n in os.listdir(os.path.dirname(path)) if ".flush-" in n or n == os.path.basename(path)] == []


def test_a_live_flushers_claim_is_left_alone(tmp_path):
    import subprocess
    import sys

    home = tmp_path / "home"
    home.mkdir()
    path = spill.spill_path(home)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        claim = f"{path}.flush-{child.pid}"
        with open(claim, "w") as handle:
            handle.write(_spill_entries(home, "theirs"))
        assert spill.flush(home) == (0, 0)
        assert os.path.exists(claim) and not (home / "changelog.jsonl").exists()
        assert [(e["entries"], e["claimed_by"], e["orphaned"]) for e in spill.pending(home)] == [(1, child.pid, False)]
    finally:
        child.kill()
        child.wait()


def test_a_stale_claim_with_this_pid_is_flushed_not_overwritten(tmp_path):
    """A dead process whose pid came round again to this one: claiming the spill file used to
    rename it over that claim, and the claim's rows were gone."""
    home = tmp_path / "home"
    home.mkdir()
    path = spill.spill_path(home)
    with open(f"{path}.flush-{os.getpid()}", "w") as handle:
        handle.write(_spill_entries(home, "stale"))
    with open(path, "w") as handle:
        handle.write(_spill_entries(home, "fresh"))
    assert spill.flush(home) == (2, 0)
    assert [r["event_id"] for r in read(home / "changelog.jsonl")[0]] == ["stale", "fresh"]


def test_pending_counts_what_waits_and_creates_nothing(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("CARTO_SPILL_DIR", str(tmp_path / "not-yet"))
    assert spill.pending(home) == [] and not (tmp_path / "not-yet").exists()
    monkeypatch.setenv("CARTO_SPILL_DIR", str(tmp_path / "spill"))
    (tmp_path / "spill").mkdir(mode=0o700)
    path = spill.spill_path(home)
    with open(path, "w") as handle:
        handle.write(_spill_entries(home, "a", "b") + '{"home": "cut by a cra')
    dead = _dead_pid()
    with open(f"{path}.flush-{dead}", "w") as handle:
        handle.write(_spill_entries(home, "c"))
    got = [(e["path"], e["entries"], e["claimed_by"], e["orphaned"]) for e in spill.pending(home)]
    assert got == [(path, 3, None, False), (f"{path}.flush-{dead}", 1, dead, True)]


def test_errors_that_are_not_the_homes_fault_still_raise(tmp_path, monkeypatch):
    def broken(fd, data):
        raise OSError(errno.EBADF, "bad descriptor")

    monkeypatch.setattr(appendlog.os, "write", broken)
    with pytest.raises(OSError):
        spill.land(tmp_path, tmp_path / "changelog.jsonl", [dumps_row({"event_id": "x"})])


# --- what counts as a torn row ---------------------------------------------------------------

row_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=8), row_values, min_size=1, max_size=6), st.data())
def test_every_cut_of_a_row_is_a_torn_row_and_garbage_is_not(row, data):
    from carto_core.logio.reader import looks_torn

    line = dumps_row({"event_id": "evt-x", **row})[:-1]
    cut = data.draw(st.integers(min_value=1, max_value=len(line) - 1))
    assert looks_torn(line[:cut]), line[:cut]  # a strict prefix of an object is never whole JSON
    assert not looks_torn(line)
    for garbage in (b"{not json", b'{"a":1}}', b'{"a" 1}', b'{"a":1,]', b"[1,2", b'{"a":x}', b"plain text"):
        assert not looks_torn(garbage)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=8), row_values, min_size=1, max_size=6),
       st.dictionaries(st.text(max_size=8), row_values, min_size=1, max_size=6), st.data())
def test_torn_rows_one_after_another_split_where_each_starts(first, second, data):
    from carto_core.logio.reader import split_torn

    start = b'{"event_id":"'
    pieces = []
    for event_id, row in (("evt-a", first), ("evt-b", second)):
        line = dumps_row({"event_id": event_id, **row})[:-1]
        assume(line.startswith(start) and line.find(start, 1) < 0)  # no nested row start
        pieces.append(line[:data.draw(st.integers(min_value=len(start), max_value=len(line) - 1))])
    assert split_torn(pieces[0] + pieces[1]) == pieces
    assert split_torn(pieces[0]) is None  # one torn row is not several
    assert split_torn(pieces[0] + dumps_row({"event_id": "evt-c"})[:-1]) is None  # a glued row


# --- edges mutation testing found untested ---------------------------------------------------


def test_a_one_byte_torn_log_is_sealed_too(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"{")
    append_rows(path, [{"event_id": "a"}])
    assert path.read_bytes() == b'{\n{"event_id":"a"}\n'


def test_an_appender_alone_finishes_a_rewrite_that_died_after_its_swap(tmp_path):
    """No reader in between: the append itself must settle the dead rewrite (the journal's
    rows are in the file's bytes afterwards)."""
    from carto_core.logio import rewrite_journal

    path = tmp_path / "changelog.jsonl"
    append_rows(path, [{"event_id": "e0"}])
    os.link(path, rewrite_journal.journal_path(path))
    read_upto = path.stat().st_size
    with open(path, "ab") as handle:
        handle.write(dumps_row({"event_id": "late"}))  # only in the old inode
    rewrite_journal.write_intent(path, {"read_upto": read_upto, "temporary": "x"})
    replacement = tmp_path / "new"
    replacement.write_bytes(dumps_row({"event_id": "e0", "rewritten": True}))
    os.replace(replacement, path)
    append_rows(path, [{"event_id": "next"}])
    assert path.read_bytes() == (dumps_row({"event_id": "e0", "rewritten": True}) + dumps_row({"event_id": "late"})
                                 + dumps_row({"event_id": "next"}))
    assert not os.path.exists(rewrite_journal.intent_path(path))


def test_an_appender_gives_up_after_eight_swaps_in_a_row(tmp_path, monkeypatch):
    path = tmp_path / "changelog.jsonl"
    real_write = os.write
    writes = []

    def write_then_swap(fd, data):
        done = real_write(fd, data)
        if b'"x"' in data:
            writes.append(1)
            replacement = tmp_path / "r"
            replacement.write_bytes(b"")
            os.replace(replacement, path)
        return done

    with monkeypatch.context() as patch:
        patch.setattr(appendlog.os, "write", write_then_swap)
        with pytest.raises(OSError, match="kept being replaced"):
            append_rows(path, [{"event_id": "x"}])
    assert len(writes) == 8


def test_a_short_write_is_a_full_disk_and_its_row_is_spilled(tmp_path, monkeypatch):
    home = tmp_path / "home"
    real_write = os.write

    def short(fd, data):  # on the home's disk only: the spill folder is elsewhere
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(home)):
            return real_write(fd, data[: len(data) // 2])
        return real_write(fd, data)

    with monkeypatch.context() as patch:
        patch.setattr(appendlog.os, "write", short)
        with pytest.raises(appendlog.AppendError) as caught:
            append_rows(home / "changelog.jsonl", [{"event_id": "x", "pad": "y" * 40}])
        assert caught.value.errno == errno.ENOSPC and "short write" in caught.value.strerror
        assert caught.value.written == 0
        result = spill.land(home, home / "changelog.jsonl", [dumps_row({"event_id": "z"})])
    assert result["spilled"] == 1 and result["error"].errno == errno.ENOSPC


def _homes_sharing_a_spill_file(base) -> tuple:
    """Two home folders under `base` whose absolute paths have the same crc32 (so the same
    spill file name): a birthday search over equal-length names."""
    import random
    import zlib

    # (names that differ in a few low bits of a few bytes never collide: crc32 is built to
    # tell such messages apart, so the names are random over 16 letters and digits)
    rng = random.Random(0)
    seen: dict[int, str] = {}
    prefix = os.path.abspath(base) + os.sep
    letters = "abcdefghijklmnopqrstuvwxyz0123456789"
    for _ in range(1 << 21):
        name = "".join(rng.choices(letters, k=16))
        crc = zlib.crc32((prefix + name).encode())
        if crc in seen:
            return base / seen[crc], base / name
        seen[crc] = name
    raise AssertionError("no crc32 collision found")


def test_a_home_whose_path_shares_the_spill_file_keeps_its_spilled_rows(tmp_path):
    """The flush of one home used to drop the entries of another whose path has the same crc
    (the same spill file) and remove the file: that home's rows were lost."""
    first, second = _homes_sharing_a_spill_file(tmp_path)
    assert spill.spill_path(first) == spill.spill_path(second)
    path = spill.spill_path(first)
    with open(path, "w") as handle:
        handle.write(_spill_entries(second, "theirs1") + _spill_entries(first, "mine")
                     + _spill_entries(second, "theirs2"))
    assert spill.flush(first) == (1, 0)
    assert [r["event_id"] for r in read(first / "changelog.jsonl")[0]] == ["mine"]
    assert not (second / "changelog.jsonl").exists()
    assert spill.flush(second) == (2, 0)
    assert [r["event_id"] for r in read(second / "changelog.jsonl")[0]] == ["theirs1", "theirs2"]
    assert not os.path.exists(path)
    assert [r["event_id"] for r in read(first / "changelog.jsonl")[0]] == ["mine"]


def test_another_homes_entries_do_not_hold_back_this_homes_put_back_rows(tmp_path, monkeypatch):
    """A row this home cannot take yet keeps its place before this home's later rows; the other
    home's entries, put back too, come first in the file and are not counted as this home's."""
    first, second = _homes_sharing_a_spill_file(tmp_path)
    path = spill.spill_path(first)
    with open(path, "w") as handle:
        handle.write(_spill_entries(first, "a1") + _spill_entries(second, "theirs")
                     + _spill_entries(first, "a2"))
    with monkeypatch.context() as patch:
        _refuse_writes_under(patch, first, errno.ENOSPC)
        assert spill.flush(first) == (0, 2)
    kept = [json.loads(line) for line in open(path)]
    assert [(e["home"] == str(second), json.loads(e["line"])["event_id"]) for e in kept] == [
        (True, "theirs"), (False, "a1"), (False, "a2")]
    assert spill.flush(first) == (2, 0)
    assert [r["event_id"] for r in read(first / "changelog.jsonl")[0]] == ["a1", "a2"]
    assert spill.flush(second) == (1, 0)
    assert not os.path.exists(path)
