"""Benchmark: the redactor's share of a Claude backfill, before and after a change to it.

Writes `benchmarks/backfill`'s synthetic `~/.claude/projects` tree, then, alternated run by
run in fresh processes, runs `run_ingest` with the `claude` source into an empty home with:

- `none`: redaction switched off (the floor: the parse, turns and writes alone);
- `before`: `src/carto_core/privacy/redact.py` and `redact_rules.py` at --before, loaded in place of
  today's modules;
- `after`: today's redactor.

Reports medians of wall time and of CPU time (user + system: steadier than wall time on a
loaded machine) as messages/s, and the after/before ratio. In-process, the same run times
both redactors alone on every text the backfill redacts (captured from one run), split into
long texts (> 256 characters, the memo's limit) and short ones.

Reproduce:  .venv/bin/python benchmarks/redact/bench_backfill_redact.py [--messages 30000]
            [--runs 5] [--before REV]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent / "backfill"))

from bench_backfill import write_tree  # noqa: E402

CHILD = r"""
import json, os, pickle, sys, tempfile, time
mode, old_dir, root, capture = sys.argv[1:5]
if mode == "before":
    sys.path.insert(0, old_dir)
    import carto_redact_before
    sys.modules["carto_core.privacy.redact"] = carto_redact_before
import carto_core.privacy.redact as redact
if mode == "none":
    redact.Redactor.value = lambda self, value, found=None, sink=None: value
    redact.clip = lambda text, limit, tail="": text if len(text) <= limit else text[: limit - len(tail)] + tail
seen = []
if capture != "-":
    scan = redact.Redactor.scan
    def recording(self, value, sink=None):
        seen.append(value)
        return scan(self, value, sink)
    redact.Redactor.scan = recording
from carto_claude.transcripts import ClaudeSource
from carto_core.logio.home import Home
from carto_core.ingest.runner import run_ingest
with tempfile.TemporaryDirectory() as home:
    wall, cpu = time.perf_counter(), time.process_time()
    summary = run_ingest(ClaudeSource({"roots": [root], "settle_seconds": 0}), Home(home))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
if capture != "-":
    with open(capture, "wb") as handle:
        pickle.dump(seen, handle)
print(json.dumps({"units": summary.units, "wall": wall, "cpu": cpu}))
"""

IN_PROCESS = r"""
import json, pickle, statistics, sys, time
old_dir, texts_path = sys.argv[1:3]
sys.path.insert(0, old_dir)
import carto_redact_before as before
import carto_core.privacy.redact as after
texts = pickle.load(open(texts_path, "rb"))
groups = {"long": [t for t in texts if len(t) > 256], "short": [t for t in texts if len(t) <= 256]}
out = {}
for group, items in groups.items():
    times = {"before": [], "after": []}
    for _ in range(7):
        for name, module in (("before", before), ("after", after)):
            redactor = module.Redactor()
            start = time.process_time()
            results = [redactor.text(t) for t in items]
            times[name].append(time.process_time() - start)
            out.setdefault(f"same_{group}", []).append(results)
    same = all(r == out[f"same_{group}"][0] for r in out[f"same_{group}"])
    del out[f"same_{group}"]
    out[group] = {"texts": len(items), "chars": sum(map(len, items)), "same_output": same,
                  **{name: statistics.median(v) for name, v in times.items()}}
print(json.dumps(out))
"""


def old_redactor(folder: Path, revision: str) -> None:
    """`carto_redact_before` (and its rule table) as they were at `revision`."""
    def show(path: str) -> str:
        return subprocess.run(["git", "show", f"{revision}:{path}"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout

    source = show("src/carto_core/privacy/redact.py")
    try:
        rules = show("src/carto_core/privacy/rules.py")
    except subprocess.CalledProcessError:
        rules = None
    if rules is not None:
        (folder / "carto_redact_rules_before.py").write_text(rules, "utf-8")
        source = source.replace("from carto_core.privacy.rules import", "from carto_redact_rules_before import")
    (folder / "carto_redact_before.py").write_text(source, "utf-8")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=30000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", default="HEAD", help="git revision of the redactor to compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        old_dir = tmp / "old"
        old_dir.mkdir()
        old_redactor(old_dir, args.before)
        root = tmp / "projects"
        write_tree(root, args.messages)
        env = {**os.environ}
        env.pop("PYTHONDONTWRITEBYTECODE", None)

        def child(mode: str, capture: str = "-") -> dict:
            done = subprocess.run([sys.executable, "-c", CHILD, mode, str(old_dir), str(root), capture],
                                  capture_output=True, text=True, env=env, check=True)
            return json.loads(done.stdout)

        texts = tmp / "texts.pkl"
        child("after", str(texts))  # warm-up, and the texts for the in-process comparison
        results: dict[str, list[dict]] = {"none": [], "before": [], "after": []}
        loads = [os.getloadavg()[0]]
        for run in range(args.runs):
            order = list(results) if run % 2 == 0 else list(reversed(results))
            for mode in order:
                results[mode].append(child(mode))
            loads.append(os.getloadavg()[0])
        alone = json.loads(subprocess.run([sys.executable, "-c", IN_PROCESS, str(old_dir), str(texts)],
                                          capture_output=True, text=True, env=env, check=True).stdout)
    units = results["after"][0]["units"]
    print(f"{units} messages, {args.runs} runs per variant (order alternated), before = {args.before}, "
          f"load average {min(loads):.1f}-{max(loads):.1f}")
    medians = {}
    for mode, runs in results.items():
        wall = statistics.median(r["wall"] for r in runs)
        cpu = statistics.median(r["cpu"] for r in runs)
        medians[mode] = (wall, cpu)
        print(f"  redaction {mode:<7} wall {wall:6.2f} s = {units / wall:8,.0f} msg/s   "
              f"cpu {cpu:6.2f} s = {units / cpu:8,.0f} msg/s")
    for mode in ("before", "after"):
        print(f"  {mode} / none: wall x{medians[mode][0] / medians['none'][0]:.2f}, "
              f"cpu x{medians[mode][1] / medians['none'][1]:.2f} (throughput {medians['none'][1] / medians[mode][1]:.2f})")
    print(f"  after / before: wall {medians['after'][0] / medians['before'][0]:.2f}, "
          f"cpu {medians['after'][1] / medians['before'][1]:.2f}")
    for group, figures in alone.items():
        print(f"  in-process, {figures['texts']} {group} texts ({figures['chars'] / 1e6:.1f} M chars): "
              f"before {figures['before'] * 1000:.0f} ms, after {figures['after'] * 1000:.0f} ms "
              f"(x{figures['after'] / figures['before']:.2f}); same output: {figures['same_output']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
