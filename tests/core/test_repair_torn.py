"""`carto repair torn-rows`: glued rows split, torn rows settled by copies, nothing destroyed,
and a row another process appends while the repair runs survives it."""

from __future__ import annotations

import json
import os

from click.testing import CliRunner

from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.logs import order_row
from carto_core.logio.reader import ReadReport, iter_lines
from carto_core.repair import run_repair
from carto_core.repair.torn import TornRows

def tool_pair(event_id: str, summary: str) -> tuple[dict, dict]:
    """A tool-use row and its changelog copy, as `capture.tooluse.tool_use_pair` builds them."""
    common = {"event_id": event_id, "timestamp": "2026-03-01T10:00:00Z", "type": "tool_bash",
              "provider": "claude", "summary": summary, "project": "shop", "cwd": "/src/shop",
              "transcript_path": "/t/s1.jsonl", "diff_shape": None, "salience": 0.2,
              "parent_event_id": None}
    keep = frozenset({"diff_shape"})
    tool = order_row("tool-use", {**common, "tool": "Bash", "session": "s1"}, keep_none=keep)
    change = order_row("changelog", {**common, "session_id": "s1", "related_ids": []}, keep_none=keep)
    return tool, change


def ids_and_report(path):
    report = ReadReport(str(path))
    return [line.row["event_id"] for line in iter_lines(path, report)], report


def test_glued_row_is_split_onto_its_own_line(tmp_path):
    home = Home(tmp_path)
    path = home.log("changelog")
    path.write_bytes(b'{"event_id":"a"}\n{"event_id":"b","summ{"event_id":"c","summary":"glued"}\n')
    _, before = ids_and_report(path)
    assert before.problems == {"glued_row": 1}
    doc = run_repair(TornRows(), home, write=True)
    assert (doc["torn"], doc["glued"], doc["unsettled"], doc["fixed"]) == (1, 1, 1, 1)
    assert path.read_bytes() == (b'{"event_id":"a"}\n{"event_id":"b","summ\n'
                                 b'{"event_id":"c","summary":"glued"}\n')
    ids, after = ids_and_report(path)
    assert ids == ["a", "c"] and after.problems == {"torn_row": 1}


def test_torn_changelog_copy_is_rebuilt_byte_for_byte_from_the_tool_use_row(tmp_path):
    home = Home(tmp_path)
    tool, change = tool_pair("evt-aaaaaaaaaaaa", "Ran: make test")
    other_tool, other_change = tool_pair("evt-bbbbbbbbbbbb", "Ran: ls")
    append_rows(home.log("tool-use"), [tool, other_tool])
    whole = dumps_row(change)
    home.log("changelog").write_bytes(whole[:40] + b"\n" + dumps_row(other_change))
    dry = run_repair(TornRows(), home)
    assert (dry["torn"], dry["restored"], dry["fixed"], dry["would_fix"]) == (1, 1, 0, 1)
    assert home.log("changelog").read_bytes().startswith(whole[:40] + b"\n")  # dry: untouched
    done = run_repair(TornRows(), home, write=True)
    assert (done["restored"], done["fixed"]) == (1, 1)
    assert home.log("changelog").read_bytes() == whole + dumps_row(other_change)


def test_piece_that_no_copy_rebuilds_exactly_is_kept(tmp_path):
    home = Home(tmp_path)
    tool, change = tool_pair("evt-aaaaaaaaaaaa", "Ran: make test")
    append_rows(home.log("tool-use"), [dict(tool, summary="Ran: something else")])
    torn = dumps_row(change)[:-30]  # past the summary, which differs from the copy's
    home.log("changelog").write_bytes(torn + b"\n")
    done = run_repair(TornRows(), home, write=True)
    assert (done["torn"], done["unsettled"], done["restored"], done["fixed"]) == (1, 1, 0, 0)
    assert home.log("changelog").read_bytes() == torn + b"\n"


def test_piece_whose_whole_row_was_written_again_is_dropped(tmp_path):
    home = Home(tmp_path)
    row = dumps_row({"event_id": "evt-x", "summary": "spilled, then flushed"})
    home.log("tool-use").write_bytes(row[:20] + b"\n" + b'{"event_id":"y"}\n' + row)
    done = run_repair(TornRows(), home, write=True)
    assert (done["torn"], done["duplicates"], done["fixed"]) == (1, 1, 1)
    assert home.log("tool-use").read_bytes() == b'{"event_id":"y"}\n' + row


