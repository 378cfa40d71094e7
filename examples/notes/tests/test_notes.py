from carto_notes import NotesSource, _sections

from carto_core.model.events import Event
from carto_core.model.sources import Stream


def test_sections_split_on_headings():
    assert list(_sections("intro\n# A\nbody a\n## B\nbody b\n")) == [("", "intro"), ("A", "body a"), ("B", "body b")]


def test_one_event_per_section_with_stable_ids(tmp_path):
    note = tmp_path / "proj" / "n.md"
    note.parent.mkdir()
    note.write_text("# Title\nfirst\n\n# Empty\n\n# Other\nsecond line\nthird\n")
    source = NotesSource({"roots": [str(tmp_path)]})
    [stream] = list(source.discover())
    batch = source.read(stream, None)
    events = [Event.from_row(e.row, e.log) for e in batch.rows]
    assert [e.summary for e in events] == ["Title: first", "Other: second line third"]
    assert batch.skipped == {"empty_section": 1}
    assert {e.project for e in events} == {"proj"}
    again = source.read(stream, None)
    assert [e.row["event_id"] for e in again.rows] == [e.event_id for e in events]
    # unchanged file + checkpoint: nothing new
    assert source.read(stream, batch.checkpoint).rows == []


def test_undecodable_bytes_are_counted(tmp_path):
    note = tmp_path / "bad.md"
    note.write_bytes(b"# T\ncaf\xe9\n")
    batch = NotesSource().read(Stream(str(note), note), None)
    assert batch.skipped["invalid_utf8_bytes"] == 1 and len(batch.rows) == 1
