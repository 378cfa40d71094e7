"""`carto sessions` prints each id as `carto standup` does: 8 characters, longer where another
session of the home starts the same way, so the printed id pasted into `carto session` names
one session. It printed every id's first 8 characters: two Hermes sessions of one day, or two
uuids sharing 8 characters, printed the same id and the paste was ambiguous (exit 2). The
standup counts the home's sessions out of its window too, as `carto sessions` counts those a
filter leaves out."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.cli.sessions_text import short_ids
from carto_core.lenses.standup import standup
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.logio.logs import order_row

HERMES = ["20251124_160000_aa11bb", "20251124_170000_cc22dd"]
UUIDS = ["bbbbbbbb-1111-4000-8000-00000000000a", "bbbbbbbb-2222-4000-8000-00000000000b"]


def _home(tmp_path, sids) -> Home:
    home = Home(tmp_path / "home")
    home.root.mkdir(parents=True)
    rows = [order_row("prompts", {
        "event_id": f"evt-p{i:011d}", "timestamp": f"2026-11-24T1{i}:00:00Z", "type": "prompt",
        "provider": "claude", "summary": f"prompt number {i}", "project": "kestrel",
        "cwd": "/work/kestrel", "session_id": sid, "salience": 0.6}) for i, sid in enumerate(sids)]
    append_rows(home.log("prompts"), rows)
    return home


def _run(home, *args):
    return CliRunner().invoke(cli, list(args), env={"CARTO_HOME": str(home.root), "COLUMNS": "200"})


def _every_pair(ids: list[str]) -> dict[str, str]:
    """The rule stated plainly: lengthened while any other id starts with the id's start."""
    out = {}
    for sid in ids:
        length = 8
        while length < len(sid) and any(o != sid and o.startswith(sid[:length]) for o in ids):
            length += 4
        out[sid] = sid[:length]
    return out


@pytest.mark.parametrize("sids", [HERMES, UUIDS, [*UUIDS, "cafe0000-0000-4000-8000-000000000000"]])
def test_short_ids_from_sorted_neighbours_are_the_rule_over_every_pair(sids):
    assert short_ids(sids) == _every_pair(sids)


@pytest.mark.parametrize("sids", [HERMES, UUIDS])
def test_the_standup_lengthens_an_id_a_session_out_of_its_window_starts_with(tmp_path, sids):
    """The first session is out of the last hour: the second's id is still as long as tells
    them apart, so it pastes into `carto session` (8 characters were ambiguous there, exit 2)."""
    home = _home(tmp_path, sids)
    doc = standup(home, since="1h", now=datetime(2026, 11, 24, 11, 30, tzinfo=timezone.utc),
                  scan_unclaimed=False, scan_silent=False)
    assert [(s["id"], s["short"]) for s in doc["sessions"]] == [(sids[1], sids[1][:12])]
    assert _run(home, "session", sids[1][:12], "--json").exit_code == 0
    assert _run(home, "session", sids[1][:8], "--json").exit_code == 2


@pytest.mark.parametrize("sids", [HERMES, UUIDS])
@pytest.mark.parametrize("limit", ["50", "1"])
def test_each_printed_id_pastes_into_carto_session(tmp_path, sids, limit):
    """With `-n 1` the other session is not printed; the id printed must still be its own."""
    home = _home(tmp_path, sids)
    done = _run(home, "sessions", "--since", "10y", "-n", limit)
    assert done.exit_code == 0, done.output
    printed = [line.split()[0] for line in done.output.splitlines()[1:] if not line.startswith("(")]
    assert len(printed) == int(limit) if limit == "1" else len(printed) == 2
    assert len(set(printed)) == len(printed)
    for short in printed:
        assert len(short) >= 8
        pasted = _run(home, "session", short, "--json")
        assert pasted.exit_code == 0, pasted.output
        assert '"session_id": "' + next(s for s in sids if s.startswith(short)) + '"' in pasted.output
