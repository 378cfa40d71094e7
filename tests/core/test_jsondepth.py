"""Deep JSON is measured and cut without recursion (`carto_core.util.jsondepth`), so a hook
payload nested 1,000 or 100,000 levels deep keeps its row (the deep value becomes a string
saying so), and the explorer answers such a body with a 400 instead of a 500."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.util.jsondepth import CUT_TEXT, MAX_DEPTH, cut_deep, deeper_than, depth

CARTO = [sys.executable, "-m", "carto_core"]

LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(alphabet='ab[]{}"\\,: ', max_size=6))
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(alphabet="k[{", max_size=3), inner, max_size=3)),
    max_leaves=25)


def reference_depth(value) -> int:
    if isinstance(value, list):
        return 1 + max((reference_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((reference_depth(v) for v in value.values()), default=0)
    return 0


def reference_cut(value, limit: int, level: int = 0):
    if isinstance(value, (list, dict)) and level == limit:
        return CUT_TEXT.format(limit=limit)
    if isinstance(value, list):
        return [reference_cut(v, limit, level + 1) for v in value]
    if isinstance(value, dict):
        return {k: reference_cut(v, limit, level + 1) for k, v in value.items()}
    return value


@settings(max_examples=500, deadline=None, derandomize=True)
@given(VALUES, st.integers(0, 4), st.booleans())
def test_depth_and_cut_match_the_value(value, limit, indent):
    text = json.dumps(value, indent=2 if indent else None)
    assert depth(text) == reference_depth(value)
    assert deeper_than(text, limit) is (reference_depth(value) > limit)
    assert json.loads(cut_deep(text, limit)) == reference_cut(value, limit)


def test_brackets_in_strings_do_not_count():
    text = json.dumps({"a": "[[[[{{{{", "b": ["\\\"[", {"c": "]]]"}]})
    assert depth(text) == 3 and cut_deep(text, 3) == text


def test_a_hundred_thousand_levels_are_cut_without_recursion():
    text = '{"keep": 1, "deep": ' + "[" * 100_000 + "1" + "]" * 100_000 + "}"
    assert json.loads(cut_deep(text, MAX_DEPTH))["keep"] == 1
    assert depth(text) == 100_001


def _hook(home, payload: str) -> None:
    env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0"}
    done = subprocess.run([*CARTO, "hook", "claude", "PostToolUse"], input=payload.encode(),
                          capture_output=True, env=env, timeout=120)
    assert done.returncode == 0


def test_a_deep_payload_keeps_its_row(tmp_path):
    home = tmp_path / "home"
    for levels in (1_000, 100_000):
        deep = "[" * levels + '"leaf"' + "]" * levels
        _hook(home, '{"session_id": "s-deep", "cwd": "/src/app", "hook_event_name": "PostToolUse", '
                    '"tool_name": "Bash", "tool_input": {"command": "make test ' + str(levels)
                    + '", "extra": ' + deep + '}, "tool_response": {"stdout": "ok"}}')
    log = home / ".carto" / "hook.log"
    assert not log.exists(), log.read_text()
    rows = [json.loads(line) for line in (home / "tool-use-log.jsonl").read_text().splitlines()]
    assert [r["summary"] for r in rows] == ["Ran: make test 1000 ", "Ran: make test 100000 "]  # upstream's trailing space
