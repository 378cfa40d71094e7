"""Every fix `carto doctor` names works when run as printed, on a machine like a newcomer's: a
temporary HOME with no carto home, no hooks, a Claude Code transcript on disk. Each round runs
the command of each problem's fix exactly as the fix writes it (between backquotes), then asks
doctor again: the problem is gone, and no fix sends the person round in a circle."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

FIX_COMMAND = re.compile(r"`(carto [^`]+)`")


def machine(tmp_path: Path) -> dict:
    user = tmp_path / "user"
    user.mkdir()
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("CARTO", "CLAUDE", "CODEX", "XDG_"))}
    env.update(HOME=str(user), XDG_CACHE_HOME=str(tmp_path / "cache"), CARTO_KEEPUP="0",
               CARTO_EMBEDDER="wordllama", CARTO_SPILL_DIR=str(tmp_path / "spill"))
    return env


def carto(args: list[str], env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "carto_core", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)


def problems(env: dict, cwd: Path) -> list[dict]:
    done = carto(["doctor", "--json", "--no-probe"], env, cwd)
    assert done.returncode in (0, 1, 3), done.stderr
    return json.loads(done.stdout)["problems"]


def test_each_fix_doctor_prints_works_as_printed(tmp_path, shared_fixtures):
    env = machine(tmp_path)
    user = Path(env["HOME"])
    work = tmp_path / "work"
    work.mkdir()
    projects = user / ".claude" / "projects" / "-work-shop"
    projects.mkdir(parents=True)
    shutil.copy(shared_fixtures / "claude" / "claude-code-viewer" / "projects" / "sample-project"
                / "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl", projects)
    ran: list[str] = []
    first = problems(env, work)
    assert any(p["problem"].startswith("no carto home") for p in first)
    for _ in range(6):
        found = problems(env, work)
        if not found and ran:
            break
        with_commands = [(p, FIX_COMMAND.findall(p["fix"])) for p in found]
        assert all(commands for _, commands in with_commands), [p for p, c in with_commands if not c]
        problem, commands = with_commands[0]
        command = commands[0]
        assert command not in ran, f"doctor asks again for {command!r}: a circle ({problem})"
        done = carto(shlex.split(command)[1:], env, work)
        assert done.returncode == 0, (command, done.stdout[-1500:], done.stderr[-1500:])
        ran.append(command)
        after = [p["problem"] for p in problems(env, work)]
        assert problem["problem"] not in after, (command, after)
        if len(ran) == 2:  # a home other users can read: its fix too
            home = user / ".local" / "share" / "carto"
            next(home.glob("*.jsonl")).chmod(0o644)
    assert problems(env, work) == []
    assert ran[0].startswith("carto install ") and "carto ingest --all" in ran
    assert "carto repair permissions --write" in ran
