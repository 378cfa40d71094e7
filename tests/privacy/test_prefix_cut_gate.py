"""The prefix-cut rule (a line break inside a token's prefix, `sk_li` then `ve_…`) builds and
compiles its pattern of prefix heads only for a text that may hold such a token: a hook process
redacting ordinary text (a command, prose, a path, a JSON-escaped tool output) never builds it.
The text is asked first whether some prefix is whole once its breaks are taken out; the rule's
results are the same as without that question (`tests/privacy/test_prefix_cuts.py` holds the
cases themselves)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.privacy.redact import BUILTIN_RULES, Rule, _after_escapes
from carto_core.privacy.rules import CUT_PREFIXES, prefix_cut

from tests.privacy.shapes import cut_tokens

TOKENS = cut_tokens()
GATED = next(rule for rule in BUILTIN_RULES if rule.kind == "cut-token")
#: The same rule without the question asked first.
UNGATED = Rule("cut-token", _after_escapes(prefix_cut()), GATED.needles, check="prefix_cut")

ORDINARY = [
    "npm test",
    "git status --short && git diff --stat",
    "The change moves the parser into its own module and adds a test for the empty case. A do-over.",
    '{"stdout": "collected 12 items\\n\\ntests/test_a.py ........\\n\\n12 passed in 0.41s", "exit": 0}',
    "and do sh gh A ey hf: the heads of prefixes as words, each followed by a space",
    "/work/main/src/carto_core/privacy/redact.py:712: in check_prefix_cut",
]

PROBE = """
import json, sys
from carto_core.privacy import redact, rules
rule = next(r for r in redact.BUILTIN_RULES if r.kind == "cut-token")
texts = json.loads(sys.argv[1])
out = [redact.redact_text(t) for t in texts]
print(json.dumps({"out": out, "compiled": rule._compiled is not None, "built": rules._PREFIX_CUT is not None}))
"""


def _probe(texts: list[str], tmp_path) -> dict:
    env = {**os.environ, "HOME": str(tmp_path), "CARTO_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(texts)], capture_output=True, text=True, env=env,
                          check=True)
    return json.loads(done.stdout)


def test_ordinary_text_never_builds_the_pattern(tmp_path):
    found = _probe(ORDINARY, tmp_path)
    assert found == {"out": ORDINARY, "compiled": False, "built": False}


def test_a_text_holding_a_cut_prefix_builds_it_and_is_redacted(tmp_path):
    token, kind, _, _ = TOKENS["ghp"]
    text = "the key: " + token[:2] + "\n" + token[2:] + ", done"
    found = _probe(ORDINARY + [text], tmp_path)
    assert found == {"out": ORDINARY + [f"the key: [REDACTED:{kind}], done"], "compiled": True, "built": True}


def _apply(rule: Rule, text: str) -> tuple[str, list[str]]:
    return rule.apply(text, text.lower())


#: Every form a break inside a prefix is held in (`LINE_CUT`), JSON-escaped twice too.
BREAKS = ("\n", "\r\n", "\n  ", "\n\t", " ", "   ", "\\n", "\\r\\n", "\\\\n", "\\\\r\\\\n", "\r\\n", "\\r\n")
#: What may stand before the head: a word's start, punctuation, an escape (whose letter may be
#: the head's own first one: `\\nsec1…` is `\\n` then `sec1…`, or a backslash then `nsec1…`).
BEFORE = ("", "key: ", "(", '"', "x.", "a_", "\\", "\\n", "\\\\r", "\\t", "C:\\", "n", "word ")


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(TOKENS)), st.integers(1, 15), st.sampled_from(BREAKS), st.sampled_from(BEFORE),
       st.sampled_from(("", ", done", "\n", "\\n next", " then")))
def test_the_gate_changes_no_result(name, at, cut, before, after):
    token = TOKENS[name][0]
    prefix = next(p for p in sorted(CUT_PREFIXES, key=len, reverse=True) if token.startswith(p))
    at = min(at, len(prefix) - 1)
    text = before + token[:at] + cut + token[at:] + after
    assert _apply(GATED, text) == _apply(UNGATED, text)


@pytest.mark.parametrize("prefix", CUT_PREFIXES)
def test_every_prefix_cut_anywhere_is_let_through(prefix):
    """A body of each family's characters after every prefix, cut at every place, in every
    break form: the question never stops a text the rule would change."""
    body = "Zx8Kq2Lm9Np4Rs7Tv1Wy3Ab6Cd0Ef5Gh2Jk4" * 3
    for at in range(1, len(prefix)):
        for cut in BREAKS:
            for before in BEFORE:
                text = before + prefix[:at] + cut + prefix[at:] + body
                assert _apply(GATED, text) == _apply(UNGATED, text), (text,)



_PIECES = tuple({p[:at] for p in CUT_PREFIXES for at in range(1, len(p))} | {p[at:] for p in CUT_PREFIXES for at in range(1, len(p))}) \
    + BREAKS + ("\\", "n", "r", "t", "KIA", "the ", ", ", '"')


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(sorted(_PIECES)), max_size=6), st.sampled_from(sorted(TOKENS)), st.integers(1, 15),
       st.sampled_from(BREAKS), st.lists(st.sampled_from(sorted(_PIECES)), max_size=6))
def test_the_gate_changes_no_result_among_heads_tails_and_breaks(before, name, at, cut, after):
    """A cut token among pieces of prefixes, breaks, backslashes and escape letters."""
    token = TOKENS[name][0]
    at = min(at, TOKENS[name][2] - 1)
    text = "".join(before) + token[:at] + cut + token[at:] + "".join(after)
    assert _apply(GATED, text) == _apply(UNGATED, text)
