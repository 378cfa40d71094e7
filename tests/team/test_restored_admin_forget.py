"""A team server restored to a point before a `carto team admin forget` holds the person's rows
again. The administrator's machine remembers the forget (its audit row's id) as a member's home
remembers theirs, and the next `carto team admin` command from it, connected as the schema's
owner, finds the audit row gone and forgets the rows again."""

from __future__ import annotations

import json

import pytest

from teamkit import Machine, activity, make_repo, make_team, server_rows
from test_restored_server import dump, restore


@pytest.fixture
def world(tmp_path, pg_db):
    shop = make_repo(tmp_path / "b" / "code" / "shop", "git@github.com:acme/shop.git")
    blog = make_repo(tmp_path / "b" / "code" / "blog", "git@github.com:acme/blog.git")
    members = make_team(pg_db)
    bob = Machine(tmp_path / "b", "bob-box")
    bob.write_all(activity("s-shop", shop, start=120))
    bob.write_all(activity("s-blog", blog, start=100))
    bob.join(members["bob"][1], "acme", shop, blog)
    assert bob.json("team", "push")["inserted"] == 12
    admin = Machine(tmp_path / "o", "admin-box")
    admin.home.root.rmdir()  # an administrator's box: no carto home
    return {"db": pg_db, "bob": members["bob"][0], "admin": admin, "members": members,
            "env": {"CARTO_TEAM_ADMIN_URL": pg_db.url()}}


def _events(db) -> set[str]:
    return {row[0] for row in server_rows(db)}


SHOP = {"prompt-s-shop-0", "evt-s-shop-0", "evt-s-shop-1", "git-s-shop", "turn-s-shop-0", "turn-s-shop-1"}
BLOG = {e.replace("shop", "blog") for e in SHOP}


def test_an_admin_forget_the_restore_undid_is_made_again_by_the_next_admin_command(world):
    db, bob, admin, env = world["db"], world["bob"], world["admin"], world["env"]
    earlier = dump(db)
    done = admin.json("team", "admin", "forget", bob, "--project", "github.com/acme/shop", "--yes", env=env)
    assert done["removed"] == 6 and _events(db) == BLOG
    # What the administrator's machine keeps: this file alone, the forget as it was asked for.
    kept = sorted(p.relative_to(admin.home.root).as_posix() for p in admin.home.root.rglob("*") if p.is_file())
    assert kept == [".carto/team/forgets.json"]
    [records] = json.loads((admin.home.root / ".carto/team/forgets.json").read_text())["servers"].values()
    assert [(r["audit"], r["user"], r["project"], r["asked"]) for r in records] == [
        (done["audit"], bob, "github.com/acme/shop", {"user": bob, "project": "github.com/acme/shop"})]

    restore(db, earlier)
    assert _events(db) == SHOP | BLOG
    result = admin.cli("team", "admin", "revoke", bob, "--project", "github.com/acme/zed", env=env, check=False)
    assert result.exit_code == 3  # the revoke itself found nothing to take
    note = (f"note: the team server no longer held the forget of user {bob} and project "
            f"github.com/acme/shop made here at {records[0]['at']} (restored to an earlier point?): "
            "forgotten again, 6 rows removed")
    assert note in result.output.splitlines()
    assert _events(db) == BLOG
    assert db.sql("select removed, detail->>'user', detail->>'project' from carto.audit "
                  "where action = 'forget' order by id") == [(6, bob, "github.com/acme/shop")]
    # Made again once: the next command finds the new audit row.
    again = admin.cli("team", "admin", "revoke", bob, "--project", "github.com/acme/zed", env=env, check=False)
    assert "forgotten again" not in again.output and _events(db) == BLOG


def test_an_admin_forget_the_server_still_holds_is_not_made_again(world):
    db, bob, admin, env = world["db"], world["bob"], world["admin"], world["env"]
    admin.json("team", "admin", "forget", bob, "--yes", env=env)
    restore(db, dump(db))
    assert _events(db) == set()
    result = admin.cli("team", "admin", "revoke", bob, "--project", "github.com/acme/zed", env=env, check=False)
    assert "forgotten again" not in result.output
    assert db.sql("select count(*) from carto.audit where action = 'forget'") == [(1,)]


def test_an_admin_forget_is_made_again_on_the_server_it_was_made_on_only(world, other_db, tmp_path):
    """Another team server (another database set up as its own) never held that forget."""
    db, bob, admin, env = world["db"], world["bob"], world["admin"], world["env"]
    admin.json("team", "admin", "forget", bob, "--yes", env=env)
    other = make_team(other_db)
    shop = make_repo(tmp_path / "c" / "code" / "shop", "git@github.com:acme/shop.git")
    box = Machine(tmp_path / "c", "bob-box")
    box.write_all(activity("s-shop", shop, start=120))
    box.join(other["bob"][1], "acme", shop)
    assert box.json("team", "push")["inserted"] == 6
    result = admin.cli("team", "admin", "revoke", other["bob"][0], "--project", "github.com/acme/zed",
                       env={"CARTO_TEAM_ADMIN_URL": other_db.url()}, check=False)
    assert "forgotten again" not in result.output
    assert {row[0] for row in server_rows(other_db)} == SHOP


