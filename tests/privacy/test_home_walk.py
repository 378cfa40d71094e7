"""Every byte carto writes: plant every shape of the shape sets (tuned and held-out) and of the
credential corpus in everything a writer takes in, run every writer, then walk the WHOLE home.

Writers: every hook event of Claude and Codex (SessionStart, UserPromptSubmit with recall on,
PreToolUse, PostToolUse Bash/WebFetch/WebSearch, PostToolUseFailure, PreCompact, PostCompact,
SubagentStop, Stop with the secret as `last_assistant_message` over a live transcript,
SessionEnd), a hook problem for hook.log, rows spilled by a home that refused them, Claude
transcripts and prompt history, Codex rollouts, git commits, a wrapup, searches (telemetry:
search calls, served log, access ledger, knowledge gaps), MCP calls, and `carto index`
(keyword index, semantic index with the LSA vocabulary and its vectors). The walk reads every
file under the home as UTF-8, UTF-16 and UTF-32 (numpy strings), lower-cased, for every long
alphanumeric fragment of each secret (`tests/core/test_redact_writers.leaks`).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.capture.hookpath import log_problem, run
from carto_core.cli import cli
from carto_core.logio.home import Home

from tests.core.test_redact_writers import GIT_ENV, POSITIVES, git, leaks
from tests.privacy.shapes import HELD_OUT, TUNED

CASES = [*POSITIVES, *[c for make in TUNED.values() for c in make()], *HELD_OUT()]
TEXTS = [c["text"] for c in CASES]
SECRETS = [c["secret"] for c in CASES]


def stamp(n: int = 0) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - 600 + n))


def hook(provider: str, event: str, payload: dict, home: Home, repo: Path, session: str) -> None:
    base = {"session_id": session, "cwd": str(repo), "hook_event_name": event,
            "transcript_path": payload.pop("transcript_path", f"/nonexistent/{provider}.jsonl")}
    run(provider, event, json.dumps({**base, **payload}).encode(), home)


def live_claude_transcript(path: Path, session: str) -> None:
    lines = []
    for n, text in enumerate(TEXTS):
        lines.append({"type": "user", "uuid": f"u{n}", "sessionId": session, "cwd": "/w/proj", "timestamp": stamp(n),
                      "message": {"role": "user", "content": [{"type": "text", "text": f"question {n}: {text}"}]}})
        lines.append({"type": "assistant", "uuid": f"a{n}", "sessionId": session, "cwd": "/w/proj", "timestamp": stamp(n),
                      "message": {"role": "assistant", "id": f"m{n}", "content": [{"type": "text", "text": "on it"}]}})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")


def live_codex_rollout(path: Path, session: str) -> None:
    from tests.privacy.test_live_answer import codex_rollout

    codex_rollout(path)


@pytest.mark.slow
def test_no_planted_secret_survives_anywhere_in_the_home(tmp_path, monkeypatch):
    home = Home(tmp_path / "home")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    monkeypatch.setenv("CARTO_CATCHUP", "0")
    monkeypatch.setenv("CARTO_KEEPUP", "0")
    monkeypatch.setenv("CARTO_PROMPT_RECALL", "1")
    monkeypatch.setenv("CARTO_SPILL_DIR", str(tmp_path / "spill"))
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    runner = CliRunner()

    # 1. Every hook event, both agents; each text as a command, output, query, prompt, answer.
    for provider in ("claude", "codex"):
        session = f"sess-{provider}"
        for n, text in enumerate(TEXTS):
            hook(provider, "SessionStart", {"source": "startup"}, home, repo, session)
            hook(provider, "UserPromptSubmit", {"prompt": text, "turn_id": f"t{n}"}, home, repo, session)
            hook(provider, "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": text}}, home, repo, session)
            hook(provider, "PostToolUse", {"tool_name": "Bash", "tool_input": {"command": text},
                                           "tool_response": {"stdout": text, "stderr": text}}, home, repo, session)
            hook(provider, "PostToolUseFailure", {"tool_name": "Bash", "tool_input": {"command": text},
                                                  "error": text}, home, repo, session)
            hook(provider, "PostToolUse", {"tool_name": "WebSearch", "tool_input": {"query": text}}, home, repo, session)
            hook(provider, "PostToolUse", {"tool_name": "WebFetch", "tool_input": {
                "url": "https://example.com/x", "prompt": text}}, home, repo, session)
        hook(provider, "PreCompact", {"trigger": "manual", "custom_instructions": "\n".join(TEXTS)}, home, repo, session)
        hook(provider, "PostCompact", {"trigger": "auto", "compact_summary": "\n".join(TEXTS)}, home, repo, session)
        hook(provider, "SubagentStop", {"agent_type": "Explore", "last_assistant_message": "\n".join(TEXTS)},
             home, repo, session)
        # Stop over a live transcript, the secret as the final answer (one Stop per shape).
        live = tmp_path / "live" / provider / f"{session}.jsonl"
        if provider == "claude":
            live_claude_transcript(live, session)
        else:
            live_codex_rollout(tmp_path / "sessions" / "2026" / "12" / "01" / f"rollout-2026-12-01T10-00-00-{session}.jsonl",
                               session)
            live = tmp_path / "sessions" / "2026" / "12" / "01" / f"rollout-2026-12-01T10-00-00-{session}.jsonl"
        for text in TEXTS:
            hook(provider, "Stop", {"transcript_path": str(live), "last_assistant_message": text}, home, repo, session)
        hook(provider, "SessionEnd", {"reason": "other", "transcript_path": str(live)}, home, repo, session)
    for text in TEXTS:
        log_problem(f"claude PostToolUse: could not read {text}", home)

    # 2. Rows a full home refused: spilled (outside the home), flushed by the next write.
    import errno

    from carto_core.logio import appendlog

    real_append = appendlog.append_lines

    def refuse(path, *args, **kwargs):
        if str(path).startswith(str(home.root)):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_append(path, *args, **kwargs)

    monkeypatch.setattr(appendlog, "append_lines", refuse)
    for text in TEXTS:
        hook("claude", "PostToolUse", {"tool_name": "Bash", "tool_input": {"command": f"spilled {text}"},
                                       "tool_response": {"stdout": text, "stderr": ""}}, home, repo, "sess-spill")
    spilled = b"".join(p.read_bytes() for p in (tmp_path / "spill").rglob("*") if p.is_file())
    assert spilled.count(b"\n") >= len(TEXTS)  # the rows went to the spill file
    assert leaks(tmp_path / "spill", SECRETS) == {}
    monkeypatch.setattr(appendlog, "append_lines", real_append)

    # 3. Backfills: Claude transcripts and history, Codex rollouts, git; a wrapup; searches; MCP.
    from tests.core.test_redact_writers import claude_transcript, codex_rollout

    monkeypatch.setattr("tests.core.test_redact_writers.POSITIVES", CASES)
    claude_transcript(tmp_path / "projects" / "-w-proj")
    history = tmp_path / "history.jsonl"
    history.write_text("".join(json.dumps({"display": t, "timestamp": 1765606729001 + n, "project": "/w/proj"})
                               + "\n" for n, t in enumerate(TEXTS)), "utf-8")
    assert runner.invoke(cli, ["ingest", "claude", "--root", str(tmp_path / "projects"), "--history", str(history)]).exit_code == 0
    codex_rollout(tmp_path / "codex")
    assert runner.invoke(cli, ["ingest", "codex", "--root", str(tmp_path / "codex")]).exit_code == 0
    for n, text in enumerate(TEXTS[::3]):
        (repo / "f.txt").write_text(str(n))
        git(repo, "add", "f.txt")
        git(repo, "commit", "-q", "-m", f"chore: rotate\n\n{text}")
    assert runner.invoke(cli, ["ingest", "git", "--repo", str(repo), "--all-authors", "--limit", "1000"]).exit_code == 0
    monkeypatch.setenv("CARTO_SESSION_ID", "sess-claude")
    runner.invoke(cli, ["wrapup", "--session", "sess-claude", *[a for t in TEXTS[:15] for a in ("--decision", t)]])
    assert runner.invoke(cli, ["repair", "spill", "--write"]).exit_code in (0, 3)
    assert runner.invoke(cli, ["index", "--rebuild"]).exit_code in (0, 3)
    for text in TEXTS[::4]:
        runner.invoke(cli, ["search", text[:200], "--json"])
        runner.invoke(cli, ["search", text[:200], "--json", "--semantic"])
    ids = json.loads(runner.invoke(cli, ["search", "rotate", "--json", "--all"]).output or "{}").get("results", [])
    runner.invoke(cli, ["search", "--touch", ",".join(r["event_id"] for r in ids[:5])])
    from carto_core.mcp.server import state_for

    state = state_for(home)
    for text in TEXTS[::9]:
        state.call("search", {"query": text[:200]})
    runner.invoke(cli, ["facts", "census", "--json"])

    # The walk.
    written = [p for p in home.root.rglob("*") if p.is_file()]
    names = {str(p.relative_to(home.root)) for p in written}
    for expected in ("turns.jsonl", "changelog.jsonl", "research-log.jsonl", "tool-use-log.jsonl",
                     "prompt-history.jsonl", ".carto/hook.log", ".carto/search-calls.jsonl", "served-log.jsonl"):
        assert expected in names or any(n.endswith(expected) for n in names), (expected, sorted(names)[:40])
    assert any(n.startswith(".carto/live/claude/") for n in names) and any(n.startswith(".carto/live/codex/") for n in names)
    assert any(n.startswith(".carto/checkpoints/") for n in names)
    assert any(n.startswith(".carto/search/") for n in names) and any(n.startswith(".carto/vectors/") or
                                                                        n.startswith(".carto/embedders/") for n in names)
    assert "[REDACTED:" in home.log("turns").read_text()
    assert home.log("changelog").read_text().count('"Ran: spilled ') >= len(TEXTS) // 2  # flushed back
    found = leaks(home.root, SECRETS)
    if found and os.environ.get("CARTO_WALK_KEEP"):
        import shutil

        shutil.copytree(home.root, os.environ["CARTO_WALK_KEEP"], dirs_exist_ok=True)
    by_text = {c["secret"]: c["text"] for c in CASES}
    assert found == {}, "\n".join(f"{by_text[s][:120]!r} in {sorted(set(where))}" for s, where in found.items())
    assert leaks(tmp_path / "spill", SECRETS) == {}
