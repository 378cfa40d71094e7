"""The conversational-recall set and its metrics (hit@1/5/10, recall@10, MRR per category)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation import agecurve, dialogues
from carto_core.evaluation.agecurve import Case, Outcome, conversational_table

NOW = datetime(2026, 12, 1, tzinfo=timezone.utc)


def _rows(root):
    return [json.loads(line) for line in (root / "turns.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("variant",
                         ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m",
                          "n", "o", "p", "q", "r", "s", "t", "u",
                          "v", "w", "x", "y", "z", "aa", "ab", "ac", "ad", "ae",
                          "af", "ag", "ah", "ai", "aj", "ak", "al", "am", "an", "ao"])
def test_cases_point_at_real_turns_and_cover_every_category(tmp_path, variant):
    cases, stats = dialogues.generate_dialogues(tmp_path / variant, variant=variant, seed=4, now=NOW)
    rows = {r["event_id"]: r for r in _rows(tmp_path / variant)}
    assert {c.bucket for c in cases} == set(dialogues.CATEGORIES)
    assert stats["turn_rows"] == len(rows)
    for case in cases:
        assert case.kind == "conversational" and case.expect
        assert all(e in rows for e in case.expect)
        assert all(r["event_id"].startswith("turn-") for r in rows.values())
        ages = [(NOW - datetime.fromisoformat(rows[e]["timestamp"].replace("Z", "+00:00"))).days
                for e in case.expect]
        assert min(ages) >= 3  # asked days to months later
    by = {c.bucket: [c for c in cases if c.bucket == b] for b in dialogues.CATEGORIES for c in cases if c.bucket == b}
    assert all(len(c.expect) == 2 for c in by["multi-hop"])
    assert all(2 <= len(c.expect) <= 4 for c in by["open"])
    assert all(len(c.expect) == 1 for c in by["single"] + by["temporal"])


@pytest.mark.parametrize("variant", ["aa", "ad", "ae", "af", "ag", "ah", "ai", "aj", "ak",
                                     "al", "am", "an", "ao"])
def test_a_two_letter_variant_keeps_ids_of_its_own(tmp_path, variant):
    """After `z` a variant is named by two letters: `aa`'s sessions are tagged "-dlgaa-" (and
    `ad`'s "-dlgad-", `ae`'s "-dlgae-", `af`'s "-dlgaf-", `ag`'s "-dlgag-", `ah`'s "-dlgah-",
    `ai`'s "-dlgai-", `aj`'s "-dlgaj-", `ak`'s "-dlgak-", `al`'s "-dlgal-", `am`'s "-dlgam-",
    `an`'s "-dlgan-", `ao`'s "-dlgao-"), never read as `a`'s "-dlga-", `d`'s "-dlgd-", `e`'s
    "-dlge-", `f`'s "-dlgf-", `g`'s "-dlgg-", `h`'s "-dlgh-", `i`'s "-dlgi-", `j`'s "-dlgj-",
    `k`'s "-dlgk-", `l`'s "-dlgl-", `m`'s "-dlgm-", `n`'s "-dlgn-" or `o`'s "-dlgo-", and no
    event id is shared with theirs."""
    ids = {}
    singles = tuple(dict.fromkeys(variant))
    for v in (*singles, variant):
        dialogues.generate_dialogues(tmp_path / v, variant=v, seed=1, now=NOW)
        ids[v] = {r["event_id"] for r in _rows(tmp_path / v)}
    tag = f"-dlg{variant}-"
    for one in singles:
        assert ids[one] and ids[variant] and not ids[one] & ids[variant]
        assert all(tag in e for e in ids[variant]) and not any(tag in e for e in ids[one])
        assert (all(f"-dlg{one}-" in e for e in ids[one])
                and not any(f"-dlg{one}-" in e for e in ids[variant]))


def test_temporal_cases_expect_the_newer_state(tmp_path):
    cases, _ = dialogues.generate_dialogues(tmp_path, variant="a", seed=2, now=NOW)
    rows = {r["event_id"]: r for r in _rows(tmp_path)}
    for case in (c for c in cases if c.bucket == "temporal"):
        (target,) = case.expect
        topic = next(t for t in dialogues.TOPICS if case.query in t.latest)
        values = [v for v in topic.values if v in rows[target]["summary"]]
        assert values, (case.query, rows[target]["summary"])
        older = [r for r in rows.values() if any(v in r["summary"] for v in topic.values)
                 and r["event_id"] != target]
        assert older and all(r["timestamp"] < rows[target]["timestamp"] for r in older)


def test_variants_share_no_phrasing_and_row_shape(tmp_path):
    a_cases, _ = dialogues.generate_dialogues(tmp_path / "a", variant="a", seed=1, now=NOW)
    b_cases, _ = dialogues.generate_dialogues(tmp_path / "b", variant="b", seed=1, now=NOW)
    topical = ("single", "temporal")
    a_questions = {c.query for c in a_cases if c.bucket in topical}
    b_questions = {c.query for c in b_cases if c.bucket in topical}
    assert a_questions and b_questions and not a_questions & b_questions
    # a: one utterance a row; b: the exchange in one row
    assert not any(r["summary"].startswith("User:") for r in _rows(tmp_path / "a"))
    assert all(r["summary"].startswith("User:") for r in _rows(tmp_path / "b"))
    # deterministic for a (variant, seed)
    again, _ = dialogues.generate_dialogues(tmp_path / "a2", variant="a", seed=1, now=NOW)
    assert [(c.query, c.expect) for c in again] == [(c.query, c.expect) for c in a_cases]


def test_conversational_metrics_are_computed_per_category():
    def case(cat, n_expect):
        return Case(f"c-{cat}", "conversational", "q", [f"e{i}" for i in range(n_expect)], 10, cat)

    outcomes = [Outcome(case("single", 1), 1, 1), Outcome(case("single", 1), 7, 1),
                Outcome(case("single", 1), None, 0), Outcome(case("multi-hop", 2), 3, 1),
                Outcome(Case("k", "known-item", "q", ["x"]), 1, 1)]
    table = conversational_table(outcomes)
    assert set(table) == {"single", "multi-hop", "all"}
    single = table["single"]
    assert single == {"n": 3, "hit@1": 0.333, "hit@5": 0.333, "hit@10": 0.667,
                      "recall@10": 0.667, "mrr": round((1 + 1 / 7) / 3, 3)}
    assert table["multi-hop"]["recall@10"] == 0.5 and table["multi-hop"]["hit@5"] == 1.0
    assert table["all"]["n"] == 4


def test_eval_reports_the_conversational_table(tmp_path, monkeypatch):
    out = tmp_path / "g"
    result = CliRunner().invoke(cli, ["eval", "--generate", str(out), "--events", "400",
                                      "--dialogues", "b", "--decay", "gated-prior",
                                      "--per-bucket", "2", "--recency", "0", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    # no --rankers: the search's own set, then the keyword ladder alone
    assert [c["rankers"] for c in document["configs"]] == [["bm25", "semantic"], ["bm25"]]
    config = document["configs"][0]
    conv = config["conversational"]
    assert set(conv) == set(dialogues.CATEGORIES) | {"all"}
    assert conv["all"]["n"] == document["sampling"]["conversational"]
    assert {"hit@1", "hit@5", "hit@10", "recall@10", "mrr"} <= set(conv["single"])
    text = CliRunner().invoke(cli, ["eval", "--cases", str(tmp_path / "none.jsonl")])
    assert text.exit_code == 2
    usage = CliRunner().invoke(cli, ["eval", "--dialogues", "a"])
    assert usage.exit_code == 2 and "--generate" in usage.output


def test_known_item_sampling_skips_words_the_row_does_not_index(tmp_path):
    """"I'll" is one indexed word: its surface piece "ll" has df 0, so a chit-chat row that
    dozens of sessions repeat looked like a specific lookup (and every decay 'missed' it)."""
    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine

    generate_home(tmp_path / "g", 600, seed=3, now=NOW)
    dialogues.generate_dialogues(tmp_path / "g", variant="a", seed=1, now=NOW)
    engine = SearchEngine(Home(tmp_path / "g"))
    cases, _ = agecurve.build_cases(engine, now=NOW, per_bucket=20, recency=0, max_matches=10)
    index = engine.index
    for case in cases:
        terms = engine.analyzer.query(case.query).terms
        holders = agecurve._all_matches(index, list(terms))
        assert 1 <= len(holders) <= 10, (case.query, len(holders))
        assert index.index_of(case.expect[0]) in holders.tolist()


@pytest.mark.parametrize("variant",
                         ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m",
                          "n", "o", "p", "q", "r", "s", "t", "u",
                          "v", "w", "x", "y", "z", "aa", "ab", "ac", "ad", "ae",
                          "af", "ag", "ah", "ai", "aj", "ak", "al", "am", "an", "ao"])
def test_a_question_paraphrases_the_telling_it_expects(tmp_path, variant):
    """ask[j] paraphrases tell[j]: the set once drew them apart, so "What is our honeymoon
    destination?" expected "The family holiday this year is Kyoto" (no answer to find)."""
    cases, _ = dialogues.generate_dialogues(tmp_path, variant=variant, seed=3, now=NOW)
    rows = {r["event_id"]: r for r in _rows(tmp_path)}
    checked = 0
    for case in (c for c in cases if c.bucket == "single"):
        topic = next((t for t in dialogues._vocabulary(variant).topics if case.query in t.ask),
                     None)
        if topic is None:
            continue  # an advice question: its evidence is the assistant's reply
        j = topic.ask.index(case.query)
        told = rows[case.expect[0]]["summary"]
        before, _, after = topic.tell[j].partition("{v}")
        assert before.strip() in told and after.strip() in told, (case.query, told)
        checked += 1
    assert checked >= (5 if variant in ("a", "b") else 3)


