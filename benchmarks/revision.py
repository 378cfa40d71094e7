"""Another revision of this repository beside the working tree, for benchmarks that time
today's code and a revision's in the same run (`--base REV`): its files exported with
`git archive` (never a checkout: the working tree and its index stay as they are) and the
PYTHONPATH that makes a child process import them instead of the installed packages.

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # from benchmarks/<kind>/
    from revision import copy_sources, export, pythonpath
    base = export("main", Path(tmp) / "base")              # every file of main
    env["PYTHONPATH"] = pythonpath(base)                    # its packages first
    new = copy_sources(Path(tmp) / "new")                   # this tree, frozen for the run
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Every package's source folder: carto-core, the rankers and the bundled plugins.
SOURCES = ("src", "rankers/src", "plugins/claude/src", "plugins/codex/src", "plugins/git/src",
           "plugins/hermes/src", "examples/notes/src")


def export(rev: str, into: Path, trees: Sequence[str] = ()) -> Path:
    """The files of revision `rev` (only the folders `trees`, when given) under `into`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, *trees],
                             capture_output=True, check=True).stdout
    into.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def pythonpath(folder: Path, sources: Sequence[str] = SOURCES) -> str:
    """The PYTHONPATH of the packages exported under `folder`."""
    return os.pathsep.join(str(folder / source) for source in sources)


def copy_sources(into: Path, sources: Sequence[str] = SOURCES) -> Path:
    """A copy of this working tree's package sources (uncommitted changes too) under `into`:
    a side that must not change while the benchmark runs, whatever is edited meanwhile."""
    for source in sources:
        shutil.copytree(ROOT / source, into / source,
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    return into
