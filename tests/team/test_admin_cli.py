"""`carto team admin` as an administrator runs it from docs/team.md: the member's password never
reaches the server in clear, and the commands work as printed there."""

from __future__ import annotations

import psycopg

from teamkit import Machine


def _setup(admin: Machine, pg_db) -> None:
    admin.json("team", "admin", "setup", pg_db.url(), "--team", "acme", "--model", "none")


def test_a_members_password_reaches_the_server_hashed_never_in_its_log(tmp_path, pg_db):
    admin = Machine(tmp_path / "o", "admin-box")
    _setup(admin, pg_db)
    # A server that logs every statement (as auditing set-ups do) must not log the password.
    pg_db.sql(f'alter database "{pg_db.name}" set log_statement = \'all\'')
    dana = pg_db.role("dana")
    secret = "Tr0ub4dor-and-3-horses"
    admin.json("team", "admin", "grant", dana, "--team", "acme", "--password-stdin",
               input=secret + "\n", env={"CARTO_TEAM_ADMIN_URL": pg_db.url()})
    log = pg_db.node.log.read_text(errors="replace")
    assert f'ALTER ROLE "{dana}"' in log  # the statement was logged ...
    assert secret not in log              # ... without the password
    stored = pg_db.sql("select rolpassword from pg_authid where rolname = %s", (dana,))[0][0]
    assert stored.startswith("SCRAM-SHA-256$")
    with psycopg.connect(host="127.0.0.1", port=pg_db.node.port, dbname=pg_db.name, user=dana,
                         password=secret, connect_timeout=10) as conn:
        assert conn.execute("select current_user").fetchone()[0] == dana


def test_grant_and_revoke_as_printed_in_the_docs_find_the_servers_one_team(tmp_path, pg_db):
    """docs/team.md's step 3 gives no --team: the administrator's machine has no team of its
    own, so the server's only team is the one meant."""
    admin = Machine(tmp_path / "o", "admin-box")
    _setup(admin, pg_db)
    env = {"CARTO_TEAM_ADMIN_URL": pg_db.url()}
    alice, bob = pg_db.role("alice"), pg_db.role("bob")
    granted = admin.cli("team", "admin", "grant", alice, "--password-stdin", input="alice-pw\n", env=env)
    assert granted.output.strip() == f"{alice} created and granted on team acme: *"
    admin.cli("team", "admin", "grant", bob, "--project", "github.com/acme/shop", env=env)
    revoked = admin.cli("team", "admin", "revoke", bob, "--project", "github.com/acme/shop", env=env)
    assert revoked.output.strip() == f"1 grant of {bob} removed from team acme"
    assert pg_db.sql("select team, member, project from carto.members order by member") == [("acme", alice, "*")]
    # Two teams: the command cannot guess, and says how to choose.
    admin.json("team", "admin", "setup", pg_db.url(), "--team", "zeta", "--model", "none")
    ambiguous = admin.cli("team", "admin", "grant", bob, env=env, check=False)
    assert ambiguous.exit_code == 1
    assert ambiguous.output == "carto: the server holds the teams acme and zeta: add --team acme or --team zeta\n"


def test_an_admin_command_on_a_database_without_carto_says_how_to_set_it_up(tmp_path, pg_db):
    admin = Machine(tmp_path / "o", "admin-box")
    env = {"CARTO_TEAM_ADMIN_URL": pg_db.url()}
    dana = pg_db.role("dana")
    for args in (["grant", dana, "--team", "acme"], ["revoke", dana, "--team", "acme"],
                 ["reindex", "--team", "acme"]):
        result = admin.cli("team", "admin", *args, env=env, check=False)
        assert result.exit_code == 1
        assert result.output == (
            f"carto: {pg_db.url().split('://')[1]} holds no carto schema (is it the team's "
            f"database?): `carto team admin setup '{pg_db.url()}' --team acme` sets it up\n")
    # The fix, run as printed.
    fix = result.output.split("`")[1]
    admin.cli(*fix.replace("'", "").split()[1:], "--model", "none")
    assert admin.cli("team", "admin", *args, env=env).output == (
        "not built: the team keeps no vectors (no model)\n")


def test_reindex_of_a_small_team_says_why_in_words(pg_db):
    from carto_core.team import admin
    from teamkit import make_team

    make_team(pg_db, members=(), model="m-test", dim=3)
    with pg_db.connect() as conn:
        assert admin.reindex(conn, "acme")["reason"] == "0 vectors: an exact scan is fast under 50,000"


def test_revoking_a_project_from_a_member_granted_every_project_says_why_nothing_changed(tmp_path, pg_db):
    admin = Machine(tmp_path / "o", "admin-box")
    _setup(admin, pg_db)
    env = {"CARTO_TEAM_ADMIN_URL": pg_db.url()}
    bob = pg_db.role("bob")
    admin.cli("team", "admin", "grant", bob, env=env)
    result = admin.cli("team", "admin", "revoke", bob, "--project", "github.com/acme/shop", env=env, check=False)
    assert result.exit_code == 3
    assert result.output == (
        f"0 grants of {bob} removed from team acme\n"
        f"carto: {bob} holds no grant of github.com/acme/shop on team acme: their grant is * (every "
        f"project); `carto team admin revoke {bob}` takes them all, then grant the projects to keep "
        "with --project\n")
    nobody = admin.cli("team", "admin", "revoke", "zed", env=env, check=False)
    assert nobody.exit_code == 3
    assert nobody.output == "0 grants of zed removed from team acme\ncarto: zed holds no grant on team acme\n"


