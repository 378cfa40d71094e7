"""Session digest extras: the tempo sparkline equals a recount of the session's events per
slice of its span, and each repository's branch, dirty files and unpushed commits are git's."""

from __future__ import annotations

import os
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.lenses.digest import SPARK, tempo_line

from .conftest import run

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def repo_with_state(base: Path) -> Path:
    remote, repo = base / "remote.git", base / "shop"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    (repo / "a.txt").write_text("a")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-qm", "first")
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "-u", "origin", "main")
    for name in ("b.txt", "c.txt"):
        (repo / name).write_text(name)
        git(repo, "add", name)
        git(repo, "commit", "-qm", f"add {name}")
    (repo / "a.txt").write_text("changed")
    (repo / "new.txt").write_text("untracked")
    return repo


def test_tempo_and_leaving_state(tmp_path, monkeypatch):
    root = tmp_path / "home"
    monkeypatch.setenv("CARTO_HOME", str(root))
    repo = repo_with_state(tmp_path)
    minutes = [0, 1, 2, 3, 30, 31, 120]
    rows = [{"event_id": f"evt-d{n:011d}", "timestamp": (T0 + timedelta(minutes=m)).strftime("%Y-%m-%dT%H:%M:%SZ"),
             "type": "tool_bash", "provider": "claude", "session_id": "sess-1", "project": "shop",
             "cwd": str(repo), "summary": f"Ran: make {n}", "salience": 0.2} for n, m in enumerate(minutes)]
    append_rows(Home(root).log("changelog"), rows)
    doc = run("digest", "session", "--session", "sess-1", "--json")
    tempo = doc["tempo"]
    width = 120 * 60 / 24
    recount = [0] * 24
    for m in minutes:
        recount[min(23, int(m * 60 / width))] += 1
    assert tempo["bins"] == recount and tempo["bin_minutes"] == 5.0
    assert tempo["sparkline"][0] == SPARK[-1] and tempo["sparkline"][1] == " " and len(tempo["sparkline"]) == 24
    [state] = doc["leaving"]
    assert state == {"repo": str(repo), "branch": "main", "dirty": 2, "upstream": "origin/main", "unpushed": 2}
    text = run("digest", "session", "--session", "sess-1").output
    assert "tempo    " in text and "leaving  shop@main · 2 dirty · 2 unpushed" in text
    assert "(5m a bar)" in text and "(2h00m)" in text  # in a person's words, not "120 min"
    assert run("digest", "session", "--session", "sess-1", "--json", "--no-git")["leaving"] == []


def test_tempo_line_edges():
    assert tempo_line([]) == {"bins": [], "bin_minutes": 0, "sparkline": ""}
    assert tempo_line([T0, T0]) == {"bins": [2], "bin_minutes": 0.02, "sparkline": SPARK[-1]}
    line = tempo_line([T0 + timedelta(minutes=m) for m in (0, 0, 0, 0, 10)], bins=2)
    assert line["bins"] == [4, 1] and line["sparkline"] == SPARK[-1] + SPARK[1]


def test_demo_home_digest_has_the_extras(demo_home):
    import json

    session = next(json.loads(l)["session_id"] for l in (demo_home / "changelog.jsonl").read_text().splitlines()
                   if json.loads(l).get("session_id"))
    doc = run("digest", "session", "--session", session, "--json")
    assert sum(doc["tempo"]["bins"]) == doc["event_count"] > 0  # every demo event is dated
    assert len(doc["tempo"]["sparkline"]) == len(doc["tempo"]["bins"])
    assert isinstance(doc["leaving"], list)
