"""A push's positions belong to the server it is connected to: `CARTO_TEAM_URL` naming another
database, or a server rebuilt at the stored URL, starts from the beginning there, and never
moves the stored server's positions. A home's positions of the outbox's first format are kept."""

from __future__ import annotations

import json
import os

import pytest

from teamkit import Machine, activity, make_repo, make_team, server_rows


def ids_of(rows: dict[str, list[dict]]) -> set[str]:
    return {row["event_id"] for items in rows.values() for row in items}


def test_another_database_named_by_carto_team_url_has_positions_of_its_own(tmp_path, pg_db, other_db):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    first = activity("s-1", shop, start=60)
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(first)
    a.join(make_team(pg_db)["alice"][1], "acme", shop)
    assert a.json("team", "push")["inserted"] == len(ids_of(first))
    elsewhere = {"CARTO_TEAM_URL": make_team(other_db)["alice"][1]}
    # The first push to the empty second database sends everything, not "up to date".
    there = a.json("team", "push", env=elsewhere)
    assert there["inserted"] == len(server_rows(pg_db)) and there["inserted"] > 0
    assert {r[0] for r in server_rows(other_db)} == {r[0] for r in server_rows(pg_db)}
    # Rows pushed to the second one only are still new to the stored one.
    second = activity("s-2", shop, start=30)
    a.write_all(second)
    assert a.json("team", "push", env=elsewhere)["inserted"] > 0
    back = a.json("team", "push")
    assert back["inserted"] > 0 and {r[0] for r in server_rows(pg_db)} == {r[0] for r in server_rows(other_db)}
    assert a.json("team", "push")["sent"] == a.json("team", "push", env=elsewhere)["sent"] == 0
    # `carto team status` (no connection needed) reads the positions of the URL in use.
    assert a.json("team", "status", env=elsewhere, check=False)["local"]["pending_bytes"] == 0


def test_a_server_rebuilt_at_the_same_url_is_pushed_from_the_start(tmp_path, pg_db):
    from carto_core.team import admin

    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(activity("s-1", shop, start=60))
    members = make_team(pg_db)
    a.join(members["alice"][1], "acme", shop)
    assert a.json("team", "push")["inserted"] > 0
    sent = {r[0] for r in server_rows(pg_db)}
    pg_db.sql("DROP SCHEMA carto CASCADE")
    with pg_db.connect() as conn:
        admin.setup(conn, "acme")
        admin.add_member(conn, "acme", members["alice"][0], password=f"pw-alice-{os.getpid()}")
    assert server_rows(pg_db) == []
    again = a.json("team", "push")
    assert again["inserted"] == len(sent) and {r[0] for r in server_rows(pg_db)} == sent


def test_positions_of_the_first_outbox_format_are_kept(tmp_path, pg_db):
    from carto_core.team.push import OUTBOX, _legacy_fingerprint
    from carto_core.team.settings import load

    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(activity("s-1", shop, start=60))
    a.join(make_team(pg_db)["alice"][1], "acme", shop)
    assert a.json("team", "push")["inserted"] > 0
    # The outbox as the first format wrote it: one server, named by the stored URL.
    path = a.home.state / "team" / OUTBOX
    ((entry_key, entry),) = json.loads(path.read_text())["servers"].items()
    path.write_text(json.dumps({"v": 1, "server": _legacy_fingerprint(load(a.home)), "logs": entry["logs"]}))
    assert a.json("team", "status")["local"]["pending_bytes"] == 0
    assert a.json("team", "push")["sent"] == 0
    later = activity("s-2", shop, start=30)
    a.write_all(later)
    pushed = a.json("team", "push")
    assert pushed["sent"] == pushed["inserted"] == len(ids_of(later))
    assert list(json.loads(path.read_text())["servers"]) == [entry_key]


