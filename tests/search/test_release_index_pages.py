"""A search over a large keyword index lets go of the pages it has read at the end of each
stage (`KeywordIndex.release_pages`, `index.RELEASE_ABOVE`), and `positions` looks its ids up
a chunk at a time between releases: the same answers as a search that keeps every page, and
the process holds none of the generation's pages after a release."""

from __future__ import annotations

import numpy as np

from carto_core.search import index as index_module
from carto_core.search.api import SearchRequest
from carto_core.search.index import KeywordIndex
from carto_core.search.pipeline import run_search


def _mapped_kb(under) -> int:
    """Resident KB of this process' maps of files under `under` (/proc/self/smaps)."""
    total, counting = 0, False
    with open("/proc/self/smaps") as handle:
        for line in handle:
            head = line.split(None, 1)[0]
            if "-" in head and not head.endswith(":"):
                counting = str(under) in line
            elif counting and head == "Rss:":
                total += int(line.split()[1])
    return total


def test_release_pages_lets_go_of_what_was_read_only_in_a_large_generation(writer, monkeypatch):
    for i in range(3000):
        writer.tool(f"Ran: step{i} build cache{i % 17}", changelog_copy=False)
    KeywordIndex.build(writer.home)
    index = KeywordIndex.open(writer.home)
    folder = KeywordIndex.folder(writer.home) / index.generation

    def read_everything():
        for column in index.cols.values():
            np.asarray(column).sum()
        for segment in index.segments:
            np.asarray(segment.docs).sum()
        index.positions([index.event_id(i) for i in range(0, 3000, 7)])
        return _mapped_kb(folder)

    held = read_everything()
    assert held > 64  # pages of the columns, postings and id tables
    monkeypatch.setattr(index_module, "RELEASE_ABOVE", 1 << 62)  # a small generation: kept
    index.release_pages()
    assert _mapped_kb(folder) >= held - 8
    monkeypatch.setattr(index_module, "RELEASE_ABOVE", 0)
    index.release_pages()
    # what is left: the first page of each file (its header shares it) and vocab.txt
    assert _mapped_kb(folder) < held / 2


def test_positions_in_chunks_between_releases_equal_one_pass(writer, monkeypatch):
    ids = [writer.tool(f"Ran: step{i} build") for i in range(60)]
    KeywordIndex.build(writer.home)
    ids.append(writer.tool("Ran: appended later"))
    index = KeywordIndex.open(writer.home)
    asked = ids[::-1] + ["evt-missing", ids[3], "", ids[0] + "x"] + ids[:5]
    monkeypatch.setattr(index_module, "POSITIONS_CHUNK", 1 << 30)
    whole = index.positions(asked).tolist()
    assert whole[: len(ids)] == list(range(len(ids)))[::-1]
    monkeypatch.setattr(index_module, "RELEASE_ABOVE", 0)
    for chunk in (1, 2, 3, 7, 64):
        monkeypatch.setattr(index_module, "POSITIONS_CHUNK", chunk)
        assert index.positions(asked).tolist() == whole


def test_a_search_answers_alike_releasing_its_pages_or_keeping_them(writer, monkeypatch):
    for i in range(400):
        writer.tool(f"Ran: deploy step{i} retry migration{i % 9}", age_hours=1 + i % 50)
    writer.prompt("how did we fix the flaky login test")
    request = SearchRequest(query="retry the deploy migration", limit=10, all=True)

    def answer():
        result = run_search(request, home=writer.home).to_dict()
        return [(h["event_id"], h["score"]) for h in result["results"]], result["total"], result["facets"]

    monkeypatch.setattr(index_module, "RELEASE_ABOVE", 1 << 62)
    kept = answer()
    monkeypatch.setattr(index_module, "RELEASE_ABOVE", 0)
    monkeypatch.setattr(index_module, "POSITIONS_CHUNK", 2)
    released = answer()
    assert kept == released and len(kept[0]) == 10


def test_a_search_of_a_large_index_ends_holding_little_of_it(writer, monkeypatch):
    """A warm engine's search: releasing between stages, it ends holding at most the last
    stage's pages of the generation; keeping them, every page each stage read."""
    from carto_core.search.engine import SearchEngine

    for i in range(3000):
        writer.tool(f"Ran: deploy step{i} retry migration{i % 9} cache{i % 13}",
                    age_hours=1 + i % 50, changelog_copy=False)
    KeywordIndex.build(writer.home)
    request = SearchRequest(query="retry the deploy migration cache", limit=10, all=True,
                            facets=False)
    held = {}
    for name, above in (("kept", 1 << 62), ("released", 0)):
        monkeypatch.setattr(index_module, "RELEASE_ABOVE", above)
        engine = SearchEngine(writer.home)
        run_search(request, engine=engine)
        held[name] = _mapped_kb(KeywordIndex.folder(writer.home) / engine.index.generation)
    assert held["kept"] > 100
    assert held["released"] < held["kept"] / 3
