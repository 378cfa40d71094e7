"""The gate holds back on a small home as on a large one: everyday prompts are silent, what a
person said (prompts, turns) and other projects' rows must name something an everyday
instruction does not, and the current project's results come first. The home of about 30
events is `carto_core.evaluation.gatesizes`' (the issue's: the sample home's work, a year-old
`/init` turn of another project, everyday turns); the larger homes are the benchmark's."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from carto_core.evaluation import gatesizes
from carto_core.logio.home import Home
from carto_core.recall.gate import Gate, generic_terms

from .conftest import context_of, prompt_payload, run_hook

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def small_home(tmp_path_factory):
    return gatesizes.build_home(tmp_path_factory.mktemp("sizes") / "home", 30, now=NOW)


def test_every_generic_prompt_is_silent_on_a_home_of_thirty_events(small_home):
    result = gatesizes.evaluate(small_home, now=NOW.timestamp())
    assert result["documents"] < 40
    spoke = {name: tally["examples"] for name, tally in result["generic"].items() if tally["spoke"]}
    assert spoke == {}
    questions = result["questions"]
    assert questions["answered"] >= 5 and questions["irrelevant"] == []


def test_without_the_size_rule_the_same_home_speaks(small_home):
    """The fixture reproduces the issue: the gate as it was (no specific word asked of what
    people said or of other projects) injects the /init turn and everyday turns."""
    result = gatesizes.evaluate(small_home, now=NOW.timestamp(), gate=Gate(min_specific=0))
    spoke = sum(tally["spoke"] for tally in result["generic"].values())
    assert spoke >= 5
    examples = [ids for tally in result["generic"].values() for _, ids in tally["examples"]]
    assert any(i.startswith("turn-a9b1c2d3-0000-4000-8000-0000000b1069") for ids in examples for i in ids)


def test_through_the_hook_the_issues_prompts_are_silent_and_a_question_is_answered(small_home):
    for prompt in ("can you run the tests again please", "analyze this codebase and write docs"):
        done = run_hook(small_home.root, "claude", prompt_payload("new-session", prompt, cwd="/work/webshop"))
        assert done.returncode == 0 and done.stdout == b"", prompt
    done = run_hook(small_home.root, "claude",
                    prompt_payload("new-session", "why did the checkout total ignore the coupon with bundles?",
                                   cwd="/work/webshop"))
    context = context_of(done)
    assert context and "bundles" in context


def test_everyday_words_are_generic_and_a_domain_is_not():
    from carto_core.search import lite

    analyzer = lite.resolve_components().analyzer
    generic = generic_terms(analyzer)
    for word in ("tests", "again", "codebase", "docs", "readme", "please", "more", "the", "use", "used",
                 "using", "apply", "applied"):
        assert set(analyzer.terms(word)) <= generic, word
    for word in ("coupon", "cart", "discount", "terraform", "invoice", "quokka", "gateway"):
        assert not set(analyzer.terms(word)) & generic, word


def test_the_gate_counts_specific_terms_only_when_asked():
    gate = Gate()
    assert gate.min_specific == 1
    assert gate.clears(2.0, 0.0, ["a", "b"], None)    # the current project's work rows
    assert gate.clears(2.0, 0.0, ["a", "b"], 1)
    assert not gate.clears(2.0, 0.0, ["a", "b"], 0)   # only everyday words held


def _two_projects(root) -> Home:
    from carto_core.search.index import KeywordIndex

    root.mkdir(parents=True)
    rows = [
        {"event_id": "evt-other0000001", "timestamp": "2026-11-20T10:00:00Z", "type": "tool_file_edit",
         "summary": "Modified: src/ledger.py - the ledger reconciliation now matches payouts by batch "
                    "reference and settlement date", "project": "payments", "session_id": "s-pay",
         "salience": 0.9},
        {"event_id": "evt-own000000001", "timestamp": "2026-11-01T10:00:00Z", "type": "tool_file_edit",
         "summary": "Modified: src/recon.py - ledger reconciliation by batch reference",
         "project": "webshop", "session_id": "s-shop", "salience": 0.2},
    ]
    rows += [{"event_id": f"evt-noise{i:07d}", "timestamp": "2026-10-01T10:00:00Z", "type": "tool_bash",
              "summary": f"Ran: make target{i}", "project": "infra", "session_id": "s-noise"} for i in range(40)]
    (root / "changelog.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    home = Home(root)
    KeywordIndex.build(home)
    return home


def test_the_current_projects_results_come_first(tmp_path):
    from carto_core.recall.find import find
    from carto_core.search import lite
    from carto_core.search.index_view import IndexView

    home = _two_projects(tmp_path / "home")
    view = IndexView.open(home)
    components = lite.resolve_components()
    prompt = "how does the ledger reconciliation match payouts by batch reference and settlement date?"
    anywhere = [r.event_id for r in find(view, components, prompt, now=NOW.timestamp()).results]
    # without a project: the stronger one alone (the weaker is under FOLLOW of it)
    assert anywhere == ["evt-other0000001"]
    here = [r.event_id for r in find(view, components, prompt, now=NOW.timestamp(), project="webshop").results]
    assert here == ["evt-own000000001", "evt-other0000001"]
    there = [r.event_id for r in find(view, components, prompt, now=NOW.timestamp(), project="payments").results]
    assert there[0] == "evt-other0000001"
