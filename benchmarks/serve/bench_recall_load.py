"""`carto serve` under load: recall at N events (default 200,000), warm, several concurrent
clients on loopback, next to the same queries in-process (the floor) and through the cold CLI
(`carto search --json`, a new process per query: what an agent pays without the server).

The home is `carto_core.evaluation.generate.generate_home` (seed 1, the corpus of the search and
MCP benchmarks) and the queries are drawn from it by the search benchmark's `make_queries`.
Bounded in count and time: C clients x R requests each (default 4 x 100), stopped after
--max-seconds whatever happens; then one client and the in-process floor alternate query by
query (100 queries), so that both see the same load from other processes. Latency is measured
by the clients (full HTTP round trip with TCP_NODELAY, JSON parsed); the server's own
`stages_ms.total` is reported beside it. The server runs as `carto serve --port 0` in its own
process.

    .venv/bin/python benchmarks/serve/bench_recall_load.py              # 200k events
    .venv/bin/python benchmarks/serve/bench_recall_load.py --events 20000 --clients 2

Results print as JSON and are written to benchmarks/serve/results.json.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "search"))

from bench_search import CARTO, child_env, make_queries  # noqa: E402

from carto_core.evaluation.generate import generate_home  # noqa: E402
from carto_core.logio.home import Home  # noqa: E402

def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(p * (len(ordered) - 1))))]


def summary(samples: list[float]) -> dict:
    return {"n": len(samples), "p50_ms": round(statistics.median(samples), 2),
            "p95_ms": round(pct(samples, 0.95), 2), "max_ms": round(max(samples), 2)}


async def load(url: str, qs: list[str], clients: int, per_client: int, max_seconds: float):
    latencies: list[float] = []
    server_ms: list[float] = []
    errors = 0
    deadline = time.monotonic() + max_seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    # TCP_NODELAY as browsers and curl set it (httpx does not by default).
    transport = httpx.AsyncHTTPTransport(limits=limits, socket_options=[
        (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as client:
        async def one(worker: int):
            nonlocal errors
            for i in range(per_client):
                if time.monotonic() > deadline:
                    return
                q = qs[(worker * per_client + i) % len(qs)]
                start = time.perf_counter()
                response = await client.post("/api/recall", json={"query": q, "limit": 15})
                body = response.json()
                elapsed = (time.perf_counter() - start) * 1000
                if response.status_code != 200:
                    errors += 1
                    continue
                latencies.append(elapsed)
                server_ms.append(body["stages_ms"]["total"])

        started = time.perf_counter()
        await asyncio.gather(*(one(w) for w in range(clients)))
        wall = time.perf_counter() - started
    return latencies, server_ms, errors, wall


def paired(url: str, qs: list[str], engine) -> tuple[list[float], list[float], list[float]]:
    """One client, and the in-process floor, query by query in alternation: the two see the
    same machine load (other processes on these shared cores move both alike)."""
    from carto_core.search import SearchRequest, run_search

    host, port = url.split("//", 1)[1].rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.connect()
    conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for q in qs[:20]:
        run_search(SearchRequest(query=q, all=True), engine=engine)
    http_ms, server_ms, floor_ms = [], [], []
    for q in qs:
        body = json.dumps({"query": q, "limit": 15})
        start = time.perf_counter()
        conn.request("POST", "/api/recall", body=body,
                     headers={"content-type": "application/json"})
        answer = json.loads(conn.getresponse().read())
        http_ms.append((time.perf_counter() - start) * 1000)
        server_ms.append(answer["stages_ms"]["total"])
        start = time.perf_counter()
        run_search(SearchRequest(query=q, all=True), engine=engine)
        floor_ms.append((time.perf_counter() - start) * 1000)
    conn.close()
    return http_ms, server_ms, floor_ms


def rss_of(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--requests", type=int, default=100, help="per client")
    parser.add_argument("--max-seconds", type=float, default=120)
    parser.add_argument("--cli-runs", type=int, default=5)
    args = parser.parse_args()

    root = tempfile.mkdtemp(prefix="carto-bench-serve-")
    t0 = time.perf_counter()
    generate_home(root, args.events, seed=1)
    home = Home(root)
    print(f"generated {args.events} events in {time.perf_counter() - t0:.1f}s at {root}",
          file=sys.stderr)
    env = child_env(Path(root))
    carto = CARTO
    from carto_core.search import SearchEngine, SearchRequest, run_search

    engine = SearchEngine(home)
    engine.ensure_loaded()  # builds and persists the keyword index the server will open
    qs = make_queries(engine, 200)

    t0 = time.perf_counter()
    server = subprocess.Popen([carto, "serve", "--port", "0"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        url = server.stdout.readline().strip()
        if not url.startswith("http://127.0.0.1:"):
            raise SystemExit(f"carto serve did not start: {url!r}")
        startup = time.perf_counter() - t0
        print(f"server ready at {url} in {startup:.1f}s", file=sys.stderr)
        # Warm-up: the first queries fault in pages and caches; not measured.
        asyncio.run(load(url, qs[:20], 1, 20, 60))
        lat, srv, errors, wall = asyncio.run(load(url, qs, args.clients, args.requests,
                                                  args.max_seconds))
        single, single_srv, floor = paired(url, qs[:100], engine)
        rss_mb = rss_of(server.pid)
    finally:
        server.terminate()
        server.wait(10)

    cli = []
    for q in qs[: args.cli_runs]:
        start = time.perf_counter()
        subprocess.run([carto, "search", q, "--json", "--all"], env=env, capture_output=True,
                       check=False)
        cli.append((time.perf_counter() - start) * 1000)

    report = {
        "events": args.events, "clients": args.clients, "requests_per_client": args.requests,
        "startup_s": round(startup, 2), "server_rss_mb": rss_mb, "errors": errors,
        "throughput_rps": round(len(lat) / wall, 1),
        "http_concurrent": summary(lat), "server_stage_total_concurrent": summary(srv),
        "http_single_client": summary(single), "server_stage_total_single": summary(single_srv),
        "in_process_floor": summary(floor),
        "http_overhead_over_floor_p50_ms": round(statistics.median(
            [a - b for a, b in zip(single, floor)]), 2),
        "cold_cli_peer": summary(cli),
        "ratio_cold_cli_over_http_single_p50": round(
            statistics.median(cli) / statistics.median(single), 1),
    }
    print(json.dumps(report, indent=2))
    (Path(__file__).parent / "results.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
