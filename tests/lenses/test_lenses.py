"""Digests, wrapup, trustmap, profile and the SessionStart note on the sample home and on a
real repository (commit verification against git)."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from carto_core.logio.appendlog import append_rows
from carto_core.cli import cli
from carto_core.lenses.digest import DigestError, day_digest, session_digest
from carto_core.lenses.profile import build_profile
from carto_core.lenses.start_note import start_note
from carto_core.lenses.trustmap import classify_host, trustmap
from carto_core.lenses.wrapup import build_wrapup, write_wrapup
from carto_core.logio.reader import iter_lines
from carto_core.evaluation.sample import SESSIONS, build_sample_home


def test_session_digest_counts_match_the_sessions_rows(tmp_path):
    home = build_sample_home(tmp_path / "h")
    doc = session_digest(home, SESSIONS["a"])
    rows = [line.row for line in iter_lines(home.log("changelog")) if line.row.get("session_id") == SESSIONS["a"]]
    # Events: the session's rows in every log, a row copied into two logs counted once, its
    # wrapup (carto's row about it, written afterwards) left out.
    ids = {line.row["event_id"] for label in ("changelog", "research", "milestones", "tool-use",
                                              "prompts", "turns")
           for line in iter_lines(home.log(label))
           if SESSIONS["a"] in (line.row.get("session_id"), line.row.get("session"))}
    wrapups = {r["event_id"] for r in rows if r["type"] == "milestone_session_wrapup"}
    assert len(wrapups) == 1
    # the changelog less its wrapup copy, plus its prompt and its turn (no changelog copy)
    assert doc["event_count"] == len(ids - wrapups) == len(rows) - 1 + 2
    assert doc["counts"]["commits"] == sum(r["type"] == "git_commit" for r in rows)
    assert doc["counts"]["edits"] == sum(r["type"] == "tool_file_edit" for r in rows)
    assert doc["commits"][0]["sha"].startswith("a41c2d9")


def _git(*args, cwd):
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd,
                          check=True, capture_output=True, text=True).stdout.strip()


def _sample_clock_inside_today() -> datetime:
    """A clock for the sample home whose commits (one and two hours before it) fall on today's
    local date: just after midnight the real clock would put them on yesterday."""
    local = datetime.now().astimezone()
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    return max(local, midnight + timedelta(hours=3)).astimezone(timezone.utc)


def test_day_digest_verifies_commits_against_git(tmp_path, monkeypatch):
    repo = tmp_path / "shop"
    repo.mkdir()
    _git("init", "-q", "-b", "main", cwd=repo)
    (repo / "a.txt").write_text("1")
    _git("add", ".", cwd=repo)
    _git("commit", "-q", "-m", "feat: landed one", cwd=repo)
    landed = _git("rev-parse", "HEAD", cwd=repo)
    (repo / "a.txt").write_text("2")
    _git("commit", "-qam", "fix: will be amended", cwd=repo)
    old = _git("rev-parse", "HEAD", cwd=repo)
    (repo / "a.txt").write_text("2b")
    _git("commit", "-qa", "--amend", "-m", "fix: will be amended", cwd=repo)
    amended = _git("rev-parse", "HEAD", cwd=repo)
    (repo / "d.txt").write_text("dropped")
    _git("add", ".", cwd=repo)
    _git("commit", "-q", "-m", "wip: dropped by a reset", cwd=repo)
    dropped = _git("rev-parse", "HEAD", cwd=repo)
    _git("reset", "-q", "--hard", "HEAD~1", cwd=repo)
    (repo / "b.txt").write_text("3")
    _git("add", ".", cwd=repo)
    _git("commit", "-q", "-m", "chore: rebased elsewhere", cwd=repo)
    rebased = _git("rev-parse", "HEAD", cwd=repo)
    (repo / "c.txt").write_text("4")
    _git("add", ".", cwd=repo)
    _git("commit", "-q", "-m", "docs: nobody logged this", cwd=repo)
    git_only = _git("rev-parse", "HEAD", cwd=repo)
    # Git-only lists the owner's commits only: git user.name ("t" here) plus the agent author.
    _git("config", "user.name", "t", cwd=repo)
    (repo / "e.txt").write_text("5")
    _git("add", ".", cwd=repo)
    _git("commit", "-q", "--author", "Claude <noreply@anthropic.com>", "-m", "feat: the agent's own", cwd=repo)
    agent_only = _git("rev-parse", "HEAD", cwd=repo)
    (repo / "f.txt").write_text("6")
    _git("add", ".", cwd=repo)
    _git("commit", "-q", "--author", "Mallory <m@example.org>", "-m", "chore: a colleague's", cwd=repo)
    colleague = _git("rev-parse", "HEAD", cwd=repo)
    home = build_sample_home(tmp_path / "h", now=_sample_clock_inside_today())
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    def commit_row(i, sha, subject, timestamp=now):
        return {"event_id": f"evt-day{i}", "timestamp": timestamp, "type": "git_commit", "provider": "claude",
                "session_id": "s-day", "project": "shop", "cwd": str(repo),
                "summary": f"[x] Commit {sha}: {subject} | files: a.txt"}

    append_rows(home.log("changelog"), [
        commit_row(1, landed, "feat: landed one"),
        commit_row(2, old, "fix: will be amended"),
        commit_row(3, "deadbeef" * 5, "feat: never existed"),
        # Unknown to git: the row's stamp stands in for the author time (a backfilled row
        # carries git's %aI), so it matches the commit that landed with the same subject.
        commit_row(4, "cafebabe" * 5, "chore: rebased elsewhere",
                   _git("log", "-1", "--format=%aI", rebased, cwd=repo)),
        commit_row(5, dropped, "wip: dropped by a reset"),
    ])
    doc = day_digest(home, "today")
    assert doc["schema"] == "carto.day-digest/1"
    shop = next(p for p in doc["projects"] if p["name"] == "shop")
    status = {c["sha"]: c for c in shop["commits"]}
    assert status[landed]["status"] == "landed"
    assert status[old]["status"] == "moved" and status[old]["landed_as"] == amended
    assert status[dropped]["status"] == "rewritten"  # the object exists, no ref reaches it
    assert status["deadbeef" * 5]["status"] == "missing"
    assert status["cafebabe" * 5]["status"] == "moved"
    assert status["cafebabe" * 5]["landed_as"] == rebased
    assert sorted(c["sha"] for c in shop["git_only_commits"]) == sorted([git_only, agent_only])
    assert colleague not in {c["sha"] for c in shop["git_only_commits"]}
    totals = doc["totals"]
    assert (totals["commits_landed"], totals["commits_rewritten"], totals["commits_missing"],
            totals["commits_moved"], totals["commits_git_only"]) == (1, 1, 1, 2, 2)
    # The sample home's own commits today have no repository on disk: unverified, not "missing".
    webshop = next(p for p in doc["projects"] if p["name"] == "webshop")
    assert {c["status"] for c in webshop["commits"]} == {"unverified"}
    assert totals["commits_logged"] == 5 + len(webshop["commits"])

    # An explicit owner list replaces git user.name (the agent author stays); an empty one
    # fails closed rather than counting every author.
    monkeypatch.setenv("CARTO_PROFILE_AUTHORS", "Mallory")
    shop = next(p for p in day_digest(home, "today")["projects"] if p["name"] == "shop")
    assert sorted(c["sha"] for c in shop["git_only_commits"]) == sorted([agent_only, colleague])
    monkeypatch.setenv("CARTO_PROFILE_AUTHORS", " , ")
    with pytest.raises(DigestError, match="names nobody"):
        day_digest(home, "today")
    monkeypatch.delenv("CARTO_PROFILE_AUTHORS")

    # --deny-regex: denied work is dropped before grouping, counted, never named.
    denied = day_digest(home, "today", deny_regex=r"^sho")
    assert "shop" not in {p["name"] for p in denied["projects"]}
    assert denied["scope"]["denied"] == 5  # the five commit rows of project shop
    assert denied["totals"]["events"] == doc["totals"]["events"] - 5
    assert str(repo) not in json.dumps(denied) and '"shop"' not in json.dumps(denied)
    with pytest.raises(DigestError, match="deny-regex"):
        day_digest(home, "today", deny_regex="(")


def test_wrapup_writes_once_and_derives_from_events(tmp_path):
    home = build_sample_home(tmp_path / "h")
    row = build_wrapup(home, SESSIONS["b"])
    assert row["milestone"] == "session_wrapup" and list(row)[:4] == ["event_id", "timestamp", "milestone", "provider"]
    assert row["decisions"] == ["fix(cart): round line totals with Decimal quantize (c0ffee1)"]
    # cart.py was committed (the worktree path collapses onto the committed file); the test file was not.
    assert row["unresolved"] == ["uncommitted edits: test_cart.py"]
    assert write_wrapup(home, row)["log_outcome"] == "written"
    again = build_wrapup(home, SESSIONS["b"])
    assert again["event_id"] == row["event_id"]
    assert write_wrapup(home, again)["log_outcome"] == "already_present"
    ids = [l.row["event_id"] for l in iter_lines(home.log("milestones"))]
    assert ids.count(row["event_id"]) == 1


def test_trustmap_identifiers_and_shape_checks(tmp_path, monkeypatch):
    assert classify_host("localhost") == "loopback" and classify_host("127.0.0.1") == "loopback"
    assert classify_host("10.0.0.5") == "lan" and classify_host("db.internal") == "lan"
    assert classify_host("docs.python.org") == "public" and classify_host("bad_host!") == "malformed"
    home = build_sample_home(tmp_path / "h")
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"autoMode": {"environment": ["docs.python.org"]}}))
    append_rows(home.log("changelog"), [
        {"event_id": f"evt-tm{i}", "timestamp": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
         "type": "tool_bash", "summary": "Ran: git status && aws s3 cp s3://my-bucket/x . --profile secret-arg"}
        for i in range(3)])
    doc = trustmap(home, settings_path=str(settings), min_hits=3)
    hosts = {h["id"]: h for h in doc["hosts"]}
    assert hosts["docs.python.org"]["covered"] is True
    assert hosts["developer.hashicorp.com"]["covered"] is False
    assert [b["id"] for b in doc["buckets"]] == ["s3://my-bucket"]
    assert "git" in [c["id"] for c in doc["clis"]]  # on PATH, used 3 times
    assert "secret-arg" not in json.dumps(doc)  # identifiers only, never arguments


def test_profile_fits_its_budget_and_names_decisions(tmp_path):
    home = build_sample_home(tmp_path / "h")
    doc = build_profile(home, window="365d")
    assert "apply discounts before tax" in doc["markdown"]
    assert doc["chars"] == len(doc["markdown"]) <= 4000
    small = build_profile(home, window="365d", budget=300)
    assert small["chars"] <= 300 and small["warnings"]
    runner = CliRunner()
    result = runner.invoke(cli, ["profile", "--window", "365d"], env={"CARTO_HOME": str(home.root)})
    assert result.exit_code == 0
    assert (home.state / "profile.md").read_text() == doc["markdown"]


@pytest.mark.parametrize("window", ["0d", "0h", "0 days ago", "2999-01-01"])
def test_profile_refuses_a_window_that_covers_no_time(tmp_path, window):
    """"0d" answered "thin coverage: 0 events in 0d" with exit 0, a profile of nothing."""
    (tmp_path / "h").mkdir()
    result = CliRunner().invoke(cli, ["profile", "--no-write", "--window", window, "--json"],
                                env={"CARTO_HOME": str(tmp_path / "h")})
    assert result.exit_code == 2, result.output
    said = f"--window {window}: starts now or later, so it covers no time"
    assert result.stderr.startswith(f"carto: {said}")
    assert json.loads(result.stdout)["error"].startswith(said)
    assert not (tmp_path / "h" / ".carto").exists()


def test_profile_takes_a_window_of_a_minute(tmp_path):
    (tmp_path / "h").mkdir()
    result = CliRunner().invoke(cli, ["profile", "--no-write", "--window", "1m"],
                                env={"CARTO_HOME": str(tmp_path / "h")})
    assert result.exit_code == 0, result.output


def test_start_note_is_opt_in_and_shown_only_when_changed(tmp_path):
    home = build_sample_home(tmp_path / "h")
    cwd = tmp_path / "webshop"
    cwd.mkdir()
    assert start_note(home, SESSIONS["c"], str(cwd), env={}) is None  # off by default
    env = {"CARTO_START_NOTE": "1"}
    note = start_note(home, SESSIONS["c"], str(cwd), env=env)
    assert "Discount codes landed in the cart" in note and "bundles and coupons stacking" in note
    assert start_note(home, SESSIONS["c"], str(cwd), env=env) is None  # unchanged: silent
    build_wrapup_row = build_wrapup(home, SESSIONS["b"])
    write_wrapup(home, build_wrapup_row)
    changed = start_note(home, SESSIONS["c"], str(cwd), env=env)
    assert changed is not None and "test_cart.py" in changed


def test_session_digest_recall_joins_the_search_telemetry(tmp_path):
    """calls -> served -> marked used, from the three telemetry files written by real
    `carto search` runs; the digest itself writes none of them."""
    home = build_sample_home(tmp_path / "h")
    sid = SESSIONS["a"]
    runner = CliRunner()
    env = {"CARTO_HOME": str(home.root), "CLAUDE_SESSION_ID": sid, "CARTO_SESSION_ID": sid}
    # In one test process every call would get the same default call id (time + pid): name them.
    first = json.loads(runner.invoke(cli, ["search", "webshop", "--json", "--limit", "4", "--call-id", "c1"],
                                     env=env).stdout)
    second = json.loads(runner.invoke(cli, ["search", "rounding", "--json", "--limit", "3", "--all",
                                            "--call-id", "c2"], env=env).stdout)
    empty = runner.invoke(cli, ["search", "zzzqqqxxnothing", "--json", "--call-id", "c3"], env=env)
    served = [r["event_id"] for r in first["results"]] + [r["event_id"] for r in second["results"]]
    assert served, "the sample home must serve something"
    # the used id is served by one call only (calls_with_use counts the calls that served it)
    second_ids = {r["event_id"] for r in second["results"]}
    used = next(e for e in served if e not in second_ids)
    assert runner.invoke(cli, ["search", "--touch", used], env=env).exit_code == 0
    # --get logs `result_fetched` for ids this session's served list holds (not --all calls).
    looked_up = first["results"][-1]["event_id"]
    assert looked_up != used
    assert runner.invoke(cli, ["search", "--get", looked_up], env=env).exit_code == 0
    # Another session's telemetry must not count.
    other = {**env, "CLAUDE_SESSION_ID": SESSIONS["b"], "CARTO_SESSION_ID": SESSIONS["b"]}
    runner.invoke(cli, ["search", "cart", "--json", "--call-id", "c4"], env=other)
    calls_file = home.root / ".carto" / "search-calls.jsonl"
    rows = [json.loads(line) for line in calls_file.read_text().splitlines()]
    mine = [r for r in rows if r["session_id"] == sid]
    assert len(mine) == 3 and empty.exit_code in (0, 3)
    telemetry = {p: p.read_bytes() for p in (calls_file, home.root / "served-log.jsonl",
                                              home.root / "access-ledger.jsonl")}

    recall = session_digest(home, sid)["recall"]
    assert recall["calls"] == 3
    assert recall["served"] == len(served)
    assert recall["served_unique"] == len(set(served))
    assert recall["used"] == 1 and recall["fetched"] == 1
    assert recall["used_pct"] == round(100 / len(set(served)), 1)
    assert recall["calls_with_use"] == 1
    assert {p: p.read_bytes() for p in telemetry} == telemetry  # read-only

    assert session_digest(home, SESSIONS["c"])["recall"]["calls"] == 0


def test_day_digest_from_the_cached_columns_equals_the_loaded_corpus(tmp_path, monkeypatch):
    from tests.facts.conftest import NOW, build_messy_home

    home = build_messy_home(tmp_path / "h", n=600)
    with_cache = [day_digest(home, day, no_git=True, now=NOW) for day in ("2026-09-07", "2026-09-01")]
    assert (home.root / ".carto" / "facts" / "columns.bin").exists()
    monkeypatch.setenv("CARTO_FACTS_CACHE", "0")
    loaded = [day_digest(home, day, no_git=True, now=NOW) for day in ("2026-09-07", "2026-09-01")]
    assert with_cache == loaded
    assert with_cache[0]["totals"]["events"] > 10 and with_cache[0]["duplicates_dropped"] > 0


def test_day_digest_moved_needs_the_same_author_time_not_only_the_subject(tmp_path):
    """Two commits share the subject "fix: typo"; only the amended one replaced the logged sha.
    A subject-only match picks the newest same-subject commit (git log order), which is the
    unrelated one; upstream matches author time AND subject (reference 5.3)."""
    repo = tmp_path / "shop"
    repo.mkdir()
    _git("init", "-q", "-b", "main", cwd=repo)
    _git("config", "user.name", "t", cwd=repo)  # the owner, for git-only
    base = int(datetime.now(timezone.utc).timestamp())
    # Both commits stay inside today (local) whatever the hour: a few seconds apart, in the past.
    t_amended, t_other = base - 20, base - 10

    def commit(message, at, *extra):
        env = {"GIT_AUTHOR_DATE": f"@{at} +0000", "GIT_COMMITTER_DATE": f"@{at} +0000"}
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", *extra,
                        "-m", message], cwd=repo, check=True, capture_output=True,
                       env={**os.environ, **env})
        return _git("rev-parse", "HEAD", cwd=repo)

    (repo / "a.txt").write_text("1")
    _git("add", ".", cwd=repo)
    logged = commit("fix: typo", t_amended)
    (repo / "a.txt").write_text("1b")
    _git("add", ".", cwd=repo)
    # --amend keeps the author time (t_amended) and gives the commit a new sha.
    amended = commit("fix: typo", t_amended, "--amend")
    (repo / "b.txt").write_text("2")
    _git("add", ".", cwd=repo)
    other = commit("fix: typo", t_other)  # newer, same subject, a different commit
    assert len({logged, amended, other}) == 3
    assert _git("log", "--format=%H", cwd=repo).splitlines()[0] == other

    home = build_sample_home(tmp_path / "h")
    stamp = datetime.fromtimestamp(t_amended + 3, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    append_rows(home.log("changelog"), [
        {"event_id": "evt-typo1", "timestamp": stamp, "type": "git_commit", "provider": "claude",
         "session_id": "s-typo", "project": "shop", "cwd": str(repo),
         "summary": f"[x] Commit {logged}: fix: typo | files: a.txt"},
        # Unknown to git, same subject, stamped at neither commit's author time: not "moved".
        {"event_id": "evt-typo2", "timestamp": stamp, "type": "git_commit", "provider": "claude",
         "session_id": "s-typo", "project": "shop", "cwd": str(repo),
         "summary": f"[x] Commit {'ab' * 20}: fix: typo | files: a.txt"},
    ])
    shop = next(p for p in day_digest(home, "today")["projects"] if p["name"] == "shop")
    status = {c["sha"]: c for c in shop["commits"]}
    assert status[logged]["status"] == "moved"
    assert status[logged]["landed_as"] == amended
    assert status["ab" * 20]["status"] == "missing" and "landed_as" not in status["ab" * 20]
    # The unrelated same-subject commit was nobody's replacement: git-only (owner "t").
    assert {c["sha"] for c in shop["git_only_commits"]} == {other}


def _profile_over_corpus(home, window, now):
    """The profile's sections folded the pre-cache way, over a loaded corpus (an independent
    scan: every event in load order, rows in memory)."""
    from collections import Counter

    from carto_core.model.corpus import load_corpus
    from carto_core.model.project import is_project_name
    from carto_core.util.timeparse import parse_when

    since = parse_when(window, now=now)
    events = [e for e in load_corpus(home).events if e.timestamp and e.timestamp >= since]
    projects, commit_types, quadrants, hours, weekend, decisions = {}, Counter(), Counter(), Counter(), 0, []
    for e in events:
        if e.has_project and is_project_name(e.project):
            p = projects.setdefault(e.project, {"events": 0, "commits": 0, "last": e.timestamp})
            p["events"] += 1
            p["last"] = max(p["last"], e.timestamp)
            p["commits"] += e.type == "git_commit"
        if e.type == "git_commit":
            commit_types[e.row.get("commit_type") or "other"] += 1
            shape = e.row.get("diff_shape")
            if isinstance(shape, dict) and shape.get("quadrant"):
                quadrants[shape["quadrant"]] += 1
        local = e.timestamp.astimezone()
        hours[local.hour] += 1
        weekend += local.weekday() >= 5
        if e.row.get("milestone") == "session_wrapup":
            decisions += [f"{d} ({e.project or '-'}, {local.date()})" for d in e.row.get("decisions") or []]
            if e.row.get("key_insight"):
                decisions.append(f"insight: {e.row['key_insight']} ({e.project or '-'})")
    top = sorted(projects.items(), key=lambda kv: (-kv[1]["events"], kv[0]))[:8]
    return {
        "events": len(events),
        "surface": [f"- {n}: last seen {p['last'].astimezone().date()}, {p['events']} events, {p['commits']} commits"
                    for n, p in top],
        "decisions": [f"- {d}" for d in decisions[-12:][::-1]],
        "types": ", ".join(f"{t} {n}" for t, n in commit_types.most_common()) or "none",
        "quadrants": ", ".join(f"{q} {n}" for q, n in quadrants.most_common()) or "none",
        "peak": ", ".join(f"{h:02d}:00" for h, _ in hours.most_common(3)) or "-",
        "weekend": round(100 * weekend / len(events)) if events else 0,
        "sessions": len({e.session_id for e in events if e.has_session}),
    }


@pytest.mark.parametrize("cache", ["1", "0"])
def test_profile_from_the_facts_columns_equals_the_corpus_fold(tmp_path, monkeypatch, cache):
    """The profile reads the facts columns (rows back only for commits and wrapups); every
    line it prints equals the fold over a loaded corpus, on a generated home with wrapups,
    commits and duplicated ids across logs, with the persisted cache and without it."""
    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home

    monkeypatch.setenv("CARTO_FACTS_CACHE", cache)
    now = datetime(2026, 9, 8, 12, tzinfo=timezone.utc)
    generate_home(tmp_path / "g", 4000, days=120, now=now, seed=3)
    home = Home(tmp_path / "g")
    # Wrapups with decisions (the generator writes none): one in the milestones log with its
    # changelog copy (same id: the domain row wins the fold), one in the changelog only, and
    # one that only names "session_wrapup" in its summary (not a wrapup).
    def wrapup(i, days_ago, decisions, insight=None):
        return {"event_id": f"evt-wrap{i}", "timestamp": (now - timedelta(days=days_ago)).strftime(
                    "%Y-%m-%dT%H:%M:%SZ"), "milestone": "session_wrapup", "provider": "claude",
                "session_id": f"s-wrap{i}", "project": "shop", "event": "Wrapup",
                "decisions": decisions, **({"key_insight": insight} if insight else {})}
    append_rows(home.log("milestones"), [wrapup(1, 10, ["use Decimal", "drop floats"], "money is exact")])
    append_rows(home.log("changelog"), [
        wrapup(1, 10, ["a changelog copy that loses the fold"]),
        wrapup(2, 40, ["split the cart module"]),
        {"event_id": "evt-wrap3", "timestamp": (now - timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ"),
         "type": "tool_bash", "summary": "Ran: grep session_wrapup logs", "project": "shop"},
    ])
    for window in ("90d", "30d"):
        ref = _profile_over_corpus(home, window, now)
        assert ref["decisions"] and ref["events"] > 500  # the home exercises every section
        doc = build_profile(home, window=window, budget=100_000, now=now)
        text = doc["markdown"]
        assert f"_Derived from {ref['events']} events over {window};" in text
        for line in ref["surface"] + ref["decisions"]:
            assert line in text.splitlines()
        section = text.split("## Durable decisions\n", 1)[1].split("\n\n", 1)[0].splitlines()
        assert section == ref["decisions"]
        assert f"- commit types: {ref['types']}" in text and f"- diff quadrants: {ref['quadrants']}" in text
        assert f"- peak hours (local): {ref['peak']}" in text
        assert f"- weekend share: {ref['weekend']}%" in text and f"- sessions: {ref['sessions']}" in text


def test_trustmap_from_marker_rows_equals_the_corpus_fold(tmp_path, monkeypatch):
    """`trustmap` normalizes only rows whose line can name an identifier; its document equals
    the one built over `load_corpus(home, LOGS)` (every row normalized), on a generated home
    plus rows that test the fold: a marker-less row that wins its id over a later copy with a
    URL, an id-less row, a commit known only by its `git-` id, an escaped-slash URL."""
    from carto_core.model.corpus import load_corpus
    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home
    from carto_core.lenses import trustmap as module

    now = datetime(2026, 9, 8, 12, tzinfo=timezone.utc)
    generate_home(tmp_path / "g", 3000, days=60, now=now, seed=5)
    home = Home(tmp_path / "g")
    stamp = (now - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    append_rows(home.log("tool-use"), [
        {"event_id": "evt-shadow", "timestamp": stamp, "type": "tool_bash", "summary": "plain words"}])
    append_rows(home.log("changelog"), [
        {"event_id": "evt-shadow", "timestamp": stamp, "type": "tool_bash",
         "summary": "Ran: curl https://shadowed.example.com/x"},
        {"timestamp": stamp, "type": "tool_bash", "summary": "Ran: curl https://idless.example.org/"},
        {"event_id": "git-abc1234", "timestamp": stamp, "project": "shop", "cwd": str(tmp_path),
         "summary": "Commit abc1234: x"},
    ])
    with open(home.log("research"), "ab") as handle:
        handle.write(b'{"event_id":"evt-esc","timestamp":"' + stamp.encode()
                     + b'","type":"research_fetch","url":"https:\\/\\/escaped.example.net\\/p"}\n')
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"permissions": {"allow": ["WebFetch(domain:escaped.example.net)"]}}))
    new = trustmap(home, window="365d", min_hits=1, settings_path=str(settings), now=now)
    monkeypatch.setattr(module, "_candidate_events",
                        lambda h, sessions=None: load_corpus(h, ["changelog", "research", "tool-use"]).events)
    old = trustmap(home, window="365d", min_hits=1, settings_path=str(settings), now=now)
    assert new == old
    hosts = {entry["id"] for entry in new["hosts"]}
    assert "idless.example.org" in hosts and "escaped.example.net" in hosts
    assert "shadowed.example.com" not in hosts  # the tool-use row won the fold
    assert len(new["hosts"]) > 5 and (new["clis"] or new["clis_unresolved"])
