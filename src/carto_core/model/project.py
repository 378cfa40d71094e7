"""Project names: from git metadata read as files, worktrees mapped to their main repository,
the names that are not projects, and the family registry. Stdlib only (hook path); no
subprocess anywhere.

Project = basename of the main working tree of the git *common* dir (so a linked worktree,
Claude's `.claude/worktrees/<n>` or Codex's `~/.codex/worktrees/<id>/<repo>`, counts as its
main repository), else basename of the cwd.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from carto_core.util.safeio import read_text

#: `.git` files (HEAD, a worktree's `.git`, `commondir`) are one short line; read no more.
_GIT_FILE_LIMIT = 4096

#: Folder names that never name a project (upstream `scripts/non-projects.js`).
NON_PROJECT_NAMES = frozenset(
    {"", "/", "?", "unknown", "tmp", "temp", "documents", "dev", "home", "root", "users",
     "worktrees", "workspace", "src", "projects", "desktop", "downloads"}
)


class GitInfo:
    """What the `.git` files say about a folder.

    A plain class, not a dataclass: `dataclasses` imports `inspect`, which the live hook would
    pay for (docs/performance.md).
    """

    __slots__ = ("worktree", "git_dir", "common_dir", "main_worktree")

    def __init__(self, worktree: Path, git_dir: Path, common_dir: Path, main_worktree: Path):
        self.worktree = worktree  # the working tree containing the folder
        self.git_dir = git_dir  # this worktree's git dir (`.git`, or `.git/worktrees/<name>`)
        self.common_dir = common_dir  # the shared git dir of the repository
        self.main_worktree = main_worktree  # the main checkout (parent of the common dir)

    def __repr__(self) -> str:
        return f"GitInfo(worktree={str(self.worktree)!r}, main={str(self.main_worktree)!r})"

    @property
    def is_linked_worktree(self) -> bool:
        return self.git_dir != self.common_dir

    def head(self) -> str:
        """Contents of HEAD: `ref: refs/heads/x` or a sha."""
        try:
            return read_text(self.git_dir / "HEAD", limit=_GIT_FILE_LIMIT).strip()
        except (OSError, ValueError):
            return ""

    def branch(self) -> str:
        """The checked-out branch, "" when detached or unreadable."""
        head = self.head()
        return head[len("ref: refs/heads/"):] if head.startswith("ref: refs/heads/") else ""


def find_git(start: os.PathLike | str) -> GitInfo | None:
    """Walk up from `start` to the nearest `.git` (folder or worktree file)."""
    try:
        path = Path(os.path.abspath(start))
    except (OSError, ValueError):
        return None
    for folder in (path, *path.parents):
        dotgit = folder / ".git"
        try:
            if dotgit.is_dir():
                common = _common_dir(dotgit)
                return GitInfo(folder, dotgit, common, _main_worktree(common, folder))
            if dotgit.is_file():
                text = read_text(dotgit, limit=_GIT_FILE_LIMIT).strip()
                if not text.startswith("gitdir:"):
                    return None
                git_dir = Path(text[len("gitdir:"):].strip())
                if not git_dir.is_absolute():
                    git_dir = (folder / git_dir).resolve()
                common = _common_dir(git_dir)
                return GitInfo(folder, git_dir, common, _main_worktree(common, folder))
        except (OSError, ValueError):
            return None
    return None


def _common_dir(git_dir: Path) -> Path:
    try:
        text = read_text(git_dir / "commondir", limit=_GIT_FILE_LIMIT).strip()
    except (OSError, ValueError):
        return git_dir
    common = Path(text)
    return common if common.is_absolute() else (git_dir / common).resolve()


def _main_worktree(common_dir: Path, fallback: Path) -> Path:
    if common_dir.name == ".git":
        return common_dir.parent
    # A bare repository or a separated git dir: name it after the folder, minus `.git`.
    name = common_dir.name[:-4] if common_dir.name.endswith(".git") else common_dir.name
    return common_dir.parent / name if name else fallback


def is_project_name(name: str | None) -> bool:
    """False for names that are folders of no project (home, /, tmp, ...)."""
    if not name:
        return False
    lowered = name.strip().lower()
    if lowered in NON_PROJECT_NAMES:
        return False
    home = os.path.basename(os.path.expanduser("~")).lower()
    extra = {n.strip().lower() for n in os.environ.get("CARTO_NON_PROJECTS", "").split(",")}
    return lowered != home and lowered not in extra


def project_for(cwd: os.PathLike | str | None) -> str:
    """The project of a working directory, "" when none can be named."""
    if not cwd:
        return ""
    info = find_git(cwd)
    if info is not None:
        return info.main_worktree.name
    name = os.path.basename(os.path.normpath(os.fspath(cwd)))
    return name if is_project_name(name) else ""


def main_checkout_path(path: os.PathLike | str) -> str:
    """Map a file path inside a linked worktree onto the same path in the main checkout."""
    path = os.path.abspath(path)
    info = find_git(os.path.dirname(path) if not os.path.isdir(path) else path)
    if info is None or not info.is_linked_worktree:
        return path
    try:
        relative = os.path.relpath(path, info.worktree)
    except ValueError:
        return path
    return os.path.join(str(info.main_worktree), relative)


class Folder:
    """A folder and the other checkouts of its repository: `holds(cwd)` says whether a working
    folder is in it, or in a linked worktree of the same repository. A project is a folder's
    last name, so `~/me/api` and `~/clientA/api` are both "api"; a MEMORY.md
    (`lenses.memory.Scope`) and a census bucket (`facts.census`) are one folder's. `None` holds
    every folder."""

    def __init__(self, folder: str | None = None):
        self.folder = os.path.normpath(folder) if folder else None
        self.main = self._main(self.folder) if self.folder else None
        self._known: dict[str, bool] = {}

    @staticmethod
    def _main(path: str) -> str:
        info = find_git(path) if os.path.isdir(path) else None
        return os.path.normpath(str(info.main_worktree)) if info is not None else path

    def holds(self, cwd: str) -> bool:
        if self.folder is None:
            return True
        known = self._known.get(cwd)
        if known is None:
            path = os.path.normpath(cwd)
            known = any(path == root or path.startswith(root.rstrip(os.sep) + os.sep)
                        for root in {self.folder, self.main}) or self._main(path) == self.main
            self._known[cwd] = known
        return known


def folders_of(project: str, cwds) -> list[tuple[str, int]]:
    """(folder, rows) of each folder a project's name was recorded in, most rows first, from
    (working folder, rows) pairs, most rows first: a working folder belongs to the first folder
    that `holds` it; a new one is the repository (worktree) holding it, else the nearest folder
    above it of the project's name. `carto memory` and `carto facts census` group by it."""
    folders: list[list] = []  # [folder, rows, Folder]
    for cwd, rows in cwds:
        owner = next((entry for entry in folders if entry[2].holds(cwd)), None)
        if owner is not None:
            owner[1] += rows
            continue
        info = find_git(cwd) if os.path.isdir(cwd) else None
        if info is not None:
            folder = str(info.worktree)
        else:
            path = Path(os.path.normpath(cwd))
            folder = str(next((p for p in (path, *path.parents) if p.name.lower() == project.lower()), path))
        folders.append([folder, rows, Folder(folder)])
    return sorted(((folder, rows) for folder, rows, _ in folders), key=lambda f: -f[1])