@pytest.mark.parametrize("variant", ["d", "e", "f", "g", "h", "i", "j", "k", "l", "m",
                                     "n", "o", "p", "q", "r", "s", "t", "u", "v", "w",
                                     "x", "y", "z", "aa", "ab", "ac", "ad", "ae",
                                     "af", "ag", "ah", "ai", "aj", "ak", "al",
                                     "am", "an", "ao"])
def test_a_check_set_shares_nothing_with_the_others(tmp_path, variant):
    """d to ao check a default nobody tuned on: no question, topic, topic value, chit-chat
    line, advice or multi-hop person of any other variant, and one row per utterance (an
    advice answer is a row of its own, apart from the question before it)."""
    made = {v: dialogues.generate_dialogues(tmp_path / v, variant=v, seed=1, now=NOW)[0]
            for v in dialogues.VARIANTS}
    own = dialogues._vocabulary(variant)
    questions = {c.query for c in made[variant]}
    for other in (v for v in dialogues.VARIANTS if v != variant):
        assert not questions & {c.query for c in made[other]}
        vocab = dialogues._vocabulary(other)
        assert not {t.name for t in own.topics} & {t.name for t in vocab.topics}
        assert not ({v for t in own.topics for v in t.values}
                    & {v for t in vocab.topics for v in t.values})
        assert not set(own.chat) & set(vocab.chat)
        assert not set(own.replies) & set(vocab.replies)
        assert not ({x for case in own.advice for x in case}
                    & {x for case in vocab.advice for x in case})
        assert not ({p for h in own.hops for p in h[3]} & {p for h in vocab.hops for p in h[3]})
    rows = {r["event_id"]: r for r in _rows(tmp_path / variant)}
    answers = {answer for _, answer, _ in own.advice}
    advice = [c for c in made[variant] if c.query in {q for _, _, q in own.advice}]
    assert len(advice) == len(own.advice)
    assert all(rows[c.expect[0]]["summary"] in answers for c in advice)
    assert not any(r["summary"].startswith("User:") for r in rows.values())
    assert set(dialogues.BACKGROUND) == set(dialogues.VARIANTS)
    assert set(dialogues._WRITTEN_APART) == set(dialogues.VARIANTS) - {"a", "b"}