def test_an_administrator_without_a_home_removes_a_revoked_members_rows(tmp_path, pg_db, monkeypatch):
    monkeypatch.setattr("carto_core.cli.team_cmd.can_ask", lambda: True)  # a person at a terminal
    """docs/team.md: revoke the person, then remove their rows; the administrator's machine
    needs no carto home, and keeps the forget alone (to make it again after a restore)."""
    from teamkit import activity, make_repo, make_team, server_rows

    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    members = make_team(pg_db)
    bob = Machine(tmp_path / "b", "bob-box")
    bob.write_all(activity("s-bob", shop, start=20))
    bob.join(members["bob"][1], "acme", shop)
    assert bob.json("team", "push")["inserted"] == 6
    role = members["bob"][0]
    admin = Machine(tmp_path / "o", "admin-box")
    admin.home.root.rmdir()  # an administrator's box: no carto home
    env = {"CARTO_TEAM_ADMIN_URL": pg_db.url()}
    admin.cli("team", "admin", "revoke", role, env=env)
    told = bob.cli("team", "forget", "--project", "github.com/acme/shop", "--yes", check=False).output
    fix = told.split("`")[1]
    assert fix == f"carto team admin forget {role} --team acme"
    kept = admin.cli(*fix.split()[1:], env=env, input="n\n", check=False)
    assert kept.exit_code == 1 and kept.output.startswith(f"remove every row of {role} from team acme? [y/N]: n")
    assert len(server_rows(pg_db)) == 6
    done = admin.cli(*fix.split()[1:], "--yes", env=env)
    assert done.output == f"removed 6 rows of {role} from team acme\n"
    assert server_rows(pg_db) == []
    assert pg_db.sql("select action, removed from carto.audit where action = 'forget'") == [("forget", 6)]
    assert [p.relative_to(admin.home.root).as_posix() for p in admin.home.root.rglob("*") if p.is_file()] == [
        ".carto/team/forgets.json"]


class _Conn:
    closed = False

    def close(self):
        self.closed = True


def _work(failure):
    """A team command doing its work through `team_work` on a stand-in connection, failing as
    `failure` says; returns (the connection, the command)."""
    import click

    from carto_core.cli.team_admin import AdminTarget
    from carto_core.cli.team_cmd import team_work
    from carto_core.team.admin import AdminError
    from carto_core.util.output import emit_json, json_option

    conn = _Conn()

    @click.command()
    @json_option
    def command(as_json):
        with team_work(conn, AdminTarget("postgresql://owner@127.0.0.1:5/carto"), as_json, AdminError):
            if failure == "question":
                click.confirm("go on?", abort=True, err=True)
            elif failure is not None:
                raise failure
            document = {"done": True}
        emit_json(document)

    return conn, command


def test_a_team_commands_work_closes_its_connection_and_ends_a_failure_in_one_line():
    from click.testing import CliRunner

    from carto_core.team.admin import AdminError
    from carto_core.team.connect import TeamDenied

    where = "owner@127.0.0.1:5/carto"
    cases = [
        (None, [], 0, '{\n  "done": true\n}\n'),
        (psycopg.errors.InsufficientPrivilege("permission denied for table members"), [], 1,
         f"carto: the team server {where} refused: permission denied for table members\n"),
        (psycopg.errors.InsufficientPrivilege("permission denied for table members"), ["--json"], 1,
         f"carto: the team server {where} refused: permission denied for table members\n"
         '{\n  "state": "denied",\n  "reason": "the team server ' + where
         + ' refused: permission denied for table members",\n  "error": "the team server ' + where
         + ' refused: permission denied for table members",\n  "exit_code": 1\n}\n'),
        (psycopg.OperationalError("server closed the connection unexpectedly"), [], 75,
         f"carto: the team server {where} is unreachable: server closed the connection unexpectedly\n"),
        (TeamDenied("bob does not own carto's schema"), ["--json"], 1,
         "carto: bob does not own carto's schema\n"
         '{\n  "state": "denied",\n  "reason": "bob does not own carto\'s schema",\n'
         '  "error": "bob does not own carto\'s schema",\n  "exit_code": 1\n}\n'),
        # The command's own refusal: one line, exit 1, with --json too.
        (AdminError("no team 'zeta' on this server"), ["--json"], 1, "carto: no team 'zeta' on this server\n"),
        ("question", [], 1, "go on? [y/N]: n\nAborted!\n"),
    ]
    for failure, args, code, output in cases:
        conn, command = _work(failure)
        result = CliRunner().invoke(command, args, input="n\n")
        assert (result.exit_code, result.output) == (code, output), failure
        assert conn.closed, failure
