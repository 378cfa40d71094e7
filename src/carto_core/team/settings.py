"""A home's team settings: `<home>/.carto/team/team.json` (0600, in the 0700 team folder).

    {"v": 1, "url": "postgresql://alice@db.example.com/carto?sslmode=verify-full",
     "team": "acme", "machine": "alice-laptop", "passfile": ".../team/pgpass",
     "projects": [{"key": "github.com/acme/shop", "name": "shop", "path": "/home/alice/shop",
                   "allowed": "5f0c2a9e1b7d"}]}

The URL never holds a password: `carto team init` moves one it is given into the password file
beside it (libpq's format, 0600) and names that file in `passfile`; a libpq service
(`service=...`, `~/.pg_service.conf`), `~/.pgpass` and `PGPASSWORD` work as they do for psql.
`CARTO_TEAM_URL` replaces the stored URL for one process (a CI job's secret, say).

Nothing leaves the machine until a project is allowed: `projects` starts empty. Stdlib only:
`configured` is one `stat`, asked by the keep-up trigger from hooks.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

from carto_core.team.remotes import KeyCache, ProjectKey, commit_remote
from carto_core.util.privatefiles import make_dirs

FORMAT = 1
FOLDER = "team"
FILE = "team.json"
PASSFILE = "pgpass"
URL_VARIABLE = "CARTO_TEAM_URL"


class TeamSettingsError(ValueError):
    """Team settings that exist but cannot be used (unreadable, malformed)."""


def folder(home) -> Path:
    return home.state / FOLDER


def settings_path(home) -> Path:
    return folder(home) / FILE


def configured(home) -> bool:
    """True when this home has a team (one `stat`)."""
    return os.path.isfile(settings_path(home))


def default_machine() -> str:
    return socket.gethostname().split(".")[0] or "machine"


class TeamSettings:
    """The settings as read; `url` honours `CARTO_TEAM_URL`."""

    def __init__(self, url: str, team: str, machine: str, projects: list[dict] | None = None,
                 passfile: str | None = None, stored_url: str | None = None):
        self.url = url
        self.stored_url = stored_url if stored_url is not None else url
        self.team = team
        self.machine = machine
        self.projects = list(projects or [])
        self.passfile = passfile

    # ------------------------------------------------------------------ the allow list

    def allowed_keys(self) -> set[str]:
        return {p["key"] for p in self.projects}

    def allow(self, project: ProjectKey) -> bool:
        """Add a project; False when it was allowed already. Each allowing is named (`allowed`):
        a push catches up a project allowed again after it left the list (a forget clears it),
        whatever its outbox says it covered the time before."""
        if project.key in self.allowed_keys():
            return False
        self.projects.append({**project.to_dict(), "allowed": os.urandom(6).hex()})
        self.projects.sort(key=lambda p: p["key"])
        return True

    def disallow(self, spec: str) -> list[dict]:
        """Remove the projects whose key or local name is `spec` (case-insensitive)."""
        low = spec.strip().lower()
        gone = [p for p in self.projects if low in (p["key"].lower(), p["name"].lower())]
        self.projects = [p for p in self.projects if p not in gone]
        return gone

    def matcher(self) -> "ProjectMatcher":
        return ProjectMatcher(self.projects)

    # ------------------------------------------------------------------ the file

    def to_dict(self) -> dict:
        return {"v": FORMAT, "url": self.stored_url, "team": self.team, "machine": self.machine,
                "passfile": self.passfile, "projects": self.projects}

    def save(self, home) -> Path:
        target = folder(home)
        make_dirs(target)
        os.chmod(target, 0o700)
        path = target / FILE
        write_private(path, json.dumps(self.to_dict(), indent=1, sort_keys=True) + "\n")
        return path


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path` atomically, readable by the owner only (whatever the umask)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            fd = -1
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
    finally:
        if fd >= 0:
            os.close(fd)
    os.replace(tmp, path)


def load(home, env: dict | None = None) -> TeamSettings | None:
    """The home's team settings, None when it has none."""
    env = os.environ if env is None else env
    path = settings_path(home)
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise TeamSettingsError(f"cannot read team settings {path}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("url"), str) \
            or not isinstance(data.get("team"), str) or not data.get("team"):
        raise TeamSettingsError(f"team settings {path} lack a url or a team: run `carto team init`")
    projects = [p for p in data.get("projects") or []
                if isinstance(p, dict) and isinstance(p.get("key"), str) and p["key"]]
    for p in projects:
        p.setdefault("name", p["key"].rsplit("/", 1)[-1])
        p.setdefault("path", "")
    stored = data["url"]
    return TeamSettings(url=env.get(URL_VARIABLE) or stored, team=data["team"],
                        machine=str(data.get("machine") or default_machine()), projects=projects,
                        passfile=data.get("passfile") or None, stored_url=stored)


class ProjectMatcher:
    """Which allowed project an event belongs to. A row with a `cwd` belongs to the project of
    the repository holding that folder on this machine (its remote decides); a `cwd` in no
    repository with a remote (a plain folder that shares an allowed checkout's name, a folder
    since deleted) belongs to none: its project name says only what the folder was called.
    A commit row without a `cwd` (the git source's) belongs to the repository its own `url`
    names, and to none when it names none: another repository of the same local name (a
    personal fork, `github.com/alice/shop` beside `github.com/acme/shop`) is not the allowed
    one. Other rows without a `cwd` (transcript turns) belong to an allowed project by its
    local name. An event that matches no allowed project never leaves the machine."""

    def __init__(self, projects: list[dict]):
        self.keys = {p["key"] for p in projects}
        #: key -> the allowed checkout's folder on this machine ("" when not known).
        self.paths = {p["key"]: p.get("path") or "" for p in projects}
        #: key -> which allowing of it this is (`TeamSettings.allow`; None on older lists).
        self.allowings = {p["key"]: p.get("allowed") for p in projects}
        self.by_name: dict[str, str] = {}
        for p in projects:
            self.by_name.setdefault(p["name"].lower(), p["key"])
        self._folders = KeyCache()

    def key_of(self, project: str, cwd: str) -> str | None:
        if cwd:
            found = self._folders.of(cwd)
            return found.key if found is not None and found.key in self.keys else None
        if project:
            return self.by_name.get(project.lower())
        return None

    def key_of_row(self, row: dict) -> str | None:
        """`key_of` for a log row, a commit row going by its own remote."""
        project, cwd = row.get("project"), row.get("cwd")
        project = project if isinstance(project, str) else ""
        cwd = cwd if isinstance(cwd, str) else ""
        if not cwd and (row.get("type") == "git_commit" or "commit_hash" in row):
            key = commit_remote(row.get("url"))
            return key if key in self.keys else None
        return self.key_of(project, cwd)