@pytest.mark.parametrize("variant", ["e", "f", "g", "h", "i", "j", "k", "l", "m", "n",
                                     "o", "p", "q", "r", "s", "t", "u", "v", "w",
                                     "x", "y", "z", "aa", "ab", "ac", "ad", "ae",
                                     "af", "ag", "ah", "ai", "aj", "ak", "al",
                                     "am", "an", "ao"])
def test_the_later_check_sets_are_written_to_their_shape(variant):
    """e to ao: every ask question paraphrases without giving the answer away, a change names
    a value, and no distractor, chit-chat line or small talk holds a topic value."""
    from carto_core.evaluation import (dialogue_e, dialogue_f, dialogue_g, dialogue_h,
                                       dialogue_i, dialogue_j, dialogue_k,
                                       dialogue_l, dialogue_m, dialogue_n,
                                       dialogue_o, dialogue_p, dialogue_q,
                                       dialogue_r, dialogue_s, dialogue_t,
                                       dialogue_u, dialogue_v, dialogue_w,
                                       dialogue_x, dialogue_y, dialogue_z,
                                       dialogue_aa, dialogue_ab, dialogue_ac,
                                       dialogue_ad, dialogue_ae, dialogue_af,
                                       dialogue_ag, dialogue_ah, dialogue_ai,
                                       dialogue_aj, dialogue_ak, dialogue_al,
                                       dialogue_am, dialogue_an, dialogue_ao)

    module = {"e": dialogue_e, "f": dialogue_f, "g": dialogue_g,
              "h": dialogue_h, "i": dialogue_i, "j": dialogue_j,
              "k": dialogue_k, "l": dialogue_l, "m": dialogue_m,
              "n": dialogue_n, "o": dialogue_o, "p": dialogue_p,
              "q": dialogue_q, "r": dialogue_r, "s": dialogue_s,
              "t": dialogue_t, "u": dialogue_u, "v": dialogue_v,
              "w": dialogue_w, "x": dialogue_x, "y": dialogue_y,
              "z": dialogue_z, "aa": dialogue_aa, "ab": dialogue_ab,
              "ac": dialogue_ac, "ad": dialogue_ad, "ae": dialogue_ae,
              "af": dialogue_af, "ag": dialogue_ag, "ah": dialogue_ah,
              "ai": dialogue_ai, "aj": dialogue_aj, "ak": dialogue_ak,
              "al": dialogue_al, "am": dialogue_am, "an": dialogue_an,
              "ao": dialogue_ao}[variant]
    values = [v for t in module.TOPICS for v in t.values]
    assert len(module.TOPICS) == 9 and len(values) == len(set(values)) == 9 * 6
    for topic in module.TOPICS:
        assert len(topic.tell) == len(topic.ask) == len(topic.mention) == 3
        assert len(topic.change) == len(topic.latest) == 2
        assert all("{v}" in t for t in topic.tell + topic.change)
        quiet = topic.ask + topic.latest + topic.mention
        assert not any(v.lower() in q.lower() for v in values for q in quiet), topic.name
    lines = module.CHAT + module.REPLIES + module.FILLER
    assert not any(v.lower() in line.lower() for v in values for line in lines)
    assert (len(module.ADVICE), len(module.HOPS), len(module.OPEN)) == (4, 3, 3)
    assert all(len(h[3]) == len(h[4]) == 5 for h in module.HOPS)
    assert all(len(lines) == 4 for _, lines, _ in module.OPEN)
    assert len(module.CHAT) == 12 and len(module.REPLIES) == len(module.FILLER) == 5


