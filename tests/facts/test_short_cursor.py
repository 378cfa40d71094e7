"""The cursor `carto facts pulse` and `delta` print for a person to paste back is short.

The contract's cursor names every log's offset and a SHA-1 of the bytes before it: about 700
characters on a real home, printed on one line for `--cursor` to take back. The text now shows
a handle of a few dozen characters (`fc_` + 16), the cursor kept under it in the home; the
handle gives back exactly that cursor, and a long cursor an earlier carto printed (or `--json`
prints) is taken as before.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, strategies as st

from carto_core.cli import cli
from carto_core.cli.facts_cmd import expand_cursor, short_cursor
from carto_core.facts import Position, decode_cursor, encode_cursor
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.logio.logs import SEARCHED_LOGS

hexes = st.text(alphabet="0123456789abcdef", min_size=40, max_size=40)
positions = st.dictionaries(
    st.sampled_from(list(SEARCHED_LOGS)),
    st.builds(Position, st.integers(min_value=0, max_value=2**53), st.one_of(st.just(""), hexes)),
)


@given(root=st.text(min_size=1, max_size=200), pos=positions, again=positions)
def test_a_short_cursor_round_trips_to_the_cursor_it_stands_for(root, pos, again):
    with tempfile.TemporaryDirectory() as folder:
        home = Home(folder)
        token = encode_cursor(root, pos)
        handle = short_cursor(home, token)
        assert len(handle) <= 40 and handle.startswith("fc_")
        assert handle.isascii() and " " not in handle
        assert expand_cursor(home, handle) == token
        assert decode_cursor(expand_cursor(home, handle), root, SEARCHED_LOGS) == pos
        # the same cursor, the same handle; another cursor, another handle
        assert short_cursor(home, token) == handle
        other = encode_cursor(root, again)
        assert (short_cursor(home, other) == handle) == (other == token)
        # a long cursor is taken as it is
        assert expand_cursor(home, token) == token
        assert expand_cursor(home, f"  {token}\n") == token


def _cursor_line(text: str) -> str:
    line = next(line for line in text.splitlines() if line.startswith("cursor: "))
    return line.split()[1]


def _append(home: Home, n: int) -> None:
    append_rows(home.log("changelog"), [
        {"event_id": f"evt-short{n:04d}", "timestamp": "2026-09-08T10:00:00Z", "type": "tool_bash",
         "session_id": "s-1", "project": "webshop", "summary": f"Ran: make test {n}",
         "provider": "claude"}])


def test_pulse_prints_a_short_cursor_that_pasted_back_lists_what_arrived(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    for n in range(3):
        _append(home, n)
    runner = CliRunner()
    first = runner.invoke(cli, ["facts", "pulse"])
    assert first.exit_code == 0, first.output
    handle = _cursor_line(first.stdout)
    assert handle.startswith("fc_") and len(handle) < 40, handle
    _append(home, 3)
    _append(home, 4)
    second = runner.invoke(cli, ["facts", "pulse", "--cursor", handle])
    assert second.exit_code == 0, second.output
    assert "2 new events" in second.stdout and "evt-short0004" in second.stdout
    # the JSON answer keeps the contract's cursor: a long one, taken back as before
    document = json.loads(runner.invoke(cli, ["facts", "pulse", "--cursor", handle, "--json"]).stdout)
    long_cursor = document["facts"]["cursor"]
    assert long_cursor.startswith("eyJ") and len(long_cursor) > 200
    _append(home, 5)
    third = runner.invoke(cli, ["facts", "delta", "--cursor", long_cursor])
    assert third.exit_code == 0 and "1 new event" in third.stdout, third.output
    assert _cursor_line(third.stdout).startswith("fc_")


def test_a_short_cursor_this_home_never_issued_is_refused(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    _append(home, 0)
    done = CliRunner().invoke(cli, ["facts", "delta", "--cursor", "fc_AAAAAAAAAAAAAAAA"])
    assert done.exit_code == 4, done.output
    assert "was not issued by this home" in done.output
    # a record edited in place is not trusted either
    handle = _cursor_line(CliRunner().invoke(cli, ["facts", "delta"]).stdout)
    record = Path(home.state / "facts" / "cursors" / handle[3:])
    record.write_text(encode_cursor(str(home.root), {}))
    done = CliRunner().invoke(cli, ["facts", "delta", "--cursor", handle])
    assert done.exit_code == 4, done.output
