"""A row another tool wrote may carry no usable `event_id` (none, a number, "unknown"). Every
reader of the corpus names such a row by its log and line (`milestones-3`, `Event.from_row`'s
fallback), and `carto search --get` finds it by that name: the decision ledger and MEMORY.md cite
it by the same name. A line of MEMORY.md with no ids is a profile line (`<!-- carto profile -->`):
a decision written so was misread as the owner's profile, and replaced by a profile line."""

from __future__ import annotations

import json

from carto_core.lenses.memory import build_memory, has_profile_lines, render, rewritten, section_of
from carto_core.lenses.profile import build_profile, write_profile
from carto_core.logio.home import Home
from carto_core.model import decisions
from carto_core.model.corpus import load_corpus


def _wrapup(day: int, decision: str, **extra) -> dict:
    return {**extra, "timestamp": f"2026-11-0{day}T10:05:00Z", "milestone": "session_wrapup",
            "provider": "claude", "description": f"wrapup {day}", "session_id": f"s{day}",
            "project": "webshop", "cwd": "/work/webshop", "decisions": [decision],
            "unresolved": ["what about refunds"] if day == 1 else [], "key_insight": ""}


def _home(tmp_path) -> Home:
    home = Home(tmp_path / "h")
    home.root.mkdir()
    rows = [_wrapup(1, "apply discounts before tax"),                      # no event_id
            _wrapup(2, "round half up", event_id=42),                      # not a string
            _wrapup(3, "keep prices in cents", event_id="unknown"),        # a reader's sentinel
            _wrapup(4, "vendor the tax tables", event_id="evt-w4")]
    home.log("milestones").write_text("".join(json.dumps(row) + "\n" for row in rows))
    prompt = {"timestamp": "2026-11-01T10:00:00Z", "type": "prompt", "provider": "claude",
              "session_id": "s1", "project": "webshop", "cwd": "/work/webshop",
              "summary": "From now on always run the tests before you commit."}
    home.log("prompts").write_text(json.dumps({"event_id": "evt-p0", **prompt, "summary": "hello"}) + "\n"
                                   + json.dumps(prompt) + "\n")
    return home


def test_a_row_without_an_event_id_is_cited_by_the_name_every_reader_gives_it(tmp_path):
    home = _home(tmp_path)
    ledger = decisions.load(home)
    assert {r.text: r.sources for r in ledger.records.values()} == {
        "apply discounts before tax": ["milestones-1"], "what about refunds": ["milestones-1"],
        "round half up": ["milestones-2"], "keep prices in cents": ["milestones-3"],
        "vendor the tax tables": ["evt-w4"]}
    # the name `carto search --get` finds the row by
    corpus = load_corpus(home, ["milestones", "prompts"])
    for name, description in (("milestones-1", "wrapup 1"), ("milestones-2", "wrapup 2"),
                              ("milestones-3", "wrapup 3")):
        assert corpus.by_id[name].row["description"] == description
    assert corpus.by_id["prompts-2"].row["summary"].startswith("From now on")

    text = render(build_memory(home, "webshop"))
    lines = text.split("\n")
    assert lines[3:] == [
        "", "## Standing preferences (from prompts)",
        "- From now on always run the tests before you commit. <!-- prompts-2 -->",
        "", "## Decisions (from wrapups)",
        "- vendor the tax tables (2026-11-04) <!-- evt-w4 -->",
        "- keep prices in cents (2026-11-03) <!-- milestones-3 -->",
        "- round half up (2026-11-02) <!-- milestones-2 -->",
        "- apply discounts before tax (2026-11-01) <!-- milestones-1 -->",
        "", "## Open threads (from wrapups)",
        "- what about refunds (open since 2026-11-01) <!-- milestones-1 -->",
        "<!-- carto:memory end -->", ""]
    assert not has_profile_lines(text)
    assert section_of(text) == ("webshop", {"prompts-2", "evt-w4", "milestones-1", "milestones-2", "milestones-3"})


def test_a_rewrite_with_the_profile_keeps_each_decision_and_the_persons_line_after_it(tmp_path):
    home = _home(tmp_path)
    first = rewritten("", build_memory(home, "webshop"))
    mine = "  (the tax office asked for this)"
    edited = first.replace("- round half up (2026-11-02) <!-- milestones-2 -->",
                           "- round half up (2026-11-02) <!-- milestones-2 -->\n" + mine)
    write_profile(home, build_profile(home))
    later = rewritten(edited, build_memory(home, "webshop"))
    lines = later.split("\n")
    decided = lines.index("## Decisions (from wrapups)")
    assert lines[decided + 1:decided + 7] == [
        "- vendor the tax tables (2026-11-04) <!-- evt-w4 -->",
        "- keep prices in cents (2026-11-03) <!-- milestones-3 -->",
        "- round half up (2026-11-02) <!-- milestones-2 -->", mine,
        "- apply discounts before tax (2026-11-01) <!-- milestones-1 -->", ""]
    profile = [line for line in lines if line.endswith("<!-- carto profile -->")]
    assert profile and all(line.startswith("- Active surface: ") or line.startswith("- Work shape: ")
                           or line.startswith("- Cadence: ") for line in profile)


def test_a_line_with_no_ids_is_written_only_in_the_profiles_section():
    from carto_core.lenses.memory import Item, Memory

    memory = Memory("api")
    memory.sections = {"decisions": [Item("no evidence", []), Item("ship it", ["evt-1"])],
                       "threads": [Item("no evidence either", [])],
                       "profile": [Item("Active surface: api", [])]}
    assert render(memory).split("\n")[3:] == [
        "", "## Decisions (from wrapups)", "- ship it <!-- evt-1 -->",
        "", "## The owner's work across projects (carto profile)",
        "- Active surface: api <!-- carto profile -->", "<!-- carto:memory end -->", ""]
