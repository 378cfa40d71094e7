"""`carto sessions` prints each id as `carto standup` does: 8 characters, longer where another
session of the home starts the same way, so the printed id pasted into `carto session` names
one session. It printed every id's first 8 characters: two Hermes sessions of one day, or two
uuids sharing 8 characters, printed the same id and the paste was ambiguous (exit 2)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.cli.sessions_text import short_ids
from carto_core.lenses.standup import short_ids as standup_ids
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


@pytest.mark.parametrize("sids", [HERMES, UUIDS, [*UUIDS, "cafe0000-0000-4000-8000-000000000000"]])
def test_short_ids_are_standups(sids):
    assert short_ids(sids) == standup_ids(sids)


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
