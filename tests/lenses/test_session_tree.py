"""`carto session ID --tree`: every subagent under the call that started it, each node with its
own transcript, checked against an independent scan of the transcripts themselves.

The scan below reads the shared fixtures' JSONL files with `json` alone (no carto reader): a
Task/Agent `tool_use` of the main thread, the subagent the client says it started (2.1.x: the
result's `toolUseResult.agentId` and the file `<session>/subagents/agent-<id>.jsonl`; 1.0.x: the
inline sidechain whose first line's text is the call's prompt), the tool calls that subagent
made; Codex: `collab_tool_call.new_thread_id` and the rollout whose `session_meta` names it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from carto_core.cli import cli
from tests.clikit import run as _run, object_rows as _lines, ingest_shared as _home

DEMO = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"     # 1.0.x: three Task calls, two inline sidechains
SHOWCASE = "55550000-0000-4000-8000-000000000001"  # 2.1.x: two Agent calls, one subagent file
CODEX_PARENT = "22222222-2222-4222-8222-222222222222"
CODEX_CHILD = "33333333-3333-4333-8333-333333333333"


def _blocks(line: dict, kind: str) -> list[dict]:
    content = (line.get("message") or {}).get("content") if isinstance(line.get("message"), dict) else None
    return [b for b in content if isinstance(b, dict) and b.get("type") == kind] if isinstance(content, list) else []


def _text(line: dict) -> str:
    content = line["message"]["content"]
    if isinstance(content, str):
        return " ".join(content.split())
    return " ".join(" ".join(b["text"].split()) for b in content if isinstance(b, dict) and b.get("type") == "text")


def scan_claude(transcript: Path) -> dict:
    """{agent transcript path or 'inline:<n>': (the spawning call's input description, the tool
    names the subagent called)} from the files alone, and the subagent files no call names."""
    lines = _lines(transcript)
    calls = {}  # tool_use id -> input
    for line in lines:
        if not line.get("isSidechain"):
            for block in _blocks(line, "tool_use"):
                if block.get("name") in ("Task", "Agent"):
                    calls[block["id"]] = block["input"]
    expected, named = {}, set()
    for line in lines:  # 2.1.x: the result names the agent's file
        result = line.get("toolUseResult")
        for block in _blocks(line, "tool_result"):
            if block.get("tool_use_id") in calls and isinstance(result, dict) and result.get("agentId"):
                path = transcript.with_suffix("") / "subagents" / f"agent-{result['agentId']}.jsonl"
                named.add(path)
                if path.exists():
                    names = [b["name"] for sub in _lines(path) for b in _blocks(sub, "tool_use")]
                    expected[str(path)] = (calls[block["tool_use_id"]]["description"], names)
    # 1.0.x: each sidechain starts with a line without parent; its prompt is the call's.
    chains, current = [], None
    for line in lines:
        if line.get("isSidechain") and line.get("type") in ("user", "assistant"):
            if line.get("parentUuid") is None:
                current = {"prompt": _text(line), "names": []}
                chains.append(current)
            current["names"] += [b["name"] for b in _blocks(line, "tool_use")]
    for n, chain in enumerate(chains, 1):
        call = next(c for c in calls.values() if " ".join(str(c.get("prompt", "")).split()) == chain["prompt"])
        expected[f"inline:{n}"] = (call["description"], chain["names"])
    folder = transcript.parent
    loose = {str(p) for p in list(folder.glob("agent-*.jsonl")) + list(transcript.with_suffix("").glob("subagents/agent-*.jsonl"))
             if p not in named and any(r.get("sessionId") == transcript.stem for r in _lines(p))}
    return {"subagents": expected, "unlinked": loose}


def _tree_subagents(document: dict) -> tuple[dict, set]:
    found, unlinked = {}, set()
    inline = 0

    def visit(node):
        nonlocal inline
        for turn in node["turns"]:
            for call in turn["tools"]:
                if "agent" in call:
                    child = call["agent"]
                    names = [c["name"] for t in child["turns"] for c in t["tools"]]
                    if child["kind"] == "sidechain":
                        inline += 1
                        key = f"inline:{inline}"
                        assert child["transcript_path"] == document["transcript_path"]
                    else:
                        key = child["transcript_path"]
                    found[key] = (call["input"], names)
                    assert child["spawned_by"] == call["event_id"]
                    visit(child)
        for child in node["agents"]:
            assert child["spawned_by"] is None
            unlinked.add(child["transcript_path"])
            visit(child)

    visit(document["tree"])
    return found, unlinked


def test_every_subagent_hangs_under_the_call_that_started_it(shared_fixtures, tmp_path):
    claude, _ = _home(shared_fixtures, tmp_path)
    checked = 0
    for transcript in sorted(claude.rglob("*.jsonl")):
        if transcript.name.startswith("agent-") or "subagents" in transcript.parts:
            continue
        if not any(r.get("type") in ("user", "assistant") for r in _lines(transcript)):
            continue
        sid = transcript.stem
        document = _run("session", sid, "--tree", "--json")
        truth = scan_claude(transcript)
        found, unlinked = _tree_subagents(document)
        assert document["transcript_path"] == str(transcript), sid
        assert found == truth["subagents"], sid
        assert unlinked == truth["unlinked"], sid
        checked += len(found) + len(unlinked)
    assert checked == 4  # showcol1, two sidechains, the 2.0.x file beside the sessions


def test_the_fixture_shapes_as_the_tree_shows_them(shared_fixtures, tmp_path):
    _home(shared_fixtures, tmp_path)
    demo = _run("session", DEMO[:8], "--tree", "--json")
    calls = demo["tree"]["turns"][0]["tools"]
    tasks = [c for c in calls if c["name"] == "Task"]
    # The first Task was interrupted: no subagent ran for it, and none is pinned on it.
    assert [("agent" in c, c.get("failed", False)) for c in tasks] == [(False, True), (True, False), (True, False)]
    assert [c["agent"]["agent"] for c in tasks[1:]] == ["side-1", "side-2"]
    assert demo["counts"] == {"agents": 3, "turns": 4, "tool_calls": 13 + 2 + 6 + 0, "unlinked_agents": 1,
                              "hook_tool_calls": 0}
    showcase = _run("session", SHOWCASE, "--tree", "--json")
    agents = [c for c in showcase["tree"]["turns"][0]["tools"] if c["name"] == "Agent"]
    # showcol2's file is absent from the fixture: the call still names it.
    assert [c.get("spawned", "").rsplit("-agent-", 1)[-1] for c in agents] == ["showcol1-1", "showcol2-1"]
    assert ["agent" in c for c in agents] == [True, False]
    assert agents[0]["agent"]["agent_type"] == "general-purpose"
    text = _run("session", SHOWCASE, "--tree")
    assert "subagent showcol1 (own file, general-purpose)" in text
    assert f"-> turn-{SHOWCASE}-agent-showcol2-1 (not ingested)" in text


def test_a_codex_sub_agent_thread_is_a_node_with_its_own_rollout(shared_fixtures, tmp_path):
    _, codex = _home(shared_fixtures, tmp_path)
    # The scan: the parent's collab_tool_call names the child, whose rollout's meta names it.
    parent = next(codex.rglob(f"*{CODEX_PARENT}.jsonl"))
    spawned = [r["payload"]["new_thread_id"] for r in _lines(parent)
               if r.get("type") == "event_msg" and r["payload"].get("type") == "collab_tool_call"]
    rollouts = {r["payload"]["id"]: str(p) for p in codex.rglob("*.jsonl") for r in _lines(p)
                if r.get("type") == "session_meta"}
    document = _run("session", CODEX_PARENT, "--tree", "--json")
    call = document["tree"]["turns"][0]["tools"][0]
    assert spawned == [CODEX_CHILD] and call["name"] == "spawn_agent"
    assert call["agent"]["session_id"] == CODEX_CHILD and call["agent"]["kind"] == "thread"
    assert call["agent"]["transcript_path"] == rollouts[CODEX_CHILD]
    assert document["transcript_path"] == rollouts[CODEX_PARENT]
    child = _run("session", CODEX_CHILD, "--tree", "--json")
    assert child["parent_session"] == CODEX_PARENT and child["counts"]["agents"] == 0
    assert "(this session is a sub-agent thread of it)" in _run("session", CODEX_CHILD, "--tree")


def test_the_session_view_names_the_main_transcript_not_a_subagents(shared_fixtures, tmp_path):
    """Before: `carto session 55550000` named agent-showcol1.jsonl, its newest row's file."""
    claude, _ = _home(shared_fixtures, tmp_path)
    main = next(claude.rglob(f"{SHOWCASE}.jsonl"))
    assert _run("session", SHOWCASE, "--json")["session"]["transcript_path"] == str(main)
    listed = {s["session_id"]: s for s in _run("sessions", "--json")["sessions"]}
    assert listed[SHOWCASE]["transcript_path"] == str(main)
    assert f"transcript {main}\n" in _run("session", SHOWCASE[:8])


