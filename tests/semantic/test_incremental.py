"""`run_index` reads only what changed: nothing new costs the state file, appends cost their
tail, and after any mix of appends, rewrites and truncations the store holds what a fresh build
of the same logs holds."""

from __future__ import annotations

import os
import shutil

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.model.logstream import Fold
from carto_core.logio.rewrite import rewrite_log
from carto_core.semantic.embedded import EmbeddedStore
from carto_core.semantic.indexer import run_index
from carto_core.semantic.searcher import SemanticSearcher
from carto_core.semantic.store import vectors_dir

from .conftest import _prompt, paraphrase_rows


class Row:
    """A stored row as float32 (its int8 codes around the store's centre, decoded) with the
    rounding it may carry: two stores (of different centres) hold the same vector when their
    rows differ by no more than the two roundings; the text digests must be equal."""

    def __init__(self, vector: np.ndarray, scale: float, digest: int):
        self.vector, self.scale, self.digest = vector, scale, digest

    def __eq__(self, other):
        return (self.digest == other.digest and np.abs(self.vector - other.vector).max()
                <= (self.scale + other.scale) / 2 + 1e-6)

    def __repr__(self):
        return f"Row(digest={self.digest}, scale={self.scale:.2e}, {self.vector[:3]}...)"


def stored(home: Home) -> tuple[str, dict]:
    """model, {event_id: Row} of the store's current model."""
    model = SemanticSearcher(home).status().model
    out = {}
    for segment in EmbeddedStore(vectors_dir(home))._model_segments(model):
        rows = segment.float_rows()
        for row, event_id in enumerate(segment.id_list()):
            assert event_id not in out  # one vector per id
            out[event_id] = Row(rows[row], float(segment.scale[row]), int(segment.digests[row]))
    return model, out


def test_nothing_new_reads_only_the_state(paraphrase_home, monkeypatch):
    home, rows, _ = paraphrase_home
    assert run_index(home).embedded == len(rows)

    def no_reads(*args, **kwargs):
        raise AssertionError("a log was read")

    monkeypatch.setattr(Fold, "chunks", no_reads)
    report = run_index(home)
    assert (report.outcome, report.embedded, report.already, report.corpus) == ("ok", 0, len(rows), len(rows))


def test_appended_rows_are_read_from_the_tail_only(paraphrase_home, monkeypatch):
    home, rows, _ = paraphrase_home
    monkeypatch.setenv("CARTO_NOVELTY_GATE", "off")
    run_index(home)
    end = home.log("prompts").stat().st_size
    append_rows(home.log("prompts"), [_prompt(f"evt-new{i}", f"signin lag stripe {i}", "auth", 900 + i)
                                      for i in range(3)])
    append_rows(home.log("turns"), [{"event_id": "turn-s1-1", "timestamp": "2026-11-02T10:00:00Z",
                                     "type": "transcript", "summary": "schema migration rollout"}])
    read = []
    real = Fold.chunks

    def spy(self, path, label, *, start=0, **kwargs):
        read.append((label, start))
        return real(self, path, label, start=start, **kwargs)

    monkeypatch.setattr(Fold, "chunks", spy)
    report = run_index(home)
    assert sorted(read) == [("prompts", end), ("turns", 0)]
    assert (report.embedded, report.already, report.corpus) == (4, len(rows), len(rows) + 4)


def _mutate(home: Home, op: str, serial: int) -> None:
    path = home.log("prompts")
    if op == "append":
        append_rows(path, [_prompt(f"evt-add{serial}-{i}", f"rollout prod ship {serial} {i}",
                                   "deploy", 2000 + serial * 3 + i) for i in range(2)])
    elif op == "rewrite":  # one row's text changes, one row goes (the rewrite path)
        def transform(rows):
            for i, row in enumerate(rows):
                if i == 1:
                    continue
                if i == 0:
                    row = {**row, "summary": f"stacktrace panic error rewritten {serial}"}
                yield row
        rewrite_log(path, transform)
    elif op == "truncate":  # the last rows cut off in place (same inode, shorter)
        data = path.read_bytes()
        lines = data.splitlines(keepends=True)
        os.truncate(path, len(b"".join(lines[: max(1, len(lines) - 3)])))
    elif op == "changelog":  # copies of prompts under their ids, and one new event
        append_rows(home.log("changelog"), [
            {"event_id": "evt-authbg000", "timestamp": "2026-11-01T10:00:00Z", "summary": "copy"},
            {"event_id": f"evt-log{serial}", "timestamp": "2026-11-01T10:00:00Z",
             "summary": f"memcached lru memo {serial}", "project": "beta"}])


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(ops=st.lists(st.sampled_from(["append", "rewrite", "truncate", "changelog"]),
                    min_size=1, max_size=4))