def test_push_from_start_forgets_only_the_positions_of_the_server_it_reaches(tmp_path, pg_db, other_db):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    rows = activity("s-1", shop, start=60)
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(rows)
    a.join(make_team(pg_db)["alice"][1], "acme", shop)
    elsewhere = {"CARTO_TEAM_URL": make_team(other_db)["alice"][1]}
    assert a.json("team", "push")["inserted"] == a.json("team", "push", env=elsewhere)["inserted"] > 0
    again = a.json("team", "push", "--from-start", env=elsewhere)
    assert again["sent"] == again["unchanged"] == len(ids_of(rows))
    # The stored server's positions are as they were: nothing to read again there.
    assert a.json("team", "push")["sent"] == a.json("team", "push", env=elsewhere)["sent"] == 0


@pytest.fixture
def copy_of(pg_db):
    """Makes a copy of `pg_db` in another database of its server, as an administrator restoring
    it would: `CREATE DATABASE ... TEMPLATE`, or pg_dump's output run by psql into an empty
    one. Dropped before `pg_db` (whose roles the copy's grants name)."""
    import subprocess

    from pgserver import Database, bin_dir

    made = []

    def make(how: str) -> Database:
        copy = Database(pg_db.node, f"{pg_db.name}_copy{len(made)}")
        if how == "template":
            pg_db.node.sql(f'create database "{copy.name}" template "{pg_db.name}"')
        else:
            pg_db.node.sql(f'create database "{copy.name}"')
            dump = subprocess.run([str(bin_dir() / "pg_dump"), "--dbname", pg_db.url()], capture_output=True,
                                  check=True).stdout
            subprocess.run([str(bin_dir() / "psql"), "--dbname", copy.url(), "-q", "-v", "ON_ERROR_STOP=1"],
                           input=dump, capture_output=True, check=True)
        made.append(copy)
        return copy

    try:
        yield make
    finally:
        for copy in made:
            copy.drop()


@pytest.mark.parametrize("how", ["template", "pg_dump"])
def test_a_copy_of_the_server_has_positions_of_its_own(tmp_path, pg_db, copy_of, how):
    from carto_core.team import admin

    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    first, second, third = (activity(f"s-{n}", shop, start=90 - 20 * n) for n in (1, 2, 3))
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(first)
    members = make_team(pg_db)
    a.join(members["alice"][1], "acme", shop)
    assert a.json("team", "push")["inserted"] == len(ids_of(first))
    copy = copy_of(how)
    original_id = pg_db.sql("select value from carto.meta where key = 'server_id'")
    assert copy.sql("select value from carto.meta where key = 'server_id'") == original_id
    at_copy = {"CARTO_TEAM_URL": members["alice"][1].replace(f"/{pg_db.name}", f"/{copy.name}")}
    # Rows pushed to the original after the copy was made reach the copy too: its positions
    # start from the beginning, whatever the original's say.
    a.write_all(second)
    assert a.json("team", "push")["inserted"] == len(ids_of(second))
    there = a.cli("team", "push", env=at_copy)
    assert {r[0] for r in server_rows(copy)} == ids_of(first) | ids_of(second)
    assert f"note: this server is a copy of team server {original_id[0][0]}" in there.stderr
    # ... and a push to the copy does not count for the original.
    a.write_all(third)
    assert a.json("team", "push", env=at_copy)["inserted"] == len(ids_of(third))
    assert a.json("team", "push")["inserted"] == len(ids_of(third))
    assert {r[0] for r in server_rows(pg_db)} == {r[0] for r in server_rows(copy)}
    assert a.json("team", "push")["sent"] == a.json("team", "push", env=at_copy)["sent"] == 0
    # The administrator's setup on the copy gives it an id of its own, the one its positions
    # are kept under already; the original keeps its own.
    with copy.connect() as conn:
        done = admin.setup(conn, "acme")
    assert done["copy_of"] == original_id[0][0] and done["server_id"] != original_id[0][0]
    with pg_db.connect() as conn:
        assert admin.setup(conn, "acme")["copy_of"] is None
    assert pg_db.sql("select value from carto.meta where key = 'server_id'") == original_id
    quiet = a.json("team", "push", env=at_copy)
    assert quiet["sent"] == 0 and not quiet["problems"]
    assert a.json("team", "push")["sent"] == 0
