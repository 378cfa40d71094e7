"""The semantic ladder keeps up by itself: new rows are embedded by a detached job.

Started after `carto ingest` writes rows, after a SessionStart catch-up that wrote rows, and
from the Stop and SessionEnd hooks; never on a hook's critical path (the hook pays one `stat`
of the stamp, and on a due call one `fork`+`exec` it does not wait for):

- rate-limited: at most one start per `CARTO_KEEPUP_INTERVAL_SECONDS` (300) from hooks; a run
  that finds the ladder switched off or unavailable writes a later start time into the stamp
  (`CARTO_KEEPUP_BACKOFF_SECONDS`, 3600), so hooks stop spawning children that cannot help;
  `carto ingest` starts it whatever the cooldown says (the lock still keeps it single);
- locked: the child (`carto_core.jobs.keepup`) takes `<home>/.carto/semantic-keep-up.lock` (a second child exits at once);
  after a run it looks again while the logs grew during the run (at most three rounds), so rows
  written meanwhile are not left for the next trigger;
- what it runs is `carto_core.semantic.indexer.run_index` (what `carto index --step semantic`
  runs: incremental, embeds only what the store lacks or what changed), logging one line
  `{timestamp, outcome, embedded, todo, seconds}` per run to `semantic-keep-up.jsonl`.

When the home has a team (`carto_core.team.settings`), the same child then pushes the allowed
projects' new rows to the team server (`carto_core.team.push`), after embedding them, and logs
one line per push to `<home>/.carto/team/push-log.jsonl`; hooks never push themselves. A team
keeps the job running when the semantic ladder is off (no back-off while there is a team to
keep up); `CARTO_TEAM_PUSH=0` leaves the team out of it.

`CARTO_KEEPUP=0` turns it off; `CARTO_SEMANTIC=0` too when no team is set up (nothing to keep
up). Stdlib only until the child runs.
"""

from __future__ import annotations

import os

from carto_core.capture import detached

STAMP = "semantic-keep-up.last"
LOCK = "semantic-keep-up.lock"
LOG = "semantic-keep-up.jsonl"
INTERVAL_DEFAULT = 300.0
BACKOFF_DEFAULT = 3600.0
MAX_ROUNDS = 3


#: The team settings file under `<home>/.carto/` (`carto_core.team.settings.settings_path`; a
#: test holds the two together): the hook path may not import the team's engine, and one
#: `stat` is all it needs.
TEAM_SETTINGS = ("team", "team.json")


def team_due(home) -> bool:
    """The home has a team to push to (one `stat`) and pushing is not switched off."""
    return detached.switched_on("CARTO_TEAM_PUSH") and os.path.isfile(home.state.joinpath(*TEAM_SETTINGS))


#: The registry of MEMORY.md files `carto memory --write` wrote, under `<home>/.carto/`
#: (`carto_core.control.memoryfiles.REGISTRY`; a test holds the two together).
MEMORY_FILES = "memory-files.json"


def memory_due(home) -> bool:
    """The home wrote a MEMORY.md to keep current (one `stat`) and that is not switched off."""
    return detached.switched_on("CARTO_MEMORY_REFRESH") and os.path.isfile(home.state / MEMORY_FILES)


def enabled(home=None) -> bool:
    if not detached.switched_on("CARTO_KEEPUP"):
        return False
    return detached.switched_on("CARTO_SEMANTIC") or (home is not None and (team_due(home) or memory_due(home)))


def _seconds(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, "") or default)
    except ValueError:
        return default


def maybe_start(home, *, force: bool = False) -> str | None:
    """Start the detached keep-up when enabled and due (or `force`: ignore the cooldown, not the
    back-off of a ladder that is off); returns "started", None (not due or off) or a problem."""
    if not enabled(home):
        return None
    interval = 0.0 if force else _seconds("CARTO_KEEPUP_INTERVAL_SECONDS", INTERVAL_DEFAULT)
    if not detached.due(home, STAMP, interval):
        return None
    detached.claim(home, STAMP)
    problem = detached.spawn(home, "carto_core.jobs.keepup", ["--home", str(home.root)])
    return f"semantic keep-up not started: {problem}" if problem else "started"


def start_keep_up(ctx, out) -> None:
    """From a hook: `maybe_start`, problems to hook.log, never an exception."""
    try:
        result = maybe_start(ctx.home)
    except Exception as exc:
        result = f"semantic keep-up not started: {type(exc).__name__}: {exc}"
    if result and result != "started":
        out.problems.append(result)
