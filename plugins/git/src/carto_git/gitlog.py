"""Reading commit history: one `git log` process per repository, parsed into commits.

Repositories are keyed by their git *common* dir (read from the `.git` files by
`carto_core.model.project`), so a linked worktree and its main checkout are one repository, named
after the main checkout, and are read once. `git log --all` covers every branch and the HEAD of
every worktree (detached ones too); `refs/stash` is left out (stash entries are not commits
anyone made).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from carto_core.api import GitInfo, find_git

RECORD = "\x1e"
FIELD = "\x1f"
FORMAT = f"{RECORD}%H{FIELD}%aI{FIELD}%an{FIELD}%ae{FIELD}%s"
DEFAULT_LIMIT = 500


class GitError(RuntimeError):
    """git failed or is missing; the message is meant for people."""


@dataclass(frozen=True)
class Repository:
    info: GitInfo
    given: str  # the path as the user gave it

    @property
    def key(self) -> str:
        return os.path.realpath(self.info.common_dir)

    @property
    def project(self) -> str:
        return self.info.main_worktree.name


@dataclass
class Commit:
    sha: str
    author_date: str
    author: str
    email: str
    subject: str
    files: list[str] = field(default_factory=list)


def open_repository(path: os.PathLike | str) -> Repository | None:
    """The repository containing `path`, None when it is in none."""
    info = find_git(path)
    return Repository(info, os.fspath(path)) if info is not None else None


def why_not_a_repository(path: os.PathLike | str) -> str:
    """Why `open_repository` found none at `path`, in words: a bare repository (HEAD, objects
    and refs, no work tree: a server's copy) is one, and is named so with what to do."""
    folder = Path(path)
    if (folder / "HEAD").is_file() and (folder / "objects").is_dir() and (folder / "refs").is_dir():
        return (f"a bare repository (no work tree); carto reads a clone of it: "
                f"git clone {os.fspath(folder)} <folder>, then --repo <folder>")
    return "not a git repository"


def repositories_under(root: os.PathLike | str) -> list[Path]:
    """Upstream's walk: every `<root>/*/` that has a `.git` (folder or worktree file)."""
    try:
        children = sorted(e.path for e in os.scandir(root) if e.is_dir() and not e.name.startswith("."))
    except OSError:
        return []
    return [Path(c) for c in children if os.path.exists(os.path.join(c, ".git"))]


def git_binary() -> str:
    found = shutil.which("git")
    if not found:
        raise GitError("git is not installed (or not on PATH)")
    return found


def log_command(repo: Repository, *, since: str | None = None, authors: list[str] | None = None,
                limit: int | None = DEFAULT_LIMIT, files: bool = True) -> list[str]:
    command = [
        git_binary(), "--git-dir", str(repo.info.common_dir),
        # A user's log.showSignature or quoted paths would change what we parse.
        "-c", "log.showSignature=false", "-c", "core.quotepath=off",
        "log", "--exclude=refs/stash", "--all", "--date-order", f"--format={FORMAT}", "--no-color",
    ]
    if files:
        command.append("--name-only")
    if since:
        command.append(f"--since={since}")
    for author in authors or ():
        command.append(f"--author={author}")
    if limit:
        command.append(f"--max-count={int(limit)}")
    return command


def count_commits(repo: Repository, *, since: str | None = None, authors: list[str] | None = None,
                  limit: int | None = DEFAULT_LIMIT) -> int | None:
    """How many commits `read_commits` will list with these options, from `git rev-list
    --count` (it walks the same refs without formatting a line: about 0.15 s for 10,000
    commits); None when git cannot tell."""
    command = [git_binary(), "--git-dir", str(repo.info.common_dir), "rev-list", "--count",
               "--exclude=refs/stash", "--all"]
    if since:
        command.append(f"--since={since}")
    command.extend(f"--author={author}" for author in authors or ())
    if limit:
        command.append(f"--max-count={int(limit)}")
    try:
        return int(_run_git(repo, command, "rev-list --count").strip())
    except (GitError, ValueError):
        return None


def _run_git(repo: Repository, command: list[str], what: str) -> bytes:
    """`command`'s output, git told nothing of a repository the environment names (carto
    names it with --git-dir) and to speak C; GitError when it cannot run or fails."""
    env = {**os.environ, "LC_ALL": "C", "GIT_PAGER": "cat"}
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    try:
        done = subprocess.run(command, capture_output=True, env=env, check=False)
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"{repo.given}: git {what} failed: {message[-1] if message else done.returncode}")
    return done.stdout


