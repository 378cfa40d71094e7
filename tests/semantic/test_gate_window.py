"""The novelty gate's bounded window: the embedded store answers `nearest` over its newest
segments only (`newest=`), and the indexer's gate asks it so; a twin older than the window is
not looked for, and the new document is indexed."""

from __future__ import annotations

import numpy as np
import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.semantic.embedded import EmbeddedStore, newest_segments
from carto_core.semantic.indexer import run_index

from .conftest import _prompt


def _unit(rng, n: int, dim: int = 16) -> np.ndarray:
    rows = rng.standard_normal((n, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _store_of_three_writes(tmp_path):
    """Three writes of 10, 20 and 5 rows (three segments, oldest first) and the rows."""
    rng = np.random.default_rng(3)
    store = EmbeddedStore(tmp_path / "vectors")
    written = []
    for serial, count in enumerate((10, 20, 5)):
        rows = _unit(rng, count)
        ids = [f"w{serial}-{i}" for i in range(count)]
        store.upsert_arrays("m", ids, rows, [""] * count, [None] * count)
        written.append((ids, rows))
    return store, written


def test_nearest_reads_only_the_newest_segments_of_at_most_the_window(tmp_path):
    store, written = _store_of_three_writes(tmp_path)
    old_ids, old_rows = written[0]
    # Every row of the oldest write asked about itself: the whole store finds it, a window of
    # the newest 25 rows (the last two writes) finds something else, weaker.
    everywhere = store.nearest("m", old_rows)
    windowed = store.nearest("m", old_rows, newest=25)
    assert [hit.event_id for hit in everywhere] == old_ids
    assert all(hit.score > 0.99 for hit in everywhere)
    assert all(hit.event_id[:2] in ("w1", "w2") and hit.score < 0.99 for hit in windowed)
    # 24 rows hold only the newest write (5); 25 hold the last two; any window holds the newest.
    segments = store._model_segments("m")
    assert [s.count for s in newest_segments(segments, 24)] == [5]
    assert [s.count for s in newest_segments(segments, 25)] == [5, 20]
    assert [s.count for s in newest_segments(segments, 1)] == [5]
    assert [s.count for s in newest_segments(segments, 35)] == [5, 20, 10]
    newest_only = store.nearest("m", written[1][1], newest=1)
    assert all(hit.event_id.startswith("w2") for hit in newest_only)


def test_newest_is_by_serial_number_past_six_digits(tmp_path):
    class Seg:
        def __init__(self, name, count):
            self.name, self.count = name, count

    segments = [Seg("seg-1000000-aaaaaa", 3), Seg("seg-999999-bbbbbb", 3)]
    assert [s.name for s in newest_segments(segments, 3)] == ["seg-1000000-aaaaaa"]


@pytest.mark.parametrize("filtered", [False, True])
def test_the_gate_rejects_a_twin_in_its_window_and_keeps_one_older_than_it(paraphrase_home, monkeypatch,
                                                                         filtered):
    from carto_core.semantic import embedded

    if filtered:  # the exact pre-filter on every batch, however small (gatebound)
        monkeypatch.setattr(embedded, "GATE_FILTER_PAIRS", 0)

    home, rows, _ = paraphrase_home
    # Full segments of 88 rows: compaction leaves the first build's alone, as it leaves a
    # store's 65,536-row segments (small ones it merges, under a newer serial).
    monkeypatch.setattr(embedded, "SEGMENT_ROWS", len(rows))
    run_index(home)  # the first build: one full segment of the 88 prompts
    append_rows(home.log("prompts"), [_prompt("evt-lone", "zzz unrelated words qqq", "docs", 900)])
    assert run_index(home).embedded == 1  # a second segment, of one row
    twin = lambda event_id: _prompt(event_id, rows[0]["summary"], "auth", 901)  # noqa: E731
    monkeypatch.setenv("CARTO_NOVELTY_GATE_WINDOW", "1")  # the newest segment only
    append_rows(home.log("prompts"), [twin("evt-twin-old")])
    kept = run_index(home)
    assert (kept.gate_active, kept.embedded, kept.gated) == (True, 1, 0)
    monkeypatch.setenv("CARTO_NOVELTY_GATE_WINDOW", "all")
    append_rows(home.log("prompts"), [twin("evt-twin-all")])
    rejected = run_index(home)
    assert (rejected.gate_active, rejected.embedded, rejected.gated) == (True, 0, 1)
