"""`run_index`: incremental, resumable, gated, failures logged with back-off, nothing lost."""

from __future__ import annotations

import json
from datetime import timedelta

import numpy as np
import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.model.corpus import load_corpus
from carto_core.logio.logs import order_row
from carto_core.logio.reader import iter_lines
from carto_core.semantic.indexer import ERRORS_FILE, REJECTS_FILE, Backoff, backoff_key, run_index
from carto_core.semantic.searcher import SemanticSearcher
from carto_core.semantic.settings import SemanticSettings
from carto_core.semantic.stores import open_store
from carto_core.semantic.text import document_text

from .conftest import NOW, paraphrase_rows
from .test_store_contract import SCORE_TOLERANCE


def stored_ids(home):
    settings = SemanticSettings.load()
    searcher = SemanticSearcher(home, settings)
    status = searcher.status()
    return open_store(home, settings).ids(status.model), status


def rows_of(path):
    return [line.row for line in iter_lines(path)]


def texted_ids(home):
    """An independent count: every event of the home that has text to embed."""
    return {e.event_id for e in load_corpus(home).events if document_text(e)}


def test_first_run_fits_and_embeds_everything_then_nothing(paraphrase_home):
    home, rows, _ = paraphrase_home
    report = run_index(home)
    assert report.outcome == "ok" and report.fitted == report.model
    assert report.embedded == len(rows) == report.corpus
    ids, status = stored_ids(home)
    assert ids == texted_ids(home) and status.state == "available" and status.vectors == len(rows)
    again = run_index(home)
    assert (again.outcome, again.embedded, again.already, again.fitted) == ("ok", 0, len(rows), "")


def test_incremental_embeds_only_new_rows(paraphrase_home):
    home, rows, _ = paraphrase_home
    run_index(home)
    new = [order_row("turns", {"event_id": f"turn-s1-{i}", "timestamp": "2026-11-02T10:00:00Z",
                               "project": "alpha", "type": "transcript", "provider": "claude",
                               "summary": f"signin password reset flow step {i}",
                               "session": "s1", "turn_idx": i}) for i in range(3)]
    append_rows(home.log("turns"), new)
    report = run_index(home)
    assert (report.todo, report.embedded, report.already) == (3, 3, len(rows))
    assert stored_ids(home)[0] == texted_ids(home)


def test_resumable_after_an_embedder_dies_mid_run(paraphrase_home, monkeypatch):
    home, rows, _ = paraphrase_home
    monkeypatch.setenv("CARTO_NOVELTY_GATE", "off")  # every row counts below, none gated
    run_index(home, limit=0)  # fit only
    from carto_rankers.embedders.lsa import LsaEmbedder
    from carto_core.semantic.embedder import EmbedderUnavailable

    real = LsaEmbedder.embed_documents
    calls = {"n": 0}

    def flaky(self, texts):
        calls["n"] += 1
        if calls["n"] == 3:
            raise EmbedderUnavailable("embedder went away", fix="restart it")
        return real(self, texts)

    monkeypatch.setattr(LsaEmbedder, "embed_documents", flaky)
    report = run_index(home, batch_size=10)
    assert report.outcome == "unavailable" and report.embedded == 20
    assert report.failed == len(rows) - 20 and report.fix == "restart it"
    errors = rows_of(home.state_file(ERRORS_FILE))
    assert [(e["stage"], e["event_id"]) for e in errors] == [("embedder_unavailable", None)]
    assert len(stored_ids(home)[0]) == 20  # committed batches stay
    # Inside the back-off window the next run does nothing and says until when.
    waiting = run_index(home)
    assert waiting.outcome == "backing_off" and waiting.fix == "carto index --force"
    assert waiting.backoff_until == Backoff(home).read()["until"]
    monkeypatch.setattr(LsaEmbedder, "embed_documents", real)
    resumed = run_index(home, force=True)
    assert (resumed.outcome, resumed.embedded, resumed.already) == ("ok", len(rows) - 20, 20)
    assert stored_ids(home)[0] == texted_ids(home)
    assert Backoff(home).read() == {}


