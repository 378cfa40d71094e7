"""The explorer's ASGI app: the JSON API, the event stream and the page, behind the loopback
guard and the owner's token.

`create_app(home)` builds a Starlette app over a warm `LiveCorpus`. Every route is declared in
`ENDPOINTS` (method, path, parameters, body schema) so that validation, the OpenAPI document and
the guard tests all enumerate the same list. Handlers never write to the home: the API serves
no telemetry (the search command is its only writer).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from carto_core import __version__
from carto_core.util.output import dumps
from carto_core.logio.home import Home
from carto_core.serve import desk, sessiontags, terms
from carto_core.lenses import eventpage, views
from carto_core.serve.analysis import analysis_answer
from carto_core.serve.engines import RECALL_CONTRACT_VERSION, Engines
from carto_core.serve.guard import LoopbackGuard
from carto_core.serve.token import TokenGuard, load_or_create
from carto_core.lenses.livecorpus import Change, LiveCorpus
from carto_core.lenses.sessionstore import unloaded
from carto_core.serve.spec import ApiError, Endpoint, Param, openapi_document, parse_params
from carto_core.serve.telemetry_view import TelemetryReader, telemetry as telemetry_calls
from carto_core.serve.transcript import roots_list, transcript_answer
from carto_core.util.timeparse import WhenError, parse_when
from carto_core.transcript.resolver import TranscriptRoots

log = logging.getLogger("carto.serve")

STATIC = Path(__file__).parent / "static"
#: Largest JSON body accepted (upstream: 1 MB for facts).
BODY_MAX = 1 << 20
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$"


class JSONBytes(Response):
    media_type = "application/json"

    def render(self, content) -> bytes:
        return dumps(content, pretty=False)


# --------------------------------------------------------------------------- state


class Hub:
    """Subscribers of the event stream; changes are fanned out to bounded queues."""

    def __init__(self, size: int = 1000):
        self.size = size
        self.queues: set[asyncio.Queue] = set()

    def subscribe(self) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(self.size)
        self.queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        self.queues.discard(queue)

    def publish(self, change: Change) -> None:
        for queue in list(self.queues):
            try:
                queue.put_nowait(change)
            except asyncio.QueueFull:
                # A reader that fell this far behind is told to reload instead.
                with contextlib.suppress(asyncio.QueueEmpty):
                    while True:
                        queue.get_nowait()
                queue.put_nowait(Change(reloaded=["lagged"]))


@dataclass
class ServeState:
    home: Home
    live: LiveCorpus
    engines: Engines
    roots: TranscriptRoots
    poll_seconds: float = 1.0
    heartbeat_seconds: float = 15.0
    #: Close a stream after this many seconds (None: never). Tests and fuzzing bound it.
    stream_lifetime: float | None = None
    hub: Hub = field(default_factory=Hub)
    telemetry: TelemetryReader | None = None
    #: The warm CLI socket (`carto_core.serve.warm_client.WarmSocket`) when one is served.
    warm: object | None = None
    #: The owner's secret every request must carry (`carto_core.serve.token`).
    token: str = ""

    started: float = field(default_factory=time.time)

    @property
    def corpus_root(self) -> str:
        return os.path.abspath(str(self.home.root))


# --------------------------------------------------------------------------- endpoints

ENDPOINTS: list[Endpoint] = []


def endpoint(method: str, path: str, summary: str, *, params=(), body=None, responses=(200,),
             media_type="application/json", tags=(), description=""):
    def register(handler):
        ENDPOINTS.append(Endpoint(method, path, handler, summary, description, tuple(params),
                                  body, tuple(responses), media_type, tuple(tags)))
        return handler

    return register


P_PROJECT = Param("project", "string", "Project scope: case-insensitive substring, `a|b` for "
                  "several", max_length=2048)
P_TAG = Param("tag", "string", "Only sessions holding every one of these tags, comma-separated "
              "(provider:, tool:, ext:, outcome:, topic: and a value; `carto sessions --tag`)",
              max_length=2200)
P_TOPICS = Param("topics", "boolean", "Also topic: facets (a related-terms lookup per listed "
                 "session: slow on a large home)", default=False)
P_TEAM = Param("team", "boolean", "Fold in the team server's rows (`carto team init`); the answer's "
               "`team` says whether the server answered", default=False)


@endpoint("GET", "/api/health", "Server and corpus status", tags=("status",))
async def health(state: ServeState, request: Request, args: dict):
    live = state.live
    status = live.log_status()
    return {
        "status": "ok",
        "version": __version__,
        "corpus_root": state.corpus_root,
        "events": live.events,
        "duplicates": live.duplicates,
        "index_generation": live.generation,
        "reloads": live.reloads,
        "files": {label: info["exists"] for label, info in status.items()},
        "logs": status,
        "search": state.engines.search_status(),
        "transcript_roots": roots_list(state.roots),
        "warm_cli": ({"socket": state.warm.path, "served": state.warm.served,
                      "refused": state.warm.refused} if state.warm is not None else None),
        "uptime_s": round(time.time() - state.started, 1),
        "team": state.engines.team_status(),
    }


RECALL_BODY = {
    "type": "object",
    "required": ["query"],
    "properties": {
        "contract_version": {"type": "integer", "enum": [RECALL_CONTRACT_VERSION]},
        "call_id": {"type": "string", "maxLength": 160},
        "query": {"type": "string", "minLength": 1, "maxLength": 2048},
        "project": {"type": "string", "maxLength": 2048},
        "since": {"type": "string", "maxLength": 128},
        "before": {"type": "string", "maxLength": 128},
        "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 15},
        "purpose": {"type": "string", "maxLength": 64, "pattern": "^[A-Za-z0-9_-]*$"},
        "session_id": {"type": "string", "maxLength": 200},
        "provider": {"type": "string", "maxLength": 64},
        "corpus_root": {"type": "string", "maxLength": 4096},
        "excluded_event_ids": {"type": "array", "maxItems": 500,
                               "items": {"type": "string", "maxLength": 200}},
        "explain": {"type": "boolean", "default": False},
        "team": {"type": "boolean", "default": False,
                 "description": "Fuse in the team server's results (`carto team init`); each "
                                "result names its machine and author; `team` says whether the "
                                "server answered."},
        "tags": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 200},
                 "description": "Only events of sessions holding every one of these tags "
                                "(`carto search --tag`: provider:, tool:, ext:, outcome:, "
                                "topic:)."},
        "tag_facets": {"type": "boolean", "default": False,
                       "description": "Also `tag_facets`: how many of the sessions the results "
                                      "come from hold each tag (the explorer's facets)."},
        "tag_topics": {"type": "boolean", "default": False,
                       "description": "With `tag_facets`, topic: tags too (a related-terms "
                                      "lookup per session: slow on a large home)."},
    },
}


async def _json_body(request: Request) -> object:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > BODY_MAX:
        raise ApiError(413, "BODY_TOO_LARGE", f"the body is larger than {BODY_MAX} bytes")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > BODY_MAX:
            raise ApiError(413, "BODY_TOO_LARGE", f"the body is larger than {BODY_MAX} bytes")
    from carto_core.util.jsondepth import MAX_DEPTH, deeper_than

    text = raw.decode("utf-8", "replace")
    # The parser recurses per level: a body nested past the bound is refused before it runs.
    if deeper_than(text, MAX_DEPTH):
        raise ApiError(400, "BODY_TOO_DEEP", f"the body nests deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text)
    except ValueError:
        raise ApiError(400, "BODY_NOT_JSON", "the body must be one JSON object") from None


def _string_field(body: dict, name: str, limit: int, default: str = "") -> str:
    value = body.get(name, default)
    if value is None:
        return default
    if not isinstance(value, str) or len(value) > limit or "\x00" in value:
        raise ApiError(400, "RECALL_INVALID", f"{name} must be a string of at most {limit} characters")
    return value


def _flag_field(body: dict, name: str) -> bool:
    value = body.get(name, False)
    if not isinstance(value, bool):
        raise ApiError(400, "RECALL_INVALID", f"{name} must be true or false")
    return value


def validate_recall(body: object, corpus_root: str) -> dict:
    if not isinstance(body, dict):
        raise ApiError(400, "RECALL_INVALID", "the body must be a JSON object")
    version = body.get("contract_version", RECALL_CONTRACT_VERSION)
    if version != RECALL_CONTRACT_VERSION or isinstance(version, bool):
        raise ApiError(409, "CONTRACT_MISMATCH",
                       f"this server speaks recall contract {RECALL_CONTRACT_VERSION}")
    out = {name: _string_field(body, name, limit) for name, limit in (
        ("call_id", 160), ("project", 2048), ("since", 128), ("before", 128), ("purpose", 64),
        ("session_id", 200), ("provider", 64), ("corpus_root", 4096))}
    out["query"] = _string_field(body, "query", 2048).strip()
    if not out["query"]:
        raise ApiError(400, "RECALL_INVALID", "query is required")
    if out["purpose"] and not re.fullmatch(r"[A-Za-z0-9_-]+", out["purpose"]):
        raise ApiError(400, "RECALL_INVALID", "purpose must match [A-Za-z0-9_-]")
    limit = body.get("limit", 15)
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 200:
        raise ApiError(400, "RECALL_INVALID", "limit must be an integer from 1 to 200")
    out["limit"] = limit
    excluded = body.get("excluded_event_ids", [])
    if not isinstance(excluded, list) or len(excluded) > 500 or not all(
            isinstance(x, str) and len(x) <= 200 for x in excluded):
        raise ApiError(400, "RECALL_INVALID", "excluded_event_ids must be at most 500 strings")
    out["excluded_event_ids"] = excluded
    out["explain"] = _flag_field(body, "explain")
    out["team"] = _flag_field(body, "team")
    if not isinstance(body.get("tags", []), list):
        raise ApiError(400, "RECALL_INVALID", "tags must be a list of strings")
    out["tags"] = sessiontags.parse_tags(body.get("tags", []))
    if out["team"] and out["tags"]:
        raise ApiError(400, "RECALL_INVALID", "tags filter this home's sessions; they do not "
                       "combine with team")
    out["tag_facets"] = _flag_field(body, "tag_facets")
    out["tag_topics"] = _flag_field(body, "tag_topics")
    if out["corpus_root"] and os.path.abspath(out["corpus_root"]) != corpus_root:
        raise ApiError(409, "CORPUS_MISMATCH", f"this server indexes {corpus_root}")
    for name in ("since", "before"):
        out[f"{name}_at"] = None
        if out[name]:
            try:
                out[f"{name}_at"] = parse_when(out[name])
            except (WhenError, ValueError, OverflowError) as exc:
                raise ApiError(400, "RECALL_INVALID", f"{name}: {exc}") from None
    return out


@endpoint("POST", "/api/recall", "Ranked recall (the search contract v1)", body=RECALL_BODY,
          responses=(200, 400, 404, 409, 413, 503), tags=("recall",),
          description="Runs the same `run_search` as `carto search` on the warm engine. "
                      "Results carry `sources` (the ladders each came from); `stages_ms` "
                      "times each stage. With `explain: true` each result carries `why` (its "
                      "rank in each ladder, fused score, decay, boost, gate) and the answer "
                      "`explain` (fusion, candidates, trim, gate count, decay knobs). The API "
                      "never writes telemetry.")
async def recall(state: ServeState, request: Request, args: dict):
    body = validate_recall(await _json_body(request), state.corpus_root)
    engine_of = _fresh_engine(state)
    sessions = (frozenset(sessiontags.tagged_sessions(state.live, body["tags"], engine_of))
                if body["tags"] else None)
    answer = state.engines.recall(body, corpus_root=state.corpus_root, sessions=sessions)
    if body["tag_facets"]:
        from carto_core.lenses.sessionstore import stored_summaries

        by_id = stored_summaries(state.live)
        shown = [by_id[sid] for sid in dict.fromkeys(hit.get("session_id") for hit in answer["results"])
                 if sid in by_id]
        answer["tag_facets"] = sessiontags.tag_facets(shown, engine_of, body["tags"],
                                                      topics=body["tag_topics"])
    return answer


@endpoint("GET", "/api/recall/health", "Recall engine status", tags=("recall",))
async def recall_health(state: ServeState, request: Request, args: dict):
    live = state.live
    newest = views.newest_timestamp(live, unloaded(live))
    return {"status": "ok", "contract_version": RECALL_CONTRACT_VERSION, "backend": "carto",
            "events": live.events, "index_generation": live.generation,
            "newest_event": newest, "search": state.engines.search_status()}


FACTS_BODY = {
    "type": "object",
    "required": ["verb"],
    "properties": {
        "contract_version": {"type": "integer", "enum": [1]},
        "verb": {"type": "string", "enum": ["census", "tempo", "delta"]},
        "call_id": {"type": "string", "maxLength": 160},
        "project": {"type": "string", "maxLength": 2048},
        "since": {"type": "string", "maxLength": 128},
        "before": {"type": "string", "maxLength": 128},
        "top": {"type": "integer", "minimum": 1, "maximum": 200},
        "sample": {"type": "integer", "minimum": 0, "maximum": 10},
        "budget": {"type": "integer", "minimum": 1, "maximum": 2000},
        "purpose": {"type": "string", "maxLength": 64},
        "corpus_root": {"type": "string", "maxLength": 4096},
        "cursor": {"type": "string", "maxLength": 65536},
        "team": {"type": "boolean", "description": "census and tempo over the team server's rows "
                                                   "(`carto team init`)."},
    },
}


@endpoint("POST", "/api/facts", "Deterministic facts (contract v1: census, tempo, delta)",
          body=FACTS_BODY, responses=(200, 400, 409, 413, 503), tags=("facts",))
async def facts(state: ServeState, request: Request, args: dict):
    return state.engines.facts(await _json_body(request))


@endpoint("GET", "/api/facts/health", "Facts engine status", responses=(200, 503),
          tags=("facts",))
async def facts_health(state: ServeState, request: Request, args: dict):
    return state.engines.facts_health()


@endpoint("GET", "/api/standup", "Who is working on what, and where sessions collide",
          params=(Param("since", "string", "Window (WHEN grammar, e.g. 6h, 2d)", default="6h",
                        max_length=128), P_PROJECT, P_TEAM),
          responses=(200, 400, 503), tags=("lenses",))
async def standup(state: ServeState, request: Request, args: dict):
    try:
        parse_when(args["since"])
    except (WhenError, ValueError, OverflowError) as exc:
        raise ApiError(400, "PARAM_INVALID", f"since: {exc}") from None
    return state.engines.standup(since=args["since"], project=args["project"], team=args["team"])


@endpoint("GET", "/api/events", "Events, newest first, paged",
          params=(Param("limit", "integer", "Page size", default=50, minimum=1, maximum=500),
                  Param("offset", "integer", "Events to skip", default=0, minimum=0,
                        maximum=10_000_000),
                  P_PROJECT,
                  Param("session_id", "string", "Only this session", max_length=200),
                  Param("type", "string", "Only types starting with this", max_length=200),
                  Param("all", "boolean", "Include low-signal events (subagent lifecycle, "
                        "bridge pings)", default=False)),
          responses=(200, 400), tags=("corpus",))
async def events(state: ServeState, request: Request, args: dict):
    return eventpage.page_events(state.live, limit=args["limit"], offset=args["offset"],
                                 project=args["project"], session_id=args["session_id"],
                                 type_prefix=args["type"], all_events=args["all"])


@endpoint("GET", "/api/events/{event_id}", "One event with its full log row",
          params=(Param("event_id", "string", "The event id", required=True, max_length=200,
                        location="path"),),
          responses=(200, 404), tags=("corpus",))
async def event_get(state: ServeState, request: Request, args: dict):
    event = state.live.get(args["event_id"])
    if event is None:
        raise ApiError(404, "EVENT_NOT_FOUND", "no event with that id")
    return views.event_dict(event, state.live, row=True)


@endpoint("GET", "/api/sessions", "Sessions active in the last days, newest first",
          params=(Param("days", "integer", "Look back this many days", default=7, minimum=1,
                        maximum=3650),
                  P_PROJECT,
                  Param("provider", "string", "Only this agent (claude, codex, hermes, ...)",
                        max_length=64),
                  Param("limit", "integer", "At most this many", default=200, minimum=1,
                        maximum=2000),
                  Param("bursts", "boolean", "Also each session's bursts of activity: [first, "
                        "last, events] of runs of events less than 30 minutes apart",
                        default=False), P_TEAM, P_TAG),
          responses=(200, 400), tags=("corpus",))
async def sessions(state: ServeState, request: Request, args: dict):
    tags = sessiontags.parse_tags(args["tag"])
    if args["team"]:
        if tags:
            raise ApiError(400, "PARAM_INVALID", "tag filters this home's sessions; it does not "
                           "combine with team")
        return state.engines.sessions(days=args["days"], project=args["project"],
                                      provider=args["provider"], limit=args["limit"])
    only = sessiontags.tagged_sessions(state.live, tags, _fresh_engine(state)) if tags else None
    from carto_core.lenses.sessionstore import stored_summaries

    # the kept summaries: after a new event only its session is summarised again
    return views.list_sessions(state.live, days=args["days"], project=args["project"],
                               provider=args["provider"], limit=args["limit"],
                               with_bursts=args["bursts"], only=only,
                               summaries=stored_summaries(state.live))


@endpoint("GET", "/api/sessions/{session_id}",
          "One session: its events, commits, files, transcript turns and wrapup",
          params=(Param("session_id", "string", "The session id, or a prefix only it starts "
                        "with", required=True, max_length=200, location="path"),),
          responses=(200, 400, 404), tags=("corpus",),
          description="A prefix resolves as `carto session ID` resolves it (the answer names "
                      "the whole id); one several sessions share is 400 `AMBIGUOUS_SESSION` "
                      "with the candidates.")
async def session_get(state: ServeState, request: Request, args: dict):
    kept = unloaded(state.live)
    detail = views.session_detail(state.live, args["session_id"], kept)
    if detail is None:
        # The eight characters every view and `carto sessions` show a session by.
        detail = views.session_detail(state.live, _resolve_session(state, args["session_id"]), kept)
    if detail is None:
        raise ApiError(404, "SESSION_NOT_FOUND", "no events carry that session id")
    detail["session"]["transcript_available"] = _transcript_here(state, detail["session"])
    return detail


def _transcript_here(state: ServeState, session: dict) -> bool:
    """Whether `/api/transcript` would find this session's transcript on this machine (the same
    resolver: the recorded path, else the archive and session-id steps, inside the roots), so
    the page offers to read a transcript only when there is one."""
    from carto_core.serve.transcript import locate

    try:
        locate(session.get("transcript_path") or None, session["session_id"], state.roots)
    except ApiError:
        return False
    return True


#: The candidates an ambiguous session prefix lists (each a link on the page).
AMBIGUOUS_LISTED = 20


def _resolve_session(state: ServeState, prefix: str, cols=None) -> str:
    """The session `prefix` names, among the sessions of `cols` (facts columns the caller
    holds), else of the columns the server holds, else of columns opened for it."""
    from carto_core.lenses.sessions import AmbiguousSession, SessionNotFound
    from carto_core.lenses.sessionstore import resolve_indexed

    if cols is None:
        kept = unloaded(state.live)
        cols = kept[1] if kept is not None else None  # held: not opened again
    try:
        return resolve_indexed(state.home, prefix, cols)
    except AmbiguousSession as exc:
        raise ApiError(400, "AMBIGUOUS_SESSION", f"{len(exc.candidates)} sessions start with "
                       f"that; give more of the id ({', '.join(exc.candidates[:5])}"
                       f"{', ...' if len(exc.candidates) > 5 else ''})",
                       candidates=list(exc.candidates[:AMBIGUOUS_LISTED])) from None
    except SessionNotFound:
        raise ApiError(404, "SESSION_NOT_FOUND", "no session id starts with that") from None


P_DAYS = Param("days", "integer", "Look back this many days (1 to 3650; more is a 400)", default=7,
               minimum=1, maximum=3650)


@endpoint("GET", "/api/desk", "The memory desk: sessions of a window with what each left behind",
          params=(P_DAYS, P_PROJECT,
                  Param("provider", "string", "Only this agent (claude, codex, hermes, ...)",
                        max_length=64),
                  Param("evidence", "string", "Only sessions that left this: commits, edits, "
                        "wrapup, no_wrapup (none yet), unresolved (a wrapup with open items)",
                        default="any", enum=desk.EVIDENCE),
                  Param("limit", "integer", "At most this many sessions", default=200, minimum=1,
                        maximum=2000), P_TAG, P_TOPICS),
          responses=(200, 400), tags=("desk",),
          description="Sessions as `/api/sessions` selects them (the code of `carto sessions`), "
                      "each with its files, commits, wrapup state, unresolved items, key "
                      "insight (a session without hook rows: what its turns record) and tags, "
                      "plus the files several sessions touched and `tag_facets`: how many of "
                      "the listed sessions hold each tag (with `topics`, topic tags over the "
                      f"first {sessiontags.TOPIC_SESSIONS}: `topics_over`).")
async def desk_route(state: ServeState, request: Request, args: dict):
    tags = sessiontags.parse_tags(args["tag"])
    engine_of = _fresh_engine(state)
    only = sessiontags.tagged_sessions(state.live, tags, engine_of) if tags else None
    document = desk.desk(state.live, days=args["days"], project=args["project"],
                         provider=args["provider"], evidence=args["evidence"],
                         limit=args["limit"], only=only)
    document["tag_facets"] = sessiontags.tag_facets(document["sessions"], engine_of, tags,
                                                    topics=args["topics"])
    from carto_core.serve.transcript import here

    # A card links the transcript analysis only when there is a transcript to analyse.
    available = here(document["sessions"], state.roots)
    for session in document["sessions"]:
        session["transcript_available"] = available[session["session_id"]]
    return document


def _fresh_engine(state: ServeState):
    """A function giving the warm search engine with the logs' latest rows (for `topic:`)."""
    def engine_of():
        engine = state.engines.search_engine()
        engine.refresh()
        return engine

    return engine_of


