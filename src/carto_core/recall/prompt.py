"""The UserPromptSubmit recall, as the providers' capture handlers call it::

    from carto_core.recall.prompt import prompt_recall

    text = prompt_recall(ctx, out)   # str | None: the additionalContext, or nothing

The search sees the persisted keyword index and the rows appended since it was saved (its
tail, read by `carto_core.search.index_tail`), so the turn a Stop hook just wrote is found by
the next prompt; a home whose index was never saved is read whole when its logs are small.
Silent (None) when recall is off (`settings.enabled`), the payload has no prompt or session,
the index is stale beyond its tail (a log was rewritten, more was appended than
`TAIL_BYTES_MIN` / `TAIL_SHARE` allow, no saved index and larger logs, or reading the tail ran
past half the hook's time cap: the detached index catch-up is started, `refresh`), the
configured engine cannot run without numpy, or nothing clears the gate. A tail larger than
`TAIL_READ_BYTES` is left unread (the saved index alone answers) and one larger than
`TAIL_REFRESH_BYTES` starts the catch-up, so that tails stay small.
Otherwise the shown ids are added to the session's served list (so the next prompt, and
`carto search` in the same session, do not repeat them) and recorded in the search telemetry
with purpose `prompt_recall`. Problems become hook.log lines on `out`; nothing here raises.

Stdlib only (`carto_core.search.lite` over `IndexView`): it runs inside the agent's prompt
hook, whose budget is three PostToolUse hooks (docs/performance.md).
"""

from __future__ import annotations

import time

from carto_core.recall import settings

#: Appended bytes the hook reads as the index's unsaved tail (index.FOLD_MIN rows of ~1 KB, or
#: 2 % of the indexed bytes; a home without a saved index: its whole logs up to the first);
#: more makes the index stale for the hook.
TAIL_BYTES_MIN = 2 * 1024 * 1024
TAIL_SHARE = 0.02
#: Reading the tail costs the hook in proportion to it (docs/performance.md, "The unsaved
#: tail"): past TAIL_REFRESH_BYTES the detached catch-up is started, so that the next prompts
#: find it saved; past TAIL_READ_BYTES it is not read either, the saved index alone answers.
TAIL_REFRESH_BYTES = 64 * 1024
TAIL_READ_BYTES = 256 * 1024


def prompt_recall(ctx, out) -> str | None:
    try:
        return _recall(ctx, out)
    except Exception as exc:  # never the agent's problem
        out.problems.append(f"prompt recall failed: {type(exc).__name__}: {exc}")
        return None


def _recall(ctx, out) -> str | None:
    if not settings.enabled(ctx.provider):
        return None
    prompt = ctx.payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip() or not ctx.session:
        return None
    prompt = prompt[: settings.MAX_PROMPT_CHARS]
    started = time.perf_counter()
    from carto_core.search.index_view import IndexView

    view = IndexView.open(ctx.home)
    from carto_core.search import lite

    try:
        components = lite.resolve_components()
    except lite.LiteUnavailable as exc:
        out.problems.append(f"prompt recall: {exc}")
        return None
    if not components.rankers:
        return None
    if view is not None and view.meta.get("analyzer") != components.analyzer.signature:
        _stale(ctx, out, "keyword index made by another analyzer")
        return None
    from carto_core.search.index_tail import appended, with_tail

    bound = max(TAIL_BYTES_MIN, TAIL_SHARE * view.indexed_bytes()) if view is not None else TAIL_BYTES_MIN
    state, _, size = appended(ctx.home, view)
    if view is not None and state == "tail" and TAIL_READ_BYTES < size <= bound:
        seen = view  # the saved index alone: the catch-up, started below, saves the tail into it
    else:
        seen = with_tail(ctx.home, view, components.analyzer, max_bytes=int(bound),
                         deadline=_tail_deadline())
    if isinstance(seen, str):
        _stale(ctx, out, seen)
        return None
    if view is None or size > TAIL_REFRESH_BYTES:
        from carto_core.recall.refresh import start_refresh

        problem = start_refresh(ctx.home)
        if problem:
            what = ("read the logs (no keyword index)" if view is None else
                    f"read {size} bytes of the keyword index's unsaved tail" if seen is not view else
                    f"left {size} bytes of the keyword index's unsaved tail unread")
            out.problems.append(f"prompt recall {what}; {problem}")
    view = seen
    from carto_core.recall.find import find
    from carto_core.search.telemetry import access_ledger_path, read_accesses, read_served

    served = read_served(ctx.home, ctx.session)
    accesses = read_accesses(access_ledger_path(ctx.home))
    found = find(view, components, prompt, session_id=ctx.session, served_ids=served,
                 now=ctx.now, limit=settings.MAX_SNIPPETS, accesses=accesses,
                 skip=_left_out(ctx.home), project=ctx.project, folder=_folder(ctx.cwd))
    items = []
    for result in found.results:
        row = result.row
        ts = view.cols["ts"][result.doc]
        items.append({"event_id": result.event_id, "row": row, "terms": result.held,
                      "ts": None if ts != ts else ts, "project": row.get("project")
                      if isinstance(row.get("project"), str) else view.string("projects", result.doc),
                      "source": _sources(view, result.doc), "score": result.score,
                      "also": result.also})
    _mark_stale(items)
    from carto_core.recall.snippet import render

    text, count = render(items, components.analyzer, ctx.now) if items else ("", 0)
    shown = items[:count]
    _record(ctx, found, shown, started)
    return text or None


