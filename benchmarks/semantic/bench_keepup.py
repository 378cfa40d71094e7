"""The keep-up step at scale: `carto index --step semantic` after 1,000 events are appended to
a home whose store already holds a year (docs/performance.md, "The keep-up step at a million
events").

BASE is a home of `benchmarks/scale/corpus.py` whose semantic index is built (a complete run:
its `semantic-index.json` recorded). Each round, for each variant in turn, a working copy is
made (the logs copied, since they are appended to; the store's immutable segment files
hard-linked, every other file copied: BASE is never changed), the same 1,000 events appended
(`corpus.append`, the same seed every time), and `carto index --step semantic --json` run as a
new process: wall, CPU (user + system of the child) and peak RSS from `os.wait4`, the report's
counts, and the ids the gate rejected. Variants:

- `base`: the revision `--base` (default: main) exported with `git archive` and put first on
  PYTHONPATH: today's code, in the same run;
- `all`: this tree with `CARTO_NOVELTY_GATE_WINDOW=all` (the gate reads every stored row);
- `window`: this tree as configured (the gate reads its newest segments).

Also printed: how many of `all`'s rejects `window` made as well (the gate decisions the window
changes). Medians over `--rounds`; run it under `nice -n 10` on a shared machine:

    nice -n 10 .venv/bin/python benchmarks/semantic/bench_keepup.py BASE --workdir W --rounds 2

`--series N` measures what one run cannot: the store's compaction over time. Each variant gets
one working copy and N keep-up runs in a row, each after its own 1,000 appended events (seed,
seed + 1, ...), variants interleaved run by run; printed per run as it goes, then the median,
mean and largest CPU and peak RSS per run and the store's segments at the end:

    nice -n 10 .venv/bin/python benchmarks/semantic/bench_keepup.py BASE --workdir W \
        --series 64 --variants base,window
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "benchmarks" / "scale"))
import corpus  # noqa: E402
from bench_scale import CARTO, child_env, measured  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from revision import export, pythonpath  # noqa: E402


def log_name(label: str) -> str:
    from carto_core.logio.home import Home

    return Home("/").log(label).name


def working_copy(base: Path, target: Path) -> None:
    """The logs copied, `.carto/vectors/seg-*` files hard-linked (never written in place),
    the rest of `.carto` copied; the keyword and facts caches left out (not this step's); the
    semantic state's log identities re-pointed at the copies."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for path in base.glob("*.jsonl"):
        shutil.copy(path, target / path.name)
    state = base / ".carto"
    for path in state.rglob("*"):
        relative = path.relative_to(state)
        if relative.parts[0] in ("search", "facts") or path.is_dir():
            continue
        out = target / ".carto" / relative
        out.parent.mkdir(parents=True, exist_ok=True)
        if relative.parts[0] == "vectors" and relative.parts[1].startswith("seg-"):
            os.link(path, out)
        else:
            shutil.copy(path, out)
    # The recorded state names each log by inode and the store by its folder: re-pointed at
    # the copies (the same bytes), else the run reads every log again and asks the store
    # about every id (what a rewritten log costs, not an append).
    state_file = target / ".carto" / "semantic-index.json"
    state = json.loads(state_file.read_text("utf-8"))
    for label, recorded in (state.get("logs") or {}).items():
        if recorded.get("exists"):
            info = os.stat(target / Path(log_name(label)).name)
            recorded.update(inode=info.st_ino, dev=info.st_dev)
    state["store"] = state.get("store", "").replace(str(base), str(target))  # names its folder
    state_file.write_text(json.dumps(state), "utf-8")


def rejected(home: Path) -> set[str]:
    path = home / ".carto" / "index-rejects.jsonl"
    if not path.exists():
        return set()
    return {json.loads(line)["event_id"] for line in path.read_text("utf-8").splitlines() if line}


def run_step(home: Path, sandbox: Path, name: str, embedder: str, base_path: str) -> dict:
    """One `carto index --step semantic --json` of variant `name` on `home`, measured."""
    env = child_env(home, sandbox, None)
    env["CARTO_EMBEDDER"] = embedder
    if name == "base":
        env["PYTHONPATH"] = base_path
    elif name == "all":
        env["CARTO_NOVELTY_GATE_WINDOW"] = "all"
    got = measured([CARTO, "index", "--step", "semantic", "--json"], env)
    report = json.loads(got["stdout"])
    report = report.get("semantic", report) if isinstance(report, dict) else report
    steps = report.get("steps") if isinstance(report, dict) else None
    semantic = next((s for s in steps if s.get("step") == "semantic"), report) if steps else report
    row = {k: got[k] for k in ("wall_s", "cpu_s", "rss_mb", "load")}
    row.update({k: semantic.get(k) for k in ("embedded", "gated", "todo", "corpus", "outcome")})
    row["rejected"] = sorted(rejected(home))
    return row


def segments(home: Path) -> list[int]:
    manifest = json.loads((home / ".carto" / "vectors" / "manifest.json").read_text("utf-8"))
    return [int(e["count"]) for e in manifest["segments"]]


def series(args, variants: list[str], sandbox: Path, base_path: str) -> dict:
    results: dict[str, list[dict]] = {name: [] for name in variants}
    homes = {name: args.workdir / f"home-{name}" for name in variants}
    for home in homes.values():
        working_copy(args.base, home)
    for run in range(args.series):
        for name in variants:
            corpus.append(homes[name], args.events, seed=args.seed + run)
            row = run_step(homes[name], sandbox, name, args.embedder, base_path)
            results[name].append(row)
            print(f"run {run + 1} {name}: {row['cpu_s']:.2f} s CPU, {row['rss_mb']:.0f} MB, "
                  f"{row['wall_s']:.2f} s, embedded {row['embedded']}, gated {row['gated']}, "
                  f"{len(segments(homes[name]))} segments (load {row['load']})",
                  file=sys.stderr, flush=True)
    print("| variant | runs | CPU median | CPU mean | CPU max | RSS median | RSS max | segments at the end |")
    print("|---|---|---|---|---|---|---|---|")
    for name, rows in results.items():
        cpu = [r["cpu_s"] for r in rows]
        rss = [r["rss_mb"] for r in rows]
        print(f"| {name} | {len(rows)} | {statistics.median(cpu):.2f} s | {statistics.mean(cpu):.2f} s | "
              f"{max(cpu):.2f} s | {statistics.median(rss):.0f} MB | {max(rss):.0f} MB | "
              f"{sorted(segments(homes[name]))} |")
    if "base" in results:
        b = results["base"]
        for name, rows in results.items():
            if name != "base":
                print(f"{name} / base: CPU median "
                      f"{statistics.median(r['cpu_s'] for r in rows) / statistics.median(r['cpu_s'] for r in b):.3f}x, "
                      f"CPU mean {statistics.mean(r['cpu_s'] for r in rows) / statistics.mean(r['cpu_s'] for r in b):.3f}x, "
                      f"RSS max {max(r['rss_mb'] for r in rows) / max(r['rss_mb'] for r in b):.3f}x")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1000001)
    parser.add_argument("--base-rev", default="main")
    parser.add_argument("--variants", default="base,all,window")
    parser.add_argument("--embedder", default="wordllama")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    parser.add_argument("--series", type=int, default=0,
                        help="N keep-up runs in a row on one copy per variant (compaction over time)")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    sandbox = Path(tempfile.mkdtemp(prefix="sandbox-", dir=args.workdir))
    code = Path(tempfile.mkdtemp(prefix="code-", dir=args.workdir))
    base_path = pythonpath(export(args.base_rev, code))
    variants = args.variants.split(",")
    if args.series:
        results = series(args, variants, sandbox, base_path)
        if args.out:
            args.out.write_text(json.dumps(results, indent=1))
        return 0
    results: dict[str, list[dict]] = {name: [] for name in variants}
    for round_ in range(args.rounds):
        for name in variants:
            home = args.workdir / f"home-{name}"
            working_copy(args.base, home)
            corpus.append(home, args.events, seed=args.seed)
            row = run_step(home, sandbox, name, args.embedder, base_path)
            results[name].append(row)
            print(f"round {round_ + 1} {name}: {row['wall_s']:.2f} s, {row['cpu_s']:.2f} s CPU, "
                  f"{row['rss_mb']:.0f} MB, embedded {row['embedded']}, gated {row['gated']} "
                  f"(load {row['load']})", file=sys.stderr, flush=True)
    print("| variant | wall median | CPU median | peak RSS median | embedded | gated |")
    print("|---|---|---|---|---|---|")
    medians = {}
    for name, rows in results.items():
        medians[name] = {k: statistics.median(r[k] for r in rows) for k in ("wall_s", "cpu_s", "rss_mb")}
        print(f"| {name} | {medians[name]['wall_s']:.2f} s | {medians[name]['cpu_s']:.2f} s | "
              f"{medians[name]['rss_mb']:.0f} MB | {rows[0]['embedded']} | {rows[0]['gated']} |")
    if "base" in medians:
        for name in medians:
            if name != "base":
                m, b = medians[name], medians["base"]
                print(f"{name} / base: wall {m['wall_s'] / b['wall_s']:.3f}x, CPU "
                      f"{m['cpu_s'] / b['cpu_s']:.3f}x, RSS {m['rss_mb'] / b['rss_mb']:.3f}x")
    if "all" in results and "window" in results:
        every, windowed = set(results["all"][0]["rejected"]), set(results["window"][0]["rejected"])
        print(f"gate decisions: all rejects {len(every)}, window rejects {len(windowed)}, "
              f"both {len(every & windowed)}, only all {len(every - windowed)}, "
              f"only window {len(windowed - every)}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
