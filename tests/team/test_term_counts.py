"""The terms' document counts a team server keeps (`term_df` and its deltas): they equal a
recount of the rows after every way rows change (a push, the same push again, a revised turn, a
changelog copy merged, a forget, a statement by hand, a TRUNCATE, ten machines pushing at once, a server set up by an older
carto and upgraded), and a member reads only the counts of the projects they may read."""

from __future__ import annotations

import threading

import pytest

from teamkit import Machine, activity, make_repo, make_team

RECOUNT = """SELECT team, project_key, t.term, count(*) FROM carto.events
    CROSS JOIN LATERAL unnest(terms) AS t(term) GROUP BY 1, 2, 3"""
KEPT = """SELECT team, project_key, term, sum(n)::bigint FROM (
    SELECT team, project_key, term, df AS n FROM carto.term_df
    UNION ALL SELECT team, project_key, term, delta FROM carto.term_delta) AS x
    GROUP BY 1, 2, 3"""


def counts(db, statement: str) -> dict[tuple, int]:
    return {tuple(row[:3]): int(row[3]) for row in db.sql(statement)}


def assert_counts_match(db) -> dict[tuple, int]:
    recount = counts(db, RECOUNT)
    kept = counts(db, KEPT)
    assert min(kept.values(), default=0) >= 0, "a count went below zero"
    assert {k: v for k, v in kept.items() if v} == recount
    return recount


