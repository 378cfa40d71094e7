"""The gate's measured constants and the key-term cut (docs/ranking.md "Prompt recall")."""

from __future__ import annotations

from hypothesis import given, strategies as st

from carto_core.recall.gate import Gate
from carto_core.recall.snippet import render, window
from carto_core.search.tokens import term_hash


def test_the_gate_is_two_terms_and_a_margin_of_one_and_a_half_with_coverage_off():
    gate = Gate()
    two = ["a", "b"]
    assert gate.clears(1.5, 0.0, two)            # COVERAGE off: measured to buy nothing
    assert not gate.clears(1.49, 1.0, two)       # MARGIN
    assert not gate.clears(50.0, 1.0, ["a"])     # MIN_TERMS: one word, however rare
    assert Gate(coverage=0.5).clears(1.5, 0.5, two) and not Gate(coverage=0.5).clears(1.5, 0.49, two)
    assert gate.follow == 0.8                    # FOLLOW: its effect is measured in test_prompt_recall_eval


class _View:
    """postings() and stats() of an index whose terms have the given document frequencies."""

    def __init__(self, dfs: dict[str, int], n_docs: int):
        self._by_hash = {term_hash(t): df for t, df in dfs.items()}
        self._n = n_docs

    def stats(self):
        return self._n, 10.0

    def postings(self, h):
        df = self._by_hash.get(h)
        return None if df is None else (range(df), [4] * df, [10.0] * df)


def test_key_terms_are_the_rare_ones_rarest_first_within_the_budget():
    view = _View({"coupon": 3, "checkout": 40, "test": 2001, "fix": 500, "cart": 2000}, 100_000)
    # 2 % of 100,000 = 2,000: `test` (2,001) is common, `cart` (2,000) is not; unknown words go.
    assert Gate().key_terms(view, ["fix", "test", "coupon", "nosuch", "checkout", "cart"]) == [
        ("coupon", 3), ("checkout", 40), ("fix", 500), ("cart", 2000)]
    assert [t for t, _ in Gate(postings=600).key_terms(view, ["fix", "coupon", "checkout", "cart"])] == [
        "coupon", "checkout", "fix"]
    small = _View({"run": 30, "test": 45, "deploy": 51}, 200)  # on a small home the floor (50) rules
    assert [t for t, _ in Gate().key_terms(small, ["run", "test", "deploy"])] == ["run", "test"]


class _Analyzer:
    def terms(self, text):
        return text.lower().split()


@given(st.lists(st.tuples(st.text(min_size=0, max_size=3000), st.text(min_size=1, max_size=40)),
                min_size=1, max_size=6))
def test_rendered_context_stays_within_1200_characters_and_names_each_event(items):
    entries = [{"event_id": f"evt-{i:012d}", "row": {"summary": text}, "ts": 0.0, "project": project,
                "terms": ["x"]} for i, (text, project) in enumerate(items)]
    text, count = render(entries, _Analyzer(), now=86400.0 * 3)
    assert len(text) <= 1200
    assert count <= len(entries)
    lines = text.splitlines() if text else []
    assert len(lines) == (count + 3 if count else 0)  # the header, the envelope's two tags
    if count:
        assert lines[1].startswith("<carto-record note=") and lines[-1] == "</carto-record>"
    shown = [e for e in entries if e["row"]["summary"].split()]
    for line, entry in zip(lines[2:-1], shown):
        assert line.startswith(f"- [{entry['event_id']} · 3d ago · ")


def test_a_snippet_window_starts_near_the_matched_word():
    text = "lorem ipsum " * 200 + "the coupon stacking fix landed " + "dolor " * 100
    piece = window(text, ["coupon"], _Analyzer(), 120)
    assert "coupon" in piece and len(piece) <= 120 and piece.startswith("…")


def test_a_fresh_row_is_just_now_never_now_ago():
    entries = [{"event_id": "evt-000000000001", "row": {"summary": "coupon stacking fix"},
                "ts": 1000.0, "project": "shop", "terms": ["coupon"]}]
    text, count = render(entries, _Analyzer(), now=1030.0)
    assert count == 1 and "- [evt-000000000001 · just now · shop] coupon stacking fix" in text
    assert "now ago" not in text