@endpoint("GET", "/api/sessions/{session_id}/tree",
          "One session as a tree: the main agent, its subagents under the calls that started "
          "them, their turns and tool calls, each node's transcript",
          params=(Param("session_id", "string", "The session id (or a prefix of it)",
                        required=True, max_length=200, location="path"),),
          responses=(200, 400, 404), tags=("corpus",),
          description="The document of `carto session ID --tree --json` "
                      "(`carto_core.lenses.sessiontree`). A prefix two sessions share is 400 "
                      "`AMBIGUOUS_SESSION` with the candidates.")
async def session_tree(state: ServeState, request: Request, args: dict):
    from carto_core.facts.store import facts_columns
    from carto_core.lenses.sessiontree import tree_for

    # The columns the server holds (as the session list and page read them); once the corpus
    # is loaded, opened once for the prefix and the tree.
    kept = unloaded(state.live)
    cols = kept[1] if kept is not None else facts_columns(state.home)
    return tree_for(state.home, _resolve_session(state, args["session_id"], cols), cols)


@endpoint("GET", "/api/desk/day", "One day: the day digest of `carto digest day`",
          params=(Param("day", "string", "today, yesterday or YYYY-MM-DD", default="today",
                        max_length=10, pattern=r"^(today|yesterday|\d{4}-\d{2}-\d{2})$"),
                  P_PROJECT,
                  Param("git", "boolean", "Check each logged commit against git", default=True)),
          responses=(200, 400, 404), tags=("desk",))
