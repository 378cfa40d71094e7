"""The team's keyword ladder against a reference: BM25 computed here over every row the server
holds, its document frequencies recounted from the rows. With room for every candidate the
ladder's ranking is the reference's; with a bounded candidate set it is the reference's
whenever it says it is exact, and it says so only when it is."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from carto_core.team.search import K1, B, TeamQuery, candidate_terms, run
from teamkit import Machine, make_repo, make_team, stamp

WORDS = ["zebra", "walrus", "okapi", "quokka", "gecko", "heron", "ibis", "jackal", "koala", "lemur",
         "marmot", "narwhal", "ocelot", "panda", "raven", "salmon", "tapir", "urchin", "vulture", "wombat"]
DEPTH = 20


@given(st.dictionaries(st.text("abcdefgh", min_size=1, max_size=4), st.integers(1, 500), min_size=1, max_size=8),
       st.integers(0, 1200))
@example({"a": 3, "b": 5}, 8)  # the rows add up to the cap exactly: both fit
def test_candidate_terms_are_the_rarest_that_fit(dfs, cap):
    held = list(dfs)
    chosen, skipped = candidate_terms(held, dfs, cap)
    assert sorted(chosen + skipped) == sorted(held) and not set(chosen) & set(skipped)
    assert sum(dfs[t] for t in chosen) <= cap
    # Rarest first: every chosen term is at most as common as every skipped one, and the
    # rarest skipped term would not have fitted.
    if chosen and skipped:
        assert max(dfs[t] for t in chosen) <= min(dfs[t] for t in skipped)
    if skipped:
        rarest = min(skipped, key=lambda t: (dfs[t], t))
        assert sum(dfs[t] for t in chosen) + dfs[rarest] > cap


def reference(rows: list[tuple], n: int, avgdl: float, terms: list[str]) -> list[tuple[str, float]]:
    """BM25 of every row for `terms`, best first (ties by id), rows with no term left out."""
    df = {t: sum(1 for _, held, _, _ in rows if t in held) for t in terms}
    scored = []
    for event_id, held, tfs, dl in rows:
        score = 0.0
        for t in terms:
            if t in held:
                tf = tfs[held.index(t)]
                weight = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                score += weight * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / avgdl))
        if score > 0:
            scored.append((event_id, score))
    return sorted(scored, key=lambda x: (-x[1], x[0]))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, pg_server):
    """A team of 400 rows of Zipf-distributed words (and 5 of a rare one) pushed by one machine, and the rows as the
    server holds them."""
    from pgserver import Database

    db = Database.create(pg_server.main)
    try:
        root = tmp_path_factory.mktemp("ladder")
        members = make_team(db, members=("alice",))
        machine = Machine(root / "a", "alice-box")
        shop = make_repo(root / "a" / "shop", "git@github.com:acme/shop.git")
        rng = random.Random(31)
        weights = [1 / (i + 1) for i in range(len(WORDS))]
        prompts = []
        for i in range(400):
            words = rng.choices(WORDS, weights, k=rng.randint(2, 12))
            prompts.append({"event_id": f"p{i:03d}", "timestamp": stamp(500 - i), "type": "prompt",
                            "provider": "claude", "summary": " ".join(words), "project": "shop",
                            "cwd": str(shop), "session_id": "s1"})
        for i in range(5):  # a rare word, in rows of the commonest
            prompts.append({"event_id": f"x{i}", "timestamp": stamp(90 - i), "type": "prompt",
                            "provider": "claude", "summary": "xenops zebra zebra", "project": "shop",
                            "cwd": str(shop), "session_id": "s1"})
        machine.write("prompts", prompts)
        import os

        os.environ["CARTO_KEEPUP"] = "0"
        machine.join(members["alice"][1], "acme", shop)
        assert machine.json("team", "push")["inserted"] == 405
        rows = db.sql("SELECT event_id, terms, tfs, dl FROM carto.events WHERE team = 'acme'")
        n, dl_sum = db.sql("SELECT sum(events), sum(dl_sum) FROM carto.tallies WHERE team = 'acme'")[0]
        yield {"db": db, "url": members["alice"][1], "rows": rows, "n": int(n), "avgdl": float(dl_sum) / int(n)}
    finally:
        db.drop()


def queries() -> list[list[str]]:
    """The queries' terms as the team's analyzer makes them (single words, pairs, triples)."""
    from carto_core.search.analysis import resolve_analyzer

    analyzer = resolve_analyzer("english")
    rng = random.Random(7)
    texts = ["zebra", "wombat", "heron", "xenops zebra", "xenops heron ibis"] + [" ".join(rng.sample(WORDS, rng.choice((2, 3)))) for _ in range(30)]
    return [list(dict.fromkeys(analyzer.query(text).terms)) for text in texts]


def ladder(conn, terms: list[str], cap: int) -> tuple[list[str], dict]:
    answer = run(conn, "acme", TeamQuery(" ".join(terms), terms, limit=DEPTH, depth=DEPTH, candidates=cap))
    return [hit[0] for hit in answer["hits"]], answer["keyword"]


def test_with_room_for_every_row_the_ranking_is_the_references(corpus):
    import psycopg

    with psycopg.connect(corpus["url"]) as conn:
        for terms in queries():
            want = [e for e, _ in reference(corpus["rows"], corpus["n"], corpus["avgdl"], terms)[:DEPTH]]
            got, keyword = ladder(conn, terms, cap=10_000)
            assert got == want, terms
            assert keyword["exact"] and keyword["skipped"] == [] and keyword["held"] == len(terms)


def test_a_bounded_ladder_is_the_references_when_it_says_exact(corpus):
    import psycopg

    held = {e: set(h) for e, h, _, _ in corpus["rows"]}
    seen = {"exact": 0, "cut": 0, "cut_yet_exact": 0, "cut_and_changed": 0}
    with psycopg.connect(corpus["url"]) as conn:
        for terms in queries():
            full = reference(corpus["rows"], corpus["n"], corpus["avgdl"], terms)
            want = [e for e, _ in full[:DEPTH]]
            got, keyword = ladder(conn, terms, cap=60)
            seen["cut"] += bool(keyword["skipped"])
            if keyword["exact"]:
                seen["exact"] += 1
                seen["cut_yet_exact"] += bool(keyword["skipped"])
                assert got == want, terms
                continue
            assert keyword["skipped"], terms
            seen["cut_and_changed"] += got != want
            # Only the rarest terms' rows were scored (every term's, when even the rarest was
            # too common), in the reference's order.
            chosen = set(terms) - set(keyword["skipped"])
            assert all(held[e] & chosen if chosen else set(terms) <= held[e] for e in got), terms
            order = {e: i for i, (e, _) in enumerate(full)}
            assert [order[e] for e in got] == sorted(order[e] for e in got), terms
    # The corpus makes each case happen: the bound proves some cut rankings exact, other cuts
    # change the ranking (and say so).
    assert seen["cut_yet_exact"] >= 2 and seen["cut_and_changed"] >= 2 and seen["exact"] > seen["cut_yet_exact"], seen


def test_each_rows_coverage_is_its_share_of_the_querys_idf_mass(corpus):
    """The relevance floor's measure of a keyword row (`team.floor`), as the local ladder's
    `_coverage`: a word no row holds counts in the whole; one term alone is all of it."""
    import psycopg

    rows = {e: set(h) for e, h, _, _ in corpus["rows"]}
    n = corpus["n"]

    def weight(df):
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    checked = 0
    with psycopg.connect(corpus["url"]) as conn:
        for terms in queries() + [["zebra", "neverword"], ["xenops", "neverword", "heron"]]:
            held = [t for t in terms if any(t in h for h in rows.values())]
            idfs = {t: weight(sum(1 for h in rows.values() if t in h)) for t in held}
            whole = sum(idfs.values()) + (len(terms) - len(held)) * weight(0)
            answer = run(conn, "acme", TeamQuery(" ".join(terms), terms, limit=DEPTH, depth=DEPTH,
                                                 candidates=10_000))
            for hit, (coverage, cosine) in zip(answer["hits"], answer["evidence"], strict=True):
                want = 1.0 if len(terms) == 1 else sum(idfs[t] for t in held if t in rows[hit[0]]) / whole
                assert coverage == pytest.approx(want, abs=1e-9), (terms, hit[0])
                assert cosine is None  # no vector asked
                checked += 1
    assert checked > 100


@pytest.fixture
def two_projects(tmp_path, pg_db, monkeypatch):
    """alice pushes a session of two projects (shop older, secret newer); bob may read shop."""
    monkeypatch.setenv("CARTO_KEEPUP", "0")
    from teamkit import activity

    members = make_team(pg_db, members=("alice", "bob"), projects={"bob": ["github.com/acme/shop"]})
    a = Machine(tmp_path / "a", "alice-box")
    shop = make_repo(tmp_path / "a" / "shop", "git@github.com:acme/shop.git")
    secret = make_repo(tmp_path / "a" / "secret", "https://github.com/acme/secret")
    a.write_all(activity("s1", shop, start=90, tag="zebra"))
    a.write_all(activity("s2", secret, start=30, tag="walrus"))
    a.join(members["alice"][1], "acme", shop, secret)
    assert a.json("team", "push")["inserted"] > 0
    return {"db": pg_db, "members": members}


def test_the_candidates_function_gives_a_login_only_the_rows_it_may_read(two_projects):
    import psycopg

    db, members = two_projects["db"], two_projects["members"]
    ask = "SELECT project_key FROM carto.keyword_candidates('acme', %s, false, NULL)"
    with psycopg.connect(members["alice"][1]) as conn:
        assert {r[0] for r in conn.execute(ask, (["discount"],))} == {"github.com/acme/shop", "github.com/acme/secret"}
    with psycopg.connect(members["bob"][1]) as conn:
        assert {r[0] for r in conn.execute(ask, (["discount"],))} == {"github.com/acme/shop"}
        assert conn.execute(ask, (["walrus"],)).fetchall() == []
        every = "SELECT project_key FROM carto.keyword_candidates('acme', %s, true, 100)"
        assert {r[0] for r in conn.execute(every, (["discount", "walrus"],))} == set()
    stranger = db.role("eve")
    db.sql(f'CREATE ROLE "{stranger}" LOGIN PASSWORD \'pw-eve\' IN ROLE carto_member')
    with psycopg.connect(db.url(f"{stranger}:pw-eve")) as conn:
        assert conn.execute(ask, (["discount"],)).fetchall() == []
    # The schema's owner (here the superuser) reads every row, as row-level security lets it.
    assert {r[0] for r in db.sql(ask, (["discount"],))} == {"github.com/acme/shop", "github.com/acme/secret"}


def test_a_scoped_query_of_common_terms_takes_the_newest_rows_of_its_scope(two_projects):
    import psycopg

    from carto_core.team.search import TeamQuery, run

    db, members = two_projects["db"], two_projects["members"]
    newest = db.sql("SELECT event_id FROM carto.events WHERE 'discount' = ANY (terms) ORDER BY ts DESC LIMIT 1")[0][0]
    with psycopg.connect(members["alice"][1]) as conn:
        # One candidate at most: "discount" alone is too common, so the newest row holding it.
        answer = run(conn, "acme", TeamQuery("discount", ["discount"], candidates=1))
        assert [h[0] for h in answer["hits"]] == [newest] and not answer["keyword"]["exact"]
        # The newest of the older project, not nothing (the cut comes after the scope).
        scoped = run(conn, "acme", TeamQuery("discount", ["discount"], candidates=1, project="shop"))
        assert len(scoped["hits"]) == 1 and scoped["hits"][0][10] == "github.com/acme/shop"
