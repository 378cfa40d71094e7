"""Lines a person writes inside carto's section of MEMORY.md stay where they wrote them, among
carto's lines: a note under a decision is about that decision, and a rewrite that moved it above
the section (as one used to) put it next to nothing it was about. A carto bullet a person edited
is carto's and is written again."""

from __future__ import annotations

import pytest

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.lenses.memory import BEGIN, END, Item, Memory, rewritten, without_section


def _memory(decisions, preferences=()) -> Memory:
    memory = Memory("api")
    memory.sections = {"preferences": [Item(text, ids) for text, ids in preferences],
                       "decisions": [Item(text, ids) for text, ids in decisions]}
    return memory


KEEP = ("ship the api as a wheel", ["evt-d1"])
TAX = ("round tax after discounts", ["evt-d2"])
PNPM = ("always use pnpm", ["evt-p1"])


def _lines(text: str) -> list[str]:
    return text.split("\n")


def test_a_note_under_a_bullet_stays_under_it_when_the_section_is_rewritten():
    first = rewritten("", _memory([KEEP, TAX], [PNPM]))
    edited = first.replace("- round tax after discounts <!-- evt-d2 -->",
                           "- round tax after discounts <!-- evt-d2 -->\n"
                           "  (only for EU invoices: the US ones round per line)\n"
                           "\n"
                           "## Rounding (mine)\n"
                           "  see ticket FIN-12")
    edited = edited.replace("## Decisions (from wrapups)\n", "## Decisions (from wrapups)\nMy decisions are below.\n")
    # carto learns more: a new decision first, and the taxing one stated again by another wrapup
    memory = _memory([("publish to the internal index", ["evt-d3"]), KEEP,
                      ("round tax after discounts", ["evt-d2", "evt-d4"])], [PNPM])
    again = rewritten(edited, memory)
    lines = _lines(again)
    assert lines[0] == BEGIN and again.count(END) == 1
    heading = lines.index("## Decisions (from wrapups)")
    assert lines[heading + 1] == "My decisions are below."
    tax = next(n for n, line in enumerate(lines) if line.startswith("- round tax after discounts"))
    # their own heading is theirs too (carto's headings are its section titles)
    assert lines[tax + 1:tax + 5] == ["  (only for EU invoices: the US ones round per line)", "",
                                      "## Rounding (mine)", "  see ticket FIN-12"]
    assert lines[tax + 5] == END
    assert rewritten(again, memory) == again  # a second write changes nothing


def test_when_the_bullet_is_gone_the_note_goes_before_the_line_it_preceded_then_to_its_heading():
    first = rewritten("", _memory([KEEP, TAX], [PNPM]))
    edited = first.replace("- ship the api as a wheel <!-- evt-d1 -->",
                           "- ship the api as a wheel <!-- evt-d1 -->\nwheel note")
    # the decision it followed was retired: the note stays before the bullet it preceded
    gone = rewritten(edited, _memory([TAX], [PNPM]))
    lines = _lines(gone)
    assert lines[lines.index("wheel note") + 1].startswith("- round tax after discounts")
    # both neighbours gone: at the end of the heading it was under
    both = rewritten(edited, _memory([("vendor the parser", ["evt-d9"])], [PNPM]))
    lines = _lines(both)
    assert lines[lines.index("wheel note") - 2:lines.index("wheel note")] == [
        "## Decisions (from wrapups)", "- vendor the parser <!-- evt-d9 -->"]
    # the heading gone too: last in the section, just above the end marker
    none = rewritten(edited, _memory([], [PNPM]))
    lines = _lines(none)
    assert lines[lines.index("wheel note") + 1] == END


def test_an_edited_carto_bullet_is_written_again_and_the_note_after_it_stays():
    first = rewritten("", _memory([KEEP, TAX]))
    edited = first.replace("- ship the api as a wheel <!-- evt-d1 -->",
                           "- ship the api as an sdist <!-- evt-d1 -->\nwheel note")
    again = rewritten(edited, _memory([KEEP, TAX]))
    assert "as an sdist" not in again
    lines = _lines(again)
    assert lines[lines.index("wheel note") - 1] == "- ship the api as a wheel <!-- evt-d1 -->"


def test_removing_carto_section_keeps_the_persons_lines(tmp_path):
    text = "# mine\n\n" + rewritten("", _memory([KEEP])).replace(
        "<!-- evt-d1 -->\n", "<!-- evt-d1 -->\nwheel note\n") + "after\n"
    assert without_section(text) == "# mine\n\nwheel note\nafter\n"


@pytest.mark.parametrize("note", ["NOTE: not for gift cards",
                                  # a person's own comment is not carto's event ids
                                  "- not for gift cards <!-- mine -->"])
def test_carto_memory_write_keeps_a_note_where_it_was(tmp_path, note):
    from carto_core.evaluation.sample import build_sample_home

    home = build_sample_home(tmp_path / "h")
    target = tmp_path / "MEMORY.md"
    env = {"CARTO_HOME": str(home.root), "CARTO_SESSION_ID": "", "CLAUDE_CODE_SESSION_ID": ""}
    args = ["memory", "--project", "webshop", "--write", "--file", str(target)]
    assert CliRunner().invoke(cli, args, env=env).exit_code == 0
    lines = target.read_text().split("\n")
    bullet = next(n for n, line in enumerate(lines) if "apply discounts before tax" in line)
    lines.insert(bullet + 1, note)
    target.write_text("\n".join(lines))
    done = CliRunner().invoke(cli, args, env=env)
    assert done.exit_code == 0 and "unchanged" in done.output, done.output
    lines = target.read_text().split("\n")
    assert "apply discounts before tax" in lines[lines.index(note) - 1]
