"""The SessionStart catch-up's child: `python -m carto_core.jobs.catchup --home H --provider P
--source module:factory`, started by `carto_core.capture.catchup.maybe_start` (which documents
the cooldown, the lock and the environment)."""

from __future__ import annotations

import os
import sys
import time

from carto_core.capture import detached
from carto_core.capture.catchup import _int_env, state_files
from carto_core.plugin.resolve import resolve


def run(home, provider: str, factory: str, *, days: float | None = None) -> dict:
    """One catch-up run under the provider's lock; returns the summary (or why it did not run)."""
    import json

    _, lock_name, log_name = state_files(provider)
    with detached.exclusive(home, lock_name) as held:
        if not held:
            return {"outcome": "locked"}
        from carto_core.logio.appendlog import append_rows
        from carto_core.ingest.runner import run_ingest

        days = float(os.environ.get("CARTO_CATCHUP_DAYS", "7") or 7) if days is None else days
        summary = run_ingest(resolve(factory)(days), home)
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
            from carto_core.jobs.refresh import refresh_index

            result["keyword_index"] = refresh_index(home)
        return json.loads(json.dumps(result, default=str))


def keep_up(home) -> None:
    """After a catch-up wrote rows, the semantic ladder catches up too (its own detached,
    locked, rate-limited job)."""
    try:
        from carto_core.capture.keepup import maybe_start as start_keep_up

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