async def desk_day(state: ServeState, request: Request, args: dict):
    from carto_core.lenses.digest import DigestError, day_digest

    projects = [p for p in (args["project"] or "").split("|") if p.strip()] or None
    if not any(path.exists() for path in state.home.searched_logs().values()):
        # A new home: no day is quiet or missing yet (the digest would call it an outage).
        raise ApiError(404, "EMPTY_HOME", f"nothing is recorded in {state.home.root} yet; record "
                       "sessions with `carto install` (live hooks) or backfill history with "
                       "`carto ingest`")
    try:
        return day_digest(state.home, args["day"], projects=projects, no_git=not args["git"])
    except DigestError as exc:
        status, code = (400, "PARAM_INVALID") if exc.usage else (404, "NO_LOGS")
        raise ApiError(status, code, str(exc)) from None


@endpoint("GET", "/api/sessions/{session_id}/review",
          "Review a file or a commit of the session, confined to the session's repository",
          params=(Param("session_id", "string", "The session id, or a prefix only it starts "
                        "with", required=True, max_length=200, location="path"),
                  Param("path", "string", "A file of the session's repository (relative to it, "
                        "or absolute inside it)", max_length=4096),
                  Param("commit", "string", "A commit (hex): its files and diff (of `path` "
                        "when given)", max_length=64)),
          responses=(200, 400, 403, 404, 503), tags=("desk",),
          description="The repository is the git work tree of the session's recorded folder. "
                      "A path outside it (after symlinks), with `..` or a NUL is 403 "
                      "`REVIEW_FORBIDDEN`; answers are cut at 256 KiB (`truncated`).")
