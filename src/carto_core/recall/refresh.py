"""The keyword index's catch-up for prompt recall: the hook never builds an index, so when it
finds none (or one too stale to trust) it starts this, detached, and stays silent.

``start_refresh(home)`` costs one ``stat`` while the cooldown (``CARTO_RECALL_REFRESH_SECONDS``,
300) has not passed; otherwise it claims the slot (``<home>/.carto/recall-refresh.last``) and
spawns ``python -m carto_core.recall.refresh --home H`` in a new session with its standard
streams closed. The child takes ``<home>/.carto/recall-refresh.lock`` (a second one exits at
once), opens the index as ``carto search`` does (built when missing, rebuilt after a rewrite,
appended rows indexed) and saves it, so the next prompt finds it fresh; ``refresh_index`` is
what the SessionStart catch-up also runs after its ingest when prompt recall is on.

Stdlib only until the child runs.
"""

from __future__ import annotations

import os
import sys
import time

STAMP, LOCK = "recall-refresh.last", "recall-refresh.lock"


def _cooldown() -> float:
    try:
        return float(os.environ.get("CARTO_RECALL_REFRESH_SECONDS", "") or 300)
    except ValueError:
        return 300.0


def start_refresh(home, now: float | None = None) -> str | None:
    """Start the detached refresh unless one started within the cooldown; a problem or None."""
    now = time.time() if now is None else now
    stamp = home.state / STAMP
    try:
        if now - os.stat(stamp).st_mtime < _cooldown():
            return None
    except OSError:
        pass
    try:
        os.makedirs(home.state, exist_ok=True)
        with open(stamp, "w", encoding="utf-8") as handle:
            handle.write(str(int(now)))
        import subprocess

        env = dict(os.environ)
        env["CARTO_HOME"] = str(home.root)
        subprocess.Popen([sys.executable, "-m", "carto_core.recall.refresh", "--home", str(home.root)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
                         env=env, cwd=str(home.state))
    except OSError as exc:
        return f"could not start the keyword index refresh: {exc}"
    return "started the keyword index refresh"


def refresh_index(home) -> dict:
    """Open the index as a search does and save it with nothing left in its tail."""
    import fcntl

    os.makedirs(home.state, exist_ok=True)
    with open(home.state / LOCK, "a+") as lock:
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
