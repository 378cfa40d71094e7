"""carto's lines in its section of MEMORY.md are exactly the shapes `Item.line` and `render`
write; every other line is the person's and survives a rewrite byte for byte. A decision's ids
are the event ids of the wrapup rows that stated it, and a row another tool wrote may carry any
id ("FIN-12", "12345", "WRAP 3", "a, b"): carto's line citing one must still read as carto's
(else a rewrite keeps it as the person's next to carto's new line, and a forget leaves it), and
a person's "- Ship it <!-- FIN-12 -->" must still read as theirs."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from carto_core.lenses.memory import BEGIN, END, TITLES, Item, Memory, rewritten, section_of, without_section

#: ids another tool may write on its rows, and carto's own fallbacks (a milestone's name, an
#: empty parent id): none starts with a lowercase word and a hyphen.
THIRD_PARTY = ["FIN-12", "12345", "2026-05-01", "WRAP 3", "a, b", "x --> y", "<!-- carto:memory end -->",
               "", "session_wrapup", "Évt-1", 'say "hi"', "tab\there", "two\nlines", "back\\slash",
               "u\u2028v", "+3", "evt-1 +2"]


def _memory(decisions) -> Memory:
    memory = Memory("api")
    memory.sections = {"decisions": [Item(text, list(ids)) for text, ids in decisions]}
    return memory


def test_carto_s_lines_citing_a_third_party_s_ids_are_carto_s():
    decisions = [(f"decision {n}", [eid]) for n, eid in enumerate(THIRD_PARTY)]
    first = rewritten("", _memory(decisions + [("mixed", ["evt-d1", "FIN-13", "turn-a-1"])]))
    assert first.count(END) == 1 and first.endswith(END + "\n")
    assert section_of(first) == ("api", set(THIRD_PARTY) | {"evt-d1", "FIN-13", "turn-a-1"})
    theirs = "- Ship it <!-- FIN-12 -->"
    edited = first.replace("- mixed", theirs + "\n- mixed")
    assert section_of(edited) == section_of(first)
    later = rewritten(edited, _memory([("vendor the parser", ["evt-d9"])]))
    assert later.split("\n") == [BEGIN, "# api: what carto remembers",
                                 "Each line ends with the event ids it comes from (`carto search --get ID`).",
                                 "", "## Decisions (from wrapups)", "- vendor the parser <!-- evt-d9 -->",
                                 theirs, END, ""]
    assert without_section(edited) == theirs + "\n"
    assert rewritten(first, _memory(decisions + [("mixed", ["evt-d1", "FIN-13", "turn-a-1"])])) == first


def test_a_person_s_line_that_starts_as_carto_s_intro_or_placeholder_is_theirs():
    first = rewritten("", _memory([("keep", ["evt-d1"])]))
    theirs = ["Each line ends with a full stop, please.", "(nothing to remember yet, says Bob)",
              "(nothing recorded for this project yet: ask Bob)"]
    edited = first.replace("- keep <!-- evt-d1 -->", "- keep <!-- evt-d1 -->\n" + "\n".join(theirs))
    later = rewritten(edited, _memory([("keep", ["evt-d1"])]))
    assert later == edited
    assert without_section(edited) == "".join(line + "\n" for line in theirs)


#: The comment a bullet of carto's ends with, as docs/recall.md describes it: ids (a lowercase
#: word, a hyphen and more, no space, comma, < or >; any other id as a JSON string), ", "
#: between them, " +N" for those left out; or "carto profile".
_DOC_ID = r'(?:[a-z][a-z0-9_]*-[^\s,<>]+|"(?:[^"\\\x00-\x1f<>]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")'
_DOC_COMMENT = re.compile(rf"{_DOC_ID}(?:, {_DOC_ID})*(?: \+\d+)?|carto profile")

_WORDS = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=12)
_COMMENT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=16) \
    .filter(lambda c: "-->" not in c and not _DOC_COMMENT.fullmatch(c))


@st.composite
def _their_line(draw) -> str:
    """Any line of the person's: free text, or a bullet ending in a comment of theirs (an id of
    any shape that is not carto's), with no marker of carto's section in it."""
    kind = draw(st.sampled_from(["text", "bullet", "comment"]))
    if kind == "text":
        line = draw(_WORDS)
    else:
        line = ("- " if kind == "bullet" else "") + draw(_WORDS) + f" <!-- {draw(_COMMENT)} -->"
    return line


_THEIR_LINE = _their_line().filter(lambda line: line.strip() and "<!-- carto:memory" not in line
                                   and line.strip() not in {"## " + title for title in TITLES.values()}
                                   and not re.fullmatch(r"# .+: what carto remembers", line.strip()))
_ANY_ID = st.text(st.characters(blacklist_categories=("Cs",)), max_size=10)


@settings(max_examples=300, deadline=None)
@given(ids=st.lists(st.lists(_ANY_ID, min_size=1, max_size=7, unique=True), min_size=1, max_size=4),
       theirs=st.lists(_THEIR_LINE, min_size=1, max_size=4))
def test_carto_s_lines_are_recognised_and_a_person_s_survive_byte_for_byte(ids, theirs):
    first = rewritten("", _memory([(f"decision {n}", cited) for n, cited in enumerate(ids)]))
    assert section_of(first) == ("api", {i for cited in ids for i in cited[:5]})
    closing = first.index(END)
    edited = first[:closing] + "".join(line + "\n" for line in theirs) + first[closing:]
    assert section_of(edited) == section_of(first)
    assert without_section(edited) == "".join(line + "\n" for line in theirs)
    later = rewritten(edited, _memory([("vendor the parser", ["evt-d9"])]))
    lines = later.split("\n")
    assert lines[:6] == [BEGIN, "# api: what carto remembers",
                         "Each line ends with the event ids it comes from (`carto search --get ID`).",
                         "", "## Decisions (from wrapups)", "- vendor the parser <!-- evt-d9 -->"]
    assert lines[6:] == theirs + [END, ""]
