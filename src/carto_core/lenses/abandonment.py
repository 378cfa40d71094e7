"""`carto report abandonment`: recall calls whose results nobody marked, read in the transcript.

A call is *abandoned* when none of its served results got an access mark (`--touch` or
`--get`, `carto_core.lenses.recall_join`). For each such call the session's transcript is read
from the call on, up to the session's next human prompt, its next search call, or
`window_minutes`, whichever comes first, and only what the agent itself wrote there (its prose
and its tool calls' input; tool results are never read: the search's own output would name its
results). The call is then, in this order:

- `unmarked_use`: the agent named a served result: its event id, a file path, a commit sha or a
  URL the result's text holds. Credited at the best rank so named;
- `bad_abandonment`: no such use, and the agent searched again (another `carto search`, a
  Grep/Glob/WebSearch call, `grep`/`rg`/`find` in a shell): the results did not answer;
- `good_abandonment`: no use, no search, and the agent's own text repeats at least
  `GOOD_TERMS` distinctive words of the top results (not the query's): the snippets answered;
- `no_need`: none of that: the agent went on without the recall (an automatic recall nobody
  needed, a call at the end of the work);
- `unread`: the transcript could not be found or holds nothing after the call.

These are inferences from text, and said to be (docs/search.md); explicit marks are never
inferred. MRR is reported twice over the same calls: explicit (marks only) and with implicit
use credited (an unmarked use counts at its credited rank). Read-only.
"""

from __future__ import annotations

import re
from collections import Counter

from carto_core.lenses.recall_join import build_join, mrr

WINDOW_MINUTES = 15.0
GOOD_TERMS = 3
TOP_RESULTS = 5
#: Characters of one transcript line read (a pasted file must not cost the report).
LINE_CHARS = 20000
_WORD = re.compile(r"[a-z][a-z0-9_]{3,}")
_PATH = re.compile(r"(?:[\w.-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{0,6}\b")
_SHA = re.compile(r"\b[0-9a-f]{7,40}\b")
_URL = re.compile(r"https?://[^\s\"'<>)]+")
_STOP = frozenset("""this that with from have were will your what when where which their there
about would could should into then than them they been also just more some only very like
make made does done here each over such most other these those after before while because
file files code line lines using used uses need needs want""".split())
_SEARCH_TOOLS = frozenset({"Grep", "Glob", "WebSearch", "grep", "glob", "web_search"})
_SEARCH_SHELL = re.compile(r"(?:^|[;&|]\s*|\s)(?:carto search|grep|rg|ag|ack|find|git grep|fd)\s")


def handles(event_id: str, row: dict | None) -> set[str]:
    """What naming a result looks like: its id, and the paths (whole and base name), shas and
    URLs its text holds."""
    out = {event_id}
    text = " ".join(str(row.get(k) or "") for k in ("summary", "description", "url", "prompt")) if row else ""
    for path in _PATH.findall(text):
        if "/" in path or len(path) >= 8:
            out.add(path)
            out.add(path.rsplit("/", 1)[-1])
    out.update(s for s in _SHA.findall(text) if not s.isdigit())
    out.update(u.rstrip(".,;") for u in _URL.findall(text))
    return {h for h in out if len(h) >= 6}


def terms(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


# --------------------------------------------------------------------------- transcripts


def _strings(value, out: list[str], budget: list[int]) -> None:
    if budget[0] <= 0:
        return
    if isinstance(value, str):
        out.append(value[: budget[0]])
        budget[0] -= len(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out, budget)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out, budget)


def classify_line(line: dict) -> tuple[str, str, bool]:
    """(kind, the agent's own text, searched): kind `prompt` (a human prompt: the window ends),
    `agent` (prose or tool calls the agent wrote) or `other` (tool results, metadata)."""
    kind = line.get("type")
    if kind == "user":  # Claude
        message = line.get("message") if isinstance(line.get("message"), dict) else {}
        content = message.get("content")
        if line.get("isMeta") or line.get("isSidechain"):
            return "other", "", False
        if isinstance(content, str) and content.strip():
            return "prompt", "", False
        if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "text" for b in content):
            return "prompt", "", False
        return "other", "", False
    if kind == "assistant":
        message = line.get("message") if isinstance(line.get("message"), dict) else {}
        parts: list[str] = []
        searched = False
        for block in message.get("content") or []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text":
                parts.append(str(block.get("text") or ""))
            elif block.get("type") == "tool_use":
                name = str(block.get("name") or "")
                texts: list[str] = []
                _strings(block.get("input"), texts, [LINE_CHARS])
                joined = " ".join(texts)
                parts.append(joined)
                searched = searched or name in _SEARCH_TOOLS or "search" in name.lower() and name.startswith("mcp__") \
                    or bool(_SEARCH_SHELL.search(" " + joined))
        return "agent", " ".join(parts)[:LINE_CHARS], searched
    payload = line.get("payload") if isinstance(line.get("payload"), dict) else {}
    inner = payload.get("type")
    if kind == "event_msg" and inner == "user_message":  # Codex
        return "prompt", "", False
    if kind == "event_msg" and inner == "agent_message":
        return "agent", str(payload.get("message") or "")[:LINE_CHARS], False
    if kind == "response_item" and inner in ("function_call", "custom_tool_call", "local_shell_call"):
        texts = []
        _strings({k: payload.get(k) for k in ("arguments", "input", "action")}, texts, [LINE_CHARS])
        joined = " ".join(texts)
        name = str(payload.get("name") or "")
        return "agent", joined, name in _SEARCH_TOOLS or bool(_SEARCH_SHELL.search(" " + joined))
    if kind == "response_item" and inner == "message" and payload.get("role") == "assistant":
        texts = []
        _strings(payload.get("content"), texts, [LINE_CHARS])
        return "agent", " ".join(texts), False
    return "other", "", False


