"""What is never recorded: `[capture] exclude` in the config file. Stdlib only (the hook path
asks it before anything is written).

    [capture]
    exclude = ["client-*", "scratch", "~/work/secret/**", "/mnt/nda"]

Each entry is a glob. One that holds a `/` or starts with `~` is a **path**: a working folder
(a hook payload's `cwd`, a row's `cwd`, a backfilled stream's file) is excluded when it or any
folder above it matches, so `~/work/secret` covers everything under it (`~` is the user's home;
matched case-sensitively, `*` crosses `/`). Any other entry is a **project** name glob, matched
case-insensitively against the project carto gives a folder (`carto_core.model.project`) or a
row's `project`.

Who honours it, before writing anything:

- `carto hook` (every provider): a payload whose `cwd` is excluded is dropped before its
  handler runs (no row, no live transcript read, no hook.log line, no detached job), and every
  row a handler returns is dropped when its own `project` or `cwd` is excluded (an edit in an
  excluded repository from a session elsewhere);
- the live transcript ingest (`carto_core.capture.live`): a turn whose project or cwd is
  excluded is not written;
- every backfill (`carto_core.ingest.runner`: claude, codex, hermes, git, notes, any plugin's
  source): a stream whose file is under an excluded path is not read, a row whose project or
  cwd is excluded is not written, and a stream whose every row was excluded keeps no
  checkpoint (its path would name the project).

The file is read once per process; without an `exclude` key in it, deciding costs the read of
the config file and a substring test (no TOML parse).

A file that names an `exclude` and cannot be read (not TOML, not UTF-8) excludes everything
until it is mended (`UNREADABLE`): what it meant to keep out is unknown, and "never recorded"
cannot hold by recording it. `carto doctor` and `carto config` name the broken file.
"""

from __future__ import annotations

import os

_cache: dict = {}


class Exclusion:
    """The compiled `[capture] exclude` globs."""

    __slots__ = ("patterns", "projects", "paths", "unreadable")

    def __init__(self, patterns: list[str] | tuple[str, ...] = (), unreadable: bool = False):
        #: The config file names an exclusion it does not let be read: everything is out.
        self.unreadable = unreadable
        self.patterns = tuple(p for p in patterns if isinstance(p, str) and p.strip())
        self.projects: tuple[str, ...] = tuple(
            p.strip().lower() for p in self.patterns if not _is_path(p))
        self.paths: tuple[str, ...] = tuple(
            _normalise(os.path.expanduser(p.strip())) for p in self.patterns if _is_path(p))

    def __bool__(self) -> bool:
        return bool(self.patterns) or self.unreadable

    def __repr__(self) -> str:
        return f"Exclusion({list(self.patterns)!r})"

    def project(self, name: object) -> bool:
        """True when a project name matches a project glob."""
        if self.unreadable:
            return True
        if not self.projects or not isinstance(name, str) or not name.strip():
            return False
        from fnmatch import fnmatchcase

        lowered = name.strip().lower()
        return any(fnmatchcase(lowered, glob) for glob in self.projects)

    def path(self, path: object) -> bool:
        """True when a path, or a folder above it, matches a path glob."""
        if self.unreadable:
            return True
        if not self.paths or not isinstance(path, str) or not path.strip():
            return False
        from fnmatch import fnmatchcase

        current = _normalise(os.path.expanduser(path.strip()))
        while True:
            if any(fnmatchcase(current, glob) for glob in self.paths):
                return True
            parent = os.path.dirname(current)
            if parent == current:
                return False
            current = parent

    def row(self, row: dict) -> bool:
        """True when a row's own project or working folder is excluded."""
        if self.unreadable:
            return True
        return bool(self.patterns) and (self.project(row.get("project")) or self.path(row.get("cwd")))

    def folder(self, cwd: object) -> bool:
        """True when a working folder is excluded, by its path or by the project it is in."""
        if self.unreadable:
            return True
        if not self.patterns or not isinstance(cwd, str) or not cwd:
            return False
        if self.path(cwd):
            return True
        if not self.projects:
            return False
        from carto_core.model.project import project_for

        return self.project(project_for(cwd))


#: The exclusion of a config file that names one and cannot be read: everything.
UNREADABLE = Exclusion(unreadable=True)


def _is_path(pattern: str) -> bool:
    text = pattern.strip()
    return "/" in text or text.startswith("~")


def _normalise(path: str) -> str:
    path = os.path.normpath(path) if path else path
    return path.rstrip("/") or "/"


def parse(data: bytes) -> Exclusion:
    """The exclusion a config file's bytes declare (none when it names no `exclude`)."""
    if b"exclude" not in data:
        return Exclusion()
    import tomllib

    try:
        table = tomllib.loads(data.decode("utf-8")).get("capture")
    except (ValueError, UnicodeDecodeError):
        return UNREADABLE  # `carto doctor` and `carto config` report a broken file
    value = table.get("exclude") if isinstance(table, dict) else None
    if isinstance(value, str):
        value = [value]
    return Exclusion(value if isinstance(value, list) else [])


def load(env: dict | None = None) -> Exclusion:
    """The exclusion of the config file (`$CARTO_CONFIG`, else `$XDG_CONFIG_HOME/carto/config.toml`),
    read once per process and file state."""
    from carto_core.logio.home import config_file

    path = os.fspath(config_file(env))
    try:
        info = os.stat(path)
    except OSError:
        return Exclusion()
    key = (path, info.st_mtime_ns, info.st_size, info.st_ino)
    found = _cache.get(key)
    if found is None:
        try:
            with open(path, "rb") as handle:
                found = parse(handle.read())
        except OSError:
            found = Exclusion()
        _cache.clear()
        _cache[key] = found
    return found
