"""Rows `[capture] exclude` held back at a push (recorded before the exclusion was added) leave
at the first push after the entry that held them is lifted, without `--from-start`; rows an
entry still in force keeps out stay here, and nothing sent before is sent again."""

from __future__ import annotations

import pytest

from teamkit import Machine, activity, make_repo, make_team, server_rows


@pytest.fixture
def world(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "code" / "shop", "git@github.com:acme/shop.git")
    nda = make_repo(tmp_path / "a" / "code" / "client-nda", "git@github.com:acme/client-nda.git")
    a = Machine(tmp_path / "a", "alice-laptop")
    config = tmp_path / "config.toml"
    return {"shop": shop, "nda": nda, "a": a, "db": pg_db, "config": config, "members": make_team(pg_db),
            "env": {"CARTO_CONFIG": str(config)}}


def ids(*activities: dict) -> set[str]:
    return {row["event_id"] for rows in activities for items in rows.values() for row in items}


def on_server(db) -> set[str]:
    return {r[0] for r in server_rows(db)}


def exclude(world, *entries: str) -> None:
    world["config"].write_text("[capture]\nexclude = [" + ", ".join(f'"{e}"' for e in entries) + "]\n")


def test_a_lifted_folder_exclusion_sends_what_it_held_back_once(world):
    a, db, env = world["a"], world["db"], world["env"]
    before = activity("s-1", world["shop"], start=90)
    a.write_all(before)
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    exclude(world, str(world["shop"]))
    held = a.json("team", "push", env=env)
    assert held["sent"] == 0 and held["excluded"] > 0 and on_server(db) == set()
    # A push with the exclusion still there passes over them again.
    assert a.json("team", "push", env=env)["sent"] == 0
    exclude(world, "nothing-of-ours")
    text = a.cli("team", "push", env=env).output
    assert f"{len(ids(before))} of them were held back at an earlier push by [capture] exclude" in text
    assert on_server(db) == ids(before)
    again = a.json("team", "push", env=env)
    assert again["sent"] == again["released"] == 0
    # Rows written later go as usual; those released are not read again.
    later = activity("s-2", world["shop"], start=30)
    a.write_all(later)
    pushed = a.json("team", "push", env=env)
    assert pushed["inserted"] == len(ids(later)) and pushed["released"] == 0 and pushed["unchanged"] == 0


def test_only_what_the_lifted_entry_held_leaves(world):
    a, db, env = world["a"], world["db"], world["env"]
    sent_before = activity("s-0", world["shop"], start=120)
    a.write_all(sent_before)
    a.join(world["members"]["alice"][1], "acme", world["shop"], world["nda"])
    assert a.json("team", "push", env=env)["inserted"] == len(ids(sent_before))
    shop = activity("s-shop", world["shop"], start=90)
    nda = activity("s-nda", world["nda"], start=80)
    a.write_all(shop)
    a.write_all(nda)
    # One entry over both checkouts, then one over the client's only: the shop's rows are
    # released, the client's stay (held now by the entry that replaced it).
    exclude(world, f"{world['shop'].parent}/*")
    assert a.json("team", "push", env=env)["sent"] == 0 and on_server(db) == ids(sent_before)
    exclude(world, "client-*")
    report = a.json("team", "push", env=env)
    assert on_server(db) == ids(sent_before, shop)
    assert report["released"] == len(ids(shop)) and report["unchanged"] == 0
    assert a.json("team", "push", env=env)["sent"] == 0
    exclude(world)
    report = a.json("team", "push", env=env)
    assert on_server(db) == ids(sent_before, shop, nda) and report["released"] == len(ids(nda))


def test_a_project_excluded_by_name_is_sent_once_allowed_again(world):
    a, db, env = world["a"], world["db"], world["env"]
    nda = activity("s-nda", world["nda"], start=80)
    a.write_all(nda)
    a.join(world["members"]["alice"][1], "acme", world["shop"], world["nda"])
    exclude(world, "client-*", "other-*")
    assert a.json("team", "push", env=env)["sent"] == 0
    exclude(world, "other-*")
    report = a.json("team", "push", env=env)
    assert on_server(db) == ids(nda) and report["released"] == len(ids(nda))


def test_a_config_file_that_could_not_be_read_held_everything_back(world):
    a, db, env = world["a"], world["db"], world["env"]
    rows = activity("s-1", world["shop"], start=60)
    a.write_all(rows)
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    world["config"].write_text("[capture]\nexclude = [oops\n")
    assert a.json("team", "push", env=env)["sent"] == 0 and on_server(db) == set()
    exclude(world)
    report = a.json("team", "push", env=env)
    assert on_server(db) == ids(rows) and report["released"] == len(ids(rows))


def test_a_newly_allowed_project_and_a_lifted_exclusion_in_one_push(world):
    a, db, env = world["a"], world["db"], world["env"]
    shop = activity("s-shop", world["shop"], start=90)
    nda = activity("s-nda", world["nda"], start=80)
    a.write_all(shop)
    a.write_all(nda)
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    exclude(world, "shop")
    assert a.json("team", "push", env=env)["sent"] == 0
    exclude(world)
    a.json("team", "allow", str(world["nda"]))
    report = a.json("team", "push", env=env)
    assert on_server(db) == ids(shop, nda) and report["released"] == len(ids(shop))
    assert a.json("team", "push", env=env)["sent"] == 0


def test_status_counts_and_lists_what_the_next_push_releases(world):
    a, db, env = world["a"], world["db"], world["env"]
    shop = activity("s-shop", world["shop"], start=90)
    nda = activity("s-nda", world["nda"], start=80)
    a.write_all(shop)
    a.write_all(nda)
    a.join(world["members"]["alice"][1], "acme", world["shop"], world["nda"])
    exclude(world, "shop", "client-*")
    assert a.json("team", "push", env=env)["sent"] == 0
    # Nothing new is written, and the exclusions hold: nothing is pending, nothing released.
    status = a.json("team", "status", env=env)["local"]
    assert status["pending_bytes"] == 0 and status["held_back"]["release"] == 0
    assert sorted(status["held_back"]["held_by"]) == ["client-*", "shop"]
    exclude(world, "client-*")
    status = a.json("team", "status", env=env)["local"]
    assert status["pending_bytes"] == 0
    held = status["held_back"]
    assert held["release"] == len(ids(shop)) and held["lifted"] == ["shop"] and held["held_by"] == ["client-*"]
    assert "rows" not in held
    text = a.cli("team", "status", env=env).output
    assert f"held back: {len(ids(shop))} rows an earlier push held back by [capture] exclude go with the next push" in text
    listed = a.json("team", "status", "--held", env=env)["local"]["held_back"]["rows"]
    assert {r["event_id"] for r in listed} == ids(shop) and {r["project"] for r in listed} == {"shop"}
    assert f"prompt-s-shop-0" in a.cli("team", "status", "--held", env=env).output
    report = a.json("team", "push", env=env)
    assert report["released"] == held["release"] and on_server(db) == ids(shop)
    assert a.json("team", "status", env=env)["local"]["held_back"]["release"] == 0