async def session_review(state: ServeState, request: Request, args: dict):
    session_id = args["session_id"]
    from carto_core.lenses.sessionstore import stored_summaries

    if session_id not in stored_summaries(state.live):
        # The session page takes the eight characters every view shows; so does its review.
        session_id = _resolve_session(state, session_id)
    return desk.review(state.live, session_id, path=args["path"], commit=args["commit"])


@endpoint("GET", "/api/telemetry",
          "Recall telemetry: each search call with what it served and what was used",
          params=(Param("days", "integer", "Calls of the last this many days (1 to 3650)",
                        default=30, minimum=1, maximum=3650),
                  Param("session_id", "string", "Only this session's calls", max_length=200),
                  Param("purpose", "string", "Only this purpose (manual, prompt, mcp, ...)",
                        max_length=64),
                  Param("q", "string", "Only calls whose query contains this", max_length=2048),
                  Param("limit", "integer", "Calls to return", default=50, minimum=1,
                        maximum=500),
                  Param("offset", "integer", "Calls to skip", default=0, minimum=0,
                        maximum=10_000_000)),
          responses=(200, 400), tags=("recall",),
          description="Joined from search-calls.jsonl, the served log and the access ledger "
                      "(read-only). `used` is an endorsing access (`result_used`), `fetched` a "
                      "`--get` lookup; an access without a call id joins the latest call of "
                      "its session that served the id before it.")
