"""The prompt-recall index refresh's child: `python -m carto_core.jobs.refresh --home H`, started
by `carto_core.recall.refresh.start_refresh` (which documents the cooldown and the lock); the
SessionStart catch-up's child runs `refresh_index` too."""

from __future__ import annotations

import os
import sys
import time

from carto_core.recall.refresh import LOCK
from carto_core.util.privatefiles import make_dirs, open_private


def refresh_index(home) -> dict:
    """Open the index as a search does and save it with nothing left in its tail."""
    import fcntl

    make_dirs(home.state)
    with open_private(home.state / LOCK, "a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return {"outcome": "locked"}
        started = time.time()
        from carto_core.search.engine import SearchEngine

        engine = SearchEngine(home)
        index = engine.index
        tail = index.tail_docs
        if tail or len(index.segments) > 1:
            index.fold()
            index.save()
        return {"outcome": "done", "documents": len(index), "tail_saved": tail,
                "seconds": round(time.time() - started, 3)}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    from carto_core.logio.home import Home, current_home

    home = Home(args[args.index("--home") + 1]) if "--home" in args[:-1] else current_home()
    try:
        import signal

        signal.alarm(int(float(os.environ.get("CARTO_CATCHUP_TIMEOUT", "") or 600)))
        refresh_index(home)
    except Exception as exc:
        from carto_core.capture.hookpath import log_problem

        log_problem(f"keyword index refresh failed: {type(exc).__name__}: {exc}", home)
    return 0


if __name__ == "__main__":
    sys.exit(main())
