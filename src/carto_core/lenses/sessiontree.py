"""A session as a tree: the main agent, the subagents it started, their turns and tool calls.

What the transcripts say (the readers write it on the turn rows, docs/records.md):

- a Claude Code subagent in its own file (`<session>/subagents/agent-<id>.jsonl`, or
  `agent-<id>.jsonl` beside the sessions) makes turns `turn-<sid>-agent-<id>-<n>` with
  `agent_id: <id>`; an inline sidechain (1.0.x) makes turns `turn-<sid>-side-<n>` with
  `agent_id: "sidechain"`, one subagent per sidechain turn;
- a Codex sub-agent is a thread of its own (its own session id and rollout) whose turns name
  the parent in `parent_session`;
- the Task/Agent/spawn_agent call that started a subagent carries `spawned`, the id of the
  subagent's first turn.

So each subagent hangs under the call that started it; a subagent no call names (rows written
before the readers recorded `spawned`, a subagent file whose parent call is not in the
transcript) hangs under the agent it belongs to, `spawned_by: null`. Each node names its own
transcript file: a subagent's file for a subagent, the main transcript for the main agent and
for inline sidechains, the child's rollout for a Codex thread.

`session_tree(session_id, events, children)` is a pure fold over the session's events and, per
child thread, its events; `tree_for(home, session_id)` reads them through the facts columns
(`carto_core.lenses.sessionfacts.sessions_events`), and finds child threads by a bytes search
of the turns log for `"parent_session":"<id>"`. Read-only.
"""

from __future__ import annotations

from datetime import datetime, timezone

from carto_core.capture.collision import PARENT_NEEDLE, THREAD_DEPTH, thread_parents
from carto_core.lenses.sessionfacts import session_projects, session_provider, session_transcript
from carto_core.model.events import Event, is_resolved
from carto_core.util.timeparse import format_timestamp

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
#: How deep Codex threads may nest before the walk stops (a cycle in bad rows ends here too).
MAX_DEPTH = THREAD_DEPTH
SUMMARY_CHARS = 160


def _summary(event: Event) -> str:
    text = " ".join(str(event.summary or "").split())
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"


def _turn_key(event: Event):
    idx = event.row.get("turn_idx")
    return (event.timestamp is None, event.timestamp or _EPOCH, idx if isinstance(idx, int) else 0,
            event.event_id)


def _calls(turn: Event) -> list[dict]:
    tools = turn.row.get("tools")
    out = []
    for n, entry in enumerate(tools if isinstance(tools, list) else (), 1):
        if not isinstance(entry, dict):
            continue
        call = {"n": n, "event_id": f"{turn.event_id}#{n}",
                "name": entry.get("name") if isinstance(entry.get("name"), str) else "tool",
                "input": entry.get("input") if isinstance(entry.get("input"), str) else "",
                "at": entry.get("at") if isinstance(entry.get("at"), str) else None}
        if entry.get("failed") is True:
            call["failed"] = True
        for key in ("agent_type", "spawned"):
            if isinstance(entry.get(key), str) and entry[key]:
                call[key] = entry[key]
        out.append(call)
    return out


def _turn(event: Event) -> dict:
    idx = event.row.get("turn_idx")
    dropped = event.row.get("tools_dropped")
    return {"event_id": event.event_id, "turn_idx": idx if isinstance(idx, int) else None,
            "timestamp": format_timestamp(event.timestamp) if event.timestamp else None,
            "summary": _summary(event), "tools": _calls(event),
            "tools_dropped": dropped if isinstance(dropped, int) else 0}


def _node(agent: str, kind: str, session_id: str, turns: list[Event]) -> dict:
    turns = sorted(turns, key=_turn_key)
    paths = [t.transcript_path for t in turns if is_resolved(t.transcript_path)]
    return {"agent": agent, "kind": kind, "session_id": session_id,
            "transcript_path": paths[-1] if paths else None,
            "agent_type": None, "spawned_by": None,
            "turns": [_turn(t) for t in turns], "agents": []}


def session_tree(session_id: str, events, children: dict[str, list[Event]] | None = None) -> dict:
    """The tree of one session from its events (rows of other sessions are ignored) and, for
    each Codex child thread (any depth), that thread's events."""
    children = children or {}
    mine = [e for e in events if e.session_id == session_id]
    turns = {e.event_id: e for e in mine if e.source == "turns"}.values()
    main_turns, subagents = [], {}
    for turn in turns:
        agent = turn.row.get("agent_id")
        if not isinstance(agent, str) or not agent:
            main_turns.append(turn)
        elif agent == "sidechain":  # one subagent per inline sidechain turn
            suffix = turn.event_id[len(f"turn-{session_id}-"):]
            subagents[turn.event_id] = _node(suffix, "sidechain", session_id, [turn])
        else:
            first = f"turn-{session_id}-agent-{agent}-1"
            subagents.setdefault(first, {"agent": agent, "turns": []})["turns"].append(turn)
    for first, held in list(subagents.items()):
        if "kind" not in held:
            subagents[first] = _node(held["agent"], "file", session_id, held["turns"])
    root = _node("main", "main", session_id, main_turns)
    root["transcript_path"] = session_transcript(sorted(mine, key=_turn_key)) or None
    threads = _threads(session_id, children, depth=0, seen={session_id})
    subagents.update(threads)
    _attach(root, subagents)
    provider = session_provider(mine)
    project = next(iter(session_projects(mine)), None)
    parent = thread_parents(e.row for e in mine if e.source == "turns").get(session_id)
    counts = _counts(root)
    # The tree holds what transcripts recorded; a call a hook logged is the same call again
    # when its turn is ingested, so it is counted beside the tree, never added into it.
    counts["hook_tool_calls"] = len({e.event_id for e in mine
                                     if e.source != "turns" and e.type.startswith("tool_")})
    return {"session_id": session_id, "provider": provider, "project": project,
            "transcript_path": root["transcript_path"], "parent_session": parent,
            "counts": counts, "tree": root}