async def telemetry_route(state: ServeState, request: Request, args: dict):
    return telemetry_calls(state.telemetry or TelemetryReader(state.home), state.live,
                           days=args["days"], session_id=args["session_id"],
                           purpose=args["purpose"], query=args["q"], limit=args["limit"],
                           offset=args["offset"])


#: The longest word the terms routes take: a query's own limit (RECALL_BODY's `query`), so that any
#: word of a query the search takes can be completed and related (200 refused a 500-character one,
#: and the index keeps a token longer than 64 characters whole: a hash, a blob).
TERM_MAX = RECALL_BODY["properties"]["query"]["maxLength"]


@endpoint("GET", "/api/terms/complete", "Autocomplete: indexed terms starting with a prefix",
          params=(Param("prefix", "string", "What was typed (folded as a `word*` query term)",
                        required=True, max_length=TERM_MAX),
                  Param("limit", "integer", "At most this many terms", default=10, minimum=1,
                        maximum=50)),
          responses=(200, 400, 404, 503), tags=("recall",),
          description="Terms of the keyword index (the analyzer's terms), most documents first, "
                      "each with its document frequency.")
async def terms_complete(state: ServeState, request: Request, args: dict):
    return _terms_call(terms.complete, state, args["prefix"], args["limit"])


@endpoint("GET", "/api/terms/co", "Co-occurring terms: what the documents holding a term also hold",
          params=(Param("term", "string", "A word (all its index terms must be held)",
                        required=True, max_length=TERM_MAX),
                  Param("limit", "integer", "At most this many terms", default=20, minimum=1,
                        maximum=100)),
          responses=(200, 400, 404, 503), tags=("recall",),
          description="From the newest 300 documents whose own text holds the term; each "
                      "co-term scores together x log(1 + N / df).")
