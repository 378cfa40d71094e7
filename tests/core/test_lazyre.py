"""`carto_core.util.lazyre`: patterns compiled on first use."""

from __future__ import annotations

import re

from carto_core.util.lazyre import FirstUse, Lazy


def test_lazy_compiles_once_on_first_use_and_answers_as_the_pattern():
    lazy = Lazy(r"[a-z]+(\d)")
    assert lazy.compiled is None
    assert lazy.match("abc7").group(1) == "7"
    first = lazy.compiled
    assert isinstance(first, re.Pattern) and lazy.findall("a1 b2") == ["1", "2"]
    assert lazy.compiled is first


def test_first_use_puts_the_compiled_pattern_in_its_own_place():
    namespace: dict = {}
    namespace["WORD"] = FirstUse(namespace, "WORD", r"[A-Z][a-z]+", re.ASCII)
    assert type(namespace["WORD"]) is FirstUse
    assert namespace["WORD"].findall("Ab cd Ef") == ["Ab", "Ef"]
    compiled = namespace["WORD"]
    assert isinstance(compiled, re.Pattern) and compiled.flags & re.ASCII
    assert compiled.pattern == r"[A-Z][a-z]+" and compiled.findall("Gh") == ["Gh"]
