"""The live transcript's hand-off child: a Stop hook that finds more than it may read in its own
time hands the backlog to `python -m carto_core.jobs.live` (`carto_core.capture.live` documents
the state, the lock and the readers)."""

from __future__ import annotations

import os
import sys

from carto_core.capture import detached
from carto_core.capture.live import Job, ingest


def main(argv: list[str] | None = None) -> int:
    """The detached hand-off: `python -m carto_core.jobs.live --home H --source S --key K
    --path P --reader module:function [--answer-on-stdin]` reads the whole backlog, waiting for
    the lock; the Stop payload's answer, when there is one, comes on standard input."""
    args = sys.argv[1:] if argv is None else argv
    from carto_core.logio.home import Home, current_home

    given = detached.arguments(args, "--home", "--source", "--key", "--path", "--reader")
    home = Home(given["--home"]) if given.get("--home") else current_home()
    try:
        missing = [f for f in ("--source", "--key", "--path", "--reader") if not given.get(f)]
        if missing:
            raise ValueError(f"missing {', '.join(missing)}; got {args!r}")
        import signal

        signal.alarm(int(os.environ.get("CARTO_CATCHUP_TIMEOUT", "600") or 600))
        job = Job(given["--source"], given["--key"], given["--path"], given["--reader"],
                  detached.read_data() if "--answer-on-stdin" in args else "")
        result = ingest(home, job, limit=None, wait=None)
        if result.get("problem"):
            raise RuntimeError(result["problem"])
    except Exception as exc:  # a closed stderr: say it in hook.log
        from carto_core.capture.hookpath import log_problem

        log_problem(f"live ingest hand-off failed: {type(exc).__name__}: {exc}", home)
    return 0


if __name__ == "__main__":
    sys.exit(main())
