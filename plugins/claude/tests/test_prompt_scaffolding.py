"""A user line that mixes injected scaffolding with text the human typed is a human prompt (it
starts a turn) and only the typed text is indexed; a line of scaffolding alone is not a prompt.
Mutation testing found `not all(is_scaffolding(...))` could become `not any(...)` with the whole
suite passing: no fixture mixed the two in one line."""

from __future__ import annotations

import json
import os
import time

import pytest

from carto_claude.transcripts import ClaudeSource, is_human_prompt, line_texts
from carto_core.logio.home import Home
from carto_core.ingest.runner import run_ingest

REMINDER = "<system-reminder>\nThe user opened the file src/cart.py in the IDE.\n</system-reminder>"


def user(blocks, n):
    return {"type": "user", "uuid": f"u{n}", "sessionId": "sess-m", "cwd": "/w/shop",
            "timestamp": f"2026-01-01T00:00:{n:02d}Z",
            "message": {"role": "user", "content": [{"type": "text", "text": b} for b in blocks]}}


def assistant(text, n):
    return {"type": "assistant", "uuid": f"u{n}", "sessionId": "sess-m", "cwd": "/w/shop",
            "timestamp": f"2026-01-01T00:00:{n:02d}Z",
            "message": {"role": "assistant", "id": f"msg_{n}", "content": [{"type": "text", "text": text}]}}


@pytest.mark.parametrize("blocks, human", [
    ([REMINDER, "fix the rounding in the cart total"], True),
    (["fix the rounding in the cart total", REMINDER], True),
    ([REMINDER], False),
    ([REMINDER, "<local-command-stdout>ok</local-command-stdout>"], False),
    (["   ", REMINDER], False),
])
def test_a_line_is_a_human_prompt_when_any_of_its_texts_was_typed(blocks, human):
    assert is_human_prompt(user(blocks, 1)) is human


def test_only_the_typed_text_of_a_mixed_prompt_is_indexed(tmp_path):
    assert line_texts(user([REMINDER, "fix the rounding"], 1)) == ["fix the rounding"]
    root = tmp_path / "projects" / "-w-shop"
    root.mkdir(parents=True)
    path = root / "sess-m.jsonl"
    lines = [user([REMINDER, "fix the rounding in the cart total"], 1), assistant("done: rounded half up", 2),
             user([REMINDER], 3), assistant("noted", 4),
             user(["now the coupon code"], 5), assistant("coupon fixed", 6)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    old = time.time() - 7200
    os.utime(path, (old, old))  # settled: every turn is closed
    home = Home(tmp_path / "home")
    run_ingest(ClaudeSource({"roots": [str(tmp_path / "projects")]}), home)
    turns = [json.loads(l) for l in (home.root / "turns.jsonl").read_text().splitlines()]
    # Two human prompts, two turns; the scaffolding-only line belongs to the first turn.
    assert [t["event_id"] for t in turns] == ["turn-sess-m-1", "turn-sess-m-2"]
    assert "fix the rounding in the cart total" in turns[0]["summary"]
    assert "noted" in turns[0]["summary"] and "system-reminder" not in turns[0]["summary"]
    assert "IDE" not in turns[0]["summary"]
    assert "coupon" in turns[1]["summary"]
