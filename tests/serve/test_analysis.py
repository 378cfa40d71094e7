"""Transcript analysis (`/api/transcript/analysis`, `serve/analysis.py`): turns where the adapters
start them, compactions, tools joined to their results, reported tokens once per message,
estimated tokens per category, and context a hook injected marked as such, never a prompt."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carto_core.recall.snippet import HEADER
from carto_core.serve.analysis import CATEGORIES, analyze_file, estimate
from carto_core.evaluation.sample import SESSIONS

RECALL = HEADER + "\n- evt-abc (3d, webshop): the cart total rounds half-even"


def _usage(inp, out, read=0, write=0):
    return {"input_tokens": inp, "output_tokens": out, "cache_read_input_tokens": read,
            "cache_creation_input_tokens": write}


def claude_lines() -> list[dict]:
    user = lambda text, **kw: {"type": "user", "timestamp": "2026-01-01T00:00:00Z",  # noqa: E731
                               "message": {"role": "user", "content": text}, **kw}
    return [
        {"type": "attachment", "timestamp": "2026-01-01T00:00:00Z",
         "attachment": {"type": "hook_additional_context", "content": [RECALL],
                        "hookName": "UserPromptSubmit", "hookEvent": "UserPromptSubmit"}},
        user("fix the cart rounding"),
        # two streamed lines of one message: its usage counts once
        {"type": "assistant", "message": {"id": "msg_1", "role": "assistant", "usage": _usage(10, 5, 100, 7),
                                          "content": [{"type": "text", "text": "Looking."}]}},
        {"type": "assistant", "message": {"id": "msg_1", "role": "assistant", "usage": _usage(10, 20, 100, 7),
                                          "content": [{"type": "tool_use", "id": "tu_1", "name": "Bash",
                                                       "input": {"command": "pytest"}}]}},
        user([{"type": "tool_result", "tool_use_id": "tu_1", "is_error": True,
               "content": "FAILED test_cart.py"}]),
        user("<system-reminder>keep going</system-reminder>"),
        user("expanded skill body", isMeta=True),
        {"type": "system", "subtype": "compact_boundary", "timestamp": "2026-01-01T00:05:00Z",
         "compactMetadata": {"trigger": "auto", "preTokens": 150000}},
        user("Summary of the conversation so far", isCompactSummary=True,
             isVisibleInTranscriptOnly=True),
        {"type": "attachment", "attachment": {"type": "hook_additional_context",
                                              "content": ["note from another hook"],
                                              "hookName": "SessionStart", "hookEvent": "SessionStart"}},
        user("now the discount codes"),
        {"type": "assistant", "message": {"id": "msg_2", "role": "assistant", "usage": _usage(3, 4),
                                          "content": [{"type": "tool_use", "id": "tu_2", "name": "Edit",
                                                       "input": {"file_path": "/w/cart.py"}},
                                                      {"type": "text", "text": "Done."}]}},
        user([{"type": "tool_result", "tool_use_id": "tu_2", "content": "ok"}]),
    ]


def write(path: Path, rows: list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def test_claude_turns_tools_compactions_and_injected(tmp_path):
    doc = analyze_file(write(tmp_path / "t.jsonl", claude_lines()), "claude")
    # turns: the two typed prompts only (not the reminder, the meta body, the summary, the hooks')
    assert doc["turns_total"] == 2
    assert [t["prompt"] for t in doc["turns"]] == ["fix the cart rounding", "now the discount codes"]
    # the recall written before the prompt's line belongs to the turn that prompt starts,
    # marked as carto's recall, not a prompt
    assert doc["preamble"] is None
    assert [(i["kind"], i["turn"]) for i in doc["turns"][0]["injected"]] == \
        [("carto_recall", 0), ("hook_context", 0)]
    assert doc["turns"][1]["injected"] == []
    assert doc["injected"]["count"] == 2 and doc["injected"]["carto_recall"] == 1
    assert [i["kind"] for i in doc["injected"]["items"]] == ["carto_recall", "hook_context"]
    assert doc["injected"]["by_hook"] == {"UserPromptSubmit": 1, "SessionStart": 1}
    assert doc["categories"]["injected"]["chars"] == len(RECALL) + len("note from another hook")
    assert doc["categories"]["prompt"]["chars"] == len("fix the cart rounding") + len("now the discount codes")
    # tools joined to their results by id; the failed result is Bash's
    tools = {t["name"]: t for t in doc["tools"]}
    assert (tools["Bash"]["calls"], tools["Bash"]["failed"], tools["Bash"]["result_chars"]) == (1, 1, 19)
    assert (tools["Edit"]["calls"], tools["Edit"]["failed"]) == (1, 0)
    assert doc["turns"][0]["tools"] == {"Bash": 1} and doc["turns"][0]["failed"] == 1
    assert doc["turns"][1]["tools"] == {"Edit": 1}
    # the compaction: where, why, how big; its summary is its own category
    assert doc["compactions"] == [{"timestamp": "2026-01-01T00:05:00Z", "trigger": "auto",
                                   "pre_tokens": 150000, "post_tokens": None, "turn": 0,
                                   "summary_chars": len("Summary of the conversation so far")}]
    assert doc["categories"]["compact_summary"]["messages"] == 1
    assert doc["categories"]["meta"]["chars"] == len("expanded skill body")
    assert doc["categories"]["harness"]["chars"] == len("<system-reminder>keep going</system-reminder>")
    # reported tokens: msg_1 once (its last copy), msg_2 once
    assert doc["tokens"]["reported"] == {"input": 13, "output": 24, "cache_read": 100, "cache_write": 7}
    assert doc["turns"][0]["reported_tokens"] == {"input": 10, "output": 20, "cache_read": 100, "cache_write": 7}
    # estimated: characters / 4 rounded up, per category, summing to the total
    for name, entry in doc["categories"].items():
        assert entry["estimated_tokens"] == estimate(entry["chars"]), name
    assert doc["tokens"]["estimated"] == sum(c["estimated_tokens"] for c in doc["categories"].values())
    assert estimate(1) == 1 and estimate(4) == 1 and estimate(5) == 2


def test_codex_rollout(tmp_path):
    rows = [
        {"type": "session_meta", "payload": {"id": "s"}},
        {"type": "event_msg", "timestamp": "t1", "payload": {"type": "user_message", "message": "list files"}},
        {"type": "response_item", "payload": {"type": "message", "role": "user",
                                              "content": [{"type": "input_text", "text": "list files"}]}},
        {"type": "response_item", "payload": {"type": "message", "role": "developer",
                                              "content": [{"type": "input_text", "text": RECALL}]}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "exec_command",
                                              "arguments": "{\"cmd\":\"ls\"}", "call_id": "c1"}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": "a\nb"}},
        {"type": "event_msg", "payload": {"type": "token_count", "info": {
            "last_token_usage": {"input_tokens": 50, "cached_input_tokens": 30, "output_tokens": 9}}}},
        {"type": "compacted", "timestamp": "t2", "payload": {"message": "summary"}},
        {"type": "event_msg", "timestamp": "t2", "payload": {"type": "context_compacted"}},
        {"type": "response_item", "payload": {"type": "message", "role": "assistant",
                                              "content": [{"type": "output_text", "text": "a and b"}]}},
    ]
    doc = analyze_file(write(tmp_path / "rollout.jsonl", rows), "codex")
    assert doc["turns_total"] == 1
    assert doc["categories"]["prompt"] == {"messages": 1, "chars": 10, "estimated_tokens": 3}
    assert doc["injected"]["carto_recall"] == 1
    assert doc["tools"][0]["name"] == "exec_command" and doc["tools"][0]["result_chars"] == 3
    assert doc["tokens"]["reported"] == {"input": 20, "output": 9, "cache_read": 30, "cache_write": 0}
    assert len(doc["compactions"]) == 1 and doc["compactions"][0]["summary_chars"] == 7
    assert doc["categories"]["harness"]["messages"] == 0  # the prompt's own copy is not harness


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                         st.sampled_from(["type", "message", "content", "usage", "id", "payload",
                                          "attachment", "subtype", "text", "role", "isMeta"]),
                         inner, max_size=4), max_leaves=12)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(rows=st.lists(_json | st.sampled_from(claude_lines()), max_size=12), provider=st.sampled_from(["claude", "codex", ""]))
def test_any_lines_are_counted_never_raise(tmp_path_factory, rows, provider):
    path = write(tmp_path_factory.mktemp("h") / "t.jsonl", [json.dumps(r) for r in rows] + ["{torn"])
    doc = analyze_file(path, provider)
    assert doc["lines"] == len(rows) + 1
    assert doc["unreadable_lines"] == 1 + sum(1 for r in rows if not isinstance(r, dict))
    assert set(doc["categories"]) == set(CATEGORIES)
    per_turn = sum(t["chars"].get("prompt", 0) for t in doc["turns"])
    assert per_turn == doc["categories"]["prompt"]["chars"]
    assert all(v >= 0 for v in doc["tokens"]["reported"].values())


# --------------------------------------------------------------------------- the route


def test_route_by_session_and_confined(client, roots, tmp_path):
    claude_root = roots.claude[0]
    write(claude_root / "-work-webshop" / f"{SESSIONS['a']}.jsonl", claude_lines())
    answer = client.get("/api/transcript/analysis", params={"session_id": SESSIONS["a"]})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["provider"] == "claude" and body["turns_total"] == 2
    assert body["injected"]["carto_recall"] == 1
    # paging the turns
    second = client.get("/api/transcript/analysis",
                        params={"session_id": SESSIONS["a"], "offset": 1, "limit": 1}).json()
    assert [t["index"] for t in second["turns"]] == [1] and second["turns_total"] == 2
    # outside the roots: refused before anything is read, whatever the file holds
    outside = write(tmp_path / "elsewhere" / "x.jsonl", claude_lines())
    refused = client.get("/api/transcript/analysis", params={"path": str(outside)})
    assert refused.status_code == 403 and refused.json()["code"] == "TRANSCRIPT_FORBIDDEN"
    assert "turns" not in refused.json()
    traversal = client.get("/api/transcript/analysis",
                           params={"path": str(claude_root / ".." / "elsewhere" / "x.jsonl")})
    assert traversal.status_code == 403
    missing = client.get("/api/transcript/analysis", params={"session_id": "no-such-session"})
    assert missing.status_code == 404
    assert client.get("/api/transcript/analysis").status_code == 400
    assert client.get("/api/transcript/analysis",
                      params={"session_id": SESSIONS["a"], "limit": 5001}).status_code == 400


def test_route_unreadable_only(client, roots):
    write(roots.claude[0] / "-w" / "junk.jsonl", ["{torn", "not json"])
    answer = client.get("/api/transcript/analysis",
                        params={"path": str(roots.claude[0] / "-w" / "junk.jsonl")})
    assert answer.status_code == 422 and answer.json()["code"] == "TRANSCRIPT_NO_MESSAGES"
