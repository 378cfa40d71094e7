"""The `git` source: commits as upstream's `git-<sha7>` changelog rows (reference 6.5).

Options (from `carto ingest git` or `[sources.git]` in the config file):

- `repos`: paths inside repositories (a worktree counts as its main repository);
- `roots`: folders whose children are repositories (upstream walked `$DEV/*/.git`);
- `since`: passed to `git log --since` (git's own date grammar: `2026-01-01`, `2.weeks`);
- `authors`: owner regexes, OR-ed (`git log --author`); None reads every author;
- `limit`: at most this many commits per repository (default 500, as upstream);
- `files`: list changed files (default true);
- `home`: the carto home, whose changelog and tool-use log are scanned so that a commit the
  hooks already logged (its full hash in a summary) is not logged twice.

No checkpoint: one `git log` per repository is cheap, and the dedup above plus the runner's
event-id dedup make re-runs write nothing.

Rewritten history. A `git-<sha7>` row of this repository (its project, and its remote's url or
none when the repository has no remote) whose commit no ref reaches any more (amended, rebased,
its branch deleted) gets a revision: the same row marked `"unreachable": true`, its summary
saying so. The logs are append-only, and readers keep the newest row of an id
(`carto_core.logio.fold`), so the changelog is revisable for this source; a commit reached
again gets its plain row back. Rows the live hooks wrote are left as they are.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from carto_core.api import Emit, ReadBatch, Source, Stream, iter_lines, order_row

from carto_git.gitlog import (
    DEFAULT_LIMIT, Repository, commit_url, commit_url_base, count_commits, has_commits,
    open_repository, read_commits, reachable_commits, remote_url, repositories_under, why_not_a_repository,
)

FILES_IN_SUMMARY = 20
_HASH = re.compile(r"\b[0-9a-f]{40}(?:[0-9a-f]{24})?\b")
#: Logs whose rows may already hold a commit (hook-written `git_commit` rows and their copies).
DEDUP_LOGS = ("changelog", "tool-use")


#: What a revision of a commit git no longer has says before its subject.
GONE = "(no longer in git history: amended, rebased or its branch deleted)"


def known_commit_hashes(home, backfilled: dict | None = None) -> set[str]:
    """Full commit hashes already named in the home's logs (summaries or `commit_hash`).
    `backfilled`, when given, gets sha -> the newest `git-<sha7>` row of each."""
    found: set[str] = set()
    if home is None:
        return found
    for label in DEDUP_LOGS:
        for line in iter_lines(home.log(label)):
            row = line.row
            value = row.get("commit_hash")
            if isinstance(value, str):
                found.add(value.lower())
                if (backfilled is not None and label == "changelog"
                        and row.get("type") == "git_commit"
                        and str(row.get("event_id", "")).startswith("git-")):
                    backfilled[value.lower()] = row
            summary = row.get("summary")
            if isinstance(summary, str) and "ommit" in summary:
                found.update(_HASH.findall(summary.lower()))
    return found


def commit_row(repo: Repository, commit, url_base: str | None) -> dict:
    sha7 = commit.sha[:7]
    summary = f"Commit {sha7}: {commit.subject}"
    if commit.files:
        shown = commit.files[:FILES_IN_SUMMARY]
        summary += " | files: " + ",".join(shown) + (",…" if len(commit.files) > len(shown) else "")
    return order_row("changelog-git", {
        "event_id": f"git-{sha7}",
        "timestamp": commit.author_date,
        "type": "git_commit",
        "project": repo.project,
        "summary": " ".join(summary.split()),
        "commit_hash": commit.sha,
        "author": commit.author,
        "url": commit_url(url_base, commit.sha),
        "files_changed": len(commit.files),
        "related_ids": [],
    })


def unreachable_row(row: dict) -> dict:
    """A revision of a backfilled commit row: marked, its summary saying so (search shows it)."""
    summary = str(row.get("summary") or "")
    sha7 = str(row.get("commit_hash") or "")[:7]
    if GONE not in summary:
        head = f"Commit {sha7}"
        summary = (f"{head} {GONE}{summary[len(head):]}" if summary.startswith(head)
                   else f"{GONE} {summary}")
    return order_row("changelog-git", {**row, "summary": summary, "unreachable": True})


class GitSource(Source):
    name = "git"
    provider = "git"
    #: Backfilled commit rows are revised when git no longer reaches their commit.
    revisable_logs = frozenset({"changelog"})
    description = "git commit history as git-<sha7> changelog rows (one git log per repository)"
    #: What the progress bar counts (`count_units`).
    unit_name = "commits"

    def __init__(self, options: dict | None = None):
        super().__init__(options)
        self.home = self.options.get("home")
        self.authors = self.options.get("authors")
        self.since = self.options.get("since")
        self.limit = self.options.get("limit", DEFAULT_LIMIT)
        self.files = bool(self.options.get("files", True))
        #: Notes for people: empty repositories, limits reached, paths that are no repository.
        self.notes: list[str] = []
        self._known: set[str] | None = None
        self._backfilled: dict[str, dict] = {}
        #: Revisions emitted: commits marked as gone from git, and commits reached again.
        self.marked = 0
        self.unmarked = 0

    def repositories(self) -> list[Repository]:
        """Every distinct repository the options name, in the order given."""
        paths: list[str] = [os.fspath(p) for p in self.options.get("repos") or ()]
        for root in self.given_roots():
            paths.extend(str(p) for p in repositories_under(root))
        if not paths:
            paths = [os.getcwd()]
        seen: dict[str, Repository] = {}
        for path in paths:
            repo = open_repository(Path(path).expanduser())
            if repo is None:
                self.notes.append(f"{path}: {why_not_a_repository(Path(path).expanduser())} (skipped)")
                continue
            seen.setdefault(repo.key, repo)
        return list(seen.values())

    def discover(self):
        for repo in self.repositories():
            yield Stream(key=f"repo:{repo.key}", path=Path(repo.info.main_worktree), meta={"repo": repo})

    def count_units(self, streams) -> int | None:
        """The commits the streams' repositories will list (what the progress bar counts, one
        repository of 10,000 commits being one stream); None when git cannot tell."""
        total = 0
        for stream in streams:
            repo = stream.meta.get("repo") or open_repository(stream.path)
            count = count_commits(repo, since=self.since, authors=self.authors, limit=self.limit)
            if count is None:
                return None
            total += count
        return total

    def read(self, stream: Stream, checkpoint: dict | None) -> ReadBatch:
        repo: Repository = stream.meta.get("repo") or open_repository(stream.path)
        batch = ReadBatch()
        if not has_commits(repo):
            # An unborn HEAD and no refs: git log would fail ("does not have any commits yet").
            # (A reftable repository keeps no refs/ files: it is read, not judged, below.)
            if not (Path(repo.info.common_dir) / "reftable").is_dir():
                note = f"{repo.given}: repository has no commits yet"
                batch.messages.append(note)
                self.notes.append(note)
                batch.skipped["empty_repository"] += 1
                return batch
        commits = read_commits(repo, since=self.since, authors=self.authors, limit=self.limit,
                               files=self.files)
        batch.units = len(commits)
        if self.limit and len(commits) >= int(self.limit):
            note = f"{repo.given}: stopped at --limit {self.limit} commits (older ones not read)"
            batch.messages.append(note)
            self.notes.append(note)
        if self._known is None:
            self._known = known_commit_hashes(self.home, self._backfilled)
        base = commit_url_base(remote_url(repo))
        # The home's hashes are read once per run and never grown here: a re-read of the same
        # stream must give the same rows (the runner's event-id dedup keeps re-runs idempotent).
        for commit in reversed(commits):  # oldest first: the log reads in time order
            held = self._backfilled.get(commit.sha.lower())
            if held is not None and held.get("unreachable"):
                # reached again (a branch made on it): its plain row is the newest again
                batch.rows.append(Emit("changelog", commit_row(repo, commit, base)))
                self.unmarked += 1
                continue
            if commit.sha.lower() in self._known:
                batch.skipped["already_logged"] += 1
                continue
            batch.rows.append(Emit("changelog", commit_row(repo, commit, base)))
        batch.rows.extend(self._gone(repo, base, {c.sha.lower() for c in commits}))
        return batch

    def _gone(self, repo: Repository, base: str | None, read: set[str]) -> list[Emit]:
        """Revisions of this repository's backfilled rows whose commit no ref reaches."""
        prefix = commit_url(base, "") if base else None
        mine = [sha for sha, row in self._backfilled.items()
                if sha not in read and not row.get("unreachable")
                and row.get("project") == repo.project
                and ((row.get("url") or "").startswith(prefix) if prefix else not row.get("url"))]
        if not mine:
            return []
        # only when some row's commit was not among those just read (--limit, --since, owners)
        reached = reachable_commits(repo)
        gone = [Emit("changelog", unreachable_row(self._backfilled[sha]))
                for sha in mine if sha not in reached]
        self.marked += len(gone)
        return gone
