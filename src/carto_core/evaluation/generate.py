"""A generated home: a year (or any span) of realistic agent sessions in upstream's row shapes.

Used by `carto eval --generate`, the search benchmark and tests. Deterministic for a seed.
Sessions belong to projects and work on one or two *topics* (a topic is a handful of words that
recur across months, which is what makes vague queries vague); each event's text mixes topic
words, a Zipfian background vocabulary, identifiers and file paths. Rows are written as hooks
would: tool-use, research and milestone rows with their changelog copies (same event_id),
prompts and transcript turns in their own logs.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

from carto_core.logio.jsonl import dumps_row
from carto_core.logio.logs import SEARCHED_LOGS, order_row
from carto_core.util.privatefiles import make_dirs, open_private
from carto_core.util.timeparse import format_timestamp, utcnow

_CONS = "bcdfghjklmnprstvwz"
_VOW = "aeiou"
_EXTS = ("py", "ts", "js", "go", "rs", "tf", "sql", "yaml", "json", "toml", "sh", "css")
_VERBS = ("add", "fix", "refactor", "update", "remove", "rename", "handle", "cache", "retry",
          "validate", "parse", "render", "index", "migrate", "guard", "log", "measure", "split")
_COMMANDS = ("pytest", "npm test", "cargo test", "go test ./...", "make", "terraform plan",
             "git status --short", "docker compose up", "ruff check", "mypy", "uv run",
             "kubectl get pods", "psql -c", "curl -s", "python -m")
_TEMPLATES_PROMPT = ("why does {a} {b} when {c} {d}", "add {a} {b} to the {c}",
                     "can you make {a} {b} faster, it {c} {d} {e}",
                     "the {a} {b} is broken after {c}", "look into {a} {b} and {c} {d}")


def _word(rng: random.Random, syllables: int) -> str:
    return "".join(rng.choice(_CONS) + rng.choice(_VOW) for _ in range(syllables))


class _Vocab:
    def __init__(self, rng: random.Random, size: int = 12000, topics: int = 60):
        words: list[str] = []
        seen: set[str] = set()
        while len(words) < size:
            w = _word(rng, rng.choice((2, 2, 3, 3, 4)))
            if w not in seen:
                seen.add(w)
                words.append(w)
        self.words = words
        # Zipf weights for the background vocabulary.
        self.cum = []
        total = 0.0
        for rank in range(1, size + 1):
            total += 1.0 / rank ** 1.07
            self.cum.append(total)
        self.topics = [[_word(rng, 3) + rng.choice(("", "er", "ing", "s")) for _ in range(6)]
                       for _ in range(topics)]

    def zipf(self, rng: random.Random, k: int) -> list[str]:
        return rng.choices(self.words, cum_weights=self.cum, k=k)


def _eid(rng: random.Random) -> str:
    return "evt-" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(12))


def generate_home(root: Path | str, events: int = 20000, *, days: int = 365, seed: int = 7,
                  now: datetime | None = None, projects: int = 14) -> dict:
    """Write about `events` deduplicated events spread over `days` into `root`.

    Returns counts per log and the span. Existing logs in `root` are replaced."""
    rng = random.Random(seed)
    now = now or utcnow()
    root = Path(root)
    make_dirs(root)
    vocab = _Vocab(rng)
    project_names = [_word(rng, 3) + "-" + rng.choice(("api", "web", "cli", "infra", "core", "app"))
                     for _ in range(projects)]
    project_files = {p: [f"src/{_word(rng, 2)}/{_word(rng, 3)}.{rng.choice(_EXTS)}" for _ in range(60)]
                     for p in project_names}
    handles = {label: open_private(root / name, "wb") for label, name in SEARCHED_LOGS.items()}
    counts = {label: 0 for label in SEARCHED_LOGS}
    made = 0
    span_seconds = days * 86400

    def write(label: str, row: dict) -> None:
        handles[label].write(dumps_row(row))
        counts[label] += 1

    try:
        while made < events:
            project = rng.choice(project_names)
            topics = rng.sample(vocab.topics, rng.choice((1, 1, 2)))
            topic_words = [w for t in topics for w in t]
            sid = f"{rng.getrandbits(32):08x}-{rng.getrandbits(16):04x}-4000-8000-{rng.getrandbits(48):012x}"
            provider = rng.choice(("claude", "claude", "claude", "codex"))
            start = now - timedelta(seconds=rng.random() * span_seconds)
            length = rng.randint(15, 160)
            cwd = f"/work/{project}"
            tpath = (f"/home/dev/.claude/projects/-work-{project}/{sid}.jsonl" if provider == "claude"
                     else f"/home/dev/.codex/sessions/rollout-{sid}.jsonl")
            moment = start
            turn = 0
            for step in range(length):
                if made >= events:
                    break
                moment = moment + timedelta(seconds=rng.randint(5, 240))
                if moment > now:
                    break
                ts = format_timestamp(moment)
                eid = _eid(rng)
                common = {"event_id": eid, "timestamp": ts, "provider": provider,
                          "project": project, "cwd": cwd, "transcript_path": tpath}

                def words(k_topic: int, k_bg: int) -> str:
                    picked = rng.sample(topic_words, min(k_topic, len(topic_words))) + vocab.zipf(rng, k_bg)
                    rng.shuffle(picked)
                    return " ".join(picked)

                kind = rng.choices(
                    ("bash", "edit", "commit", "fetch", "search", "prompt", "turn", "milestone"),
                    weights=(30, 25, 6, 5, 4, 12, 12, 3))[0]
                if step == 0:
                    kind = "prompt"
                if kind in ("bash", "edit", "commit"):
                    if kind == "bash":
                        etype, salience = "tool_bash", 0.2
                        summary = f"Ran: {rng.choice(_COMMANDS)} {words(1, rng.randint(1, 4))}"
                        extra: dict = {}
                    elif kind == "edit":
                        etype, salience = "tool_file_edit", 0.4
                        summary = f"Modified: {cwd}/{rng.choice(project_files[project])}"
                        extra = {}
                    else:
                        etype = "git_commit"
                        ctype = rng.choice(("feature", "fix", "refactor", "docs", "test"))
                        salience = {"feature": 0.7, "fix": 0.7, "refactor": 0.6}.get(ctype, 0.4)
                        sha = "%040x" % rng.getrandbits(160)
                        files = ",".join(rng.sample(project_files[project], rng.randint(1, 4)))
                        subject = f"{rng.choice(_VERBS)} {words(2, rng.randint(2, 6))}"
                        summary = f"[{ctype}] Commit {sha}: {ctype}: {subject} | files: {files}"
                        extra = {"commit_type": ctype, "commit_action": "commit"}
                    write("tool-use", order_row("tool-use", {
                        **common, "type": etype, "tool": "Bash" if kind != "edit" else "Edit",
                        "summary": summary, "session": sid, "diff_shape": None,
                        "salience": salience, **extra}, keep_none=frozenset({"diff_shape"})))
                    write("changelog", order_row("changelog", {
                        **common, "type": etype, "session_id": sid, "summary": summary,
                        "diff_shape": None, "related_ids": [], "salience": salience, **extra},
                        keep_none=frozenset({"diff_shape"})))
                elif kind in ("fetch", "search"):
                    if kind == "fetch":
                        url = f"https://docs.{_word(rng, 2)}.dev/{'/'.join(vocab.zipf(rng, 2))}/{rng.choice(topic_words)}"
                        row = {**common, "type": "fetch", "url": url, "prompt": words(2, 4),
                               "category": "docs", "session": sid, "salience": 0.5}
                        etype, summary = "research_fetch", f"Fetched: {url}"
                    else:
                        query = words(2, 2)
                        row = {**common, "type": "search", "query": query, "category": "other",
                               "session": sid, "salience": 0.5}
                        etype, summary = "research_search", f"Search: {query}"
                    write("research", order_row("research", row))
                    write("changelog", order_row("changelog", {
                        **common, "type": etype, "session_id": sid, "summary": summary,
                        "related_ids": [], "salience": 0.5}))
                elif kind == "prompt":
                    parts = rng.sample(topic_words, min(3, len(topic_words))) + vocab.zipf(rng, 3)
                    text = rng.choice(_TEMPLATES_PROMPT).format(a=parts[0], b=parts[1], c=parts[2],
                                                               d=parts[3], e=parts[4])
                    write("prompts", order_row("prompts", {
                        "event_id": eid, "timestamp": ts, "type": "prompt", "provider": provider,
                        "summary": text, "project": project, "cwd": cwd, "session_id": sid,
                        "transcript_path": tpath, "salience": 0.6}))
                elif kind == "turn":
                    turn += 1
                    write("turns", order_row("turns", {
                        "event_id": f"turn-{sid}-{turn}", "timestamp": ts, "project": project,
                        "type": "transcript", "provider": provider,
                        "summary": words(3, rng.randint(12, 40)), "transcript_path": tpath,
                        "session": sid, "turn_idx": turn}))
                else:
                    name, description, salience = rng.choice((
                        ("compaction_auto", "Context compacted (auto)", 0.4),
                        ("session_end_prompt_input_exit", "Session ended (prompt_input_exit)", 0.5),
                        ("session_wrapup", f"Wrapup: {words(3, 5)}", 0.9)))
                    row = {**common, "milestone": name, "description": description,
                           "session_id": sid, "transcript_verified": True, "deeplink": "",
                           "event": "Wrapup" if name == "session_wrapup" else "SessionEnd",
                           "git_branch": "main", "git_dirty_files": 0, "recent_commits": "",
                           "session_event_count": step, "salience": salience}
                    write("milestones", order_row("milestones", row))
                    write("changelog", order_row("changelog-milestone", {
                        **common, "type": f"milestone_{name}", "session_id": sid, "deeplink": "",
                        "summary": f"{description} [main, 0 dirty, {step} events]",
                        "transcript_verified": True, "related_ids": [], "salience": salience}))
                made += 1
    finally:
        for handle in handles.values():
            handle.close()
    return {"events": made, "rows": counts, "days": days, "seed": seed,
            "projects": project_names, "now": format_timestamp(now)}