def test_incremental_after_appends_rewrites_truncations_equals_a_fresh_build(tmp_path_factory, ops):
    root = tmp_path_factory.mktemp("inc")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARTO_LSA_DIMS", "8")
        patch.setenv("CARTO_NOVELTY_GATE", "off")  # a fresh build is ungated: compare like with like
        home = Home(root / "home")
        rows, _ = paraphrase_rows()
        append_rows(home.log("prompts"), rows)
        patch.setenv("CARTO_HOME", str(home.root))
        assert run_index(home).outcome == "ok"
        for serial, op in enumerate(ops):
            _mutate(home, op, serial)
            assert run_index(home).outcome == "ok"
        model, incremental = stored(home)
        # A fresh build of the same logs, with the same fitted model.
        fresh = Home(root / "fresh")
        fresh.root.mkdir()
        for path in home.root.glob("*.jsonl"):
            shutil.copy(path, fresh.root / path.name)
        if (home.state / "embedders").exists():  # a fitted embedder (lsa): the same fit
            shutil.copytree(home.state / "embedders", fresh.state / "embedders")
        patch.setenv("CARTO_HOME", str(fresh.root))
        report = run_index(fresh)
        assert report.outcome == "ok" and report.fitted == ""
        assert stored(fresh) == (model, incremental)
        again = run_index(home)
        assert (again.corpus, again.no_text) == (report.corpus, report.no_text)


def test_a_turn_written_again_as_it_grew_is_one_vector_of_its_newest_text(paraphrase_home, monkeypatch):
    home, rows, _ = paraphrase_home
    monkeypatch.setenv("CARTO_NOVELTY_GATE", "off")
    turn = {"event_id": "turn-s7-1", "timestamp": "2026-11-02T10:00:00Z", "type": "transcript",
            "summary": "schema migration", "session": "s7", "turn_idx": 1, "open": True}
    append_rows(home.log("turns"), [turn, {**turn, "summary": "schema migration rollout prod"},
                                    {**turn, "summary": "schema migration rollout prod ship", "open": False}])
    report = run_index(home)
    assert report.corpus == len(rows) + 1 and report.embedded == len(rows) + 1
    model, vectors = stored(home)
    from carto_core.semantic.text import text_digest
    assert vectors["turn-s7-1"].digest == text_digest("schema migration rollout prod ship")
    # It grows once more after the run: the tail replaces the vector, nothing is added.
    append_rows(home.log("turns"), [{**turn, "summary": "schema migration rollout prod ship lag"}])
    again = run_index(home)
    assert (again.embedded, again.corpus) == (1, len(rows) + 1)
    assert stored(home)[1]["turn-s7-1"].digest == text_digest("schema migration rollout prod ship lag")



def _same_logs(homes: list[Home]) -> list[dict]:
    """The same logs in every home: the paraphrase prompts, changelog copies of a third of
    them and a turn written twice (it grew); returns the prompt rows."""
    rows, _ = paraphrase_rows()
    turn = {"event_id": "turn-s1-1", "timestamp": "2026-11-01T10:00:00Z", "session_id": "s1",
            "project": "beta", "role": "assistant", "summary": "the cache was cold"}
    for home in homes:
        append_rows(home.log("prompts"), rows)
        append_rows(home.log("changelog"), [{**r, "summary": "a copy"} for r in rows[::3]])
        append_rows(home.log("turns"), [turn, {**turn, "summary": "memcached lru warmed, then cold"}])
    return rows

@settings(max_examples=8, deadline=None)
@given(chunk=st.integers(1, 7))
def test_a_streamed_build_equals_a_one_shot_build_over_chunk_sizes(tmp_path_factory, chunk):
    """The logs read chunk by chunk (`logstream.Fold`), many chunks long, with changelog copies
    and a turn written twice across chunks, store what a run over the corpus loaded at once
    stores: the same ids, vectors and text digests."""
    from carto_core.model.corpus import load_corpus

    root = tmp_path_factory.mktemp("chunks")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARTO_LSA_DIMS", "8")
        patch.setenv("CARTO_NOVELTY_GATE", "off")
        homes = [Home(root / name) for name in ("streamed", "one-shot")]
        rows = _same_logs(homes)
        patch.setenv("CARTO_HOME", str(homes[0].root))
        real = Fold.chunks
        sizes = []

        def small(self, path, label, **kwargs):
            kwargs["rows"] = chunk
            for got in real(self, path, label, **kwargs):
                sizes.append(len(got))
                yield got

        patch.setattr(Fold, "chunks", small)
        assert run_index(homes[0]).outcome == "ok"
        patch.setattr(Fold, "chunks", real)
        assert max(sizes) <= chunk and len(sizes) > 3
        if (homes[0].state / "embedders").exists():  # the same fitted lsa model
            shutil.copytree(homes[0].state / "embedders", homes[1].state / "embedders")
        patch.setenv("CARTO_HOME", str(homes[1].root))
        report = run_index(homes[1], corpus=load_corpus(homes[1]))
        assert report.outcome == "ok" and report.fitted == ""
        model, streamed = stored(homes[0])
        assert stored(homes[1]) == (model, streamed)
        assert len(streamed) == len(rows) + 1


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(commit_every=st.integers(1, 9), batch_size=st.integers(1, 5))
def test_commits_of_any_size_store_what_one_commit_stores(tmp_path_factory, commit_every, batch_size):
    """The indexer's pending rows live in one reused buffer (`_Pending`): commits smaller than
    a batch (the buffer grows), larger ones (many batches a commit), and a turn written again
    while its first row is still pending store the vectors and digests of a single commit."""
    root = tmp_path_factory.mktemp("commits")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARTO_LSA_DIMS", "8")
        patch.setenv("CARTO_NOVELTY_GATE", "off")
        homes = [Home(root / name) for name in ("small", "one")]
        rows = _same_logs(homes)
        patch.setenv("CARTO_HOME", str(homes[0].root))
        report = run_index(homes[0], commit_every=commit_every, batch_size=batch_size)
        assert report.outcome == "ok" and report.embedded >= len(rows)
        if (homes[0].state / "embedders").exists():  # the same fitted lsa model
            shutil.copytree(homes[0].state / "embedders", homes[1].state / "embedders")
        patch.setenv("CARTO_HOME", str(homes[1].root))
        assert run_index(homes[1]).outcome == "ok"
        model, small = stored(homes[0])
        assert stored(homes[1]) == (model, small)
        assert len(small) == len(rows) + 1