@pytest.fixture
def world(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    secret = make_repo(tmp_path / "a" / "secret", "https://github.com/acme/secret")
    members = make_team(pg_db, projects={"bob": ["github.com/acme/shop"]})
    return {"shop": shop, "secret": secret, "members": members, "db": pg_db,
            "a": Machine(tmp_path / "a", "alice-laptop")}


def _turn(sid: str, idx: int, summary: str, minutes: float) -> dict:
    from carto_core.logio.logs import order_row
    from teamkit import stamp

    return order_row("turns", {"event_id": f"turn-{sid}-{idx}", "timestamp": stamp(minutes), "project": "shop",
                               "type": "transcript", "provider": "claude", "summary": summary,
                               "transcript_path": f"/t/{sid}.jsonl", "session": sid, "turn_idx": idx})


def test_counts_follow_push_repush_revision_merge_and_forget(world):
    a, db = world["a"], world["db"]
    a.write_all(activity("s1", world["shop"], start=60, tag="zebra"))
    a.write_all(activity("s2", world["secret"], start=50, tag="walrus"))
    a.write("turns", [_turn("s9", 0, "quokka pangolin started", 40)])
    a.join(world["members"]["alice"][1], "acme", world["shop"], world["secret"])
    assert a.json("team", "push")["inserted"] > 0
    first = assert_counts_match(db)
    assert first[("acme", "github.com/acme/shop", "quokka")] == 1
    assert first[("acme", "github.com/acme/shop", "zebra")] > 1  # several rows hold it

    # The same rows again: nothing counted twice.
    assert a.json("team", "push", "--from-start")["inserted"] == 0
    assert assert_counts_match(db) == first

    # A turn that grew replaces its row: its old terms counted out, its new ones in.
    a.write("turns", [_turn("s9", 0, "quokka aardvark finished", 30)])
    assert a.json("team", "push")["updated"] == 1
    revised = assert_counts_match(db)
    assert ("acme", "github.com/acme/shop", "pangolin") not in revised
    assert revised[("acme", "github.com/acme/shop", "aardvark")] == 1

    # A changelog copy arriving after its tool-use row only adds a log: counts unchanged.
    from teamkit import stamp

    common = {"timestamp": stamp(5), "type": "tool_bash", "provider": "claude", "summary": "Ran: make okapi",
              "project": "shop", "cwd": str(world["shop"])}
    a.write("tool-use", [{"event_id": "evt-later", **common, "tool": "Bash", "session": "s1"}])
    a.json("team", "push")
    with_tool = assert_counts_match(db)
    a.write("changelog", [{"event_id": "evt-later", **common, "session_id": "s1", "related_ids": []}])
    assert a.json("team", "push")["merged"] == 1
    assert assert_counts_match(db) == with_tool

    # A forget counts the project's rows out, and its words leave the counts with them.
    assert ("acme", "github.com/acme/secret", "walrus") in counts(db, KEPT)
    a.json("team", "forget", "--project", "github.com/acme/secret", "--yes")
    after = assert_counts_match(db)
    assert not any(key[1] == "github.com/acme/secret" for key in after)
    assert not any(key[1] == "github.com/acme/secret" for key in counts(db, KEPT))
    assert ("acme", "github.com/acme/shop", "pangolin") not in counts(db, KEPT)  # the revised turn's


def test_a_fold_moves_the_deltas_and_changes_no_sum(world):
    a, db = world["a"], world["db"]
    a.write_all(activity("s1", world["shop"], start=60, tag="zebra"))
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    a.json("team", "push")
    # A statement by hand (an administrator's) leaves its deltas until the next fold.
    db.sql("DELETE FROM carto.events WHERE event_id = 'turn-s1-0'")
    assert db.sql("SELECT count(*) FROM carto.term_delta")[0][0] > 0
    before = assert_counts_match(db)
    assert db.sql("SELECT carto.fold_terms('acme')")[0][0] > 0
    assert db.sql("SELECT count(*) FROM carto.term_delta")[0][0] == 0
    assert assert_counts_match(db) == before
    db.sql("TRUNCATE carto.events")
    assert assert_counts_match(db) == {} and counts(db, KEPT) == {}
    a.json("team", "push", "--from-start")
    assert assert_counts_match(db)
    db.sql("TRUNCATE carto.events, carto.term_df, carto.term_delta")  # the counts named too
    assert assert_counts_match(db) == {} and counts(db, KEPT) == {}


def test_a_member_reads_only_the_counts_of_projects_they_may_read(world, tmp_path):
    import psycopg

    a, db = world["a"], world["db"]
    a.write_all(activity("s1", world["shop"], start=60, tag="zebra"))
    a.write_all(activity("s2", world["secret"], start=50, tag="walrus"))
    a.join(world["members"]["alice"][1], "acme", world["shop"], world["secret"])
    a.json("team", "push")
    from carto_core.team.search import document_frequencies

    with psycopg.connect(world["members"]["bob"][1]) as conn:
        seen = document_frequencies(conn, "acme", ["zebra", "walrus", "discount"])
        assert seen["zebra"] > 0 and "walrus" not in seen
        assert seen["discount"] == counts(db, RECOUNT)[("acme", "github.com/acme/shop", "discount")]
        keys = {row[0] for row in conn.execute("SELECT project_key FROM carto.term_df").fetchall()}
        assert keys == {"github.com/acme/shop"}
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("UPDATE carto.term_df SET df = 0")
    with psycopg.connect(world["members"]["alice"][1]) as conn:
        assert document_frequencies(conn, "acme", ["walrus"])["walrus"] > 0


def test_ten_machines_pushing_at_once_wait_on_no_count_and_lose_none(tmp_path, pg_db):
    from carto_core.team.push import push
    from carto_core.team.settings import load

    names = [f"m{i}" for i in range(10)]
    members = make_team(pg_db, members=tuple(names))
    machines = []
    for i, name in enumerate(names):
        machine = Machine(tmp_path / name, f"{name}-box")
        shop = make_repo(machine.root / "shop", "git@github.com:acme/shop.git")
        for s in range(3):  # the same words in every machine's rows: the same counts' rows
            machine.write_all(activity(f"{name}-s{s}", shop, start=90 - s * 10, tag="zebra walrus"))
        machine.join(members[name][1], "acme", shop)
        machines.append(machine)
    reports: dict[str, object] = {}
    start = threading.Barrier(len(machines))

    def run(machine: Machine) -> None:
        settings = load(machine.home)
        start.wait()
        # One row a batch: many statements, each appending counts, interleaved across machines.
        reports[machine.name] = push(machine.home, settings, batch_rows=1, embed=False)

    threads = [threading.Thread(target=run, args=(m,)) for m in machines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert {name: (r.state, r.reason, r.retries) for name, r in reports.items()} == \
        {m.name: ("ok", "", 0) for m in machines}
    recount = assert_counts_match(pg_db)
    assert recount[("acme", "github.com/acme/shop", "zebra")] == pg_db.sql(
        "SELECT count(*) FROM carto.events WHERE 'zebra' = ANY (terms)")[0][0] > 10


def test_a_team_set_up_by_an_older_carto_upgrades_with_its_counts(world):
    from carto_core.team import admin
    from carto_core.team.schema import SCHEMA_VERSION, migrate

    a, db = world["a"], world["db"]
    # The schema as the first carto made it, with rows pushed into it (as that carto's push
    # wrote them: terms in the rows, no counts anywhere).
    db.sql("DROP SCHEMA carto CASCADE")
    with db.connect() as conn:
        assert migrate(conn, target=1) == (0, 1)
        conn.execute("INSERT INTO carto.teams (team) VALUES ('acme')")
        for member, (role, _) in world["members"].items():
            conn.execute("INSERT INTO carto.members (team, member) VALUES ('acme', %s)", (role,))
        conn.execute(
            "INSERT INTO carto.events (team, event_id, machine, author, project_key, log, log_rank, logs, rev, "
            "row, terms, tfs, dl) SELECT 'acme', 'old-' || i, 'old-box', %s, 'github.com/acme/shop', 'prompts', 4, "
            "'{prompts}', i, '{}', ARRAY['zebra', 'w' || (i %% 3)], '{1,2}', 3 FROM generate_series(1, 30) i",
            (world["members"]["alice"][0],))
        conn.execute("INSERT INTO carto.tallies (team, author, machine, events, dl_sum) VALUES "
                     "('acme', %s, 'old-box', 30, 90)", (world["members"]["alice"][0],))
        conn.commit()
        assert db.sql("SELECT to_regclass('carto.term_df')")[0][0] is None
    # A member's carto refuses the old schema and says who fixes it.
    a.write_all(activity("s1", world["shop"], start=60, tag="zebra"))
    refused = a.cli("team", "init", world["members"]["alice"][1], "--team", "acme", "--json", check=False)
    assert refused.exit_code != 0 and "admin setup" in refused.output
    with db.connect() as conn:
        done = admin.setup(conn, "acme")
    assert (done["schema_before"], done["schema"]) == (1, SCHEMA_VERSION)
    upgraded = assert_counts_match(db)
    assert upgraded[("acme", "github.com/acme/shop", "zebra")] == 30
    assert upgraded[("acme", "github.com/acme/shop", "w0")] == 10
    # The upgraded server counts what is pushed and forgotten from now on.
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    assert a.json("team", "push")["inserted"] > 0
    assert assert_counts_match(db)[("acme", "github.com/acme/shop", "zebra")] > 30
    found = a.json("search", "zebra", "--team")
    assert found["team"]["state"] == "ok" and found["team"]["keyword"]["ranked"] > 0
    a.json("team", "forget", "--project", "github.com/acme/shop", "--yes")
    assert assert_counts_match(db) == {}


def test_a_push_folds_its_counts_as_it_goes_and_at_its_end(world):
    from carto_core.team.push import FOLD_EVERY, push
    from carto_core.team.settings import load

    a, db = world["a"], world["db"]
    for s in range(3):  # 18 rows, one a batch: two folds on the way, the last 2 batches at the end
        a.write_all(activity(f"s{s}", world["shop"], start=90 - s * 10, tag="zebra"))
    a.join(world["members"]["alice"][1], "acme", world["shop"])
    report = push(a.home, load(a.home), batch_rows=1, embed=False)
    assert report.state == "ok" and report.batches > FOLD_EVERY and report.batches % FOLD_EVERY
    assert db.sql("SELECT count(*) FROM carto.term_delta")[0][0] == 0
    assert db.sql("SELECT count(*) FROM carto.term_df")[0][0] > 0
    assert_counts_match(db)
