"""A bullet a person wrote inside carto's section may end with an HTML comment of their own
("<!-- mine -->", "<!-- TODO: ask finance -->"). Only a comment carto writes (its event ids, or
the profile's mark) makes a bullet carto's: a person's bullet taken for carto's was dropped on
the next write (carto rewrites its own lines), and a forget that removed the section lost it."""

from __future__ import annotations

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
