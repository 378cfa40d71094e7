"""Three homes pushed to a team answer as one home holding all their events: sessions, standup
(with contention across machines whose checkouts differ), facts census and tempo, search."""

from __future__ import annotations

import json
import socket

import pytest

from teamkit import NOW, Machine, activity, make_repo, make_team

from carto_core.logio.logs import SEARCHED_LOGS

TEAM_ONLY = ("machine", "author")


def _strip(items: list[dict]) -> list[dict]:
    return [{k: v for k, v in item.items() if k not in TEAM_ONLY} for item in items]


@pytest.fixture(scope="module")
def team3(tmp_path_factory, pg_server):
    """Alice, Bob and Carol, each on a machine of their own with their own checkouts of shop
    (and infra), every home pushed; and M, one home holding all their events."""
    from pgserver import Database

    tmp = tmp_path_factory.mktemp("team3")
    db = Database.create(pg_server.main)
    members = make_team(db)
    machines = {}
    rows = {}
    plan = {
        "alice": [("s-a1", "shop", 30, "zebra", ("src/cart.py",)), ("s-a2", "infra", 60 * 48, "quartz", ("main.tf",))],
        "bob": [("s-b1", "shop", 20, "zanzibar", ("src/cart.py", "README.md")),
                ("s-b2", "shop", 60 * 72, "yodel", ("src/tax.py",))],
        "carol": [("s-c1", "infra", 45, "walrus", ("main.tf",))],
    }
    for member, sessions in plan.items():
        machine = Machine(tmp / member, f"{member}-box")
        shop = make_repo(tmp / member / "code" / "shop", "git@github.com:acme/shop.git")
        infra = make_repo(tmp / member / "code" / "infra", "https://github.com/acme/infra.git")
        repos = {"shop": shop, "infra": infra}
        for sid, project, start, tag, files in sessions:
            written = activity(sid, repos[project], start=start, tag=tag, files=files,
                               provider="codex" if member == "bob" else "claude")
            machine.write_all(written)
            for label, items in written.items():
                rows.setdefault(label, []).extend(items)
        machine.join(members[member][1], "acme", shop, infra)
        report = machine.json("team", "push")
        assert report["state"] == "ok" and report["refused"] == 0
        machines[member] = machine
    merged = Machine(tmp / "merged", "merged")
    for label in SEARCHED_LOGS:
        text = "".join(machines[m].home.log(label).read_text() for m in ("alice", "bob", "carol")
                       if machines[m].home.log(label).exists())
        if text:
            merged.home.log(label).write_text(text)
    yield {"machines": machines, "merged": merged, "db": db, "members": members}
    db.drop()


def test_sessions_of_the_team_are_the_sessions_of_one_home_holding_everything(team3):
    alice, merged = team3["machines"]["alice"], team3["merged"]
    team = alice.json("sessions", "--team")
    local = merged.json("sessions")
    assert team["team"]["state"] == "ok"
    assert _strip(team["sessions"]) == local["sessions"] and team["total"] == local["total"] == 5
    by_id = {s["session_id"]: s for s in team["sessions"]}
    assert (by_id["s-b1"]["machine"], by_id["s-b1"]["author"]) == ("bob-box", team3["members"]["bob"][0])
    assert by_id["s-a1"]["machine"] == "alice-box"
    for flags in (["--since", "1d"], ["--project", "infra"], ["--provider", "codex"], ["--limit", "2"]):
        team = alice.json("sessions", "--team", *flags)
        local = merged.json("sessions", *flags)
        assert _strip(team["sessions"]) == local["sessions"], flags
        assert team["total"] == local["total"], flags


def test_standup_of_the_team_finds_contention_across_machines(team3):
    from carto_core.lenses.standup import standup
    from carto_core.team.lenses import team_standup
    from carto_core.team.remotes import KeyCache
    from carto_core.team.rows import team_files
    from carto_core.team.settings import load

    alice, merged = team3["machines"]["alice"], team3["merged"]
    args = dict(since="6h", now=NOW, scan_unclaimed=False, scan_silent=False, me="s-a1")
    team = team_standup(alice.home, load(alice.home), **args)
    keys = KeyCache()
    one_home = standup(merged.home, **args, files_of=lambda e: [(k, k) for k in team_files(e, keys)])
    assert team.pop("team")["state"] == "ok"
    team["sessions"] = _strip(team["sessions"])
    assert team == one_home
    files = team["contention"]["files"]
    assert [f["path"] for f in files] == ["github.com/acme/shop:src/cart.py"]
    assert sorted(files[0]["sessions"]) == ["s-a1", "s-b1"]
    assert [p["project"] for p in team["contention"]["projects"]] == ["shop"]
    # The machines' checkouts differ: keyed by local paths, nothing contends.
    plain = standup(merged.home, **args)
    assert plain["contention"]["files"] == []
    text = alice.cli("standup", "--team").output
    assert "bob" in text and "github.com/acme/shop:src/cart.py" in text


@pytest.mark.parametrize("flags", [[], ["--since", "1d"], ["--project", "shop"], ["--since", "7d", "--before", "1d"],
                                   ["--project", "infra|nothing", "--top", "1", "--sample", "2"]])
