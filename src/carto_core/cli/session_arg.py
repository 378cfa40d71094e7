"""A `--session` option that takes a unique prefix of a session id (`carto wrapup`, `carto digest
session`): shared so every command answers an unknown or ambiguous prefix the same way."""

from __future__ import annotations

import click

from carto_core.util.output import fail


def resolve_or_exit(home, prefix: str) -> str:
    """The full session id a prefix names; an ambiguous one lists its matches and exits 2, an
    unknown one exits 3."""
    from carto_core.util.exitcodes import ExitCode
    from carto_core.lenses.sessions import AmbiguousSession, SessionNotFound, resolve_session

    try:
        return resolve_session(home, prefix)
    except AmbiguousSession as exc:
        click.echo(f"carto: {len(exc.candidates)} sessions start with {prefix!r}; give more of the id:", err=True)
        for candidate in exc.candidates[:20]:
            click.echo(f"  {candidate}", err=True)
        raise SystemExit(int(ExitCode.USAGE)) from None
    except SessionNotFound as exc:
        fail(str(exc), ExitCode.NOT_FOUND)