def test_tree_prefix_errors(shared_fixtures, tmp_path):
    _home(shared_fixtures, tmp_path)
    _run("session", "zzzz", "--tree", ok=(3,))
    ambiguous = CliRunner().invoke(cli, ["session", "5", "--tree", "--json"])
    assert ambiguous.exit_code == 2
    assert {c["session_id"] for c in json.loads(ambiguous.stdout)["candidates"]} >= {DEMO, SHOWCASE}


# --------------------------------------------------------------------------- the reader's link


def _claude_line(kind: str, content, *, side: bool = False, parent: str | None = "x", **extra) -> dict:
    role = "assistant" if kind == "assistant" else "user"
    return {"type": kind, "isSidechain": side, "parentUuid": parent, "sessionId": "s",
            "timestamp": "2026-01-01T00:00:00Z", "message": {"role": role, "content": content}, **extra}


@settings(max_examples=40, deadline=None)
@given(prompts=st.lists(st.text(st.characters(codec="utf-8", categories=("L", "N", "Zs")), min_size=1, max_size=30)
                        .filter(lambda t: t.strip()), min_size=1, max_size=6, unique_by=lambda t: " ".join(t.split())),
       data=st.data())
def test_a_sidechain_is_tied_to_the_task_that_asked_its_prompt(tmp_path_factory, prompts, data):
    """Any Task calls, any subset of them run as sidechains in any order: each sidechain is
    pinned on the call whose prompt it starts with, the others on none."""
    from carto_claude.turns import TranscriptReader

    ran = data.draw(st.permutations(range(len(prompts))).map(lambda p: p[: data.draw(st.integers(0, len(prompts)))]))
    lines = [_claude_line("user", "go", parent=None, uuid="u0")]
    for n, prompt in enumerate(prompts):
        lines.append(_claude_line("assistant", [{"type": "tool_use", "id": f"t{n}", "name": "Task",
                                                 "input": {"description": f"d{n}", "prompt": prompt}}], uuid=f"a{n}"))
    for k, n in enumerate(ran):
        lines.append(_claude_line("user", prompts[n], side=True, parent=None, uuid=f"s{k}"))
        lines.append(_claude_line("assistant", [{"type": "text", "text": f"done {k}"}], side=True, uuid=f"r{k}"))
    folder = tmp_path_factory.mktemp("t")
    path = folder / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    os.utime(path, (0, 0))
    rows = TranscriptReader(path, now=10**10).read(None).rows
    main = next(r for r in rows if r["event_id"] == "turn-s-1")
    spawned = {int(t["input"][1:]): t.get("spawned") for t in main["tools"]}
    expected = {n: None for n in range(len(prompts))}
    for k, n in enumerate(ran):
        expected[n] = f"turn-s-side-{k + 1}"
    assert spawned == expected