def read_after(path, start: float, end: float) -> tuple[list[tuple[str, bool]], bool]:
    """(the agent's texts after `start` up to the first human prompt or `end`, whether a line
    was read after `start` at all)."""
    import json

    from carto_core.util.timeparse import epoch_seconds

    out: list[tuple[str, bool]] = []
    seen = False
    try:
        handle = open(path, "rb")
    except OSError:
        return out, False
    with handle:
        for raw in handle:
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(line, dict):
                continue
            at = epoch_seconds(line.get("timestamp"))
            if at is None or at <= start:
                continue
            if at > end:
                break
            seen = True
            kind, text, searched = classify_line(line)
            if kind == "prompt":
                break
            if kind == "agent":
                out.append((text, searched))
    return out, seen


# --------------------------------------------------------------------------- the report


def _rows_by_id(home, wanted: set[str]) -> dict[str, dict]:
    from carto_core.logio.logs import SEARCHED_LOGS
    from carto_core.logio.reader import iter_lines, unreadable

    found: dict[str, dict] = {}
    if not wanted:
        return found
    for label in SEARCHED_LOGS:
        if unreadable(home.log(label)):
            continue  # read as an absent log: the rows of the rest are found
        for line in iter_lines(home.log(label)):
            event_id = line.row.get("event_id")
            if event_id in wanted:
                found[event_id] = line.row  # the newest row wins (the fold rule)
    return found


def categorize(call, rows: dict[str, dict], texts: list[tuple[str, bool]]) -> tuple[str, int | None, dict]:
    """(category, credited rank, evidence) of one abandoned call from the agent's texts."""
    joined = "\n".join(t for t, _ in texts)
    for item in call.rows:
        named = sorted(h for h in handles(item.event_id, rows.get(item.event_id)) if h in joined)
        if named:
            return "unmarked_use", item.rank, {"event_id": item.event_id, "named": named[:3]}
    if any(searched for _, searched in texts):
        return "bad_abandonment", None, {}
    query = terms(call.query)
    distinct: set[str] = set()
    for item in call.rows[:TOP_RESULTS]:
        row = rows.get(item.event_id) or {}
        distinct |= terms(str(row.get("summary") or row.get("description") or ""))
    shared = sorted((terms(joined) & distinct) - query)
    if len(shared) >= GOOD_TERMS:
        return "good_abandonment", None, {"shared_terms": shared[:8]}
    return "no_need", None, {}


def abandonment_report(home, *, since=None, before=None, purpose: str | None = None,
                       window_minutes: float = WINDOW_MINUTES, roots=None, examples: int = 5) -> dict:
    from carto_core.transcript.resolver import find_session

    join = build_join(home, since=since, before=before, purpose=purpose)
    calls = sorted(join.calls.values(), key=lambda c: c.at or 0.0)
    by_session: dict[str, list[float]] = {}
    for call in calls:
        if call.session_id and call.at is not None:
            by_session.setdefault(call.session_id, []).append(call.at)
    abandoned = [c for c in calls if not c.accessed]
    rows = _rows_by_id(home, {r.event_id for c in abandoned for r in c.rows})
    transcripts: dict[tuple, object] = {}
    counts = Counter()
    credited: dict[str, int | None] = {}
    listed: dict[str, list] = {}
    for call in abandoned:
        path = None
        if call.session_id:
            key = (call.session_id, call.provider)
            if key not in transcripts:
                transcripts[key] = find_session(call.session_id, provider=call.provider
                                                if call.provider in ("claude", "codex") else None, roots=roots)
            path = transcripts[key]
        if path is None or call.at is None:
            category, rank, evidence = "unread", None, {"why": "no transcript found for the session"
                                                         if call.at is not None else "the call has no time"}
        else:
            later = [t for t in by_session.get(call.session_id, []) if t > call.at]
            end = min([call.at + window_minutes * 60, *later])
            texts, seen = read_after(path, call.at, end)
            if not seen:
                category, rank, evidence = "unread", None, {"why": "the transcript holds nothing after the call"}
            else:
                category, rank, evidence = categorize(call, rows, texts)
        counts[category] += 1
        credited[call.call_id] = rank
        entries = listed.setdefault(category, [])
        if len(entries) < examples:
            entries.append({"call_id": call.call_id, "query": call.query, "session_id": call.session_id,
                            "served": len(call.rows), **({"credited_rank": rank} if rank else {}), **evidence})
    explicit = [c.used_ranks for c in calls]
    implicit = [c.used_ranks or ([credited[c.call_id]] if credited.get(c.call_id) else []) for c in calls]
    categories = ("unmarked_use", "good_abandonment", "bad_abandonment", "no_need", "unread")
    return {
        "report": "abandonment", "home": str(home.root), "since": since, "before": before,
        "purpose": purpose, "window_minutes": window_minutes,
        "calls": len(calls), "marked": len(calls) - len(abandoned), "abandoned": len(abandoned),
        "categories": {c: counts.get(c, 0) for c in categories},
        "mrr": {"explicit": mrr(explicit), "implicit_credited": mrr(implicit), "calls": len(calls)},
        "examples": {c: listed.get(c, []) for c in categories},
    }