def folder_owners(project: str, cwds: dict[str, int]) -> dict[str, str | None] | None:
    """For a project name recorded in several folders (`folders_of` finds two or more among
    its working folders and their rows, `cwds`), each working folder's folder: the first of
    them, most rows first, that `holds` it. None for a name of one folder. `carto facts census`
    and `carto facts delta` bucket by it."""
    named = sorted(((cwd, rows) for cwd, rows in cwds.items() if cwd),
                   key=lambda pair: (-pair[1], pair[0]))
    if len(named) < 2:
        return None
    folders = folders_of(project, named)
    if len(folders) < 2:
        return None
    scopes = [(folder, Folder(folder)) for folder, _ in folders]
    return {cwd: next((folder for folder, scope in scopes if scope.holds(cwd)), None)
            for cwd, _ in named}


class RegistryError(ValueError):
    """A project registry that exists but cannot be read; never silently ignored."""


class ProjectRegistry:
    """Families of projects: `{"aliases": {"family": ["repo-a", "repo-b"]}}`."""

    def __init__(self, aliases: dict, path: str | None = None):
        self.aliases = aliases
        self.path = path

    @classmethod
    def load(cls, env: dict | None = None) -> "ProjectRegistry":
        """Explicit `CARTO_PROJECT_REGISTRY`/`CARTOGRAPHER_PROJECT_REGISTRY` (must exist), then
        `<config dir>/project-registry.json`, then upstream's config folder; else empty."""
        env = os.environ if env is None else env
        from carto_core.logio.home import config_dir

        for var in ("CARTO_PROJECT_REGISTRY", "CARTOGRAPHER_PROJECT_REGISTRY"):
            if env.get(var):
                path = Path(env[var]).expanduser()
                if not path.is_file():
                    raise RegistryError(f"{var} names {path}, which does not exist")
                return cls._read(path)
        xdg = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
        for path in (config_dir(env) / "project-registry.json",
                     Path(xdg) / "session-cartographer" / "project-registry.json"):
            if path.is_file():
                return cls._read(path)
        return cls({})

    @classmethod
    def _read(cls, path: Path) -> "ProjectRegistry":
        try:
            data = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise RegistryError(f"cannot read project registry {path}: {exc}") from None
        aliases = data.get("aliases") if isinstance(data, dict) else None
        if not isinstance(aliases, dict) or not all(
            isinstance(v, list) and all(isinstance(x, str) for x in v) for v in aliases.values()
        ):
            raise RegistryError(
                f'project registry {path} must look like {{"aliases": {{"family": ["repo"]}}}}'
            )
        return cls(aliases, str(path))

    def expand(self, spec: str) -> list[str]:
        """Substrings a project scope matches: a family name widens to its members; `a|b` is
        several scopes."""
        out: list[str] = []
        for part in (p.strip() for p in spec.split("|")):
            if not part:
                continue
            members = self.aliases.get(part)
            if members is None:
                members = next((v for k, v in self.aliases.items() if k.lower() == part.lower()), None)
            for name in [part, *(members or [])]:
                if name.lower() not in (o.lower() for o in out):
                    out.append(name)
        return out


class ProjectScope:
    """Case-insensitive substring match against any of several names."""

    def __init__(self, names: list[str]):
        self.names = names
        self._lowered = [n.lower() for n in names if n]

    @classmethod
    def parse(cls, spec: str | None, registry: ProjectRegistry | None = None) -> "ProjectScope | None":
        if not spec:
            return None
        registry = registry if registry is not None else ProjectRegistry.load()
        return cls(registry.expand(spec))

    def matches(self, project: str | None) -> bool:
        if not project:
            return False
        lowered = project.lower()
        return any(name in lowered for name in self._lowered)

    def __repr__(self) -> str:
        return f"ProjectScope({self.names!r})"