def _threads(parent: str, children: dict[str, list[Event]], *, depth: int, seen: set) -> dict:
    """Codex child threads of `parent` as nodes keyed by their first turn id, their own
    children attached inside them."""
    out = {}
    if depth >= MAX_DEPTH:
        return out
    for sid, events in children.items():
        if sid in seen:
            continue
        turns = [e for e in events if e.session_id == sid and e.source == "turns"]
        if not any(t.row.get("parent_session") == parent for t in turns):
            continue
        seen.add(sid)
        node = _node(sid, "thread", sid, turns)
        _attach(node, _threads(sid, children, depth=depth + 1, seen=seen))
        ordered = sorted(turns, key=_turn_key)
        out[ordered[0].event_id if ordered else f"turn-codex-{sid}-1"] = node
    return out


def _attach(node: dict, subagents: dict[str, dict]) -> None:
    """Hang each subagent under the call that names its first turn (calls of `node`'s turns and,
    depth first, of the subagents hung meanwhile); the rest under `node` itself, oldest first."""
    pending = dict(subagents)

    def visit(current: dict) -> None:
        for turn in current["turns"]:
            for call in turn["tools"]:
                child = pending.pop(call.get("spawned", ""), None)
                if child is None:
                    continue
                child["spawned_by"] = call["event_id"]
                child["agent_type"] = child["agent_type"] or call.get("agent_type")
                call["agent"] = child
                visit(child)

    visit(node)
    while pending:  # an unlinked subagent may still have started others
        first = min(pending, key=lambda k: (_started(pending[k]), k))
        child = pending.pop(first)
        node["agents"].append(child)
        visit(child)


def _started(node: dict) -> str:
    return next((t["timestamp"] for t in node["turns"] if t["timestamp"]), "")


def current_children(node: dict) -> list[dict]:
    """The subagents already under `node` (hung under a call, or unlinked), one level down."""
    out = [call["agent"] for turn in node["turns"] for call in turn["tools"] if "agent" in call]
    return out + node["agents"]


def walk(node: dict):
    """Every node of a tree, depth first (the node, then its subagents in order)."""
    yield node
    for child in current_children(node):
        yield from walk(child)


def _counts(root: dict) -> dict:
    nodes = list(walk(root))
    return {"agents": len(nodes) - 1,
            "turns": sum(len(n["turns"]) for n in nodes),
            "tool_calls": sum(len(t["tools"]) + t["tools_dropped"] for n in nodes for t in n["turns"]),
            "unlinked_agents": sum(1 for n in nodes[1:] if n["spawned_by"] is None)}


# --------------------------------------------------------------------------- from a home


def child_threads(home, session_id: str) -> list[str]:
    """Session ids whose turns name `session_id` as their `parent_session` (bytes search)."""
    from carto_core.logio.reader import rows_containing

    needle = PARENT_NEEDLE + session_id.encode("utf-8") + b'"'
    found: dict[str, None] = {}
    for row in rows_containing(home.log("turns"), needle):
        if isinstance(row.get("session"), str) and row.get("parent_session") == session_id:
            found.setdefault(row["session"])
    return list(found)


def tree_of(home, prefix: str) -> dict:
    """`tree_for` the session a prefix names (`sessionstore.resolve_indexed`'s errors), the
    facts columns opened once for both."""
    from carto_core.facts.store import facts_columns
    from carto_core.lenses.sessionstore import resolve_indexed

    cols = facts_columns(home)
    return tree_for(home, resolve_indexed(home, prefix, cols), cols)


def tree_for(home, session_id: str, cols=None) -> dict:
    """`session_tree` of a session read from a home (facts columns, `cols` when the caller holds
    them current; child threads found in the turns log, to MAX_DEPTH levels)."""
    from carto_core.lenses.sessionfacts import sessions_events

    wanted, frontier = [session_id], [session_id]
    for _ in range(MAX_DEPTH):
        nxt = [c for sid in frontier for c in child_threads(home, sid) if c not in wanted]
        if not nxt:
            break
        wanted += nxt
        frontier = nxt
    events = sessions_events(home, wanted, cols)
    children = {sid: events.get(sid, []) for sid in wanted[1:]}
    return session_tree(session_id, events.get(session_id, []), children)
