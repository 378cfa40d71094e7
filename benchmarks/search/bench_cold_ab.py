"""Cold `carto search`: this tree against another revision, interleaved, and their output.

Two measurements of a change to the cold path (docs/performance.md, "Cold path"):

- `--runs N` (default 15): per round, the floor (`python -c "import numpy, click"`) and the
  like-for-like floor (the same with one BLAS thread and the collector off, as a one-shot search
  loads numpy and runs), then a cold `carto search QUERY --limit 10 [EXTRA]` of each variant
  (order alternating), on the same home; the median wall and CPU (user + system) of each, and
  their ratios to both floors, and the median and largest peak RSS. The queries cycle through a fixed sample (about half of them
  lookups, whose semantic ladder is gated out) unless `--query` names the ones to time (given
  more than once, they alternate), e.g. a question, whose semantic ladder always runs. `base` runs
  the revision `--base` (exported with `git archive`, put first on PYTHONPATH), `new` a copy
  of this tree (uncommitted changes too) run the same way: PYTHONPATH alone costs a cold
  search ~15 ms, so compare like with like. `--venv-new` runs `new` from the venv's editable
  install instead: the real cold search, for its ratio to the floors, not for the saving.
  Each variant has its own plugin-table cache (XDG_CACHE_HOME): the table is keyed on
  `sys.path`, which PYTHONPATH changes, and a shared one would make both variants rescan every
  installed distribution on every run.
- `--check`: the `--json` (and text) output of a fixed set of commands, both variants, byte
  for byte, with the timings (`ms`, `stages_ms`) and call ids masked and the clock fixed
  (decay and `--since` read it).

    python benchmarks/search/bench_cold_ab.py --home H --base 954c1fa --runs 15
    python benchmarks/search/bench_cold_ab.py --home H --base 954c1fa --runs 15 --extra=--no-semantic
    python benchmarks/search/bench_cold_ab.py --home H --base 954c1fa --runs 15 \
        --query "how did we fix the flaky login test?"
    python benchmarks/search/bench_cold_ab.py --home H --base 954c1fa --check
    python benchmarks/search/bench_cold_ab.py --home H --base 954c1fa --runs 15 --site S

`--site S` puts a folder of third-party distributions (a `.dist-info` beside its module, as an
installer leaves them) after the packages on both variants' PYTHONPATH: a cold search with a
plugin of someone else's installed, a broken one say.

The home must be indexed already (`carto index`); a search writes its telemetry there, so use a
copy of a shared home.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from revision import copy_sources, export, pythonpath  # noqa: E402

QUERIES = ["faster wiheza can", "ran terraform", "cikodi mypy", "mehiboli", "fepobu dojazo work",
           "kulive", "wabibos evt", "muvebes guard files", "lilo turn", "src modified fepobu cli",
           "hubepas ran", "gizekus popocite evt", "lowifuda zamu", "dev sawikus", "sql tidi",
           "evt vojava fobuwuer", "zeniloer subole", "dezi", "sopopazu vukike salana",
           "why losibu waduhes when", "deploy lock", "commit fix tests"]
CHECKS = [["--json"], ["--json", "--no-semantic"], []]
EXTRA_CHECKS = [("deploy*", ["--json"]), ("ran terraform", ["--decay", "none", "--json"]),
                ("src modified", ["--project", "fepobu", "--json"]), ("kulive", ["--since", "30d", "--json"]),
                ("zzzzqqqq", ["--json"]), ("mehiboli", ["--ranker", "bm25", "--fusion", "rrf", "--json"]),
                ("dezi", ["--no-collapse", "--json"]), ("python evt", ["--intent", "bug-fixes", "--json"]),
                ("evt", ["--json", "--limit", "3"])]
_MASK = [(re.compile(r'("(?:ms|resolve|load|scope|ladders|fusion|trim|decay|render)": )[0-9.]+'), r"\1X"),
         (re.compile(r"call-[0-9T]+-[0-9]+"), "call-X")]
#: Imported first by the --check children: the clock the search reads is fixed.
FIXED_CLOCK = '''
import datetime as _dt, sys, importlib.abc, importlib.machinery
class _Fixed(_dt.datetime):
    @classmethod
    def now(cls, tz=None):
        base = _dt.datetime(2026, 12, 1, 17, 0, 0, tzinfo=_dt.timezone.utc)
        return base if tz is None else base.astimezone(tz)
class _Hook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name not in ("carto_core.search.pipeline", "carto_core.util.timeparse"):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        run = spec.loader.exec_module
        def exec_module(module):
            run(module)
            if name.endswith("pipeline"):
                module.datetime = _Fixed
            else:
                module.utcnow = lambda: _Fixed.now(_dt.timezone.utc)
        spec.loader.exec_module = exec_module
        return spec
sys.meta_path.insert(0, _Hook())
'''


def environments(home: str, base_path: str, scratch: Path, new_path: str | None = None,
                 site: str | None = None) -> dict[str, dict]:
    """The two variants' environments. `new_path`: `new` runs a copy of this tree through
    PYTHONPATH, as `base` runs its export, so that both have the same `sys.path`. Without it
    `new` is the venv's editable install: PYTHONPATH's seven entries ahead of the standard
    library cost a cold search ~15-17 ms by themselves (every top-level import looks there
    first; the same code measured 250.5 ms CPU from the venv, 267.6 ms through PYTHONPATH,
    270.8 ms from an export, 21 rounds, load 1.7), so a `base` through PYTHONPATH against the
    venv's `new` showed a saving that was not the change's (7.6 ms CPU, the same revision on
    both sides, 31 rounds, load 2.0)."""
    clean = {k: v for k, v in os.environ.items()
             if not k.endswith("SESSION_ID") and k not in
             ("CODEX_THREAD_ID", "CODEX_HOME", "PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    clean["CARTO_HOME"] = home
    out = {}
    for name in ("base", "new"):
        env = dict(clean, XDG_CACHE_HOME=str(scratch / f"cache-{name}"))
        if name == "base":
            env["PYTHONPATH"] = base_path
        elif new_path:
            env["PYTHONPATH"] = new_path
        if site:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH"), site]))
        out[name] = env
    return out


def timed(argv, env) -> tuple[float, float, float]:
    """Wall and CPU seconds and peak RSS (MB) of one child."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