def read_commits(repo: Repository, **options) -> list[Commit]:
    """Every commit `git log` lists for the repository (newest first), in one process."""
    stdout = _run_git(repo, log_command(repo, **options), "log")
    return parse_log(stdout.decode("utf-8", "replace"))


def reachable_commits(repo: Repository) -> set[str]:
    """Every commit a ref reaches (the refs `read_commits` reads: `--all` minus the stash)."""
    command = [git_binary(), "--git-dir", str(repo.info.common_dir), "rev-list",
               "--exclude=refs/stash", "--all"]
    return set(_run_git(repo, command, "rev-list").decode("ascii", "replace").lower().split())


def parse_log(text: str) -> list[Commit]:
    commits: list[Commit] = []
    for record in text.split(RECORD):
        if not record.strip():
            continue
        head, _, rest = record.partition("\n")
        parts = head.split(FIELD)
        if len(parts) != 5:
            continue
        sha, date, author, email, subject = parts
        files = [line for line in rest.splitlines() if line.strip()]
        commits.append(Commit(sha, date, author, email, subject, files))
    return commits


def has_commits(repo: Repository) -> bool:
    """False for a repository whose HEAD is unborn and that has no refs (no subprocess)."""
    common = Path(repo.info.common_dir)
    if (common / "packed-refs").is_file():
        try:
            if any(line and not line.startswith(("#", "^")) for line in
                   (common / "packed-refs").read_text("utf-8", "replace").splitlines()):
                return True
        except OSError:
            pass
    for folder in ("refs/heads", "refs/tags", "refs/remotes"):
        for _dirpath, _dirs, names in os.walk(common / folder):
            if names:
                return True
    head = repo.info.head()
    return bool(re.fullmatch(r"[0-9a-f]{40,64}", head))


_REMOTE = re.compile(r'^\s*\[remote\s+"([^"]+)"\]\s*$')
_URL = re.compile(r"^\s*url\s*=\s*(.+?)\s*$")


def remote_url(repo: Repository) -> str | None:
    """`origin`'s URL (else the first remote's) from the repository's config file."""
    try:
        text = (Path(repo.info.common_dir) / "config").read_text("utf-8", "replace")
    except OSError:
        return None
    remotes: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        match = _REMOTE.match(line)
        if match:
            current = match.group(1)
            continue
        if line.lstrip().startswith("["):
            current = None
            continue
        url = _URL.match(line)
        if current and url and current not in remotes:
            remotes[current] = url.group(1)
    return remotes.get("origin") or next(iter(remotes.values()), None)


def commit_url_base(remote: str | None) -> str | None:
    """`https://host/owner/repo` for a remote URL in any of git's spellings, else None."""
    if not remote:
        return None
    remote = remote.strip()
    match = re.match(r"^(?:ssh://)?(?:[^@/]+@)?([^:/]+)[:/](?:\d+/)?(.+?)(?:\.git)?/?$", remote) \
        if not remote.startswith(("http://", "https://")) else None
    if match:
        host, path = match.group(1), match.group(2)
    else:
        https = re.match(r"^https?://(?:[^@/]+@)?([^/]+)/(.+?)(?:\.git)?/?$", remote)
        if not https:
            return None
        host, path = https.group(1), https.group(2)
    if "/" not in path or host in ("", "localhost"):
        return None
    return f"https://{host}/{path}"


def commit_url(base: str | None, sha: str) -> str | None:
    if not base:
        return None
    # GitLab spells commit pages `/-/commit/`; GitHub, Gitea, Bitbucket Server-style `/commit/`.
    return f"{base}/-/commit/{sha}" if "gitlab" in base else f"{base}/commit/{sha}"


def git_user_name(repo: Repository | None) -> str:
    """`git config user.name` as git itself resolves it (repository, then global)."""
    command = [git_binary()]
    if repo is not None:
        command += ["--git-dir", str(repo.info.common_dir)]
    command += ["config", "user.name"]
    try:
        done = subprocess.run(command, capture_output=True, check=False)
    except OSError:
        return ""
    return done.stdout.decode("utf-8", "replace").strip() if done.returncode == 0 else ""
