"""`carto sessions` in a narrow terminal: the table was about 110 columns whatever the width, so
at 40 or 80 each row wrapped onto the next lines. Each line now fits, the session id whole and
first; a pipe still gets every column."""

from __future__ import annotations

import json
import re

import pytest

from .pty_run import env_for, in_pty, piped, plain

ARGS = ["sessions", "--since", "1y"]
AGE = r"(just now|\d+(m|h|d|w|mo|y) ago)"
#: The columns each width keeps (the header's words), the least telling given up first.
KEPT = {20: ["id", "project"], 40: ["id", "project", "last", "events"],
        80: ["id", "project", "provider", "start", "end", "events"],
        120: ["id", "project", "provider", "start", "end", "events", "turns", "commits", "edits", "wrapup"]}


def _sessions(env):
    return json.loads(piped([*ARGS, "--json"], env).stdout)["sessions"]


@pytest.mark.parametrize("columns", [20, 40, 80, 120])
def test_each_line_fits_the_terminal_and_starts_with_the_whole_id(sample_home, columns):
    env = env_for()
    rows = _sessions(env)
    code, out = in_pty(ARGS, env, columns=columns)
    lines = plain(out).splitlines()
    assert code == 0 and len(lines) == len(rows) + 1 >= 5, out
    assert all(len(line) <= columns for line in lines), out
    assert lines[0].split() == KEPT[columns]
    for row, line in zip(rows, lines[1:]):
        assert line.startswith(row["session_id"][:8] + "  "), line
        project = line.split()[1]  # whole (pasted into --project) unless the line ends in it
        assert project == row["project"] or (line.endswith("…") and row["project"].startswith(project[:-1])), line
        if "last" in KEPT[columns]:  # start and end give way to how long ago it ended
            assert re.search(f" {AGE} +{row['events']}$", line), line


def test_a_pipe_gets_every_column(sample_home):
    done = piped(ARGS, env_for())
    assert done.stdout.splitlines()[0].split() == KEPT[120]


def test_a_project_too_long_for_the_terminal_is_cut_and_the_id_kept():
    from datetime import datetime, timezone

    from carto_core.cli.sessions_text import session_table

    row = {"session_id": "5a1e0000-aaaa-4000-8000-00000000000a", "project": "customer-billing-service",
           "provider": "claude", "started": "2026-12-01T10:00:00Z", "ended": "2026-12-01T11:00:00Z",
           "events": 12, "turns": 3, "commits": 1, "edits": 2, "wrapup": True}
    now = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
    assert session_table([row], 20, now=now) == ["id        project", "5a1e0000  customer-…"]
    assert session_table([row], 50, now=now)[1] == "5a1e0000  customer-billing-service 1h ago     12"


@pytest.mark.parametrize("columns", [60, 80, 100])
def test_a_sessions_event_lines_fit_the_terminal_with_their_ids_whole(sample_home, columns):
    """`carto session 5a1e` padded every event id to its turn id's 43 columns and gave each text
    70: at 80 columns its lines were 116 to 158 wide and wrapped. Each now fits, its id whole
    and its kind kept (a time and id wider than the terminal alone on their line); the event
    ids still line up, and a pipe keeps every column."""
    env = env_for()
    events = json.loads(piped(["session", "5a1e", "--json"], env).stdout)["events"]
    code, out = in_pty(["session", "5a1e"], env, columns=columns)
    lines = plain(out).splitlines()
    start = lines.index(f"events ({len(events)})") + 1
    shown = lines[start:start + len(events)]
    assert code == 0 and len(shown) == len(events) >= 5, out
    for event, line in zip(events, shown):
        alone = f"  {event['timestamp']} {event['event_id']}"
        if len(alone) > columns:  # a time and id wider than the terminal stand alone, whole
            assert line == alone, line
            continue
        assert len(line) <= columns, line
        assert line.split()[:3] == [event["timestamp"], event["event_id"], event["type"]], line
    short = [line for event, line in zip(events, shown) if event["event_id"].startswith("evt-")]
    assert len({line.index(line.split()[2]) for line in short}) == 1, shown  # kinds in a column
    assert any(len(line.split()) > 3 for line in short), shown  # and text beside them
    piped_lines = piped(["session", "5a1e"], env).stdout.splitlines()
    assert max(map(len, piped_lines)) > 100  # a pipe: every column, for grep and awk
