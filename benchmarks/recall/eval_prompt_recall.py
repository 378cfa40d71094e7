"""The prompt-recall table of docs/ranking.md: precision of what the UserPromptSubmit recall
injects and how often it stays silent, for a sweep of gates, on the conversational-recall set.

Sets (generated, deterministic, one fixed clock): dialogues variant a (one row per utterance,
among 6,000 events of coding work) and variant b (carto turn rows, no coding work), seeds 1-3
to choose the gate and seeds 4-6 held out to check it, and variant c (written apart from a and
b: other topics, lengths and session layouts; among 2,000 coding events) seeds 1-3, the check
that a gate chosen on a and b holds on text it was not chosen on; every home also gets the
generic prompts of `carto_core.evaluation.promptrecall.GENERIC_PROMPTS` (all of them should
stay silent).

Usage (repository root):

    .venv/bin/python benchmarks/recall/eval_prompt_recall.py --out /tmp/prompt-recall
    .venv/bin/python benchmarks/recall/eval_prompt_recall.py --out /tmp/prompt-recall --only default

Results: markdown on stdout, JSON in <out>/results.json.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
CHOOSE, HELD_OUT = (1, 2, 3), (4, 5, 6)
PARTS = ("choose", "held-out", "c")


def build_homes(out: Path) -> dict:
    from carto_core.evaluation import agecurve
    from carto_core.evaluation.dialogues import dialogue_home

    homes = {}
    for variant, seeds in (("a", CHOOSE + HELD_OUT), ("b", CHOOSE + HELD_OUT), ("c", CHOOSE)):
        for seed in seeds:
            root = dialogue_home(out / f"dlg-{variant}-{seed}", variant=variant, seed=seed, now=NOW)
            homes[(variant, seed)] = (root, agecurve.read_cases(root / "cases.jsonl"))
    return homes


def gates(only: str | None) -> dict:
    from carto_core.recall.gate import Gate

    if only == "default":
        # and the gate without its size rule (no specific word asked of what people said)
        return {"default": Gate(), "min_specific=0": Gate(min_specific=0)}
    out = {"default": Gate()}
    for share, margin, coverage, terms, follow in itertools.product(
            (0.01, 0.02, 0.05), (-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0), (0.0, 0.5, 0.7, 1.0), (1, 2),
            (0.0, 0.8)):
        out[f"share={share} margin={margin} coverage={coverage} min_terms={terms} follow={follow}"] = Gate(
            share=share, margin=margin, coverage=coverage, min_terms=terms, follow=follow)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/prompt-recall"))
    parser.add_argument("--only", default=None,
                        help="'default': the shipped gate (and it without its size rule) alone")
    args = parser.parse_args(argv)
    import os

    os.environ.setdefault("CARTO_SEMANTIC", "0")
    from carto_core.evaluation.promptrecall import Tally, evaluate_home

    args.out.mkdir(parents=True, exist_ok=True)
    homes = build_homes(args.out)
    chosen = gates(args.only)
    totals = {part: {name: Tally() for name in chosen} for part in PARTS}
    per_variant = {}
    started = time.time()
    for (variant, seed), (root, cases) in sorted(homes.items()):
        part = "c" if variant == "c" else "choose" if seed in CHOOSE else "held-out"
        os.environ["CARTO_HOME"] = str(root)
        result = evaluate_home(root, cases, chosen, now=NOW.timestamp())
        for name, tally in result.items():
            totals[part][name].add(tally)
            per_variant.setdefault((part, variant, name), Tally()).add(tally)
        print(f"  {root.name}: {len(cases)} cases, {time.time() - started:.0f} s", file=sys.stderr)
    doc = {"now": NOW.isoformat(), "gates": {}, "variants": {}}
    for name, gate in chosen.items():
        doc["gates"][name] = {"params": vars(gate), **{part: totals[part][name].summary()
                                                      for part in totals}}
    for (part, variant, name), tally in per_variant.items():
        doc["variants"].setdefault(name, {}).setdefault(part, {})[variant] = tally.summary()
    (args.out / "results.json").write_text(json.dumps(doc, indent=1), "utf-8")
    def ok(name):
        s = doc["gates"][name]["choose"]
        return (s["precision"] or 0) >= 0.8 and s["generic_silent"] == 1.0

    def key(name):
        s = doc["gates"][name]["choose"]
        return (-(s["any_relevant"] or 0), -(s["first_relevant"] or 0), -(s["precision"] or 0))

    admissible = sorted((n for n in chosen if ok(n)), key=key)
    doc["admissible"] = admissible
    doc["best"] = admissible[0] if admissible else None
    (args.out / "results.json").write_text(json.dumps(doc, indent=1), "utf-8")
    print(f"gates: {len(chosen)}; precision >= 0.8 and every generic prompt silent (seeds "
          f"{CHOOSE}): {len(admissible)}; best: {doc['best']}")
    print("| gate | set | questions | precision | silent on questions | first relevant | any relevant | generic silent |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    shown = (["default"] if "default" in chosen else []) + [n for n in admissible[:12] if n != "default"]
    if len(chosen) > 1:
        shown += [n for n in sorted(chosen, key=key)[:5] if n not in shown]  # the best, gate aside
    for name in shown:
        for part in PARTS:
            s = doc["gates"][name][part]
            print(f"| {name} | {part} | {s['questions']} | {s['precision']} | {s['silent']} | "
                  f"{s['first_relevant']} | {s['any_relevant']} | {s['generic_silent']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
