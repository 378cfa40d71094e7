"""The streamed keyword build equals the one-shot build, whatever the chunk and run sizes, on
a corpus many chunks long; an index saved after appends equals one built fresh."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.util import parallel
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.search.index import KeywordIndex
from carto_core.search.index_build import COLUMNS, default_analyzer
from carto_core.search.index_stream import stream_build

WORDS = ["cart", "coupon", "deploy", "schema", "lag", "café", "naïve", "東京", "build", "index",
         "retry", "Crash", "stack-trace", "load_events", "v2.1", "prod", "alembic"]


def write_corpus(root, seed: int, events: int = 240) -> Home:
    """Every log, changelog copies, repeated ids, id-less rows, bad lines, a torn tail."""
    rng = random.Random(seed)
    home = Home(root)
    home.root.mkdir(parents=True, exist_ok=True)
    rows: dict[str, list] = {label: [] for label in ("tool-use", "research", "milestones",
                                                    "prompts", "turns", "changelog")}
    for n in range(events):
        label = rng.choice(["tool-use", "tool-use", "prompts", "turns", "research", "milestones"])
        session = f"s{rng.randrange(6)}"
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
        row = {"event_id": f"evt-{seed}-{n}", "timestamp": f"2026-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T10:00:0{rng.randint(0, 9)}Z",
               "type": rng.choice(["tool_bash", "prompt", "transcript", ""]), "summary": text,
               "project": rng.choice(["alpha", "beta", "", "unknown"]),
               "session" if label in ("tool-use", "research", "turns") else "session_id": session,
               "salience": rng.choice([0.2, 0.5, None, "0.9"])}
        if label == "milestones":
            row = {**row, "milestone": "session_wrapup", "description": text}
            del row["summary"]
        if rng.random() < 0.05:
            del row["event_id"]  # keyed by position
        rows[label].append(row)
        if label != "prompts" and rng.random() < 0.6:
            rows["changelog"].append({**row, "summary": "copy " + text})  # same id: folded
        if rng.random() < 0.05 and "event_id" in row:
            rows[rng.choice(["tool-use", "changelog"])].append(row)  # the id again
    rows["changelog"].extend({"event_id": f"git-{seed}-{k}", "summary": f"commit {rng.choice(WORDS)}",
                              "timestamp": "2026-05-05T10:00:00Z"} for k in range(20))
    for label, items in rows.items():
        append_rows(home.log(label), items)
    with open(home.log("tool-use"), "ab") as handle:
        handle.write(b'{"event_id": "broken\n[1, 2]\n{"event_id":"torn","summ')
    return home


def snapshot(index) -> dict:
    seg = index.segments[0]
    return {
        "ids": list(index.ids),
        "cols": {name: [None if v != v else v for v in np.asarray(index.cols[name]).tolist()]
                 for name in COLUMNS},  # NaN (no time, no salience) compares as None
        "terms": np.asarray(seg.terms).tolist(), "offsets": np.asarray(seg.offsets).tolist(),
        "docs": np.asarray(seg.docs).tolist(), "tfs": np.asarray(seg.tfs).tolist(),
        "dls": np.asarray(seg.dls).tolist(), "words": list(seg.sorted_words()),
        "strings": index.strings, "problems": json.loads(json.dumps(index.problems)),
        "logs": index.logs,
    }


def canonical(index) -> dict:
    """The index by event id, blind to document order (an incremental index numbers appended
    documents after the others; a fresh build numbers them in fold order)."""
    ids = list(index.ids)
    alive = np.asarray(index.cols["alive"])
    tables = {"project": "projects", "type": "types", "session": "sessions"}  # codes by first sight

    def value(column, doc):
        v = np.asarray(index.cols[column])[doc].item()
        if column in tables:
            return index.strings[tables[column]][v]
        return None if v != v else v

    cols = {ids[d]: tuple(value(c, d) for c in COLUMNS if c != "alive")
            for d in range(len(ids)) if alive[d]}
    postings = set()
    for seg in index.segments:
        terms = np.repeat(np.asarray(seg.terms), np.diff(np.asarray(seg.offsets)))
        for term, doc, tf, dl in zip(terms.tolist(), np.asarray(seg.docs).tolist(),
                                     np.asarray(seg.tfs).tolist(), np.asarray(seg.dls).tolist()):
            if alive[doc]:
                postings.add((term, ids[doc], tf, dl))
    words = sorted(set().union(*(seg.sorted_words() for seg in index.segments)))
    return {"cols": cols, "postings": postings, "words": words,
            "strings": {k: sorted(v) for k, v in index.strings.items()},
            "problems": json.loads(json.dumps(index.problems))}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return write_corpus(tmp_path_factory.mktemp("corpus"), seed=3)


def one_shot_saved(home) -> dict:
    """The one-shot build, saved: documents a newer row retired are dropped and the rest
    renumbered, as a streamed build writes them."""
    index = KeywordIndex.build_in_memory(home)
    assert not np.asarray(index.cols["alive"]).all()  # the corpus repeats ids within a log
    index.save()
    return snapshot(index)


@pytest.fixture(scope="module")
def one_shot(corpus):
    return one_shot_saved(corpus)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, print_blob=False)
@given(rows=st.integers(1, 90), run_postings=st.integers(1, 700), ranges=st.integers(1, 400),
       blocks=st.integers(1, 300))
def test_a_streamed_build_equals_the_one_shot_build(corpus, one_shot, rows, run_postings, ranges,
                                                    blocks, monkeypatch_module):
    monkeypatch_module.setattr("carto_core.search.index_write.RANGE_POSTINGS", ranges)
    # the retired documents are dropped from the written columns and ids `blocks` at a time
    monkeypatch_module.setattr("carto_core.search.index_write.BLOCK_VALUES", blocks)
    index = stream_build(KeywordIndex, corpus, analyzer=default_analyzer(), rows=rows,
                         run_postings=run_postings)
    assert len(index.ids) > 200 and rows < len(index.ids)  # many chunks, many runs
    assert snapshot(index) == one_shot


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def test_with_session_context_too(tmp_path, monkeypatch):
    monkeypatch.setenv("CARTO_CONTEXT_TERMS", "3")
    home = write_corpus(tmp_path / "h", seed=5)
    one = one_shot_saved(home)
    streamed = stream_build(KeywordIndex, home, analyzer=default_analyzer(), rows=7, run_postings=50)
    assert snapshot(streamed) == one and streamed.context == 3


def test_saving_after_appends_equals_a_fresh_build(tmp_path, monkeypatch):
    home = write_corpus(tmp_path / "h", seed=8)
    monkeypatch.setattr("carto_core.search.index_write.RANGE_POSTINGS", 37)
    KeywordIndex.build(home)
    extra = write_corpus(tmp_path / "more", seed=9, events=60)
    for label in ("tool-use", "prompts", "turns", "changelog"):
        data = extra.log(label).read_bytes().split(b'{"event_id": "broken')[0]
        with open(home.log(label), "ab") as handle:
            if label == "tool-use":
                handle.write(b'ed"}\n')  # completes the torn line: a row of its own
            handle.write(data)
    # A changelog copy first, its domain row later: the domain row takes the event over.
    append_rows(home.log("changelog"), [{"event_id": "evt-late", "summary": "early copy"}])
    index = KeywordIndex.open(home)
    append_rows(home.log("research"), [{"event_id": "evt-late", "summary": "the real row", "type": "fetch"}])
    index = KeywordIndex.open(home)
    assert index.tail_docs and len(index.segments) == 2
    before = canonical(index)
    index.save()
    assert len(index.segments) == 1 and index.tail_docs == 0
    fresh = KeywordIndex.build_in_memory(home)
    assert canonical(index) == before == canonical(fresh)
    assert index.logs == fresh.logs
    reloaded = KeywordIndex.load(home)
    assert snapshot(reloaded) == snapshot(index)


def _mutate(home: Home, op: str, rng: random.Random) -> None:
    from carto_core.logio.rewrite import rewrite_log

    label = rng.choice(["tool-use", "prompts", "turns", "changelog"])
    path = home.log(label)
    if op == "append":
        n = rng.randrange(10_000)
        append_rows(path, [{"event_id": f"evt-new{n}", "summary": f"fresh {rng.choice(WORDS)}",
                            "timestamp": "2026-07-01T10:00:00Z", "session": "s1"},
                           {"summary": "no id at all", "timestamp": "2026-07-01T10:00:01Z"}])
    elif op == "edit":  # one row's text changes, one row goes, through the rewrite path
        def transform(rows):
            for i, row in enumerate(rows):
                if i == 2:
                    continue
                if i == 0:
                    row = {**row, "summary": f"rewritten {rng.choice(WORDS)}"}
                yield row
        rewrite_log(path, transform)
    elif op == "same":  # rewritten byte for byte: every document stays
        rewrite_log(path, lambda rows: rows)
    elif op == "truncate":  # the last rows cut off in place
        lines = path.read_bytes().splitlines(keepends=True)
        with open(path, "r+b") as handle:
            handle.truncate(len(b"".join(lines[: max(1, len(lines) - 4)])))


@settings(max_examples=20, deadline=None, print_blob=False)
@given(ops=st.lists(st.sampled_from(["append", "edit", "same", "truncate"]), min_size=1, max_size=5),
       seed=st.integers(0, 1000))
def test_after_appends_rewrites_and_truncations_the_index_equals_a_fresh_build(
        tmp_path_factory, ops, seed):
    rng = random.Random(seed)
    home = write_corpus(tmp_path_factory.mktemp("rw"), seed=seed % 7, events=120)
    KeywordIndex.build(home)
    rebuilt = patched = 0
    for op in ops:
        _mutate(home, op, rng)
        index = KeywordIndex.load(home)
        outcome = index.refresh()
        if outcome == "rebuild":  # allowed only when a vanished row's id lives on elsewhere
            rebuilt += 1
            index = KeywordIndex.build(home)
        else:
            patched += outcome == "patched" or index.patched
            index.save()
        assert canonical(index) == canonical(KeywordIndex.build_in_memory(home))
    # Every step was a patch or an allowed rebuild; the corpus repeats ids within logs, so a
    # rewrite of such a log rebuilds (its newest row wins: see patch_rewritten).
    assert rebuilt + patched <= len(ops)


def test_a_rewrite_is_patched_in_not_rebuilt(tmp_path, monkeypatch):
    from carto_core.logio.rewrite import rewrite_log

    home = write_corpus(tmp_path / "h", seed=4)
    KeywordIndex.build(home)

    def no_rebuild(*args, **kwargs):
        raise AssertionError("rebuilt")

    monkeypatch.setattr("carto_core.search.index_stream.stream_build", no_rebuild)
    monkeypatch.setattr(KeywordIndex, "build_in_memory", classmethod(no_rebuild))
    rewrite_log(home.log("turns"), lambda rows: ({**r, "summary": r.get("summary", "") + " zebra"}
                                                 if i == 3 else r for i, r in enumerate(rows)))
    index = KeywordIndex.open(home)
    assert index.df("zebra") == 1 and not index.patched  # saved: a new generation
    monkeypatch.undo()
    assert canonical(index) == canonical(KeywordIndex.build_in_memory(home))


def test_indexing_a_tail_reads_only_the_tail(tmp_path):
    """Appended rows are indexed without decoding the id list of every indexed document (a
    cold search after 1,000 appends at 1M events spent 0.4 s on it): ids stay read lazily, and
    a tail row repeating an indexed id still finds its document through the hashed lookup."""
    home = write_corpus(tmp_path / "h", seed=11)
    KeywordIndex.build(home)
    append_rows(home.log("tool-use"), [{"event_id": "evt-tail-1", "summary": "zebra crossing"}])
    append_rows(home.log("changelog"), [{"event_id": "evt-11-0", "summary": "copy zebra"}])
    index = KeywordIndex.open(home)
    assert index.tail_docs == 1 and index._ids is None  # nothing decoded every id
    assert index.positions(["evt-tail-1"]).tolist() == [len(index) - 1]
    doc = int(index.positions(["evt-11-0"])[0])
    assert 0 <= doc < len(index) - 1
    assert "changelog" in index.seen_labels(doc)[1:]  # the copy marked its event, no new document


def test_a_word_only_a_retired_document_held_leaves_the_vocabulary(tmp_path, monkeypatch):
    """A live turn rewritten as it grows: its first row's words are not the event's any more.
    The streamed build drops them from vocab.txt (a `prefix*` query must not expand to them),
    as saving the one-shot build does, whatever the block the words are checked in."""
    monkeypatch.setattr("carto_core.search.index_write.RANGE_POSTINGS", 3)
    home = write_corpus(tmp_path / "h", seed=12)
    append_rows(home.log("turns"), [{"event_id": "evt-open", "summary": "ephemeralword draft"},
                                    {"event_id": "evt-open", "summary": "final answer draft"}])
    from carto_core.search import index_write

    real = index_write._live_words
    monkeypatch.setattr(index_write, "_live_words",
                        lambda words, live: real(words, live, block=7))
    streamed = stream_build(KeywordIndex, home, analyzer=default_analyzer(), rows=16,
                            run_postings=50)
    words = streamed.segments[0].sorted_words()
    assert "draft" in words and "final" in words and "ephemeralword" not in words
    assert streamed.prefix_terms("ephemeral") == []
    assert snapshot(streamed) == one_shot_saved(home)


def generation_files(home: Home) -> dict[str, bytes]:
    """Every file of the published generation, by name (the build time and the logs' inodes
    left out of meta)."""
    base = KeywordIndex.folder(home)
    folder = base / (base / "CURRENT").read_text("utf-8").strip()
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if path.name == "meta.json":
                meta = json.loads(data)
                meta.pop("built_at")
                for state in meta["logs"].values():  # another home's files: other inodes
                    state.pop("inode")
                data = json.dumps(meta, sort_keys=True).encode()
            out[str(path.relative_to(folder))] = data
    return out


@pytest.fixture(scope="module")
def serial_files(tmp_path_factory):
    home = write_corpus(tmp_path_factory.mktemp("serial"), seed=3)
    stream_build(KeywordIndex, home, analyzer=default_analyzer(), jobs=1, min_bytes=0)
    return generation_files(home)


@settings(max_examples=6, deadline=None, print_blob=False)
@given(rows=st.integers(1, 120), run_postings=st.integers(1, 900), jobs=st.integers(2, 3))
def test_a_build_in_worker_processes_is_the_serial_build_byte_for_byte(
        tmp_path_factory, serial_files, rows, run_postings, jobs, monkeypatch_module):
    monkeypatch_module.setattr("carto_core.util.parallel.cores", lambda: 4)
    used = []
    real = parallel.ordered_pool
    monkeypatch_module.setattr("carto_core.search.index_stream.ordered_pool",
                               lambda workers, *a: used.append(workers) or real(workers, *a))
    home = write_corpus(tmp_path_factory.mktemp("parallel"), seed=3)
    stream_build(KeywordIndex, home, analyzer=default_analyzer(), rows=rows,
                 run_postings=run_postings, jobs=jobs, min_bytes=0)
    assert used == [jobs]  # the rows really went to `jobs` worker processes
    # chunk and run sizes change how the work is cut, never the index: files equal the
    # serial build's (default sizes), which equals the one-shot build (the test above)
    assert generation_files(home) == serial_files


def test_a_build_uses_no_more_workers_than_cores_and_none_for_a_small_home(
        tmp_path, monkeypatch):
    from carto_core.search.index_stream import _workers

    home = write_corpus(tmp_path / "h", seed=2, events=40)
    analyzer = default_analyzer()
    monkeypatch.setattr("carto_core.util.parallel.cores", lambda: 2)
    assert _workers(home, analyzer, 0, 8, 0) == 2  # the cores cap the flag
    assert _workers(home, analyzer, 0, 1, 0) == 1
    assert _workers(home, analyzer, 0, 2, 10 << 20) == 1  # logs under min_bytes: this process
    assert _workers(home, analyzer, 3, 2, 0) == 1  # session context: rows in order, here
    monkeypatch.setenv("CARTO_JOBS", "2")
    assert _workers(home, analyzer, 0, None, 0) == 2

    class Local(type(analyzer)):  # a class a fresh interpreter cannot import
        pass

    assert _workers(home, Local(), 0, 2, 0) == 1
