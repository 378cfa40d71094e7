"""Table headers read back as TOML reads them (`carto_core.util.tomltext.header_parts`): the
Codex trust edits and the MCP install find a table by its header, so a key holding a quote, a
backslash, a `]` or a space must come back as written."""

from __future__ import annotations

import tomllib

from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.util.tomltext import header_parts, toml_string

#: Any key TOML can hold in a basic string (no surrogates; controls are escaped by toml_string).
keys = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=20)
bare = st.from_regex(r"[A-Za-z0-9_-]{1,8}", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(path=st.lists(st.one_of(keys, bare), min_size=1, max_size=4),
       quoted=st.booleans(), array=st.booleans(), comment=st.booleans())
def test_a_header_reads_back_as_tomllib_reads_it(path, quoted, array, comment):
    def key(part):
        return part if not quoted and all(c.isascii() and (c.isalnum() or c in "_-")
                                          for c in part) and part else toml_string(part)

    dotted = " . ".join(key(p) for p in path)
    header = f"[[{dotted}]]" if array else f"[{dotted}]"
    line = header + ("  # a comment ] with [ brackets" if comment else "") + "\n"
    document = tomllib.loads(line + "x = 1\n")
    for part in path[:-1]:
        document = document[part]
    node = document[path[-1]]
    assert (node[0] if array else node) == {"x": 1}
    assert header_parts(line) == path


def test_escapes_and_what_is_no_header():
    assert header_parts('[hooks.state."\\""]') == ["hooks", "state", '"']
    assert header_parts('[a."\\u00e9\\\\"]') == ["a", "\u00e9\\"]
    assert header_parts("[a.'lit\\']") == ["a", "lit\\"]
    assert header_parts('[a."x]"]') == ["a", "x]"]
    assert header_parts('[a." "]') == ["a", " "]
    for line in ("a = 1", "[a] x", "[a", '[a."b]', "[a.]", "[[a]", "", "# [a]"):
        assert header_parts(line) is None, line
