"""Every `carto team` command's exit codes are what its --help lists, and every failure with
--json is one document carrying `error` and `exit_code` (beside `state` and `reason` where the
command has them): 2 for what the caller asked wrongly, 1 for what must change first (a grant,
the settings, TLS), 75 only for what a later try may clear (the network, another push)."""

from __future__ import annotations

import json
import re
import socket

import click
import pytest

from carto_core.cli.team_admin import ADMIN_COMMANDS
from carto_core.cli.team_cmd import TEAM_COMMANDS
from carto_core.plugin.resolve import resolve
from teamkit import Machine, activity, make_repo, make_team

#: An admin command's arguments to reach the server at `url`.
ADMIN = {"setup": lambda url: [url, "--team", "acme"], "grant": lambda url: ["bob", "--url", url],
         "revoke": lambda url: ["bob", "--url", url], "reindex": lambda url: ["--url", url],
         "forget": lambda url: ["bob", "--yes", "--url", url]}


def _commands() -> dict[str, click.Command]:
    out = {f"team {name}": resolve(spec) for name, spec in TEAM_COMMANDS.items() if name != "admin"}
    out.update({f"team admin {name}": resolve(spec) for name, spec in ADMIN_COMMANDS.items()})
    return out


def _listed(command: click.Command) -> dict[int, str]:
    """The exit codes a command's --help lists: code -> what it says of it."""
    ctx = click.Context(command, info_name="x")
    text = " ".join(command.get_help(ctx).split())
    found = re.search(r"Exit codes: (.*?)(?:\. [A-Z]|$)", text)
    assert found, f"{command.name}: its --help lists no exit codes"
    parts = re.split(r",? (?=(?:0|1|2|3|4|75) )", found.group(1))
    return {int(p.split(" ", 1)[0]): p.split(" ", 1)[1] for p in parts if p[:1].isdigit()}


def _dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run(machine: Machine, args: list[str], env: dict | None = None):
    result = machine.cli(*args, env=env, check=False)
    return result, (json.loads(result.stdout) if "--json" in args else None)


def _assert_failure(result, document, code: int) -> None:
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.output
    assert document["exit_code"] == code and document["error"], document
    # click's own usage message for a bad flag; carto's line for everything else.
    assert result.stderr.startswith("Usage: " if "No such option" in document["error"] else "carto: "), result.stderr


def test_every_team_command_lists_its_exit_codes_and_a_bad_flag_is_2(tmp_path):
    machine = Machine(tmp_path / "m", "m-box")
    for name, command in _commands().items():
        listed = _listed(command)
        assert 2 in listed and set(listed) <= {0, 1, 2, 3, 4, 75}, (name, listed)
        result, document = _run(machine, [*name.split(), "--no-such-flag", "--json"])
        _assert_failure(result, document, 2)


def _alice_in_the_team(tmp_path, pg_db):
    """A team of one member, alice, whose machine holds a session of her shop checkout and has
    joined: (members, her machine, the checkout)."""
    members = make_team(pg_db, members=("alice",))
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    alice = Machine(tmp_path / "a", "alice-box")
    alice.write_all(activity("s1", shop, start=10))
    alice.join(members["alice"][1], "acme", shop)
    return members, alice, shop


def test_what_a_command_does_is_what_its_help_lists(tmp_path, pg_db):
    """Each scenario's exit code is one the command's --help lists, for the reason it gives."""
    members, alice, shop = _alice_in_the_team(tmp_path, pg_db)
    dead = f"postgresql://nobody@127.0.0.1:{_dead_port()}/carto"
    no_tls = pg_db.url() + "?sslmode=require"
    commands = _commands()
    scenarios = [
        # (command, args, environment, exit code, words of the help's entry for it)
        ("team admin grant", ["bad name", "--url", dead], {}, 2, "bad name"),
        ("team init", [dead, "--team", "acme"], {}, 75, "unreachable"),
        ("team init", [no_tls, "--team", "acme"], {}, 1, "TLS"),
        ("team status", [], {"CARTO_TEAM_URL": dead}, 75, "unreachable"),
        ("team status", [], {"CARTO_TEAM_URL": no_tls}, 1, "TLS"),
        ("team push", [], {"CARTO_TEAM_URL": dead}, 75, "unreachable"),
        ("team push", [], {"CARTO_TEAM_URL": no_tls}, 1, "TLS"),
        ("team forget", ["--project", "github.com/acme/shop"], {}, 2, "--yes"),
        *[(f"team admin {name}", args(dead), {}, 75, "unreachable") for name, args in ADMIN.items()],
        *[(f"team admin {name}", args(no_tls), {}, 1, "") for name, args in ADMIN.items()],
    ]
    for name, args, env, code, words in scenarios:
        listed = _listed(commands[name])
        assert code in listed and words in listed[code], (name, code, listed)
        # The init scenarios run in a home of their own: they rewrite its settings.
        machine = Machine(tmp_path / "i", "i-box") if name == "team init" else alice
        result, document = _run(machine, [*name.split(), *args, "--json"], env)
        _assert_failure(result, document, code)
        if code in (1, 75) and name != "team admin grant":
            state = "tls" if no_tls in args or env.get("CARTO_TEAM_URL") == no_tls else "unreachable"
            where = document["server"] if name == "team status" else document
            assert where["state"] == state, (name, document)
        if "--yes" in words:
            assert "--yes" in document["error"] and "nothing was removed" in document["error"]


