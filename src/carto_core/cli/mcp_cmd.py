"""`carto mcp`: serve carto's lenses to agents over the Model Context Protocol (stdio)."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, fail
from carto_core.util.exitcodes import ExitCode


@click.command(
    epilog="""\b
Examples:
  carto mcp                          serve on stdin/stdout (an agent starts this, not you)
  carto mcp --list-tools             the tools, their arguments and what they answer
  carto mcp --list-tools --json      the same as JSON schemas
  carto mcp --max-chars 20000        allow longer answers before paging
  carto install claude --mcp         register this server with Claude Code
  carto install codex --mcp          register it with Codex

Tools: search, get, thread, orient, facts, standup, digest, wrapup and decide (the ones that
write), decisions, collision, session_tree, related, handoff. Every answer is the matching CLI
command's --json document, at most --max-chars characters (default 12000, or CARTO_MCP_MAX_CHARS, or [mcp] max_chars in config.toml); a
longer one is paged: page.cut is true and page.next_cursor continues it.
Needs the MCP SDK: pip install 'carto-core[mcp]'."""
, cls=JsonErrorCommand)
@click.option("--max-chars", type=click.IntRange(2000, 200000), default=None,
              help="Most characters one answer may use (default 12000).")
@click.option("--list-tools", is_flag=True, help="Print the tool catalogue and exit.")
@click.option("--json", "as_json", is_flag=True, help="With --list-tools: one JSON document.")
@click.option("--no-warm", is_flag=True, help="Do not load the search index at start-up.")
def mcp(max_chars, list_tools, as_json, no_warm) -> None:
    """Serve carto as a Model Context Protocol server on stdin/stdout.

    Agents that speak MCP (Claude Code, Codex, Cursor, ...) start this command and call its
    tools instead of shelling out to `carto search` and parsing text. The server keeps the
    search index warm between calls, bounds every answer, and writes nothing but search
    telemetry and the milestones `wrapup` is asked to write.
    """
    from carto_core.mcp.server import tool_catalogue

    if list_tools:
        catalogue = tool_catalogue()
        if as_json:
            emit_json({"tools": catalogue})
            return
        wide = max(len(tool["name"]) for tool in catalogue)  # the names' column, whatever their length
        for tool in catalogue:
            props = tool["input_schema"]["properties"]
            required = set(tool["input_schema"].get("required", []))
            args = ", ".join((f"{k}*" if k in required else k) for k in props
                             if k not in ("max_chars", "cursor"))
            click.echo(f"{tool['name']:<{wide}} {tool['title']}{'' if tool['read_only'] else '  [writes ' + tool['writes'] + ']'}")
            click.echo(f"{'':<{wide}} args: {args}   (* required; every tool also takes max_chars, cursor)")
        return
    try:
        import mcp as _sdk  # noqa: F401
    except ImportError:
        fail("the MCP SDK is not installed: pip install 'carto-core[mcp]'", ExitCode.UNAVAILABLE)
    from carto_core.mcp.server import run_stdio, state_for

    run_stdio(state_for(max_chars=max_chars), warm=not no_warm)
