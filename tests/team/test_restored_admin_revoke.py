"""A team server restored to a point before a `carto team admin revoke` holds the member's
grants again: the revoked person can read and push again. The administrator's machine remembers
the revoke (its audit row's id) beside its forgets; `carto team status` there, connected as the
schema's owner, says the grants are back, and the next `carto team admin revoke` from it asks,
naming them, then revokes them again."""

from __future__ import annotations

import json

import pytest

from test_restored_admin_forget import world  # noqa: F401 - fixture
from test_restored_server import dump, restore


def _grants(db, role) -> list[tuple]:
    return db.sql("select project, can_write from carto.members where team = 'acme' and member = %s "
                  "order by project", (role,))


def _revokes(db) -> list[tuple]:
    return db.sql("select member, removed, detail->>'user', detail->'grants' from carto.audit "
                  "where action = 'revoke' order by id")


def _records(admin) -> list[dict]:
    [records] = json.loads((admin.home.root / ".carto/team/forgets.json").read_text())["servers"].values()
    return records


@pytest.fixture
def undone(world):  # noqa: F811
    """`world` with bob revoked by the administrator, then the server restored to the point
    before: bob's grant is back."""
    db, bob, admin, env = world["db"], world["bob"], world["admin"], world["env"]
    earlier = dump(db)
    done = admin.json("team", "admin", "revoke", bob, env=env)
    assert (done["grants_removed"], done["grants"]) == (1, ["*"])
    assert _grants(db, bob) == []
    restore(db, earlier)
    assert _grants(db, bob) == [("*", True)]
    return world


def test_a_revoke_is_remembered_with_its_audit_row(undone):
    db, bob, admin = undone["db"], undone["bob"], undone["admin"]
    [record] = _records(admin)
    owner = db.sql("select current_user")[0][0]
    assert {k: record[k] for k in ("action", "login", "user", "grants", "asked")} == {
        "action": "revoke", "login": owner, "user": bob, "grants": ["*"],
        "asked": {"user": bob, "projects": None}}
    assert _revokes(db) == []  # the restore took the audit row with the revoke


def test_team_status_says_the_grants_are_back_as_the_owner_and_that_it_cannot_check_otherwise(undone):
    db, bob, admin = undone["db"], undone["bob"], undone["admin"]
    at = _records(admin)[0]["at"]
    shop = admin.root / "code" / "shop"
    from teamkit import make_repo

    admin.join(undone["members"]["alice"][1], "acme", make_repo(shop, "git@github.com:acme/shop.git"))
    member = admin.json("team", "status")["server"]
    assert member["admin_revokes_undone"] == []
    assert member["restore_unchecked"] == (
        "whether the team server still holds 1 revoke made here by `carto team admin revoke` is not checked: "
        "only the schema's owner reads its audit rows (the next `carto team admin` command from here checks it)")
    owner = {"CARTO_TEAM_URL": db.url()}
    server = admin.json("team", "status", env=owner)["server"]
    assert server["admin_revokes_undone"] == [{"user": bob, "grants": ["*"], "at": at}]
    assert server["admin_forgets_undone"] == [] and server["restore_unchecked"] is None
    text = admin.cli("team", "status", env=owner).stdout.splitlines()
    assert (f"server: it holds again the grants of {bob} (*) the `carto team admin revoke` made here at {at} "
            "took (restored to an earlier point?): the next `carto team admin revoke` from here revokes them "
            "again (it asks first)") in text
    assert _grants(db, bob) == [("*", True)]  # a status changes nothing


def test_other_admin_commands_say_so_and_leave_the_grants(undone):
    db, bob, admin, env = undone["db"], undone["bob"], undone["admin"], undone["env"]
    at = _records(admin)[0]["at"]
    result = admin.cli("team", "admin", "reindex", env=env)
    assert result.stderr.splitlines() == [
        f"note: the team server holds again the grants of {bob} (*) the revoke made here at {at} took "
        "(restored to an earlier point?): the next `carto team admin revoke` from here revokes them again "
        "(it asks first)"]
    assert _grants(db, bob) == [("*", True)]


