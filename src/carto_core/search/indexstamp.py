"""A `carto index` that finds nothing new answers from a stamp, without opening any index.

The steps' own no-ops already read only their recorded state, but getting there costs the
process: numpy, the search engine, the plugin registry, the embedder and the stores are
imported and opened to conclude that nothing changed (1.5-2x `python -c "import numpy,
click"`). So after a run of some steps that changed nothing (every cache file and every log
the same after the run as before it, every step successful) `carto index` writes
`<home>/.carto/index-noop.json`: the reports of that run and a fingerprint of everything the
answer depends on. The next run with the same steps whose fingerprint matches prints those
reports (`"unchanged": true`, its own `seconds`) and stops, importing only the standard
library.

The fingerprint (stdlib only, a few dozen `stat` calls and two 4 KiB reads per log):

- every searched log, as `logstate.log_state` records it (inode, device, rewrite generation,
  size, SHA-1 of its first and last 4 KiB): an append, a rewrite, a truncation or a
  replacement is "not fresh" by `logstate.log_status`;
- the caches' files (`search/CURRENT` and the generation it names, `semantic-index.json`, the
  vector store's manifest, the back-off and the keep-up lock): inode, size, mtime;
- the configuration: the config file's path and stat, every `CARTO_*` variable;
- the code: Python's and carto's versions, the stat of the environment's site-packages
  folders (an install, upgrade or removal changes them), where carto_core and carto_rankers
  are and the stat of every source file of theirs (a checkout that changed a format).

Anything else (`--rebuild`, `--force`, `--analyzer`, a Qdrant store, whose vectors live
elsewhere) runs the steps. A stamp that does not match is simply not used; the next no-op run
writes a new one.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from carto_core.logio.home import Home
from carto_core.logio.logs import SEARCHED_LOGS
from carto_core.logio.logstate import identity, log_state, log_status
from carto_core.util.privatefiles import write_text

STAMP = "index-noop.json"
VERSION = 1
#: Cache files under <home>/.carto/ whose change means a step's state changed.
CACHE_FILES = ("search/CURRENT", "semantic-index.json", "vectors/manifest.json",
               "index-backoff.json", "semantic-keep-up.lock")


def _stat(path: Path) -> list | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_ino, st.st_size, st.st_mtime_ns]


def _tree(folder: str | None) -> list:
    """(files, newest mtime, total size) of the .py files under `folder`."""
    count = newest = total = 0
    stack = [folder] if folder else []
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    stack.append(entry.path)
            elif entry.name.endswith(".py"):
                st = entry.stat()
                count += 1
                total += st.st_size
                newest = max(newest, st.st_mtime_ns)
    return [count, newest, total]


def _package_folder(name: str) -> str | None:
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec else []
    return locations[0] if locations else None


def _site_packages() -> list[str]:
    import sysconfig

    paths = sysconfig.get_paths()
    return [paths["purelib"], paths["platlib"]]


def _environment() -> dict:
    from carto_core import __version__
    from carto_core.logio.home import config_file

    config = config_file()
    return {
        "carto": __version__,
        "env": sorted((k, v) for k, v in os.environ.items() if k.startswith("CARTO_")),
        "config": [str(config), _stat(config)],
        "python": sys.version,
        # An install, upgrade or removal changes the environment's site-packages folder.
        "site": [[p, _stat(Path(p))] for p in sorted(set(_site_packages()))],
        "code": [[folder, _tree(folder)] for folder in
                 map(_package_folder, ("carto_core", "carto_rankers"))],
    }


def _caches(home: Home) -> dict:
    out = {name: _stat(home.state / name) for name in CACHE_FILES}
    try:  # the keyword index's live generation: its meta names what was read
        from carto_core.search.index_view import read_current

        current = read_current(home.state / "search")
        out["search/meta"] = _stat(home.state / "search" / current / "meta.json")
    except OSError:
        out["search/meta"] = None
    return out


def _logs(home: Home) -> dict:
    out = {}
    for label in SEARCHED_LOGS:
        path = home.log(label)
        before = identity(path)
        size = _stat(path) if before.get("exists") else None  # (a folder has a size too)
        out[label] = log_state(path, size[1] if size else 0, 0, before)
    return out


class Snapshot:
    """What a run's answer depends on, taken before the steps run and again after."""

    def __init__(self, home: Home, steps: list[str]):
        self.home, self.steps = home, steps
        self.logs = _logs(home)
        self.caches = _caches(home)
        self.environment = _environment()

    def unchanged(self) -> bool:
        """Nothing this snapshot saw changed since it was taken."""
        return (self.caches == _caches(self.home)
                and all(log_status(self.home.log(label), state) == "fresh"
                        for label, state in self.logs.items()))


def _path(home: Home) -> Path:
    return home.state / STAMP


def usable(rebuild: bool, force: bool, analyzer: str | None) -> bool:
    """Whether this invocation may answer from the stamp at all."""
    if rebuild or force or analyzer:
        return False
    # A remote or qdrant-local store changes without touching any file seen here.
    return not (os.environ.get("CARTO_QDRANT_URL") or os.environ.get("CARTO_QDRANT_PATH"))


def write(before: Snapshot, reports: list[dict]) -> None:
    """Record `reports` as the answer to the next no-op run, when the run that produced them
    changed nothing and every step succeeded; remove a stamp otherwise."""
    path = _path(before.home)
    ok = all(r.get("outcome") in ("opened", "fresh", "ok", "disabled") and not r.get("failed")
             for r in reports)
    if not ok or not before.unchanged() or _uses_qdrant(reports):
        path.unlink(missing_ok=True)
        return
    stamp = {"version": VERSION, "steps": before.steps, "logs": before.logs,
             "caches": before.caches, "environment": before.environment, "reports": reports}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write_text(tmp, json.dumps(stamp))
        os.replace(tmp, path)
    except OSError:  # a read-only home: the next run does the steps' own no-op
        tmp.unlink(missing_ok=True)


def _uses_qdrant(reports: list[dict]) -> bool:
    return any("qdrant" in str(r.get("store", "")).lower() for r in reports)


def recorded(home: Home, steps: list[str]) -> list[dict] | None:
    """The reports of the last no-op run of `steps` when nothing changed since, else None."""
    try:
        stamp = json.loads(_path(home).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(stamp, dict) or stamp.get("version") != VERSION or stamp.get("steps") != steps:
        return None
    logs = stamp.get("logs") or {}
    if set(logs) != set(SEARCHED_LOGS):
        return None
    if any(log_status(home.log(label), state) != "fresh" for label, state in logs.items()):
        return None
    if stamp.get("caches") != json.loads(json.dumps(_caches(home))):
        return None
    if stamp.get("environment") != json.loads(json.dumps(_environment())):
        return None
    reports = stamp.get("reports")
    return reports if isinstance(reports, list) else None
