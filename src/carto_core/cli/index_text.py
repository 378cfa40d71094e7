"""`carto index` as text for a person: one or two lines a step saying what it did, in words.

The JSON document (`carto index --json`) is the steps' reports as they are; this only reads them.
A step a plugin adds, whose report this module does not know, gets its outcome and its
non-empty figures.
"""

from __future__ import annotations

_OUTCOMES = {"opened": "up to date", "fresh": "up to date", "updated": "appended rows folded in",
             "rebuilt": "rebuilt from the logs", "built": "built", "ok": "up to date"}


def _seconds(value) -> str:
    if not isinstance(value, (int, float)):
        return ""
    return f"{value:.1f} s" if value >= 0.1 else "under 0.1 s"


def _count(n, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def keyword_lines(report: dict) -> list[str]:
    outcome = _OUTCOMES.get(report.get("outcome"), report.get("outcome", ""))
    documents = report.get("documents", 0)
    live = report.get("live_documents", documents)
    line = (f"keyword index: {outcome} · {_count(live, 'event')}, "
            f"{_count(report.get('terms', 0), 'distinct word')}")
    if documents != live:
        line += f" ({documents - live:,} replaced or forgotten)"
    line += f" · {_seconds(report.get('seconds'))}"
    out = [line]
    from carto_core.logio.reader import PROBLEM_TEXT

    # label -> {"counts": {kind: n}, "examples": {kind: [line numbers]}} (index_build)
    for label, found in (report.get("problems") or {}).items():
        for kind, count in sorted((found.get("counts") or {}).items()):
            lines = ", ".join(str(n) for n in (found.get("examples") or {}).get(kind, []))
            out.append(f"  {label}: {count:,} x {PROBLEM_TEXT.get(kind, kind)}"
                       + (f" (lines {lines})" if lines else ""))
    return out


def semantic_lines(report: dict) -> list[str]:
    outcome = report.get("outcome", "")
    embedder = report.get("embedder") or "?"
    if outcome in ("ok",):
        corpus, embedded, already = report.get("corpus", 0), report.get("embedded", 0), report.get("already", 0)
        done = embedded + already
        head = f"semantic index ({embedder}): "
        if embedded:
            rate = report.get("docs_per_second")
            head += (f"{_count(embedded, 'event')} embedded now"
                     + (f" ({rate:g} a second)" if rate else "")
                     + f", {done:,} of {corpus:,} in all")
        else:
            head += f"up to date, {done:,} of {corpus:,} events embedded"
        head += f" · {_seconds(report.get('seconds'))}"
        out = [head]
        skipped = report.get("no_text", 0)
        if skipped:
            keyword_only = report.get("keyword_only", 0)
            out.append(f"  {_count(skipped, 'event')} left to the keyword index"
                       + (f" ({keyword_only:,} tool rows this embedder does not embed)" if keyword_only else
                          " (no text to embed)"))
        if report.get("failed"):
            out.append(f"  {_count(report['failed'], 'event')} failed to embed; `carto index` tries them again")
        if report.get("removed"):
            out.append(f"  {_count(report['removed'], 'vector')} of events no log holds any more removed")
        if report.get("note"):
            out.append(f"  note: {report['note']}")
        return out
    words = {"disabled": "off", "backing_off": "waiting after a failure",
             "unavailable": "not available", "dimension_mismatch": "the store holds another model's vectors",
             "error": "failed"}
    out = [f"semantic index ({embedder}): {words.get(outcome, outcome)}"]
    if report.get("reason"):
        out.append(f"  why: {report['reason']}")
    if report.get("fix"):
        out.append(f"  fix: {report['fix']}")
    return out


def other_lines(report: dict) -> list[str]:
    figures = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in report.items()
                        if key not in ("step", "outcome", "problems", "generation", "seconds")
                        and value not in (None, "", {}, [], False))
    line = f"{report['step']}: {_OUTCOMES.get(report.get('outcome'), report.get('outcome', ''))}"
    if figures:
        line += f" · {figures}"
    if isinstance(report.get("seconds"), (int, float)):
        line += f" · {_seconds(report['seconds'])}"
    return [line]


def render(reports: list[dict], *, unchanged: bool = False) -> list[str]:
    """The lines of the summary (a failed step is said on stderr by the command)."""
    out = ["nothing new since the last run: every index is up to date"] if unchanged else []
    for report in reports:
        if report.get("outcome") == "error":
            continue
        if report.get("step") == "keyword":
            out.extend(keyword_lines(report))
        elif report.get("step") == "semantic":
            out.extend(semantic_lines(report))
        else:
            out.extend(other_lines(report))
    return out
