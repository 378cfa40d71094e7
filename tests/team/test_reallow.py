"""A project allowed again after it left this home's allow list is caught up from the start:
its rows may have left the server with it (`carto team forget` clears the list)."""

from __future__ import annotations

import pytest

from teamkit import Machine, activity, make_repo, make_team, server_rows


@pytest.mark.parametrize("how", ["forget --user", "forget --project", "allow --remove"])
@pytest.mark.parametrize("push_between", [True, False])
def test_a_project_allowed_again_is_caught_up(tmp_path, pg_db, how, push_between):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    members = make_team(pg_db)
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(activity("s-1", shop, start=60))
    a.join(members["alice"][1], "acme", shop)
    pushed = a.json("team", "push")["inserted"]
    sent = {r[0] for r in server_rows(pg_db)}
    if how == "forget --user":
        a.json("team", "forget", "--user", members["alice"][0], "--yes")
    elif how == "forget --project":
        a.json("team", "forget", "--project", "github.com/acme/shop", "--yes")
    else:
        a.json("team", "allow", "--remove", "github.com/acme/shop")
        a.json("team", "forget", "--project", "github.com/acme/shop", "--yes")
    assert server_rows(pg_db) == [] and a.json("team", "allow")["projects"] == []
    if push_between:
        assert a.cli("team", "push", "--json", check=False).exit_code == 3
    a.json("team", "allow", str(shop))
    assert a.json("team", "status")["local"]["catch_up"] == ["github.com/acme/shop"]
    again = a.json("team", "push")
    assert again["inserted"] == pushed and {r[0] for r in server_rows(pg_db)} == sent
    assert a.json("team", "push")["sent"] == 0
