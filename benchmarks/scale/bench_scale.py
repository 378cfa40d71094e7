"""Scale benchmark: every build, no-op and append of a home at 200k, 1M and 3M events.

For each size, on a home from `corpus.py` (generated once under --workdir and kept), each step
is the installed `carto` console script as a new process, measured with `os.wait4` (wall
seconds and the child's peak RSS), the load average read before and after it:

- first builds from nothing: `carto index --step keyword` (the keyword index; then, as a peer
  in the same run, the one-shot in-memory build it replaced), `carto facts census --json` (the
  facts columns cache), `carto index --step semantic` (the default embedder + vectors);
- no-op rebuilds, nothing new: each of those again, and `carto index` (every step) twice: the
  steps' own no-ops, then the answer from the stamp the first one recorded;
- cold search: `carto search QUERY --json --all --limit 10`, median of --queries queries
  taken from the corpus (hybrid when the semantic ladder is up);
- append: 1,000 new events appended to the logs as hooks would (timed in this process), then
  one cold `carto search` for the words of an appended row, which must find it; then
  `carto facts census` and `carto index` folding the append in;
- the size of each cache folder under `<home>/.carto/` against the logs' bytes;
- the floor of a no-op: `python -c "import numpy, click"` in the same minutes.

Results merge into benchmarks/scale/results.json (one entry per size; a run of some phases
replaces only their cells) and print as a table, with the growth ratios 1M/200k and 3M/1M of
wall, CPU and peak RSS of every step measured at both sizes. CPU seconds (the child's user +
system time from `os.wait4`) are what to compare on a loaded machine; walls are the load's.

`--phases` runs only some of them (comma-separated, in this order whatever the order given):

    peers     the one-shot keyword build, and --ref-carto's first build (same logs)
    keyword   first keyword build           facts     first facts build
    semantic  first semantic build          noop      the four no-ops + the import floor
    search    cold search median            caches    cache sizes against the logs
    append    1,000 events appended, then search / facts / index (changes the logs: the next
              run generates the home again)

A build phase first deletes only its own cache; a later phase finds the caches it needs
already built (the home's `.carto` is kept between runs unless --clean) or builds them
unmeasured first ("prepared"). So after a full run, re-measuring what changed is e.g.
`--phases semantic,noop`.

    .venv/bin/python benchmarks/scale/bench_scale.py --sizes 200000 --workdir /tmp/scale
    .venv/bin/python benchmarks/scale/bench_scale.py --sizes 1000000 --workdir /tmp/scale \
        --phases semantic,noop
    .venv/bin/python benchmarks/scale/bench_scale.py --table    # print what results.json holds

`--jobs N` is passed to the builds as CARTO_JOBS (their worker limit). `--ref-carto PATH` adds
another checkout's first keyword build on the same logs (wave 1's: its worktree's console
script); `--no-peers` drops the peers phase. To keep measuring one commit while the tree
changes, run from a copy: `git archive HEAD | tar -x -C /tmp/code` and PYTHONPATH set to its
src folders (they come before the editable install's paths).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402

from carto_core.logio.logs import SEARCHED_LOGS  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results.json"
CARTO = str(Path(sys.executable).with_name("carto"))


def load() -> str:
    return "%.2f" % os.getloadavg()[0]


def child_env(home: Path, sandbox: Path, jobs: int | None) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.endswith("SESSION_ID") and k not in ("CODEX_THREAD_ID", "CODEX_HOME")}
    env.update(CARTO_HOME=str(home), HOME=str(sandbox), XDG_CONFIG_HOME=str(sandbox / "config"),
               XDG_DATA_HOME=str(sandbox / "data"), XDG_CACHE_HOME=str(sandbox / "cache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode cached
    if jobs:
        env["CARTO_JOBS"] = str(jobs)
    return env


PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _tree(pid: int) -> list[int]:
    """`pid` and every process under it (/proc/PID/task/TID/children)."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    todo.extend(int(child) for child in handle.read().split())
        except OSError:
            continue
    return out


def _tree_rss(pid: int) -> int:
    total = 0
    for member in _tree(pid):
        try:
            with open(f"/proc/{member}/statm") as handle:
                total += int(handle.read().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
    return total


class TreeSampler:
    """The peak of the summed RSS of a process and its descendants, sampled every 20 ms:
    `os.wait4`'s peak is the largest single process of the tree, so a build with worker
    processes (`--jobs`, CARTO_JOBS) would be counted as its largest worker alone."""

    def __init__(self, pid: int, every: float = 0.02):
        import threading

        self.pid, self.every, self.peak = pid, every, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, _tree_rss(self.pid))
            self._stop.wait(self.every)

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        return round(self.peak / 2 ** 20, 1)


