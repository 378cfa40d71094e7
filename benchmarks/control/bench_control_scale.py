"""Benchmark: `carto forget` and `carto backup` / `carto restore` on a generated home of N events
(default a million), time and peak RSS, each beside a floor measured in the same run.

The home is the scale benchmark's year of one heavy user (`benchmarks/scale/corpus.py`, seed 18),
with its derived stores built as a user's would be: the keyword index (`carto index --step
keyword`), the facts cache (`carto facts census`) and a vector store of one 256-dimension model
holding a vector per event (random unit vectors written through `EmbeddedStore.upsert_arrays`:
embedding a million texts would take hours here, and the forget's cost is the store's, not the
embedder's). Both are cached under `--cache` (the generation and the builds take a while).

Each round copies the prepared home and runs, as new processes (`os.wait4`: wall, CPU, the
child's peak RSS; the load average before and after):

- `forget dry`: `carto forget --project P --json` (P: the `--rank`-th largest project);
- `forget`: `carto forget --project P --write --json` (logs rewritten, index, facts and vectors
  patched, tombstones written);
- `rebuild` (the floor a patch is measured against: what dropping the stores would cost):
  on the forgotten copy, the caches removed, `carto index --rebuild --step keyword` then
  `carto facts census`;
- `backup`: `carto backup --dir D --json`; `backup sealed`: the same with `--key-file`;
- `tar`: `tar -cf - <the logs> | gzip -3 > out` (the floor: the same bytes, the same gzip level);
- `restore`: `carto restore` of the plain backup into a new home; `untar`: `tar -xzf` of the
  floor's archive.

    nice -n 10 .venv/bin/python benchmarks/control/bench_control_scale.py --events 1000000 \\
        --cache /tmp/carto-control-bench --rounds 3 --json benchmarks/control/results-1m.json
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "scale"))
from bench_scale import load, measured  # noqa: E402
from corpus import generate  # noqa: E402

CARTO = str(Path(sys.executable).parent / "carto")
LOGS = ("changelog.jsonl", "research-log.jsonl", "session-milestones.jsonl", "tool-use-log.jsonl",
        "prompt-history.jsonl", "turns.jsonl")


def env_for(sandbox: Path, home: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.endswith("SESSION_ID") and k not in ("CARTO_CONFIG", "PYTHONPATH")}
    env.update(HOME=str(sandbox), CARTO_HOME=str(home), XDG_CONFIG_HOME=str(sandbox / "config"),
               XDG_CACHE_HOME=str(sandbox / "cache"), CARTO_KEEPUP="0", CARTO_CATCHUP="0",
               CARTO_WARM="0")
    return env


def prepare(cache: Path, events: int) -> Path:
    """The generated home with its keyword index, facts cache and vectors (cached)."""
    home = cache / f"home-{events}"
    done = cache / f"home-{events}.ready"
    if done.exists():
        return home
    shutil.rmtree(home, ignore_errors=True)
    print(f"generating {events:,} events ...", file=sys.stderr)
    generate(home, events, progress=True)
    sandbox = cache / "sandbox-prepare"
    sandbox.mkdir(parents=True, exist_ok=True)
    env = env_for(sandbox, home)
    for argv in ([CARTO, "index", "--step", "keyword", "--json"], [CARTO, "facts", "census", "--json"]):
        got = measured(argv, env)
        print(f"  {' '.join(argv[1:3])}: {got['wall_s']} s, {got['rss_mb']} MB", file=sys.stderr)
    subprocess.run([sys.executable, "-c", VECTORS, str(home)], env=env, check=True)
    done.write_text("ok")
    return home


VECTORS = r"""
import sys, numpy as np
from pathlib import Path
from carto_core.logio.home import Home
from carto_core.model.logstream import Fold
from carto_core.semantic.embedded import EmbeddedStore
from carto_core.semantic.store import vectors_dir
home = Home(sys.argv[1])
store = EmbeddedStore(vectors_dir(home))
rng = np.random.default_rng(18)
fold = Fold()
ids, projects = [], []
def flush():
    if ids:
        v = rng.normal(size=(len(ids), 256)).astype(np.float32)
        store.upsert_arrays("bench-model-256", ids, v, projects, [None] * len(ids))
        ids.clear(); projects.clear()
for label in ("tool-use", "research", "milestones", "prompts", "turns", "changelog"):
    for chunk in fold.chunks(home.log(label), label):
        for i in np.flatnonzero(chunk.new).tolist():
            ids.append(chunk.ids[i]); projects.append(str(chunk.lines[i].row.get("project") or ""))
        if len(ids) >= 65536:
            flush()
