"""A bullet a person wrote inside carto's section may end with an HTML comment of their own
("<!-- mine -->", "<!-- TODO: ask finance -->"). Only a comment carto writes (its event ids, or
the profile's mark) makes a bullet carto's: a person's bullet taken for carto's was dropped on
the next write (carto rewrites its own lines), and a forget that removed the section lost it."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from carto_core.lenses.memory import END, Item, Memory, rewritten, without_section

KEEP = ("ship the api as a wheel", ["evt-d1"])
TAX = ("round tax after discounts", ["evt-d2"])

THEIRS = ["- ask Bob before changing the rounding <!-- mine -->",
          "- EU invoices only <!-- TODO: check with finance -->",
          "- pinned <!-- keep, do not touch -->",
          "- see the ticket <!-- FIN -->"]


def _memory(decisions) -> Memory:
    memory = Memory("api")
    memory.sections = {"decisions": [Item(text, ids) for text, ids in decisions]}
    return memory


def test_a_persons_bullets_ending_in_a_comment_stay_where_they_wrote_them():
    first = rewritten("", _memory([KEEP, TAX]))
    edited = first.replace("- round tax after discounts <!-- evt-d2 -->\n",
                           "- round tax after discounts <!-- evt-d2 -->\n" + "\n".join(THEIRS) + "\n")
    memory = _memory([("publish to the internal index", ["evt-d3"]), KEEP, ("round tax after discounts",
                                                                            ["evt-d2", "evt-d4"])])
    again = rewritten(edited, memory)
    lines = again.split("\n")
    tax = next(n for n, line in enumerate(lines) if line.startswith("- round tax after discounts"))
    assert lines[tax + 1:tax + 1 + len(THEIRS)] == THEIRS
    assert lines[tax + 1 + len(THEIRS)] == END
    assert rewritten(again, memory) == again
    # the decision they followed retired: they are still there, before the line they preceded
    gone = rewritten(edited, _memory([KEEP]))
    assert all(line in gone.split("\n") for line in THEIRS)


def test_removing_carto_section_keeps_a_persons_commented_bullet():
    text = rewritten("", _memory([KEEP])).replace(
        "<!-- evt-d1 -->\n", "<!-- evt-d1 -->\n" + THEIRS[0] + "\n")
    assert without_section(text) == THEIRS[0] + "\n"


def test_carto_own_bullets_are_still_carto_s():
    """Its ids (several, and the count of those left out), and the profile's mark."""
    many = _memory([("ship the api as a wheel", [f"evt-d{n}" for n in range(8)]), TAX])
    many.sections["profile"] = [Item("Active surface: api", [])]
    first = rewritten("", many)
    assert "evt-d4 +3 -->" in first and "<!-- carto profile -->" in first
    # everything carto wrote goes when the memory has nothing left to say
    later = rewritten(first, _memory([("vendor the parser", ["evt-d9"])]))
    assert "wheel" not in later and "round tax" not in later and "Active surface" not in later


# Event ids as carto's writers form them (hooks, turns of each provider, git, memory files,
# Hermes, Claude Desktop, a log's label for a row without one, an imported row's own): their
# bullets are carto's.
OUR_IDS = ["evt-k3j2h1g0f9e8", "turn-0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b-3",
           "turn-codex-019a2b3c-2", "turn-hermes-S1_x-42", "git-9f2c4e1",
           "memory-claude-0123456789ab", "hermes-plan-release-plan-1a2b3c4d",
           "desktop-prompt-0f1e2d3c", "evt-compact-summary-0123456789abcdef", "prompts-12",
           "milestone-quokkaflux", "turn-0f1e2d3c-1#12"]
#: A writer's word: lowercase, as every id's first part is. A person's comment that starts with
#: one ("see-below") cannot be told from carto's ids by its shape.
OUR_WORD = re.compile(r"[a-z][a-z0-9_]*")


def _with_theirs_after_tax(first: str, theirs: str) -> str:
    return first.replace("- round tax after discounts <!-- evt-d2 -->\n",
                         "- round tax after discounts <!-- evt-d2 -->\n" + theirs + "\n")


def test_a_persons_hyphenated_comment_is_not_an_event_id():
    from carto_core.lenses.memory import section_of

    theirs = "- Ship it <!-- FIN-12 -->"
    edited = _with_theirs_after_tax(rewritten("", _memory([KEEP, TAX])), theirs)
    assert section_of(edited) == ("api", {"evt-d1", "evt-d2"})
    again = rewritten(edited, _memory([KEEP, TAX]))
    lines = again.split("\n")
    assert lines[-4:] == ["- round tax after discounts <!-- evt-d2 -->", theirs, END, ""]
    assert rewritten(again, _memory([KEEP, TAX])) == again
    assert without_section(edited) == theirs + "\n"


@settings(max_examples=200, deadline=None)
@given(word=st.from_regex(r"[A-Za-z0-9_]{1,8}(?:-[A-Za-z0-9_.]{1,8}){1,3}", fullmatch=True)
       .filter(lambda w: not OUR_WORD.fullmatch(w.split("-")[0])))
def test_a_persons_comment_of_one_hyphenated_word_stays_theirs(word):
    from carto_core.lenses.memory import section_of

    theirs = f"- Ship it <!-- {word} -->"
    edited = _with_theirs_after_tax(rewritten("", _memory([KEEP, TAX])), theirs)
    assert section_of(edited) == ("api", {"evt-d1", "evt-d2"})
    # carto learns a new decision and the old ones' ids grow: their bullet stays under tax
    memory = _memory([("publish to the internal index", ["evt-d3"]), KEEP,
                      ("round tax after discounts", ["evt-d2", "evt-d4"])])
    lines = rewritten(edited, memory).split("\n")
    assert lines[-4:] == ["- round tax after discounts <!-- evt-d2, evt-d4 -->", theirs, END, ""]
    assert without_section(edited) == theirs + "\n"


def test_carto_bullets_citing_every_writers_ids_are_carto_s():
    from carto_core.lenses.memory import section_of

    first = rewritten("", _memory([(f"decision {n}", [eid]) for n, eid in enumerate(OUR_IDS)]))
    assert section_of(first) == ("api", set(OUR_IDS))
    later = rewritten(first, _memory([("vendor the parser", ["evt-d9"])]))
    assert "decision" not in later and "<!-- evt-d9 -->" in later
