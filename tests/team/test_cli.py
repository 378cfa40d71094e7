"""`carto team init|allow|status|forget|admin`: settings that never hold a password in clear,
answers without tracebacks, exit codes, and taking rows back."""

from __future__ import annotations

import json
import os
import stat

import pytest

from carto_core.team.schema import SCHEMA_VERSION
from teamkit import Machine, activity, make_repo, make_team, server_rows


@pytest.fixture
def world(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    members = make_team(pg_db)
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(activity("s-shop-1", shop, start=60))
    return {"shop": shop, "members": members, "a": a, "db": pg_db}


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_password_in_the_url_goes_to_a_0600_password_file_never_into_the_settings(world):
    a = world["a"]
    role, url = world["members"]["alice"]
    password = url.split(":", 2)[2].split("@")[0]
    document = a.join(url, "acme", world["shop"])
    assert document["checked"] is True and document["password"] == "password file (0600)"
    team_dir = a.home.state / "team"
    settings = (team_dir / "team.json").read_text()
    assert password not in settings and role in settings
    assert password in (team_dir / "pgpass").read_text()
    assert (_mode(team_dir), _mode(team_dir / "team.json"), _mode(team_dir / "pgpass")) == (0o700, 0o600, 0o600)
    assert a.json("team", "push")["inserted"] == 6
    status = a.json("team", "status")
    assert password not in json.dumps(status)
    assert status["server"]["login"] == role and status["server"]["team_events"] == 6
    assert status["server"]["grants"] == [{"project": "*", "write": True}]


def test_init_on_a_home_of_logs_alone_makes_its_state_folder_private(world):
    a = world["a"]
    assert not a.home.state.exists()  # the logs alone, as a home copied or restored by hand
    previous = os.umask(0o022)
    try:
        a.join(world["members"]["alice"][1], "acme", world["shop"])
        a.json("team", "push")
    finally:
        os.umask(previous)
    assert _mode(a.home.state) == 0o700 and _mode(a.home.state / "team") == 0o700


def test_a_url_without_password_takes_it_from_the_environment(world):
    a = world["a"]
    role, url = world["members"]["alice"]
    password = url.split(":", 2)[2].split("@")[0]
    bare = world["db"].url(role)
    result = a.cli("team", "init", bare, "--team", "acme", "--allow", str(world["shop"]), "--json", check=False)
    assert result.exit_code == 1 and json.loads(result.stdout)["state"] == "denied"
    assert not (a.home.state / "team" / "pgpass").exists()
    assert a.json("team", "push", env={"PGPASSWORD": password})["inserted"] == 6
    wrong = a.cli("team", "push", env={"PGPASSWORD": "nope"}, check=False)
    assert wrong.exit_code == 1 and "refused the login" in wrong.output and "nope" not in wrong.output


def test_status_answers_the_local_side_when_the_server_is_down(world):
    a = world["a"]
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    db = world["db"]
    port = db.node.port
    result = a.cli("team", "status", "--json", env={"CARTO_TEAM_URL": f"postgresql://x@127.0.0.1:{port + 1 if port < 65000 else port - 1}/none"},
                   check=False)
    assert result.exit_code == 75
    document = json.loads(result.stdout)
    assert document["server"]["reachable"] is False and document["server"]["state"] == "unreachable"
    assert document["local"]["pending_bytes"] > 0 and document["local"]["team"] == "acme"
    text = a.cli("team", "status", env={"CARTO_TEAM_URL": "postgresql://x@127.0.0.1:1/none"}, check=False)
    assert "Traceback" not in text.output and "pending:" in text.output


def test_commands_without_a_team_say_how_to_set_one_up(world):
    result = world["a"].cli("team", "push", check=False)
    assert result.exit_code == 1 and "carto team init" in result.output


def test_forget_a_project_removes_its_rows_audits_it_and_stops_sending_it(world):
    a, db = world["a"], world["db"]
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    a.json("team", "push")
    assert len(server_rows(db)) == 6
    document = a.json("team", "forget", "--project", "github.com/acme/shop", "--yes")
    assert document["removed"] == 6 and document["disallowed_here"] == ["github.com/acme/shop"]
    assert server_rows(db) == []
    audit = db.sql("select member, action, removed from carto.audit where action = 'forget'")
    assert audit == [(world["members"]["alice"][0], "forget", 6)]
    assert db.sql("select events from carto.tallies")[0][0] == 0
    # Not sent again.
    assert a.cli("team", "push", "--json", check=False).exit_code == 3
    assert server_rows(db) == []


def test_forget_another_persons_rows_needs_the_owner(world, tmp_path):
    a, db = world["a"], world["db"]
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    a.json("team", "push")
    bob = Machine(tmp_path / "b", "bob-desktop")
    bob.join(world["members"]["bob"][1], "acme")
    alice_role = world["members"]["alice"][0]
    refused = bob.cli("team", "forget", "--user", alice_role, "--yes", "--json", check=False)
    assert refused.exit_code == 1 and json.loads(refused.stdout)["state"] == "denied"
    assert len(server_rows(db)) == 6
    owner = Machine(tmp_path / "o", "admin-box")
    owner.cli("team", "init", db.url(), "--team", "acme")
    gone = owner.json("team", "forget", "--user", alice_role, "--yes")
    assert gone["removed"] == 6 and gone["as_owner"] and gone["authors"] == [alice_role]
    assert server_rows(db) == []


def test_admin_setup_grant_revoke_from_the_command_line(tmp_path, pg_db):
    shop = make_repo(tmp_path / "shop", "git@github.com:acme/shop.git")
    admin = Machine(tmp_path / "o", "admin-box")
    setup = admin.json("team", "admin", "setup", pg_db.url(), "--team", "acme", "--model", "none")
    assert setup["schema"] == SCHEMA_VERSION and setup["model"] is None
    again = admin.json("team", "admin", "setup", pg_db.url(), "--team", "acme", "--model", "none")
    assert again["schema_before"] == SCHEMA_VERSION
    dana = pg_db.role("dana")
    env = {"CARTO_TEAM_ADMIN_URL": pg_db.url()}
    granted = admin.json("team", "admin", "grant", dana, "--team", "acme", "--project", "git@github.com:acme/shop.git",
                         "--password-stdin", input="dana-secret\n", env=env)
    assert granted["created"] and granted["grants"] == [{"member": dana, "project": "github.com/acme/shop", "write": True}]
    machine = Machine(tmp_path / "d", "dana-box")
    machine.write_all(activity("s-d", shop, start=30))
    machine.join(pg_db.url(f"{dana}:dana-secret"), "acme", shop)
    assert machine.json("team", "push")["inserted"] == 6
    revoked = admin.json("team", "admin", "revoke", dana, "--team", "acme", env=env)
    assert revoked["grants_removed"] == 1
    machine.write_all(activity("s-d2", shop, start=10))
    denied = machine.cli("team", "push", "--json", check=False)
    assert denied.exit_code == 1 and json.loads(denied.stdout)["state"] == "denied"
    bad = admin.cli("team", "admin", "grant", "no way", "--team", "acme", env=env, check=False)
    assert bad.exit_code == 2 and "role name" in bad.output


def test_a_revoked_member_is_told_so_with_the_command_that_lets_them_back(world, tmp_path):
    a, db = world["a"], world["db"]
    role = world["members"]["alice"][0]
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    a.json("team", "push")
    admin = Machine(tmp_path / "o", "admin-box")
    env = {"CARTO_TEAM_ADMIN_URL": db.url()}
    admin.cli("team", "admin", "revoke", role, "--team", "acme", env=env)
    fix = f"`carto team admin grant {role} --team acme`"
    told = (f"{role} is not a member of team acme on {role}@127.0.0.1:{db.node.port}/{db.name} "
            f"(revoked, never granted, or no such team): the team's administrator runs {fix}")
    status = a.cli("team", "status", check=False)
    assert status.exit_code == 1
    assert status.output.splitlines()[-1] == f"server: {told}"
    pushed = a.cli("team", "push", "--json", check=False)
    assert pushed.exit_code == 1 and json.loads(pushed.stdout)["reason"] == told
    forgot = a.cli("team", "forget", "--project", "github.com/acme/shop", "--yes", check=False)
    assert forgot.exit_code == 1
    assert forgot.output == (f"carto: {role} is not a member of team acme any more: {role}'s rows there are "
                             f"removed by the team's administrator (`carto team admin forget {role} "
                             "--team acme`)\n")
    assert len(server_rows(db)) == 6
    # The fix, run as printed.
    admin.cli(*fix.strip("`").split()[1:], env=env)
    assert a.cli("team", "status").exit_code == 0


def test_a_login_without_its_password_is_told_the_command_that_asks_for_it(world):
    a, db = world["a"], world["db"]
    role, url = world["members"]["alice"]
    password = url.split(":", 2)[2].split("@")[0]
    bare = db.url(role)
    fix = f"carto team init '{bare}' --team acme --password-stdin"
    where = f"{role}@127.0.0.1:{db.node.port}/{db.name}"
    first = a.cli("team", "init", bare, "--team", "acme", "--allow", str(world["shop"]), check=False)
    assert first.exit_code == 1
    assert first.output.splitlines()[-1] == (
        f"carto: settings kept, but the team server {where} refused the login: no password "
        f"supplied (fix: `{fix}` asks for it and keeps it in the password file)")
    wrong = a.cli("team", "status", env={"PGPASSWORD": "not-it"}, check=False)
    assert wrong.exit_code == 1 and "not-it" not in wrong.output
    assert wrong.output.splitlines()[-1] == (
        f"server: the team server {where} refused the login: password authentication failed for "
        f'user "{role}" (fix: `{fix}` asks for it and keeps it in the password file)')
    # The fix, run as printed (the password typed, or piped).
    fixed = a.cli(*fix.replace("'", "").split()[1:], input=password + "\n")
    assert "the server answered" in fixed.output and password not in fixed.output
    assert password not in (a.home.state / "team" / "team.json").read_text()
    assert a.json("team", "push")["inserted"] == 6
    assert a.cli("team", "init", url, "--team", "acme", "--password-stdin", input=password + "\n",
                 check=False).exit_code == 2


def test_status_counts_the_whole_last_push_not_its_last_batch(world):
    a = world["a"]
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    pushed = a.json("team", "push", "--batch", "2")
    assert pushed["batches"] > 1 and pushed["sent"] == 6
    last = a.json("team", "status")["server"]["last_push"]
    assert (last["sent"], last["inserted"], last["batches"]) == (6, 6, pushed["batches"])
    line = [x for x in a.cli("team", "status").output.splitlines() if x.startswith("your last push")]
    assert line and line[0].endswith(f"from alice-laptop: 6 sent in {pushed['batches']} batches, 6 new, 0 refused")


def test_a_database_that_is_not_the_teams_is_said_so_with_a_stable_code(world):
    a, db = world["a"], world["db"]
    role, url = world["members"]["alice"]
    other = url.rsplit("/", 1)[0] + "/postgres"  # the server's own database: no carto there
    result = a.cli("team", "init", other, "--team", "acme", check=False)
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        f"carto: settings kept, but {role}@127.0.0.1:{db.node.port}/postgres holds no carto schema: "
        "the URL names a database that is not the team's (`carto team init URL --team acme` with "
        "the team's URL), or the team's administrator has not run `carto team admin setup` there yet")
    for args in (["team", "status"], ["team", "push"]):
        assert a.cli(*args, check=False).exit_code == 1
    searched = a.json("search", "discount", "--team", check=False)
    assert searched["team"]["state"] == "schema_mismatch"


