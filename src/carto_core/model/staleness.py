"""Is a memory still true of the code? A decision, thread, insight or wrapup checked against git.

A `session_wrapup` row keeps what it cites (`cites`: the repository, the session's commits with
their files, the files it edited, repository-relative). A statement cites the commits whose sha
it names (auto decisions end with one), else the files whose name it names, else everything its
wrapup cites. It is **stale** when, since it was written,

- a later commit changed a file it cites (one `git log` per repository for every statement
  checked: "tax.py changed in a1b2c3d, 3 days after this"), or
- a file it cites has uncommitted changes in the worktree (one `git status` per repository), or
- a commit it cites no longer exists or is on no branch, tag or remote (rebased away).

A wrapup written before rows kept `cites` is checked for the shas its decisions name, in the
repository of its `cwd`. No repository, or git failing, is not staleness: the answer is None.

Stdlib only (prompt recall marks what it shows).
"""

from __future__ import annotations

import os
import re
import subprocess

_SHA = re.compile(r"\b[0-9a-f]{7,40}\b")
#: Most commits `git log` reads back per repository (newest first), and files per statement.
LOG_MAX = 5000
FILES_MAX = 30
TIMEOUT = 10


def _git(root: str, *args: str) -> tuple[int, str]:
    from carto_core.util.hookcap import remaining

    try:
        done = subprocess.run(["git", "-C", root, "-c", "core.quotePath=false", *args],
                              capture_output=True, text=True, timeout=remaining(TIMEOUT),
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError, ValueError):
        return 1, ""
    return done.returncode, done.stdout


def wrapup_cites(cwd: str, commits: dict[str, list[str]], files: list[str]) -> dict:
    """The `cites` of a wrapup row: `commits` (sha -> absolute files) and the edited `files`
    (absolute), made relative to the repository of `cwd` (files outside it are left out)."""
    from carto_core.model.project import find_git

    info = find_git(cwd) if cwd and os.path.isdir(cwd) else None
    root = str(info.worktree) if info is not None else ""

    def relative(paths) -> list[str]:
        out = []
        for path in paths:
            if root and path.startswith(root + os.sep):
                rel = path[len(root) + 1:]
                if rel not in out:
                    out.append(rel)
        return out

    return {"repo": root, "commits": {sha: relative(paths) for sha, paths in commits.items() if sha},
            "files": relative(files)[:FILES_MAX]}


def statement_cites(text: str, cites: dict | None, cwd: str = "") -> tuple[str, list[str], list[str]]:
    """(repository, commits, files) one statement of a wrapup cites."""
    cites = cites if isinstance(cites, dict) else {}
    commits = cites.get("commits") if isinstance(cites.get("commits"), dict) else {}
    files = [f for f in cites.get("files") or [] if isinstance(f, str)]
    root = cites.get("repo") if isinstance(cites.get("repo"), str) else ""
    named = _SHA.findall(text or "")
    if not root:
        from carto_core.model.project import find_git

        info = find_git(cwd) if cwd and os.path.isdir(cwd) else None
        root = str(info.worktree) if info is not None else ""
        return root, named, []
    cited = [sha for sha in commits if any(sha.startswith(n) or n.startswith(sha) for n in named)]
    if cited or named:
        shas = cited or named
        return root, shas, sorted({f for sha in shas for f in commits.get(sha) or []})
    lowered = (text or "").lower()
    by_name = [f for f in list(dict.fromkeys([*files, *(f for v in commits.values() for f in v or [])]))
               if re.search(r"(?<![\w.])" + re.escape(os.path.basename(f).lower()) + r"(?![\w])", lowered)]
    if by_name:
        return root, [], by_name
    every = list(dict.fromkeys([*(f for v in commits.values() for f in v or []), *files]))
    return root, list(commits), every[:FILES_MAX]


