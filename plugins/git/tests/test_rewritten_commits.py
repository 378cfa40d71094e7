"""A commit that git no longer has (amended, rebased away, its branch deleted) was kept as it
was: a second `carto ingest git` wrote the new commit beside it and search ranked the old one
first, nothing saying it was gone. The ingest now appends a revision of that commit's row,
marked `"unreachable": true` and labelled in its summary, and unmarks it if git reaches it
again."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.logio.reader import iter_lines

sys.path.insert(0, str(Path(__file__).parent))
from _gitrepos import git, isolate_git  # noqa: E402

pytest_plugins = ["carto_core.testing"]


@pytest.fixture(autouse=True)
def _no_user_git_config(monkeypatch):
    isolate_git(monkeypatch)
    monkeypatch.setenv("CARTO_SEMANTIC", "0")


def _events() -> dict[str, dict]:
    """event_id -> its row as readers fold it (the newest row of the id wins)."""
    out = {}
    for line in iter_lines(Home(os.environ["CARTO_HOME"]).log("changelog")):
        out[line.row["event_id"]] = line.row
    return out


def _ingest(repo: Path):
    done = CliRunner().invoke(cli, ["ingest", "git", "--repo", str(repo), "--all-authors"])
    assert done.exit_code == 0, done.output
    return done


def _app(tmp_path) -> Path:
    repo = tmp_path / "app"
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "f").write_text("1\n")
    git(repo, "add", "f")
    git(repo, "commit", "-q", "-m", "add the lemur parser")
    return repo


def _gc(repo: Path) -> None:
    git(repo, "reflog", "expire", "--expire=now", "--all")
    git(repo, "gc", "-q", "--prune=now")


def test_an_amended_commit_is_marked_and_search_says_so(tmp_path):
    repo = _app(tmp_path)
    _ingest(repo)
    old = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "commit", "-q", "--amend", "-m", "add the lemur parser (fixed typo)")
    new = git(repo, "rev-parse", "HEAD").strip()
    _gc(repo)
    said = _ingest(repo).output
    assert "1 commit backfilled, 0 already existed, 1 no longer in git history" in said
    events = _events()
    gone, kept = events[f"git-{old[:7]}"], events[f"git-{new[:7]}"]
    assert gone.get("unreachable") is True and "unreachable" not in kept
    assert gone["commit_hash"] == old and "no longer in git history" in gone["summary"]
    _ingest(repo)  # an unchanged repository: nothing more is written
    rows = [line.row for line in iter_lines(Home(os.environ["CARTO_HOME"]).log("changelog"))]
    assert len(rows) == 3
    found = CliRunner().invoke(cli, ["search", "lemur parser", "--json"])
    results = json.loads(found.output)["results"]
    assert results[0]["event_id"] == f"git-{new[:7]}"
    labelled = next(r for r in results if r["event_id"] == f"git-{old[:7]}")
    assert "no longer in git history" in labelled["summary"]


def test_a_commit_git_reaches_again_is_unmarked(tmp_path):
    """Before gc the old commit is still an object but no ref reaches it; a branch made on it
    brings it back."""
    repo = _app(tmp_path)
    _ingest(repo)
    old = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "commit", "-q", "--amend", "-m", "add the lemur parser (fixed typo)")
    _ingest(repo)
    assert _events()[f"git-{old[:7]}"].get("unreachable") is True
    git(repo, "branch", "keep", old)
    _ingest(repo)
    back = _events()[f"git-{old[:7]}"]
    assert "unreachable" not in back and back["summary"] == "Commit %s: add the lemur parser | files: f" % old[:7]


def test_another_repository_of_the_same_name_is_left_alone(tmp_path):
    """Rows are matched to a repository by project and remote: a clone elsewhere with another
    remote does not mark the first one's commits."""
    first = _app(tmp_path / "a")
    git(first, "remote", "add", "origin", "git@github.com:acme/app.git")
    _ingest(first)
    second = _app(tmp_path / "b")
    git(second, "remote", "add", "origin", "git@github.com:other/app.git")
    git(second, "commit", "-q", "--amend", "-m", "something else entirely")
    _ingest(second)
    assert not any(row.get("unreachable") for row in _events().values())
