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


def test_a_binary_file_named_md_is_skipped_whole(tmp_path):
    """3 KB of random bytes in blob.md were stored as two notes of raw bytes, NULs included
    ("1238 skipped (invalid utf8 bytes)" beside "wrote 2 rows")."""
    import random

    blob = tmp_path / "blob.md"
    blob.write_bytes(random.Random(7).randbytes(3000))
    batch = NotesSource().read(Stream(str(blob), blob), None)
    assert batch.rows == [] and batch.skipped == {"not_text": 1}
    nul = tmp_path / "nul.md"
    nul.write_bytes(b"# T\nbody\x00more\n")
    assert NotesSource().read(Stream(str(nul), nul), None).skipped == {"not_text": 1}
    # a page of bytes that do not decode, without NUL, is no note either
    noise = tmp_path / "noise.md"
    noise.write_bytes(b"# T\n" + bytes(range(0x80, 0x100)) * 4)
    assert NotesSource().read(Stream(str(noise), noise), None).skipped == {"not_text": 1}


def test_the_share_that_is_no_text_is_one_in_three(tmp_path):
    for raw, kept in ((b"a\xe9\xe9bc", False), (b"a\xe9\xe9bcde", True)):
        note = tmp_path / "n.md"
        note.write_bytes(raw)
        batch = NotesSource().read(Stream(str(note), note), None)
        assert (batch.skipped.get("not_text", 0) == 0) == kept, raw
