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