async def terms_co(state: ServeState, request: Request, args: dict):
    return _terms_call(terms.co_terms, state, args["term"], args["limit"])


def _terms_call(function, state: ServeState, word: str, limit: int) -> dict:
    from carto_core.search import EmptyHomeError

    try:
        return function(state.engines.search_engine(), word, limit)
    except EmptyHomeError as exc:
        raise ApiError(404, "EMPTY_HOME", str(exc)) from None


@endpoint("GET", "/api/projects", "Projects with their event counts", tags=("corpus",))
async def projects(state: ServeState, request: Request, args: dict):
    return views.list_projects(state.live, unloaded(state.live))


@endpoint("GET", "/api/transcript", "A transcript's messages (confined to the transcript roots)",
          params=(Param("path", "string", "The recorded transcript path (absolute)",
                        max_length=4096),
                  Param("session_id", "string", "Find the transcript by session id",
                        max_length=200),
                  Param("offset", "integer", "Messages to skip", default=0, minimum=0,
                        maximum=10_000_000),
                  Param("limit", "integer", "Messages to return", default=200, minimum=1,
                        maximum=2000)),
          responses=(200, 400, 403, 404, 422, 503), tags=("transcripts",))
async def transcript(state: ServeState, request: Request, args: dict):
    return transcript_answer(args["path"], args["session_id"], state.roots, args["offset"],
                             args["limit"])


