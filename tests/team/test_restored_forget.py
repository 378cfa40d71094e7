"""A team server restored to a point before a `carto team forget` holds the forgotten rows
again: the home that forgot them notices the forget's audit row gone (`carto team status`
says so) and its next push forgets them again. A push or status under another login than the
one that pushed (or forgot) cannot read that login's audit rows: status says the check is not
made and why; the schema's owner reads every audit row and checks."""

from __future__ import annotations

import pytest

from teamkit import Machine, activity, make_repo, make_team
from test_restored_server import dump, on_server, restore


@pytest.fixture
def world(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "code" / "shop", "git@github.com:acme/shop.git")
    blog = make_repo(tmp_path / "a" / "code" / "blog", "git@github.com:acme/blog.git")
    a = Machine(tmp_path / "a", "alice-laptop")
    members = make_team(pg_db)
    a.join(members["alice"][1], "acme", shop, blog)
    a.write_all(activity("s-shop", shop, start=120))
    a.write_all(activity("s-blog", blog, start=100))
    a.json("team", "push")
    return {"shop": shop, "blog": blog, "a": a, "db": pg_db, "members": members}


SHOP = {"prompt-s-shop-0", "evt-s-shop-0", "evt-s-shop-1", "git-s-shop", "turn-s-shop-0", "turn-s-shop-1"}
BLOG = {e.replace("shop", "blog") for e in SHOP}


def test_a_forget_the_restore_undid_is_said_and_done_again_by_the_next_push(world):
    a, db, blog = world["a"], world["db"], world["blog"]
    assert on_server(db) == SHOP | BLOG
    earlier = dump(db)
    assert a.json("team", "forget", "--project", "github.com/acme/shop", "--yes")["removed"] == 6
    assert on_server(db) == BLOG
    restore(db, earlier)
    assert on_server(db) == SHOP | BLOG

    server = a.json("team", "status")["server"]
    assert server["pushes_lost"] is None
    [undone] = server["forgets_undone"]
    assert (undone["project"], undone["user"], undone["rows"]) == ("github.com/acme/shop", None, 6)
    text = a.cli("team", "status").output
    assert (f"server: it no longer holds the forget of project github.com/acme/shop made here at {undone['at']} "
            "(restored to an earlier point?): 6 rows of it are there again; the next push forgets them again"
            ) in text.splitlines()

    alice, bob = world["members"]["alice"][0], world["members"]["bob"]
    assert a.json("team", "status", env={"CARTO_TEAM_URL": bob[1]})["server"]["restore_unchecked"] == (
        f"whether the team server still holds what this machine pushed is not checked: the last push from here "
        f"was made as {alice}, and the server shows {bob[0]} only its own audit rows (check as {alice}, or as "
        f"the schema's owner); whether the team server still holds the forgets made here as {alice} is not "
        f"checked: the server shows {bob[0]} only its own audit rows (check as {alice}, or as the schema's owner)")

    a.write_all(activity("s-blog-2", blog, start=50))
    report = a.json("team", "push")
    assert report["inserted"] == 6 and report["refused"] == 0
    assert report["problems"] == [
        f"the team server no longer held the forget of project github.com/acme/shop made here at {undone['at']} "
        "(restored to an earlier point?): forgotten again, 6 rows removed"]
    assert on_server(db) == BLOG | {e.replace("blog", "blog-2") for e in BLOG}
    assert a.json("team", "status")["server"]["forgets_undone"] == []
    again = a.json("team", "push")
    assert again["sent"] == 0 and again["problems"] == []


def test_a_forget_of_every_own_row_is_done_again_though_nothing_is_allowed(world):
    a, db = world["a"], world["db"]
    alice = world["members"]["alice"][0]
    earlier = dump(db)
    assert a.json("team", "forget", "--user", alice, "--yes")["removed"] == 12
    restore(db, earlier)
    assert on_server(db) == SHOP | BLOG
    result = a.cli("team", "push", "--json", check=False)
    assert result.exit_code == 3
    assert on_server(db) == set()
    assert "forgotten again, 12 rows removed" in result.output


def test_a_local_forget_of_a_project_is_done_again_too(world):
    a, db = world["a"], world["db"]
    earlier = dump(db)
    assert a.json("forget", "--project", "shop", "--write")["team"]["removed"] == 6
    restore(db, earlier)
    assert [u["project"] for u in a.json("team", "status")["server"]["forgets_undone"]] == ["shop"]
    report = a.json("team", "push")
    # The local forget rewrote the logs: read again, what the server holds is left as it is.
    assert on_server(db) == BLOG and report["inserted"] == 0, report


def test_a_forget_the_server_still_holds_is_not_done_again(world):
    a, db = world["a"], world["db"]
    a.json("team", "forget", "--project", "github.com/acme/shop", "--yes")
    restore(db, dump(db))
    assert a.json("team", "status")["server"]["forgets_undone"] == []
    report = a.json("team", "push")
    assert report["sent"] == 0 and report["problems"] == []
    assert on_server(db) == BLOG


def test_another_login_says_why_the_restore_is_not_checked_and_the_owner_checks(world):
    a, db, shop = world["a"], world["db"], world["shop"]
    alice, bob = world["members"]["alice"][0], world["members"]["bob"]
    earlier = dump(db)
    a.write_all(activity("s-shop-2", shop, start=60))
    a.json("team", "push")
    restore(db, earlier)

    as_bob = {"CARTO_TEAM_URL": bob[1]}
    server = a.json("team", "status", env=as_bob)["server"]
    assert server["pushes_lost"] is None
    why = (f"whether the team server still holds what this machine pushed is not checked: the last push from here "
           f"was made as {alice}, and the server shows {bob[0]} only its own audit rows (check as {alice}, or as "
           "the schema's owner)")
    assert server["restore_unchecked"] == why
    assert f"server: {why}" in a.cli("team", "status", env=as_bob).output.splitlines()

    pushed = a.json("team", "push", env=as_bob)
    assert pushed["sent"] == 0 and pushed["problems"] == [why]
    assert on_server(db) == SHOP | BLOG

    as_owner = a.json("team", "status", env={"CARTO_TEAM_URL": db.url()})["server"]
    assert as_owner["restore_unchecked"] is None and as_owner["pushes_lost"]["since"]
    mine = a.json("team", "status")["server"]
    assert mine["restore_unchecked"] is None and mine["pushes_lost"] == as_owner["pushes_lost"]
    a.json("team", "push")
    assert on_server(db) == SHOP | BLOG | {e.replace("shop", "shop-2") for e in SHOP}
