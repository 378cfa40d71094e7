"""`carto ingest git` on repositories the tests build: rows, owners, worktrees, dedup, bad input."""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.model.events import Event
from carto_core.logio.home import Home
from carto_core.logio.logs import SHAPES
from carto_core.logio.reader import iter_lines
from carto_core.testing import SourceContract

from carto_git.cli import OwnerError, resolve_owners
from carto_git.gitlog import commit_url_base
from carto_git.source import GitSource

sys.path.insert(0, str(Path(__file__).parent))
from _gitrepos import build_shop, git, isolate_git  # noqa: E402

pytest_plugins = ["carto_core.testing"]


@pytest.fixture(autouse=True)
def _no_user_git_config(monkeypatch):
    isolate_git(monkeypatch)


@pytest.fixture
def shop(tmp_path):
    return build_shop(tmp_path / "repos")


def home() -> Home:
    return Home(os.environ["CARTO_HOME"])


def rows() -> list[dict]:
    return [line.row for line in iter_lines(home().log("changelog"))]


def run(*args: str):
    return CliRunner().invoke(cli, ["ingest", "git", *args])


def test_every_commit_once_with_the_upstream_row(shop):
    result = run("--repo", str(shop.main), "--all-authors", "--json")
    assert result.exit_code == 0, result.output
    written = {r["commit_hash"]: r for r in rows()}
    assert set(written) == {c.sha for c in shop.commits}  # what the test made, nothing else
    assert len(rows()) == len(shop.commits) == 7
    for made in shop.commits:
        row = written[made.sha]
        assert list(row) == [k for k in SHAPES["changelog-git"] if k in row]
        assert row["event_id"] == f"git-{made.sha[:7]}"
        assert row["timestamp"] == made.date  # git's %aI keeps the author's offset
        assert (row["type"], row["author"], row["project"]) == ("git_commit", made.author, "shop")
        assert row["files_changed"] == len(made.files)
        head, _, shown = row["summary"].partition(" | files: ")
        assert head == f"Commit {made.sha[:7]}: {made.subject}"
        assert (sorted(shown.split(",")) if shown else []) == made.files  # a merge lists none
        assert row["url"] == f"https://github.com/acme/shop/commit/{made.sha}"
        assert row["related_ids"] == [] and "session_id" not in row and "provider" not in row
        assert Event.from_row(row, "changelog").type == "git_commit"
    document = json.loads(result.stdout)
    assert (document["commits_backfilled"], document["already_existed"]) == (7, 0)


