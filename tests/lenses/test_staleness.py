"""Staleness from git: a decision, thread or wrapup whose cited files changed since (a later
commit, or uncommitted changes) says so and ranks below an up-to-date one; a cited commit that
no longer exists, or is on no branch, is marked. Real temporary git repositories."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.lenses.decisions import list_document
from carto_core.lenses.memory import build_memory, render
from carto_core.lenses.wrapup import build_wrapup
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.model import staleness

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def git(repo, *args, when: datetime | None = None) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = when.strftime("%Y-%m-%dT%H:%M:%S+0000")
    return subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


def commit(repo, files: dict[str, str], message: str, when: datetime) -> str:
    for name, text in files.items():
        (repo / name).write_text(text)
    git(repo, "add", *files)
    git(repo, "commit", "-qm", message, when=when)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def shop(tmp_path):
    repo = tmp_path / "shop"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    tax = commit(repo, {"tax.py": "rate = 1\n", "cart.py": "x = 1\n", "docs.md": "a\n"}, "feat: tax", T0)
    home = Home(tmp_path / "h")
    home.root.mkdir()
    return repo, home, tax


def _wrapup(n, repo, written: datetime, decisions, commits: dict, files: list[str], unresolved=()):
    return {"event_id": f"evt-wrap{n:08d}", "timestamp": _stamp(written), "milestone": "session_wrapup",
            "provider": "claude", "description": "d", "session_id": f"s{n}", "project": "shop",
            "cwd": str(repo), "decisions": decisions, "unresolved": list(unresolved), "key_insight": "",
            "cites": {"repo": str(repo), "commits": commits, "files": files}}


def test_a_later_commit_to_a_cited_file_makes_a_decision_stale_and_it_ranks_below(shop):
    repo, home, tax = shop
    written = T0 + timedelta(hours=1)
    append_rows(home.log("milestones"), [
        _wrapup(2, repo, written - timedelta(minutes=5), ["docs stay in markdown"], {}, ["docs.md"]),
        _wrapup(1, repo, written, [f"apply discounts before tax ({tax[:7]})"], {tax: ["tax.py"]}, ["tax.py"]),
    ])
    # up to date: nothing changed since
    document = list_document(home, project="shop")
    assert [r["stale"] for r in document["records"]] == [None, None]
    assert document["records"][0]["text"].startswith("apply")  # newest first
    later = commit(repo, {"tax.py": "rate = 2\n"}, "fix: tax after discounts", T0 + timedelta(days=3, hours=2))
    commit(repo, {"tax.py": "rate = 4\n"}, "fix: tax again", T0 + timedelta(days=5))
    # stated again after the first change: only the second one is news to it
    append_rows(home.log("milestones"), [_wrapup(3, repo, T0 + timedelta(days=4), ["tax.py is the only rate"],
                                                 {}, ["tax.py"])])
    document = list_document(home, project="shop")
    texts = [r["text"] for r in document["records"]]
    assert texts == ["docs stay in markdown", "tax.py is the only rate",
                     f"apply discounts before tax ({tax[:7]})"]  # up to date above stale, then newest
    assert document["records"][1]["stale"]["note"].endswith("1 day after this")
    stale = document["records"][2]["stale"]
    assert stale["note"] == f"tax.py changed in {later[:7]}, 3 days after this"  # the first change since
    assert stale["changed"] == [{"file": "tax.py", "commit": later[:7], "at": int((T0 + timedelta(days=3, hours=2)).timestamp()),
                                 "after_seconds": int(timedelta(days=3, hours=1).total_seconds())}]
    assert document["records"][0]["stale"] is None  # docs.md did not change
    text = render(build_memory(home, "shop"))
    decisions = [line for line in text.splitlines() if line.startswith("- ")]
    assert decisions[0].startswith("- docs stay in markdown")
    assert f"stale: tax.py changed in {later[:7]}, 3 days after this" in decisions[2]


def test_uncommitted_changes_and_a_commit_rebased_away(shop):
    repo, home, tax = shop
    git(repo, "checkout", "-q", "-b", "topic")
    side = commit(repo, {"cart.py": "x = 2\n"}, "feat: side", T0 + timedelta(minutes=10))
    git(repo, "checkout", "-q", "main")
    git(repo, "branch", "-q", "-D", "topic")
    gone = "0123456789abcdef0123456789abcdef01234567"
    written = T0 + timedelta(hours=1)
    append_rows(home.log("milestones"), [
        _wrapup(1, repo, written, [f"side work ({side[:7]})", f"lost work ({gone[:7]})"],
                {side: ["cart.py"], gone: []}, [], unresolved=["docs.md needs a section"]),
        _wrapup(2, repo, written, ["docs are fine"], {}, ["docs.md"]),
    ])
    notes = {r["text"]: (r["stale"] or {}).get("note") for r in list_document(home, project="shop")["records"]}
    assert notes[f"side work ({side[:7]})"] == f"commit {side[:7]} is on no branch (rebased away?)"
    assert notes[f"lost work ({gone[:7]})"] == f"commit {gone[:7]} no longer exists"
    assert notes["docs are fine"] is None
    (repo / "docs.md").write_text("changed, not committed\n")
    notes = {r["text"]: (r["stale"] or {}).get("note") for r in list_document(home, project="shop")["records"]}
    assert notes["docs are fine"] == "docs.md has uncommitted changes"


def test_a_statement_cites_its_commit_else_the_files_it_names_else_its_wrapup(shop):
    repo, _, tax = shop
    cites = {"repo": str(repo), "commits": {tax: ["tax.py", "cart.py"], "b" * 40: ["docs.md"]},
             "files": ["tax.py", "cart.py", "docs.md", "readme.md"]}
    assert staleness.statement_cites(f"tax first ({tax[:7]})", cites) == (str(repo), [tax], ["cart.py", "tax.py"])
    assert staleness.statement_cites("cart.py rounds to cents", cites) == (str(repo), [], ["cart.py"])
    assert staleness.statement_cites("subcart.py is new", cites)[2] != ["cart.py"]   # a name, not a substring
    assert staleness.statement_cites("keep it simple", cites) == (
        str(repo), [tax, "b" * 40], ["tax.py", "cart.py", "docs.md", "readme.md"])
    # an old row without cites: the shas it names, in its cwd's repository
    assert staleness.statement_cites(f"x ({tax[:7]})", None, str(repo)) == (str(repo), [tax[:7]], [])
    assert staleness.statement_cites("x", None, "/nonexistent") == ("", [], [])


def test_no_repository_is_not_staleness(tmp_path):
    checker = staleness.Checker()
    assert checker.check(str(tmp_path), ["a" * 40], ["x.py"], 0) is None
    assert checker.check("", ["a" * 40], ["x.py"], 0) is None


def test_wrapup_keeps_what_it_cites_and_orient_marks_a_stale_wrapup(shop):
    repo, home, tax = shop
    sid = "sess-cites"
    at = T0 + timedelta(minutes=30)
    common = {"provider": "claude", "project": "shop", "cwd": str(repo), "session_id": sid,
              "transcript_path": "", "related_ids": []}
    append_rows(home.log("changelog"), [
        {**common, "event_id": "evt-edit0001", "timestamp": _stamp(at), "type": "tool_file_edit",
         "summary": f"Modified: {repo}/tax.py", "salience": 0.4},
        {**common, "event_id": "evt-cmt00001", "timestamp": _stamp(at + timedelta(minutes=1)), "type": "git_commit",
         "summary": f"[fix] Commit {tax}: feat: tax | files: tax.py", "salience": 0.7},
        {**common, "event_id": "evt-edit0002", "timestamp": _stamp(at + timedelta(minutes=2)), "type": "tool_file_edit",
         "summary": f"Modified: {repo}/docs.md", "salience": 0.4},
    ])
    row = build_wrapup(home, sid, now=T0 + timedelta(hours=1))
    assert row["cites"] == {"repo": str(repo), "commits": {tax: ["tax.py"]}, "files": ["tax.py", "docs.md"]}
    append_rows(home.log("milestones"), [
        _wrapup(7, repo, T0 + timedelta(minutes=50), ["docs stay in markdown"], {}, ["docs.md"]), row])
    from carto_core.model.project import ProjectScope
    from carto_core.search.engine import SearchEngine
    from carto_core.search.orient import orient

    assert orient(SearchEngine(home, persist=False), ProjectScope.parse("shop"))["wrapups"][0]["stale"] is None
    later = commit(repo, {"tax.py": "rate = 3\n"}, "fix: rate", T0 + timedelta(days=2))
    wrapups = orient(SearchEngine(home, persist=False), ProjectScope.parse("shop"))["wrapups"]
    assert [w["event_id"] for w in wrapups] == ["evt-wrap00000007", row["event_id"]]  # up to date first
    assert wrapups[0]["stale"] is None
    assert wrapups[1]["stale"]["note"] == f"tax.py changed in {later[:7]}, 1 day after this"
    result = CliRunner().invoke(cli, ["decision", "list", "--json"], env={"CARTO_HOME": str(home.root)})
    records = json.loads(result.output)["records"]
    assert all(r["stale"] and later[:7] in r["stale"]["note"] for r in records if "tax" in r["text"])
