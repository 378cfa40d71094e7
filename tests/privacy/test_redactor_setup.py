"""What a redactor sets up before its first text. A text of fewer than 512 characters reads
every needle in full, so it builds none of the gates that let a long text skip needles (which
needle holds which shorter one: some 400 needles, a few ms of every hook process); the gates a
long text builds are the ones their definition gives (the characters `=`, `:`, `-` a needle
holds, then the longest shorter needle it holds). A rule is compiled, and its opening rewritten
for JSON-escaped breaks, only when a text's needles, gate and start ask for it: a hook row's
ids, timestamp, paths and keys compile none. Narrower needles, a gate and a start find what the
rule found without them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.privacy import redact
from carto_core.privacy.redact import BUILTIN_RULES, Redactor, Rule, _after_escapes

SHORT = [
    ("npm test -- --grep parser", "npm test -- --grep parser", []),
    ("Ran: npm test -- --grep parser ", "Ran: npm test -- --grep parser ", []),
    ("/work/tmp/project/src/app.py", "/work/tmp/project/src/app.py", []),
    ("2026-12-06T20:33:15Z", "2026-12-06T20:33:15Z", []),
    ("export API_TOKEN=Zq8Wm2Lx9Rv4Tn7Pk3Hs", "export API_TOKEN=[REDACTED:secret-assignment]", ["secret-assignment"]),
]


def reference_gates(needle: str, needles: dict[str, int]) -> tuple[str, ...]:
    """The gates by their definition: every substring of `needle` looked up."""
    gates = [c for c in "=:-" if c in needle and c != needle]
    held = {needle[i:j] for i in range(len(needle)) for j in range(i + 1, len(needle) + 1)} & needles.keys()
    held.discard(needle)
    if held:
        gates.append(max(held, key=lambda other: (len(other), -needles[other])))
    return tuple(gates)


def builtin_needles() -> dict[str, int]:
    text: dict[str, int] = {}
    for rule in BUILTIN_RULES:
        if not rule.token:
            for needle in rule.needles:
                text.setdefault(needle, len(text))
    return text


def test_short_texts_build_no_gates(monkeypatch):
    built = []
    real = redact._gates_of
    monkeypatch.setattr(redact, "_gates_of", lambda *args: built.append(args[0]) or real(*args))
    redactor = Redactor()
    assert [(redactor.scan(text)) for text, _, _ in SHORT] == [(out, kinds) for _, out, kinds in SHORT]
    assert built == []


def test_a_long_text_builds_the_gates_once(monkeypatch):
    built = []
    real = redact._gates_of
    monkeypatch.setattr(redact, "_gates_of", lambda *args: built.append(args[0]) or real(*args))
    redactor = Redactor()
    text = "The parser reads the file once. " * 20 + "export API_TOKEN=Zq8Wm2Lx9Rv4Tn7Pk3Hs"
    for _ in range(2):
        assert redactor.scan(text) == ("The parser reads the file once. " * 20 + "export API_TOKEN=[REDACTED:secret-assignment]",
                                       ["secret-assignment"])
    assert sorted(built) == sorted(builtin_needles())


def test_every_builtin_needle_has_its_defined_gates():
    needles = builtin_needles()
    redactor = Redactor()
    _, text_needles, _ = redactor._index()
    gated = redactor._gated()
    assert [needle for needle, _ in text_needles] == [needle for needle, _, _ in gated]
    assert {needle: gates for needle, _, gates in gated} == {needle: reference_gates(needle, needles) for needle in needles}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab=:-", min_size=1, max_size=7), min_size=1, max_size=30, unique=True))
def test_gates_of_any_needles_are_the_defined_ones(words):
    needles = {word: place for place, word in enumerate(words)}
    heads = redact._needle_heads(needles)
    assert {word: redact._gates_of(word, needles, heads) for word in words} == \
        {word: reference_gates(word, needles) for word in words}


PROBE = """
import json, sys
from carto_core.privacy import redact
texts = json.loads(sys.argv[1])
out = [redact.redact_text(t) for t in texts]
rules = redact.default_redactor()._rules
compiled = sorted({r.kind for r in rules if r._compiled is not None})
rewritten = sum(1 for r in rules if isinstance(r.source, str) and not getattr(r, "escaped", False))
print(json.dumps({"out": out, "compiled": compiled, "rewritten": rewritten,
                  "gates": getattr(redact.default_redactor(), "_gates", 1) is not None}))
