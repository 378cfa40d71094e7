"""The persisted facts columns answer exactly what the in-memory fold answers, after any mix of
appends, duplicates across logs, torn last lines, rewrites and truncations; a stale cache is
never used; appends are folded in incrementally (not by a silent rebuild)."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from carto_core.model.corpus import load_corpus
from carto_core.facts import run_facts
from carto_core.facts.columns import names_subagent
from carto_core.facts.store import cache_path, load, open_columns
from carto_core.logio.home import Home
from carto_core.logio.jsonl import dumps_row
from carto_core.model.logstream import Fold
from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.logio.rewrite import rewrite_log

NOW = datetime(2026, 9, 8, 15, 30, tzinfo=timezone.utc)
LABELS = list(SEARCHED_LOGS)
REQUESTS = [
    {"verb": "census"},
    {"verb": "census", "since": "3d", "top": 3, "sample": 2},
    {"verb": "census", "since": "10d", "before": "1d", "project": "shop|infra"},
    {"verb": "tempo", "since": "8d"},
    {"verb": "tempo", "project": "shop"},
]

stamps = st.one_of(
    st.integers(0, 60 * 24 * 9).map(lambda m: (NOW - timedelta(minutes=m)).strftime("%Y-%m-%dT%H:%M:%SZ")),
    st.sampled_from(["2026-09-07T10:00:00Z", "2026-09-07T10:00:00Z", None, "not a time",
                     int((NOW - timedelta(days=2)).timestamp() * 1000),
                     "2026-09-06T03:00:00-07:00"]),
)
absent = st.sampled_from([None, "", "unknown", " Unknown "])
rows = st.fixed_dictionaries({
    # A small id pool: the same id lands in several logs (changelog copies, replays).
    "event_id": st.one_of(st.integers(0, 40).map(lambda i: f"evt-{i:04d}"), absent),
    "timestamp": stamps,
    "type": st.one_of(st.sampled_from(["tool_bash", "tool_file_edit", "git_commit", "git_push", "prompt"]), absent),
    "provider": st.one_of(st.sampled_from(["claude", "codex"]), absent),
    "session_id": st.one_of(st.sampled_from(["s-1", "s-2", "s-3"]), absent),
    "project": st.one_of(st.sampled_from(["webshop", "infra", "Shop-Docs", "carto"]), absent),
    "summary": st.sampled_from(["did x", "Commit abcdef1: fix | files: a.py", "line\nbreak"]),
    # A subagent's milestone (`agent_...`) is recorded per winning row (`Columns.subagent`).
    "milestone": st.sampled_from([None, "agent_start", "agent_", "session_end", "agentless", 7]),
})
ops = st.one_of(
    st.tuples(st.just("append"), st.sampled_from(LABELS), st.lists(rows, min_size=1, max_size=8)),
    st.tuples(st.just("torn"), st.sampled_from(LABELS), rows),
    st.tuples(st.just("garbage"), st.sampled_from(LABELS), st.just(None)),
    st.tuples(st.just("rewrite"), st.sampled_from(LABELS), st.booleans()),
    st.tuples(st.just("truncate"), st.sampled_from(LABELS), st.floats(0, 1)),
)


def apply(home: Home, op, torn: dict) -> str:
    """Apply one operation; returns what the cache should do about it."""
    kind, label, arg = op
    path = home.log(label)
    if kind in ("append", "torn", "garbage") and label in torn:
        with open(path, "ab") as handle:  # the writer finishes its torn row first
            handle.write(torn.pop(label))
    if kind == "append":
        with open(path, "ab") as handle:
            for row in arg:
                handle.write(dumps_row({k: v for k, v in row.items() if v is not None}))
        return "appended"
    if kind == "torn":
        data = dumps_row(arg)
        with open(path, "ab") as handle:
            handle.write(data[: len(data) // 2])
        torn[label] = data[len(data) // 2:]
        return "appended"
    if kind == "garbage":
        with open(path, "ab") as handle:
            handle.write(b"{not json\n\n[1,2]\n")
        return "appended"
    torn.pop(label, None)
    if not path.exists() or path.stat().st_size == 0:
        return "any"
    if kind == "rewrite":
        # Through the sanctioned path: new inode, generation bumped. Dropping or reordering rows.
        rewrite_log(path, (lambda rows: list(rows)[::-1]) if arg else (lambda rows: list(rows)[1:]))
        return "rebuilt"
    size = path.stat().st_size
    with open(path, "r+b") as handle:
        handle.truncate(int(size * arg) if int(size * arg) < size else size - 1)
    return "rebuilt"


def answers(home: Home, corpus=None) -> list[dict]:
    out = []
    for fields in REQUESTS:
        request = {"contract_version": 1, "call_id": "t", **fields}
        envelope = run_facts(request, home, corpus, now=NOW)
        out.append({"facts": envelope["facts"], "events": envelope["corpus_events"]})
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# Found by CI: a cut that removes only part of a torn row the cache never consumed is no rewrite.
@example(seed=[("prompts", [{"event_id": "evt-0001", "timestamp": "2026-09-07T10:00:00Z", "type": "prompt", "provider": "claude", "session_id": "s-1", "project": "webshop", "summary": "did x"}])],
         steps=[("torn", "prompts", {"event_id": "evt-0002", "timestamp": "2026-09-07T10:00:00Z", "type": "prompt", "provider": "claude", "session_id": "s-1", "project": "webshop", "summary": "did x"}), ("truncate", "prompts", 1.0)],
         save_after=1)
@given(seed=st.lists(st.tuples(st.sampled_from(LABELS), st.lists(rows, min_size=1, max_size=6)), max_size=4),
       steps=st.lists(ops, min_size=1, max_size=7), save_after=st.sampled_from([1, 256]))
def test_cached_columns_equal_the_in_memory_fold(tmp_path_factory, seed, steps, save_after):
    from carto_core.facts import store

    default, store.SAVE_AFTER_ROWS = store.SAVE_AFTER_ROWS, save_after  # saved appends, or not
    try:
        _equal_after_every_step(tmp_path_factory, seed, steps)
    finally:
        store.SAVE_AFTER_ROWS = default


def _equal_after_every_step(tmp_path_factory, seed, steps):
    home = Home(tmp_path_factory.mktemp("home"))
    torn: dict = {}
    for label, batch in seed:
        apply(home, ("append", label, batch), torn)
    states = []
    for step in [None] + steps:
        consumed_end = 0 if step is None else (load(home)[1].get(step[1]) or {}).get("end", 0)
        expected_state = "any" if step is None else apply(home, step, torn)
        if expected_state == "rebuilt" and not consumed_end:
            expected_state = "any"  # nothing of that log was read yet: a read from 0 is whole
        if (expected_state == "rebuilt" and step[0] == "truncate"
                and home.log(step[1]).stat().st_size >= consumed_end):
            # Only bytes past what the cache consumed went (the tail of a torn row): nothing it
            # read changed, so resuming is right; the answers below must still agree.
            expected_state = "any"
        corpus = load_corpus(home)
        opened = open_columns(home)
        states.append(opened.state)
        if expected_state == "rebuilt":
            assert opened.state in ("rebuilt", "built", "patched"), (step, opened.state)
        elif expected_state == "appended" and step is not None:
            assert opened.state in ("appended", "fresh"), (step, opened.state)
        cols = opened.columns
        assert cols.n == len(corpus.events)
        assert cols.duplicates == corpus.duplicates
        assert answers(home) == answers(home, corpus), step
        # Every id the cache holds reads back to the same event as the corpus holds.
        for position in range(cols.n):
            event = cols.event_at(position)
            assert event == corpus.get(cols.event_id(position))
        assert subagent_ids(cols) == sorted(
            e.event_id for e in corpus.events if names_subagent(e.row)), step


def subagent_ids(cols) -> list[str]:
    """The ids of the events whose winning row `cols.subagent` names, which must hold the
    load keys of such rows only, sorted, each once."""
    keys = list(cols.subagent)
    assert keys == sorted(set(keys)) and set(keys) <= set(cols.lkey)
    return sorted(cols.event_id(p) for p in range(cols.n) if cols.lkey[p] in set(keys))


def saved(home: Home):
    """The columns as the cache file holds them, their rows readable."""
    from carto_core.facts.store import row_reader

    cols = load(home)[0]
    row_reader(home, cols)
    return cols


def _home(tmp_path) -> Home:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    for i, label in enumerate(LABELS):
        with open(home.log(label), "wb") as handle:
            for j in range(30):
                handle.write(dumps_row({"event_id": f"evt-{label}-{j}", "timestamp":
                                        (NOW - timedelta(hours=j + i)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                                        "type": "tool_bash", "project": "webshop", "session_id": f"s-{j % 4}"}))
    return home


def _census(home):
    return run_facts({"contract_version": 1, "verb": "census", "call_id": "t"}, home, now=NOW)["facts"]


def test_a_stale_cache_is_never_used(tmp_path):
    """Edits that keep the log's size: a same-size replacement (new inode, no generation bump),
    an in-place edit of the first line (same inode, same size, same tail) and a rewrite through
    the sanctioned path each make the cache read that log again (patched in), and the answer
    follows the new bytes."""
    home = _home(tmp_path)
    assert open_columns(home).state == "built"
    assert open_columns(home).state == "fresh"
    path = home.log("tool-use")
    original = path.read_bytes()

    # 1. same size, new inode (an editor's save-as-rename)
    changed = original.replace(b'"project":"webshop"', b'"project":"webshoq"', 1)
    assert len(changed) == len(original)
    temporary = path.with_name("tmp.jsonl")
    temporary.write_bytes(changed)
    os.replace(temporary, path)
    opened = open_columns(home)
    assert opened.state == "patched" and opened.reasons == {"tool-use": "rewritten or truncated"}
    assert {b["name"]: b["count"] for b in _census(home)["by_project"]} == {"webshop": 179, "webshoq": 1}

    # 2. same inode, same size, first line edited in place
    with open(path, "r+b") as handle:
        handle.write(original[:len(original)])
    assert open_columns(home).state == "patched"  # only that log read again
    assert {b["name"]: b["count"] for b in _census(home)["by_project"]} == {"webshop": 180}

    # 3. the sanctioned rewrite: same rows, new inode, generation bumped
    rewrite_log(path, lambda rows: list(rows))
    assert open_columns(home).state == "patched"


def test_appends_are_folded_from_the_last_offset(tmp_path, monkeypatch):
    from carto_core.facts import store

    monkeypatch.setattr(store, "SAVE_AFTER_ROWS", 1)  # save every append (default: 256 rows)
    home = _home(tmp_path)
    open_columns(home)
    before = json.loads(json.dumps(_census(home)))
    with open(home.log("prompts"), "ab") as handle:
        handle.write(dumps_row({"event_id": "evt-new-1", "timestamp": "2026-09-08T15:00:00Z",
                                "type": "prompt", "project": "infra", "session_id": "s-9"}))
        handle.write(dumps_row({"event_id": "evt-prompts-3", "timestamp": "2026-09-08T15:00:00Z",
                                "type": "prompt", "project": "infra"}))  # a newer row of an id
        handle.write(b'{"event_id":"evt-torn"')  # a writer mid-row
    opened = open_columns(home)
    assert (opened.state, opened.rows_read) == ("appended", 2)
    after = _census(home)
    assert after["events"] == before["events"] + 1
    # Within a log the newest row of an id wins (carto_core.logio.fold): evt-prompts-3 moved to infra.
    assert {b["name"]: b["count"] for b in after["by_project"]} == {"webshop": 179, "infra": 2}
    assert opened.columns.duplicates == 1
    # The torn row is not consumed: once finished it is read, once.
    with open(home.log("prompts"), "ab") as handle:
        handle.write(b',"timestamp":"2026-09-08T15:01:00Z","project":"infra"}\n')
    opened = open_columns(home)
    assert (opened.state, opened.rows_read) == ("appended", 1)
    assert _census(home)["by_project"][1] == {"name": "infra", "count": 3,
                                               "event_ids": ["evt-torn", "evt-new-1", "evt-prompts-3"]}
    assert open_columns(home).state == "fresh"


def test_a_domain_row_after_its_changelog_copy_wins_incrementally(tmp_path):
    home = _home(tmp_path)
    with open(home.log("changelog"), "ab") as handle:
        handle.write(dumps_row({"event_id": "evt-late", "timestamp": "2026-09-01T00:00:00Z",
                                "type": "tool_bash", "provider": "claude", "project": "webshop"}))
    open_columns(home)
    with open(home.log("tool-use"), "ab") as handle:
        handle.write(dumps_row({"event_id": "evt-late", "timestamp": "2026-09-01T00:00:00Z",
                                "type": "tool_bash", "provider": "codex", "project": "webshop"}))
    opened = open_columns(home)
    assert opened.state == "appended"
    facts = _census(home)
    assert {b["name"]: b["count"] for b in facts["by_provider"]} == {"codex": 1}
    assert load_corpus(home).get("evt-late").provider == "codex"


def test_a_damaged_cache_file_is_rebuilt_not_trusted(tmp_path):
    home = _home(tmp_path)
    open_columns(home)
    path = cache_path(home)
    path.write_bytes(path.read_bytes()[:-10])
    opened = open_columns(home)
    assert opened.state == "rebuilt" and opened.columns.n == 180


def test_cache_off_loads_the_corpus(tmp_path, monkeypatch):
    home = _home(tmp_path)
    monkeypatch.setenv("CARTO_FACTS_CACHE", "0")
    seen = []
    facts = run_facts({"contract_version": 1, "verb": "census", "call_id": "t"}, home, now=NOW,
                      on_cache=seen.append)["facts"]
    assert facts["events"] == 180 and seen == [] and not cache_path(home).exists()


def test_small_appends_are_answered_but_saved_only_once_they_add_up(tmp_path, monkeypatch):
    from carto_core.facts import store

    monkeypatch.setattr(store, "SAVE_AFTER_ROWS", 4)
    home = _home(tmp_path)
    open_columns(home)
    written = cache_path(home).read_bytes()

    def hook_rows(k, start):
        with open(home.log("changelog"), "ab") as handle:
            for i in range(start, start + k):
                handle.write(dumps_row({"event_id": f"evt-hook-{i}", "timestamp": "2026-09-08T15:29:00Z",
                                        "type": "tool_bash", "project": "infra", "session_id": "s-1"}))

    hook_rows(2, 0)
    for _ in range(2):  # read again from the saved offset each time, file untouched
        opened = open_columns(home)
        assert (opened.state, opened.rows_read, opened.saved) == ("appended", 2, False)
        assert _census(home)["events"] == 182
    assert cache_path(home).read_bytes() == written
    hook_rows(2, 2)
    opened = open_columns(home)
    assert (opened.state, opened.rows_read, opened.saved) == ("appended", 4, True)
    assert open_columns(home).state == "fresh" and _census(home)["events"] == 184


def test_a_large_append_with_many_duplicates_matches_the_fold(tmp_path, monkeypatch):
    """A backfill-sized append (bulk id-index update) with more duplicate hits than the index
    scans for (load key -> position dict), a replacement and old timestamps (re-laid layout)."""
    from carto_core.facts import store

    monkeypatch.setattr(store, "SAVE_AFTER_ROWS", 1)
    home = _home(tmp_path)
    with open(home.log("changelog"), "ab") as handle:
        handle.write(dumps_row({"event_id": "evt-copy", "timestamp": "2026-08-01T00:00:00Z",
                                "type": "tool_bash", "provider": "claude", "project": "infra"}))
    open_columns(home)
    with open(home.log("turns"), "ab") as handle:
        for i in range(1500):
            handle.write(dumps_row({"event_id": f"evt-back-{i}", "timestamp":
                                    (NOW - timedelta(days=40, minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                                    "type": "transcript", "project": f"p{i % 7}", "session": f"s-{i % 5}"}))
        for j in range(30):  # replays of rows already folded
            handle.write(dumps_row({"event_id": f"evt-tool-use-{j}", "timestamp": "2026-09-01T00:00:00Z",
                                    "project": "dup"}))
        handle.write(dumps_row({"event_id": "evt-copy", "timestamp": "2026-08-01T00:00:00Z",
                                "type": "transcript", "provider": "codex", "project": "infra"}))
    opened = open_columns(home)
    assert opened.state == "appended" and opened.rows_read == 1531
    corpus = load_corpus(home)
    assert opened.columns.duplicates == corpus.duplicates == 31
    assert answers(home) == answers(home, corpus)
    reopened = open_columns(home)  # the saved file (and its id index) read back
    assert reopened.state == "fresh"
    index = store.load(home)[2]
    assert len(index.hashes) == len(corpus)
    assert index.position(reopened.columns, "evt-copy") is not None
    assert reopened.columns.event_at(index.position(reopened.columns, "evt-copy")).provider == "codex"


def test_cli_reports_the_build_once_and_a_read_only_home_still_answers(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from carto_core.cli import cli
    from carto_core.facts import store

    home = _home(tmp_path)
    env = {"CARTO_HOME": str(home.root)}
    first = CliRunner().invoke(cli, ["facts", "census", "--json"], env=env)
    assert first.exit_code == 0 and "facts: columns cache built in" in first.stderr
    assert "180 events, 180 rows read" in first.stderr
    second = CliRunner().invoke(cli, ["facts", "census", "--json"], env=env)
    assert second.exit_code == 0 and second.stderr == ""
    assert json.loads(second.stdout)["facts"] == json.loads(first.stdout)["facts"]

    def refuse(*args, **kwargs):
        raise PermissionError("read-only")

    monkeypatch.setattr(store, "save", refuse)
    cache_path(home).unlink()
    opened = open_columns(home)
    assert opened.state.startswith("built (not saved") and not opened.saved
    assert _census(home)["events"] == 180 and not cache_path(home).exists()


def test_a_rewritten_log_is_read_again_alone_and_a_lost_event_rebuilds(tmp_path, monkeypatch):
    from carto_core.logio.appendlog import append_rows
    from carto_core.model.logstream import Fold

    home = _home(tmp_path)
    # A changelog copy of a tool-use event, and an event only the changelog has.
    append_rows(home.log("changelog"), [{"event_id": "evt-tool-use-3", "summary": "copy"},
                                        {"event_id": "evt-only-log", "timestamp": "2026-09-07T10:00:00Z",
                                         "project": "infra"}])
    open_columns(home)
    read = []
    real = Fold.chunks

    def spy(self, path, label, **kwargs):
        read.append(label)
        return real(self, path, label, **kwargs)

    monkeypatch.setattr(Fold, "chunks", spy)
    # One row's project changes and one row goes: the log is patched, no other log read.
    rewrite_log(home.log("prompts"), lambda rows: ({**r, "project": "infra"} if i == 0 else r
                                                   for i, r in enumerate(rows) if i != 5))
    opened = open_columns(home)
    # evt-prompts-5 is gone: a later log might hold it, so every log is read
    assert read[0] == "prompts" and len(read) > 1 and opened.state == "rebuilt"
    read.clear()
    rewrite_log(home.log("prompts"), lambda rows: ({**r, "project": "docs"} if i == 0 else r
                                                   for i, r in enumerate(rows)))
    opened = open_columns(home)
    assert (read, opened.state) == (["prompts"], "patched")
    assert answers(home) == answers(home, load_corpus(home))
    # The changelog rewritten: its copy stays a duplicate, its own event stays its own.
    read.clear()
    rewrite_log(home.log("changelog"), lambda rows: list(rows))
    opened = open_columns(home)
    assert (read, opened.state) == (["changelog"], "patched")
    assert opened.columns.duplicates == load_corpus(home).duplicates
    assert answers(home) == answers(home, load_corpus(home))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.lists(st.tuples(st.sampled_from(LABELS), st.lists(rows, min_size=1, max_size=8)),
                     min_size=1, max_size=6),
       chunk=st.integers(1, 9))
def test_a_streamed_build_equals_the_one_shot_fold_over_chunk_sizes(tmp_path_factory, seed, chunk):
    """The cache is built chunk by chunk (`logstream.Fold`); whatever the chunk size, on logs
    many chunks long (ids repeated within and across logs), its columns answer as the corpus
    folded in memory at once does."""
    home = Home(tmp_path_factory.mktemp("chunks"))
    for label, batch in seed:
        apply(home, ("append", label, batch), {})
    real = Fold.chunks
    sizes = []

    def small(self, path, label, **kwargs):
        kwargs["rows"] = chunk
        for got in real(self, path, label, **kwargs):
            sizes.append(len(got))
            yield got

    corpus = load_corpus(home)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Fold, "chunks", small)
        opened = open_columns(home)
    assert opened.state == "built" and max(sizes) <= chunk
    cols = opened.columns
    assert (cols.n, cols.duplicates) == (len(corpus.events), corpus.duplicates)
    assert answers(home) == answers(home, corpus)
    for position in range(cols.n):
        assert cols.event_at(position) == corpus.get(cols.event_id(position))


def test_the_id_index_is_sorted_by_hash_then_load_key_when_hashes_collide(tmp_path, monkeypatch):
    """The build sorts the id index by CRC, ties by load key (a stable sort of the CRCs when
    the load keys grow with the position, as a build's do): with CRCs made to collide, the
    pairs are in that order and every event is still found by its id."""
    from carto_core.facts import store

    home = _home(tmp_path)
    monkeypatch.setattr(store, "_crc", lambda event_id: len(event_id) % 3)
    cols, _, index = store.build(home)
    pairs = list(zip(index.hashes, index.lkeys))
    assert len(set(index.hashes)) < len(pairs) and pairs == sorted(pairs)
    assert sorted(index.lkeys) == sorted(cols.lkey)
    store.row_reader(home, cols)
    for position in range(cols.n):
        assert index.position(cols, cols.event_id(position)) == position


def test_the_columns_record_the_rows_naming_a_subagent(tmp_path, monkeypatch):
    """`Columns.subagent`: the load keys of the winning rows whose own `milestone` names a
    subagent's, as parsed (escaped keys and values too), kept through a save, appends (a newer
    row taking an event over either way, a domain row after its changelog copy) and a patch."""
    from carto_core.facts import store
    from carto_core.logio.appendlog import append_rows

    monkeypatch.setattr(store, "SAVE_AFTER_ROWS", 1)
    home = _home(tmp_path)
    stamp = "2026-09-07T10:00:00Z"
    with open(home.log("milestones"), "ab") as handle:
        handle.write(b'{"event_id":"m-plain","timestamp":"2026-09-07T10:00:00Z","milestone":"agent_start"}\n'
                     b'{"event_id":"m-key","\\u006dilestone":"agent_stop"}\n'
                     b'{"event_id":"m-value","milestone" : "\\u0061gent_run"}\n'
                     b'{"event_id":"m-no","milestone":"agentless","summary":"\\"milestone\\":\\"agent_x\\""}\n'
                     b'{"event_id":"m-list","milestone":["agent_x"]}\n'
                     b'{"event_id":"m-later","milestone":"session_end"}\n'
                     b'{"event_id":"m-gone","milestone":"agent_start"}\n')
    append_rows(home.log("changelog"), [{"event_id": "c-copy", "timestamp": stamp, "milestone": "agent_start"},
                                        {"event_id": "c-only", "milestone": "agent_only"}])
    opened = open_columns(home)
    assert opened.state == "built"
    built = ["c-copy", "c-only", "m-gone", "m-key", "m-plain", "m-value"]
    assert subagent_ids(opened.columns) == built
    assert subagent_ids(saved(home)) == built  # as saved
    append_rows(home.log("milestones"), [{"event_id": "m-gone", "milestone": "session_end"},
                                         {"event_id": "m-later", "milestone": "agent_late"},
                                         {"event_id": "m-new", "milestone": "agent_new"},
                                         {"event_id": "m-twice", "milestone": "agent_one"},
                                         {"event_id": "m-twice", "milestone": "plain"}])
    append_rows(home.log("tool-use"), [{"event_id": "c-copy", "timestamp": stamp, "type": "tool_bash"}])
    opened = open_columns(home)
    assert opened.state == "appended" and opened.saved
    appended = ["c-only", "m-key", "m-later", "m-new", "m-plain", "m-value"]
    assert subagent_ids(opened.columns) == appended
    assert subagent_ids(saved(home)) == appended
    rewrite_log(home.log("milestones"), lambda rows: list(rows))
    opened = open_columns(home)
    assert opened.state == "patched" and subagent_ids(opened.columns) == appended
    assert subagent_ids(saved(home)) == appended
