"""Git facts for live capture: new commits from the reflog or HEAD (read as files), their type,
shape and salience, and the branch/dirty/recent-commit summary milestones carry.

The common path (a shell call that commits nothing) never gets here. A call whose text names a
commit reads `.git` files only (HEAD, refs, packed-refs, logs/HEAD) to find what is new; only a
commit that is new and unlogged costs one `git diff-tree` for its files and line counts.
Milestones (compaction, subagent stop, session end) are rare and may run `git status`/`git log`.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from carto_core.capture.tail import read_tail
from carto_core.model.project import GitInfo, find_git
from carto_core.util.safeio import is_regular, open_regular, read_text

#: How far back a Codex-shaped call (no duration) may find an unlogged HEAD commit.
HEAD_FRESH_SECONDS = 600
#: Slack on the reflog window of a Claude-shaped call (clock granularity, hook latency).
REFLOG_SLACK_SECONDS = 5
_REFLOG_TAIL_BYTES = 256 * 1024

#: Reflog action prefix -> commit_action.
_REFLOG_ACTIONS = (
    ("commit (amend)", "amend"),
    ("commit (merge)", "merge"),
    ("commit (initial)", "commit"),
    ("commit", "commit"),
    ("merge", "merge"),
    ("pull", "merge"),
    ("cherry-pick", "cherry-pick"),
    ("revert", "revert"),
    ("am", "am"),
)


class ReflogEntry:
    __slots__ = ("old", "new", "when", "action", "subject")

    def __init__(self, old: str, new: str, when: int, action: str, subject: str):
        self.old, self.new, self.when, self.action, self.subject = old, new, when, action, subject

    def __repr__(self) -> str:
        return f"ReflogEntry({self.new[:7]}, {self.when}, {self.action!r}, {self.subject!r})"


def read_reflog(info: GitInfo, tail_bytes: int = _REFLOG_TAIL_BYTES) -> list[ReflogEntry]:
    """The HEAD reflog entries that made commits (oldest first), from the file's tail."""
    data = read_tail(info.git_dir / "logs" / "HEAD", tail_bytes)
    entries: list[ReflogEntry] = []
    for raw in data.split(b"\n"):
        if not raw:
            continue
        line = raw.decode("utf-8", "replace")
        meta, _, message = line.partition("\t")
        parts = meta.split(" ")
        if len(parts) < 4:
            continue
        try:
            when = int(parts[-2])
        except ValueError:
            continue
        head, _, subject = message.partition(": ")
        action = ""
        for prefix, name in _REFLOG_ACTIONS:
            if head == prefix or head.startswith(prefix + " "):
                action = name
                break
        if not action or (action == "merge" and subject.startswith("Fast-forward")):
            continue  # checkouts, resets, rebases and fast-forwards make no commit of their own
        entries.append(ReflogEntry(parts[0], parts[1], when, action, subject))
    return entries


def _packed_ref(common_dir: Path, ref: str) -> str:
    try:
        with open_regular(common_dir / "packed-refs") as handle:
            for raw in handle:
                line = raw.decode("utf-8", "replace")
                if line.endswith(" " + ref + "\n") or line.rstrip("\n").endswith(" " + ref):
                    return line.split(" ", 1)[0]
    except OSError:
        pass
    return ""


def head_sha(info: GitInfo) -> str:
    """The commit HEAD names, read from files (loose ref, then packed-refs); "" when unborn."""
    head = info.head()
    if not head.startswith("ref: "):
        return head if re.fullmatch(r"[0-9a-f]{40,64}", head) else ""
    ref = head[5:].strip()
    for base in (info.git_dir, info.common_dir):
        try:
            value = read_text(base / ref, errors="replace", limit=4096).strip()
            if value:
                return value
        except OSError:
            continue
    return _packed_ref(info.common_dir, ref)


# ---------------------------------------------------------------------------------------------
# Logged commits (so a commit is never logged twice)


class SeenCommits:
    """Shas already logged, in `<home>/.carto/logged-commits.txt` (one per line, appended)."""

    def __init__(self, state_dir: Path):
        self.path = state_dir / "logged-commits.txt"
        self._shas: set[str] | None = None

    def _load(self) -> set[str]:
        if self._shas is None:
            try:
                self._shas = set(read_text(self.path, errors="replace").split())
            except OSError:
                self._shas = set()
        return self._shas

    def __contains__(self, sha: str) -> bool:
        return sha in self._load()

    def add(self, shas: list[str]) -> None:
        if not shas:
            return
        self._load().update(shas)
        from carto_core.logio.appendlog import append_lines

        append_lines(self.path, [(sha + "\n").encode() for sha in shas])