class Checker:
    """Answers `check` for many statements with a few git calls per repository."""

    def __init__(self):
        self._log: dict[str, list[tuple[str, int, list[str]]] | None] = {}
        self._since: dict[str, float] = {}
        self._dirty: dict[str, set[str] | None] = {}
        self._commits: dict[tuple[str, str], str] = {}

    def prepare(self, wanted) -> None:
        """(repository, since) pairs about to be checked: one `git log` per repository then
        serves them all, from the oldest `since`."""
        for root, since in wanted:
            if root and (root not in self._since or since < self._since[root]):
                self._since[root] = since
                self._log.pop(root, None)

    def _commits_since(self, root: str, since: float) -> list[tuple[str, int, list[str]]] | None:
        if root in self._log and self._since[root] <= since:
            return self._log[root]
        self._since[root] = min(self._since.get(root, since), since)
        code, out = _git(root, "log", f"--since=@{int(self._since[root])}", f"--max-count={LOG_MAX}",
                         "--no-renames", "--format=%x00%H %ct", "--name-only", "HEAD")
        entries = None
        if code == 0:
            entries = []
            for chunk in out.split("\x00")[1:]:
                head, _, names = chunk.partition("\n")
                sha, _, when = head.partition(" ")
                if when.strip().isdigit():
                    entries.append((sha, int(when), [n for n in names.split("\n") if n]))
        self._log[root] = entries
        return entries

    def _dirty_files(self, root: str) -> set[str] | None:
        if root not in self._dirty:
            code, out = _git(root, "status", "--porcelain=v1", "-z", "--untracked-files=no")
            self._dirty[root] = None if code != 0 else {
                entry[3:] for entry in out.split("\x00") if len(entry) > 3}
        return self._dirty[root]

    def _commit_state(self, root: str, sha: str) -> str:
        """`landed`, `unreachable` (on no ref), `missing` (git does not know it) or `unknown`."""
        key = (root, sha)
        if key not in self._commits:
            code, _ = _git(root, "cat-file", "-e", f"{sha}^{{commit}}")
            if code != 0:
                known, _ = _git(root, "rev-parse", "--git-dir")
                state = "missing" if known == 0 else "unknown"
            else:
                code, refs = _git(root, "for-each-ref", "--contains", sha, "--count=1", "--format=%(refname)")
                state = "unknown" if code != 0 else ("landed" if refs.strip() else "unreachable")
            self._commits[key] = state
        return self._commits[key]

    def check(self, root: str, commits: list[str], files: list[str], since: float) -> dict | None:
        """What changed since `since` (epoch seconds) in what a statement cites; None when it
        is up to date or git cannot tell."""
        if not root or not os.path.isdir(root) or (not commits and not files):
            return None
        changed, dirty, gone = [], [], []
        log = self._commits_since(root, since) if files else None
        if log:
            first: dict[str, tuple[str, int]] = {}
            for sha, when, names in reversed(log):  # oldest first: the first change after
                if when <= since:
                    continue
                for name in names:
                    if name in files and name not in first:
                        first[name] = (sha, when)
            changed = [{"file": f, "commit": sha[:7], "at": when, "after_seconds": int(when - since)}
                       for f, (sha, when) in sorted(first.items(), key=lambda kv: kv[1][1])]
        if files:
            now_dirty = self._dirty_files(root) or set()
            dirty = [f for f in files if f in now_dirty]
        for sha in commits:
            state = self._commit_state(root, sha)
            if state in ("missing", "unreachable"):
                gone.append({"commit": sha[:7], "state": state})
        if not (changed or dirty or gone):
            return None
        return {"changed": changed, "dirty": dirty, "commits_gone": gone,
                "note": note(changed, dirty, gone)}


def _after(seconds: int) -> str:
    days = seconds // 86400
    if days >= 1:
        return f"{days} day{'s' if days != 1 else ''} after this"
    hours = seconds // 3600
    return f"{hours} hour{'s' if hours != 1 else ''} after this" if hours >= 1 else "soon after this"


def note(changed: list[dict], dirty: list[str], gone: list[dict]) -> str:
    """One line: "tax.py changed in a1b2c3d, 3 days after this; cart.py has uncommitted
    changes; commit 0badc0d no longer exists"."""
    parts = [f"{os.path.basename(c['file'])} changed in {c['commit']}, {_after(c['after_seconds'])}"
             for c in changed[:3]]
    if len(changed) > 3:
        parts.append(f"{len(changed) - 3} more cited files changed")
    parts += [f"{os.path.basename(f)} has uncommitted changes" for f in dirty[:2]]
    parts += [f"commit {g['commit']} " + ("no longer exists" if g["state"] == "missing" else "is on no branch (rebased away?)")
              for g in gone[:2]]
    return "; ".join(parts)


def of_statement(checker: Checker, text: str, cites: dict | None, cwd: str, written: float) -> dict | None:
    root, commits, files = statement_cites(text, cites, cwd)
    return checker.check(root, commits, files, written)


def prepare(checker: Checker, records) -> None:
    """Tell `checker` the repositories and times of the ledger records about to be checked."""
    from carto_core.util.timeparse import epoch_seconds

    wanted = []
    for record in records:
        written = epoch_seconds(record.last)
        if written is not None:
            root, _, _ = statement_cites(record.text, record.cites[-1] if record.cites else None, record.cwd)
            wanted.append((root, written))
    checker.prepare(wanted)
