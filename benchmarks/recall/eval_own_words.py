"""Precision and recall of MEMORY.md's standing preferences on hand-labelled prompts.

    .venv/bin/python benchmarks/recall/eval_own_words.py [--flat] [--show]

`own_words.jsonl`: one prompt a line, `preferences` the sentences of it that are the owner's
own rules (what `carto_core.lenses.ownwords.preference_sentences` should return), `kind` what
the prompt is (owner, question, pasted, reported, sourced, task, tags). A returned sentence
that is not labelled is a false positive: someone else's sentence in front of every later
session. `--flat` asks each prompt as carto's hooks store it (on one line).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from carto_core.lenses.ownwords import preference_sentences  # noqa: E402

SET = Path(__file__).with_name("own_words.jsonl")


def evaluate(flat: bool = False, show: bool = False) -> dict:
    found_n = right_n = wanted_n = 0
    for line in SET.read_text("utf-8").splitlines():
        case = json.loads(line)
        prompt = " ".join(case["prompt"].split()) if flat else case["prompt"]
        found = preference_sentences(prompt)
        wanted = case["preferences"]
        right = [s for s in found if s in wanted]
        found_n, right_n, wanted_n = found_n + len(found), right_n + len(right), wanted_n + len(wanted)
        if show and (len(right) != len(found) or len(right) != len(wanted)):
            print(f"{case['kind']:9} found {found} wanted {wanted}\n          {prompt[:120]!r}")
    return {"prompts": len(SET.read_text("utf-8").splitlines()), "flat": flat,
            "precision": round(right_n / found_n, 2) if found_n else 1.0,
            "recall": round(right_n / wanted_n, 2) if wanted_n else 1.0,
            "returned": found_n, "right": right_n, "labelled": wanted_n}


if __name__ == "__main__":
    print(json.dumps(evaluate("--flat" in sys.argv, "--show" in sys.argv)))
