"""A forget takes the forgotten rows' words off the server: the term counts they leave at 0
are deleted in the forget's transaction, so no member reads the words of rows gone (the
keyword ladder's counts name every term a row held)."""

from __future__ import annotations

import psycopg

from teamkit import Machine, activity, make_repo, make_team

ZEROS = "SELECT project_key, term FROM carto.term_df WHERE df <= 0"


def words_of(url: str) -> set[str]:
    """Every term a login reads in the team's counts (folded and not yet folded)."""
    with psycopg.connect(url) as conn:
        return {r[0] for r in conn.execute("SELECT term FROM carto.term_df UNION SELECT term FROM carto.term_delta")}


def test_forget_deletes_the_words_it_leaves_uncounted(tmp_path, pg_db):
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    nda = make_repo(tmp_path / "a" / "nda", "git@github.com:acme/nda.git")
    members = make_team(pg_db)
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(activity("s-shop", shop, start=60, tag="platypusnda"))
    a.write_all(activity("s-nda", nda, start=50, tag="confidential"))
    a.join(members["alice"][1], "acme", shop, nda)
    b = Machine(tmp_path / "b", "bob-box")
    b.write_all(activity("s-bob", shop, start=40, tag="wombat"))
    b.join(members["bob"][1], "acme", shop)
    assert a.json("team", "push")["inserted"] and b.json("team", "push")["inserted"]
    carol = members["carol"][1]
    assert {"platypusnda", "confidenti", "wombat"} <= words_of(carol)
    a.json("team", "forget", "--project", "github.com/acme/nda", "--yes")
    assert "confidenti" not in words_of(carol)
    assert pg_db.sql(ZEROS) == []
    assert not pg_db.sql("SELECT 1 FROM carto.term_df WHERE project_key = 'github.com/acme/nda'")
    # The administrator removes alice: her words go, bob's stay, counted as his rows hold them.
    owner = Machine(tmp_path / "o", "admin-box")
    owner.cli("team", "admin", "forget", members["alice"][0], "--yes", env={"CARTO_TEAM_ADMIN_URL": pg_db.url()})
    left = words_of(carol)
    assert "platypusnda" not in left and "wombat" in left
    assert left == {r[0] for r in pg_db.sql("SELECT DISTINCT unnest(terms) FROM carto.events")}
    assert pg_db.sql(ZEROS) == []
    assert pg_db.sql("SELECT df FROM carto.term_df WHERE term = 'wombat'") == [(len(pg_db.sql(
        "SELECT 1 FROM carto.events WHERE 'wombat' = ANY (terms)")),)]


def test_setup_deletes_the_words_an_older_servers_forgets_left(pg_db):
    from carto_core.team import admin
    from carto_core.team.schema import SCHEMA_VERSION, migrate

    with pg_db.connect() as conn:
        assert migrate(conn, target=3) == (0, 3)
        conn.execute("INSERT INTO carto.teams (team) VALUES ('acme')")
        conn.execute(
            "INSERT INTO carto.events (team, event_id, machine, project_key, log, log_rank, logs, rev, row, "
            "terms, tfs, dl) SELECT 'acme', 'old-' || i, 'box', 'github.com/acme/shop', 'prompts', 4, "
            "'{prompts}', i, '{}', ARRAY['kept', 'gone' || i], '{1,1}', 2 FROM generate_series(1, 4) i")
        conn.execute("SELECT carto.fold_terms('acme')")
        conn.execute("DELETE FROM carto.events WHERE event_id IN ('old-1', 'old-2')")
        conn.execute("SELECT carto.fold_terms('acme')")  # the older fold keeps df = 0
        conn.commit()
        assert sorted(t for _, t in pg_db.sql(ZEROS)) == ["gone1", "gone2"]
        done = admin.setup(conn, "acme")
    assert (done["schema_before"], done["schema"]) == (3, SCHEMA_VERSION)
    assert pg_db.sql(ZEROS) == []
    assert dict(pg_db.sql("SELECT term, df FROM carto.term_df")) == {"kept": 2, "gone3": 1, "gone4": 1}