def test_worktree_commits_are_the_main_repository_and_read_once(shop):
    result = run("--repo", str(shop.worktree), "--repo", str(shop.main), "--all-authors", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["streams"] == 1  # one repository, however many checkouts were named
    worktree_shas = {c.sha for c in shop.commits if c.where == "worktree"}
    assert len(worktree_shas) == 2
    assert {r["project"] for r in rows() if r["commit_hash"] in worktree_shas} == {"shop"}


def test_rerun_is_idempotent(shop):
    assert run("--repo", str(shop.main), "--all-authors").exit_code == 0
    before = home().log("changelog").read_bytes()
    again = run("--repo", str(shop.main), "--all-authors", "--json")
    assert again.exit_code == 0
    document = json.loads(again.stdout)
    assert (document["commits_backfilled"], document["already_existed"]) == (0, 7)
    assert home().log("changelog").read_bytes() == before


def test_a_commit_the_hooks_logged_is_not_logged_again(shop):
    hooked = shop.by("Claude")[0]
    append_rows(home().log("changelog"), [{
        "event_id": "evt-abcdefabcdef", "timestamp": "2026-03-02T10:00:05Z", "type": "git_commit",
        "provider": "claude", "session_id": "s-1", "project": "shop", "cwd": str(shop.main),
        "summary": f"[refactor] Commit {hooked.sha}: {hooked.subject} | files: src/cart.py",
        "transcript_path": "/t.jsonl", "diff_shape": None, "related_ids": [], "salience": 0.6,
    }])
    result = run("--repo", str(shop.main), "--all-authors", "--json")
    document = json.loads(result.stdout)
    assert (document["commits_backfilled"], document["already_existed"]) == (6, 1)
    assert [r["event_id"] for r in rows() if r.get("commit_hash") == hooked.sha] == []


def test_author_filter_and_defaults(shop, monkeypatch):
    result = run("--repo", str(shop.main), "--author", "Alice", "--json")
    assert result.exit_code == 0
    assert {r["commit_hash"] for r in rows()} == {c.sha for c in shop.by("Alice")}
    assert json.loads(result.stdout)["owners"] == ["Alice"]
    # Default owners: the profile variable plus the agent author.
    monkeypatch.setenv("CARTOGRAPHER_PROFILE_AUTHORS", "Bob")
    result = run("--repo", str(shop.main), "--json")
    assert json.loads(result.stdout)["owners"] == ["Bob", "Claude"]
    assert {r["commit_hash"] for r in rows()} == {c.sha for c in shop.commits if c.author != "Nobody"}


@pytest.mark.parametrize("flags,env", [
    (["--author", ""], None),
    (["--author", " , "], None),
    ([], ""),  # CARTOGRAPHER_PROFILE_AUTHORS set to nothing
])
def test_an_owner_list_naming_nobody_fails_closed(shop, monkeypatch, flags, env):
    if env is not None:
        monkeypatch.setenv("CARTOGRAPHER_PROFILE_AUTHORS", env)
    result = run("--repo", str(shop.main), *flags)
    assert result.exit_code == 2, result.output
    assert "nobody" in result.stderr or "empty" in result.stderr
    assert not home().log("changelog").exists()


def test_resolve_owners_order():
    assert resolve_owners(None, True) == (None, "--all-authors")
    assert resolve_owners(["A,B"], False)[0] == ["A", "B"]
    assert resolve_owners(None, False, configured=["C"], env={})[0] == ["C"]
    with pytest.raises(OwnerError):
        resolve_owners(None, False, configured=[], env={})
    assert resolve_owners(None, False, env={}, user_name="Dana")[0] == ["Dana", "Claude"]
    assert resolve_owners(None, False, env={}, user_name="")[0] == ["Claude"]


@pytest.mark.parametrize("env, owners, origin", [
    ({"CARTO_PROFILE_AUTHORS": "Ann, Bo"}, ["Ann", "Bo", "Claude"], "CARTO_PROFILE_AUTHORS"),
    ({"CARTOGRAPHER_PROFILE_AUTHORS": "Cy"}, ["Cy", "Claude"], "CARTOGRAPHER_PROFILE_AUTHORS"),
    ({"CARTO_PROFILE_AUTHORS": "Ann", "CARTOGRAPHER_PROFILE_AUTHORS": "Cy"}, ["Ann", "Claude"],
     "CARTO_PROFILE_AUTHORS"),
])
def test_owners_from_the_variable_digest_day_reads(env, owners, origin):
    """`carto digest day` reads $CARTO_PROFILE_AUTHORS (the old name too); ingest git read only
    the old name, so one setting gave two different owner lists."""
    from carto_core.lenses.digest import owners as digest_owners

    assert resolve_owners(None, False, env=env, user_name="Dana") == (owners, origin)
    assert digest_owners(env=env) == (owners, origin)


def test_the_new_variable_set_empty_fails_closed_by_its_name():
    with pytest.raises(OwnerError, match="^CARTO_PROFILE_AUTHORS is set but empty"):
        resolve_owners(None, False, env={"CARTO_PROFILE_AUTHORS": " , ",
                                         "CARTOGRAPHER_PROFILE_AUTHORS": "Cy"})


def test_ingest_git_reads_carto_profile_authors(shop, monkeypatch):
    monkeypatch.delenv("CARTOGRAPHER_PROFILE_AUTHORS", raising=False)
    monkeypatch.setenv("CARTO_PROFILE_AUTHORS", "Bob")
    result = run("--repo", str(shop.main), "--json")
    assert json.loads(result.stdout)["owners"] == ["Bob", "Claude"]
    assert "$CARTO_PROFILE_AUTHORS" in CliRunner().invoke(cli, ["ingest", "git", "--help"]).output


@pytest.fixture
def git_spy(tmp_path, monkeypatch):
    """A `git` on PATH that records each invocation, then runs the real git."""
    real = shutil.which("git")
    folder = tmp_path / "spy"
    folder.mkdir()
    calls = tmp_path / "git-calls.txt"
    script = folder / "git"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{calls}"\nexec "{real}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return calls


def test_one_git_log_process_per_repository(shop, tmp_path, git_spy):
    other = tmp_path / "repos" / "other"
    other.mkdir()
    git(other, "init", "-q", "-b", "main")
    git(other, "commit", "-q", "--allow-empty", "-m", "one", author="Alice")
    git(other, "commit", "-q", "--allow-empty", "-m", "two", author="Alice")
    git_spy.write_text("")
    result = run("--root", str(tmp_path / "repos"), "--repo", str(shop.worktree), "--all-authors", "--json")
    assert result.exit_code == 0, result.output
    calls = [c for c in git_spy.read_text().split("\n") if c]
    assert len(calls) == 2 and all(" log " in c for c in calls)  # shop once (not per worktree), other once
    assert json.loads(result.stdout)["commits_backfilled"] == len(shop.commits) + 2


def test_a_folder_that_is_no_repository_is_a_usage_error(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    result = run("--repo", str(plain), "--all-authors")
    assert result.exit_code == 2 and "not a git repository" in result.stderr
    missing = run("--repo", str(tmp_path / "nope"), "--all-authors")
    assert missing.exit_code == 2 and "no such folder" in missing.stderr
    assert not home().log("changelog").exists()


def test_a_repository_without_commits_finds_nothing(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q")
    result = run("--repo", str(empty), "--all-authors")
    assert result.exit_code == 3
    assert "has no commits yet" in result.stderr
    assert not home().log("changelog").exists()


def test_since_reads_only_newer_commits(shop):
    result = run("--repo", str(shop.main), "--all-authors", "--since", "2026-03-03T00:00:00Z", "--json")
    assert result.exit_code == 0
    assert {r["commit_hash"] for r in rows()} == {c.sha for c in shop.commits if c.date.startswith("2026-03-03")}


@pytest.mark.parametrize("remote,base", [
    ("git@github.com:acme/shop.git", "https://github.com/acme/shop"),
    ("https://github.com/acme/shop.git", "https://github.com/acme/shop"),
    ("https://user@gitlab.com/g/sub/shop", "https://gitlab.com/g/sub/shop"),
    ("ssh://git@github.com/acme/shop.git", "https://github.com/acme/shop"),
    ("/srv/git/shop.git", None),
    (None, None),
])
def test_commit_url_base(remote, base):
    assert commit_url_base(remote) == base


class TestGitContract(SourceContract):
    checkpoints = False  # by design (carto_git.source): a full read, deduplicated by event id

    @pytest.fixture
    def source(self, shop, tmp_path):
        return GitSource({"repos": [str(shop.main)], "authors": None})

    @pytest.fixture
    def garbage_source(self, tmp_path):
        empty = tmp_path / "garbage"
        empty.mkdir()
        git(empty, "init", "-q")
        return GitSource({"repos": [str(empty)], "authors": None})


def test_no_user_name_and_no_agent_commit_says_how_to_widen_the_owners(tmp_path):
    repo = tmp_path / "solo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "human work", author="Dana")
    result = run("--repo", str(repo))
    assert result.exit_code == 3, result.output
    assert "--all-authors" in result.stderr and "user.name" in result.stderr
    assert not home().log("changelog").exists()


def test_a_bare_repository_is_named_as_one_with_what_to_do(tmp_path):
    """`ingest git --repo server.git` said "not a git repository" of a bare repository."""
    import subprocess

    from click.testing import CliRunner

    from carto_core.cli import cli

    bare = tmp_path / "server.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    done = CliRunner().invoke(cli, ["ingest", "git", "--repo", str(bare), "--all-authors"])
    assert done.exit_code == 2
    assert f"--repo {bare}: a bare repository (no work tree); carto reads a clone of it" in done.output
    plain = tmp_path / "plain"
    plain.mkdir()
    assert "not a git repository" in CliRunner().invoke(
        cli, ["ingest", "git", "--repo", str(plain), "--all-authors"]).output


def test_the_progress_bar_counts_commits_not_repositories(shop, monkeypatch):
    """A 10,000-commit repository showed `0/1 0 units` on a terminal until the end: the bar
    counted repositories. The source counts the commits first (`git rev-list --count`, the
    same refs and filters as its `git log`) and the runner tells how far a stream's rows got."""
    from carto_core.ingest import runner

    since = "2026-03-03T00:00:00Z"
    newer = sum(c.date.startswith("2026-03-03") for c in shop.commits)
    for options, expected in (({}, 7), ({"since": since}, newer), ({"limit": 3}, 3)):
        source = GitSource({"repos": [str(shop.main)], "home": home(), **options})
        streams = list(source.discover())
        read = sum(source.read(s, None).units for s in streams)
        assert source.count_units(streams) == read == expected, options
    monkeypatch.setattr(runner, "ROWS_TOLD_EVERY", 2)
    told = []
    source = GitSource({"repos": [str(shop.main)], "home": home()})
    runner.run_ingest(source, home(), rows_progress=lambda done, rows: told.append((done, rows)))
    assert told == [(0, 7), (2, 7), (4, 7), (6, 7)]
