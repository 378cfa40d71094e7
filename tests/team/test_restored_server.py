"""A team server restored to an earlier point (a dump of its schema restored into the same
database, as a point-in-time recovery would leave it) keeps its id and place: pushes whose
positions are past the restored point must see that their rows are gone and send them again,
and `carto team status` says so."""

from __future__ import annotations

import pytest

from pgserver import SUPERUSER, bin_dir, run
from teamkit import Machine, activity, make_repo, make_team, server_rows


@pytest.fixture
def world(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "code" / "shop", "git@github.com:acme/shop.git")
    a = Machine(tmp_path / "a", "alice-laptop")
    members = make_team(pg_db)
    a.join(members["alice"][1], "acme", shop)
    return {"shop": shop, "a": a, "db": pg_db}


def ids(*activities: dict) -> set[str]:
    return {row["event_id"] for rows in activities for items in rows.values() for row in items}


def on_server(db) -> set[str]:
    return {r[0] for r in server_rows(db)}


def dump(db) -> str:
    """The carto schema as SQL statements (`--inserts`: no COPY blocks, no psql needed)."""
    node = db.node
    done = run([str(bin_dir() / "pg_dump"), "-h", "127.0.0.1", "-p", str(node.port), "-U", SUPERUSER,
                "-n", "carto", "--inserts", db.name])
    return "\n".join(line for line in done.stdout.splitlines() if not line.startswith("\\"))


def restore(db, sql: str) -> None:
    with db.connect(autocommit=True) as conn:
        conn.execute("DROP SCHEMA carto CASCADE")
        conn.execute(sql)


def test_a_push_after_a_restore_sends_again_what_the_server_lost(world):
    a, db, shop = world["a"], world["db"], world["shop"]
    first = activity("s-1", shop, start=120)
    a.write_all(first)
    assert a.json("team", "push")["inserted"] == len(ids(first))
    earlier = dump(db)
    second = activity("s-2", shop, start=60)
    a.write_all(second)
    assert a.json("team", "push")["inserted"] == len(ids(second))
    assert on_server(db) == ids(first, second)
    restore(db, earlier)
    assert on_server(db) == ids(first)
    status = a.json("team", "status", check=False)
    assert status["server"]["pushes_lost"]["since"], status["server"]
    text = a.cli("team", "status", check=False).output
    assert "no longer holds rows this machine pushed" in text
    report = a.json("team", "push")
    assert report["inserted"] == len(ids(second)) and report["unchanged"] == 0, report
    assert any("no longer holds rows this machine pushed" in p for p in report["problems"])
    assert on_server(db) == ids(first, second)
    assert a.json("team", "status")["server"]["pushes_lost"] is None
    again = a.json("team", "push")
    assert again["sent"] == 0 and not again["problems"]


def test_a_restore_before_every_push_of_this_machine_sends_everything_again(world):
    a, db, shop = world["a"], world["db"], world["shop"]
    empty = dump(db)
    first = activity("s-1", shop, start=120)
    a.write_all(first)
    a.json("team", "push")
    second = activity("s-2", shop, start=60)
    a.write_all(second)
    a.json("team", "push")
    restore(db, empty)
    assert on_server(db) == set()
    report = a.json("team", "push")
    assert on_server(db) == ids(first, second) and report["inserted"] == len(ids(first, second))


def test_a_server_that_lost_nothing_is_not_pushed_again(world):
    a, db, shop = world["a"], world["db"], world["shop"]
    first = activity("s-1", shop, start=120)
    a.write_all(first)
    a.json("team", "push")
    restore(db, dump(db))
    assert a.json("team", "status")["server"]["pushes_lost"] is None
    report = a.json("team", "push")
    assert report["sent"] == 0 and not report["problems"]
