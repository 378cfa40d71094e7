"""`carto facts tokens` against an independent scan of the same transcripts.

The scan reads the JSONL files with `json` alone: a Claude session's tokens are the `usage` of
its assistant lines (a message id once: its last line) in the file named by its id, subagent
files counted in their parent session, lines another session requested (`requestSessionId`: a fork's copies) left out; a Codex
session's are its `token_count` events' `last_token_usage` (input + output: the input holds the
cached part). Days and commits must add up to the total; each commit is charged only turns
that started before it.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path


from tests.clikit import run as _run, object_rows as _lines

ROOT = Path(__file__).resolve().parents[2]
LINEAGE = ROOT / "plugins" / "claude" / "tests" / "fixtures" / "claude-2.1.328-lineage"
CODEX_REAL = ROOT / "plugins" / "codex" / "tests" / "fixtures" / "codex-0.169.0"


def scan_claude(root: Path) -> Counter:
    totals: Counter = Counter()
    for path in root.rglob("*.jsonl"):
        last: dict[tuple[str, str], int] = {}
        for line in _lines(path):
            message = line.get("message")
            if line.get("type") != "assistant" or not isinstance(message, dict):
                continue
            usage = message.get("usage")
            own = line.get("sessionId")
            # A session's file is named by its id (whatever its lines say); a subagent's file
            # counts in the session its lines name.
            sid = own if path.name.startswith("agent-") else path.stem
            if not isinstance(usage, dict) or not sid or line.get("requestSessionId", own) != own:
                continue
            total = sum(v for k, v in usage.items() if k in ("input_tokens", "output_tokens",
                        "cache_read_input_tokens", "cache_creation_input_tokens") and isinstance(v, int))
            last[(sid, message.get("id") or f"line{len(last)}")] = total
        for (sid, _), total in last.items():
            totals[sid] += total
    return +totals


def scan_codex(root: Path) -> Counter:
    totals: Counter = Counter()
    for path in root.rglob("rollout-*.jsonl"):
        sid = None
        for line in _lines(path):
            payload = line.get("payload") if isinstance(line.get("payload"), dict) else {}
            if line.get("type") == "session_meta" and sid is None:
                sid = payload.get("id")
            if line.get("type") == "event_msg" and payload.get("type") == "token_count":
                last = (payload.get("info") or {}).get("last_token_usage") or {}
                totals[sid] += (last.get("input_tokens") or 0) + (last.get("output_tokens") or 0)
    return +totals


def _home(shared_fixtures, tmp_path):
    claude = tmp_path / "claude"
    shutil.copytree(shared_fixtures / "claude", claude, ignore=shutil.ignore_patterns("*.md"))
    shutil.copytree(LINEAGE, claude / "-home-dev-repo", ignore=shutil.ignore_patterns("*.md", "payloads"))
    codex = tmp_path / "codex"
    shutil.copytree(CODEX_REAL / "sessions", codex)
    _run("ingest", "claude", "--root", str(claude), "--json")
    _run("ingest", "codex", "--root", str(codex), "--json")
    return claude, codex


def test_tokens_per_session_match_the_transcripts(shared_fixtures, tmp_path):
    claude, codex = _home(shared_fixtures, tmp_path)
    truth = scan_claude(claude) + scan_codex(codex)
    facts = _run("facts", "tokens", "--top", "200", "--json")["facts"]
    got = {s["session_id"]: s["tokens"]["total"] for s in facts["sessions"]}
    # Turns that began before any human prompt hold no turn row: the scan counts what the
    # readers keep, so both sides leave nothing out that the other keeps.
    assert got == dict(truth)
    assert len(got) >= 6 and any(k.startswith("01a230") for k in got)  # Claude and Codex both
    assert facts["tokens"]["total"] == sum(truth.values())
    assert sum(d["tokens"]["total"] for d in facts["days"]) == facts["tokens"]["total"]
    assert sum(p["tokens"]["total"] for p in facts["projects"]) == facts["tokens"]["total"]


def test_commits_are_charged_the_turns_before_them_and_nothing_is_lost(shared_fixtures, tmp_path):
    _home(shared_fixtures, tmp_path)
    facts = _run("facts", "tokens", "--top", "200", "--json")["facts"]
    charged = sum(c["tokens"]["total"] for c in facts["commits"])
    dated = facts["tokens"]["total"] - sum(d["tokens"]["total"] for d in facts["days"] if d["day"] is None)
    assert facts["commits_total"] == len(facts["commits"]) >= 3
    assert charged + facts["uncommitted"]["total"] == dated
    for commit in facts["commits"]:
        for turn_id in commit["turn_ids"]:
            turn = _run("search", "--get", turn_id, "--json")["found"][turn_id]
            assert turn["timestamp"] < commit["timestamp"] or turn["timestamp"][:19] <= commit["timestamp"][:19]
    sha = {c["sha"] for c in facts["commits"]}
    assert {"3459cc8", "bb801dc"} <= sha  # the genuine session's two commits
    text = _run("facts", "tokens")
    assert "commits (" in text and "3459cc8" in text


def test_a_forks_copies_count_once(tmp_path):
    projects = tmp_path / "p"
    shutil.copytree(LINEAGE, projects, ignore=shutil.ignore_patterns("*.md", "payloads"))
    _run("ingest", "claude", "--root", str(projects), "--json")
    facts = _run("facts", "tokens", "--json")["facts"]
    by = {s["session_id"]: s for s in facts["sessions"]}
    fork = by["2a1c0000-0000-4000-8000-000000000004"]
    # The fork's transcript repeats its parent's answer; only its own turn is its cost.
    assert fork["turns"] == 1 and fork["tokens"]["total"] == scan_claude(projects)[fork["session_id"]]
    windowed = _run("facts", "tokens", "--since", "2026-12-02T12:11:30", "--json")["facts"]
    assert windowed["turns"] == 1  # only the fork's own turn started after 12:11:30 (local = UTC here)
