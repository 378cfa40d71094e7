"""`carto forget --project P --write` on a home with a team: the project's rows leave the team
server too (this person's, audited there), and the project leaves this home's allow list, so
the next push sends nothing and the settings no longer name it."""

from __future__ import annotations

import json

from teamkit import Machine, activity, make_repo, make_team, server_rows


def test_a_local_forget_of_a_project_forgets_it_on_the_team_server(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    members = make_team(pg_db)
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(activity("s-shop-1", shop, start=60))
    a.join(members["alice"][1], "acme", shop)
    a.json("team", "push")
    assert len(server_rows(pg_db)) == 6

    dry = a.json("forget", "--project", "shop")
    assert dry["team"] == {"outcome": "would forget", "projects": ["shop"]}
    assert len(server_rows(pg_db)) == 6
    done = a.json("forget", "--project", "shop", "--write")
    assert done["team"] == {"outcome": "forgotten", "removed": 6, "disallowed": 1}
    assert server_rows(pg_db) == []
    settings = json.loads((a.home.state / "team" / "team.json").read_text())
    assert settings["projects"] == []
    assert b"acme/shop" not in (a.home.state / "team" / "team.json").read_bytes()
    assert a.cli("team", "push", "--json", check=False).exit_code == 3


def test_other_criteria_are_not_sent_and_say_what_to_run(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    members = make_team(pg_db)
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(activity("s-shop-1", shop, start=60))
    a.join(members["alice"][1], "acme", shop)
    a.json("team", "push")
    done = a.json("forget", "--session", "s-shop-1", "--write")
    assert done["team"]["outcome"] == "not sent" and "carto team forget" in done["team"]["why"]
    assert len(server_rows(pg_db)) == 6


def test_the_team_servers_part_of_a_forget_is_said_in_words(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    members = make_team(pg_db)
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(activity("s-shop-1", shop, start=60))
    a.join(members["alice"][1], "acme", shop)
    a.json("team", "push")

    def team_line(*args: str) -> str:
        lines = [line for line in a.cli("forget", *args).output.splitlines() if line.startswith("team server")]
        assert len(lines) == 1
        return lines[0]

    assert team_line("--session", "s-shop-1") == (
        "team server: left as it is (it forgets whole projects: `carto team forget --project KEY` "
        "there, or forget with --project alone)")
    assert team_line("--project", "shop") == (
        "team server: your rows of shop would be removed, and shop no longer allowed from this home")
    down = a.cli("forget", "--project", "shop", "--write",
                 env={"CARTO_TEAM_URL": "postgresql://nobody@127.0.0.1:1/none"}).output.splitlines()
    assert [line for line in down if line.startswith("team server")] == [
        "team server: not reached (the team server nobody@127.0.0.1:1/none is unreachable: "
        "Connection refused); this home's forget stands: run `carto team forget --project shop` "
        "when it answers"]
    assert len(server_rows(pg_db)) == 6
    a.write_all(activity("s-shop-2", shop, start=30))
    a.cli("team", "allow", str(shop))
    a.json("team", "push")
    assert team_line("--project", "shop", "--write") == (
        "team server: 12 rows removed, 1 project no longer allowed from this home")
    assert server_rows(pg_db) == []