def _folder(cwd: str) -> str:
    """The repository holding `cwd` (else `cwd`): the folder the current project is."""
    if not cwd:
        return ""
    from carto_core.model.project import find_git

    info = find_git(cwd)
    return str(info.worktree) if info is not None else cwd


def _left_out(home):
    """A predicate on rows recall never shows: a closed wrapup (`closed_wrapups`), and a row of
    a project or folder in `[capture] exclude` (excluding stops recording; what was recorded
    before stays in the logs, and is not put in front of another project's agent)."""
    from carto_core.privacy.exclude import load as exclusion

    closed = closed_wrapups(home)
    rule = exclusion()
    if not rule:
        return closed
    return lambda row: rule.row(row) or closed(row)


def closed_wrapups(home):
    """A predicate on rows: a wrapup every decision of which is superseded, retired or rejected
    since (`carto_core.model.decisions`), which recall leaves out so that a reversed decision
    never comes back above the one that replaced it. The ledger is read on the first wrapup
    asked about, not before (nor its module imported: hashlib comes with it)."""
    ledger = []

    def closed(row: dict) -> bool:
        if row.get("milestone") != "session_wrapup":
            return False
        from carto_core.model import decisions

        if not ledger:
            ledger.append(decisions.load(home))
        project = row.get("project") if isinstance(row.get("project"), str) else ""
        said = [text for kind, text in decisions.statements(row) if kind == "decision"]
        records = [ledger[0].records.get(decisions.record_id("decision", project, text)) for text in said]
        return bool(records) and all(r is not None and not r.current for r in records)

    return closed


def _mark_stale(items: list[dict]) -> None:
    """A wrapup whose cited files changed since (or whose cited commits are gone) says so in
    its snippet (`stale`) and goes below the up-to-date ones (`carto_core.model.staleness`: a
    few git calls per repository, only for the wrapups about to be shown)."""
    wrapups = [item for item in items if item["row"].get("milestone") == "session_wrapup"]
    if not wrapups:
        return
    from carto_core.model.staleness import Checker, of_statement
    from carto_core.util.timeparse import epoch_seconds

    checker = Checker()
    for item in wrapups:
        row = item["row"]
        written = epoch_seconds(row.get("timestamp"))
        said = " ".join(d for d in row.get("decisions") or [] if isinstance(d, str))
        found = None if written is None else of_statement(checker, said, row.get("cites"),
                                                          str(row.get("cwd") or ""), written)
        item["stale"] = found["note"] if found else None
    items.sort(key=lambda item: bool(item.get("stale")))


def _sources(view, doc: int) -> str:
    from carto_core.search.index_view import LOG_LABELS

    own = view.cols["source"][doc]
    bits = view.cols["seen"][doc]
    return "+".join([LOG_LABELS[own]] + [l for c, l in enumerate(LOG_LABELS) if c != own and bits >> c & 1])


def _record(ctx, found, shown: list[dict], started: float) -> None:
    from carto_core.search.telemetry import Telemetry

    telemetry = Telemetry(ctx.home, session_id=ctx.session, provider=ctx.provider,
                          purpose="prompt_recall", backend="hook")
    telemetry.record_served(" ".join(term for term, _ in found.key_terms), shown, started=started,
                            stages_ms={"search": found.ms})


def _tail_deadline() -> float:
    """When reading the unsaved tail must have ended: half the time the hook's cap leaves (the
    rest is the search's and the answer's)."""
    from carto_core.util import hookcap

    return time.monotonic() + hookcap.remaining(hookcap.cap_seconds() or hookcap.DEFAULT_SECONDS) / 2


def _stale(ctx, out, why: str) -> None:
    from carto_core.recall.refresh import start_refresh

    problem = start_refresh(ctx.home)
    if problem:
        out.problems.append(f"prompt recall silent ({why}); {problem}")