def measured(argv: list[str], env: dict, *, check: bool = True) -> dict:
    """One child process: wall and CPU seconds, its own peak RSS (`os.wait4` returns the
    rusage of that child: its peak, or a waited-for descendant's if larger, never a sum),
    the sampled peak of the summed RSS of its process tree (`tree_rss_mb`: workers
    included), load average before and after, stdout and the end of stderr."""
    sandbox = Path(env["HOME"])
    before = load()
    with open(sandbox / "step.out", "wb") as out, open(sandbox / "step.err", "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, stdout=out, stderr=err)
        sampler = TreeSampler(proc.pid) if os.path.isdir(f"/proc/{proc.pid}") else None
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        tree = sampler.stop() if sampler is not None else None
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    stderr = (sandbox / "step.err").read_text("utf-8", "replace")[-3000:]
    if check and code not in (0, 3):
        raise SystemExit(f"{' '.join(argv)} exited {code}: {stderr}")
    return {"wall_s": round(wall, 3), "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
            "rss_mb": round(usage.ru_maxrss / 1024, 1), "tree_rss_mb": tree,
            "load": f"{before}-{load()}", "code": code,
            "stdout": (sandbox / "step.out").read_text("utf-8", "replace"), "stderr": stderr}


def du(path: Path) -> int:
    if not path.exists():
        return 0
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def log_bytes(home: Path) -> int:
    return sum(du(home / name) for name in SEARCHED_LOGS.values())


def queries(home: Path, n: int, seed: int = 5) -> list[str]:
    """Queries of 1-3 words taken from random rows of the turns and tool-use logs."""
    import re

    rng = random.Random(seed)
    out: list[str] = []
    for name, wanted in (("turns.jsonl", n // 2), ("tool-use-log.jsonl", n - n // 2)):
        path = home / name
        size = path.stat().st_size
        got = 0
        with open(path, "rb") as handle:
            while got < wanted:
                handle.seek(rng.randrange(max(1, size - 20000)))
                handle.readline()  # to the next line start
                try:
                    row = json.loads(handle.readline() or b"{}")
                except ValueError:
                    continue
                words = re.findall(r"[a-z]{4,}", str(row.get("summary", "")))
                if len(words) >= 3:
                    out.append(" ".join(rng.sample(words, rng.choice((1, 2, 2, 3)))))
                    got += 1
    return out


PHASES = ("peers", "keyword", "facts", "semantic", "noop", "search", "caches", "append")
#: What each build phase leaves under <home>/.carto/ (deleted before it is measured).
CACHES = {"keyword": ("search",), "facts": ("facts",),
          "semantic": ("vectors", "semantic-index.json", "index-rejects.jsonl",
                       "index-errors.jsonl", "index-backoff.json")}
BUILDS = {"keyword": ("keyword_first", ["index", "--step", "keyword", "--json"]),
          "facts": ("facts_first", ["facts", "census", "--json"]),
          "semantic": ("semantic_first", ["index", "--step", "semantic", "--json"])}


def built(home: Path, phase: str) -> bool:
    state = home / ".carto"
    return {"keyword": (state / "search").is_dir() and any((state / "search").iterdir()),
            "facts": (state / "facts" / "columns.bin").exists(),
            "semantic": (state / "semantic-index.json").exists()}[phase]


def forget(home: Path, phase: str) -> None:
    for name in CACHES[phase]:
        path = home / ".carto" / name
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def bench_size(size: int, workdir: Path, n_queries: int, jobs: int | None, clean: bool,
               phases: tuple[str, ...] = PHASES, ref_carto: str | None = None,
               previous: dict | None = None) -> dict:
    home = workdir / f"h{size}"
    info_path = home / "generated.json"
    info = json.loads(info_path.read_text()) if info_path.exists() else {}
    if info.get("events") != size or info.get("appended"):
        print(f"generating {size:,} events under {home} ...", file=sys.stderr)
        shutil.rmtree(home, ignore_errors=True)
        t0 = time.perf_counter()
        info = corpus.generate(home, size, progress=True)
        print(f"  generated in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if all(p in phases for p in BUILDS):
        shutil.rmtree(home / ".carto", ignore_errors=True)  # a full run starts from nothing
    sandbox = workdir / f"sandbox-{size}"
    shutil.rmtree(sandbox, ignore_errors=True)
    sandbox.mkdir(parents=True)
    env = child_env(home, sandbox, jobs)
    # A run of some phases keeps the other cells of an earlier run of this size.
    result: dict = dict(previous or {})
    result.update({"events": size, "log_bytes": log_bytes(home), "rows": info.get("rows"),
                   "python": platform.python_version(), "jobs": jobs,
                   "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "phases": list(phases)})
    steps = result.setdefault("steps", {})

    def step(name: str, argv: list[str], **kw) -> dict:
        print(f"  {name} ...", file=sys.stderr, end="", flush=True)
        got = measured(argv, env, **kw)
        print(f" {got['wall_s']:.2f} s, {got['cpu_s']:.2f} s CPU, {got['rss_mb']:.0f} MB "
              f"(tree {got['tree_rss_mb'] or 0:.0f} MB, load {got['load']})", file=sys.stderr)
        steps[name] = {k: v for k, v in got.items() if k not in ("stdout", "stderr")}
        return got

    def prepare(phase: str) -> None:
        """A cache a later phase needs, built unmeasured when it is missing."""
        if not built(home, phase):
            print(f"  preparing {phase} (not measured) ...", file=sys.stderr, flush=True)
            measured([CARTO, *BUILDS[phase][1]], env)

    if "peers" in phases:
        if ref_carto:
            # Peer, same run, same logs: another checkout's first keyword build (wave 1's code:
            # its own analyzer and one-shot build), in an environment without this run's
            # PYTHONPATH.
            forget(home, "keyword")
            ref_env = {k: v for k, v in env.items() if k != "PYTHONPATH"}
            got = measured([ref_carto, "index", "--rebuild", "--step", "keyword"], ref_env)
            steps["keyword_first_ref"] = {k: v for k, v in got.items()
                                          if k not in ("stdout", "stderr")}
            print(f"  keyword_first_ref {got['wall_s']:.2f} s, {got['cpu_s']:.2f} s CPU, "
                  f"{got['rss_mb']:.0f} MB (load {got['load']})", file=sys.stderr)
        # Peer, same run: the one-shot build (every document and posting in memory, then
        # saved), what a first keyword build was before the streamed one, same analyzer.
        forget(home, "keyword")
        step("keyword_first_one_shot", [sys.executable, "-c",
             "from carto_core.logio.home import current_home; from carto_core.search.index import KeywordIndex; "
             "KeywordIndex.build_in_memory(current_home()).save()"])
        forget(home, "keyword")  # another analyzer's or build's index is no first build's
    for phase, (name, argv) in BUILDS.items():
        if phase not in phases:
            continue
        forget(home, phase)
        got = step(name, [CARTO, *argv])
        if phase == "semantic":
            try:
                report = json.loads(got["stdout"])["steps"][0]
                steps[name]["outcome"] = report.get("outcome")
                steps[name]["embedded"] = report.get("embedded")
            except (ValueError, KeyError, IndexError):
                pass
    if "noop" in phases:
        for phase in BUILDS:
            prepare(phase)
        step("keyword_noop", [CARTO, "index", "--step", "keyword", "--json"])
        step("facts_noop", [CARTO, "facts", "census", "--json"])
        step("semantic_noop", [CARTO, "index", "--step", "semantic", "--json"])
        # The first no-op after a build runs the steps' own no-ops and records the stamp; the
        # next one answers from it (carto_core.search.indexstamp).
        step("index_noop", [CARTO, "index", "--json"])
        got = step("index_noop_text", [CARTO, "index"])
        steps["index_noop_text"]["stamp"] = got["stdout"].startswith("nothing new since")
        # The floor of any no-op of a numpy CLI, in the same minutes.
        step("floor_numpy_click", [sys.executable, "-c", "import numpy, click"])

    if "caches" in phases:
        for phase in BUILDS:
            prepare(phase)
        caches = {name: du(home / ".carto" / name)
                  for name in ("search", "facts", "vectors", "embedders")}
        result["cache_bytes"] = caches
        result["cache_ratio"] = {name: round(b / result["log_bytes"], 3)
                                 for name, b in caches.items()}
        result["cache_ratio"]["total"] = round(sum(caches.values()) / result["log_bytes"], 3)
        print(f"  caches / logs {result['cache_ratio']}", file=sys.stderr)

    if "search" in phases:
        for phase in ("keyword", "semantic"):
            prepare(phase)
        walls, cpus, rsss = [], [], []
        status = None
        for q in queries(home, n_queries):
            got = measured([CARTO, "search", q, "--json", "--all", "--limit", "10"], env)
            walls.append(got["wall_s"])
            cpus.append(got["cpu_s"])
            rsss.append(got["rss_mb"])
            status = json.loads(got["stdout"]).get("semantic_status")
        result["search_cold"] = {"median_s": round(statistics.median(walls), 3),
                                 "cpu_median_s": round(statistics.median(cpus), 3),
                                 "max_s": round(max(walls), 3), "rss_mb": max(rsss),
                                 "n": len(walls), "semantic_status": str(status)[:60],
                                 "load": load()}
        print(f"  cold search median {result['search_cold']['median_s']:.3f} s", file=sys.stderr)

    if "append" in phases:
        for phase in BUILDS:
            prepare(phase)
        # Append 1,000 events as hooks would, then one cold search that must find one of them:
        # the words of the last appended tool row's summary (a content search through the
        # keyword ladder; its random words are rare enough that the row ranks in the top 10).
        t0 = time.perf_counter()
        corpus.append(home, 1000, seed=size + 1)
        append_s = time.perf_counter() - t0
        info["appended"] = True
        info_path.write_text(json.dumps(info))
        with open(home / "tool-use-log.jsonl", "rb") as handle:
            handle.seek(max(0, (home / "tool-use-log.jsonl").stat().st_size - 4000))
            row = json.loads(handle.read().splitlines()[-1])
        probe, words = row["event_id"], str(row.get("summary", ""))
        got = step("append_search", [CARTO, "search", words, "--json", "--all", "--limit", "10"])
        found = [r["event_id"] for r in json.loads(got["stdout"]).get("results", [])]
        steps["append_search"]["query"] = words
        steps["append_search"]["append_s"] = round(append_s, 3)
        steps["append_search"]["found"] = probe in found
        steps["append_search"]["total_s"] = round(append_s + got["wall_s"], 3)
        step("append_facts", [CARTO, "facts", "census", "--json"])
        step("append_index", [CARTO, "index", "--json"])
        step("index_noop_after_append", [CARTO, "index", "--json"])
    result["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    if clean:
        shutil.rmtree(home / ".carto", ignore_errors=True)
    return result


ROWS = (
    ("keyword_first", "first keyword build (`carto index --step keyword`)"),
    ("keyword_first_one_shot", "peer: one-shot keyword build in memory, then saved (same run)"),
    ("keyword_first_ref", "peer: wave 1's first keyword build (`--ref-carto`, same run)"),
    ("facts_first", "first facts build (`carto facts census`)"),
    ("semantic_first", "first semantic build (`carto index --step semantic`)"),
    ("keyword_noop", "keyword no-op"),
    ("facts_noop", "facts census, cache fresh"),
    ("semantic_noop", "semantic no-op"),
    ("index_noop", "`carto index --json`, nothing new: the steps' own no-ops (records the stamp)"),
    ("index_noop_text", "`carto index`, nothing new again: answered from the stamp (text output)"),
    ("floor_numpy_click", "floor: `python -c \"import numpy, click\"` (same run)"),
    ("append_search", "append 1,000 events, then a cold search finding one (search part)"),
    ("append_facts", "facts census after the append"),
    ("append_index", "`carto index` after the append"),
    ("index_noop_after_append", "`carto index`, nothing new after the append"),
)


def _cell(got: dict, key: str) -> str:
    cpu = f" ({got['cpu_s']:.2f} s CPU)" if "cpu_s" in got else ""
    cell = f"{got['wall_s']:.2f} s{cpu}, {got['rss_mb']:.0f} MB"
    tree = got.get("tree_rss_mb")
    if tree and tree > got["rss_mb"] * 1.05:  # worker processes: the tree's summed peak
        cell += f" (tree {tree:.0f} MB)"
    if key == "append_search":
        cell += f" (+{got['append_s']:.2f} s append; found {got['found']})"
    return cell + f" (load {got['load']})"


def table(results: dict) -> str:
    sizes = sorted(results, key=int)
    head = "| step | " + " | ".join(f"{int(s):,} events" for s in sizes) + " |"
    lines = [head, "|---|" + "---|" * len(sizes)]
    for key, label in ROWS:
        if not any(key in results[s]["steps"] for s in sizes):
            continue
        cells = [_cell(results[s]["steps"][key], key) if key in results[s]["steps"] else "-"
                 for s in sizes]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    # A partial run (stopped by hand, transcribed from its log) has no cold search or caches.
    lines.append("| cold search median (`carto search Q --json --all`) | " + " | ".join(
        f"{results[s]['search_cold']['median_s'] * 1000:.0f} ms, {results[s]['search_cold']['rss_mb']:.0f} MB"
        if "search_cold" in results[s] else "-" for s in sizes) + " |")
    for name in ("search", "facts", "vectors", "embedders", "total"):
        lines.append(f"| cache `{name}` / logs | " + " | ".join(
            f"{results[s]['cache_ratio'][name]:.3f}" if "cache_ratio" in results[s] else "-"
            for s in sizes) + " |")
    lines.append("| logs | " + " | ".join(f"{results[s]['log_bytes'] / 1e6:.0f} MB" for s in sizes) + " |")
    return "\n".join(lines)


#: The growth ratios the issue asks for: (larger, smaller) sizes.
GROWTH = ((1_000_000, 200_000), (3_000_000, 1_000_000))


def _ratio(big: dict, small: dict, field: str) -> str:
    if field not in big or field not in small or not small[field]:
        return "-"
    return f"{big[field] / small[field]:.2f}x"


def growth(results: dict) -> str:
    """Per step measured at both sizes of a pair: wall, CPU and peak RSS of the larger over
    the smaller (a linear cost is the ratio of the events: 5x, 3x)."""
    pairs = [(big, small) for big, small in GROWTH
             if str(big) in results and str(small) in results]
    if not pairs:
        return ""
    head = "| growth: wall / CPU / peak RSS | " + " | ".join(
        f"{big // 1000:,}k / {small // 1000:,}k ({big // small}x the events)"
        for big, small in pairs) + " |"
    lines = [head.replace("1,000k", "1M").replace("3,000k", "3M"), "|---|" + "---|" * len(pairs)]
    for key, label in ROWS:
        cells = []
        for big, small in pairs:
            b, s = results[str(big)]["steps"].get(key), results[str(small)]["steps"].get(key)
            cells.append(" / ".join(_ratio(b, s, f) for f in ("wall_s", "cpu_s", "rss_mb"))
                         if b and s else "-")
        if any(c != "-" for c in cells):
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    cells = []
    for big, small in pairs:
        b, s = results[str(big)].get("search_cold"), results[str(small)].get("search_cold")
        cells.append(" / ".join(_ratio(b, s, f) for f in ("median_s", "cpu_median_s", "rss_mb"))
                     if b and s else "-")
    lines.append("| cold search median | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[200_000])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/scale"))
    parser.add_argument("--phases", default=",".join(PHASES),
                        help=f"comma-separated, of: {', '.join(PHASES)} (default: all)")
    parser.add_argument("--queries", type=int, default=15)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--clean", action="store_true",
                        help="delete <home>/.carto after the run (kept by default, for --phases)")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--no-peers", action="store_true", help="skip the peers phase")
    parser.add_argument("--ref-carto", help="another checkout's carto: its first keyword build "
                        "runs on the same logs as a peer (e.g. wave 1's worktree)")
    parser.add_argument("--table", action="store_true", help="only print the stored results")
    args = parser.parse_args()
    wanted = {p.strip() for p in args.phases.split(",") if p.strip()}
    unknown = wanted - set(PHASES)
    if unknown:
        parser.error(f"unknown phase {sorted(unknown)[0]!r}; accepted: {', '.join(PHASES)}")
    if args.no_peers:
        wanted.discard("peers")
    phases = tuple(p for p in PHASES if p in wanted)
    results = json.loads(args.results.read_text()) if args.results.exists() else {}
    for size in [] if args.table else args.sizes:
        print(f"size {size:,} (load {load()}), phases {','.join(phases)}", file=sys.stderr)
        results[str(size)] = bench_size(size, args.workdir, args.queries, args.jobs, args.clean,
                                        phases, args.ref_carto, results.get(str(size)))
        args.results.write_text(json.dumps(results, indent=1) + "\n")
    print(table(results))
    lines = growth(results)
    if lines:
        print()
        print(lines)


if __name__ == "__main__":
    main()
