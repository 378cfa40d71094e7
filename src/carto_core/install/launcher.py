"""How another process runs this carto: the argv an agent's hook or MCP entry should start with.

An agent runs its hooks with its own environment: usually not the shell where carto's virtual
environment is active, so a bare `carto` is "not found" there. The installers therefore write an
absolute launcher, chosen in this order:

1. the `carto` script that is running now (`sys.argv[0]`, made absolute but not resolved, so a
   stable link such as pipx's `~/.local/bin/carto` stays the link);
2. the `carto` script beside this interpreter (the virtual environment's `bin/`);
3. this interpreter with `-m carto_core` (no script installed).

A console script names its interpreter in its first line, so the launcher keeps working from any
PATH; when the environment moves, running `carto install ...` again from the new place writes
the new launcher over the old one (hooksfile recognises carto's handlers under any launcher).
Stdlib only.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

SCRIPT_NAMES = ("carto",)


def _runnable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def launcher(argv0: str | None = None, executable: str | None = None) -> list[str]:
    """The argv prefix that runs this carto from any environment (see the module docstring)."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    executable = sys.executable if executable is None else executable
    if argv0 and os.path.basename(argv0) in SCRIPT_NAMES:
        running = Path(os.path.abspath(argv0))
        if _runnable(running):
            return [str(running)]
    beside = Path(executable).with_name("carto")
    if _runnable(beside):
        return [str(beside)]
    return [executable, "-m", "carto_core"]


def command_line(argv: list[str]) -> str:
    """`argv` as one shell command line (the form agents' hook settings hold)."""
    return shlex.join(argv)


def carto_argv(command: str) -> list[str] | None:
    """The arguments after the launcher when `command` runs carto (`[hook, claude, Stop]`), else
    None. Any launcher counts: a bare `carto`, a path ending in `/carto`, or
    `<python> -m carto_core`."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if not words:
        return None
    if os.path.basename(words[0]) in SCRIPT_NAMES:
        return words[1:]
    if len(words) >= 3 and words[1:3] == ["-m", "carto_core"]:
        return words[3:]
    return None