def test_the_next_revoke_asks_then_revokes_again_and_the_member_is_refused(undone, monkeypatch, tmp_path):
    from teamkit import Machine, make_repo

    db, bob, admin, env = undone["db"], undone["bob"], undone["admin"], undone["env"]
    carol = undone["members"]["carol"][0]
    at = _records(admin)[0]["at"]
    question = (f"remove the grants of {carol} from team acme, and revoke again what the team server holds "
                f"again (restored to an earlier point?) of the revoke of {bob} made here at {at}, *?")
    refused = admin.cli("team", "admin", "revoke", carol, env=env, check=False)
    assert refused.exit_code == 2
    assert refused.stderr.splitlines() == [
        f"carto: nothing was removed: without a terminal to ask ({question}) give --yes"]
    assert _grants(db, bob) == [("*", True)] and _grants(db, carol) == [("*", True)]

    monkeypatch.setattr("carto_core.cli.team_cmd.can_ask", lambda: True)  # a person at a terminal
    declined = admin.cli("team", "admin", "revoke", carol, env=env, input="n\n", check=False)
    assert declined.exit_code == 1 and declined.stderr.startswith(f"{question} [y/N]: n")
    assert _grants(db, bob) == [("*", True)] and _revokes(db) == []

    done = admin.cli("team", "admin", "revoke", carol, "--yes", env=env)
    assert done.stdout == f"1 grant of {carol} removed from team acme\n"
    assert done.stderr.splitlines() == [
        f"note: the team server held again the grants of {bob} (*) the revoke made here at {at} took "
        "(restored to an earlier point?): revoked again, 1 grant removed"]
    assert _grants(db, bob) == [] and _grants(db, carol) == []
    owner = db.sql("select current_user")[0][0]
    assert _revokes(db) == [(owner, 1, carol, ["*"]), (owner, 1, bob, ["*"])]
    assert [(r["user"], r["grants"]) for r in _records(admin)] == [(bob, ["*"]), (carol, ["*"])]

    # bob's connection is refused again, and nothing is revoked again a second time
    shop = make_repo(tmp_path / "b2" / "code" / "shop", "git@github.com:acme/shop.git")
    box = Machine(tmp_path / "b2", "bob-box-2")
    box.join(undone["members"]["alice"][1], "acme", shop)
    told = box.cli("team", "status", env={"CARTO_TEAM_URL": undone["members"]["bob"][1]}, check=False)
    assert told.exit_code == 1
    assert told.output.splitlines()[-1].startswith(f"server: {bob} is not a member of team acme on ")
    again = admin.cli("team", "admin", "reindex", env=env)
    assert again.stderr == "" and len(_revokes(db)) == 2
    admin.join(undone["members"]["alice"][1], "acme", make_repo(admin.root / "code" / "shop",
                                                                "git@github.com:acme/shop.git"))
    server = admin.json("team", "status", env={"CARTO_TEAM_URL": db.url()})["server"]
    assert server["admin_revokes_undone"] == [] and server["restore_unchecked"] is None


def test_revoking_the_same_member_again_takes_the_grants_once(undone):
    db, bob, admin, env = undone["db"], undone["bob"], undone["admin"], undone["env"]
    done = admin.cli("team", "admin", "revoke", bob, "--yes", env=env)
    assert done.stdout == f"1 grant of {bob} removed from team acme\n" and done.stderr == ""
    assert _grants(db, bob) == []
    owner = db.sql("select current_user")[0][0]
    assert _revokes(db) == [(owner, 1, bob, ["*"])]
    [record] = _records(admin)  # the new revoke stands for the one the restore undid
    assert record["audit"] == db.sql("select id from carto.audit where action = 'revoke'")[0][0]


def test_a_grant_from_here_after_the_revoke_is_not_undone_by_the_memory(world):  # noqa: F811
    """Granting the member again from this machine takes back the revoke it remembers: a restore
    to before both brings the grant back, which is what the administrator last asked for."""
    db, bob, admin, env = world["db"], world["bob"], world["admin"], world["env"]
    earlier = dump(db)
    admin.json("team", "admin", "revoke", bob, env=env)
    admin.json("team", "admin", "grant", bob, env=env)
    assert _records(admin) == []
    restore(db, earlier)
    result = admin.cli("team", "admin", "reindex", env=env)
    assert result.stderr == "" and _grants(db, bob) == [("*", True)]


def test_a_revoke_of_some_projects_stands_for_those_and_the_others_are_revoked_again(world):  # noqa: F811
    db, admin, env = world["db"], world["admin"], world["env"]
    dana = db.role("dana")
    shop, blog = "github.com/acme/shop", "github.com/acme/blog"
    admin.json("team", "admin", "grant", dana, "--project", shop, "--project", blog, env=env)
    earlier = dump(db)
    assert admin.json("team", "admin", "revoke", dana, env=env)["grants"] == [blog, shop]
    at = _records(admin)[0]["at"]
    restore(db, earlier)
    done = admin.cli("team", "admin", "revoke", dana, "--project", shop, "--yes", env=env)
    assert done.stdout == f"1 grant of {dana} removed from team acme\n"
    assert done.stderr.splitlines() == [
        f"note: the team server held again the grants of {dana} ({blog}) the revoke made here at {at} took "
        "(restored to an earlier point?): revoked again, 1 grant removed"]
    assert _grants(db, dana) == []
    assert [(r["user"], r["grants"]) for r in _records(admin)] == [(dana, [blog]), (dana, [shop])]
    assert [r[2:] for r in _revokes(db)] == [(dana, [shop]), (dana, [blog])]
