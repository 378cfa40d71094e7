"""Projects across machines: a project is named by its normalised git remote, never by a local
path (Alice's `~/code/shop` and Bob's `/work/shop` are one project when both clone
`git@github.com:acme/shop.git`). Stdlib only: git's files are read, git is never run.

`normalise_remote` turns every spelling of one remote into one key: scp-like `git@host:a/b.git`,
`ssh://user@host:22/a/b.git`, `https://user:token@host/a/b`, `git://host/a/b.git` all become
`host/a/b` (lower case, no user, no port, no `.git`, no trailing slash). A credential in a
remote URL therefore never reaches a key.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlsplit

from carto_core.model.project import find_git
from carto_core.util.safeio import read_text

_SCP = re.compile(r"^(?:[^@/\s]+@)?(?P<host>[^:/\s]+):(?!//)(?P<path>.+)$")
_SECTION = re.compile(r'^\s*\[\s*remote\s+"(?P<name>[^"]+)"\s*\]')
_URL = re.compile(r"^\s*url\s*=\s*(?P<url>.+?)\s*$", re.IGNORECASE)
_CONFIG_LIMIT = 1 << 20


def normalise_remote(url: str) -> str:
    """The machine-independent key of a git remote URL ("" when it names nothing)."""
    url = (url or "").strip()
    if not url:
        return ""
    if "://" in url:
        parts = urlsplit(url)
        if parts.scheme == "file":
            host, path = "", parts.path
        else:
            host, path = (parts.hostname or ""), parts.path
    else:
        match = _SCP.match(url)
        if match and not os.path.isabs(url):
            host, path = match.group("host"), match.group("path")
        else:
            host, path = "", url  # a local path remote: the best key there is
    path = path.strip().strip("/")
    if path.endswith(".git"):
        path = path[:-4].rstrip("/")
    key = f"{host}/{path}" if host else path
    return key.lower()


#: A commit's web page (`plugins/git` writes it as a commit row's `url`): GitHub, Gitea and
#: Bitbucket Server-style `/commit/<sha>`, GitLab `/-/commit/<sha>`, Bitbucket `/commits/<sha>`.
_COMMIT_PAGE = re.compile(r"^(?P<base>.+?)/(?:-/)?commits?/[0-9a-fA-F]{7,64}/?$")


def commit_remote(url: object) -> str:
    """The key of the repository a commit page's URL names ("" when it names none)."""
    if not isinstance(url, str):
        return ""
    found = _COMMIT_PAGE.match(url.strip())
    if not found or "://" not in found.group("base"):
        return ""
    return normalise_remote(found.group("base"))


def remote_urls(common_dir: Path) -> dict[str, str]:
    """remote name -> url, from a repository's `config` file."""
    try:
        text = read_text(common_dir / "config", limit=_CONFIG_LIMIT, errors="replace")
    except (OSError, ValueError):
        return {}
    out: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        section = _SECTION.match(line)
        if section:
            current = section.group("name")
            continue
        if line.lstrip().startswith("["):
            current = None
            continue
        found = _URL.match(line)
        if current and found and current not in out:
            out[current] = found.group("url").strip().strip('"')
    return out


class ProjectKey:
    """What a checkout is, seen from the team: its key, its local name and where it is."""

    __slots__ = ("key", "name", "path")

    def __init__(self, key: str, name: str, path: str):
        self.key, self.name, self.path = key, name, path

    def to_dict(self) -> dict:
        return {"key": self.key, "name": self.name, "path": self.path}

    def __repr__(self) -> str:
        return f"ProjectKey({self.key!r}, {self.name!r})"


def project_key(folder: os.PathLike | str) -> ProjectKey | None:
    """The key of the repository holding `folder` (its `origin`, else its first remote); None
    when the folder is in no repository or the repository has no remote."""
    info = find_git(folder)
    if info is None:
        return None
    urls = remote_urls(info.common_dir)
    url = urls.get("origin") or next(iter(urls.values()), "")
    key = normalise_remote(url)
    if not key:
        return None
    return ProjectKey(key, info.main_worktree.name, str(info.main_worktree))


class KeyCache:
    """Folder -> key, remembered per process (a push asks for the same few folders again and
    again)."""

    def __init__(self):
        self._by_folder: dict[str, ProjectKey | None] = {}

    def of(self, folder: str) -> ProjectKey | None:
        """The key of the repository holding `folder` (which need not exist any more: the
        walk up finds the repository of a deleted folder)."""
        if folder not in self._by_folder:
            self._by_folder[folder] = project_key(folder) if folder else None
        return self._by_folder[folder]
