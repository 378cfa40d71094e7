"""An update removes the keyword-index generation it superseded (the index takes its own size
on disk at rest, not twice it), while a reader that still holds the old one keeps answering
from it, and a reader opening the index just as a writer replaces it opens the new one."""

from __future__ import annotations

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.search.index import KeywordIndex
from carto_core.search.index_view import IndexView
from carto_core.search.tokens import term_hash


def _home(root) -> Home:
    home = Home(root)
    home.root.mkdir(parents=True, exist_ok=True)
    append_rows(home.log("tool-use"), [
        {"event_id": f"evt-{n}", "timestamp": "2026-05-01T10:00:00Z",
         "summary": f"deploy {'coupon' if n % 2 else 'schema'} step{n}", "session": "s1"}
        for n in range(50)])
    append_rows(home.log("changelog"), [{"event_id": "evt-3", "summary": "copy of three"}])
    return home


def _generations(home: Home) -> list[str]:
    base = KeywordIndex.folder(home)
    return sorted(p.name for p in base.iterdir() if p.is_dir() and p.name.startswith("gen-"))


def _append(home: Home, start: int, n: int = 60) -> None:
    append_rows(home.log("tool-use"), [
        {"event_id": f"evt-{k}", "timestamp": "2026-05-02T10:00:00Z",
         "summary": f"rollback cartwheel item{k}", "session": "s2"} for k in range(start, start + n)])


def test_an_update_removes_the_superseded_generation_a_reader_still_holds(tmp_path):
    home = _home(tmp_path / "h")
    KeywordIndex.build(home)
    first = _generations(home)
    assert len(first) == 1
    reader = KeywordIndex.load(home)  # a long-running reader (`carto serve`) holding it
    view = IndexView.open(home)  # and the hook path's view of it
    old_docs = reader.own_docs("coupon")
    assert len(old_docs) == 25  # its vocabulary not read yet: prefixes read it on first use

    _append(home, 1000)
    writer = KeywordIndex.open(home)  # 60 rows: a tail (under FOLD_MIN), saved by hand
    writer.save()
    after = _generations(home)
    assert after == [writer.generation] and first[0] not in after  # superseded: gone at once

    # The reader's mapped files outlive their removal: the same answers as before.
    assert reader.own_docs("coupon").tolist() == old_docs.tolist()
    assert reader.prefix_terms("step1") == ["step1"] + [f"step{n}" for n in range(10, 20)]
    assert reader.event_id(int(old_docs[0])) == "evt-1"
    assert reader.positions(["evt-3", "evt-1001"]).tolist()[1] == -1  # not in its generation
    assert view.index_of("evt-7") is not None and len(view.postings(term_hash("coupon"))[0]) == 25
    assert reader.row(int(old_docs[0]))["summary"] == "deploy coupon step1"

    # Reopening finds the new generation, no rebuild; its new rows are there.
    reopened = KeywordIndex.load(home)
    assert reopened.generation == writer.generation and len(reopened.own_docs("cartwheel")) == 60
    # The reader saving in turn (its own tail folded) supersedes the writer's generation:
    # what it merges comes from its mapped files, the removed folder is not read again.
    second = KeywordIndex.load(home)
    _append(home, 2000, 5)
    assert second.refresh() == "grown"
    second.save()  # removes the writer's generation before `second` read its vocabulary
    assert len(second.own_docs("cartwheel")) == 65 and second.prefix_terms("item100")
    assert reader.refresh() == "grown"
    reader.save()
    assert _generations(home) == [reader.generation]
    assert len(reader.own_docs("cartwheel")) == 65 and len(reader.own_docs("coupon")) == 25


def test_old_and_unfinished_generations(tmp_path):
    """Another process's young folders stay (one being written, one just moved into place
    before CURRENT points at it); old leftovers go with the next update."""
    import os
    import time

    home = _home(tmp_path / "h")
    KeywordIndex.build(home)
    base = KeywordIndex.folder(home)
    young_tmp, young, old = base / "gen-young.tmp", base / "gen-young", base / "gen-old"
    for folder in (young_tmp, young, old):
        folder.mkdir()
    past = time.time() - 3600
    os.utime(old, (past, past))
    _append(home, 1000)
    index = KeywordIndex.open(home)
    index.save()
    assert set(_generations(home)) == {index.generation, "gen-young", "gen-young.tmp"}


def test_a_reader_opening_while_a_writer_replaces_the_generation_opens_the_new_one(
        tmp_path, monkeypatch):
    home = _home(tmp_path / "h")
    KeywordIndex.build(home)
    _append(home, 1000)
    original = KeywordIndex._load_generation.__func__
    raced = []

    def racing(cls, home_, base, current, analyzer):
        if not raced:  # between reading CURRENT and mapping its files, a writer swaps it
            raced.append(current)
            writer = original(cls, home_, base, current, analyzer)
            writer.refresh()
            writer.save()
            assert not (base / current).exists()
        return original(cls, home_, base, current, analyzer)

    monkeypatch.setattr(KeywordIndex, "_load_generation", classmethod(racing))
    index = KeywordIndex.load(home)
    assert index is not None and index.generation != raced[0]
    assert len(index.own_docs("cartwheel")) == 60

    # The hook path's view likewise.
    opened = []
    original_view = IndexView._open_folder.__func__

    def racing_view(cls, home_, folder, signature, context):
        if not opened:
            opened.append(folder.name)
            _append(home, 3000)
            KeywordIndex.open(home).save()
        return original_view(cls, home_, folder, signature, context)

    monkeypatch.setattr(IndexView, "_open_folder", classmethod(racing_view))
    view = IndexView.open(home)
    assert view is not None and view.generation != opened[0]
    assert view.generation == KeywordIndex.load(home).generation
