"""The SessionStart catch-up: a detached ingest of a provider's recently changed transcripts.

A provider's SessionStart hook calls ``start_catch_up(ctx, out, "pkg.module:factory")``, where
``factory(days: float) -> Source`` builds the provider's backfill source limited to what
changed in the last `days` days (Claude: transcripts and prompt history; Codex: rollouts).

``maybe_start(home, provider, factory)`` costs one ``stat`` when the cooldown has not passed;
otherwise it claims the slot (rewrites ``<home>/.carto/<provider>-catch-up.last``) and spawns
``python -m carto_core.jobs.catchup --home H --provider P --source F`` in a new session with
its standard streams closed, and returns at once: the hook never waits for it.

The child (`carto_core.jobs.catchup`) takes an exclusive ``flock`` on ``<home>/.carto/<provider>-catch-up.lock`` (a second
catch-up of the same provider exits at once; a crashed one releases the lock with its process),
runs the checkpointed ingest runner over ``factory(CARTO_CATCHUP_DAYS)`` (7 days), saves the
keyword index when prompt-time recall is on for the provider (`carto_core.recall.refresh`: the
prompt hook reads only a saved index), appends a one-line result to ``<home>/.carto/<provider>-catch-up.jsonl`` and exits. An alarm
(``CARTO_CATCHUP_TIMEOUT``, 600 s) ends it if it ever runs long, so it never outlives its work.

Environment: ``CARTO_CATCHUP=0`` turns it off for every provider;
``CARTO_CATCHUP_INTERVAL_SECONDS`` (900) is the cooldown, per provider.

Stdlib only until the child runs: the hook imports this module on SessionStart.
"""

from __future__ import annotations

import os

from carto_core.capture import detached


def state_files(provider: str) -> tuple[str, str, str]:
    """(cooldown stamp, lock, run log) file names under `<home>/.carto/` for `provider`."""
    return (f"{provider}-catch-up.last", f"{provider}-catch-up.lock", f"{provider}-catch-up.jsonl")


def _int_env(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, "") or default)
    except ValueError:
        return default


def enabled() -> bool:
    return os.environ.get("CARTO_CATCHUP", "1").strip().lower() not in {"0", "false", "no", "off"}


def due(home, provider: str, now: float | None = None) -> bool:
    """True when the provider's last catch-up started at least the cooldown ago (or never)."""
    return detached.due(home, state_files(provider)[0], _int_env("CARTO_CATCHUP_INTERVAL_SECONDS", 900), now)


def maybe_start(home, provider: str, factory: str) -> str | None:
    """Start a detached catch-up when enabled and due; returns a problem line or None."""
    if not enabled() or not due(home, provider):
        return None
    detached.claim(home, state_files(provider)[0])
    problem = detached.spawn(home, "carto_core.jobs.catchup",
                             ["--home", str(home.root), "--provider", provider, "--source", factory])
    return problem and f"could not start the {provider} catch-up: {problem}"


def start_catch_up(ctx, out, factory: str) -> None:
    """SessionStart: `maybe_start` for `ctx.provider`; whatever goes wrong becomes a hook.log
    problem on `out`, never an exception (a catch-up that cannot start never blocks a session)."""
    try:
        problem = maybe_start(ctx.home, ctx.provider, factory)
    except Exception as exc:
        problem = f"catch-up not started: {type(exc).__name__}: {exc}"
    if problem:
        out.problems.append(problem)