@endpoint("GET", "/api/transcript/analysis",
          "A transcript analysed: turns, compactions, tool calls, token attribution, injected "
          "context", params=(
              Param("path", "string", "The recorded transcript path (absolute)", max_length=4096),
              Param("session_id", "string", "Find the transcript by session id", max_length=200),
              Param("offset", "integer", "Turns to skip", default=0, minimum=0,
                    maximum=10_000_000),
              Param("limit", "integer", "Turns to return", default=500, minimum=1,
                    maximum=5000)),
          responses=(200, 400, 403, 404, 413, 422, 503), tags=("transcripts",),
          description="Confined to the transcript roots like `/api/transcript`. Tokens come "
                      "twice: `reported` (the API's usage, once per message) and `estimated` "
                      "(characters / 4 per category). Context a hook added is the `injected` "
                      "category (`carto_recall` when it is carto's prompt-time recall).")
async def transcript_analysis(state: ServeState, request: Request, args: dict):
    return analysis_answer(args["path"], args["session_id"], state.roots, args["offset"],
                           args["limit"])


@endpoint("GET", "/api/stream", "Server-sent events: each new event as `data: <json>`",
          params=(Param("all", "boolean", "Include low-signal events", default=False),
                  P_PROJECT),
          media_type="text/event-stream", tags=("corpus",),
          description="A `reload` event says a log was rewritten (re-fetch views); a comment "
                      "line is a heartbeat.")
async def stream(state: ServeState, request: Request, args: dict):
    queue = state.hub.subscribe()
    live = state.live

    async def produce():
        deadline = (time.monotonic() + state.stream_lifetime
                    if state.stream_lifetime is not None else None)
        try:
            yield f": carto stream, generation {live.generation}\n\n"
            while True:
                wait = state.heartbeat_seconds
                if deadline is not None:
                    wait = min(wait, deadline - time.monotonic())
                    if wait <= 0:
                        return
                try:
                    change = await asyncio.wait_for(queue.get(), timeout=wait)
                except asyncio.TimeoutError:
                    yield ":\n\n"
                    continue
                if change.reloaded:
                    payload = json.dumps({"logs": change.reloaded, "generation": live.generation})
                    yield f"event: reload\ndata: {payload}\n\n"
                for kind, events in (("", change.added), ("update", change.updated)):
                    for event in events:
                        if (not args["all"] and not views.is_high_signal(event)) or \
                                not views.project_matches(args["project"], event.project):
                            continue
                        data = dumps(views.event_dict(event, live), pretty=False).decode()
                        # A replaced event (a live turn that grew) is its own event type, so
                        # that a follower does not count it as a new one.
                        named = f"event: {kind}\n" if kind else ""
                        yield f"id: {live.generation}\n{named}data: {data}\n\n"
        finally:
            state.hub.unsubscribe(queue)

    return StreamingResponse(produce(), media_type="text/event-stream",
                             headers={"cache-control": "no-cache", "x-accel-buffering": "no"})


