"""Reads a quiet or empty answer does not need: a standup whose window no turns or prompts log
was written in builds no facts columns (their first build reads the whole home), and the
session-id scan of a search that found nothing reads the logs a piece at a time."""

from __future__ import annotations

import os
import time
from datetime import datetime, timedelta, timezone

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.lenses import sessions as session_lookup
from carto_core.logio.home import Home


def _standup(home: Home):
    return CliRunner().invoke(cli, ["standup", "--since", "6h", "--json"],
                              env={"CARTO_HOME": str(home.root)})


def test_a_standup_after_a_quiet_spell_builds_no_facts_columns(tmp_path):
    # its sessions three days old, its logs last written two days ago
    home = build_sample_home(tmp_path / "s", now=datetime.now(timezone.utc) - timedelta(days=3))
    quiet = time.time() - 2 * 86400
    for name in os.listdir(home.root):
        os.utime(home.root / name, (quiet, quiet))
    done = _standup(home)
    assert done.exit_code in (0, 3), done.output
    assert not (home.state / "facts" / "columns.bin").exists()
    # a log written since the window began is read through the facts columns, as before
    os.utime(home.log("turns"), None)
    os.utime(home.log("prompts"), None)
    assert _standup(home).exit_code in (0, 3)
    assert (home.state / "facts" / "columns.bin").exists()


def test_the_session_id_scan_reads_a_piece_at_a_time(tmp_path, monkeypatch):
    home = build_sample_home(tmp_path / "s")
    whole = session_lookup.session_ids_with_prefix(home, SESSIONS["a"][:6])
    sizes: list[int] = []
    real = session_lookup.open_log

    class Counted:
        def __init__(self, handle):
            self.handle = handle

        def read(self, size=-1):
            sizes.append(size)
            return self.handle.read(size)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

    monkeypatch.setattr(session_lookup, "open_log", lambda path: Counted(real(path)))
    from carto_core.logio import reader

    monkeypatch.setattr(reader, "CHUNK", 97)  # pieces that cut rows anywhere
    assert session_lookup.session_ids_with_prefix(home, SESSIONS["a"][:6]) == whole == [SESSIONS["a"]]
    assert sizes and all(0 < size <= 97 for size in sizes)
    assert session_lookup.session_ids_with_prefix(home, "no such words") == []


def test_an_empty_search_of_several_words_reads_no_log_for_a_session_id(tmp_path, scans):
    from types import SimpleNamespace

    from carto_core.cli import search_cmd

    home = build_sample_home(tmp_path / "s")
    asked = scans
    empty = lambda query: SimpleNamespace(results=[], query=query)  # noqa: E731
    assert search_cmd._session_named(home, empty("flaky migration timeout")) is None
    assert asked == []
    # one word is still looked up: an id pasted from `carto standup`
    assert search_cmd._session_named(home, empty(SESSIONS["a"][:8])) == SESSIONS["a"][:8]
    assert asked == [SESSIONS["a"][:8]]


def test_rows_holding_a_needle_are_read_a_piece_at_a_time(tmp_path, monkeypatch):
    """`logio.reader.rows_containing` (a session's tree, token counts, the lineage) reads a log
    in pieces ending at a line's end: whatever the piece's size, the rows are those of the
    whole file, in order; a last line not yet ended is left out; a FIFO is not waited on."""
    import json

    from carto_core.logio import reader

    path = tmp_path / "turns.jsonl"
    rows = [{"event_id": f"turn-s{n % 3}-{n}", "session": f"s{n % 3}", "summary": "x" * (n * 7 % 50)}
            for n in range(60)]
    path.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in rows)
                     + b'{"event_id": "turn-s1-open", "session": "s1"')
    wanted = [r for r in rows if r["session"] == "s1"]
    for size in (1, 7, 64, 1 << 20):
        monkeypatch.setattr(reader, "CHUNK", size)
        assert reader.rows_containing(path, b'"session": "s1"') == wanted, size
        assert reader.rows_containing(path, b'"session": "s1"', among=(b'-1"', b'-4"')) == [
            r for r in wanted if r["event_id"].endswith(("-1", "-4"))], size
    os.mkfifo(tmp_path / "fifo")
    assert reader.rows_containing(tmp_path / "fifo", b"s1") == []
