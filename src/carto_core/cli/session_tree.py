"""`carto session ID --tree`: the session's agents, turns and tool calls as an indented tree
(`carto_core.lenses.sessiontree`). The session is found by id prefix among the session ids the
facts columns keep (`lenses.sessionstore.resolve_indexed`) and read through them: no corpus
load, and no log read for the prefix."""

from __future__ import annotations

import click

from carto_core.util.exitcodes import ExitCode
from carto_core.util.output import emit_json, fail
from carto_core.util.terminal import counted, transcript_said


def _short(text: str, width: int) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _label(node: dict) -> str:
    kind = {"sidechain": "inline sidechain", "file": "own file", "thread": "Codex thread"}.get(node["kind"], node["kind"])
    parts = [kind] + ([node["agent_type"]] if node.get("agent_type") else [])
    if node["spawned_by"] is None:
        parts.append("no call names it")
    return f"subagent {node['agent']} ({', '.join(parts)})"


def render(document: dict, echo=click.echo) -> None:
    counts = document["counts"]
    echo(f"session  {document['session_id']} · {document['provider'] or '?'} · {document['project'] or 'no project'}")
    if document.get("parent_session"):
        echo(f"parent   {document['parent_session']} (this session is a sub-agent thread of it)")
    unlinked = f" ({counts['unlinked_agents']} no call names)" if counts["unlinked_agents"] else ""
    from carto_core.lenses.sessiontree import walk

    transcripts = {node["transcript_path"] for node in walk(document["tree"]) if node["transcript_path"]}
    echo(f"tree     {counted(counts['agents'], 'subagent')}{unlinked} · {counted(counts['turns'], 'turn')} · "
         f"{counted(counts['tool_calls'], 'tool call')} in the transcript{'s' if len(transcripts) > 1 else ''}")
    _node(document["tree"], "main agent", 0, echo)
    if not counts["turns"]:
        # the tree is read from transcript turns; a session only hooks saw has its work elsewhere
        hooked = counts.get("hook_tool_calls") or 0
        said = f"hooks recorded {counted(hooked, 'tool call')}, listed" if hooked else "its hook rows are listed"
        echo(f"  no transcript turn recorded: {said} by carto session {document['session_id'][:8]}")


def _node(node: dict, label: str, depth: int, echo) -> None:
    pad = "  " * depth
    where = transcript_said(node["transcript_path"]) if node["transcript_path"] else "no transcript"
    echo(f"{pad}{label} · {counted(len(node['turns']), 'turn')} · {where}")
    for turn in node["turns"]:
        echo(f"{pad}  turn {turn['turn_idx'] if turn['turn_idx'] is not None else '?'} · "
             f"{turn['timestamp'] or '-'} · {_short(turn['summary'], 80)}")
        for call in turn["tools"]:
            flags = "".join([f"  [{call['agent_type']}]" if call.get("agent_type") else "",
                             "  failed" if call.get("failed") else ""])
            echo(f"{pad}    #{call['n']} {call['name']}  {_short(call['input'], 70)}{flags}".rstrip())
            if "agent" in call:
                _node(call["agent"], _label(call["agent"]), depth + 3, echo)
            elif call.get("spawned"):
                echo(f"{pad}      -> {call['spawned']} (not ingested)")
        if turn["tools_dropped"]:
            echo(f"{pad}    ... {counted(turn['tools_dropped'], 'more call')} (not recorded)")
    for child in node["agents"]:
        _node(child, _label(child), depth + 1, echo)


def show_tree(prefix: str, as_json: bool) -> None:
    from carto_core.lenses.sessions import AmbiguousSession, SessionNotFound
    from carto_core.lenses.sessiontree import tree_of
    from carto_core.logio.home import current_home

    home = current_home()
    try:
        document = tree_of(home, prefix)
    except AmbiguousSession as exc:
        if as_json:
            emit_json({"error": "ambiguous", "prefix": prefix,
                       "candidates": [{"session_id": c} for c in exc.candidates]})
        else:
            click.echo(f"carto: {len(exc.candidates)} sessions start with {prefix!r}; give more of the id:", err=True)
            for candidate in exc.candidates:
                click.echo(f"  {candidate}", err=True)
        raise SystemExit(int(ExitCode.USAGE))
    except SessionNotFound:
        fail(f"no session id starts with {prefix!r}", ExitCode.NOT_FOUND)
    if as_json:
        emit_json(document)
    else:
        render(document)
