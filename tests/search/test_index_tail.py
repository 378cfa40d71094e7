"""The unsaved tail read with the standard library (`carto_core.search.index_tail`) is the index
`carto search` opens in a new process (`KeywordIndex.open`: the saved generation and its tail):
the same documents, statistics and postings, so the same order; and it refuses what it must
(a rewritten log, too much appended, the deadline)."""

from __future__ import annotations

import json
import random
import time
from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carto_core.evaluation.generate import generate_home
from carto_core.logio.home import Home
from carto_core.search import SearchRequest, run_search
from carto_core.search.engine import SearchEngine
from carto_core.search.index import KeywordIndex
from carto_core.search.index_tail import TailedView, with_tail
from carto_core.search.index_view import IndexView
from carto_core.search.tokens import term_hash

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
BIG = 1 << 30


@pytest.fixture(autouse=True)
def _plugin_table():
    from carto_core.plugin.registry import RANKING_HOOKS, get_registries

    get_registries(hooks=RANKING_HOOKS)


def _rows(home: Home, label: str) -> list[dict]:
    return [json.loads(line) for line in home.log(label).read_text().splitlines() if line.strip()]


def _append(home: Home, label: str, rows: list[dict]) -> None:
    with open(home.log(label), "a", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")


def _saved_home(tmp_path, events: int = 1500, seed: int = 7) -> Home:
    root = tmp_path / "home"
    generate_home(root, events, seed=seed, now=NOW)
    home = Home(root)
    SearchEngine(home).ensure_loaded()
    return home


def _grow(home: Home) -> dict[str, str]:
    """Rows of every kind a tail holds; returns the ids that matter."""
    rng = random.Random(11)
    turns = _rows(home, "turns")
    grown = dict(rng.choice(turns))  # a live turn written again as it grew: it takes over
    grown["summary"] += " zephyrquux marmot lanyard appended words"
    tools = _rows(home, "tool-use")
    copied = rng.choice(tools)  # a changelog copy of a domain row: the event's seen bits only
    copy = {"event_id": copied["event_id"], "timestamp": copied["timestamp"], "type": copied["type"],
            "summary": copied["summary"] + " zephyrquux", "session_id": copied.get("session")}
    changelog_only = {"event_id": "evt-tailonly00001", "timestamp": "2026-11-30T10:00:00Z",
                      "type": "tool_bash", "summary": "Ran: zephyrquux deploy marmot", "session_id": "s-tail",
                      "project": "tailproj", "salience": 0.7}
    _append(home, "changelog", [copy, changelog_only])
    _append(home, "turns", [grown])
    _append(home, "tool-use", [
        # its domain row, after its changelog copy: takes the event over
        {**changelog_only, "tool": "Bash", "session": "s-tail", "summary": "Ran: zephyrquux deploy marmot --prod"},
        {"event_id": "evt-tailnew000001", "timestamp": "2026-11-30T11:00:00Z", "type": "tool_file_edit",
         "summary": "Modified: src/marmot/lanyard.py zephyrquux", "session": "s-tail", "project": "tailproj",
         "salience": "0.9"},
    ])
    _append(home, "prompts", [
        {"event_id": "evt-tailprompt001", "timestamp": "2026-11-30T09:00:00Z", "type": "prompt",
         "summary": "why does the marmot lanyard break zephyrquux", "session_id": "s-tail",
         "prompt_intent": "bug-fixes", "project": "tailproj"},
        {"timestamp": "2026-11-30T09:01:00Z", "summary": "a prompt without an id marmot"},  # prompts-<line>
        {"event_id": "evt-tailprompt001", "timestamp": "2026-11-30T09:02:00Z", "type": "prompt",
         "summary": "why does the marmot lanyard break again zephyrquux", "session_id": "s-tail"},
    ])
    return {"grown": grown["event_id"], "copied": copied["event_id"], "only": "evt-tailonly00001"}


def _same_index(view, index: KeywordIndex, words) -> None:
    assert len(view) == len(index)
    assert view.stats() == (index.n_alive, index.avgdl)
    for word in words:
        mine = view.postings(term_hash(word))
        theirs = index.postings(word)
        if not theirs:
            assert mine is None, word
            continue
        docs = [d for docs, _, _ in theirs for d in docs.tolist()]
        tfs = [t for _, tfs, _ in theirs for t in tfs.tolist()]
        dls = [x for _, _, dls in theirs for x in dls.tolist()]
        assert list(mine[0]) == docs and list(mine[1]) == tfs and list(mine[2]) == dls, word
    for doc in range(len(index)):
        for name in ("project", "type", "session", "source", "seen", "loc_off", "loc_len",
                     "doclen", "intent", "alive"):
            assert view.cols[name][doc] == index.cols[name][doc], (name, doc)
        for name in ("ts", "salience"):
            a, b = view.cols[name][doc], float(index.cols[name][doc])
            assert a == b or (a != a and b != b), (name, doc)
        assert view.event_id(doc) == index.event_id(doc)
        for table, column in (("projects", "project"), ("types", "type"), ("sessions", "session")):
            assert view.string(table, doc) == index.strings[table][int(index.cols[column][doc])]
        if index.cols["alive"][doc]:
            assert view.index_of(index.event_id(doc)) == doc
            assert view.row(doc) == index.row(doc)


def test_the_tail_is_the_index_carto_search_opens(tmp_path):
    home = _saved_home(tmp_path)
    view = IndexView.open(home)
    ids = _grow(home)
    from carto_core.search import lite

    seen = with_tail(home, view, lite.resolve_components().analyzer, max_bytes=BIG)
    assert isinstance(seen, TailedView)
    index = KeywordIndex.open(home, persist=False)
    assert index.tail_docs > 0 and index.opening == "grown"  # the same tail, not a saved one
    words = ["zephyrquux", "marmot", "lanyard", "deploy", "mypy", "prod", "no-such-word-here"]
    words += random.Random(3).sample(index.segments[0].sorted_words(), 150)
    _same_index(seen, index, words)
    # the fold: the grown turn and the domain row took their events over, the copy did not
    assert seen.index_of(ids["grown"]) >= seen.n_main and seen.index_of(ids["only"]) >= seen.n_main
    assert seen.index_of(ids["copied"]) < seen.n_main
    assert seen.index_of("evt-tailprompt001") >= seen.n_main
    assert "again" in seen.row(seen.index_of("evt-tailprompt001"))["summary"]  # the newest row


def _queries(home) -> list[str]:
    rng = random.Random(5)
    prompts = [r["summary"] for r in _rows(home, "prompts")]
    turns = [r["summary"].split() for r in _rows(home, "turns")]
    out = rng.sample(prompts, 15) + [" ".join(rng.sample(t, min(3, len(t)))) for t in rng.sample(turns, 15)]
    return out + ["zephyrquux marmot", "marmot lanyard deploy", "why does the marmot lanyard break"]


def test_the_lite_search_over_the_tail_orders_as_run_search_does(tmp_path):
    from carto_core.search import lite

    home = _saved_home(tmp_path)
    view = IndexView.open(home)
    _grow(home)
    components = lite.resolve_components()
    seen = with_tail(home, view, components.analyzer, max_bytes=BIG)
    engine = SearchEngine(home, auto_refresh=True)
    compared, from_tail = 0, 0
    for query in _queries(home):
        if not lite.query_terms(components, query):
            continue
        mine = lite.search(seen, components, query, now=NOW.timestamp())
        theirs = run_search(SearchRequest(query=query, semantic=False, limit=10, now=NOW,
                                          facets=False, collapse=False), engine=engine)
        assert [seen.event_id(f.index) for f in mine.ranked[:10]] == [h.event_id for h in theirs.results], query
        assert [round(f.score, 6) for f in mine.ranked[:10]] == [round(h.score, 6) for h in theirs.results]
        compared += 1
        from_tail += any(f.index >= seen.n_main for f in mine.ranked[:10])
    assert engine.index.tail_docs > 0  # run_search saw the same unsaved tail
    assert compared >= 25 and from_tail >= 3


def test_a_home_never_indexed_is_read_whole(tmp_path):
    from carto_core.search import lite

    root = tmp_path / "home"
    generate_home(root, 400, seed=9, now=NOW)
    home = Home(root)
    components = lite.resolve_components()
    seen = with_tail(home, None, components.analyzer, max_bytes=BIG)
    assert isinstance(seen, TailedView) and seen.n_main == 0
    index = KeywordIndex.build(home, persist=False)
    _same_index(seen, index, random.Random(4).sample(index.segments[0].sorted_words(), 200))
    assert not (root / ".carto" / "search").exists()  # nothing written
    # and bounded: a home larger than the bound is refused, with why
    refused = with_tail(home, None, components.analyzer, max_bytes=1000)
    assert isinstance(refused, str) and "no keyword index" in refused


def test_nothing_appended_is_the_view_itself_and_a_rewrite_or_too_much_is_refused(tmp_path):
    from carto_core.search import lite

    analyzer = lite.resolve_components().analyzer
    home = _saved_home(tmp_path, events=300)
    view = IndexView.open(home)
    assert with_tail(home, view, analyzer, max_bytes=BIG) is view
    _append(home, "changelog", [{"event_id": "evt-late", "summary": "late " + "x" * 500}])
    assert isinstance(with_tail(home, view, analyzer, max_bytes=BIG), TailedView)
    too_much = with_tail(home, view, analyzer, max_bytes=100)
    assert isinstance(too_much, str) and "more than 100" in too_much
    lines = home.log("changelog").read_text().splitlines()
    home.log("changelog").write_text("\n".join(lines[1:]) + "\n")
    stale = with_tail(home, view, analyzer, max_bytes=BIG)
    assert isinstance(stale, str) and "stale" in stale


def test_reading_stops_at_the_deadline(tmp_path):
    from carto_core.search import lite

    home = _saved_home(tmp_path, events=300)
    view = IndexView.open(home)
    _append(home, "changelog", [{"event_id": f"evt-late{i:04d}", "summary": f"late row {i}"} for i in range(100)])
    analyzer = lite.resolve_components().analyzer
    late = with_tail(home, view, analyzer, max_bytes=BIG, deadline=time.monotonic() - 1)
    assert isinstance(late, str) and "out of time" in late
    assert isinstance(with_tail(home, view, analyzer, max_bytes=BIG, deadline=time.monotonic() + 600),
                      TailedView)


def test_with_session_context_on_the_tail_is_left_unread(tmp_path, monkeypatch):
    from carto_core.search import lite

    monkeypatch.setenv("CARTO_CONTEXT_TERMS", "8")
    home = _saved_home(tmp_path, events=300)
    view = IndexView.open(home)
    assert view.meta["context"] == 8
    _append(home, "turns", [{"event_id": "turn-x-1", "summary": "zephyrquux", "session_id": "x"}])
    analyzer = lite.resolve_components().analyzer
    assert with_tail(home, view, analyzer, max_bytes=BIG) is view
    assert isinstance(with_tail(home, None, analyzer, max_bytes=BIG), str)


# ---- any tail: rows of random logs, ids new or already indexed, in any order

_LABELS = ("changelog", "tool-use", "prompts", "turns", "milestones", "research")
_WORDS = ("marmot", "lanyard", "zephyrquux", "deploy", "cache", "parser", "tax", "coupon")


@st.composite
def _tail_rows(draw, known: list[str]):
    rows = []
    for _ in range(draw(st.integers(1, 12))):
        label = draw(st.sampled_from(_LABELS))
        choice = draw(st.integers(0, 3))
        event_id = (draw(st.sampled_from(known)) if choice == 0 else
                    f"evt-any{draw(st.integers(0, 5)):04d}" if choice < 3 else None)
        row = {"timestamp": draw(st.sampled_from(["2026-11-01T00:00:00Z", "", 1764000000, None])),
               "summary": " ".join(draw(st.lists(st.sampled_from(_WORDS), max_size=6))),
               "session_id": draw(st.sampled_from(["s1", "s2", "unknown", ""])),
               "salience": draw(st.sampled_from([0.3, "0.8", True, None]))}
        if event_id is not None:
            row["event_id"] = event_id
        rows.append((label, row))
    return rows


@pytest.fixture(scope="module")
def small_home(tmp_path_factory):
    root = tmp_path_factory.mktemp("anytail") / "home"
    generate_home(root, 120, seed=2, now=NOW)  # logs only: each case saves its own index
    return root


def _known_ids(root) -> list[str]:
    home = Home(root)
    return [r["event_id"] for label in ("changelog", "turns", "prompts") for r in _rows(home, label)[:5]]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_tail_reads_as_keyword_index_refresh_reads_it(small_home, tmp_path_factory, data):
    import shutil

    from carto_core.search import lite

    root = tmp_path_factory.mktemp("case") / "home"
    shutil.copytree(small_home, root)
    home = Home(root)
    SearchEngine(home).ensure_loaded()  # saved here (a copied index names other inodes)
    for label, row in data.draw(_tail_rows(_known_ids(root))):
        _append(home, label, [row])
    view = IndexView.open(home)
    seen = with_tail(home, view, lite.resolve_components().analyzer, max_bytes=BIG)
    index = KeywordIndex.open(home, persist=False)
    _same_index(seen, index, list(_WORDS) + ["mypy", "s1"])


def test_bad_lines_in_the_tail_are_skipped_as_keyword_index_refresh_skips_them(tmp_path):
    """Malformed JSON, a non-object, invalid UTF-8, a glued pair and a torn last line: the
    tail reads what `KeywordIndex.open` reads, no more, and does not raise."""
    from carto_core.search import lite

    home = _saved_home(tmp_path, events=300)
    view = IndexView.open(home)
    good = {"event_id": "evt-badtail00001", "timestamp": "2026-11-30T10:00:00Z", "type": "tool_bash",
            "summary": "Ran: marmot lanyard after bad lines", "session_id": "s-bad"}
    glued = json.dumps({**good, "event_id": "evt-badtail00002"}) + json.dumps({**good, "event_id": "evt-badtail00003"})
    with open(home.log("changelog"), "ab") as handle:
        handle.write(b"{not json\n[1, 2]\n" + '{"event_id": "evt-badutf8", "summary": "caf\xe9"}'.encode("latin-1")
                     + b"\n" + glued.encode() + b"\n" + json.dumps(good).encode() + b"\n"
                     + b'{"event_id": "evt-torn", "summary": "torn marmot')
    seen = with_tail(home, view, lite.resolve_components().analyzer, max_bytes=BIG)
    index = KeywordIndex.open(home, persist=False)
    _same_index(seen, index, ["marmot", "lanyard", "torn", "caf", "json"])
    assert seen.index_of("evt-badtail00001") is not None and seen.index_of("evt-torn") is None