@pytest.mark.parametrize("verb", ["census", "tempo"])
def test_facts_of_the_team_are_the_facts_of_one_home_holding_everything(team3, verb, flags):
    alice, merged = team3["machines"]["alice"], team3["merged"]
    team = alice.json("facts", verb, "--team", *flags)
    local = merged.json("facts", verb, *flags)
    assert team["team"]["state"] == "ok"
    if verb == "census":
        # Team rows hold no folder: the team counts a project by its name on every machine,
        # a home each folder of a name apart (here the members' checkouts of shop).
        names: dict[str, int] = {}
        for bucket in local["facts"].pop("by_project"):
            names[bucket["name"]] = names.get(bucket["name"], 0) + bucket["count"]
        counts = {b["name"]: b["count"] for b in team["facts"].pop("by_project")}
        # cut at --top, a home's buckets are folders: the names agree, the counts need them all
        assert (set(counts) == set(names)) if "--top" in flags else (counts == names)
    assert team["facts"] == local["facts"]
    assert team["corpus_events"] == merged.json("facts", "census")["facts"]["events"] == 31


def test_team_search_names_machine_and_author_and_folds_duplicates(team3):
    alice, merged = team3["machines"]["alice"], team3["merged"]
    found = alice.json("search", "zanzibar tests", "--team")
    assert found["team"]["state"] == "ok"
    first = found["results"][0]
    assert first["event_id"] == merged.json("search", "zanzibar tests")["results"][0]["event_id"]
    assert (first["machine"], first["author"]) == ("bob-box", team3["members"]["bob"][0])
    own = alice.json("search", "zebra discount", "--team", "--limit", "30")
    ids = [r["event_id"] for r in own["results"]]
    assert len(ids) == len(set(ids))
    assert any(r["machine"] == "alice-box" for r in own["results"])
    plain = alice.json("search", "zebra discount")
    assert "team" not in plain and all("machine" not in r for r in plain["results"])


def test_an_unreachable_team_gives_the_local_answer_and_says_so(team3):
    alice = team3["machines"]["alice"]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = f"postgresql://nobody@127.0.0.1:{sock.getsockname()[1]}/none"
    env = {"CARTO_TEAM_URL": dead}
    for args in (["search", "zebra discount"], ["standup"], ["sessions"], ["facts", "census"]):
        result = alice.cli(*args, "--team", "--json", env=env, check=False)
        assert result.exit_code == 0, (args, result.output)
        document = json.loads(result.stdout)
        assert document["team"]["state"] == "unreachable", args
        text = alice.cli(*args, "--team", env=env, check=False)
        assert "Traceback" not in text.output and "team: unreachable" in text.output, args


def test_the_mcp_tools_take_a_team_switch(team3):
    from carto_core.mcp.server import CartoMcp
    from carto_core.mcp.tools import ToolError

    alice, merged = team3["machines"]["alice"], team3["merged"]
    mcp = CartoMcp(alice.home)
    found = mcp.call("search", {"query": "zanzibar tests", "team": True, "max_chars": 20000})
    assert found["team"]["state"] == "ok" and found["results"][0]["machine"] == "bob-box"
    standup = mcp.call("standup", {"team": True, "no_git": True, "max_chars": 50000})
    assert {s["id"] for s in standup["sessions"]} >= {"s-a1", "s-b1", "s-c1"}
    census = mcp.call("facts", {"verb": "census", "team": True, "max_chars": 50000})
    assert census["facts"]["events"] == merged.json("facts", "census")["facts"]["events"]
    with pytest.raises(ToolError, match="census and tempo"):
        mcp.call("facts", {"verb": "delta", "team": True})
    plain = mcp.call("search", {"query": "zanzibar tests", "max_chars": 20000})
    assert "team" not in plain


def test_the_explorer_api_takes_a_team_switch(team3):
    from starlette.testclient import TestClient

    from carto_core.serve.app import create_app

    alice, merged = team3["machines"]["alice"], team3["merged"]
    app = create_app(alice.home)
    with TestClient(app, base_url="http://127.0.0.1:8000",
                    headers={"authorization": f"Bearer {app.state.carto.token}"}) as client:
        health = client.get("/api/health").json()
        assert health["team"] == {"configured": True, "team": "acme", "machine": "alice-box",
                                  "projects": ["github.com/acme/infra", "github.com/acme/shop"]}
        recall = client.post("/api/recall", json={"query": "zanzibar tests", "team": True}).json()
        assert recall["team"]["state"] == "ok" and recall["results"][0]["machine"] == "bob-box"
        assert "team" not in client.post("/api/recall", json={"query": "zanzibar tests"}).json()
        standup = client.get("/api/standup?team=true&since=6h").json()
        assert standup["team"]["state"] == "ok" and "s-b1" in {s["id"] for s in standup["sessions"]}
        facts = client.post("/api/facts", json={"contract_version": 1, "call_id": "t", "verb": "census", "team": True}).json()
        assert "facts" in facts, facts
        assert facts["facts"]["events"] == merged.json("facts", "census")["facts"]["events"]
        assert client.post("/api/facts", json={"contract_version": 1, "call_id": "t", "verb": "delta", "team": True}).status_code == 400
        sessions = client.get("/api/sessions?team=true&days=30").json()
        assert {s["session_id"] for s in sessions["sessions"]} == {"s-a1", "s-a2", "s-b1", "s-b2", "s-c1"}