flush()
store.compact()
print(sum(i.count for i in store.models().values()), "vectors", file=sys.stderr)
"""


def pick_project(home: Path, rank: int) -> tuple[str, int]:
    import re

    counts: dict[str, int] = {}
    pattern = re.compile(rb'"project":"([^"]+)"')
    with open(home / "changelog.jsonl", "rb") as handle:
        for line in handle:
            match = pattern.search(line)
            if match:
                counts[match.group(1).decode()] = counts.get(match.group(1).decode(), 0) + 1
    ordered = sorted(counts.items(), key=lambda item: -item[1])
    return ordered[rank - 1]


def copy_home(source: Path, target: Path) -> None:
    shutil.rmtree(target, ignore_errors=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-a", str(source), str(target)], check=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/carto-control-bench"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rank", type=int, default=5, help="forget the rank-th largest project")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--prepare-only", action="store_true", help="generate and build, measure nothing")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    prepared = prepare(args.cache, args.events)
    if args.prepare_only:
        return 0
    project, changelog_rows = pick_project(prepared, args.rank)
    logs_bytes = sum((prepared / name).stat().st_size for name in LOGS)
    print(f"project {project}: {changelog_rows:,} changelog rows; logs {logs_bytes / 2**20:.0f} MiB",
          file=sys.stderr)
    work = args.cache / "work"
    sandbox = args.cache / "sandbox"
    sandbox.mkdir(parents=True, exist_ok=True)
    key = sandbox / "backup.key"
    if not key.exists():
        key.write_bytes(os.urandom(32))
    results: dict[str, list[dict]] = {}

    def record(name: str, got: dict) -> dict:
        results.setdefault(name, []).append(got)
        print(f"  {name}: {got['wall_s']:.2f} s wall, {got['cpu_s']:.2f} s CPU, {got['rss_mb']:.0f} MB "
              f"(load {got['load']})", file=sys.stderr)
        return got

    for round_ in range(args.rounds):
        print(f"round {round_ + 1}", file=sys.stderr)
        home = work / "home"
        copy_home(prepared, home)
        env = env_for(sandbox, home)
        record("forget dry", measured([CARTO, "forget", "--project", project, "--json"], env))
        got = record("forget", measured([CARTO, "forget", "--project", project, "--write", "--json"], env))
        document = json.loads(got["stdout"])
        results.setdefault("forgotten", []).append({"events": document["events"], "rows": document["rows"],
                                                     "index": document["derived"]["keyword_index"]["outcome"],
                                                     "facts": document["derived"]["facts"]["outcome"]})
        for cache in ("search", "facts"):
            shutil.rmtree(home / ".carto" / cache, ignore_errors=True)
        rebuild = measured([CARTO, "index", "--rebuild", "--step", "keyword", "--json"], env)
        facts = measured([CARTO, "facts", "census", "--json"], env)
        record("rebuild", {**rebuild, "wall_s": rebuild["wall_s"] + facts["wall_s"],
                           "cpu_s": rebuild["cpu_s"] + facts["cpu_s"],
                           "rss_mb": max(rebuild["rss_mb"], facts["rss_mb"])})
        copy_home(prepared, home)
        backups = work / "backups"
        shutil.rmtree(backups, ignore_errors=True)
        got = record("backup", measured([CARTO, "backup", "--dir", str(backups), "--json"], env))
        plain = json.loads(got["stdout"])["backup"]
        record("backup sealed", measured([CARTO, "backup", "--dir", str(backups), "--keep", "9",
                                          "--key-file", str(key), "--json"], env))
        tarball = work / "floor.tar.gz"
        record("tar", measured(["sh", "-c", f"cd {home} && tar -cf - {' '.join(LOGS)} | gzip -3 > {tarball}"], env))
        restored = work / "restored"
        shutil.rmtree(restored, ignore_errors=True)
        record("restore", measured([CARTO, "restore", plain, "--json"], env_for(sandbox, restored)))
        untarred = work / "untarred"
        shutil.rmtree(untarred, ignore_errors=True)
        untarred.mkdir()
        record("untar", measured(["tar", "-xzf", str(tarball), "-C", str(untarred)], env))
        results.setdefault("sizes", []).append({"backup": os.path.getsize(plain), "tar": tarball.stat().st_size})
    summary = {"events": args.events, "project": project, "logs_bytes": logs_bytes,
               "rounds": args.rounds, "load_end": load(), "forgotten": results["forgotten"][-1],
               "sizes": results["sizes"][-1], "steps": {}}
    for name, runs in results.items():
        if name in ("forgotten", "sizes"):
            continue
        summary["steps"][name] = {
            "wall_s": round(statistics.median(r["wall_s"] for r in runs), 2),
            "cpu_s": round(statistics.median(r["cpu_s"] for r in runs), 2),
            "rss_mb": max(r["rss_mb"] for r in runs),
            "loads": [r["load"] for r in runs]}
    steps = summary["steps"]
    summary["ratios"] = {
        "forget / rebuild (cpu)": round(steps["forget"]["cpu_s"] / steps["rebuild"]["cpu_s"], 3),
        "backup / tar (cpu)": round(steps["backup"]["cpu_s"] / steps["tar"]["cpu_s"], 3),
        "backup sealed / backup (cpu)": round(steps["backup sealed"]["cpu_s"] / steps["backup"]["cpu_s"], 3),
        "restore / untar (cpu)": round(steps["restore"]["cpu_s"] / steps["untar"]["cpu_s"], 3),
    }
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
