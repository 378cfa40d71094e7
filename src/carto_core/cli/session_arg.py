"""A `--session` option that takes a unique prefix of a session id (`carto wrapup`, `carto digest
session`): shared so every command answers an unknown or ambiguous prefix the same way."""

from __future__ import annotations

from carto_core.util.output import fail


def resolve_or_exit(home, prefix: str, find=None) -> str:
    """The full session id a prefix names (`find(home, prefix)`, else `resolve_session`); an
    ambiguous one lists its matches and exits 2, an unknown one exits 3."""
    from carto_core.util.exitcodes import ExitCode
    from carto_core.lenses.sessions import AmbiguousSession, SessionNotFound, resolve_session

    try:
        return (find or resolve_session)(home, prefix)
    except AmbiguousSession as exc:
        shown = exc.candidates[:20]
        fail(f"{len(exc.candidates)} sessions start with {prefix!r}; give more of the id",
             ExitCode.USAGE, listed=tuple(shown), candidates=shown)
    except SessionNotFound as exc:
        fail(str(exc), ExitCode.NOT_FOUND)
