"""Transcript and prompt-history backfill against the shared real-format fixtures.

Counts are checked against an independent scan written here (plain `json` and the DESIGN
section 4 rule, line by line) rather than against the reader's own output.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_claude.transcripts import ClaudeSource, project_prompt, stable_event_id
from carto_core.model.corpus import load_corpus
from carto_core.logio.home import Home
from carto_core.ingest.runner import run_ingest

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "claude"
if not FIXTURES.exists():  # the shared folder sits beside the repository checkout
    FIXTURES = Path("/work/shared/fixtures/claude")

SCAFFOLD = ("<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>", "<system-reminder>",
            "[Request interrupted by user", "Caveat: The messages below were generated")


def independent_scan(path: Path) -> dict:
    """Prompts per thread and bad lines, read without any carto code."""
    prompts: dict[str, int] = {}
    bad = 0
    seen: set = set()
    agent_file = path.name.startswith("agent-")
    for raw in path.read_bytes().split(b"\n"):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except ValueError:
            bad += 1
            continue
        if not isinstance(line, dict) or not isinstance(line.get("type"), str):
            bad += 1
            continue
        if line["type"] not in ("user", "assistant"):
            continue
        if not isinstance(line.get("message"), dict):
            bad += 1
            continue
        if line.get("uuid") in seen:
            bad += 1
            continue
        if line.get("uuid"):
            seen.add(line["uuid"])
        if line["type"] != "user" or line.get("isMeta") or line.get("isCompactSummary") or "toolUseResult" in line:
            continue
        content = line["message"].get("content")
        texts = [content] if isinstance(content, str) else [
            b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text"]
        texts = [t for t in texts if t.strip()]
        if texts and not all(t.lstrip().startswith(SCAFFOLD) for t in texts):
            thread = "agent" if agent_file else ("side" if line.get("isSidechain") else "main")
            prompts[thread] = prompts.get(thread, 0) + 1
    return {"prompts": prompts, "bad": bad}


def fixture_files() -> list[Path]:
    return sorted(FIXTURES.rglob("*.jsonl"))


@pytest.fixture
def projects(tmp_path):
    root = tmp_path / "projects"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns("*.md"))
    old = time.time() - 3600
    for path in root.rglob("*"):
        os.utime(path, (old, old))  # settled: every last turn may be written
    return root


def test_every_fixture_ingests_with_turn_counts_equal_to_an_independent_scan(projects, tmp_path):
    home = Home(tmp_path / "home")
    source = ClaudeSource({"roots": [str(projects)]})
    summary = run_ingest(source, home)
    assert not summary.errors
    rows = [json.loads(line) for line in (home.root / "turns.jsonl").read_text().splitlines()]
    by_file: dict[str, list] = {}
    for row in rows:
        by_file.setdefault(Path(row["transcript_path"]).name, []).append(row)
    files = sorted(projects.rglob("*.jsonl"))
    assert len(files) == len(fixture_files()) == summary.streams
    expected_total = 0
    for path in files:
        scan = independent_scan(path)
        got = by_file.get(path.name, [])
        expected_total += sum(scan["prompts"].values())
        assert len(got) == sum(scan["prompts"].values()), path.name
        # Numbering is 1..n per thread, and the main thread's ids are turn-<sid>-<n>.
        for thread, count in scan["prompts"].items():
            marker = {"main": None, "side": "-side-", "agent": "-agent-"}[thread]
            numbers = sorted(r["turn_idx"] for r in got if (marker is None and "agent_id" not in r)
                             or (marker is not None and marker in r["event_id"]))
            assert numbers == list(range(1, count + 1)), (path.name, thread)
    assert len(rows) == expected_total
    assert len({row["event_id"] for row in rows}) == len(rows)


def test_subagent_layouts_are_tied_to_the_parent_session(projects, tmp_path):
    home = Home(tmp_path / "home")
    run_ingest(ClaudeSource({"roots": [str(projects)]}), home)
    rows = [json.loads(line) for line in (home.root / "turns.jsonl").read_text().splitlines()]
    nested = [r for r in rows if r["transcript_path"].endswith("subagents/agent-showcol1.jsonl")]
    beside = [r for r in rows if r["transcript_path"].endswith("agent-test-hash-123.jsonl")]
    inline = [r for r in rows if "-side-" in r["event_id"]]
    assert nested and {r["session"] for r in nested} == {"55550000-0000-4000-8000-000000000001"}
    assert nested[0]["event_id"] == "turn-55550000-0000-4000-8000-000000000001-agent-showcol1-1"
    assert beside and {r["session"] for r in beside} == {"5c0375b4-57a5-4f26-b12d-d022ee4e51b7"}
    assert inline and {r["session"] for r in inline} == {"5c0375b4-57a5-4f26-b12d-d022ee4e51b7"}
    assert all(r["agent_id"] == "sidechain" for r in inline)


def test_tool_results_do_not_start_turns_and_streamed_lines_merge(projects, tmp_path):
    path = next(projects.rglob("1af7fc5e-*.jsonl"))
    lines = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
    assistant_ids = {l["message"]["id"] for l in lines if l.get("type") == "assistant"}
    users = [l for l in lines if l.get("type") == "user"]
    batch = ClaudeSource({"roots": [str(projects)]}).read(
        next(s for s in ClaudeSource({"roots": [str(projects)]}).discover() if s.path == path), None)
    assert batch.units == len(users) + len(assistant_ids)  # 15 assistant lines are 7 messages
    assert len(batch.rows) == 1  # one human prompt (the /init command); tool results join it


def test_edge_case_file_keeps_every_good_line_and_counts_the_bad(projects, tmp_path):
    path = next(projects.rglob("edge_cases.jsonl"))
    source = ClaudeSource({"roots": [str(path)]})
    batch = source.read(next(iter(source.discover())), None)
    assert sum(batch.skipped.values()) == independent_scan(path)["bad"]
    assert {"not_an_object", "no_type", "bad_message", "duplicate_uuid"} <= set(batch.skipped)
    body = " ".join(e.row["summary"] for e in batch.rows)
    for raw in path.read_text().splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(line, dict) or line.get("type") != "assistant" or not isinstance(line.get("message"), dict):
            continue
        for block in line["message"].get("content", []):
            if isinstance(block, dict) and block.get("type") == "text":
                assert " ".join(block["text"].split())[:40] in body
    assert "café, naïve, résumé, 中文" in body


def test_rerun_is_idempotent_and_appended_lines_resume_from_the_checkpoint(tmp_path):
    root = tmp_path / "projects" / "-proj"
    root.mkdir(parents=True)
    path = root / "sess-a.jsonl"
    start = time.time() - 60  # a live session: its own timestamps are fresh

    def line(kind: str, text: str, n: int) -> str:
        message = {"role": kind, "content": [{"type": "text", "text": text}]}
        if kind == "assistant":
            message["id"] = f"msg_{n}"
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(start + n)) + "Z"
        return json.dumps({"type": kind, "uuid": f"u{n}", "sessionId": "sess-a", "cwd": "/w/proj",
                           "timestamp": stamp, "message": message}) + "\n"

    def ingest():
        return run_ingest(ClaudeSource({"roots": [str(tmp_path / "projects")], "settle_seconds": 3600}), home)

    path.write_text(line("user", "first question", 1) + line("assistant", "first answer", 2)
                    + line("user", "second question", 3) + line("assistant", "partial", 4))
    home = Home(tmp_path / "home")
    first = ingest()
    # The open second turn is written as it stands, marked open, and said so.
    assert first.written["turns"] == 2 and first.open_rows == 1 and first.revised == 0
    assert first.open_until == pytest.approx(time.time() + 3600, abs=120)
    again = ingest()
    assert again.rows_written == 0 and again.already_present == 1  # re-read the open turn only
    with open(path, "a") as handle:
        handle.write(line("assistant", "rest of the answer", 5) + line("user", "third", 6))
    third = ingest()
    # The second turn, grown and closed by the third prompt, is written again; the third is open.
    assert third.written["turns"] == 2 and third.revised == 1 and third.open_rows == 1
    old = time.time() - 7200
    os.utime(path, (old, old))
    last = ingest()
    assert last.written["turns"] == 1 and last.open_rows == 0  # the third, closed: quiet file
    rows = [json.loads(l) for l in (home.root / "turns.jsonl").read_text().splitlines()]
    assert [r["event_id"] for r in rows] == ["turn-sess-a-1", "turn-sess-a-2", "turn-sess-a-2",
                                             "turn-sess-a-3", "turn-sess-a-3"]
    assert [r.get("open") for r in rows] == [None, True, None, True, None]
    assert rows[1]["summary"] == "second question partial"
    assert "partial" in rows[2]["summary"] and "rest of the answer" in rows[2]["summary"]
    assert rows[2]["project"] == "proj" and rows[2]["timestamp"] == rows[1]["timestamp"]
    corpus = load_corpus(home)
    turns = [e for e in corpus.events if e.source == "turns"]
    assert [e.event_id for e in turns] == ["turn-sess-a-1", "turn-sess-a-2", "turn-sess-a-3"]
    assert "rest of the answer" in corpus.get("turn-sess-a-2").summary
    assert "open" not in corpus.get("turn-sess-a-3").row
    assert ingest().rows_written == 0  # finished and unchanged: nothing read


def test_old_timestamps_finish_a_transcript_copied_just_now(tmp_path):
    """A copy made now has a fresh mtime; its own timestamps say it is over."""
    root = tmp_path / "projects" / "-proj"
    root.mkdir(parents=True)
    path = root / "sess-b.jsonl"
    rows = [{"type": "user", "uuid": "u1", "sessionId": "sess-b", "cwd": "/w/proj",
             "timestamp": "2025-03-01T10:00:00Z", "message": {"role": "user", "content": "only question"}},
            {"type": "assistant", "uuid": "u2", "sessionId": "sess-b", "timestamp": "2025-03-01T10:00:05Z",
             "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "only answer"}]}},
            {"type": "last-prompt", "sessionId": "sess-b"}]  # bookkeeping without a timestamp
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    home = Home(tmp_path / "home")
    summary = run_ingest(ClaudeSource({"roots": [str(tmp_path / "projects")]}), home)
    assert summary.written["turns"] == 1 and summary.open_rows == 0
    (row,) = [json.loads(l) for l in (home.root / "turns.jsonl").read_text().splitlines()]
    assert "open" not in row and row["summary"] == "only question only answer"


# --- prompt history ------------------------------------------------------------------------


def reference_id(timestamp: str, summary: str, session: str | None, cwd: str | None) -> str:
    """Upstream's recipe, spelled out: sha256 of the timestamp then key=value, space-joined."""
    parts = [timestamp, f"summary={summary}", "type=prompt"]
    if session:
        parts.append(f"session_id={session}")
    if cwd:
        parts.append(f"project={os.path.basename(cwd)}")
        parts.append(f"cwd={cwd}")
    return "evt-" + hashlib.sha256(" ".join(parts).encode()).hexdigest()[:12]


