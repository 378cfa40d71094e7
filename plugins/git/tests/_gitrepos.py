"""Repositories built by the tests (imported by path: tests are not a package).

Every git call runs with the user's configuration shut out (GIT_CONFIG_GLOBAL/SYSTEM point at
/dev/null) and with author and committer set explicitly, so the tests never depend on, or read,
the machine's git setup.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

ISOLATED = {
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_SYSTEM": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Nobody",
    "GIT_AUTHOR_EMAIL": "nobody@example.com",
    "GIT_COMMITTER_NAME": "Nobody",
    "GIT_COMMITTER_EMAIL": "nobody@example.com",
}


def isolate_git(monkeypatch) -> None:
    """Shut the user's git config out of this process and every git it starts."""
    for key, value in ISOLATED.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("GIT_DIR", raising=False)
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)


def git(cwd: Path, *args: str, author: str = "Nobody", date: str | None = None) -> str:
    env = {**os.environ, **ISOLATED, "GIT_AUTHOR_NAME": author,
           "GIT_AUTHOR_EMAIL": f"{author.lower()}@example.com"}
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout.strip()


@dataclass
class Made:
    """A commit the test made, as the test knows it (the expectation, not git's answer)."""

    sha: str
    author: str
    subject: str
    date: str
    files: list[str]
    where: str  # "main" or "worktree"


@dataclass
class Shop:
    main: Path
    worktree: Path
    commits: list[Made] = field(default_factory=list)

    def by(self, author: str) -> list[Made]:
        return [c for c in self.commits if c.author == author]


def commit(repo: Path, author: str, subject: str, files: dict[str, str], date: str, where: str,
           made: list[Made]) -> Made:
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    if files:
        git(repo, "add", *files)
    git(repo, "commit", "-q", "--allow-empty", "-m", subject, author=author, date=date)
    entry = Made(git(repo, "rev-parse", "HEAD"), author, subject, date, sorted(files), where)
    made.append(entry)
    return entry


def build_shop(base: Path) -> Shop:
    """`shop`: three authors, a feature branch merged with a merge commit, and a linked
    worktree with its own branch and commits; origin is a GitHub remote."""
    main = base / "shop"
    main.mkdir(parents=True)
    git(main, "init", "-q", "-b", "main")
    git(main, "remote", "add", "origin", "git@github.com:acme/shop.git")
    made: list[Made] = []
    commit(main, "Alice", "feat: cart model", {"src/cart.py": "a\n", "src/tax.py": "t\n"},
           "2026-03-01T10:00:00+01:00", "main", made)
    commit(main, "Bob", "docs: readme", {"README.md": "r\n"}, "2026-03-01T11:00:00+00:00", "main", made)
    git(main, "checkout", "-q", "-b", "feature")
    commit(main, "Bob", "fix: rounding in totals", {"src/tax.py": "t2\n"},
           "2026-03-02T09:00:00+00:00", "feature", made)
    git(main, "checkout", "-q", "main")
    commit(main, "Claude", "refactor: split cart", {"src/cart.py": "a2\n", "src/line.py": "l\n"},
           "2026-03-02T10:00:00+00:00", "main", made)
    git(main, "merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature", author="Alice",
        date="2026-03-02T12:00:00+00:00")
    made.append(Made(git(main, "rev-parse", "HEAD"), "Alice", "Merge branch 'feature'",
                     "2026-03-02T12:00:00+00:00", [], "main"))
    worktree = base / "worktrees" / "shop-discounts"
    git(main, "worktree", "add", "-q", "-b", "discounts", str(worktree))
    commit(worktree, "Alice", "feat: discount codes", {"src/discounts.py": "d\n"},
           "2026-03-03T09:00:00+00:00", "worktree", made)
    commit(worktree, "Claude", "test: discount codes", {"tests/test_discounts.py": "x\n"},
           "2026-03-03T09:30:00+00:00", "worktree", made)
    for entry in made:
        if entry.where == "feature":
            entry.where = "main"
    return Shop(main, worktree, made)