def test_tls_the_server_does_not_offer_is_a_settings_problem_with_its_fix(tmp_path, pg_db):
    members = make_team(pg_db, members=("alice",))
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    alice = Machine(tmp_path / "a", "alice-box")
    result = alice.cli("team", "init", members["alice"][1] + "?sslmode=require", "--team", "acme",
                       "--allow", str(shop), check=False)
    assert result.exit_code == 1
    line = result.stderr.strip().splitlines()[-1]
    assert "server does not support SSL" in line and "fix: the server offers no TLS" in line, line
    status = alice.cli("team", "status", check=False)
    assert status.exit_code == 1 and "sslmode=prefer or disable" in status.output


def test_a_second_push_while_one_runs_is_busy_and_75(tmp_path):
    from carto_core.capture.detached import exclusive
    from carto_core.team.push import LOCK, folder

    a = Machine(tmp_path / "a", "alice-box")
    a.cli("team", "init", f"postgresql://nobody@127.0.0.1:{_dead_port()}/carto", "--team", "acme", "--no-check")
    with exclusive(a.home, f"{folder(a.home).name}/{LOCK}") as held:
        assert held
        result, document = _run(a, ["team", "push", "--json"])
        text = a.cli("team", "push", check=False)
    _assert_failure(result, document, 75)
    assert document["state"] == "busy" and document["error"] == "another push of this home is running"
    assert text.exit_code == 75 and "retry" in text.stderr


def test_a_login_refused_under_carto_team_url_names_that_url(tmp_path, pg_db):
    members = make_team(pg_db, members=("alice",))
    role = members["alice"][0]
    a = Machine(tmp_path / "a", "alice-box")
    a.cli("team", "init", members["alice"][1], "--team", "acme")
    other = pg_db.node.url(role, "elsewhere")
    result = a.cli("team", "status", env={"CARTO_TEAM_URL": other}, check=False)
    line = result.output.strip().splitlines()[-1]
    assert result.exit_code == 1 and "refused the login" in line, line
    assert f"CARTO_TEAM_URL's ('{other}')" in line and f"/{pg_db.name}'" not in line


def test_forget_without_yes_and_without_a_terminal_says_yes_is_needed(tmp_path, pg_db):
    from teamkit import server_rows

    members, a, shop = _alice_in_the_team(tmp_path, pg_db)
    a.json("team", "push")
    result, document = _run(a, ["team", "forget", "--project", "github.com/acme/shop", "--json"])
    _assert_failure(result, document, 2)
    assert "--yes" in document["error"] and "remove your rows" in document["error"]
    text = a.cli("team", "forget", "--project", "github.com/acme/shop", check=False)
    assert text.exit_code == 2 and "Aborted!" not in text.output and "give --yes" in text.stderr
    assert len(server_rows(pg_db)) == 6
    assert a.json("team", "forget", "--project", "github.com/acme/shop", "--yes")["removed"] == 6


def test_refused_rows_with_json_say_so_on_stderr_too(tmp_path, pg_db):
    members = make_team(pg_db, members=("alice", "bob"))
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    rows = activity("s1", shop, start=10)
    a = Machine(tmp_path / "a", "alice-box")
    a.write_all(rows)
    a.join(members["alice"][1], "acme", shop)
    a.json("team", "push")
    b = Machine(tmp_path / "b", "bob-box")
    b.write_all(rows)
    b.join(members["bob"][1], "acme", shop)
    result, document = _run(b, ["team", "push", "--json"])
    _assert_failure(result, document, 4)
    assert document["state"] == "refused" and document["error"] == document["reason"]
    assert result.stderr == f"carto: {document['reason']}\n"
    assert "rows were refused, not shared from this machine" in result.stderr


def test_a_server_holding_no_carto_schema_answered_it_is_reachable(tmp_path, pg_db):
    members = make_team(pg_db, members=("alice",))
    a = Machine(tmp_path / "a", "alice-box")
    a.cli("team", "init", members["alice"][1], "--team", "acme")
    other = members["alice"][1].rsplit("/", 1)[0] + "/postgres"
    result, document = _run(a, ["team", "status", "--json"], {"CARTO_TEAM_URL": other})
    _assert_failure(result, document, 1)
    assert document["server"]["state"] == "schema_mismatch" and document["server"]["reachable"] is True
    assert document["error"] == document["server"]["reason"]


@pytest.mark.parametrize("args", [["team", "status"], ["team", "push"]])
def test_without_a_team_the_json_failure_has_the_one_shape(tmp_path, args):
    a = Machine(tmp_path / "a", "alice-box")
    a.home.log("prompts").parent.mkdir(parents=True, exist_ok=True)
    result, document = _run(a, [*args, "--json"])
    _assert_failure(result, document, 1)