#: The like-for-like floor: numpy on one BLAS thread and no cyclic collector, as
#: `carto_core.entry` runs a one-shot search.
LIKE_FLOOR = "import gc; gc.disable(); import numpy, click"


def bench(envs: dict[str, dict], runs: int, extra: list[str], queries: list[str]) -> dict:
    carto = str(BIN / "carto")
    floor_env = envs["new"]
    like_env = dict(floor_env, OPENBLAS_NUM_THREADS="1")
    for env in envs.values():  # bytecode and the plugin table, as any second use
        timed([carto, "search", queries[0], "--limit", "10", *extra], env)
    samples = {name: ([], [], []) for name in ("floor", "like_floor", *envs)}
    load = [round(os.getloadavg()[0], 2)]
    for i in range(runs):
        query = queries[i % len(queries)]
        for name, code, env in (("floor", "import numpy, click", floor_env),
                                ("like_floor", LIKE_FLOOR, like_env)):
            for sample, value in zip(samples[name], timed([str(BIN / "python"), "-c", code], env)):
                sample.append(value)
        order = list(envs.items()) if i % 2 == 0 else list(envs.items())[::-1]
        for name, env in order:
            got = timed([carto, "search", query, "--limit", "10", *extra], env)
            for sample, value in zip(samples[name], got):
                sample.append(value)
            print(f"run {i + 1} {name}: {got[0] * 1000:.0f} ms, {got[1] * 1000:.0f} ms CPU, "
                  f"{got[2]:.0f} MB", file=sys.stderr, flush=True)
    load.append(round(os.getloadavg()[0], 2))
    floor_wall = statistics.median(samples["floor"][0])
    floor_cpu = statistics.median(samples["floor"][1])
    like_wall = statistics.median(samples["like_floor"][0])
    like_cpu = statistics.median(samples["like_floor"][1])
    out = {"runs": runs, "extra": extra, "queries": queries if queries is not QUERIES else "sample",
           "load_average": load}
    for name, (walls, cpus, rss) in samples.items():
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        out[name] = {"wall_ms": round(wall * 1000, 1), "cpu_ms": round(cpu * 1000, 1),
                     "rss_mb": round(statistics.median(rss), 1), "rss_max_mb": round(max(rss), 1),
                     "wall_vs_floor": round(wall / floor_wall, 2),
                     "cpu_vs_floor": round(cpu / floor_cpu, 2),
                     "wall_vs_like_floor": round(wall / like_wall, 3),
                     "cpu_vs_like_floor": round(cpu / like_cpu, 3)}
    return out


