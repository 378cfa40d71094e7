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
A moved environment's own `bin/carto` still names the old interpreter (pip writes it absolute),
so a script whose interpreter is gone is not a launcher: `python -m carto_core install ...` run
from the moved environment writes `<python> -m carto_core`. Stdlib only.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

SCRIPT_NAMES = ("carto",)


#: pip's form for an interpreter path too long (or with spaces) for a `#!` line: a /bin/sh
#: trampoline whose second line is `'''exec' "/abs/python" "$0" "$@"`.
_TRAMPOLINE = re.compile(r"""^'''exec' "([^"]+)" """)


def _interpreter(path: Path) -> str | None:
    """The program a script's first line runs (pip's sh trampoline looked through), or None."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(1024).decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    if not head or not head[0].startswith("#!"):
        return None
    words = head[0][2:].split()
    if not words:
        return None
    if words[0] == "/bin/sh" and len(head) > 1 and (match := _TRAMPOLINE.match(head[1])):
        return match.group(1)
    return words[0]


def _runnable(path: Path) -> bool:
    """An executable file whose interpreter (when it names one) is there: a moved environment's
    script still names the old one."""
    if not (path.is_file() and os.access(path, os.X_OK)):
        return False
    interpreter = _interpreter(path)
    return interpreter is None or (os.path.isfile(interpreter) and os.access(interpreter, os.X_OK))


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
