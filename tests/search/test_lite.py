"""The stdlib search (`carto_core.search.lite` over `IndexView`) is `run_search`'s keyword search:
same documents, same order; and the index view reads exactly what `KeywordIndex` wrote."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import datetime, timezone

import pytest

from carto_core.evaluation.generate import generate_home
from carto_core.logio.home import Home
from carto_core.search import SearchRequest, run_search
from carto_core.search.engine import SearchEngine
from carto_core.search.index_view import IndexView

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def _plugin_table():
    """Each test has its own HOME, so its own plugin table: fill it as any CLI call would."""
    from carto_core.plugin.registry import RANKING_HOOKS, get_registries

    get_registries(hooks=RANKING_HOOKS)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("lite") / "home"
    generate_home(root, 4000, seed=3, now=NOW)
    home = Home(root)
    engine = SearchEngine(home, auto_refresh=False)
    engine.ensure_loaded()
    return home, engine


def test_the_format_constants_are_the_writers(generated):
    from carto_core.search import index_build, index_store, lite
    from carto_core.search import index_view

    assert index_view.FORMAT_VERSION == index_store.VERSION
    assert index_view.TF_SCALE == index_build.TF_SCALE
    assert index_view.COLUMNS == tuple(index_build.COLUMNS)
    assert index_view.LOG_LABELS == index_build.LOG_LABELS
    # the pipeline's constants have one home: the stdlib search keeps no copy of them
    assert not {"DEPTH", "RRF_K", "TRIM", "SALIENCE_MIN", "SALIENCE_MAX"} & set(vars(lite))


def test_the_view_reads_every_posting_column_and_id_as_written(generated):
    home, engine = generated
    index = engine.index
    view = IndexView.open(home)
    assert view is not None and len(view) == len(index)
    assert view.stats() == (index.n_alive, pytest.approx(index.avgdl))
    from carto_core.search.tokens import term_hash

    words = index.segments[0].sorted_words()
    for word in random.Random(1).sample(words, 300):
        mine = view.postings(term_hash(word))
        (docs, tfs, dls), = index.postings(word)
        assert list(mine[0]) == docs.tolist() and list(mine[1]) == tfs.tolist()
        assert list(mine[2]) == dls.tolist()
    assert view.postings(term_hash("zz-no-such-term-zz")) is None
    for doc in random.Random(2).sample(range(len(index)), 200):
        assert view.event_id(doc) == index.event_id(doc)
        assert view.index_of(index.event_id(doc)) == index.index_of(index.event_id(doc))
        assert view.row(doc) == index.row(doc)
        for name in ("project", "session", "source", "loc_off", "loc_len", "doclen", "alive"):
            assert view.cols[name][doc] == index.cols[name][doc]
    assert view.freshness() == ("fresh", 0)


def test_a_grown_log_is_a_tail_and_a_rewritten_one_is_stale(tmp_path):
    root = tmp_path / "home"
    generate_home(root, 300, seed=4, now=NOW)
    home = Home(root)
    SearchEngine(home).ensure_loaded()
    view = IndexView.open(home)
    with open(home.log("changelog"), "a") as handle:
        handle.write(json.dumps({"event_id": "evt-appended0001", "summary": "late"}) + "\n")
    state, appended = view.freshness()
    assert state == "tail" and appended > 0
    lines = home.log("changelog").read_text().splitlines()
    home.log("changelog").write_text("\n".join(lines[1:]) + "\n")
    assert view.freshness()[0] == "stale"


def _queries(home, n: int) -> list[str]:
    prompts = [json.loads(line)["summary"] for line in open(home.log("prompts"))]
    rng = random.Random(5)
    out = rng.sample(prompts, n // 2)
    turns = [json.loads(line)["summary"] for line in open(home.log("turns"))]
    out += [" ".join(rng.sample(t.split(), min(3, len(t.split())))) for t in rng.sample(turns, n // 2)]
    # a word no row holds still weighs in every candidate's coverage
    return out + [f"{q} zorbleflux" for q in out[: n // 4]]


def test_the_lite_search_orders_as_run_search_does(generated):
    from carto_core.search import lite

    home, engine = generated
    view = IndexView.open(home)
    components = lite.resolve_components()
    now = NOW.timestamp()
    compared = 0
    for query in _queries(home, 40):
        if not lite.query_terms(components, query):
            continue
        mine = lite.search(view, components, query, now=now)
        # lite ranks and leaves folding copies to its caller: compare run_search unfolded
        theirs = run_search(SearchRequest(query=query, semantic=False, limit=10, now=NOW,
                                          facets=False, collapse=False), engine=engine)
        assert [view.event_id(f.index) for f in mine.ranked[:10]] == [h.event_id for h in theirs.results], query
        assert [round(f.score, 6) for f in mine.ranked[:10]] == [round(h.score, 6) for h in theirs.results]
        compared += 1
    assert compared >= 30


def test_scope_leaves_out_a_session_and_served_ids_but_keeps_corpus_statistics(generated):
    from carto_core.search import lite

    home, engine = generated
    view = IndexView.open(home)
    components = lite.resolve_components()
    query = _queries(home, 2)[0]
    full = lite.search(view, components, query, now=NOW.timestamp())
    top = full.ranked[0].index
    session = view.string("sessions", top)
    scoped = lite.search(view, components, query, now=NOW.timestamp(),
                         exclude_sessions=frozenset({session}), served_ids=[view.event_id(full.ranked[1].index)])
    kept = {f.index for f in scoped.ranked}
    assert top not in kept and full.ranked[1].index not in kept
    assert all(view.string("sessions", doc) != session for doc in kept)
    assert [t.idf for t in scoped.terms] == [t.idf for t in full.terms]


def test_importing_the_stdlib_search_and_the_configured_classes_pulls_no_heavy_module(generated):
    home, _ = generated
    code = (
        "import sys\n"
        "from carto_core.logio.home import Home\n"
        "from carto_core.search.index_view import IndexView\n"
        "from carto_core.search import lite\n"
        f"view = IndexView.open(Home({str(home.root)!r}))\n"
        "components = lite.resolve_components()\n"
        "lite.search(view, components, 'fix the parser cache')\n"
        "print(sorted(m for m in ('numpy', 'pluggy', 'click', 'attrs', 'cattrs', 'orjson', 'carto_rankers')"
        " if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"  # carto_rankers' __init__ (pluggy, numpy) is never run


PROBE_RANKER = '''
from carto_core.search.api import Ladder, Ranker


class NewestFirst(Ranker):
    """Every document holding a query term, the newest document first: nothing like BM25."""

    name = "newest-first"

    def _docs(self, query, postings, allows):
        from carto_core.search.tokens import term_hash

        found = set()
        for token in query.tokens:
            for docs in postings(token, term_hash(token)):
                found.update(int(d) for d in docs if allows(int(d)))
        return sorted(found, reverse=True)

    def rank(self, query, scope, engine, *, depth=500):
        import numpy as np

        docs = self._docs(query, lambda token, _: [p[0] for p in engine.index.postings(token)],
                          scope.allows)[:depth]
        return [Ladder("newest", np.asarray(docs, np.int64),
                       np.arange(len(docs), 0, -1, dtype=np.float64), None, self.name)]

    def rank_lite(self, query, view, scope, *, depth=500):
        def postings(_, key):
            found = view.postings(key)
            return [found[0]] if found is not None else []

        docs = self._docs(query, postings, scope.allows)[:depth]
        return [Ladder("newest", docs, [float(len(docs) - i) for i in range(len(docs))], None,
                       self.name)]
'''


def test_a_third_party_ranker_swapped_in_changes_the_prompt_time_recall_too(generated, tmp_path,
                                                                           monkeypatch):
    """A ranker registered by a plugin ranks `carto search` and the prompt recall alike: the
    stdlib search calls its `rank_lite` (not a copy of BM25's maths)."""
    import types

    from carto_core import hookimpl
    from carto_core.plugin.registry import RANKING_HOOKS, load_registries, set_registries
    from carto_core.search import lite

    (tmp_path / "house_newest_first.py").write_text(PROBE_RANKER)
    monkeypatch.syspath_prepend(str(tmp_path))
    import house_newest_first

    plugin = types.SimpleNamespace(carto_register_rankers=hookimpl(
        lambda register: register(house_newest_first.NewestFirst)))
    registries = load_registries(hooks=RANKING_HOOKS, extra={"probe": plugin})
    set_registries(registries)  # run_search's engine reads these; the table records the class
    home, _ = generated
    engine = SearchEngine(home, auto_refresh=False)
    view = IndexView.open(home)
    query = _queries(home, 2)[0]
    before = lite.search(view, lite.resolve_components(), query, now=NOW.timestamp())
    monkeypatch.setenv("CARTO_RANKERS", "newest-first")
    components = lite.resolve_components()
    assert [type(r).__name__ for r in components.rankers] == ["NewestFirst"]
    after = lite.search(view, components, query, now=NOW.timestamp())
    theirs = run_search(SearchRequest(query=query, semantic=False, limit=10, now=NOW, facets=False,
                                      collapse=False), engine=engine)
    mine = [view.event_id(f.index) for f in after.ranked[:10]]
    assert mine == [h.event_id for h in theirs.results]
    assert mine != [view.event_id(f.index) for f in before.ranked[:10]]
    assert [round(f.score, 6) for f in after.ranked[:10]] == [round(h.score, 6) for h in theirs.results]


def test_a_ranker_without_a_stdlib_method_is_left_out_with_its_reason(monkeypatch):
    from carto_core.plugin.registry import RANKING_HOOKS, get_registries
    from carto_core.search import lite

    monkeypatch.setenv("CARTO_RANKERS", "bm25,semantic")
    components = lite.resolve_components()
    assert [r.name for r in components.rankers] == ["bm25"]
    assert len(components.skipped) == 1 and components.skipped[0].startswith("semantic: ")
    report = lite.recall_report(get_registries(hooks=RANKING_HOOKS))
    assert report["rankers"] == ["bm25"] and report["fusion_ok"]
    assert "numpy" in report["left_out"]["semantic"]


def test_both_routes_trim_once_what_is_under_a_tenth_of_the_top_fused_score(generated):
    """`search.api.trim` is the one trim: `carto search` and the prompt recall drop the same
    candidates (the fusion keeps every candidate it made)."""
    from carto_core.search import lite

    home, engine = generated
    view = IndexView.open(home)
    components = lite.resolve_components()
    dropped = 0
    for query in _queries(home, 12)[:8]:
        if not lite.query_terms(components, query):
            continue
        theirs = run_search(SearchRequest(query=query, semantic=False, limit=100000, now=NOW,
                                          facets=False, collapse=False, explain=True), engine=engine)
        trim = theirs.explain["trim"]
        fused = [h.why["fused_score"] for h in theirs.results]
        assert trim["ratio"] == 0.10 and min(fused) >= trim["floor"] >= 0.1 * max(fused) - 1e-9
        assert trim["kept"] == len(theirs.results) == theirs.total
        dropped += trim["dropped"]
        mine = lite.search(view, components, query, now=NOW.timestamp())
        assert {view.event_id(f.index) for f in mine.ranked} == {h.event_id for h in theirs.results}
    assert dropped > 0  # the queries do reach candidates under the floor


def test_a_month_named_in_the_query_lifts_the_same_rows_on_both_routes(generated):
    """The decay policy reads the analyzer for a month the query names: the prompt-time
    recall's engine carries it too, so both routes lift the rows of that month and the next."""
    from carto_core.search import lite

    home, engine = generated
    view = IndexView.open(home)
    components = lite.resolve_components()
    moved = 0
    for query in _queries(home, 40):
        if not lite.query_terms(components, query):
            continue
        named = f"{query} in October 2026"
        mine = lite.search(view, components, named, now=NOW.timestamp())
        theirs = run_search(SearchRequest(query=named, semantic=False, limit=10, now=NOW,
                                          facets=False, collapse=False), engine=engine)
        # equal scores may come in either order: the lifts (x3 a lookup's, x2 the month's)
        # make exact ties of rank fusion's fractions, whose last bits the routes sum apart
        def pages(pairs):
            page = {}
            for event_id, score in pairs:
                page.setdefault(round(score, 6), set()).add(event_id)
            return page

        assert pages((view.event_id(f.index), f.score) for f in mine.ranked[:10]) == pages(
            (h.event_id, h.score) for h in theirs.results), named
        moved += any(f.boost == 2.0 for f in mine.ranked[:10])
    assert moved >= 10  # the month lifted rows on the first page of many of them
