"""`carto team push`: the home's logs are the outbox; idempotent by (team, event_id); a machine
never overwrites another's ids; a revised turn replaces its older row only from its machine."""

from __future__ import annotations

import json

import pytest

from teamkit import Machine, activity, make_repo, make_team, server_rows


@pytest.fixture
def world(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:Acme/shop.git")
    secret = make_repo(tmp_path / "a" / "secret", "https://github.com/acme/secret")
    members = make_team(pg_db)
    a = Machine(tmp_path / "a", "alice-laptop")
    return {"shop": shop, "secret": secret, "members": members, "a": a, "db": pg_db}


def ids_of(rows: dict[str, list[dict]]) -> set[str]:
    return {row["event_id"] for items in rows.values() for row in items}


def test_a_push_sends_the_allowed_project_once(world):
    a, db = world["a"], world["db"]
    shop_rows = activity("s-shop-1", world["shop"], start=60)
    secret_rows = activity("s-secret-1", world["secret"], start=50, tag="classified")
    a.write_all(shop_rows)
    a.write_all(secret_rows)
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    first = a.json("team", "push")
    assert first["state"] == "ok", first
    held = server_rows(db)
    assert {r[0] for r in held} == ids_of(shop_rows)
    assert first["inserted"] == len(held) and first["refused"] == 0
    assert first["not_allowed"] == sum(len(v) for v in secret_rows.values())
    by_id = {r[0]: r for r in held}
    # A tool call: its tool-use row is the event, the changelog copy folded into `logs`.
    assert by_id["evt-s-shop-1-0"][3] == "tool-use"
    assert by_id["evt-s-shop-1-0"][4] == ["tool-use", "changelog"]
    assert {r[2] for r in held} == {world["members"]["alice"][0]}
    assert {r[1] for r in held} == {"alice-laptop"}
    again = a.json("team", "push")
    assert (again["sent"], again["inserted"]) == (0, 0)
    # New rows: only they are sent.
    more = activity("s-shop-2", world["shop"], start=20)
    a.write_all(more)
    third = a.json("team", "push")
    assert third["inserted"] == len(ids_of(more))
    assert {r[0] for r in server_rows(db)} == ids_of(shop_rows) | ids_of(more)


def test_nothing_leaves_before_a_project_is_allowed(world):
    a, db = world["a"], world["db"]
    a.write_all(activity("s-shop-1", world["shop"], start=60))
    a.join(world["members"]["alice"][1], "acme")
    result = a.cli("team", "push", "--json", check=False)
    assert result.exit_code == 3
    assert json.loads(result.stdout)["state"] == "nothing_allowed"
    assert server_rows(db) == []


def _turn(sid, idx, summary, minutes, **extra):
    from carto_core.logio.logs import order_row
    from teamkit import stamp

    return order_row("turns", {"event_id": f"turn-{sid}-{idx}", "timestamp": stamp(minutes), "project": "shop",
                               "type": "transcript", "provider": "claude", "summary": summary,
                               "transcript_path": f"/t/{sid}.jsonl", "session": sid, "turn_idx": idx, **extra})


def test_a_revised_turn_replaces_its_row_and_an_older_revision_never_does(world, tmp_path):
    import shutil

    a, db = world["a"], world["db"]
    url = world["members"]["alice"][1]
    a.write("prompts", [{"event_id": "prompt-x", "timestamp": "2026-01-01T00:00:00Z", "type": "prompt",
                         "summary": "hello", "project": "shop", "cwd": str(world["shop"]), "session_id": "s1"}])
    a.write("turns", [_turn("s1", 0, "we started on the rounding", 30, open=True)])
    a.join(url, "acme", world["shop"])
    assert a.json("team", "push")["inserted"] == 2
    # The state of this machine before the turn grew, kept aside (a restored backup, say).
    old_home = tmp_path / "old"
    shutil.copytree(a.home.root, old_home / "home")
    a.write("turns", [_turn("s1", 0, "we started on the rounding and fixed it with banker's rounding", 28)])
    revised = a.json("team", "push")
    assert (revised["updated"], revised["inserted"]) == (1, 0)
    summary, row = db.sql("select summary, row from carto.events where event_id = 'turn-s1-0'")[0]
    assert summary.endswith("banker's rounding") and "open" not in row
    # The old state pushes its older revision again (same machine, same person): refused by
    # revision, the newer row stays.
    old = Machine(old_home, "alice-laptop")
    replay = old.json("team", "push", "--from-start")
    assert replay["state"] == "ok" and replay["updated"] == 0 and replay["refused"] == 0
    assert replay["unchanged"] == replay["sent"] == 2
    assert db.sql("select summary from carto.events where event_id = 'turn-s1-0'")[0][0].endswith("rounding")
    assert "banker" in db.sql("select summary from carto.events where event_id = 'turn-s1-0'")[0][0]


@pytest.mark.parametrize("member, machine", [("bob", "bob-desktop"), ("alice", "alice-desktop")])
def test_a_machine_cannot_overwrite_another_machines_ids(world, tmp_path, member, machine):
    a, db = world["a"], world["db"]
    rows = activity("s-shop-1", world["shop"], start=60)
    a.write_all(rows)
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    a.json("team", "push")
    before = server_rows(db, columns="event_id, machine, author, row")
    # Another machine holds the same ids (its logs copied from the first, then changed).
    other = Machine(tmp_path / "b", machine)
    other.home.root.mkdir(parents=True, exist_ok=True)
    for label in rows:
        text = a.home.log(label).read_text().replace("discount", "STOLEN")
        other.home.log(label).write_text(text)
    other.join(world["members"][member][1], "acme", world["shop"])
    result = other.cli("team", "push", "--json", check=False)
    assert result.exit_code == 4
    report = json.loads(result.stdout)
    # Every row sent was refused: 6 events (the changelog's 2 copies of tool calls went folded
    # into their tool-use rows, never sent).
    assert report["refused"] == report["sent"] == len(ids_of(rows)) == 6 and report["folded"] == 2
    assert (report["inserted"], report["updated"], report["merged"]) == (0, 0, 0)
    assert set(report["refused_ids"]) == {r[0] for r in before}
    assert server_rows(db, columns="event_id, machine, author, row") == before
    why = "another_person" if member == "bob" else "another_machine"
    assert report["state"] == "refused" and report["refused_by"] == [
        {"why": why, "author": world["members"]["alice"][0], "machine": "alice-laptop", "rows": 6,
         "ids": report["refused_ids"][:3]}]
    text = other.cli("team", "push", "--from-start", check=False).output
    # The summary's counts add up to what was sent.
    assert text.splitlines()[0] == ("sent 6 rows in 4 batches: 0 new, 0 revised, 0 already there, "
                                    "6 refused; 2 changelog copies folded before sending")


def test_a_push_with_refused_rows_exits_4_and_says_who_holds_them(world, tmp_path):
    a, db = world["a"], world["db"]
    alice_role, bob_role = world["members"]["alice"][0], world["members"]["bob"][0]
    theirs = activity("s-alice", world["shop"], start=90, turns=1, commit=False)
    a.write_all(theirs)
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    a.json("team", "push")
    laptop = Machine(tmp_path / "b", "bob-laptop")
    mine = activity("s-bob", world["shop"], start=60, turns=1, commit=False)
    laptop.write_all(mine)
    laptop.join(world["members"]["bob"][1], "acme", world["shop"])
    laptop.json("team", "push")
    # Bob's desktop was set up from copies of both homes, then did work of its own.
    desktop = Machine(tmp_path / "c", "bob-desktop")
    desktop.write_all(theirs)
    desktop.write_all(mine)
    fresh = activity("s-desk", world["shop"], start=30, turns=1, commit=False)
    desktop.write_all(fresh)
    desktop.join(world["members"]["bob"][1], "acme", world["shop"])
    before = server_rows(db)
    result = desktop.cli("team", "push", "--json", check=False)
    assert result.exit_code == 4
    report = json.loads(result.stdout)
    # A prompt, an edit and a bash call, a turn: 4 events a session; the new one is shared.
    assert (report["state"], report["inserted"], report["refused"]) == ("refused", 4, 8)
    assert {r[0] for r in server_rows(db)} - {r[0] for r in before} == ids_of(fresh)
    groups = {(g["why"], g["author"], g["machine"]): g for g in report["refused_by"]}
    assert set(groups) == {("another_person", alice_role, "alice-laptop"),
                           ("another_machine", bob_role, "bob-laptop")}
    assert {g["rows"] for g in groups.values()} == {4}
    assert set(groups["another_person", alice_role, "alice-laptop"]["ids"]) <= ids_of(theirs)
    assert set(groups["another_machine", bob_role, "bob-laptop"]["ids"]) <= ids_of(mine)
    assert report["reason"].startswith("8 rows were refused, not shared from this machine: their ids are "
                                       "already on the server from another machine")
    # The text says the same on stderr, one line, and the exit code tells a script.
    text = desktop.cli("team", "push", "--from-start", check=False)
    assert text.exit_code == 4
    line = [x for x in text.stderr.splitlines() if "refused" in x]
    assert len(line) == 1 and line[0] == f"carto: {report['reason']}"
    assert f"4 held by {alice_role} on alice-laptop (e.g. " in line[0]
    assert "4 held by your machine bob-laptop (e.g. " in line[0]
    # Nothing new: the next push has nothing to refuse.
    assert desktop.cli("team", "push", check=False).exit_code == 0


def test_ids_held_in_a_project_the_pusher_may_not_read_are_refused_not_counted_as_there(world, tmp_path):
    import os

    from carto_core.team import admin

    a, db = world["a"], world["db"]
    a.write_all(activity("s-shop-1", world["shop"], start=60))
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    a.json("team", "push")
    before = server_rows(db, columns="event_id, machine, author, project_key, row")
    # Dora may read and push github.com/acme/other alone: alice's rows are out of her sight.
    dora, password = db.role("dora"), f"pw-dora-{os.getpid()}"
    with db.connect() as conn:
        admin.add_member(conn, "acme", dora, projects=["github.com/acme/other"], password=password)
    other = make_repo(tmp_path / "d" / "other", "git@github.com:acme/other.git")
    machine = Machine(tmp_path / "d", "dora-box")
    same_ids = activity("s-shop-1", other, start=30)
    machine.write_all(same_ids)
    machine.join(db.url(f"{dora}:{password}"), "acme", other)
    result = machine.cli("team", "push", "--json", check=False)
    report = json.loads(result.stdout)
    # None of her rows is on the server: they are refused, not counted as already there.
    assert result.exit_code == 4 and report["state"] == "refused"
    assert (report["refused"], report["unchanged"], report["inserted"]) == (6, 0, 0)
    assert report["refused_by"] == [{"why": "not_readable", "author": None, "machine": None, "rows": 6,
                                     "ids": report["refused_ids"][:3]}]
    assert "6 held by someone in a project you may not read (e.g. " in report["reason"]
    assert server_rows(db, columns="event_id, machine, author, project_key, row") == before


def test_a_project_allowed_later_is_caught_up(world):
    a, db = world["a"], world["db"]
    shop_rows = activity("s-shop-1", world["shop"], start=60)
    secret_rows = activity("s-secret-1", world["secret"], start=50)
    a.write_all(shop_rows)
    a.write_all(secret_rows)
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    a.json("team", "push")
    assert {r[0] for r in server_rows(db)} == ids_of(shop_rows)
    status = a.json("team", "status")
    assert status["local"]["pending_bytes"] == 0 and status["local"]["catch_up"] == []
    a.cli("team", "allow", str(world["secret"]))
    assert a.json("team", "status")["local"]["catch_up"] == ["github.com/acme/secret"]
    caught = a.json("team", "push")
    assert caught["inserted"] == len(ids_of(secret_rows))
    assert sum(log["caught_up"] for log in caught["logs"].values()) == caught["sent"]
    assert {r[0] for r in server_rows(db)} == ids_of(shop_rows) | ids_of(secret_rows)
    assert a.json("team", "push")["sent"] == 0


def test_an_unreachable_server_changes_nothing_here(world):
    import socket

    a = world["a"]
    a.write_all(activity("s-shop-1", world["shop"], start=60))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    a.join(f"postgresql://nobody@127.0.0.1:{port}/none", "acme", world["shop"]) if False else None
    a.cli("team", "init", f"postgresql://nobody@127.0.0.1:{port}/none", "--team", "acme",
          "--allow", str(world["shop"]), "--no-check")
    result = a.cli("team", "push", "--json", check=False)
    assert result.exit_code == 75
    report = json.loads(result.stdout)
    assert report["state"] == "unreachable" and "unreachable" in report["reason"]
    assert not (a.home.state / "team" / "outbox.json").exists()
    text = a.cli("team", "push", check=False)
    assert text.exit_code == 75 and "Traceback" not in text.output
    assert "nothing committed is lost" in text.output


def test_a_changelog_copy_folds_into_its_row_in_the_same_push_or_a_later_one(world):
    from teamkit import stamp

    a, db = world["a"], world["db"]
    common = {"timestamp": stamp(5), "type": "tool_bash", "provider": "claude", "summary": "Ran: make",
              "project": "shop", "cwd": str(world["shop"])}
    a.write("tool-use", [{"event_id": "evt-both", **common, "tool": "Bash", "session": "s1"},
                         {"event_id": "evt-later", **common, "tool": "Bash", "session": "s1"}])
    a.write("changelog", [{"event_id": "evt-both", **common, "session_id": "s1", "related_ids": []}])
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    first = a.json("team", "push")
    assert (first["sent"], first["folded"], first["inserted"]) == (2, 1, 2)
    a.write("changelog", [{"event_id": "evt-later", **common, "session_id": "s1", "related_ids": []}])
    second = a.json("team", "push")
    assert (second["sent"], second["merged"], second["inserted"]) == (1, 1, 0)
    logs = dict(db.sql("select event_id, logs from carto.events"))
    assert logs == {"evt-both": ["tool-use", "changelog"], "evt-later": ["tool-use", "changelog"]}