def outputs(env: dict, scratch: Path) -> bytes:
    clock = scratch / "clock"
    clock.mkdir(exist_ok=True)
    (clock / "sitecustomize.py").write_text(FIXED_CLOCK)
    env = dict(env, PYTHONPATH=":".join(filter(None, [str(clock), env.get("PYTHONPATH", "")])))
    carto = str(BIN / "carto")
    commands = [[q, *flags] for q in QUERIES for flags in CHECKS]
    commands += [[q, *flags] for q, flags in EXTRA_CHECKS]
    chunks = []
    for command in commands:
        done = subprocess.run([carto, "search", command[0], "--limit", "10", *command[1:]],
                              capture_output=True, env=env)
        text = (done.stdout + done.stderr).decode("utf-8", "replace")
        for pattern, repl in _MASK:
            text = pattern.sub(repl, text)
        chunks.append(f"### {command!r} rc={done.returncode}\n{text}".encode())
    return b"".join(chunks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", required=True, help="an indexed home (a copy: searches write telemetry)")
    parser.add_argument("--base", required=True, help="the git revision to compare with")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--extra", default="", help="more `carto search` flags, e.g. --no-semantic")
    parser.add_argument("--query", action="append", default=[],
                        help="time this query (repeatable; default: the fixed sample)")
    parser.add_argument("--check", action="store_true", help="compare the outputs instead of timing")
    parser.add_argument("--new", metavar="REV", help="time revision REV (exported like --base) as "
                        "`new` instead of this tree: one commit's own saving")
    parser.add_argument("--venv-new", action="store_true",
                        help="run `new` from the venv's editable install (the real cold search, "
                             "for its ratio to the floor) instead of a copy of this tree through "
                             "PYTHONPATH like `base` (the fair A/B; PYTHONPATH alone costs ~15 ms)")
    parser.add_argument("--save", metavar="DIR", help="with --check: write both outputs there "
                        "(base.txt, new.txt) to diff an intended difference")
    parser.add_argument("--site", metavar="DIR", help="a folder of third-party distributions, "
                        "after the packages on both variants' PYTHONPATH")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cold-ab-") as tmp:
        scratch = Path(tmp)
        (scratch / "base").mkdir()
        (scratch / "new").mkdir()
        new_path = (None if args.venv_new else pythonpath(export(args.new, scratch / "new"))
                    if args.new else pythonpath(copy_sources(scratch / "new")))
        envs = environments(args.home, pythonpath(export(args.base, scratch / "base")), scratch,
                            new_path, args.site)
        if args.check:
            base, new = outputs(envs["base"], scratch), outputs(envs["new"], scratch)
            if args.save:
                Path(args.save).mkdir(parents=True, exist_ok=True)
                (Path(args.save) / "base.txt").write_bytes(base)
                (Path(args.save) / "new.txt").write_bytes(new)
            same = base == new
            print(json.dumps({"commands": base.count(b"### "), "identical": same,
                              "bytes": [len(base), len(new)]}))
            if not same:
                for a, b in zip(base.split(b"### "), new.split(b"### ")):
                    if a != b:
                        print("first difference:", a[:400].decode(), "---", b[:400].decode(), sep="\n")
                        break
            return 0 if same else 1
        print(json.dumps(bench(envs, args.runs, args.extra.split(), args.query or QUERIES), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