def test_a_backoff_holds_back_only_the_embedder_and_store_that_failed(tmp_path):
    """`CARTO_EMBEDDER=lsa carto index` on an install without scikit-learn backs off; the
    next `carto index` with the default embedder waited out that back-off ("minilm: waiting
    after a failure ... (the lsa embedder fits with scikit-learn ...)"). Now it runs, and the
    lsa back-off still holds lsa."""
    from carto_core.logio.home import Home
    from carto_core.semantic.settings import SemanticSettings

    home = Home(tmp_path)
    lsa = SemanticSettings(embedder="lsa")
    other = SemanticSettings(embedder="minilm")
    until = Backoff(home, backoff_key(lsa)).fail("scikit-learn is not installed", NOW)
    assert Backoff(home, backoff_key(lsa)).until() == until
    assert Backoff(home, backoff_key(other)).until() is None
    assert Backoff(home, backoff_key(other)).read() == {}
    assert Backoff(home).read()["for"] == "lsa into embedded"  # no key: whatever is recorded
    qdrant = SemanticSettings(embedder="lsa", qdrant_url="http://127.0.0.1:6333")
    assert Backoff(home, backoff_key(qdrant)).until() is None  # another store
    # through the indexer itself: lsa waits, another embedder goes on to its own checks
    assert run_index(home, settings=lsa, now=NOW).outcome == "backing_off"
    assert run_index(home, settings=SemanticSettings(embedder="no-such-embedder"),
                     now=NOW).outcome not in ("backing_off", "ok")
    # a failure of another one starts its own count (the file keeps the last failure)
    later = Backoff(home, backoff_key(other)).fail("down", NOW)
    assert (later - NOW).total_seconds() == 60
    assert Backoff(home, backoff_key(lsa)).until() is None


def test_backoff_doubles_and_is_capped(tmp_path):
    from carto_core.logio.home import Home

    backoff = Backoff(Home(tmp_path))
    delays = [(backoff.fail("down", NOW) - NOW).total_seconds() for _ in range(9)]
    assert delays == [60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]


def test_novelty_gate_rejects_near_duplicates_but_never_turns(paraphrase_home):
    home, rows, _ = paraphrase_home
    run_index(home)
    dup_text = rows[0]["summary"]
    tool = [order_row("tool-use", {"event_id": f"evt-dup{i}", "timestamp": "2026-11-02T10:00:00Z",
                                   "type": "tool_bash", "provider": "claude", "tool": "Bash",
                                   "summary": dup_text, "project": "alpha", "session": "s9"})
            for i in range(2)]
    turns = [order_row("turns", {"event_id": "turn-s9-1", "timestamp": "2026-11-02T10:00:00Z",
                                 "project": "alpha", "type": "transcript", "provider": "claude",
                                 "summary": dup_text, "session": "s9", "turn_idx": 1})]
    append_rows(home.log("tool-use"), tool)
    append_rows(home.log("turns"), turns)
    report = run_index(home)
    assert report.gate_active and report.gated == 2 and report.embedded == 1
    rejects = rows_of(home.state_file(REJECTS_FILE))
    assert sorted(r["event_id"] for r in rejects) == ["evt-dup0", "evt-dup1"]
    assert all(r["outcome"] == "gate_rejected" and r["score"] > 0.85 and r["threshold"] == 0.85
               for r in rejects)
    # The nearest is the row of the same text, or one as near up to the store's int8 rounding
    # (8 LSA dimensions put a topic's rows within 1e-2 of each other).
    from carto_core.semantic.embedder import create_embedder
    from carto_core.semantic.settings import SemanticSettings

    embedder = create_embedder("lsa", home, SemanticSettings.load())
    unit = lambda v: np.asarray(v) / np.linalg.norm(v)  # noqa: E731
    events = {e.event_id: e for e in load_corpus(home).events}
    dup = unit(embedder.embed_documents([document_text(events["evt-dup0"])])[0])
    exact = {row["event_id"]: float(unit(v) @ dup) for row, v in zip(rows, embedder.embed_documents(
        [document_text(events[row["event_id"]]) for row in rows]))}
    for r in rejects:
        assert exact[r["nearest"]] == pytest.approx(1.0, abs=2 * SCORE_TOLERANCE)
        assert r["score"] == pytest.approx(exact[r["nearest"]], abs=SCORE_TOLERANCE)
    assert "turn-s9-1" in stored_ids(home)[0]
    # Rejected ids are not offered again; switching the gate off indexes them.
    assert run_index(home).todo == 0


