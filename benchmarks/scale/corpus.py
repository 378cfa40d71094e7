"""A generated home for the scale benchmark: a year of one heavy user with several agents.

Streaming: rows are written day by day in time order across the day's overlapping sessions
(as hooks append them), so memory stays that of one day whatever the size. Deterministic for
a seed. Per event, about what the issue's measured corpus had (0.7 KB of JSONL per event):

- Claude Code, Codex and Hermes sessions on 40 projects, 1-4 sessions at once, 20-400 steps;
- tool-use rows (Bash, Edit, commits) and research rows with their changelog copies (same
  event_id), prompts, milestones (with changelog copies), transcript turns whose bodies have a
  long tail (log-normal, up to 12k characters);
- an open turn rewritten as it grows: in one session of twenty the last turn is written twice,
  the second row (same event_id) longer, as a live Stop hook does;
- one row in 20,000 without an event_id, and one torn-free malformed line per 100k rows, the
  kinds of bad input the readers count.

`generate(root, events)` writes a home; `append(root, events, seed)` appends newer events to
it (what 1,000 hook calls would add). Usage:

    .venv/bin/python benchmarks/scale/corpus.py /tmp/scale/h1m --events 1000000
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from carto_core.evaluation.generate import _Vocab, _word
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.logs import SEARCHED_LOGS, order_row
from carto_core.util.timeparse import format_timestamp

_EXTS = ("py", "ts", "js", "go", "rs", "sql", "yaml", "toml", "sh", "md")
_COMMANDS = ("pytest -q", "npm test", "cargo test", "go test ./...", "make", "ruff check",
             "git status --short", "docker compose up", "uv run", "kubectl get pods", "mypy")
_PROMPTS = ("why does {a} {b} when {c} {d}", "add {a} {b} to the {c}",
            "can you make {a} {b} faster, it {c} {d} {e}", "the {a} {b} is broken after {c}",
            "look into {a} {b} and {c} {d}", "write tests for {a} {b} {c}")
_PROVIDERS = (("claude", 6), ("codex", 3), ("hermes", 1))
_KINDS = ("bash", "edit", "commit", "fetch", "search", "prompt", "turn", "milestone")
_WEIGHTS = (30, 25, 5, 4, 4, 11, 18, 3)
#: Events per day of a 365-day home: the day loop makes sessions until a day holds its share.
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


class _World:
    def __init__(self, seed: int, cwd_root: str = "/work"):
        rng = self.rng = random.Random(seed)
        #: Where the projects' checkouts are (`cwd` of the rows): a team benchmark makes them
        #: real checkouts, since a push sends a row by the repository its cwd lies in.
        self.cwd_root = cwd_root
        self.vocab = _Vocab(rng, size=20000, topics=120)
        self.projects = [_word(rng, 3) + "-" + rng.choice(("api", "web", "cli", "infra", "core"))
                         for _ in range(40)]
        # Zipf-like project sizes: a few projects get most of the work.
        self.project_weights = [1.0 / (rank + 1) ** 0.9 for rank in range(len(self.projects))]
        self.files = {p: [f"src/{_word(rng, 2)}/{_word(rng, 3)}.{rng.choice(_EXTS)}"
                          for _ in range(80)] for p in self.projects}
        self.serial = 0

    def eid(self) -> str:
        self.serial += 1
        return "evt-%012x" % self.rng.getrandbits(48)

    def words(self, topic: list[str], k_topic: int, k_bg: int) -> str:
        rng = self.rng
        picked = rng.sample(topic, min(k_topic, len(topic))) + self.vocab.zipf(rng, k_bg)
        rng.shuffle(picked)
        return " ".join(picked)


def _session_rows(world: _World, start: datetime, steps: int, end: datetime) -> list[tuple]:
    """(time, label, row) of one session, in time order."""
    rng = world.rng
    project = rng.choices(world.projects, weights=world.project_weights)[0]
    topic = [w for t in rng.sample(world.vocab.topics, rng.choice((1, 1, 2))) for w in t]
    provider = rng.choices([p for p, _ in _PROVIDERS], weights=[w for _, w in _PROVIDERS])[0]
    sid = "%08x-%04x-4000-8000-%012x" % (rng.getrandbits(32), rng.getrandbits(16),
                                         rng.getrandbits(48))
    cwd = f"{world.cwd_root}/{project}"
    tpath = {"claude": f"/home/dev/.claude/projects/-work-{project}/{sid}.jsonl",
             "codex": f"/home/dev/.codex/sessions/2025/rollout-{sid}.jsonl",
             "hermes": f"/home/dev/.hermes/state.db#{sid}"}[provider]
    turn_prefix = {"claude": "turn-", "codex": "turn-codex-", "hermes": "turn-hermes-"}[provider]
    out: list[tuple] = []

    def emit(moment, label, row, new=True):
        out.append((moment, label, row, 1 if new else 0))

    moment = start
    turn = 0
    for step in range(steps):
        moment += timedelta(seconds=rng.randint(4, 200))
        if moment >= end:
            break
        ts = format_timestamp(moment)
        kind = "prompt" if step == 0 else rng.choices(_KINDS, weights=_WEIGHTS)[0]
        eid = world.eid()
        common = {"event_id": eid, "timestamp": ts, "provider": provider, "project": project,
                  "cwd": cwd, "transcript_path": tpath}
        if kind in ("bash", "edit", "commit"):
            extra: dict = {}
            if kind == "bash":
                etype, salience = "tool_bash", 0.2
                summary = f"Ran: {rng.choice(_COMMANDS)} {world.words(topic, 1, rng.randint(1, 4))}"
            elif kind == "edit":
                etype, salience = "tool_file_edit", 0.4
                summary = f"Modified: {cwd}/{rng.choice(world.files[project])}"
            else:
                etype = "git_commit"
                ctype = rng.choice(("feature", "fix", "refactor", "docs", "test"))
                salience = {"feature": 0.7, "fix": 0.7, "refactor": 0.6}.get(ctype, 0.4)
                sha = "%040x" % rng.getrandbits(160)
                files = ",".join(rng.sample(world.files[project], rng.randint(1, 4)))
                summary = (f"[{ctype}] Commit {sha}: {ctype}: "
                           f"{world.words(topic, 2, rng.randint(2, 6))} | files: {files}")
                extra = {"commit_type": ctype, "commit_action": "commit"}
            tool = {"bash": "Bash", "edit": "Edit", "commit": "Bash"}[kind]
            emit(moment, "tool-use", order_row("tool-use", {
                **common, "type": etype, "tool": tool, "summary": summary, "session": sid,
                "diff_shape": None, "salience": salience, **extra},
                keep_none=frozenset({"diff_shape"})))
            emit(moment, "changelog", order_row("changelog", {
                **common, "type": etype, "session_id": sid, "summary": summary,
                "diff_shape": None, "related_ids": [], "salience": salience, **extra},
                keep_none=frozenset({"diff_shape"})), new=False)
        elif kind in ("fetch", "search"):
            if kind == "fetch":
                url = (f"https://docs.{_word(rng, 2)}.dev/{'/'.join(world.vocab.zipf(rng, 2))}/"
                       f"{rng.choice(topic)}")
                row = {**common, "type": "fetch", "url": url, "prompt": world.words(topic, 2, 4),
                       "category": "docs", "session": sid, "salience": 0.5}
                etype, summary = "research_fetch", f"Fetched: {url}"
            else:
                query = world.words(topic, 2, 2)
                row = {**common, "type": "search", "query": query, "category": "other",
                       "session": sid, "salience": 0.5}
                etype, summary = "research_search", f"Search: {query}"
            emit(moment, "research", order_row("research", row))
            emit(moment, "changelog", order_row("changelog", {
                **common, "type": etype, "session_id": sid, "summary": summary,
                "related_ids": [], "salience": 0.5}), new=False)
        elif kind == "prompt":
            parts = rng.sample(topic, min(3, len(topic))) + world.vocab.zipf(rng, 3)
            text = rng.choice(_PROMPTS).format(a=parts[0], b=parts[1], c=parts[2], d=parts[3],
                                               e=parts[4])
            row = {"event_id": eid, "timestamp": ts, "type": "prompt", "provider": provider,
                   "summary": text, "project": project, "cwd": cwd, "session_id": sid,
                   "transcript_path": tpath, "salience": 0.6}
            if world.serial % 20000 == 7:
                del row["event_id"]  # a row without an id: keyed by position
            emit(moment, "prompts", order_row("prompts", row))
        elif kind == "turn":
            turn += 1
            words = max(6, min(1800, int(rng.lognormvariate(3.3, 0.75))))
            body = world.words(topic, 3, words)
            row = order_row("turns", {
                "event_id": f"{turn_prefix}{sid}-{turn}", "timestamp": ts, "project": project,
                "type": "transcript", "provider": provider, "summary": body,
                "transcript_path": tpath, "session": sid, "turn_idx": turn})
            emit(moment, "turns", row)
        else:
            name, description, salience = rng.choice((
                ("compaction_auto", "Context compacted (auto)", 0.4),
                ("session_end_prompt_input_exit", "Session ended (prompt_input_exit)", 0.5),
                ("session_wrapup", f"Wrapup: {world.words(topic, 3, 5)}", 0.9)))
            row = {**common, "milestone": name, "description": description,
                   "session_id": sid, "transcript_verified": True, "deeplink": "",
                   "event": "Wrapup" if name == "session_wrapup" else "SessionEnd",
                   "git_branch": "main", "git_dirty_files": 0, "recent_commits": "",
                   "session_event_count": step, "salience": salience}
            emit(moment, "milestones", order_row("milestones", row))
            emit(moment, "changelog", order_row("changelog-milestone", {
                **common, "type": f"milestone_{name}", "session_id": sid, "deeplink": "",
                "summary": f"{description} [main, 0 dirty, {step} events]",
                "transcript_verified": True, "related_ids": [], "salience": salience}), new=False)
    if turn and rng.random() < 0.05:
        # The open turn was written by a Stop hook mid-session and again when it grew.
        last = next(r for r in reversed(out) if r[1] == "turns")
        grown = dict(last[2])
        grown["summary"] = last[2]["summary"] + " " + world.words(topic, 2, 30)
        emit(last[0] + timedelta(seconds=30), "turns", grown, new=False)
    return out


def _write_days(root: Path, world: _World, events: int, start: datetime, days: float,
                mode: str, progress: bool = False) -> dict:
    root.mkdir(parents=True, exist_ok=True)
    handles = {label: open(root / name, mode) for label, name in SEARCHED_LOGS.items()}
    counts = {label: 0 for label in SEARCHED_LOGS}
    rng = world.rng
    per_day = events / days
    made = 0
    day = 0
    written = 0
    started = time.perf_counter()
    try:
        while made < events:
            day_start = start + timedelta(days=day)
            day_end = min(day_start + timedelta(days=1), start + timedelta(days=days))
            if day_start >= day_end:
                day_start = day_end - timedelta(seconds=1)
            budget = min(events - made, max(1, round(per_day * (day + 1)) - made))
            rows: list[tuple] = []
            got = 0
            while got < budget:
                offset = rng.random() * max(1.0, (day_end - day_start).total_seconds() - 60)
                session = _session_rows(world, day_start + timedelta(seconds=offset),
                                        rng.randint(20, 400), day_end)
                for item in session:
                    if got >= budget and item[3]:
                        break
                    rows.append(item)
                    got += item[3]
            rows.sort(key=lambda item: item[0])
            for _, label, row, _new in rows:
                handles[label].write(dumps_row(row))
                counts[label] += 1
                written += 1
                if written % 100_003 == 11:
                    handles[label].write(b'{"event_id": "broken\n')  # a malformed line
            made += got
            day += 1
            if progress and day % 30 == 0:
                rate = made / (time.perf_counter() - started)
                print(f"  day {day}: {made:,} events ({rate:,.0f}/s)", file=sys.stderr)
    finally:
        for handle in handles.values():
            handle.close()
    return {"events": made, "rows": counts}


def generate(root: Path | str, events: int, *, seed: int = 18, days: int = 365,
             progress: bool = False, cwd_root: str = "/work") -> dict:
    """Write a home of `events` events over `days` ending at NOW (existing logs replaced)."""
    root = Path(root)
    world = _World(seed, cwd_root)
    info = _write_days(root, world, events, NOW - timedelta(days=days), days, "wb", progress)
    info.update(seed=seed, days=days, cwd_root=cwd_root,
                bytes=sum((root / name).stat().st_size for name in SEARCHED_LOGS.values()))
    (root / "generated.json").write_text(json.dumps(info), "utf-8")
    return info


def append(root: Path | str, events: int, *, seed: int, after: datetime = NOW) -> dict:
    """Append `events` newer events (an hour after `after`), as hooks would."""
    world = _World(seed)
    return _write_days(Path(root), world, events, after + timedelta(hours=1), 1 / 24, "ab")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args()
    started = time.perf_counter()
    info = generate(args.root, args.events, seed=args.seed, progress=True)
    info["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(info))


if __name__ == "__main__":
    main()
