"""Soak: 8 hook processes x 300 payloads while repairs rewrite the logs in a loop, and the
repairer is killed with SIGKILL at random points. After the next run: 0 lost rows, 0 torn
lines, no temporary copy, journal or intent left.

The repairer, each round: tears a row (a raw piece of an existing whole line, no newline: what
a writer that died mid-row leaves; its whole row exists, so the piece is settled), logs an
orphan row whose transcript names a hook session, then runs `repair torn-rows --write` and
`repair orphan-sessions --write`: two real rewrites a round, through the crash-safe path, racing
the hooks' appends. `CARTO_SOAK_REPORT=<file>` writes the figures as JSON (docs/testing.md).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import time

import pytest

from carto_core.logio.home import Home
from carto_core.logio.reader import ReadReport, iter_lines

CTX = multiprocessing.get_context("fork")
WRITERS, PAYLOADS = 8, 300
LEFTOVER_MARKS = (".rewrite-",)


def _count_recoveries(tally: str) -> None:
    """Count, in the file `tally`, every dead rewrite this process finishes or rolls back and
    every temporary copy it removes: evidence that kills landed mid-rewrite. One O_APPEND write
    per count and no lock: a shared lock a SIGKILLed repairer held would never be released, and
    the next process to count would wait for it forever (the soak once hung so)."""
    from carto_core.logio import rewrite
    from carto_core.logio import rewrite_journal

    real_recover, real_clean = rewrite_journal.recover_locked, rewrite_journal.clean_temporaries

    def count(slot: int, n: int) -> None:
        fd = os.open(tally, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, f"{slot} {n}\n".encode())
        finally:
            os.close(fd)

    def recover(path):
        outcome = real_recover(path)
        if outcome:
            count({"rolled back": 0, "finished": 1}.get(outcome, 2), 1)
        return outcome

    def clean(path):
        removed = real_clean(path)
        if removed:
            count(3, len(removed))
        return removed

    rewrite_journal.recover_locked = rewrite.recover_locked = recover
    rewrite.clean_temporaries = clean


def _tallied(tally: str) -> list[int]:
    """rolled back, finished, other recoveries, temporaries removed."""
    counts = [0, 0, 0, 0]
    if os.path.exists(tally):
        with open(tally) as handle:
            for line in handle:
                slot, n = line.split()
                counts[int(slot)] += int(n)
    return counts


def _hooks(root: str, writer: int, start, tally) -> None:
    from carto_core.capture import hookpath

    _count_recoveries(tally)

    home = Home(root)
    start.wait()
    rng = random.Random(writer)
    for i in range(PAYLOADS):
        payload = {"session_id": f"s-w{writer}", "cwd": f"{root}/soakproj", "tool_name": "Bash",
                   "transcript_path": f"/t/s-w{writer}.jsonl",
                   "tool_input": {"command": f"make target-w{writer}-{i}"}}
        hookpath.run("claude", "PostToolUse", json.dumps(payload).encode(), home)
        time.sleep(rng.uniform(0.05, 0.2))  # spread the appends over many rewrites (~40 s)


def _repairer(root: str, rounds, tally) -> None:
    _count_recoveries(tally)
    from carto_core.repair import run_repair
    from carto_core.repair.orphans import OrphanSessions
    from carto_core.repair.torn import TornRows

    home = Home(root)
    rng = random.Random(os.getpid())
    n = 0
    while True:
        n += 1
        label = rng.choice(["changelog", "tool-use"])
        with open(home.log(label), "rb") as handle:
            lines = [line for line in handle.read().splitlines() if line.startswith(b'{"event_id"')]
        if lines:
            whole = rng.choice(lines)
            fd = os.open(home.log(label), os.O_WRONLY | os.O_APPEND)
            os.write(fd, whole[: rng.randrange(10, len(whole) - 1)])  # a torn row, no newline
            os.close(fd)
        from carto_core.logio.appendlog import append_rows

        append_rows(home.log("changelog"), [{
            "event_id": f"orphan-{os.getpid()}-{n}", "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "provider": "claude", "session_id": "", "project": "soakproj",
            "transcript_path": f"/t/s-w{rng.randrange(WRITERS)}.jsonl", "summary": "orphan"}])
        run_repair(TornRows(), home, write=True)
        run_repair(OrphanSessions(), home, write=True)
        rounds.value += 1  # one repairer lives at a time: no lock (a killed holder keeps it)


@pytest.mark.slow
def test_soak_hooks_repairs_and_kill_9(tmp_path):
    from carto_core.capture import hookpath
    from carto_core.repair import run_repair
    from carto_core.repair.orphans import OrphanSessions
    from carto_core.repair.torn import TornRows
    from carto_core.logio.rewrite import generation

    root = str(tmp_path / "home")
    home = Home(root)
    hookpath.run("claude", "PostToolUse", json.dumps({  # dispatch cache and logs exist
        "session_id": "s-seed", "cwd": f"{root}/soakproj", "tool_name": "Bash",
        "tool_input": {"command": "make seed"}}).encode(), home)
    start, rounds = CTX.Event(), CTX.Value("i", 0, lock=False)
    tally = str(tmp_path / "recoveries.txt")  # outside the home: not a leftover
    writers = [CTX.Process(target=_hooks, args=(root, w, start, tally)) for w in range(WRITERS)]
    for proc in writers:
        proc.start()
    rng = random.Random(20260301)
    kills = 0
    started = time.monotonic()
    start.set()
    repairer = CTX.Process(target=_repairer, args=(root, rounds, tally))
    repairer.start()
    while any(p.is_alive() for p in writers):
        time.sleep(rng.uniform(0.2, 2.0))  # sometimes mid-round, sometimes after a few rounds
        os.kill(repairer.pid, signal.SIGKILL)
        repairer.join(10)
        kills += 1
        repairer = CTX.Process(target=_repairer, args=(root, rounds, tally))
        repairer.start()
    os.kill(repairer.pid, signal.SIGKILL)
    repairer.join(10)
    kills += 1
    for proc in writers:
        proc.join(60)
        assert proc.exitcode == 0
    elapsed = time.monotonic() - started

    # Killed repairers may have left a temporary copy, an intent and a journal, and a torn piece
    # without its newline: the next run cleans and settles all of it.
    leftovers_before = sorted(n for n in os.listdir(root) if any(m in n for m in LEFTOVER_MARKS))
    _count_recoveries(tally)
    final_torn = run_repair(TornRows(), home, write=True)
    run_repair(OrphanSessions(), home, write=True)
    leftovers = sorted(n for n in os.listdir(root) if any(m in n for m in LEFTOVER_MARKS))
    tally = _tallied(tally)

    expected = {f"w{w}-{i}" for w in range(WRITERS) for i in range(PAYLOADS)}
    figures = {"writers": WRITERS, "payloads_each": PAYLOADS, "kills": kills, "repair_rounds": rounds.value,
               "seconds": round(elapsed, 1), "leftovers_before_next_run": leftovers_before,
               "dead_rewrites_rolled_back": tally[0], "dead_rewrites_finished": tally[1],
               "temporary_copies_removed": tally[3],
               "settled_by_next_run": {k: final_torn[k] for k in ("torn", "duplicates", "unsettled")}}
    for label in ("tool-use", "changelog"):
        report = ReadReport(label)
        found: dict[str, int] = {}
        for line in iter_lines(home.log(label), report):
            summary = str(line.row.get("summary", ""))
            if summary.startswith("Ran: make target-"):
                tag = summary.split("target-", 1)[1].strip()
                found[tag] = found.get(tag, 0) + 1
        figures[label] = {"rows": report.rows, "lost": len(expected - set(found)),
                          "duplicates": sum(n - 1 for n in found.values()),
                          "problems": dict(report.problems), "generation": generation(home.log(label))}
    orphans = [line.row for line in iter_lines(home.log("changelog")) if line.row["event_id"].startswith("orphan-")]
    figures["orphans_logged"] = len(orphans)
    figures["orphans_left"] = sum(1 for row in orphans if not row.get("session_id"))
    print("\nsoak figures:", json.dumps(figures, sort_keys=True))
    if os.environ.get("CARTO_SOAK_REPORT"):
        with open(os.environ["CARTO_SOAK_REPORT"], "w") as handle:
            json.dump(figures, handle, indent=2, sort_keys=True)

    assert kills >= 10 and rounds.value >= 5  # the race was really run
    assert tally[0] + tally[1] + tally[3] >= 1  # and some kills landed inside a rewrite
    for label in ("tool-use", "changelog"):
        assert figures[label]["lost"] == 0, figures
        assert figures[label]["problems"] == {}, figures  # no torn line, glued or malformed row
        assert figures[label]["generation"] >= 5
    assert figures["orphans_left"] == 0
    assert leftovers == [], leftovers
    assert final_torn["unsettled"] == 0