# ---------------------------------------------------------------------------------------------
# New commits of one call


class NewCommit:
    __slots__ = ("sha", "action", "subject", "repo")

    def __init__(self, sha: str, action: str | None, subject: str, repo: Path):
        self.sha, self.action, self.subject, self.repo = sha, action, subject, repo

    def __repr__(self) -> str:
        return f"NewCommit({self.sha[:7]}, {self.action!r}, {self.subject!r})"


def _subject_matches(subject: str, command: str) -> bool:
    subject = subject.strip()
    return bool(subject) and subject in command


def commits_from_reflog(
    info: GitInfo, since: float, seen: SeenCommits, *, command: str, need_subject: bool
) -> list[NewCommit]:
    """Commits the reflog recorded at or after `since` (epoch s), unlogged, oldest first."""
    found: list[NewCommit] = []
    for entry in read_reflog(info):
        if entry.when < since or entry.new in seen or any(c.sha == entry.new for c in found):
            continue
        if need_subject and not _subject_matches(entry.subject, command):
            continue
        found.append(NewCommit(entry.new, entry.action, entry.subject, info.worktree))
    return found


def commit_named(info: GitInfo, sha: str) -> NewCommit | None:
    """The commit a client named (`gitOperation.commit.sha`, a `[branch sha]` output line: often
    a 7-hex prefix) in this repository, None when it has no such commit: the reflog's entry
    (full sha, action, subject), else HEAD, else `git rev-parse` (one call, for a commit
    neither names)."""
    if not re.fullmatch(r"[0-9a-f]{4,64}", sha or ""):
        return None
    for entry in reversed(read_reflog(info)):
        if entry.new.startswith(sha):
            return NewCommit(entry.new, entry.action, entry.subject, info.worktree)
    full = head_sha(info)
    if not full.startswith(sha):
        full = _git(info.worktree, "rev-parse", "--verify", "--quiet", sha + "^{commit}").strip()
    if not re.fullmatch(r"[0-9a-f]{40,64}", full):
        return None
    return NewCommit(full, None, "", info.worktree)


def commit_from_head(
    info: GitInfo, now: float, seen: SeenCommits, *, command: str, need_subject: bool,
    not_before: int | None = None,
) -> list[NewCommit]:
    """HEAD's commit when it is unlogged and fresh (Codex-shaped calls carry no duration) and,
    with `not_before` (epoch s: the session's first event), not older than the session."""
    sha = head_sha(info)
    if not sha or sha in seen:
        return []
    when = None
    subject = ""
    for entry in reversed(read_reflog(info)):
        if entry.new == sha:
            when, subject = entry.when, entry.subject
            break
    if when is None:
        details = _git(info.worktree, "log", "-1", "--format=%ct%x00%s", sha)
        if not details or "\x00" not in details:
            return []
        stamp, _, subject = details.strip("\n").partition("\x00")
        try:
            when = int(stamp)
        except ValueError:
            return []
    if now - when > HEAD_FRESH_SECONDS or (not_before is not None and when < not_before):
        return []
    if need_subject and not _subject_matches(subject, command):
        return []
    return [NewCommit(sha, None, subject, info.worktree)]


def repo_info(folder: str) -> GitInfo | None:
    return find_git(folder) if folder else None


# ---------------------------------------------------------------------------------------------
# Commit details: one git call per new commit