def _two_torn_pieces_then_a_sealed_row(home):
    """What the soak once left: two rows torn one straight after the other (the first piece
    never sealed), then a row an appender sealed them with."""
    first, _ = tool_pair("evt-aaaaaaaaaaaa", "Ran: make target-w6-4")
    second, _ = tool_pair("evt-bbbbbbbbbbbb", "Ran: make target-w4-17")
    after, _ = tool_pair("evt-cccccccccccc", "Ran: make target-w1-3")
    path = home.log("tool-use")
    append_rows(path, [first, second])
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    os.write(fd, dumps_row(first)[:230])  # cut inside the cwd string, as in the soak
    os.write(fd, dumps_row(second)[:200])
    os.close(fd)
    append_rows(path, [after])
    return path, first, second, after


def test_torn_pieces_one_after_another_are_read_as_torn_and_each_settled(tmp_path):
    home = Home(tmp_path)
    path, first, second, after = _two_torn_pieces_then_a_sealed_row(home)
    _, before = ids_and_report(path)
    assert before.problems == {"torn_row": 1}  # was malformed_json: not seen as torn at all
    done = run_repair(TornRows(), home, write=True)
    assert (done["torn"], done["duplicates"], done["unsettled"], done["fixed"]) == (2, 2, 0, 2)
    assert path.read_bytes() == dumps_row(first) + dumps_row(second) + dumps_row(after)


def test_of_torn_pieces_one_after_another_the_one_without_a_copy_is_kept(tmp_path):
    home = Home(tmp_path)
    path, first, second, after = _two_torn_pieces_then_a_sealed_row(home)
    # the first row's whole line is gone (its writer never finished it): its piece stays
    path.write_bytes(path.read_bytes().replace(dumps_row(first), b"", 1))
    piece = dumps_row(first)[:230]
    done = run_repair(TornRows(), home, write=True)
    assert (done["torn"], done["duplicates"], done["unsettled"], done["fixed"]) == (2, 1, 1, 1)
    assert path.read_bytes() == dumps_row(second) + piece + b"\n" + dumps_row(after)
    ids, report = ids_and_report(path)
    assert ids == ["evt-bbbbbbbbbbbb", "evt-cccccccccccc"] and report.problems == {"torn_row": 1}


def test_a_torn_piece_holding_a_nested_row_start_is_settled_whole(tmp_path):
    """`{"event_id":"` inside a row (a nested object's first key) is not taken for a second
    torn row when the whole piece has its copy."""
    home = Home(tmp_path)
    row = dumps_row({"event_id": "evt-x", "input": {"event_id": "nested", "n": 1}, "summary": "s"})
    path = home.log("tool-use")
    path.write_bytes(row + row[:row.index(b'"n"')] + b"\n")
    done = run_repair(TornRows(), home, write=True)
    assert (done["torn"], done["duplicates"], done["unsettled"]) == (1, 1, 0)
    assert path.read_bytes() == row


def test_nul_runs_a_crash_left_are_removed_and_garbage_is_kept(tmp_path):
    home = Home(tmp_path)
    home.log("changelog").write_bytes(b'{"event_id":"a"}\n\x00\x00\x00\x00\nnot json at all\n')
    done = run_repair(TornRows(), home, write=True)
    assert (done["nul_runs"], done["torn"], done["fixed"]) == (1, 0, 1)
    assert home.log("changelog").read_bytes() == b'{"event_id":"a"}\nnot json at all\n'


def test_row_appended_by_another_process_during_the_repair_survives(tmp_path, during_write):
    home = Home(tmp_path)
    path = home.log("changelog")
    path.write_bytes(b'{"event_id":"a"}\n{"event_id":"b","x{"event_id":"c"}\n')
    repair = TornRows()
    passes = during_write(repair, "changelog", path, {"event_id": "during"})
    doc = run_repair(repair, home, write=True)
    assert passes.count("changelog") == 2 and doc["fixed"] == 1
    ids, report = ids_and_report(path)
    assert sorted(ids) == ["a", "c", "during"]
    assert report.problems == {"torn_row": 1}
    assert not [n for n in os.listdir(tmp_path) if ".rewrite-" in n]


def test_cli_dry_run_json_and_exit_codes(tmp_path):
    env = {"CARTO_HOME": str(tmp_path)}
    Home(tmp_path).log("changelog").write_bytes(b'{"event_id":"a"}\n{"event_id":"b","x{"event_id":"c"}\n')
    result = CliRunner().invoke(cli, ["repair", "torn-rows", "--json"], env=env)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert (doc["dry_run"], doc["torn"], doc["glued"], doc["fixed"], doc["would_fix"]) == (True, 1, 1, 0, 1)
    result = CliRunner().invoke(cli, ["repair", "torn-rows", "--write"], env=env)
    assert result.exit_code == 0 and "1 fixed" in result.stdout
    Home(tmp_path).log("changelog").write_bytes(b'{"event_id":"a"}\n')
    result = CliRunner().invoke(cli, ["repair", "torn-rows"], env=env)
    assert result.exit_code == 3 and "0 torn rows found" in result.stdout
