"""A turn's end (`ended`) came to the turn rows after their text: a turn stored without it,
read again from the same transcript (a grown file, a checkpoint lost, the Stop hook's next
read), is not written again for its end alone, while a turn whose text grew still is. The
comparison is `capture.live.content_digest`, which leaves the member out with its comma.

Inputs are the shared fixtures' real transcripts (`shared/fixtures/SOURCES.md`)."""

from __future__ import annotations

import json
import shutil

from hypothesis import given, settings, strategies as st

from carto_core.capture.live import content_digest
from carto_core.logio.home import current_home
from carto_core.logio.jsonl import dumps_row
from tests.clikit import object_rows, run

SESSION = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
CLAUDE_FILE = f"claude/claude-code-viewer/projects/sample-project/{SESSION}.jsonl"


def _digest(row: dict) -> int:
    return content_digest(dumps_row(row), row)


def test_a_turn_stored_before_its_end_is_not_written_again_for_it(shared_fixtures, tmp_path):
    folder = tmp_path / "projects" / "-work-demo"
    folder.mkdir(parents=True)
    shutil.copy(shared_fixtures / CLAUDE_FILE, folder)
    run("ingest", "claude", "--root", str(folder.parent), "--history", "none", "--settle", "0")
    log = current_home().log("turns")
    rows = object_rows(log)
    assert any("ended" in row for row in rows)  # the fixture's turns end after they begin
    # the log as a version that stored no end left it, and its checkpoints gone: read again
    log.write_bytes(b"".join(dumps_row({k: v for k, v in row.items() if k != "ended"})
                             for row in rows))
    stored = log.read_bytes()
    for checkpoint in (current_home().root / ".carto" / "checkpoints").glob("*.json"):
        checkpoint.unlink()
    again = run("ingest", "claude", "--root", str(folder.parent), "--history", "none",
                "--settle", "0", "--json")

    assert (again["rows_written"], again["already_present"]) == (0, len(rows))
    assert log.read_bytes() == stored


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
_stamp = st.datetimes().map(lambda d: d.isoformat() + "Z")


@settings(max_examples=200, deadline=None)
@given(summary=_text, path=st.one_of(st.none(), _text), ended=_stamp,
       before=st.booleans(), extra=_text)
def test_the_end_alone_never_changes_a_turns_digest(summary, path, ended, before, extra):
    """Wherever the encoder writes `ended` (before or after the path, the last member or not),
    the row with it and without it digest alike; a summary that grew does not."""
    row = {"event_id": "turn-s-1", "timestamp": "2026-01-01T00:00:00Z", "summary": summary}
    if path is not None and before:
        row["transcript_path"] = path
    with_end = {**row, "ended": ended}
    if path is not None and not before:
        row["transcript_path"] = with_end["transcript_path"] = path
    row["tail"] = with_end["tail"] = extra
    assert _digest(with_end) == _digest(row)
    assert _digest({**with_end, "summary": summary + "!"}) != _digest(row)


def test_a_summary_holding_the_end_as_text_is_not_cut():
    """The member is found as the encoder writes it: text quoting it is escaped, so a summary
    saying `"ended":"..."` keeps its words in the digest."""
    ended = "2026-01-01T00:00:09Z"
    said = {"event_id": "turn-s-1", "summary": f'x,"ended":"{ended}"'}
    plain = {"event_id": "turn-s-1", "summary": "x"}
    assert _digest(said) != _digest(plain)
    assert json.loads(dumps_row({**said, "ended": ended}))["ended"] == ended