def _git(repo: Path, *args: str) -> str:
    # git reads HEAD to recognise a repository: a HEAD that is a FIFO or a device would hang it.
    info = find_git(repo)
    if info is None or not is_regular(info.git_dir / "HEAD"):
        return ""
    from carto_core.util.hookcap import remaining

    try:
        done = subprocess.run(
            ["git", "-C", str(repo), "-c", "core.quotePath=false", *args],
            capture_output=True, timeout=remaining(10), stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    if done.returncode != 0:
        return ""
    return done.stdout.decode("utf-8", "replace")


class CommitDetails:
    __slots__ = ("subject", "files", "new", "modified", "deleted", "added", "removed")

    def __init__(self):
        self.subject = ""
        self.files: list[str] = []
        self.new = self.modified = self.deleted = self.added = self.removed = 0


def commit_details(repo: Path, sha: str) -> CommitDetails:
    """Subject, changed files (A/M/D) and line counts of one commit (first parent for merges)."""
    details = CommitDetails()
    out = _git(repo, "diff-tree", "-r", "--root", "-m", "--first-parent", "--raw", "--numstat",
               "--format=%x00%s", sha)
    for line in out.split("\n"):
        if not line:
            continue
        if line.startswith("\x00"):
            details.subject = line[1:]
        elif line.startswith(":"):
            meta, _, path = line.partition("\t")
            status = meta.split(" ")[-1][:1]
            path = path.split("\t")[-1]
            if path not in details.files:
                details.files.append(path)
            if status == "A":
                details.new += 1
            elif status == "D":
                details.deleted += 1
            else:
                details.modified += 1
        else:
            parts = line.split("\t")
            if len(parts) >= 3:
                if parts[0].isdigit():
                    details.added += int(parts[0])
                if parts[1].isdigit():
                    details.removed += int(parts[1])
    return details


# ---------------------------------------------------------------------------------------------
# Classification

_CONVENTIONAL = re.compile(r"^(feat|fix|bugfix|refactor|docs|tests?|chore|ci|style|perf|build|revert)(\([^)]*\))?!?:")
_CONVENTIONAL_TYPE = {
    "feat": "feature", "fix": "fix", "bugfix": "fix", "refactor": "refactor", "docs": "docs",
    "test": "test", "tests": "test", "chore": "chore", "ci": "ci", "style": "style",
    "perf": "perf", "build": "build", "revert": "revert",
}
_KEYWORDS = (
    (re.compile(r"[Aa]dd|[Ii]mplement|[Cc]reate"), "feature"),
    (re.compile(r"[Ff]ix|[Rr]esolve|[Pp]atch"), "fix"),
    (re.compile(r"[Rr]efactor|[Cc]lean|[Ss]implif"), "refactor"),
    (re.compile(r"[Uu]pdate|[Ee]nhance|[Ii]mprov"), "enhancement"),
)
_SHAPE_PREFIX = re.compile(r"^(feat|fix|refactor|docs|test|chore|ci|revert|style|perf|build)(\(.*\))?!?:")


def classify_commit(subject: str) -> str:
    """commit_type: conventional prefix, else keywords, else `other`."""
    match = _CONVENTIONAL.match(subject)
    if match:
        return _CONVENTIONAL_TYPE[match.group(1)]
    for pattern, name in _KEYWORDS:
        if pattern.search(subject):
            return name
    return "other"


_COMMIT_SALIENCE = {
    "feature": 0.7, "fix": 0.7, "refactor": 0.6, "revert": 0.6, "perf": 0.6,
    "enhancement": 0.5, "other": 0.5, "docs": 0.4, "test": 0.4, "chore": 0.4, "ci": 0.4,
    "build": 0.4, "style": 0.3,
}
_RELEASE = re.compile(r"^[Rr]elease |v[0-9][^\s]*\.[0-9]")


def commit_salience(commit_type: str, subject: str, file_count: int) -> float:
    value = _COMMIT_SALIENCE.get(commit_type, 0.5)
    if file_count > 5:
        value += 0.1
    if _RELEASE.search(subject):
        value += 0.1
    return round(min(value, 1.0), 2)


def diff_shape(details: CommitDetails) -> dict:
    """Upstream `diff-shape.sh`: A/M/D counts, line counts, quadrant, conventional type."""
    churn = details.added + details.removed
    if details.new > 0:
        quadrant = "bootstrap" if details.added < 100 else "construct"
    else:
        quadrant = "surgical" if churn < 50 else "rework"
    match = _SHAPE_PREFIX.match(details.subject)
    return {
        "files_new": details.new,
        "files_modified": details.modified,
        "files_deleted": details.deleted,
        "lines_added": details.added,
        "lines_removed": details.removed,
        "quadrant": quadrant,
        "commit_type": match.group(1) if match else None,
    }


# ---------------------------------------------------------------------------------------------
# Milestone context


def milestone_git(cwd: str) -> tuple[str, int, str]:
    """(branch, dirty file count, last five commits as `sha7 subject|...`) of cwd's repo."""
    info = find_git(cwd) if cwd else None
    if info is None:
        return "", 0, ""
    branch = info.branch()
    status = _git(info.worktree, "status", "--porcelain")
    dirty = sum(1 for line in status.split("\n") if line.strip())
    log = _git(info.worktree, "log", "-5", "--abbrev=7", "--format=%h %s")
    recent = "|".join(line for line in log.split("\n") if line)
    return branch, dirty, recent