def test_history_projects_prompts_with_stable_ids(tmp_path):
    projects = tmp_path / "projects" / "-w-proj"
    projects.mkdir(parents=True)
    (projects / "sid-live.jsonl").write_text("")
    history = tmp_path / "history.jsonl"
    entries = [
        {"display": "fix the\nparser", "timestamp": 1765606729001, "project": "/w/proj", "sessionId": "sid-live"},
        {"display": "/clear", "timestamp": 1765606729002, "project": "/w/proj"},
        {"display": "/remember the shader fix", "timestamp": 1765606729003, "project": "/w/proj"},
        {"display": "   ", "timestamp": 1765606729004},
        {"display": "old", "timestamp": 1065606729004},
        {"display": "gone session", "timestamp": 1765606729005, "project": "/w/proj", "sessionId": "sid-gone"},
    ]
    history.write_text("\n".join(json.dumps(e) for e in entries) + "\nnot json\n")
    home = Home(tmp_path / "home")
    source = ClaudeSource({"roots": [str(tmp_path / "projects")], "history": str(history)})
    summary = run_ingest(source, home)
    rows = [json.loads(l) for l in (home.root / "prompt-history.jsonl").read_text().splitlines()]
    assert [r["summary"] for r in rows] == ["fix the parser", "/remember the shader fix", "gone session"]
    assert rows[0]["event_id"] == reference_id("2025-12-13T06:18:49Z", "fix the parser", "sid-live", "/w/proj")
    assert rows[0]["transcript_path"].endswith("sid-live.jsonl")
    assert "transcript_path" not in rows[2]
    # upstream's keys in upstream's order, then carto's prompt intent (issue 17)
    assert list(rows[0]) == ["event_id", "timestamp", "type", "provider", "summary", "project", "cwd",
                             "session_id", "transcript_path", "salience", "prompt_intent"]
    # "/remember ...": the tokenizer drops the slash, so the command's name leads the prompt
    assert [r["prompt_intent"] for r in rows] == ["bug-fixes", "feedback-context", "other"]
    assert summary.skipped == {"slash_command": 1, "empty": 1, "bad_timestamp": 1, "broken_line": 1}
    # Idempotent even without the checkpoint: ids are content hashes.
    (home.state / "checkpoints" / "claude.json").unlink()
    again = run_ingest(ClaudeSource({"roots": [str(tmp_path / "projects")], "history": str(history)}), home)
    assert again.rows_written == 0 and again.already_present == 3


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1), st.integers(1704067200000, 1893455999000), st.one_of(st.none(), st.text(min_size=1)))
def test_prompt_ids_follow_the_recipe_for_any_text(text, ms, session):
    row, reason = project_prompt({"display": text, "timestamp": ms, "sessionId": session, "project": "/a/b"}, {})
    if row is None:
        assert reason in {"empty", "slash_command"}
        return
    assert "\n" not in row["summary"] and "\t" not in row["summary"]
    assert row["event_id"] == reference_id(row["timestamp"], row["summary"], session or None, "/a/b")
    assert row["event_id"] == stable_event_id(row)  # the row's own content re-derives its id
