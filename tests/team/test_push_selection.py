"""Which rows a push sends: only rows that belong to an allowed project by what they hold
(the repository of their `cwd`, a commit's own remote), never by a local name they share with
one, and never rows the machine's current `[capture] exclude` keeps out."""

from __future__ import annotations

import pytest

from teamkit import Machine, activity, make_repo, make_team, server_rows


@pytest.fixture
def world(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "code" / "shop", "git@github.com:acme/shop.git")
    members = make_team(pg_db)
    a = Machine(tmp_path / "a", "alice-laptop")
    return {"shop": shop, "members": members, "a": a, "db": pg_db, "tmp": tmp_path}


def ids_of(rows: dict[str, list[dict]]) -> set[str]:
    return {row["event_id"] for items in rows.values() for row in items if "cwd" in row}


def test_rows_of_a_plain_folder_named_like_an_allowed_checkout_stay_here(world):
    a, db, tmp = world["a"], world["db"], world["tmp"]
    shop_rows = activity("s-shop", world["shop"], start=60, turns=0)
    # Folders called `shop` that are no checkout of github.com/acme/shop: one plain folder,
    # one deleted since its rows were written.
    plain = tmp / "a" / "scratch2" / "shop"
    plain.mkdir(parents=True)
    gone = tmp / "a" / "old" / "shop"
    gone.mkdir(parents=True)
    plain_rows = activity("s-plain", plain, start=50, turns=0, tag="platypusnda")
    gone_rows = activity("s-gone", gone, start=40, turns=0, tag="platypusnda")
    gone.rmdir()
    for rows in (shop_rows, plain_rows, gone_rows):
        a.write_all(rows)
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    report = a.json("team", "push")
    assert report["state"] == "ok", report
    held = {r[0] for r in server_rows(db)}
    assert held == ids_of(shop_rows)
    assert not held & (ids_of(plain_rows) | ids_of(gone_rows))
    assert report["not_allowed"] == sum(len(v) for v in plain_rows.values()) + sum(len(v) for v in gone_rows.values())
    assert not db.sql("select 1 from carto.events where summary like '%%platypusnda%%'")


def _git_row(sha: str, project: str, url: str | None, summary: str) -> dict:
    """A commit as the git plugin writes it (`plugins/git`: no cwd, its remote in `url`)."""
    from carto_core.logio.logs import order_row
    from teamkit import stamp

    return order_row("changelog-git", {
        "event_id": f"git-{sha[:7]}", "timestamp": stamp(30), "type": "git_commit", "project": project,
        "summary": f"Commit {sha[:7]}: {summary}", "commit_hash": sha, "author": "Alice",
        "url": url, "files_changed": 1, "related_ids": []})


def test_a_commit_row_goes_by_its_own_remote_not_its_local_name(world):
    a, db = world["a"], world["db"]
    ours = _git_row("a" * 40, "shop", "https://github.com/acme/shop/commit/" + "a" * 40, "feat: cart")
    gitlab = _git_row("b" * 40, "shop", "https://gitlab.com/Acme/shop/-/commit/" + "b" * 40, "fix: the mirror")
    personal = _git_row("c" * 40, "shop", "https://github.com/alicepersonal/shop/commit/" + "c" * 40,
                        "wip: platypusnda draft")
    unknown = _git_row("d" * 40, "shop", None, "wip: platypusnda local remote")
    a.write("changelog", [ours, gitlab, personal, unknown])
    other = make_repo(world["tmp"] / "a" / "code" / "mirror", "git@gitlab.com:acme/shop.git")
    a.join(world["members"]["alice"][1], "acme", world["shop"], other)
    report = a.json("team", "push")
    assert report["state"] == "ok", report
    held = {r[0]: r[1] for r in server_rows(db, columns="event_id, project_key")}
    assert held == {"git-aaaaaaa": "github.com/acme/shop", "git-bbbbbbb": "gitlab.com/acme/shop"}
    assert report["not_allowed"] == 2
    assert not db.sql("select 1 from carto.events where summary like '%%platypusnda%%'")


@pytest.mark.parametrize("url, key", [
    ("https://github.com/acme/shop/commit/" + "a" * 40, "github.com/acme/shop"),
    ("https://gitlab.example.com/Group/Sub/repo/-/commit/" + "b" * 40, "gitlab.example.com/group/sub/repo"),
    ("https://bitbucket.org/acme/shop/commits/abc1234", "bitbucket.org/acme/shop"),
    ("https://github.com/acme/shop", ""),
    ("/srv/git/shop/commit/abc1234", ""),
    (None, ""),
])
def test_a_commit_page_names_its_repository(url, key):
    from carto_core.team.remotes import commit_remote

    assert commit_remote(url) == key


def test_rows_recorded_before_an_exclusion_stay_here(world):
    a, db, tmp = world["a"], world["db"], world["tmp"]
    secret = make_repo(tmp / "a" / "code" / "client-nda", "git@github.com:acme/client-nda.git")
    shop_rows = activity("s-shop", world["shop"], start=60, tag="platypusnda")
    nda_rows = activity("s-nda", secret, start=50, tag="confidenti")
    kept = activity("s-kept", world["shop"], start=40)
    a.write_all(shop_rows)
    a.write_all(nda_rows)
    a.join(world["members"]["alice"][1], "acme", world["shop"], secret)
    config = tmp / "config.toml"
    env = {"CARTO_CONFIG": str(config)}
    # Excluded after these rows were written: the shop's folder by path, the other by name.
    config.write_text(f'[capture]\nexclude = ["{world["shop"]}", "client-*"]\n')
    report = a.json("team", "push", env=env)
    assert report["state"] == "ok" and report["sent"] == 0, report
    every = sum(len(v) for v in shop_rows.values()) + sum(len(v) for v in nda_rows.values())
    assert report["excluded"] == every and report["not_allowed"] == 0
    assert server_rows(db) == []
    text = a.cli("team", "push", "--from-start", env=env).output
    assert "up to date" in text and f"{every} rows of allowed projects stayed here: [capture] exclude" in text
    # The shop's exclusion lifted: the rows it held back leave with those written since; the
    # other entry still keeps its project's rows here.
    config.write_text('[capture]\nexclude = ["client-*"]\n')
    a.write_all(kept)
    report = a.json("team", "push", env=env)
    held = {row["event_id"] for items in shop_rows.values() for row in items}
    assert {r[0] for r in server_rows(db)} == held | {row["event_id"] for items in kept.values() for row in items}
    assert not db.sql("select 1 from carto.events where summary like '%%confidenti%%'")
    assert report["released"] == len(held)
