"""Facts census at scale: the columnar fold vs a per-event loop (upstream's shape), same run.

Builds a home with N events (default 200,000) across the logs, loads it once with
`carto_core.model.corpus.load_corpus`, builds the columns once, then times `run_facts` census
requests in-process (median and p95 over repeated runs) next to a straightforward per-event
Python fold computing the same counts (the peer), and checks that both agree.

    .venv/bin/python benchmarks/facts/bench_census.py            # 200k events
    .venv/bin/python benchmarks/facts/bench_census.py --events 50000 --repeat 15
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import Counter
from datetime import datetime, timedelta, timezone

from carto_core.logio.appendlog import append_lines
from carto_core.model.corpus import load_corpus
from carto_core.model.events import is_resolved
from carto_core.facts import run_facts
from carto_core.facts.columns import columns_for
from carto_core.logio.home import Home
from carto_core.logio.jsonl import dumps_row

NOW = datetime(2026, 9, 8, 12, tzinfo=timezone.utc)


def build(root: str, n: int, seed: int = 1) -> Home:
    rng = random.Random(seed)
    home = Home(root)
    projects = [f"proj-{i}" for i in range(60)] + ["", "unknown"]
    types = ["tool_bash", "tool_file_edit", "git_commit", "research_fetch", "prompt", "milestone_x"]
    labels = ["changelog", "tool-use", "research", "milestones", "prompts", "turns"]
    batches: dict[str, list[bytes]] = {label: [] for label in labels}
    for i in range(n):
        moment = NOW - timedelta(seconds=rng.randrange(0, 86400 * 120))
        label = rng.choices(labels, weights=[50, 15, 8, 5, 7, 15])[0]
        batches[label].append(dumps_row({
            "event_id": f"evt-{i:012d}", "timestamp": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "type": rng.choice(types), "provider": rng.choice(["claude", "codex", "hermes", ""]),
            "session_id": f"s-{rng.randrange(3000)}", "project": rng.choice(projects),
            "summary": f"event {i}"}))
    for label, lines in batches.items():
        append_lines(home.log(label), lines)
    return home


def loop_census(events, since, project):
    """The peer: one Python pass over every event (what a fold without columns costs)."""
    counts = {k: Counter() for k in ("project", "type", "source", "provider")}
    sessions = set()
    total = 0
    for e in events:
        ts = e.timestamp
        if since is not None and (ts is None or ts < since):
            continue
        if project is not None and not (is_resolved(e.project) and project in e.project.lower()):
            continue
        total += 1
        for key, value in (("project", e.project), ("type", e.type), ("source", e.source), ("provider", e.provider)):
            if is_resolved(value):
                counts[key][value] += 1
        if is_resolved(e.session_id):
            sessions.add(e.session_id)
    return total, counts, len(sessions)


def timed(fn, repeat):
    samples = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[max(0, int(len(samples) * 0.95) - 1)], result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        home = build(root, args.events)
        start = time.perf_counter()
        corpus = load_corpus(home)
        load_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        columns_for(corpus)
        columns_ms = (time.perf_counter() - start) * 1000
        print(f"events {len(corpus):,}  load_corpus {load_ms:.0f} ms  columns (once per load) {columns_ms:.0f} ms")
        cases = [
            ("all events, top 20, sample 3", {}, None, None),
            ("since 24h", {"since": "24h"}, NOW - timedelta(hours=24), None),
            ("since 30d, project proj-1", {"since": "30d", "project": "proj-1"}, NOW - timedelta(days=30), "proj-1"),
        ]
        print(f"{'case':<34} {'columnar median':>16} {'p95':>8} {'per-event loop':>15} {'ratio':>7}")
        for title, fields, since, project in cases:
            request = {"contract_version": 1, "verb": "census", "call_id": "bench", **fields}
            median, p95, envelope = timed(lambda: run_facts(request, home, corpus, now=NOW, verbs=VERBS), args.repeat)
            peer_median, _, peer = timed(lambda: loop_census(corpus.events, since, project),
                                         max(3, args.repeat // 4))
            facts = envelope["facts"]
            assert facts["events"] == peer[0], (facts["events"], peer[0])
            assert {b["name"]: b["count"] for b in facts["by_provider"]} == dict(peer[1]["provider"])
            assert facts["sessions"]["resolved"] == peer[2]
            print(f"{title:<34} {median:>13.2f} ms {p95:>5.2f} ms {peer_median:>12.1f} ms {peer_median / median:>6.0f}x")


if __name__ == "__main__":
    from carto_core.facts.engine import fact_verbs

    VERBS = fact_verbs()
    main()
