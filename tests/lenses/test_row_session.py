"""The session a raw log row names (`carto_core.model.session.row_session`), read one way by
every reader of raw rows: the session-start note's peers and pending wrapups, the trust map's
sessions, the prompt recall's exchanges."""

from __future__ import annotations

import re
from pathlib import Path

from carto_core.model.session import row_session

ROOT = Path(__file__).resolve().parents[2]
SPELLED_OUT = re.compile(r"""\.get\(["']session_id["']\)\s+or\s+[\w.]+\.get\(["']session["']\)""")
#: Modules that still spell the pair out, each in a folder its owner keeps; the test fails when
#: one no longer does (remove it here then) as much as when another starts to.
KNOWN = {
    "src/carto_core/capture/collision.py",  # the hook path (capture)
    "src/carto_core/capture/context.py",    # the hook path (capture)
    "src/carto_core/cli/search_cmd.py",     # carto search
}


def test_row_session_is_session_id_then_session():
    assert row_session({"session_id": "s-1", "session": "s-2"}) == "s-1"
    assert row_session({"session": "s-2"}) == "s-2"
    assert row_session({"session_id": "", "session": "s-2"}) == "s-2"
    assert row_session({"session_id": None, "session": "s-2"}) == "s-2"
    # as written: the sentinel is the caller's to refuse, other spellings are not looked at
    assert row_session({"session_id": "unknown", "session": "s-2"}) == "unknown"
    assert row_session({"sessionId": "s-3"}) is None and row_session({}) is None


def test_no_reader_spells_out_the_session_of_a_row():
    spelled = {str(path.relative_to(ROOT)) for folder in ("src", "plugins", "rankers")
               for path in (ROOT / folder).rglob("*.py") if SPELLED_OUT.search(path.read_text("utf-8"))}
    assert spelled - {"src/carto_core/model/session.py"} == KNOWN  # the accessor itself
