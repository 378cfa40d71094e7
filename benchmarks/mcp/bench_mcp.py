"""MCP benchmark: a search round trip through `carto mcp`, beside the CLI, on one generated home.

For each size (events), in one run, same home, same queries, same flags (`--limit 10`, no delta
serving, telemetry on in both):

- `carto mcp` over stdio, driven by the MCP SDK's client (what an agent does): spawn-to-ready
  time (process start + initialize handshake + the index loaded by the first call), then the
  round trip of `tools/call search` (request out, JSON answer parsed back) median and p95;
- `carto search QUERY --json` as a cold process per query (what an agent without MCP does):
  median and p95 end to end;
- in-process `run_search` on a warm engine (the floor both front doors sit on), and the
  server's own `CartoMcp.call("search")` (validation, search with telemetry, budget; no
  transport): medians.

Usage (from the repository root):

    .venv/bin/python benchmarks/mcp/bench_mcp.py --sizes 200000

Results print as a markdown table and are written to benchmarks/mcp/results.json. Homes are
generated with `carto_core.evaluation.generate.generate_home` (seed 1, the search benchmark's
corpus) and queries drawn from the corpus by the search benchmark's `make_queries`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "search"))

from bench_search import CARTO, child_env, make_queries, ms, timed_child  # noqa: E402


def mcp_round_trips(home: Path, queries: list[str], warmup: int) -> dict:
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=CARTO, args=["mcp"], env=child_env(home))
    result: dict = {}

    async def main():
        started = time.perf_counter()
        async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                result["initialize_s"] = round(time.perf_counter() - started, 3)
                first = await session.call_tool("search", {"query": queries[0], "limit": 10, "all": True})
                assert not first.is_error, first.content[0].text
                result["ready_s"] = round(time.perf_counter() - started, 3)
                for q in queries[:warmup]:
                    await session.call_tool("search", {"query": q, "limit": 10, "all": True})
                times, sizes = [], []
                for q in queries:
                    t0 = time.perf_counter()
                    answer = await session.call_tool("search", {"query": q, "limit": 10, "all": True})
                    document = json.loads(answer.content[0].text)
                    times.append(time.perf_counter() - t0)
                    assert not answer.is_error and "results" in document
                    sizes.append(len(answer.content[0].text))
                result["round_trip"] = ms(times)
                result["answer_chars_median"] = sorted(sizes)[len(sizes) // 2]

    anyio.run(main)
    return result


def bench_size(events: int, workdir: Path, n_queries: int, cold_runs: int) -> dict:
    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home
    from carto_core.search import SearchRequest, run_search
    from carto_core.search.engine import SearchEngine

    home_dir = workdir / f"home-{events}"
    if not (home_dir / "changelog.jsonl").exists():
        generate_home(home_dir, events, seed=1)
    env = child_env(home_dir)
    # Build the persisted keyword index once, so that neither side pays for it below.
    wall, _ = timed_child([CARTO, "index", "--rebuild", "--step", "keyword"], env)
    out: dict = {"events": events, "index_build_s": round(wall, 2)}

    engine = SearchEngine(Home(home_dir), auto_refresh=False)
    engine.ensure_loaded()
    queries = make_queries(engine, n_queries)
    times = []
    for q in queries:
        t0 = time.perf_counter()
        run_search(SearchRequest(query=q, all=True, limit=10), engine=engine)
        times.append(time.perf_counter() - t0)
    out["in_process_run_search"] = ms(times)
    del engine
    # The server's own work per call (validation, search with telemetry, budget), no transport.
    from carto_core.mcp.server import CartoMcp

    state = CartoMcp(Home(home_dir), env=child_env(home_dir))
    state.warm()
    times = []
    for q in queries:
        t0 = time.perf_counter()
        state.call("search", {"query": q, "limit": 10, "all": True})
        times.append(time.perf_counter() - t0)
    out["in_process_mcp_call"] = ms(times)
    del state

    out["mcp"] = mcp_round_trips(home_dir, queries, warmup=10)

    walls = []
    for q in queries[:cold_runs]:
        wall, _ = timed_child([CARTO, "search", q, "--limit", "10", "--all", "--json"], env)
        walls.append(wall)
    out["cli_cold_process"] = ms(walls)
    out["ratio_cli_over_mcp_p50"] = round(out["cli_cold_process"]["median_ms"]
                                          / out["mcp"]["round_trip"]["median_ms"], 1)
    return out


def table(rows) -> str:
    lines = ["| events | MCP round trip p50 / p95 | CLI cold process p50 / p95 | CLI/MCP (p50) | "
             "server call, no transport p50 | in-process run_search p50 | MCP spawn→ready |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        m, c = r["mcp"]["round_trip"], r["cli_cold_process"]
        lines.append(f"| {r['events']:,} | {m['median_ms']:.1f} / {m['p95_ms']:.1f} ms | "
                     f"{c['median_ms']:.0f} / {c['p95_ms']:.0f} ms | {r['ratio_cli_over_mcp_p50']}x | "
                     f"{r['in_process_mcp_call']['median_ms']:.1f} ms | "
                     f"{r['in_process_run_search']['median_ms']:.1f} ms | {r['mcp']['ready_s']:.2f} s |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200000])
    parser.add_argument("--queries", type=int, default=200, help="MCP and in-process queries")
    parser.add_argument("--cold-runs", type=int, default=20, help="cold CLI processes")
    parser.add_argument("--workdir", type=Path, default=None, help="where homes are generated (kept)")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.gettempdir()) / "carto-bench-mcp"
    workdir.mkdir(parents=True, exist_ok=True)
    rows = [bench_size(n, workdir, args.queries, args.cold_runs) for n in args.sizes]
    import mcp as sdk

    meta = {"python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count(), "mcp_sdk": getattr(sdk, "__version__", None) or _version("mcp")}
    print(table(rows))
    print(json.dumps(meta))
    (Path(__file__).parent / "results.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")


def _version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


if __name__ == "__main__":
    main()
