"""carto-notes against the source contract suite shipped in core (carto_core.testing)."""

from __future__ import annotations

import pytest

from carto_core.testing import SourceContract
from carto_notes import NotesSource

pytest_plugins = ["carto_core.testing"]

GOOD = {
    "carto/design.md": "# Design\n\nThe logs are the truth.\nEvery index is a cache.\n\n"
                       "## Search\n\nBM25 then RRF.\n",
    "carto/todo.md": "# Todo\n\n- write the contract suite\n- ship the kit\n",
    # the same section twice in one file: two events, two ids
    "carto/standups.md": "## Standup\n\nsame\n## Standup\n\nsame\n",
    "reading/papers.md": "Loose text before any heading.\n\n## LoCoMo\n\nLong-term memory.\n",
}


@pytest.fixture
def notes_dir(tmp_path):
    root = tmp_path / "notes"
    for name, text in GOOD.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root


class TestNotesContract(SourceContract):
    @pytest.fixture
    def source(self, notes_dir):
        return NotesSource({"roots": [str(notes_dir)]})

    @pytest.fixture
    def garbage_source(self, tmp_path):
        root = tmp_path / "garbage"
        root.mkdir()
        (root / "bytes.md").write_bytes(b"# Broken \xff\xfe bytes\n\nbody \xc3\x28 here\n")
        (root / "empty.md").write_text("# Heading only\n\n## Another\n", "utf-8")
        (root / "fine.md").write_text("# Fine\n\nA real section.\n", "utf-8")
        return NotesSource({"roots": [str(root)]})


def test_repeated_section_in_one_note_keeps_both(tmp_path):
    """Two identical sections of one file are two events, not one id twice."""
    (tmp_path / "log.md").write_text("## Standup\n\nsame\n## Standup\n\nsame\n", "utf-8")
    source = NotesSource({"roots": [str(tmp_path)]})
    [stream] = list(source.discover())
    ids = [emit.row["event_id"] for emit in source.read(stream, None).rows]
    assert len(ids) == 2 and len(set(ids)) == 2