@pytest.mark.parametrize("variant", ["a", "b"])
def test_multi_hop_questions_are_told_apart_by_the_first_hop(tmp_path, variant):
    """Two stories of one shape per home: the same question twice had two right answers and
    each case counted only its own."""
    cases, _ = dialogues.generate_dialogues(tmp_path, variant=variant, seed=5, now=NOW)
    rows = {r["event_id"]: r for r in _rows(tmp_path)}
    hops = [c for c in cases if c.bucket == "multi-hop"]
    assert len({c.query for c in hops}) == len(hops) == 2 * len(dialogues.HOPS)
    for case in hops:
        first = rows[case.expect[0]]["summary"]
        shape = next(h for h in dialogues.HOPS if h[2].split("{x}")[0] in case.query)
        thing = next(x for x in shape[4] if shape[2].format(x=x) == case.query)
        assert thing in first


def test_a_change_names_what_it_replaces(tmp_path):
    """"I quit that and started fencing" months after, in another session, had nothing for
    "that" to refer to."""
    assert not any("that" in c.split() or "those" in c.split()
                   for t in dialogues.TOPICS for c in t.change)
    cases, _ = dialogues.generate_dialogues(tmp_path, variant="a", seed=2, now=NOW)
    rows = {r["event_id"]: r for r in _rows(tmp_path)}
    for case in (c for c in cases if c.bucket == "temporal"):
        text = rows[case.expect[0]]["summary"]
        topic = next(t for t in dialogues.TOPICS if case.query in t.latest)
        if text.startswith(("I quit ", "I pulled out")):
            assert sum(v in text for v in topic.values) == 2, text
