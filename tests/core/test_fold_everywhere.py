"""A turn written three times as it grew is one event, with its latest text, in every reader:
the corpus, the keyword index (built at once and through its incremental tail), the facts
columns (built and appended) and the corpus-folded facts, standup, delta, serve's live corpus,
the MCP server, and the semantic indexer (carto_core.logio.fold; docs/records.md)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.model.corpus import load_corpus
from carto_core.logio.fold import takes_over
from carto_core.logio.home import Home

NOW = datetime.now(timezone.utc).replace(microsecond=0)
STAMP = (NOW - timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
TURN = "turn-sess-fold-2"
TEXTS = ("albatross question", "albatross question bittern answer so far",
         "albatross question bittern answer so far cormorant final words")


def turn(text: str, *, open_: bool) -> dict:
    row = {"event_id": TURN, "timestamp": STAMP, "project": "webshop", "type": "transcript",
           "provider": "claude", "summary": text, "transcript_path": "/t/sess-fold.jsonl",
           "session": "sess-fold", "turn_idx": 2}
    if open_:
        row["open"] = True
    return row


def base(home: Home) -> None:
    append_rows(home.log("turns"), [{**turn("first turn of the session", open_=False),
                                     "event_id": "turn-sess-fold-1", "turn_idx": 1}])
    append_rows(home.log("changelog"), [{"event_id": "evt-other", "timestamp": STAMP,
                                         "type": "tool_bash", "session_id": "sess-fold",
                                         "project": "webshop", "summary": "Ran: make test"}])


def write_revisions(home: Home, which=(0, 1, 2)) -> None:
    for i in which:
        append_rows(home.log("turns"), [turn(TEXTS[i], open_=i < 2)])


def census(home: Home, *extra: str) -> dict:
    result = CliRunner().invoke(cli, ["facts", "census", "--json", "--sample", "5", *extra],
                                env={"CARTO_HOME": str(home.root)})
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def turns_bucket(document: dict) -> dict:
    facts = document.get("facts", document)
    return next(b for b in facts["by_source"] if b["name"] == "turns")


def search(home: Home, word: str) -> list[dict]:
    result = CliRunner().invoke(cli, ["search", word, "--json", "--all", "--no-semantic"],
                                env={"CARTO_HOME": str(home.root)})
    assert result.exit_code in (0, 3), result.output
    return json.loads(result.stdout)["results"]


def test_the_rule():
    assert takes_over("turns", "turns")               # a newer row of the same log
    assert takes_over("changelog", "tool-use")        # a domain row over its changelog copy
    assert not takes_over("tool-use", "changelog")    # ... whichever was read first
    # Two domain logs (an id that should not repeat there): SEARCHED_LOGS order, not read order.
    assert takes_over("milestones", "research") and not takes_over("research", "milestones")


def test_corpus_and_keyword_index_built_at_once(tmp_path):
    home = Home(tmp_path)
    base(home)
    write_revisions(home)
    corpus = load_corpus(home)
    assert [e.event_id for e in corpus.events if e.source == "turns"] == ["turn-sess-fold-1", TURN]
    assert corpus.get(TURN).summary == TEXTS[2] and "open" not in corpus.get(TURN).row
    assert corpus.duplicates == 2
    for word in ("albatross", "bittern", "cormorant"):
        hits = search(home, word)
        assert [h["event_id"] for h in hits] == [TURN], word
        assert hits[0]["summary"] == TEXTS[2]


def test_keyword_index_tail_and_facts_cache_append(tmp_path):
    home = Home(tmp_path)
    base(home)
    write_revisions(home, (0,))
    assert [h["summary"] for h in search(home, "albatross")] == [TEXTS[0]]  # index persisted
    assert turns_bucket(census(home))["count"] == 2                          # cache built
    write_revisions(home, (1, 2))  # appended after both caches were built
    hits = search(home, "albatross")
    assert [(h["event_id"], h["summary"]) for h in hits] == [(TURN, TEXTS[2])]
    assert search(home, "cormorant")[0]["event_id"] == TURN
    cached = census(home)
    assert turns_bucket(cached)["count"] == 2 and cached["facts"]["events"] == 3
    assert census(home)["facts"] == cached["facts"]  # and again, from the saved file
    from carto_core.facts.store import facts_columns

    cols = facts_columns(home)
    code = cols.dims["source"].ids["turns"]
    (position,) = [p for p in range(cols.n) if cols.dims["source"].col[p] == code
                   and cols.event_id(p) == TURN]
    assert cols.event_at(position).summary == TEXTS[2]


def test_keyword_index_patch_after_a_rewrite_and_a_streamed_build(tmp_path):
    """A rewritten log is patched into the index (not rebuilt) and a build is streamed: both
    keep the newest row of a log's id, as the one-shot build does."""
    from carto_core.logio.rewrite import rewrite_log
    from carto_core.search.index import KeywordIndex

    home = Home(tmp_path)
    base(home)
    write_revisions(home, (0, 1))
    KeywordIndex.build(home)  # streamed (persisted)
    assert [h["summary"] for h in search(home, "albatross")] == [TEXTS[1]]
    write_revisions(home, (2,))
    rewrite_log(home.log("turns"), lambda rows: rows)  # byte for byte: a patch, not a rebuild
    index = KeywordIndex.open(home)
    assert index.patched or index.generation  # opened without a rebuild error
    hits = search(home, "albatross")
    assert [(h["event_id"], h["summary"]) for h in hits] == [(TURN, TEXTS[2])]
    assert [h["event_id"] for h in search(home, "bittern")] == [TURN]


