"""Git backfill: carto's one `git log` per repository vs upstream's shape (one `git log` for the
list, then one `git diff-tree` per commit for its files), same repository, same run.

The repository is built with `git fast-import` (N commits, each touching 1-3 files, three
authors); the user's git config is shut out. Reported: medians of --repeat runs, commits per
second, the ratio, and the number of git processes each approach started.

    .venv/bin/python benchmarks/git/bench_ingest.py --commits 2000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from carto_core.logio.home import Home
from carto_core.ingest.runner import run_ingest
from carto_git.source import GitSource

ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}


def build(repo: Path, commits: int) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True, env=ENV)
    lines = []
    for i in range(commits):
        author = ("Alice", "Bob", "Claude")[i % 3]
        message = f"feat: change number {i}\n"
        lines.append(f"commit refs/heads/main\nmark :{i + 1}\n"
                     f"author {author} <{author.lower()}@example.com> {1_700_000_000 + i * 60} +0000\n"
                     f"committer {author} <{author.lower()}@example.com> {1_700_000_000 + i * 60} +0000\n"
                     f"data {len(message.encode())}\n{message}")
        if i:
            lines.append(f"from :{i}\n")
        for f in range(1 + i % 3):
            body = f"content {i} {f}\n"
            lines.append(f"M 644 inline src/file{(i + f) % 50}.py\ndata {len(body.encode())}\n{body}")
        lines.append("\n")
    subprocess.run(["git", "-C", str(repo), "fast-import", "--quiet"], input="".join(lines).encode(),
                   check=True, env=ENV)
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "main"], check=True, env=ENV)


def upstream_shape(repo: Path) -> tuple[int, int]:
    """List commits with one git log, then ask diff-tree for each commit's files."""
    shas = subprocess.run(["git", "-C", str(repo), "log", "--format=%H|%aI|%an|%s", "--max-count=100000"],
                          capture_output=True, text=True, check=True, env=ENV).stdout.splitlines()
    for line in shas:
        sha = line.split("|", 1)[0]
        subprocess.run(["git", "-C", str(repo), "diff-tree", "--no-commit-id", "--name-only", "-r", sha],
                       capture_output=True, check=True, env=ENV)
    return len(shas), 1 + len(shas)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ.update({"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"})
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        build(repo, args.commits)
        ours, theirs, written = [], [], 0
        for r in range(args.repeat):
            started = time.perf_counter()
            upstream_shape(repo)
            theirs.append(time.perf_counter() - started)
            source = GitSource({"repos": [str(repo)], "authors": None, "limit": args.commits,
                                "home": Home(Path(tmp) / f"h{r}")})
            started = time.perf_counter()
            summary = run_ingest(source, Home(Path(tmp) / f"h{r}"))
            ours.append(time.perf_counter() - started)
            written = summary.rows_written
        o, t = statistics.median(ours), statistics.median(theirs)
        print(json.dumps({
            "commits": args.commits, "rows_written": written,
            "carto_s": round(o, 3), "carto_commits_per_s": round(args.commits / o),
            "carto_git_processes": 1,
            "upstream_shape_s": round(t, 3), "upstream_commits_per_s": round(args.commits / t),
            "upstream_git_processes": args.commits + 1,
            "speedup": round(t / o, 1),
        }, indent=2))


if __name__ == "__main__":
    main()
