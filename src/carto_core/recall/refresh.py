"""The keyword index's catch-up for prompt recall: the hook never builds an index, so when it
finds none (or one too stale to trust) it starts this, detached, and stays silent.

``start_refresh(home)`` costs one ``stat`` while the cooldown (``CARTO_RECALL_REFRESH_SECONDS``,
300) has not passed; otherwise it claims the slot (``<home>/.carto/recall-refresh.last``) and
spawns ``python -m carto_core.jobs.refresh --home H`` in a new session with its standard
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

from carto_core.util.privatefiles import make_dirs, open_private

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
        make_dirs(home.state)
        with open_private(stamp, "w", encoding="utf-8") as handle:
            handle.write(str(int(now)))
        import subprocess

        env = dict(os.environ)
        env["CARTO_HOME"] = str(home.root)
        subprocess.Popen([sys.executable, "-m", "carto_core.jobs.refresh", "--home", str(home.root)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
                         env=env, cwd=str(home.state))
    except OSError as exc:
        return f"could not start the keyword index refresh: {exc}"
    return "started the keyword index refresh"
