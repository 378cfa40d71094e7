"""An honest result set, as `carto search --json` shows it: a short commit sha finds its
commit, a word asked by its spelling (`word*`, a short sha) that no row holds finds nothing, a
query of symbols says why nothing can match it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from carto_core.cli import cli

from carto_core.logio.appendlog import append_rows
from carto_core.logio.logs import order_row

from .conftest import padding

SHA = "fdb21e0c9a7e41d2b8f3a6c5d4e1f0a9b8c7d6e5"


@pytest.fixture
def home_env(writer, monkeypatch):
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    monkeypatch.setenv("CARTO_SEMANTIC", "0")
    return writer


def search(*args):
    result = CliRunner().invoke(cli, ["search", "--json", *args], catch_exceptions=False)
    document = json.loads(result.output) if result.output.startswith("{") else {}
    return result.exit_code, document, result


def ids(document) -> list[str]:
    return [hit["event_id"] for hit in document.get("results", [])]


@pytest.mark.parametrize("typed", [SHA[:7], SHA[:12].upper(), SHA])
def test_a_short_commit_sha_finds_the_commit_that_holds_forty(home_env, typed):
    commit = home_env.tool(f"Commit {SHA}: fix(cart): round line totals", etype="git_commit")
    home_env.tool("Commit 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567: feat: other", etype="git_commit")
    padding(home_env, 5)
    code, document, _ = search(typed)
    assert code == 0 and ids(document) == [commit]


def test_a_row_holding_the_short_form_itself_is_still_found(home_env):
    said = home_env.prompt(f"revert {SHA[:7]} please, it broke checkout")
    commit = home_env.tool(f"Commit {SHA}: fix(cart): round line totals", etype="git_commit")
    padding(home_env, 5)
    code, document, _ = search(SHA[:7])
    assert code == 0 and set(ids(document)) == {said, commit}


def test_a_word_spelt_in_hex_letters_is_still_a_word(home_env):
    """'defaced' is seven hex letters; the query's term is its stem, as the row's is."""
    target = home_env.prompt("the landing page was defacing itself on resize")
    padding(home_env, 5)
    code, document, _ = search("defaced")
    assert code == 0 and ids(document) == [target]


def test_a_number_shorter_than_a_sha_stays_a_term(home_env):
    exact = home_env.prompt("ticket 123456 is done")
    home_env.prompt("ticket 1234567 is open")
    padding(home_env, 5)
    code, document, _ = search("123456")
    assert code == 0 and ids(document) == [exact]


@pytest.mark.parametrize("query, typed", [("deplo* tour", ["deplo*"]), ("DEPLO* tour", ["deplo*"]),
                                          (f"{SHA[:7]} tour", [SHA[:7]])])
def test_a_word_asked_by_its_spelling_that_no_row_holds_finds_nothing(home_env, query, typed):
    """`deplo*` asks for rows holding a word that starts so, and a short sha for its commit:
    when no row holds one, the search found nothing (exit 3) and names it, though other words
    of the query match (the tour row was a result before)."""
    home_env.prompt("a tour of the repository, module by module")
    padding(home_env, 5)
    code, document, _ = search(query)
    assert code == 3 and ids(document) == []
    floor = document["floor"]
    assert not floor["found"] and floor["unheld_words"] == typed and floor["below"] == 1
    assert f"no row holds a word starting as {typed[0]} does" in floor["reason"]
    code, document, _ = search("tou* repository")  # a prefix some row's word starts with
    assert code == 0 and len(ids(document)) == 1
    home_env.prompt("deployed the tour page")
    code, document, _ = search(query.replace(SHA[:7], "deplo*"))
    assert code == 0 and len(ids(document)) == 2


def test_a_prefix_no_row_holds_is_shown_as_before_with_the_floor_off(home_env, monkeypatch):
    monkeypatch.setenv("CARTO_SEARCH_FLOOR", "off")
    tour = home_env.prompt("a tour of the repository, module by module")
    padding(home_env, 5)
    code, document, _ = search("deplo* tour")
    assert code == 0 and ids(document) == [tour]


def test_a_prefix_whose_only_row_was_forgotten_finds_nothing(home_env):
    gone = home_env.prompt("deployed the tour page")
    home_env.prompt("a tour of the repository, module by module")
    padding(home_env, 5)
    assert search("deplo* tour")[0] == 0
    result = CliRunner().invoke(cli, ["forget", "--event", gone, "--write"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    code, document, _ = search("deplo* tour")
    assert code == 3 and document["floor"]["unheld_words"] == ["deplo*"]


@pytest.mark.parametrize("query", ["🚀", "🔥 🔥", "→ ✅"])
def test_a_query_of_emoji_says_why_nothing_can_match_it(home_env, query):
    home_env.prompt("shipped it 🚀")
    code, _, result = search(query)
    assert code == 2
    assert "emoji" in result.output and "no letter or digit" in result.output
    assert "at least one word" not in result.output


# --------------------------------------------------------------------------- the relevance floor

SHOP = ["the checkout total ignores the coupon when the cart has bundles",
        "rounded the cart line totals with Decimal quantize",
        "discount codes with percent and fixed amounts landed in the cart",
        "the staging deploy failed on the database migration",
        "rotated the API tokens for the payment provider",
        "added a retry around the flaky login test",
        "moved the nightly backup job to the new runner",
        "the search index rebuild takes twelve minutes on the laptop"]
UNSEEN = ["what did the plumber say about the water heater?", "kubernetes helm chart upgrade",
          "terraform state lock"]


@pytest.fixture
def shop(writer, monkeypatch):
    """A small home with its semantic ladder indexed (wordllama, the tests' embedder), and an
    evidence floor set for it (0.3, over wordllama's own: the tests below judge the floor's
    rules, not the model's measured cosine)."""
    from carto_core.semantic.indexer import run_index

    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    ids = [writer.prompt(text, session=f"s{i}") for i, text in enumerate(SHOP)]
    assert run_index(writer.home).outcome == "ok"
    monkeypatch.setenv("CARTO_SEMANTIC_EVIDENCE_FLOOR", "0.3")
    return ids


@pytest.mark.parametrize("query", UNSEEN)
def test_a_question_about_what_the_home_never_saw_finds_nothing_and_says_why(shop, query):
    code, document, _ = search(query)
    assert code == 3 and document["results"] == [] and document["total"] == 0
    floor = document["floor"]
    assert floor["enabled"] and not floor["found"] and floor["below"] >= 1
    assert floor["best_semantic"] < floor["semantic_min"]
    assert f"{floor['below']} candidate(s) below the relevance floor" in floor["reason"]
    assert document["semantic_status"] == "available"


def test_a_question_the_home_answers_is_found(shop):
    code, document, _ = search("why is the coupon ignored at checkout?")
    assert code == 0 and document["results"][0]["event_id"] == shop[0]
    assert document["floor"]["found"] and document["floor"]["below"] == 0


def test_without_a_floor_the_nearest_neighbours_are_results_as_before(shop, monkeypatch):
    monkeypatch.setenv("CARTO_SEARCH_FLOOR", "off")
    code, document, _ = search(UNSEEN[0])
    assert code == 0 and document["results"]
    assert document["floor"]["found"] and document["floor"]["below"] == 0
    assert document["floor"]["enabled"] is False


def test_wordllama_states_a_floor_of_its_own(shop, monkeypatch):
    """The user install's embedder: with no floor set, its own cosine (0.22) judges. The
    questions the home never saw find nothing; questions asked in other words than their rows'
    are found by meaning ("shopping basket sum wrong" for "the checkout total ignores the
    coupon when the cart has bundles", no keyword ladder holding it; "credential rotation"
    for "rotated the API tokens", whose one shared stem is under half the query)."""
    monkeypatch.delenv("CARTO_SEMANTIC_EVIDENCE_FLOOR")
    for query in UNSEEN:
        code, document, _ = search(query)
        assert code == 3 and document["results"] == []
        assert document["floor"]["semantic_min"] is not None
        assert document["floor"]["best_semantic"] < document["floor"]["semantic_min"]
    code, document, _ = search("shopping basket sum wrong")
    assert code == 0 and ids(document)[0] == shop[0]
    assert document["floor"]["best_coverage"] is None
    code, document, _ = search("credential rotation")
    assert code == 0 and ids(document) == [shop[4]]
    assert 0 < document["floor"]["best_coverage"] < 0.5


def test_a_keyword_match_of_half_the_query_is_evidence_and_less_is_not(shop, monkeypatch):
    monkeypatch.setenv("CARTO_SEMANTIC_EVIDENCE_FLOOR", "0.99")  # no semantic hit is evidence
    code, document, _ = search("quantize decimal nightly")  # one row holds two words of three
    assert code == 0 and document["results"][0]["event_id"] == shop[1]
    assert document["floor"]["best_coverage"] >= 0.5
    code, document, _ = search("quantize coupon nightly")  # ... one of three
    assert code == 3 and 0 < document["floor"]["best_coverage"] < 0.5
    held = round(document["floor"]["best_coverage"] * 100)
    assert f"the best keyword match holds {held}% of the query (evidence from 50%)" in \
        document["floor"]["reason"]


def test_beside_a_word_no_row_holds_a_keyword_match_is_no_evidence(shop, monkeypatch):
    """"plumber" is in no row: the row holding "quantize decimal" holds two thirds of the
    query's words, which are not its topic, or not all of it; the semantic ladder alone
    judges."""
    monkeypatch.setenv("CARTO_SEMANTIC_EVIDENCE_FLOOR", "0.99")
    code, document, _ = search("quantize decimal plumber")
    assert code == 3 and document["results"] == [] and document["floor"]["best_coverage"] >= 0.5
    assert "which holds words no row holds (plumber: no keyword match is evidence then)" in \
        document["floor"]["reason"]
    assert document["floor"]["unheld_words"] == ["plumber"]
    text = CliRunner().invoke(cli, ["search", "quantize decimal plumber"]).output
    assert "No row holds plumber." in text
    monkeypatch.setenv("CARTO_SEMANTIC_EVIDENCE_FLOOR", "0.01")  # the semantic ladder's word
    code, document, _ = search("quantize decimal plumber")
    assert code == 0 and document["results"][0]["event_id"] == shop[1]


@pytest.mark.parametrize("query, words", [
    ("Kubernetes helm charts for the cart?", ["kubernetes", "helm", "charts"]),  # as typed
    ("the plumber's heater and the plumber", ["plumber", "heater"]),  # once each, in order
    ("cart totals", []),  # every word held
    ("quantize plumber", ["plumber"]),  # a word one row holds is held
    ("what about the cart?", []),  # "what" is no term beside a word of the topic
])
def test_the_words_no_row_holds_are_named_as_typed(shop, query, words):
    from carto_core.logio.home import current_home
    from carto_core.search.engine import SearchEngine
    from carto_core.search.floor import unheld_words

    engine = SearchEngine(current_home())
    engine.ensure_loaded()
    assert unheld_words(query, engine.analyzer, engine.index.df) == words


def test_held_words_beside_words_no_row_holds_still_meet_the_floor(shop, monkeypatch):
    """"cart totals" are held by two rows, "kubernetes helm" by none: those two rows hold
    every held word (their newest first for a short query), but the query as typed is not
    matched in full, so the semantic ladder still joins and the floor still judges: a
    quarter of the query is no evidence."""
    monkeypatch.setenv("CARTO_SEMANTIC_EVIDENCE_FLOOR", "0.99")
    code, document, _ = search("cart totals kubernetes helm")
    assert document["semantic_status"] == "available"
    assert code == 3 and document["results"] == [] and not document["floor"]["found"]
    assert 0 < document["floor"]["best_coverage"] < 0.5


def test_a_lookup_needs_no_floor(shop):
    """Its semantic ladder is gated out: no ladder states a floor, the keyword match stands."""
    code, document, _ = search("flaky login")
    assert code == 0 and document["results"][0]["event_id"] == shop[5]
    assert document["semantic_status"] == "unchecked" and document["floor"]["semantic_min"] is None


def _ladder(scores, *, floor=None, coverage=None, unheld=0):
    import numpy as np

    from carto_core.search.api import Ladder

    return Ladder("semantic" if floor is not None else "prompts", np.arange(len(scores)),
                  np.asarray(scores, float), evidence_floor=floor,
                  coverage=None if coverage is None else np.asarray(coverage, float),
                  unheld=unheld)


@pytest.mark.parametrize("ladders,stated,found", [
    ([_ladder([0.30, 0.1], floor=0.3)], [0.3], True),             # at the floor: evidence
    ([_ladder([0.2999, 0.1], floor=0.3)], [0.3], False),
    ([_ladder([0.1], floor=0.3), _ladder([1, 1], coverage=[0.5, 0.2])], [0.3], True),
    ([_ladder([0.1], floor=0.3), _ladder([1, 1], coverage=[0.49, 0.2])], [0.3], False),
    ([_ladder([0.1], floor=0.3), _ladder([1, 1])], [0.3], True),  # coverage unknown: taken
    ([_ladder([1, 1], coverage=[0.1, 0.1])], [0.3], False),       # semantic ladder empty
    ([_ladder([1, 1], coverage=[0.1, 0.1])], [], True),           # no floor stated
    ([_ladder([0.1], floor=0.3), _ladder([1, 1], coverage=[0.9, 0.2], unheld=1)], [0.3], False),
    ([_ladder([0.3], floor=0.3), _ladder([1, 1], coverage=[0.9, 0.2], unheld=1)], [0.3], True),
    ([_ladder([1, 1], coverage=[0.9, 0.2], unheld=1)], [], True),  # no floor stated
])
def test_judge(ladders, stated, found):
    from carto_core.search.floor import judge

    report = judge(ladders, 7, stated)
    assert report.found is found
    assert report.below == (0 if found else 7)
    assert judge(ladders, 7, stated, enabled=False).found  # switched off: always found
    assert judge(ladders, 0, stated).below == 0 and judge(ladders, 0, stated).reason == ""


def _banded(top, confirm):
    """A semantic ladder (floor 0.22, band 0.35, alignment needed 0.15) whose best cosine is
    `top` and whose second look answers `confirm` (a value, or an exception if it must not be
    asked)."""
    ladder = _ladder([top, 0.1], floor=0.22)
    ladder.evidence_band, ladder.confirm_min = 0.35, 0.15
    asked = []

    def look():
        asked.append(True)
        if isinstance(confirm, Exception):
            raise confirm
        return confirm

    ladder.confirm = look
    return ladder, asked


@pytest.mark.parametrize("top,confirm,found,asks", [
    (0.35, AssertionError("above the band: not asked"), True, False),
    (0.3499, 0.15, True, True),     # in the band, aligned at the floor: evidence
    (0.3499, 0.1499, False, True),  # in the band, not aligned: nothing found
    (0.22, 0.14, False, True),      # the band starts at the evidence floor
    (0.22, None, True, True),       # nothing to judge (every word held): evidence as before
    (0.2199, AssertionError("under the floor: not asked"), False, False),
])
def test_judge_asks_the_band_for_a_second_look(top, confirm, found, asks):
    from carto_core.search.floor import judge

    ladder, asked = _banded(top, confirm)
    report = judge([ladder], 7, [0.22])
    assert report.found is found and bool(asked) is asks
    if asks and not found:
        assert report.best_confirm == confirm and report.semantic_band == 0.35
        assert "the best aligns at" in report.reason and "evidence from 0.15" in report.reason


def test_a_keyword_match_spares_the_second_look():
    from carto_core.search.floor import judge

    ladder, asked = _banded(0.3, AssertionError("a keyword match is evidence: not asked"))
    assert judge([ladder, _ladder([1, 1], coverage=[0.5, 0.2])], 7, [0.22]).found and not asked


def conversation_for(ladder, turns):
    """A conversation test marking the documents `turns` of `ladder` as turns."""
    import numpy as np

    is_turn = np.zeros(int(max(ladder.indices)) + 1, bool)
    is_turn[list(turns)] = True
    return lambda indices: is_turn[np.asarray(indices)]


def _records_and_turns(scores, turns, confirm):
    """A banded semantic ladder (`_banded`) over documents 0..n-1 scoring `scores`, of which
    the documents in `turns` are conversation turns; the second look records the rows it was
    given."""
    import numpy as np

    ladder, asked = _banded(scores[0], confirm)
    ladder.scores = np.asarray(scores, float)
    ladder.indices = np.arange(len(scores))
    looked = []

    def look():
        rows = ladder.confirm_rows
        looked.append(None if rows is None else rows.tolist())
        asked.append(True)
        return confirm

    ladder.confirm = look
    is_turn = np.zeros(len(scores), bool)
    is_turn[list(turns)] = True
    return ladder, looked, (lambda indices: is_turn[np.asarray(indices)])


def test_under_the_band_a_record_is_no_evidence_and_the_second_look_reads_turns():
    """A commit at 0.34 (in the band) is no evidence; the turn at 0.25 is, once its second
    look aligns, and the look reads the turns alone, best first."""
    from carto_core.search.floor import judge

    ladder, looked, conversation = _records_and_turns([0.34, 0.30, 0.25, 0.12], {2, 3}, 0.2)
    report = judge([ladder], 7, [0.22], conversation=conversation)
    assert report.found and looked == [[2, 3]]
    assert report.best_semantic == 0.34 and report.best_turn == 0.25 and report.best_confirm == 0.2

    ladder, looked, conversation = _records_and_turns([0.34, 0.30, 0.25, 0.12], {2, 3}, 0.1)
    report = judge([ladder], 7, [0.22], conversation=conversation)
    assert not report.found and looked == [[2, 3]]
    assert "a conversation turn from 0.22: the closest scores 0.25" in report.reason
    assert "the best aligns at 0.10" in report.reason


@pytest.mark.parametrize("scores,turns,found,why", [
    ([0.34, 0.21], {1}, False, "the closest scores 0.21"),   # the turn is under the floor
    ([0.34, 0.30], set(), False, "none among the matches"),  # no turn at all
    ([0.35, 0.10], {1}, True, ""),                           # a record at the band: evidence
])
def test_a_record_counts_only_from_the_band(scores, turns, found, why):
    from carto_core.search.floor import judge

    ladder, looked, conversation = _records_and_turns(
        scores, turns, AssertionError("nothing in the band to confirm: not asked"))
    report = judge([ladder], 7, [0.22], conversation=conversation)
    assert report.found is found and looked == []
    assert why in report.reason
    if not found:
        assert "the closest semantic match scores 0.34 (evidence from 0.35; a conversation " \
               "turn from 0.22" in report.reason
    # told nothing of turns, every row is judged alike, as before: the look reads the first rows
    ladder, looked, _ = _records_and_turns(scores, turns, 0.2)
    assert judge([ladder], 7, [0.22]).found and looked in ([], [None])


def test_the_search_tells_the_floor_which_rows_are_turns(writer, monkeypatch, tmp_path):
    """The pipeline hands the floor a test of its candidates marking the turns log's rows
    and nothing else (a prompt saying the same is a record of the hook's)."""
    import numpy as np

    from carto_core.search import floor as floor_module
    from carto_core.search import pipeline

    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    monkeypatch.setenv("CARTO_SEMANTIC", "0")
    prompt = writer.prompt("the orchard ladder wobbles on the slope")
    (writer.home.root / "turns.jsonl").write_text(json.dumps({
        "event_id": "turn-s9-1", "timestamp": "2026-05-31T10:00:00Z", "type": "transcript",
        "provider": "claude", "summary": "the orchard ladder wobbles on the slope",
        "project": "proj", "session": "s9", "turn_idx": 1}) + "\n")
    seen = {}

    def spy(ladders, candidates, stated, **options):
        seen["conversation"] = options.get("conversation")
        seen["records"] = options.get("records")
        return floor_module.judge(ladders, candidates, stated, **options)

    monkeypatch.setattr(pipeline, "judge", spy)
    code, document, _ = search("orchard ladder wobbles")
    assert code == 0 and set(ids(document)) == {prompt, "turn-s9-1"}
    from carto_core.search.engine import SearchEngine
    from carto_core.logio.home import Home

    engine = SearchEngine(Home(writer.home.root), persist=False)
    engine.ensure_loaded()
    both = np.asarray([engine.index_of(prompt), engine.index_of("turn-s9-1")])
    assert seen["conversation"] is not None
    assert seen["conversation"](both).tolist() == [False, True]
    # and how many records a ladder can hold: every row but the turn
    ladder = _ladder([0.3], floor=0.22)
    assert seen["records"](ladder) == len(engine.index) - 1 >= 1


@pytest.mark.parametrize("records,band", [
    (None, 0.35), (200, 0.35),                         # told nothing, or 200 records: the band
    (100, 0.335), (50, 0.32), (25, 0.305),             # 0.015 lower for each halving
    (1, 0.35 - 0.015 * 7.643856), (0, 0.35 - 0.015 * 7.643856),
    (400, 0.365), (503, 0.35 + 0.015 * 1.330558),      # as much higher for each doubling
    (504, 0.37), (5000, 0.37),                         # up to 0.02 over the band
])
def test_a_home_of_few_records_judges_them_from_under_the_band(records, band):
    from carto_core.search.floor import record_band

    ladder, _, _ = _records_and_turns([0.3], set(), None)
    assert record_band(ladder, None if records is None else (lambda _: records)) == \
        pytest.approx(band)
    ladder.evidence_floor = 0.30  # never under the floor
    assert record_band(ladder, lambda _: 1) == pytest.approx(0.30)
    ladder.evidence_band = None  # no band, nothing to lower
    assert record_band(ladder, lambda _: 1) is None


@pytest.mark.parametrize("scores,records,found,lowered", [
    ([0.32, 0.10], 50, True, 0.32),      # a home of 50 commits: from 0.32
    ([0.3199, 0.10], 50, False, 0.32),
    ([0.3199, 0.10], 25, True, 0.305),
    ([0.34, 0.10], 200, False, None),    # a home of 200: from the band, as before
    ([0.3499, 0.10], 199, True, 0.349891),  # one record fewer: a hair under it
    ([0.3649, 0.10], 400, False, 0.365),    # a home of 400: from 0.365, over the band
    ([0.3699, 0.10], 5000, False, 0.37),    # of many: at most 0.02 over it
    ([0.37, 0.10], 5000, True, None),      # at it: evidence, nothing under it judged
])
def test_on_a_home_of_few_records_a_record_is_evidence_under_the_band(scores, records, found,
                                                                      lowered):
    from carto_core.search.floor import judge, record_band

    ladder, looked, conversation = _records_and_turns(
        scores, set(), AssertionError("no turn in the band: not asked"))
    report = judge([ladder], 7, [0.22], conversation=conversation, records=lambda _: records)
    assert report.found is found and looked == []
    if lowered is not None:
        assert report.record_band == pytest.approx(lowered, abs=1e-6)
        assert report.to_dict()["record_band"] == pytest.approx(lowered, abs=1e-4)
    from_ = record_band(ladder, lambda _: records)
    ladder.scores[0] = from_  # at the record band: evidence
    assert judge([ladder], 7, [0.22], conversation=conversation, records=lambda _: records).found
    if not found:
        side = "few" if lowered is not None and lowered < 0.35 else "many"
        few = "" if lowered is None else f", a record from {lowered:.2f} among {side} records"
        assert (f"the closest semantic match scores {scores[0]:.2f} (evidence from 0.35{few}; a "
                "conversation turn from 0.22: none among the matches)") in report.reason


def test_records_counted_are_the_rows_a_ladder_can_hold_and_no_more_than_needed():
    """The pipeline's count: no turn but a turn of work, no type the ladder's embedder never
    embeds, no deleted row; past `RECORDS_AT_BAND` the count stops (the band holds whatever
    the rest)."""
    import numpy as np

    from carto_core.search import pipeline
    from carto_core.search.floor import RECORDS_COUNTED
    from carto_core.search.index import LOG_CODE
    from carto_core.search.rowfields import WORKED

    class Index:
        def __init__(self, source, types, alive, intent=None):
            self.cols = {"source": np.asarray(source, np.int8), "type": np.asarray(types),
                         "alive": np.asarray(alive, bool),
                         "intent": np.asarray(intent or [0] * len(source), np.int8)}
            self.n_alive = int(np.count_nonzero(self.cols["alive"]))

        def __len__(self):
            return len(self.cols["source"])

    class Engine:
        def __init__(self, index):
            self.index = index

    turn, commit, tool = LOG_CODE["turns"], LOG_CODE["changelog"], LOG_CODE["tool-use"]
    ladder = _ladder([0.3], floor=0.22)
    ladder.unseen_types = (2,)
    index = Index([turn] * 3 + [commit] * 5 + [tool] * 4, [0] * 3 + [1] * 5 + [2] * 4,
                  [True] * 7 + [False] + [True] * 4)
    assert pipeline._records(Engine(index))(ladder) == 4  # 5 commits, one deleted
    ladder.unseen_types = ()
    assert pipeline._records(Engine(index))(ladder) == 8  # tool rows are embedded too
    # a turn in which the agent worked is a record of that work (its prompt's intent kept)
    worked = Index([turn] * 3 + [commit] * 5, [0] * 8, [True] * 8,
                   [WORKED | 2, 2, WORKED] + [0] * 5)
    assert pipeline._records(Engine(worked))(ladder) == 7
    many = Index([commit] * 50_000, [1] * 50_000, [True] * 50_000)
    counted = pipeline._records(Engine(many))(ladder)
    assert RECORDS_COUNTED <= counted < 50_000
    # a first slice of 300 records and turns: not yet enough to stop (the rise moves to 504)
    source = [commit] * 300 + [turn] * (pipeline._SLICE - 300) + [commit] * 1000
    mixed = Index(source, [1] * len(source), [True] * len(source))
    assert pipeline._records(Engine(mixed))(ladder) == 1300
    # within a scope: its rows alone (a project of 40 commits in a home of 1,300 records)
    scope = np.zeros(len(source), bool)
    scope[-40:] = True
    scope[:5] = True  # and five of the first slice's
    assert pipeline._records(Engine(mixed), scope)(ladder) == 45
    assert pipeline._records(Engine(mixed), None)(ladder) == 1300


def test_the_records_counted_are_the_scopes(home_env, monkeypatch):
    """The pipeline counts the records of the search's scope: `--project` of a few commits in
    a home of many rows is judged as a home of those few."""
    from carto_core.search import pipeline

    for n in range(6):
        home_env.tool(f"Commit {n:07x}: tidy the billing exports {n}", etype="git_commit",
                      project="billing")
    for n in range(4):
        home_env.tool(f"Commit {n + 100:07x}: shop cart rounding {n}", etype="git_commit",
                      project="shop")
    seen = []
    counting = pipeline._records

    def records(engine, mask=None):
        count = counting(engine, mask)
        seen.append((engine, mask, count))
        return count

    monkeypatch.setattr(pipeline, "_records", records)
    search("--project", "shop", "cart rounding")
    (engine, mask, count), = seen
    held = {engine.index.event_id(i) for i in range(len(engine.index)) if mask[i]}
    assert len(held) == 4 and all("shop" in engine.index.row(i)["project"]
                                  for i in range(len(engine.index)) if mask[i])
    search("cart rounding")
    assert seen[1][1] is None or seen[1][1].all()


def test_fusion_ranks_no_record_under_the_band():
    """A banded ladder keeps its turns and whatever reaches the band; a record under the band
    is set aside, its arrays kept in step; a ladder left with nothing is dropped, one with
    nothing to set aside is passed as it is, and a ladder with no band is untouched."""
    import numpy as np

    from carto_core.search.pipeline import records_set_aside

    ladder, _, conversation = _records_and_turns([0.40, 0.34, 0.25, 0.12], {2, 3}, None)
    ladder.holds_all = np.asarray([True, False, True, False])
    [kept] = records_set_aside([ladder], conversation)
    assert kept is not ladder and kept.indices.tolist() == [0, 2, 3]
    assert kept.scores.tolist() == [0.40, 0.25, 0.12]
    assert kept.holds_all.tolist() == [True, True, False]
    assert ladder.indices.tolist() == [0, 1, 2, 3]  # the floor still judges the whole ladder

    records, _, conversation = _records_and_turns([0.34, 0.30], set(), None)
    assert records_set_aside([records], conversation) == []
    # on a home of 50 records, a record is a candidate from 0.32
    [kept] = records_set_aside([ladder], conversation_of_first := conversation_for(ladder, {2, 3}),
                               lambda _: 50)
    assert kept.indices.tolist() == [0, 1, 2, 3]
    [kept] = records_set_aside([ladder], conversation_of_first, lambda _: 200)
    assert kept.indices.tolist() == [0, 2, 3]
    # on a home of many, a record from the band is a candidate still (the rise judges only)
    ladder.scores[1] = 0.36
    assert records_set_aside([ladder], conversation_of_first, lambda _: 5000) == [ladder]
    turns, _, conversation = _records_and_turns([0.34, 0.30], {0, 1}, None)
    assert records_set_aside([turns], conversation)[0] is turns
    keyword = _ladder([1, 1], coverage=[0.2, 0.1])
    assert records_set_aside([keyword], lambda indices: np.zeros(len(indices), bool)) == [keyword]


def test_records_all_set_aside_are_the_floors_verdict_not_an_empty_page():
    """Every match a record under the band: fusion is given nothing (`records_set_aside`), and
    the floor still says the search found nothing, how many it left out and why; with nothing
    matched at all, the page is empty with no verdict to give."""
    from carto_core.search.floor import judge
    from carto_core.search.pipeline import records_set_aside

    ladder, looked, conversation = _records_and_turns(
        [0.30, 0.26, 0.19], set(), AssertionError("nothing in the band to confirm: not asked"))
    assert records_set_aside([ladder], conversation) == []
    report = judge([ladder], 0, [0.22], conversation=conversation)
    assert not report.found and report.below == 0 and looked == []  # no candidate was below
    assert report.reason.startswith("3 match(es), each a record under the band, none a "
                                    "candidate: the closest semantic match scores 0.30")
    assert "none among the matches" in report.reason
    assert judge([], 0, [0.22], conversation=conversation).found


def test_a_search_that_finds_nothing_names_the_words_no_row_holds(home_env):
    """Keyword ladders alone (no floor stated) and nothing matched: the page is empty all the
    same, and the words the home never holds are named, in --json and in the text."""
    home_env.prompt("the cart rounding is off by a cent")
    padding(home_env, 5)
    code, document, _ = search("kubernetes helm upgrade")
    assert code == 3 and ids(document) == []
    assert document["floor"]["unheld_words"] == ["kubernetes", "helm", "upgrade"]
    done = CliRunner().invoke(cli, ["search", "kubernetes helm upgrade"], catch_exceptions=False)
    assert done.exit_code == 3
    assert "No row holds kubernetes, helm, upgrade." in done.output
    code, document, _ = search("cart", "--project", "elsewhere")  # held, out of scope
    assert code == 3 and document["floor"]["unheld_words"] == []



@pytest.mark.parametrize("scores,turns,holds,found,why", [
    # a record over the band holding no word of the query is no evidence at any score
    ([0.52, 0.30], set(), {1}, False, "a record when it holds a word of the query"),
    ([0.52, 0.40], set(), {1}, True, ""),            # the next record holds one: evidence
    ([0.52, 0.40], set(), {0}, True, ""),
    ([0.52, 0.40], set(), set(), False, "none among the matches"),
    ([0.52, 0.40], {1}, set(), True, ""),            # a turn over the band is judged as before
])
def test_a_record_holding_no_word_of_the_query_is_no_evidence(scores, turns, holds, found, why):
    """An unrelated question's nearest commit on a home of coding work scores over the band and
    shares no word with it ("Why is TensorFlow training so slow on the GPU box?", a commit about
    reading a log's end at 0.43); a question about a commit in other words still names one of
    its words (docs/ranking.md, "A record holds a word of the question")."""
    import numpy as np

    from carto_core.search.floor import judge

    ladder, looked, conversation = _records_and_turns(
        scores, turns, AssertionError("nothing in the band to confirm: not asked"))
    holding = lambda indices: np.isin(indices, sorted(holds))  # noqa: E731
    report = judge([ladder], 7, [0.22], conversation=conversation, holding=holding)
    assert report.found is found and why in report.reason
    # told nothing of the words, a record is judged by its score alone, as before
    ladder, _, conversation = _records_and_turns(scores, turns, 0.2)
    assert judge([ladder], 7, [0.22], conversation=conversation).found


@pytest.mark.parametrize("scores,work,holds,unheld,found,looked_at", [
    # a turn of work in the band, the query holding a word no row holds: a record, no look
    ([0.30, 0.12], {0}, set(), 1, False, []),
    ([0.30, 0.25], {0}, set(), 1, True, [[1]]),   # a person's turn beside it is looked at
    ([0.30, 0.12], {0}, set(), 0, True, [[0, 1]]),  # every word the home's: turns as before
    ([0.45, 0.12], {0}, set(), 1, False, []),     # over the band, holding no word of it
    ([0.45, 0.12], {0}, {0}, 1, True, []),        # over the band and holding one: evidence
    ([0.30, 0.12], set(), set(), 1, True, [[0, 1]]),  # no work in them: a person's words
])
def test_a_turn_of_work_is_a_record_when_the_query_holds_a_word_no_row_holds(
        scores, work, holds, unheld, found, looked_at):
    """On a home of coding work the semantic ladder's nearest turns for an unseen question
    are turns in which the agent worked: long, and some word of them aligns with any word in
    the second look. Such a turn names what it worked on, as a commit does, so for a question
    holding a word no row holds it is judged as a record (docs/ranking.md, "A turn of work is
    a record")."""
    import numpy as np

    from carto_core.search.floor import judge

    ladder, looked, conversation = _records_and_turns(scores, {0, 1}, 0.2)
    keyword = _ladder([1, 1], coverage=[0.3, 0.2], unheld=unheld)
    holding = lambda indices: np.isin(indices, sorted(holds))  # noqa: E731
    worked = lambda indices: np.isin(indices, sorted(work))  # noqa: E731
    report = judge([ladder, keyword], 7, [0.22], conversation=conversation, holding=holding,
                   worked=worked)
    assert report.found is found and looked == looked_at
    if not found:
        assert "a turn in which the agent worked as a record" in report.reason
    # told nothing of the work, every turn is a person's words, as before
    ladder, looked, conversation = _records_and_turns(scores, {0, 1}, 0.2)
    assert judge([ladder, keyword], 7, [0.22], conversation=conversation, holding=holding).found


@pytest.mark.parametrize("scores,held,need,found", [
    # beside a word no row holds, one common word of the question is no topic
    ([0.42, 0.12], [1, 0], 2, False),
    ([0.42, 0.12], [2, 0], 2, True),              # two words of it: evidence from the band
    ([0.45, 0.12], [1, 0], 2, True),              # one, and as near as the band + 0.10
    ([0.4499, 0.12], [1, 0], 2, False),
    ([0.42, 0.36], [1, 2], 2, True),              # the next record holds two
    ([0.42, 0.12], [1, 0], 1, True),              # every word the home's: one is enough
    ([0.45, 0.12], [0, 0], 2, False),             # holding none: no evidence at any score
])
def test_beside_a_word_no_row_holds_a_record_holds_two_words_of_the_question(
        scores, held, need, found):
    """"nextflow pipeline resume" on a home of coding work: no row holds "nextflow", and the
    nearest commit, about a pipeline, holds one common word of the question. A record is
    evidence then when it holds two words of the question, or one and scores `ONE_WORD_RISE`
    over its record band (docs/ranking.md, "Two words of the question beside a word no row
    holds")."""
    import numpy as np

    from carto_core.search.floor import ONE_WORD_RISE, judge

    assert ONE_WORD_RISE == pytest.approx(0.10)
    ladder, _, conversation = _records_and_turns(scores, set(), 0.0)
    counts = np.asarray(held)
    holding = lambda indices: counts[np.asarray(indices)]  # noqa: E731
    report = judge([ladder], 7, [0.22], conversation=conversation, holding=holding,
                   needed=lambda: need)
    assert report.found is found
    if not found and any(held):
        assert (f"when it holds {need} words of the query, or one from 0.45" in report.reason
                if need > 1 else "when it holds a word of the query" in report.reason)
    # on a home of fewer records than the band's rise counts, one word is enough, as before
    from carto_core.search.floor import RECORDS_COUNTED

    for many, two in ((RECORDS_COUNTED - 1, False), (RECORDS_COUNTED, True)):
        ladder, _, conversation = _records_and_turns(scores, set(), 0.0)
        report = judge([ladder], 7, [0.22], conversation=conversation, holding=holding,
                       needed=lambda: need, records=lambda ladder, many=many: many)
        band = min(0.35 + 0.02, 0.35 + 0.015 * np.log2(many / 200))
        over = np.asarray(scores) >= band
        one = (counts >= 1) & over
        enough = ((counts >= need) & over) | (one & (np.asarray(scores) >= band + 0.10))
        assert report.found is bool((enough if two else one).any())
    # a bool `holding` (the team's) is one word each, as before
    ladder, _, conversation = _records_and_turns(scores, set(), 0.0)
    bools = counts > 0
    report = judge([ladder], 7, [0.22], conversation=conversation,
                   holding=lambda indices: bools[np.asarray(indices)])
    assert report.found is bool(bools[np.asarray(scores) >= 0.35].any())


def test_the_words_a_record_must_hold_are_asked_only_when_one_reaches_the_band():
    """`needed` reads the index's document counts: asked once, and only when a record is in
    or over the band."""
    import numpy as np

    from carto_core.search.floor import judge

    asked = []

    def needed():
        asked.append(True)
        return 2

    for scores in ([0.30, 0.12], [0.42, 0.40]):
        ladder, _, conversation = _records_and_turns(scores, set(), 0.0)
        judge([ladder], 7, [0.22], conversation=conversation,
              holding=lambda indices: np.ones(len(indices), np.int64), needed=needed)
    assert asked == [True]


@pytest.mark.parametrize("scores,turns,confirm,names,records,found", [
    # a record over the band holding a word of the query, beside a name no row holds
    ([0.45, 0.12], set(), 0.2, ["DuckDB"], None, False),
    ([0.45, 0.12], set(), 0.2, [], None, True),                   # no such name: as before
    ([0.45, 0.12], set(), 0.2, ["DuckDB"], "few", True),          # a home of few records
    ([0.45, 0.12], set(), 0.2, ["DuckDB"], "many", False),
    ([0.45, 0.36], {1}, 0.2, ["DuckDB"], None, True),             # a turn over the band
    ([0.45, 0.25], {1}, 0.2, ["DuckDB"], None, True),             # ... or under it, looked at
    ([0.45, 0.25], {1}, 0.1, ["DuckDB"], None, False),
])
def test_beside_a_name_no_row_holds_a_record_is_no_evidence(scores, turns, confirm, names,
                                                            records, found):
    """"Can the facts census run as a DuckDB query?" on a home of coding work: no row holds
    "DuckDB", and the facts census's page holds "facts" and "census" at 0.50. A name is what
    the question is about; a home of many records that never wrote it never held the thing. A
    turn is judged as before (docs/ranking.md, "A name no row holds")."""
    import numpy as np

    from carto_core.search.floor import RECORDS_COUNTED, judge

    ladder, looked, conversation = _records_and_turns(scores, turns, confirm)
    asked = []

    def named():
        asked.append(True)
        return names

    counted = {None: None, "few": lambda ladder: RECORDS_COUNTED - 1,
               "many": lambda ladder: RECORDS_COUNTED}[records]
    report = judge([ladder], 7, [0.22], conversation=conversation, records=counted,
                   holding=lambda indices: np.ones(len(indices), np.int64), named=named)
    assert report.found is found and asked == ([] if records == "few" else [True])
    if not found:
        assert ("the query names DuckDB, which no row holds (a record is no evidence then)"
                in report.reason)
    # told no names, the record is evidence, as before
    ladder, looked, conversation = _records_and_turns(scores, turns, confirm)
    assert judge([ladder], 7, [0.22], conversation=conversation, records=counted,
                 holding=lambda indices: np.ones(len(indices), np.int64)).found


def test_the_names_are_asked_only_when_a_record_reaches_the_band():
    """`named` reads the index's document counts: not asked when no record reaches it."""
    from carto_core.search.floor import judge

    for scores, turns in (([0.45, 0.40], {0, 1}), ([0.30, 0.25], {0, 1}), ([0.20, 0.10], set())):
        ladder, _, conversation = _records_and_turns(scores, turns, 0.2)
        judge([ladder], 7, [0.22], conversation=conversation,
              holding=lambda indices: [1] * len(indices), named=lambda: pytest.fail("asked"))


@pytest.mark.parametrize("query, names", [
    ("does the cart sit in RocksDB or gRPC", ["RocksDB", "gRPC"]),  # a capital after a small
    ("doc2query for the cart", ["doc2query"]),                    # a digit after a letter
    ("bge-m3 embeddings of the cart", ["bge-m3"]),                # ... in a part of a word
    ("the cart at 12am", []),                                     # a number and its unit
    ("the UI, the CLIs, the S3 bucket", []),                      # abbreviations
    ("Which Pinecone namespace holds the cart?", []),             # a capital that only opens
    ("the cart's FlatBuffers and the FlatBuffers schema", ["FlatBuffers"]),  # once
    ("the all-MiniLM cart", ["all-MiniLM"]),                      # its part no row holds
    ("the cart-DuckDB bridge", ["cart-DuckDB"]),                  # beside a part rows hold
    ("the EC2s and the MP3's", []),                               # abbreviations' plurals
])
def test_the_names_no_row_holds_are_the_words_spelt_as_names(shop, query, names):
    from carto_core.logio.home import current_home
    from carto_core.search.engine import SearchEngine
    from carto_core.search.floor import unheld_names

    engine = SearchEngine(current_home())
    engine.ensure_loaded()
    assert unheld_names(query, engine.analyzer, engine.index.df) == names


def test_a_hyphenated_name_whose_part_a_row_holds_is_none(writer, monkeypatch):
    """"all-MiniLM" when rows say "minilm": the whole is unheld, the name is not."""
    writer.tool("Ran: embed with the minilm encoder")
    named, _ = _floor_option(writer, monkeypatch, "named", "the all-MiniLM encoder")
    assert named() == []


def test_the_search_tells_the_floor_the_names_no_row_holds(writer, monkeypatch):
    writer.tool("Ran: check the orchard ladder wobbles on the slope")
    named, _ = _floor_option(writer, monkeypatch, "named", "does the orchard wobble in ZeppelinDB")
    assert named() == ["ZeppelinDB"]
    named, _ = _floor_option(writer, monkeypatch, "named", "does the Zeppelin orchard wobble")
    assert named() == []
    # judged whole: rows holding "zeppelin" and "db" do not hold "ZeppelinDB"
    writer.tool("Ran: the zeppelin db")
    named, _ = _floor_option(writer, monkeypatch, "named", "does the orchard wobble in ZeppelinDB")
    assert named() == ["ZeppelinDB"]


def _floor_option(writer, monkeypatch, option: str, query: str):
    """What the pipeline handed `floor.judge` as `option` for a keyword search of `query` on
    the writer's home, and each event's document index there."""
    from carto_core.logio.home import Home
    from carto_core.search import floor as floor_module
    from carto_core.search import pipeline
    from carto_core.search.engine import SearchEngine

    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    monkeypatch.setenv("CARTO_SEMANTIC", "0")
    seen = {}

    def spy(ladders, candidates, stated, **options):
        seen[option] = options.get(option)
        return floor_module.judge(ladders, candidates, stated, **options)

    monkeypatch.setattr(pipeline, "judge", spy)
    search(query)
    engine = SearchEngine(Home(writer.home.root), persist=False)
    engine.ensure_loaded()
    return seen[option], {engine.index.event_id(i): i for i in range(len(engine.index))}


def test_the_search_tells_the_floor_which_turns_are_turns_of_work(writer, monkeypatch):
    """The index marks a turn whose row names the tools the agent called (`rowfields.WORKED`,
    kept beside its prompt's intent) and the pipeline hands the floor that mark."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.logs import order_row

    turn = {"timestamp": writer._ts(1.0), "project": "proj", "type": "transcript",
            "provider": "claude", "session": "s1", "prompt_intent": "implementation"}
    append_rows(writer.home.log("turns"), [
        order_row("turns", {**turn, "event_id": "turn-s1-1", "turn_idx": 1,
                            "summary": "add the orchard ladder check. Done: edited ladder.py",
                            "tools": [{"name": "Edit", "input": "ladder.py"}]}),
        order_row("turns", {**turn, "event_id": "turn-s1-2", "turn_idx": 2,
                            "summary": "the orchard ladder wobbles on the slope, I think"})])
    note = writer.tool("Ran: check the orchard ladder")
    worked, index = _floor_option(writer, monkeypatch, "worked", "orchard ladder")
    marked = worked([index["turn-s1-1"], index["turn-s1-2"], index[note]]).tolist()
    assert marked == [True, False, False]


def test_the_search_tells_the_floor_which_rows_hold_a_word_of_the_query(writer, monkeypatch):
    """A record holding a word of the query, or a prompt (a person's words answer a vague
    question in other words, as a turn does), may be evidence over the band; no other record."""
    holder = writer.tool("Ran: check the orchard ladder wobbles on the slope")
    other = writer.tool("Ran: a note about the weather")
    said = writer.prompt("what was that about the weather")  # a person's words: judged as said
    holding, index = _floor_option(writer, monkeypatch, "holding", "orchard wobbles")
    # how many of its words each holds; a prompt every one
    assert holding([index[holder], index[other], index[said]]).tolist() == [2, 0, 2]
    one = writer.tool("Ran: the orchard gate")
    holding, index = _floor_option(writer, monkeypatch, "holding", "orchard wobbles")
    assert holding([index[one], index[holder]]).tolist() == [1, 2]
    # a hyphenated word is counted by its parts, a row holding it whole too
    whole = writer.tool("Ran: fix the orchard-ladder")
    holding, index = _floor_option(writer, monkeypatch, "holding", "orchard-ladder slope")
    assert holding([index[holder], index[one], index[whole]]).tolist() == [3, 1, 2]


@pytest.mark.parametrize("query,need", [
    ("orchard wobbles", 1),                 # every word the home's
    ("orchard wobbles zeppelin", 2),        # a word no row holds, two held
    ("zeppelin orchard", 1),                # a word no row holds, one held: one is all
    ("zeppelin blimp", 1),                  # none held: a record holds none anyway
    ("orchard-ladder wobbles", 1),          # no row says "orchard-ladder", every part held
    ("orchard-zeppelin wobbles slope", 2),  # a part no row holds
])
def test_the_search_tells_the_floor_how_many_words_a_record_must_hold(writer, monkeypatch,
                                                                      query, need):
    """Two words of the question when it holds a word no row holds (a hyphenated word whose
    parts rows hold is no such word) and two the home holds; else one."""
    writer.tool("Ran: check the orchard ladder wobbles on the slope")
    needed, _ = _floor_option(writer, monkeypatch, "needed", query)
    assert needed() == need


def _git_commit(writer, sha: str, subject: str, *, url: str | None = None) -> str:
    """A commit row as `carto ingest git` writes it: the summary names the 7 characters, the
    40 are in `commit_hash` (and, with a GitHub remote, at the end of the one-word url)."""
    eid = f"git-{sha[:7]}"
    row = {"event_id": eid, "timestamp": writer._ts(1.0), "type": "git_commit", "project": "shop",
           "summary": f"Commit {sha[:7]}: {subject}", "commit_hash": sha, "author": "Alice",
           "files_changed": 0, "related_ids": []}
    if url:
        row["url"] = url
    append_rows(writer.home.log("changelog"), [order_row("changelog", row)])
    return eid


@pytest.mark.parametrize("remote", [False, True])
@pytest.mark.parametrize("length", [7, 8, 12, 39, 40])
def test_any_prefix_of_a_git_commit_rows_sha_finds_it(home_env, remote, length):
    """Commit rows of the git backfill name 7 characters in their summary and hold the 40 in
    `commit_hash`: 8..40 characters found nothing before `commit_hash` was indexed."""
    url = f"https://github.com/acme/shop/commit/{SHA}" if remote else None
    commit = _git_commit(home_env, SHA, "feat: discount codes for the basket", url=url)
    _git_commit(home_env, "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567", "feat: other")
    padding(home_env, 5)
    code, document, _ = search(SHA[:length])
    assert code == 0 and ids(document) == [commit]


@pytest.mark.parametrize("typed", [SHA[:8].replace("fdb", "fdc"), SHA.replace("fdb", "fdc")])
def test_a_sha_no_commit_row_holds_finds_nothing(home_env, typed):
    _git_commit(home_env, SHA, "feat: discount codes for the basket")
    padding(home_env, 5)
    code, document, _ = search(typed)
    assert code == 3 and ids(document) == []
    assert document["floor"]["unheld_words"] == [typed]
