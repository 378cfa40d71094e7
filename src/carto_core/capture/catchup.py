"""The SessionStart catch-up: a detached ingest of a provider's recently changed transcripts.

A provider's SessionStart hook calls ``start_catch_up(ctx, out, "pkg.module:factory")``, where
``factory(days: float) -> Source`` builds the provider's backfill source limited to what
changed in the last `days` days (Claude: transcripts and prompt history; Codex: rollouts).

``maybe_start(home, provider, factory)`` costs one ``stat`` when the cooldown has not passed;
otherwise it claims the slot (rewrites ``<home>/.carto/<provider>-catch-up.last``) and spawns
``python -m carto_core.capture.catchup --home H --provider P --source F`` in a new session with
its standard streams closed, and returns at once: the hook never waits for it.

The child takes an exclusive ``flock`` on ``<home>/.carto/<provider>-catch-up.lock`` (a second
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
import sys
import time

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
    problem = detached.spawn(home, "carto_core.capture.catchup",
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


def _load(factory: str):
    import importlib

    module_name, _, attribute = factory.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def run(home, provider: str, factory: str, *, days: float | None = None) -> dict:
    """One catch-up run under the provider's lock; returns the summary (or why it did not run)."""
    import json

    _, lock_name, log_name = state_files(provider)
    with detached.exclusive(home, lock_name) as held:
        if not held:
            return {"outcome": "locked"}
        from carto_core.logio.appendlog import append_rows
        from carto_core.model.ingest import run_ingest

        days = float(os.environ.get("CARTO_CATCHUP_DAYS", "7") or 7) if days is None else days
        summary = run_ingest(_load(factory)(days), home)
        result = {"outcome": "done", **summary.as_dict()}
        append_rows(home.state / log_name, [{
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            **{k: result[k] for k in ("outcome", "streams", "units", "rows_written", "seconds")},
        }])
        if summary.rows_written:
            keep_up(home)
        from carto_core.recall.settings import enabled as recall_enabled

        if recall_enabled(provider):
            # Prompt recall reads the saved keyword index and never builds one: save it now,
            # with what was just ingested, so the session's prompts find the earlier ones.
            from carto_core.recall.refresh import refresh_index

            result["keyword_index"] = refresh_index(home)
        return json.loads(json.dumps(result, default=str))


def keep_up(home) -> None:
    """After a catch-up wrote rows, the semantic ladder catches up too (its own detached,
    locked, rate-limited job)."""
    try:
        from carto_core.semantic.keepup import maybe_start as start_keep_up

        start_keep_up(home)
    except Exception:
        pass


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    from carto_core.logio.home import Home, current_home

    def value(flag: str) -> str:
        return args[args.index(flag) + 1] if flag in args and args.index(flag) + 1 < len(args) else ""

    home = Home(value("--home")) if value("--home") else current_home()
    provider, factory = value("--provider"), value("--source")
    try:
        if not provider or not factory:
            raise ValueError(f"usage: --home H --provider P --source module:function; got {args!r}")
        import signal

        signal.alarm(_int_env("CARTO_CATCHUP_TIMEOUT", 600))
        run(home, provider, factory)
    except Exception as exc:  # never leave a traceback on a closed stderr; say it in hook.log
        from carto_core.capture.hookpath import log_problem

        log_problem(f"{provider or '?'} catch-up failed: {type(exc).__name__}: {exc}", home)
    return 0


if __name__ == "__main__":
    sys.exit(main())