def test_gate_off_by_configuration(paraphrase_home, monkeypatch):
    home, rows, _ = paraphrase_home
    run_index(home)
    append_rows(home.log("tool-use"), [order_row("tool-use", {
        "event_id": "evt-dupx", "timestamp": "2026-11-02T10:00:00Z", "type": "tool_bash",
        "summary": rows[0]["summary"], "project": "alpha", "session": "s9"})])
    monkeypatch.setenv("CARTO_NOVELTY_GATE", "off")
    report = run_index(home)
    assert (report.gate, report.gate_active, report.embedded) == (None, False, 1)


def test_model_change_is_reported_with_the_command_then_reembedded(paraphrase_home, monkeypatch):
    home, rows, _ = paraphrase_home
    first = run_index(home)
    # Refit on a different corpus: a new model tag; the stored vectors are another model's.
    from carto_core.semantic.embedder import create_embedder

    embedder = create_embedder("lsa", home, SemanticSettings.load())
    embedder.fit([r["summary"] for r in rows] + ["brand new words entirely"] * 2)
    status = SemanticSearcher(home).status()
    assert status.state == "unavailable" and status.fix == "carto index"
    assert f"{len(rows)} vectors of another model ({first.model})" in status.reason
    report = run_index(home)
    assert report.embedded == len(rows) and report.dropped_models == {first.model: len(rows)}
    ids, status = stored_ids(home)
    assert status.state == "available" and ids == texted_ids(home)


def test_disabled_does_nothing(paraphrase_home, monkeypatch):
    home, _, _ = paraphrase_home
    monkeypatch.setenv("CARTO_SEMANTIC", "0")
    report = run_index(home)
    assert report.outcome == "disabled" and report.embedded == 0
    assert not (home.state / "vectors").exists()
    assert SemanticSearcher(home).status().state == "disabled"


def test_events_without_text_are_counted_not_embedded(paraphrase_home):
    home, rows, _ = paraphrase_home
    append_rows(home.log("tool-use"), [{"event_id": "evt-notext", "timestamp": "2026-11-02T10:00:00Z"}])
    report = run_index(home)
    assert report.no_text == 1 and report.embedded == len(rows)
    assert "evt-notext" not in stored_ids(home)[0]


def test_payload_carries_upstream_fields(paraphrase_home, tmp_path, monkeypatch):
    import qdrant_client  # noqa: F401  (installed by requirements-dev.txt; never skipped)
    home, rows, _ = paraphrase_home
    monkeypatch.setenv("CARTO_QDRANT_PATH", str(tmp_path / "q"))
    report = run_index(home)
    assert report.outcome == "ok" and report.store.startswith("Qdrant collection 'carto'")
    store = open_store(home, SemanticSettings.load())
    try:
        points, _ = store.client.scroll("carto", limit=1, with_payload=True)
        payload = points[0].payload
        row = next(r for r in rows if r["event_id"] == payload["event_id"])
        assert payload["summary"] == f"{row['summary']} | project: {row['project']}"
        assert (payload["source"], payload["project"], payload["timestamp"], payload["model"]) == (
            "prompt", row["project"], row["timestamp"], report.model)
        assert payload["session"] == row["session_id"] and payload["salience"] == 0.6
    finally:
        store.close()
