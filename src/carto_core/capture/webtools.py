"""Web research: research-log rows and their changelog envelopes for fetches and searches
(URL categories, result rows parented to their search; reference/cartographer.md 1.7), and the
mapping of web tools (WebSearch, WebFetch, `mcp__*search*`, ...) onto them.
"""

from __future__ import annotations

from carto_core.capture import research as _research
from carto_core.capture import shell as _shell
from carto_core.capture.context import Context, Outcome, as_text, new_event_id
from carto_core.logio.logs import order_row


def _research_row(fields: dict) -> dict:
    return order_row("research", fields)


def _research_pair(ctx: Context, out: Outcome, *, kind: str, fields: dict, summary: str, salience: float) -> str:
    """A research-log row (`fetch`/`search` plus `fields`) and its changelog envelope."""
    event_id = new_event_id()
    parent = ctx.parent()
    out.add("research", _research_row({
        "event_id": event_id, "timestamp": ctx.timestamp, "type": kind, "provider": ctx.provider, **fields,
        "project": ctx.project, "cwd": ctx.cwd, "session": ctx.session, "transcript_path": ctx.transcript,
        "salience": salience, "parent_event_id": parent, **ctx.call_id_field(),
    }))
    out.add("changelog", order_row("changelog", {
        "event_id": event_id, "timestamp": ctx.timestamp, "type": f"research_{kind}", "provider": ctx.provider,
        "session_id": ctx.session, "project": ctx.project, "cwd": ctx.cwd, "summary": _shell.flatten(summary),
        "transcript_path": ctx.transcript, "related_ids": [], "salience": salience, "parent_event_id": parent,
        **ctx.call_id_field(),
    }))
    ctx.chained(event_id)
    return event_id


def capture_fetch(ctx: Context, out: Outcome, *, url: str, prompt: str = "") -> str | None:
    """A fetch: research-log `fetch` row + changelog `research_fetch` (`Fetched: <url>`)."""
    if not url:
        return None
    category = _research.categorize_url(url)
    return _research_pair(ctx, out, kind="fetch", fields={"url": url, "prompt": prompt, "category": category},
                          summary="Fetched: " + url, salience=_research.FETCH_SALIENCE.get(category, 0.4))


def capture_search(ctx: Context, out: Outcome, *, query: str, response: object = None) -> str | None:
    """A search: research-log `search` + changelog `research_search` (`Search: <q>`), then one
    research-log-only `search_result` per result URL, parented to the search."""
    if not query:
        return None
    event_id = _research_pair(ctx, out, kind="search", fields={"query": query}, summary="Search: " + query,
                              salience=_research.SEARCH_SALIENCE)
    for url, title in _research.search_results(response):
        row = _research_row({
            "event_id": new_event_id(), "timestamp": ctx.timestamp, "type": "search_result",
            "provider": ctx.provider, "url": url, "title": _shell.flatten(title), "query": query,
            "category": _research.categorize_url(url), "project": ctx.project, "cwd": ctx.cwd,
            "session": ctx.session, "transcript_path": ctx.transcript, "related_ids": [event_id],
        })
        # Upstream writes parent_event_id before salience on result rows (1.7).
        row["parent_event_id"] = event_id
        row["salience"] = _research.SEARCH_RESULT_SALIENCE
        out.add("research", row)
    return event_id


def is_mcp_search(tool: str) -> bool:
    """`mcp__.*search.*` (the hooks-file matcher), without a regex on the hot path."""
    return tool.startswith("mcp__") and "search" in tool.lower()


def is_mcp_fetch(tool: str) -> bool:
    """`mcp__.*(fetch|open).*`."""
    if not tool.startswith("mcp__"):
        return False
    lowered = tool.lower()
    return "fetch" in lowered or "open" in lowered


def capture_web_tool(ctx: Context, out: Outcome, *, tool: str, tool_input: dict) -> bool:
    """WebSearch / `mcp__*search*` and WebFetch / `web__run` / `mcp__*fetch|open*` calls onto
    `capture_search` / `capture_fetch`; False when `tool` is neither (the caller goes on)."""
    if tool == "WebSearch" or is_mcp_search(tool):
        query = as_text(tool_input.get("query")) or as_text(tool_input.get("q")) or as_text(tool_input.get("search_query"))
        capture_search(ctx, out, query=query, response=ctx.payload.get("tool_response"))
        return True
    if tool in ("WebFetch", "web__run") or is_mcp_fetch(tool):
        url = as_text(tool_input.get("url")) or as_text(tool_input.get("uri")) or as_text(tool_input.get("href"))
        capture_fetch(ctx, out, url=url, prompt=as_text(tool_input.get("prompt")))
        return True
    return False
