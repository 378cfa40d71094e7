"""`--tag KIND:VALUE` of `carto sessions` and `carto search`: the sessions holding every tag
(`carto_core.lenses.tags`), from the session summaries `carto sessions` keeps
(`lenses.sessionstore`: a tag filter costs what `carto sessions` costs)."""

from __future__ import annotations

from carto_core.util.output import usage_error

TAG_HELP = ("Only sessions with this tag (again: all of them): tool:bash, ext:py, provider:codex, "
            "outcome:commit|push|test-run|failure, topic:WORD (docs/lenses.md#tags).")


def tagged_sessions(home, tags: list[str], summaries=None) -> set[str]:
    """The ids of the sessions holding every tag; exit 2 on a malformed tag. `summaries`: the
    session summaries already at hand (else those `carto sessions` keeps)."""
    from carto_core.lenses.sessionstore import cached_summaries
    from carto_core.lenses.tags import matching_sessions
    from carto_core.search.engine import SearchEngine

    if summaries is None:
        summaries = list(cached_summaries(home).values())
    try:
        engine = SearchEngine(home) if any(t.strip().startswith("topic:") for t in tags) else None
        return matching_sessions(summaries, tags, engine)
    except ValueError as exc:
        usage_error(f"--tag: {exc}")
