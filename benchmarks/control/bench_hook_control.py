"""Benchmark: what `[capture] exclude` and tombstones cost a live hook, against the hook before
them, in one interleaved run.

Whole processes, `carto hook claude PostToolUse` on a Bash `Ran:` payload in a git repository
(tool-use + changelog rows written), round by round in a shuffled order:

- `python`: a bare `python -c pass` (the interpreter floor);
- `base`: revision `--base` (default `main`), exported with `git archive`, on PYTHONPATH;
- `new`: this tree's sources (uncommitted changes too), copied and on PYTHONPATH the same way
  (PYTHONPATH alone costs a process milliseconds: both sides pay it);
- `new+config`: a config file without an `exclude` key (read, not parsed for the exclusion;
  the redactor parses any config file for its `[redact] patterns`, before and after);
- `base+exclude`, `new+exclude`: a config file with `[capture] exclude` (the base ignores it
  but pays the redactor's parse of the file; the new parses it once more, tries the globs on
  the cwd and every folder above it, and checks each row's project and cwd);
- `new+tombstones`: 100,000 buried ids in the home (each row's id binary-searched in the file);
- `new excluded`: the payload's cwd is excluded (dropped before its handler runs).

Each variant has its own home and plugin-table cache. Reports medians of wall time and of the
child's CPU time, and each one's ratio to `base`.

    nice -n 10 .venv/bin/python benchmarks/control/bench_hook_control.py --runs 40
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from revision import copy_sources, export, pythonpath  # noqa: E402


def timed(argv: list[str], env: dict, stdin: bytes) -> tuple[float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    proc.stdin.write(stdin)
    proc.stdin.close()
    _, _, usage = os.wait4(proc.pid, 0)
    return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--base", default="main")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here too")
    args = parser.parse_args()
    python = sys.executable
    hook = [python, "-c", "import sys; from carto_core.entry import main; sys.argv=['carto','hook','claude','PostToolUse']; sys.exit(main())"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        repo = tmp / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        excluded = tmp / "user" / "private" / "secret"
        excluded.mkdir(parents=True)
        base_path = pythonpath(export(args.base, tmp / "base"))
        new_path = pythonpath(copy_sources(tmp / "new"))
        clean = {k: v for k, v in os.environ.items()
                 if not k.endswith("SESSION_ID") and k not in
                 ("CODEX_THREAD_ID", "CODEX_HOME", "PYTHONDONTWRITEBYTECODE", "PYTHONPATH",
                  "CARTO_CONFIG", "CARTO_HOME")}
        clean.update({"CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0", "HOME": str(tmp / "user")})

        def variant(name: str, path: str, config: str | None = None, tombstones: int = 0) -> dict:
            env = dict(clean, PYTHONPATH=path, CARTO_HOME=str(tmp / f"home-{name}"),
                       XDG_CACHE_HOME=str(tmp / f"cache-{name}"),
                       XDG_CONFIG_HOME=str(tmp / f"config-{name}"))
            if config is not None:
                folder = tmp / f"config-{name}" / "carto"
                folder.mkdir(parents=True)
                (folder / "config.toml").write_text(config, "utf-8")
            if tombstones:
                subprocess.run([python, "-c", (
                    "import sys; from carto_core.logio.home import Home; "
                    "from carto_core.logio.tombstone import bury; "
                    f"bury(Home(sys.argv[1]), (f'evt-gone{{i:08d}}' for i in range({tombstones})))"),
                    env["CARTO_HOME"]], env=env, check=True)
            return env

        exclude = '[capture]\nexclude = ["client-*", "scratch", "~/private/**", "/mnt/nda"]\n'
        variants = {
            "base": (variant("base", base_path), repo),
            "base+exclude": (variant("base-exclude", base_path, exclude), repo),
            "new": (variant("new", new_path), repo),
            "new+config": (variant("config", new_path, '[search]\nrankers = ["bm25"]\n'), repo),
            "new+exclude": (variant("exclude", new_path, exclude), repo),
            "new+tombstones": (variant("tomb", new_path, tombstones=100_000), repo),
            "new excluded": (variant("excluded", new_path, exclude), excluded),
        }

        def payload(cwd: Path, n: int) -> bytes:
            return json.dumps({"session_id": "bench-session", "cwd": str(cwd),
                               "hook_event_name": "PostToolUse", "tool_name": "Bash",
                               "tool_input": {"command": f"make test TARGET=t{n}"},
                               "tool_response": {"stdout": "ok", "stderr": "", "interrupted": False},
                               "tool_use_id": f"toolu_bench{n:06d}"}).encode()

        for name, (env, cwd) in variants.items():  # warm: plugin table, bytecode
            for n in range(3):
                timed(hook, env, payload(cwd, n))
        wall: dict[str, list[float]] = {name: [] for name in ["python", *variants]}
        cpu: dict[str, list[float]] = {name: [] for name in wall}
        rng = random.Random(7)
        for run in range(args.runs):
            order = list(wall)
            rng.shuffle(order)
            for name in order:
                if name == "python":
                    w, c = timed([python, "-c", "pass"], clean, b"")
                else:
                    env, cwd = variants[name]
                    w, c = timed(hook, env, payload(cwd, 100 + run))
                wall[name].append(w)
                cpu[name].append(c)
        rows_written = {name: sum(1 for _ in open(Path(env["CARTO_HOME"]) / "tool-use-log.jsonl"))
                        if (Path(env["CARTO_HOME"]) / "tool-use-log.jsonl").exists() else 0
                        for name, (env, _) in variants.items()}
    load = os.getloadavg()
    base_wall, base_cpu = statistics.median(wall["base"]), statistics.median(cpu["base"])
    result = {"runs": args.runs, "base": args.base, "load": [round(x, 2) for x in load],
              "variants": {}}
    print(f"{args.runs} interleaved rounds, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'variant':16} {'wall ms':>9} {'cpu ms':>9} {'wall/base':>10} {'cpu/base':>9} {'rows':>5}")
    for name in wall:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        result["variants"][name] = {"wall_ms": round(w, 2), "cpu_ms": round(c, 2),
                                    "wall_ratio": round(w / base_wall, 3),
                                    "cpu_ratio": round(c / base_cpu, 3),
                                    "rows": rows_written.get(name)}
        print(f"{name:16} {w:9.2f} {c:9.2f} {w / base_wall:10.3f} {c / base_cpu:9.3f} "
              f"{rows_written.get(name, '-')!s:>5}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
