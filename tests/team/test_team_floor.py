"""`search --team` says "nothing found" as one home does: when the home found nothing, the
team's rows answer only if one is evidence (the relevance floor over what the server returned,
`team.floor`); the server's nearest vectors to a question nobody asked are not an answer."""

from __future__ import annotations

import json

import pytest

from teamkit import Machine, activity, make_repo, make_team

MINILM = {"CARTO_EMBEDDER": "minilm"}
UNSEEN = "kubernetes helm chart upgrade"


def _minilm(tmp_path) -> tuple[str, int]:
    from carto_core.logio.home import Home
    from carto_core.semantic.embedder import create_embedder

    embedder = create_embedder("minilm", Home(tmp_path / "probe"))
    return embedder.model_tag, int(embedder.embed_query("probe").shape[-1])


@pytest.fixture
def team(pg_db, tmp_path, monkeypatch):
    """bob pushed a session (with minilm vectors); alice, just joined, has recorded nothing."""
    monkeypatch.setenv("CARTO_EMBEDDER", "minilm")
    model, dim = _minilm(tmp_path)
    members = make_team(pg_db, members=("alice", "bob"), model=model, dim=dim)
    alice, bob = Machine(tmp_path / "alice", "alice-box"), Machine(tmp_path / "bob", "bob-box")
    shop = make_repo(bob.root / "code" / "shop", "git@github.com:acme/shop.git")
    bob.write_all(activity("s-b1", shop, start=30, tag="walrus"))
    bob.join(members["bob"][1], "acme", shop)
    assert bob.json("team", "push", env=MINILM)["vectors"] == "sent"
    alice.join(members["alice"][1], "acme", make_repo(alice.root / "code" / "shop",
                                                       "git@github.com:acme/shop.git"))
    alice.url, alice.model, alice.dim = members["alice"][1], model, dim
    return alice, bob


def _search(machine, query, **env):
    result = machine.cli("search", query, "--team", "--json", env={**MINILM, **env}, check=False)
    return result.exit_code, json.loads(result.stdout)


def test_a_question_nobody_asked_finds_nothing_though_the_server_ranks_rows(team):
    alice, _ = team
    code, found = _search(alice, UNSEEN)
    block = found["team"]
    assert block["state"] == "ok" and block["results"] > 0  # the server did rank bob's rows
    assert block["vector"]["ranked"] > 0
    assert code == 3 and found["results"] == [] and found["total"] == 0
    floor = block["floor"]
    assert floor["found"] is False and floor["below"] == block["results"]
    assert floor["best_semantic"] < 0.22 and floor["best_coverage"] is None
    assert "below the relevance floor" in floor["reason"]


def test_the_team_row_that_answers_is_found(team):
    alice, _ = team
    code, found = _search(alice, "walrus discount rounding")
    assert code == 0 and found["team"]["floor"]["found"] is True
    assert found["results"][0]["machine"] == "bob-box"
    assert found["team"]["floor"]["best_coverage"] == 1.0  # the turns hold every word


def test_each_row_the_server_returns_says_how_much_of_the_query_it_holds(team, tmp_path):
    """A one-word query: the rows holding it hold all of it; the rows only the vector ladder
    brought (bob's edits, "Modified: .../cart.py") hold none of it, not the whole."""
    import psycopg

    from carto_core.logio.home import Home
    from carto_core.semantic.embedder import create_embedder
    from carto_core.team.search import TeamQuery, run

    alice, _ = team
    vector = create_embedder("minilm", Home(tmp_path / "q")).embed_query("walrus")
    with psycopg.connect(alice.url) as conn:
        answer = run(conn, "acme", TeamQuery("walrus", ["walrus"], vector, -2.0, alice.model,
                                             alice.dim, limit=40))
    marks = {hit[0]: mark for hit, mark in zip(answer["hits"], answer["evidence"], strict=True)}
    holding = {e for e, (cov, _) in marks.items() if cov == 1.0}
    assert holding and all(marks[e][1] is not None for e in marks if marks[e][0] == 0.0)
    assert {e for e, (cov, _) in marks.items() if cov == 0.0} >= {"evt-s-b1-0"}  # an edit row
    assert set(marks) == holding | {e for e, (cov, _) in marks.items() if cov == 0.0}


def test_with_the_floor_off_the_nearest_rows_are_results_as_before(team):
    alice, _ = team
    code, found = _search(alice, UNSEEN, CARTO_SEARCH_FLOOR="0")
    assert code == 0 and found["results"] and found["team"]["floor"]["enabled"] is False
    assert {r["machine"] for r in found["results"]} == {"bob-box"}


def test_the_text_answer_says_the_team_rows_were_left_out(team):
    alice, _ = team
    result = alice.cli("search", UNSEEN, "--team", env=MINILM, check=False)
    assert result.exit_code == 3
    assert "weak match" in result.stdout and "left out by the relevance floor" in result.stdout


def _answer(*rows):
    """A server answer of rows (log, keyword coverage, cosine)."""
    hits = [(f"e{n}", 0.0, None, None, "box", "bob", log, [log], {}, [], "k")
            for n, (log, _, _) in enumerate(rows)]
    return {"hits": hits, "evidence": [(cov, cos) for _, cov, cos in rows]}


@pytest.mark.parametrize("rows,found", [
    ([("turns", None, 0.30)], True),                           # a turn from the floor
    ([("changelog", None, 0.34), ("turns", None, 0.21)], False),  # a record only from the band
    ([("changelog", 0.10, 0.35)], True),                      # a record holding a word
    ([("changelog", None, 0.52)], False),                      # none: at any score
    ([("prompts", None, 0.36)], True),                         # a prompt: a person's words
    ([("prompts", 0.49, 0.12), ("turns", None, 0.21)], False),  # under half the query's words
    ([("prompts", 0.50, 0.12)], True),
    ([("turns", 0.20, None)], False),                           # no vector ranked it
])
def test_the_team_rows_are_judged_as_the_homes_candidates(rows, found):
    from carto_core.team.floor import team_verdict

    report = team_verdict(_answer(*rows), (0.22, 0.35))
    assert report.found is found and report.below == (0 if found else len(rows))
    assert team_verdict(_answer(*rows), (0.22, 0.35), enabled=False).found
    # a model never measured for a floor: every row is evidence, as for one home
    assert team_verdict(_answer(*rows), (None, None)).found