def test_facts_without_the_cache_and_standup(tmp_path, monkeypatch):
    home = Home(tmp_path)
    base(home)
    write_revisions(home)
    monkeypatch.setenv("CARTO_FACTS_CACHE", "0")
    folded = census(home)
    monkeypatch.delenv("CARTO_FACTS_CACHE")
    assert folded["facts"] == census(home)["facts"]
    assert turns_bucket(folded)["count"] == 2
    from carto_core.lenses.turnwork import window_turns

    turns = window_turns(home, NOW - timedelta(hours=2), NOW)
    assert [(e.event_id, e.summary) for e in turns if e.event_id == TURN] == [(TURN, TEXTS[2])]


def test_delta_page_shows_the_turn_once_with_its_newest_row(tmp_path):
    home = Home(tmp_path)
    base(home)
    env = {"CARTO_HOME": str(home.root)}
    baseline = json.loads(CliRunner().invoke(cli, ["facts", "delta", "--json"], env=env).stdout)
    write_revisions(home)
    page = json.loads(CliRunner().invoke(cli, ["facts", "delta", "--json", "--cursor",
                                               baseline["facts"]["cursor"]], env=env).stdout)["facts"]
    assert [(e["event_id"], e["summary"]) for e in page["events"]] == [(TURN, TEXTS[2])]
    assert (page["returned"], page["read"]) == (1, 3)


def test_serve_live_corpus_replaces_the_event(tmp_path):
    from carto_core.lenses.livecorpus import LiveCorpus

    home = Home(tmp_path)
    base(home)
    write_revisions(home, (0,))
    live = LiveCorpus(home)
    seen = []
    live.listeners.append(seen.append)
    write_revisions(home, (1, 2))
    change = live.refresh()
    assert change.added == [] and [e.summary for e in change.updated] == [TEXTS[2]]
    assert [e.event_id for e in live.corpus.events].count(TURN) == 1
    assert live.corpus.get(TURN).summary == TEXTS[2]
    assert live.corpus.events[live.index[TURN]].summary == TEXTS[2]
    assert live.corpus.events[-1].event_id == TURN  # where its winning row was read: last
    assert all(live.index[e.event_id] == i for i, e in enumerate(live.corpus.events))


def test_mcp_search_answers_with_the_latest_text(tmp_path):
    from carto_core.mcp.server import CartoMcp

    home = Home(tmp_path)
    base(home)
    write_revisions(home)
    document = CartoMcp(home).call("search", {"query": "albatross", "all": True})
    results = document["results"]
    assert [(r["event_id"], r["summary"]) for r in results] == [(TURN, TEXTS[2])]


def test_the_semantic_indexer_embeds_the_latest_text_again(tmp_path, monkeypatch):
    from carto_core.plugin.registry import get_registries
    from carto_core.semantic.embedded import EmbeddedStore
    from carto_core.semantic.indexer import run_index
    from carto_core.semantic.store import vectors_dir
    from carto_core.semantic.text import document_text, text_digest

    monkeypatch.setenv("CARTO_EMBEDDER", "lsa")
    home = Home(tmp_path)
    base(home)
    for n in range(30):  # enough text for the lsa fit
        append_rows(home.log("prompts"), [{"event_id": f"evt-p{n}", "timestamp": STAMP,
                                           "type": "prompt", "summary": f"prompt {n} about pelicans "
                                           f"and {['herons', 'egrets', 'storks'][n % 3]}"}])
    write_revisions(home, (0,))
    first = run_index(home, registries=get_registries())
    assert first.outcome == "ok", first.reason
    write_revisions(home, (1, 2))
    second = run_index(home, registries=get_registries())  # a tail run: the appended rows
    assert (second.todo, second.embedded) == (1, 1)
    store = EmbeddedStore(vectors_dir(home))
    latest = text_digest(document_text(load_corpus(home).get(TURN)))
    assert store.has(second.model, [TURN], [latest]).tolist() == [True]
    assert run_index(home, registries=get_registries()).todo == 0  # nothing stale is left
    # A full read (another store state: the model's vectors dropped) embeds the newest row only.
    store.drop_model(second.model)
    again = run_index(home, registries=get_registries())
    assert again.outcome == "ok" and store.has(again.model, [TURN], [latest]).tolist() == [True]
    assert again.embedded == again.corpus - again.no_text
