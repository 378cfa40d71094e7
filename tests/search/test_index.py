"""The persisted keyword index against independent scans of the logs."""

from __future__ import annotations

import json
import os

import numpy as np

from carto_core.logio.appendlog import append_rows
from carto_core.search.index import KeywordIndex
from carto_core.search.tokens import row_text, tokenize

from .conftest import padding


def _scan(home):
    """Independent fold: event_id -> (own log, row); domain logs win over the changelog."""
    out = {}
    for label in ("research", "milestones", "tool-use", "prompts", "turns", "changelog"):
        path = home.log(label)
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            out.setdefault(row["event_id"], (label, row))
    return out


def test_documents_and_df_match_an_independent_scan(writer):
    writer.tool("Ran: pytest tests/test_cart.py -k coupon")
    writer.tool("Modified: /work/proj/src/cart.py", etype="tool_file_edit")
    writer.prompt("why does the cart ignore the coupon")
    writer.changelog_only("note about coupon rounding")
    padding(writer, 5)
    index = KeywordIndex.build(writer.home)
    truth = _scan(writer.home)
    assert sorted(index.ids) == sorted(truth)
    for event_id, (label, _row) in truth.items():
        assert index.seen_labels(index.index_of(event_id))[0] == label
    for token in ("coupon", "cart", "pytest", "zzfiller", "nothere"):
        expected = sum(1 for _, row in truth.values() if token in tokenize(row_text(row)))
        assert index.df(token) == expected


def test_changelog_copy_is_folded_and_listed(writer):
    eid = writer.tool("Ran: make deploy")
    index = KeywordIndex.build(writer.home)
    assert len(index) == 1
    assert index.seen_labels(index.index_of(eid)) == ["tool-use", "changelog"]
    assert index.row(index.index_of(eid))["session"] == "s1"  # the domain row is the event


def test_persisted_index_reloads_identically(writer):
    for i in range(30):
        writer.tool(f"Ran: step{i} build cache")
    built = KeywordIndex.build(writer.home)
    loaded = KeywordIndex.load(writer.home)
    assert loaded is not None and loaded.generation == built.generation
    assert [loaded.event_id(i) for i in range(len(loaded))] == built.ids
    for i in (0, 7, 29):
        assert loaded.index_of(built.ids[i]) == i
    assert loaded.index_of("evt-missing") is None
    assert loaded.df("build") == 30


def test_batch_positions_agree_with_single_lookups(writer):
    """`positions` (one vectorised pass, the semantic ladder's mapping) gives what `index_of`
    gives id by id: on a loaded index, with a tail of appended rows, and on an in-memory one."""
    ids = [writer.tool(f"Ran: step{i} build") for i in range(40)]
    built = KeywordIndex.build(writer.home)
    ids += [writer.tool("Ran: appended later")]
    loaded = KeywordIndex.open(writer.home)
    assert loaded.tail_docs == 1
    asked = ids[::-1] + ["evt-missing", ids[3], ""]
    for index in (loaded, built):
        got = index.positions(asked).tolist()
        want = [-1 if index.index_of(e) is None else index.index_of(e) for e in asked]
        assert got == want
    assert loaded.positions(asked).tolist()[: len(ids)] == list(range(len(ids)))[::-1]
    assert built.positions(ids[-1:]).tolist() == [-1]  # built before the row was appended


def test_appended_rows_join_without_a_rebuild(writer):
    writer.tool("Ran: alpha")
    index = KeywordIndex.open(writer.home)
    generation = index.generation
    new = writer.tool("Ran: betaword")
    reopened = KeywordIndex.open(writer.home)
    assert reopened.generation.startswith(generation)  # same persisted generation + a tail
    assert reopened.tail_docs == 1
    assert reopened.index_of(new) is not None and reopened.df("betaword") == 1
    assert len(reopened) == 2


def test_domain_row_arriving_after_its_changelog_copy_wins(writer):
    eid = writer.changelog_only("copy first", event_id="evt-late00domain")
    index = KeywordIndex.open(writer.home)
    writer.tool("Ran: domain text wins", event_id="evt-late00domain", changelog_copy=False)
    assert index.refresh() == "grown"
    position = index.index_of(eid)
    assert index.seen_labels(position) == ["tool-use", "changelog"]
    assert index.n_alive == 1
    index.fold()
    assert len(index) == 1 and index.df("domain") == 1 and index.df("copy") == 0


