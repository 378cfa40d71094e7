"""`carto team push`'s summary counts what it says: the rows that stayed here because their
project is not allowed, not the rows a catch-up re-read of a project sent before."""

from __future__ import annotations

import pytest

from teamkit import Machine, activity, make_repo, make_team


@pytest.fixture
def world(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    secret = make_repo(tmp_path / "a" / "secret", "https://github.com/acme/secret")
    private = make_repo(tmp_path / "a" / "private", "https://github.com/acme/private")
    members = make_team(pg_db)
    a = Machine(tmp_path / "a", "alice-laptop")
    return {"shop": shop, "secret": secret, "private": private, "members": members, "a": a}


def _count(rows: dict[str, list[dict]]) -> int:
    return sum(len(items) for items in rows.values())


def test_a_catch_up_counts_as_not_allowed_only_the_rows_of_projects_not_allowed(world):
    a = world["a"]
    a.write_all(activity("s-shop-1", world["shop"], start=60))
    a.write_all(activity("s-secret-1", world["secret"], start=50))
    private = activity("s-private-1", world["private"], start=40)
    a.write_all(private)
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    first = a.json("team", "push")
    a.cli("team", "allow", str(world["secret"]))
    caught = a.json("team", "push")
    assert caught["sent"] > 0 and first["state"] == caught["state"] == "ok"
    # The catch-up re-reads shop's rows (sent by the first push) for secret alone: they did not
    # stay because shop is not allowed.
    assert caught["not_allowed"] == _count(private)
    text = a.cli("team", "push", "--from-start").output
    assert f"{_count(private)} rows of projects not allowed stayed here" in text
