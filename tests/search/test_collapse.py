"""Results whose text repeats a better-ranked one are folded into it (`duplicates`), except a
lookup's matches, each of which may be the item the query names."""

from __future__ import annotations

from carto_core.search import SearchRequest, run_search
from carto_core.search.engine import SearchEngine

from .conftest import NOW, padding


def test_copies_of_one_line_are_folded_into_the_best_ranked(writer):
    copies = [writer.tool("Ran: morning coffee planning chores", age_hours=1 + i) for i in range(12)]
    others = [writer.tool(f"Ran: planning session {word}", age_hours=30)
              for word in ("alpha", "beta", "gamma")]
    padding(writer, 30)
    engine = SearchEngine(writer.home)
    request = dict(query="planning", now=NOW, semantic=False, limit=4, all=True)
    folded = run_search(SearchRequest(**request), engine=engine)
    texts = [h.summary for h in folded.results]
    assert len(set(texts)) == len(texts) == 4
    first_copy = folded.results[0]
    assert first_copy.event_id == copies[0]  # the best-ranked (newest) copy stands for them
    # the copies it stands for are those the page skipped
    assert first_copy.duplicates == 11 and first_copy.to_dict()["duplicates"] == 11
    assert [h.event_id for h in folded.results[1:]] == others
    assert all(h.duplicates == 0 for h in folded.results if h.event_id != copies[0])
    every = run_search(SearchRequest(collapse=False, **request), engine=engine)
    assert [h.event_id for h in every.results] == copies[:4]


def test_a_lookups_matches_stay_apart(writer):
    """Five edits of one file: a lookup of the file finds each edit; folding them into the
    newest hid the one edit a known-item query was about."""
    edits = [writer.tool("Modified: /work/quokka/src/ledger/schema.rs", age_hours=24 * (10 + i))
             for i in range(5)]
    padding(writer, 30)
    result = run_search(SearchRequest(query="quokka ledger schema", now=NOW, semantic=False,
                                      limit=10, all=True), home=writer.home)
    assert set(edits) <= {h.event_id for h in result.results}
    assert all(h.gated and h.duplicates == 0 for h in result.results if h.event_id in edits)


def test_the_cli_says_how_many_copies_it_folded_and_can_show_them(writer, monkeypatch):
    import json

    from click.testing import CliRunner

    from carto_core.cli import cli

    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    copies = [writer.tool("Ran: morning coffee planning chores", age_hours=1 + i) for i in range(12)]
    padding(writer, 20)
    text = CliRunner().invoke(cli, ["search", "planning", "--no-semantic", "--all", "-n", "3"])
    head = next(line for line in text.output.splitlines() if line.startswith(copies[0]))
    assert text.exit_code == 0 and head.endswith(" · +11 identical"), text.output
    every = CliRunner().invoke(cli, ["search", "planning", "--no-semantic", "--all", "-n", "3",
                                     "--no-collapse", "--json"])
    assert [h["event_id"] for h in json.loads(every.output)["results"]] == copies[:3]


class _Rows:
    """An index stand-in for `_collapse`: row `i`'s summary from `texts`, every read recorded."""

    def __init__(self, texts):
        self.texts, self.reads = texts, []

    def rows(self, indices, known=None):
        assert known is None  # the fold is given no rows read before it here
        self.reads.append(list(indices))
        return [{"summary": self.texts[i]} for i in indices]


def _reference_fold(texts, order, gated, limit):
    """The fold read one row at a time: what any batching must give."""
    page, folded, first_of = [], [], {}
    for i in order:
        text = "" if gated[i] else texts[i]
        if text and text in first_of:
            folded[first_of[text]] += 1
            continue
        if text:
            first_of[text] = len(page)
        page.append(i)
        folded.append(0)
        if len(page) == limit:
            break
    return page, folded


def test_the_fold_reads_rows_in_growing_batches_and_gives_the_one_row_at_a_time_page():
    import random
    from types import SimpleNamespace

    from carto_core.search.api import Fused
    from carto_core.search.pipeline import _collapse

    for seed in range(40):
        rng = random.Random(seed)
        n = rng.randrange(1, 600)
        # mostly one repeated line (the semantic ladder's page of ~500 "Session ended" rows)
        distinct = rng.choice([1, 2, 5, 50, n])
        texts = [rng.choice(["Session ended", "", *(f"line {k}" for k in range(distinct))])
                 for _ in range(n)]
        gated = [rng.random() < 0.05 for _ in range(n)]
        order = rng.sample(range(n), n)
        limit = rng.choice([1, 3, 10, 15])
        index = _Rows(texts)
        engine = SimpleNamespace(index=index)
        fused = [Fused(i, 1.0, gated=gated[i]) for i in order]
        page, rows, folded = _collapse(engine, fused, limit)
        want_page, want_folded = _reference_fold(texts, order, gated, limit)
        assert [f.index for f in page] == want_page and folded == want_folded
        assert rows == [{"summary": texts[i]} for i in want_page]
        sizes = [len(batch) for batch in index.reads]
        assert sizes[0] == min(limit, n)  # nothing repeats: exactly the page is read
        # each batch at least twice the one before (but the last, cut by the candidates)
        assert all(b >= 2 * a for a, b in zip(sizes, sizes[1:-1]))
        read = sum(sizes)
        assert read <= n and [i for batch in index.reads for i in batch] == order[:read]


def test_rows_read_back_every_document_in_any_order(writer):
    import json
    import random

    ids = [writer.tool(f"Ran: row number {i} with some text", age_hours=1 + i) for i in range(30)]
    writer.prompt("a prompt about the rows", age_hours=3)
    engine = SearchEngine(writer.home)
    engine.ensure_loaded()
    index = engine.index
    docs = list(range(len(index)))
    random.Random(7).shuffle(docs)
    by_id = {}
    for label in ("tool-use", "changelog", "prompts"):
        path = writer.home.log(label)
        if path.exists():
            for line in path.read_text("utf-8").splitlines():
                row = json.loads(line)
                by_id.setdefault(row["event_id"], row)
    rows = index.rows(docs)
    assert [r["event_id"] for r in rows] == [index.event_id(d) for d in docs]
    assert all(r == by_id[r["event_id"]] for r in rows) and set(ids) <= set(by_id)
    assert index.rows([]) == [] and index.row(docs[0]) == rows[0]