def test_rewritten_log_forces_a_rebuild(writer):
    writer.tool("Ran: one")
    writer.tool("Ran: two")
    index = KeywordIndex.open(writer.home)
    path = writer.home.log("tool-use")
    lines = path.read_text().splitlines(keepends=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(lines[1])
    os.replace(tmp, path)  # a rewrite: new inode, shorter
    assert index.stale_logs()["tool-use"] == "rewritten"
    assert index.refresh() == "rebuild"
    rebuilt = KeywordIndex.open(writer.home)
    assert rebuilt.df("two") == 1 and rebuilt.index_of(rebuilt.ids[0]) == 0


def test_in_place_rewrite_is_caught_after_a_fresh_check(writer):
    """A fresh check is remembered by (inode, size, mtime); bytes changed in place (same size,
    a later mtime) are still a rewrite."""
    writer.tool("Ran: alpha one")
    index = KeywordIndex.open(writer.home)
    assert index.stale_logs() == {} and index.stale_logs() == {}  # the second from memory
    path = writer.home.log("tool-use")
    data = path.read_bytes()
    with open(path, "r+b") as handle:
        handle.write(data.replace(b"alpha", b"gamma"))
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert index.stale_logs() == {"tool-use": "rewritten"}


def test_torn_last_line_waits_for_its_newline(writer):
    writer.tool("Ran: complete")
    path = writer.home.log("prompts")
    row = {"event_id": "evt-torn00000001", "timestamp": "2026-05-01T00:00:00Z",
           "summary": "half written tornword"}
    with open(path, "ab") as handle:
        handle.write(json.dumps(row).encode())  # no newline yet
    index = KeywordIndex.open(writer.home)
    assert index.index_of("evt-torn00000001") is None
    assert index.problems["prompts"]["counts"]["torn_line"] == 1
    with open(path, "ab") as handle:
        handle.write(b"\n")
    assert index.refresh() == "grown"
    assert index.index_of("evt-torn00000001") is not None and index.df("tornword") == 1


def test_bad_lines_are_counted_not_indexed(writer):
    writer.tool("Ran: good")
    with open(writer.home.log("tool-use"), "ab") as handle:
        handle.write(b"{not json\n[1,2]\n")
    index = KeywordIndex.build(writer.home)
    counts = index.problems["tool-use"]["counts"]
    assert counts == {"malformed_json": 1, "not_an_object": 1}
    assert len(index) == 1


def test_tail_folds_and_persists(writer, monkeypatch):
    from carto_core.search import index as index_module

    monkeypatch.setattr(index_module, "FOLD_MIN", 3)
    writer.tool("Ran: base")
    first = KeywordIndex.open(writer.home).generation
    for i in range(4):
        append_rows(writer.home.log("prompts"), [{"event_id": f"evt-fold{i:08d}",
                    "timestamp": "2026-05-01T00:00:00Z", "summary": f"folded{i}"}])
    folded = KeywordIndex.open(writer.home)
    assert folded.generation != first and folded.tail_docs == 0
    assert np.asarray(folded.cols["alive"]).all() and len(folded) == 5
    assert KeywordIndex.load(writer.home).df("folded2") == 1


#: Two pairs of ids whose CRC32s are equal (the persisted id hash): found by a search.
COLLIDING = (("evt-00000008ddf9", "evt-000002008894"), ("evt-00000008ddf8", "evt-000002008895"))


def test_batch_positions_on_hash_collisions_retired_rows_and_lookalikes(writer):
    """The vectorised byte comparison of `positions` (ids whose hash is in the table once)
    and the slow path (shared hashes, the tail) against the truth: a stored id whose
    document is alive. Both ids of a shared hash, an id absent but sharing a stored id's hash
    and length, ids one byte off a stored one, a retired document, the tail's rows."""
    import zlib

    for pair in COLLIDING:
        assert zlib.crc32(pair[0].encode()) == zlib.crc32(pair[1].encode())
    stored = [writer.tool(f"Ran: step{i} build") for i in range(30)]
    stored += [writer.tool("Ran: twin", event_id=e) for e in (*COLLIDING[0], COLLIDING[1][0])]
    KeywordIndex.build(writer.home)
    stored += [writer.tool("Ran: appended later")]
    index = KeywordIndex.open(writer.home)
    assert index.tail_docs == 1
    alive = np.array(index.cols["alive"], dtype=bool)
    retired = index.index_of(stored[5])
    alive[retired] = False
    index.cols["alive"] = alive
    truth = {index.event_id(d): d for d in range(len(index)) if alive[d]}
    lookalikes = [stored[0][:-1] + ("x" if stored[0][-1] != "x" else "y"), stored[1] + "0",
                  stored[2][:-1], COLLIDING[1][1], "evt-missing", "", "évt-ünïcode"]
    asked = stored[::-1] + lookalikes + stored[:3]
    got = index.positions(asked).tolist()
    assert got == [truth.get(e, -1) for e in asked]
    assert got == [-1 if index.index_of(e) is None else index.index_of(e) for e in asked]
    assert got[len(stored) - 1 - 5] == -1 and -1 not in got[:len(stored) - 6]


def test_a_tail_folded_then_saved_keeps_every_id(writer):
    """The catch-up's path (`jobs.refresh.refresh_index`: fold, then save) over a generation
    whose ids are still read lazily and a tail that retired nothing."""
    from carto_core.jobs.refresh import refresh_index

    writer.tool("Ran: base one")
    writer.tool("Ran: base two")
    KeywordIndex.build(writer.home)
    append_rows(writer.home.log("prompts"), [{"event_id": f"evt-late{i:08d}", "timestamp": "2026-05-01T00:00:00Z",
                                              "summary": f"lateword{i}"} for i in range(3)])
    done = refresh_index(writer.home)
    assert done["outcome"] == "done" and done["tail_saved"] == 3
    saved = KeywordIndex.load(writer.home)
    assert len(saved) == 5 and saved.df("lateword1") == 1
    assert {f"evt-late{i:08d}" for i in range(3)} <= set(saved.ids)
    assert all(saved.index_of(event_id) is not None for event_id in saved.ids)
