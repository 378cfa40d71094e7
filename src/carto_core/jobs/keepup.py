"""The semantic keep-up's child: `python -m carto_core.jobs.keepup --home H`, started by
`carto_core.capture.keepup.maybe_start` (which documents the cooldown, back-off and lock)."""

from __future__ import annotations

import os
import sys
import time

from carto_core.capture import detached
from carto_core.capture.keepup import BACKOFF_DEFAULT, LOCK, LOG, MAX_ROUNDS, STAMP, _seconds, memory_due, team_due


def _log_sizes(home) -> tuple:
    from carto_core.logio.logs import SEARCHED_LOGS

    sizes = []
    for label in SEARCHED_LOGS:
        try:
            info = os.stat(home.log(label))
            sizes.append((info.st_ino, info.st_size))
        except OSError:
            sizes.append(None)
    return tuple(sizes)


def push_team(home) -> dict:
    """One team push (`carto team push`), its summary logged to the team's push log."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.team.push import push
    from carto_core.team.settings import TeamSettingsError, folder, load

    try:
        settings = load(home)
        summary = push(home, settings).to_dict() if settings is not None else {"state": "not_configured"}
    except TeamSettingsError as exc:
        summary = {"state": "error", "reason": str(exc)}
    keep = ("state", "reason", "sent", "inserted", "updated", "unchanged", "refused", "batches", "seconds")
    append_rows(folder(home) / "push-log.jsonl", [{
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **{key: summary[key] for key in keep if summary.get(key) is not None}}])
    return summary


def run(home, policy: dict | None = None) -> dict:
    """Embed under the lock until the logs stop growing (at most MAX_ROUNDS runs), and push
    to the team after each round when the home has one. Each run's line in the keep-up log
    carries its CPU seconds and the process' peak RSS (`budget.measure`), and `policy` (what
    `budget.apply_policy` set: nice, threads)."""
    from carto_core.jobs import budget
    from carto_core.logio.appendlog import append_rows

    policy = policy or {}

    with detached.exclusive(home, LOCK) as held:
        if not held:
            return {"outcome": "locked"}
        team = team_due(home)
        # started for the team or the MEMORY.md files: the ladder stays off when switched off
        semantic = detached.switched_on("CARTO_SEMANTIC") or not (team or memory_due(home))
        report = None
        pushed = None
        if semantic:
            from carto_core.plugin.registry import get_registries
            from carto_core.semantic.indexer import run_index

            registries = get_registries()
        for _ in range(MAX_ROUNDS):
            before = _log_sizes(home)
            if semantic:
                with budget.measure() as cost:
                    report = run_index(home, registries=registries)
                append_rows(home.state / LOG, [{
                    "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "outcome": report.outcome, "embedded": report.embedded, "todo": report.todo,
                    "failed": report.failed, "seconds": round(report.seconds, 3),
                    "cpu_s": cost["cpu_s"], "peak_rss_mb": cost["peak_rss_mb"], **policy,
                    **({"reason": report.reason} if report.reason else {}),
                }])
                if report.outcome in ("disabled", "unavailable", "backing_off", "dimension_mismatch"):
                    semantic = False
                    if not team:
                        # Nothing a hook could start would help for a while: back off hooks.
                        detached.claim(home, STAMP, not_before=time.time()
                                       + _seconds("CARTO_KEEPUP_BACKOFF_SECONDS", BACKOFF_DEFAULT))
                        break
            if team:
                pushed = push_team(home)
                if pushed.get("state") != "ok":
                    break  # unreachable, refused: the next trigger tries again
            if _log_sizes(home) == before:
                break
        out = report.to_dict() if report is not None else {"outcome": "ok"}
        if pushed is not None:
            out["team"] = pushed
        backed_up = _daily_backup(home)
        if backed_up is not None:
            out["backup"] = backed_up
        refreshed = _memory_files(home)
        if refreshed:
            out["memory_files"] = refreshed
        return out


def _memory_files(home) -> list[dict]:
    """The MEMORY.md files `carto memory --write` wrote, brought up to date (what the session
    decided, retired or superseded); never in a hook's own time."""
    from carto_core.control.memoryfiles import refresh_quietly

    return refresh_quietly(home) if memory_due(home) else []


def _daily_backup(home) -> dict | None:
    """`[backup] daily = true`: a backup a day, taken here (never by a hook). A failure is one
    hook.log line; the next run tries again."""
    try:
        from carto_core.control.backup import daily

        return daily(home)
    except Exception as exc:  # noqa: BLE001 - a detached child: say it, never raise
        from carto_core.capture.hookpath import log_problem

        log_problem(f"daily backup failed: {type(exc).__name__}: {exc}", home)
        return {"outcome": "failed", "error": f"{type(exc).__name__}: {exc}"}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    from carto_core.logio.home import Home, current_home

    given = detached.arguments(args, "--home")
    home = Home(given["--home"]) if given.get("--home") else current_home()
    try:
        import signal

        from carto_core.jobs.budget import apply_policy

        policy = apply_policy()  # before numpy loads: it reads its thread count once
        signal.alarm(int(_seconds("CARTO_KEEPUP_TIMEOUT", 1800)))
        run(home, policy)
    except Exception as exc:  # a closed stderr: say it in hook.log
        from carto_core.capture.hookpath import log_problem

        log_problem(f"semantic keep-up failed: {type(exc).__name__}: {exc}", home)
    return 0


if __name__ == "__main__":
    sys.exit(main())