# The forget command asks first: an administrator answering no changes nothing, so its question
# names the earlier forgets a yes makes again. `carto team status` on that machine says what a
# restore undid when it connects as the schema's owner (who reads every audit row); under a
# member's login it says it cannot check them.


@pytest.fixture
def undone(world):
    """`world` with bob's shop rows forgotten by the administrator, then the server restored to
    the point before."""
    db, admin, env = world["db"], world["admin"], world["env"]
    earlier = dump(db)
    done = admin.json("team", "admin", "forget", world["bob"], "--project", "github.com/acme/shop", "--yes", env=env)
    assert done["removed"] == 6 and _events(db) == BLOG
    restore(db, earlier)
    assert _events(db) == SHOP | BLOG
    return world


def _forgets(db) -> list[tuple]:
    return db.sql("select removed, detail->>'project' from carto.audit where action = 'forget' order by id")


def _at(admin) -> str:
    [records] = json.loads((admin.home.root / ".carto/team/forgets.json").read_text())["servers"].values()
    return records[0]["at"]


def test_an_admin_answering_no_changes_nothing_and_the_question_names_the_forget_made_again(undone, monkeypatch):
    db, bob, admin, env = undone["db"], undone["bob"], undone["admin"], undone["env"]
    at = _at(admin)
    earlier = (f"the forget of user {bob} and project github.com/acme/shop made here at {at}, 6 rows")
    # no terminal, no --yes: nothing is removed, the earlier forget not made again either
    refused = admin.cli("team", "admin", "forget", bob, "--project", "github.com/acme/blog", env=env, check=False)
    assert refused.exit_code == 2
    assert refused.stderr.splitlines() == [
        f"carto: nothing was removed: without a terminal to ask (remove every row of {bob} of project "
        f"github.com/acme/blog from team acme, and forget again what the team server no longer holds "
        f"(restored to an earlier point?) of {earlier}?) give --yes"]
    assert _events(db) == SHOP | BLOG and _forgets(db) == []

    monkeypatch.setattr("carto_core.cli.team_cmd.can_ask", lambda: True)  # a person at a terminal
    declined = admin.cli("team", "admin", "forget", bob, "--project", "github.com/acme/blog", env=env,
                         input="n\n", check=False)
    assert declined.exit_code == 1
    assert "forgotten again" not in declined.output
    assert declined.stderr.startswith(
        f"remove every row of {bob} of project github.com/acme/blog from team acme, and forget again what "
        f"the team server no longer holds (restored to an earlier point?) of {earlier}? [y/N]: n")
    assert _events(db) == SHOP | BLOG and _forgets(db) == []

    accepted = admin.cli("team", "admin", "forget", bob, "--project", "github.com/acme/blog", env=env,
                         input="y\n")
    assert (f"note: the team server no longer held the forget of user {bob} and project github.com/acme/shop "
            f"made here at {at} (restored to an earlier point?): forgotten again, 6 rows removed"
            ) in accepted.stderr.splitlines()
    assert accepted.stdout == f"removed 6 rows of {bob} of project github.com/acme/blog from team acme\n"
    assert _events(db) == set()
    assert _forgets(db) == [(6, "github.com/acme/shop"), (6, "github.com/acme/blog")]


def test_team_status_says_an_admin_forget_was_undone_as_the_owner_and_that_it_cannot_check_otherwise(undone):
    db, bob, admin, env = undone["db"], undone["bob"], undone["admin"], undone["env"]
    at = _at(admin)
    shop = make_repo(admin.root / "code" / "shop", "git@github.com:acme/shop.git")
    admin.join(undone["members"]["alice"][1], "acme", shop)  # the administrator is a member too
    member = admin.json("team", "status")["server"]
    assert member["login"] == undone["members"]["alice"][0]
    assert member["forgets_undone"] == [] and member["admin_forgets_undone"] == []
    assert member["restore_unchecked"] == (
        "whether the team server still holds 1 forget made here by `carto team admin forget` is not checked: "
        "only the schema's owner reads its audit rows (the next `carto team admin` command from here checks it "
        "and forgets again what the server no longer holds)")
    owner = {"CARTO_TEAM_URL": db.url()}
    server = admin.json("team", "status", env=owner)["server"]
    assert server["admin_forgets_undone"] == [{"user": bob, "project": "github.com/acme/shop", "at": at, "rows": 6}]
    assert server["restore_unchecked"] is None
    text = admin.cli("team", "status", env=owner).stdout.splitlines()
    assert (f"server: it no longer holds the `carto team admin forget` of user {bob} and project "
            f"github.com/acme/shop made here at {at} (restored to an earlier point?): 6 rows of it are there "
            "again; the next `carto team admin` command from here forgets them again") in text
    assert _events(db) == SHOP | BLOG  # a status changes nothing

    admin.cli("team", "admin", "reindex", env=env)
    assert _events(db) == BLOG
    server = admin.json("team", "status", env=owner)["server"]
    assert server["admin_forgets_undone"] == [] and server["restore_unchecked"] is None