def test_forgets_question_says_whose_rows_go(world, tmp_path, monkeypatch):
    monkeypatch.setattr("carto_core.cli.team_cmd.can_ask", lambda: True)  # a person at a terminal
    a, db = world["a"], world["db"]
    role = world["members"]["alice"][0]
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    a.json("team", "push")
    kept = a.cli("team", "forget", "--project", "github.com/acme/shop", input="n\n", check=False)
    assert kept.exit_code == 1 and len(server_rows(db)) == 6
    assert kept.output.splitlines()[0] == (
        f"remove your rows ({role}) of project github.com/acme/shop from team acme? [y/N]: n")
    owner = Machine(tmp_path / "o", "admin-box")
    owner.cli("team", "init", db.url(), "--team", "acme")
    asked = owner.cli("team", "forget", "--project", "github.com/acme/shop", input="n\n", check=False)
    assert asked.output.splitlines()[0] == (
        "remove every author's rows of project github.com/acme/shop from team acme (as the schema's "
        "owner)? [y/N]: n")


def test_allow_refuses_a_folder_that_does_not_exist_rather_than_taking_it_for_a_key(world):
    a = world["a"]
    a.join(world["members"]["alice"][1], "acme")
    typo = str(world["shop"]) + "-typo"
    result = a.cli("team", "allow", typo, check=False)
    assert result.exit_code == 2
    assert result.output == (f"carto: {typo}: no such folder (a project is a checkout's folder, or "
                             "its key: host/owner/name)\n")
    assert a.json("team", "allow")["projects"] == []
    assert a.json("team", "allow", "git@github.com:Acme/Infra.git")["added"][0]["key"] == "github.com/acme/infra"