def _rejects(home: Home) -> list[dict]:
    import json

    path = home.state_file("index-rejects.jsonl")
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()] if path.exists() else []


@settings(max_examples=12, deadline=None)
@given(sizes=st.lists(st.integers(1, 30), min_size=1, max_size=6),
       window=st.sampled_from(["1", "12", "40", "all"]), full=st.sampled_from([4, 16, 65536]),
       filtered=st.booleans())
def test_keep_up_runs_under_the_gate_equal_a_fresh_build_but_for_its_logged_rejects(
        tmp_path_factory, sizes, window, full, filtered):
    """The logs appended in chunks of any size, a keep-up run after each (gated: fewer new
    documents than `gate_max`), against one fresh build of the final logs (a backfill:
    ungated). They differ only by the gate's decisions: every id the keep-up left out is in
    index-rejects.jsonl, with a stored neighbour that the fresh build's vectors place within
    the threshold; every id both hold has the same vector and digest. Whatever the window (the
    newest segments the gate reads), only the rejects change, never a stored row; and whatever
    the tier shapes compaction leaves (segments of `full` rows: small ones make the runs merge
    tiers into full segments); and with the gate's exact pre-filter on every batch or on none
    (`filtered`)."""
    from carto_core.semantic import embedded
    from carto_core.semantic.settings import DEFAULT_GATE

    from .test_store_contract import SCORE_TOLERANCE

    root = tmp_path_factory.mktemp("gated")
    rows, _ = paraphrase_rows()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARTO_EMBEDDER", "lsa")  # 8 dimensions: a topic's rows are twins
        patch.setenv("CARTO_LSA_DIMS", "8")
        patch.setenv("CARTO_NOVELTY_GATE_WINDOW", window)
        patch.setattr(embedded, "SEGMENT_ROWS", full)
        patch.setattr(embedded, "GATE_FILTER_PAIRS", 0 if filtered else 1 << 62)
        home = Home(root / "home")
        patch.setenv("CARTO_HOME", str(home.root))
        first = 24  # the first build fits lsa on what it finds: enough rows for 8 dimensions
        append_rows(home.log("prompts"), rows[:first])
        assert run_index(home).outcome == "ok"
        start, runs = first, []
        for size in sizes:
            append_rows(home.log("prompts"), rows[start:start + size])
            start += size
            report = run_index(home)
            assert report.outcome == "ok" and (report.gate_active or report.todo == 0)
            runs.append(report.gated)
        model, kept = stored(home)
        rejects = _rejects(home)
        assert sum(runs) == len(rejects)
        fresh = Home(root / "fresh")
        fresh.root.mkdir()
        shutil.copy(home.log("prompts"), fresh.log("prompts"))
        shutil.copytree(home.state / "embedders", fresh.state / "embedders")
        patch.setenv("CARTO_HOME", str(fresh.root))
        report = run_index(fresh)
        assert report.outcome == "ok" and report.fitted == "" and not report.gate_active
        assert stored(fresh)[0] == model
        everything = stored(fresh)[1]
        assert set(everything) == {row["event_id"] for row in rows[:start]}
        rejected = {r["event_id"]: r for r in rejects}
        if window == "all":  # rows[24] is a perf row, and two perf rows are stored before it
            assert rows[first]["event_id"] in rejected
        assert set(kept) | set(rejected) == set(everything)
        assert not set(kept) & set(rejected)
        assert all(kept[i] == everything[i] for i in kept)
        unit = lambda v: v / np.linalg.norm(v)  # noqa: E731
        for event_id, r in rejected.items():
            assert r["score"] > DEFAULT_GATE and r["nearest"] in kept
            cosine = float(unit(everything[event_id].vector) @ unit(everything[r["nearest"]].vector))
            assert cosine == pytest.approx(r["score"], abs=4 * SCORE_TOLERANCE)