@endpoint("GET", "/api/openapi.json", "This document", tags=("status",))
async def openapi(state: ServeState, request: Request, args: dict):
    return openapi_document(ENDPOINTS, __version__)


# --------------------------------------------------------------------------- wiring


def _route(state: ServeState, ep: Endpoint) -> Route:
    async def call(request: Request) -> Response:
        try:
            state.live.refresh()
            args = parse_params(ep, dict(request.query_params), dict(request.path_params))
            result = await ep.handler(state, request, args)
        except ApiError as exc:
            return JSONBytes(exc.as_dict(), status_code=exc.status)
        except Exception:  # noqa: BLE001 - a server answers, it does not die
            log.exception("error in %s %s", ep.method, ep.path)
            return JSONBytes({"error": "internal error (see the server log)", "code": "INTERNAL",
                              "status": 500}, status_code=500)
        if isinstance(result, Response):
            return result
        return JSONBytes(result)

    call.__name__ = ep.operation_id
    return Route(ep.path, call, methods=[ep.method])


def create_app(
    home: Home,
    *,
    transcript_roots: TranscriptRoots | None = None,
    poll_seconds: float = 1.0,
    stream_lifetime: float | None = None,
    heartbeat_seconds: float = 15.0,
    warm_search: bool = False,
    freeze_heap: bool = False,
    warm_cli=None,
    token: str | None = None,
) -> Starlette:
    """The explorer app over `home`. `warm_search` builds the search engine at start-up;
    `freeze_heap` keeps the loaded corpus out of the garbage collector (see `LiveCorpus`: it is
    loaded only by the views that read every event);
    `warm_cli`, the `carto` click group, serves the warm CLI socket with it (`WarmSocket`);
    `token`, the secret every request must carry, is the home's (`serve.token`) unless given."""
    live = LiveCorpus(home, freeze=freeze_heap, lazy=True)
    state = ServeState(home=home, live=live, engines=Engines(live),
                       roots=transcript_roots or TranscriptRoots.default(),
                       poll_seconds=poll_seconds, stream_lifetime=stream_lifetime,
                       heartbeat_seconds=heartbeat_seconds, telemetry=TelemetryReader(home),
                       token=token or load_or_create(home))
    live.listeners.append(state.hub.publish)
    if warm_search:
        with contextlib.suppress(ApiError):
            engine = state.engines.search_engine()
            getattr(engine, "ensure_loaded", lambda: None)()
    if freeze_heap:
        import gc

        gc.freeze()  # the engine's index too

    async def follow() -> None:
        while True:
            await asyncio.sleep(state.poll_seconds)
            try:
                live.refresh()
            except Exception:  # noqa: BLE001 - keep following; the next tick retries
                log.exception("refreshing the corpus failed")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(follow())
        warm = None
        if warm_cli:
            from carto_core.serve.warm_socket import WarmSocket

            try:
                warm = WarmSocket(home, warm_cli, engine=state.engines.search_engine())
                await warm.start()
                state.warm = warm
            except (OSError, ApiError) as exc:
                log.warning("no warm CLI socket: %s", exc)
                warm = None
        try:
            yield
        finally:
            if warm is not None:
                warm.stop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"cache-control": "no-store"})

    routes = [_route(state, ep) for ep in ENDPOINTS]
    routes.append(Route("/", page, methods=["GET"]))
    routes.append(Mount("/static", app=StaticFiles(directory=STATIC), name="static"))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.carto = state

    async def not_found(request: Request, exc) -> Response:
        status = getattr(exc, "status_code", 404)
        return JSONBytes({"error": str(getattr(exc, "detail", "not found")), "code": "HTTP",
                          "status": status}, status_code=status)

    app.add_exception_handler(404, not_found)
    app.add_exception_handler(405, not_found)
    # The last added runs first: a forged Host or foreign Origin is refused before the token
    # is even looked at, so a web page learns nothing from a 401.
    app.add_middleware(TokenGuard, token=state.token)
    app.add_middleware(LoopbackGuard)
    return app