"""

#: The strings of a PostToolUse row for `npm test` (a command, its summary, ids, a timestamp,
#: paths of 20+ characters: long runs that hold `/`, `-` and `_`).
ROW = ["npm test -- --grep parser", "Ran: npm test -- --grep parser ", "evt-le671qg6db7t", "2026-12-06T20:33:15Z",
       "tool_bash", "/work/tmp/project/repo", "/work/tmp/project/t.jsonl", "toolu_01ABCdef234", "event_id", "timestamp",
       "provider", "summary", "project", "session", "transcript_path", "diff_shape", "salience", "parent_event_id",
       "tool_use_id", "related_ids"]


def test_a_hook_row_compiles_no_rule_rewrites_no_pattern_and_builds_no_gates(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path), "CARTO_HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(ROW)], capture_output=True, text=True, env=env,
                          check=True)
    assert json.loads(done.stdout) == {"out": ROW, "compiled": [], "rewritten": 0, "gates": False}


PAT = next(rule for rule in BUILTIN_RULES if rule.needles == ("_pat",))
#: The same rule run from the text's start (no question where `_PAT` is written first).
PAT_UNSTARTED = Rule(PAT.kind, _after_escapes(PAT._pattern()), PAT.needles, check="entropic")
PAT_TOKEN = "1nzcwrkp2b8t50vt00q79o95rits8djuaklzw5g0arrq6vy7q2xm"


def test_the_pat_rule_starts_where_pat_is_written_in_capitals():
    texts = [f"export AZURE_DEVOPS_EXT_PAT={PAT_TOKEN}", f'GH_PAT: "{PAT_TOKEN}"', f"\\nGH_PAT={PAT_TOKEN}",
             f"gh_pat={PAT_TOKEN}", f"transcript_path /x _PAT= GH_PAT={PAT_TOKEN} and MY_PAT = {PAT_TOKEN[::-1]}",
             f"_PAT={PAT_TOKEN}", "transcript_path", f"A_PAT={PAT_TOKEN[:10]}"]
    out = [PAT.apply(text, text.lower()) for text in texts]
    assert out == [PAT_UNSTARTED.apply(text, text.lower()) for text in texts]
    assert [kinds for _, kinds in out] == [["secret-assignment"], ["secret-assignment"], ["secret-assignment"], [],
                                           ["secret-assignment"] * 2, [], [], []]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["_PAT", "_pat", "GH", "A1", "=", ": ", "\\n", " ", "x", PAT_TOKEN, PAT_TOKEN[:12], '"']),
                max_size=12))
def test_the_pat_rule_finds_what_it_found_from_the_start(pieces):
    text = "".join(pieces)
    assert PAT.apply(text, text.lower()) == PAT_UNSTARTED.apply(text, text.lower())


def _alone(rule: Rule) -> Redactor:
    redactor = Redactor(builtin=False)
    redactor._rules = [rule]
    return redactor


def _as_before(kind: str, **changed) -> tuple[Redactor, Redactor]:
    """The built-in rule of `kind` (with a needle of its own) and the same rule as it was."""
    rule = next(r for r in BUILTIN_RULES if r.kind == kind and r.needles in (("0/", "1/", "2/"), ("_", "-")))
    options = {"token": rule.token, "words": rule.words, "check": rule.check, "gate": rule.gate.args[0] if rule.gate else None,
               "needles": rule.needles, **changed}
    needles = options.pop("needles")
    return _alone(rule), _alone(Rule(kind, _after_escapes(rule._pattern()), needles, **options))


ASANA = "1/1203456789012:0a1b2c3d4e5f60718293a4b5c6d7e8f9"
VENDOR = "figd_" + "Zq8Wm2Lx9Rv4Tn7Pk3HsYb6Uc1Jd5Ke0Gf"


def test_the_narrower_needles_and_the_gate_find_what_the_rules_found():
    texts = [f"asana token {ASANA} here", f'{{"pat": "{ASANA}"}}', f"\\n{ASANA}", f"x/{ASANA}", ASANA.replace("1/", "3/"),
             f"FIGMA={VENDOR}", f"token {VENDOR}\\n", VENDOR.lower(), "2026-12-06T20:33:15Z /work/tmp/project/t.jsonl"]
    for kind, changed in (("asana-token", {"needles": ("/",)}), ("api-token", {"gate": None})):
        now, before = _as_before(kind, **changed)
        assert [now.scan(text) for text in texts] == [before.scan(text) for text in texts]
    asana, _ = _as_before("asana-token")
    vendor, _ = _as_before("api-token")
    assert [asana.scan(text)[1] for text in texts[:5]] == [["asana-token"]] * 3 + [[], []]
    assert [vendor.scan(text)[1] for text in texts[5:]] == [["api-token"]] * 2 + [[], []]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["0/", "1/", "2/", "/", "1203456789012", ":", "0a1b2c3d4e5f60718293a4b5c6d7e8f9", "\\n", " ",
                                 "figd_", "-", "Zq8Wm2Lx9Rv4Tn7Pk3HsYb6Uc1Jd5Ke0Gf", "abc", '"']), max_size=10))
def test_the_narrower_needles_and_the_gate_find_what_the_rules_found_in_any_mix(pieces):
    text = "".join(pieces)
    for kind, changed in (("asana-token", {"needles": ("/",)}), ("api-token", {"gate": None})):
        now, before = _as_before(kind, **changed)
        assert now.scan(text) == before.scan(text)
