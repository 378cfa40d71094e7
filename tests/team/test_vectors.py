"""A team that keeps vectors: members push them with their rows, and `search --team` ranks the
team's rows by the query's vector beside the keyword ladder, in SQL."""

from __future__ import annotations


from teamkit import Machine, activity, make_repo, make_team

WORDLLAMA = {"CARTO_EMBEDDER": "wordllama"}


def _model(tmp_path) -> tuple[str, int]:
    from carto_core.logio.home import Home
    from carto_core.semantic.embedder import create_embedder
    from carto_core.semantic.settings import SemanticSettings

    settings = SemanticSettings.load()
    assert settings.embedder == "wordllama"
    embedder = create_embedder(settings.embedder, Home(tmp_path / "probe"), settings)
    return embedder.model_tag, int(embedder.embed_query("probe").shape[-1])


def test_search_ranks_the_teams_rows_by_the_query_vector(pg_db, tmp_path, monkeypatch):
    monkeypatch.setenv("CARTO_EMBEDDER", "wordllama")
    model, dim = _model(tmp_path)
    members = make_team(pg_db, members=("alice", "bob"), model=model, dim=dim)
    alice, bob = Machine(tmp_path / "alice", "alice-box"), Machine(tmp_path / "bob", "bob-box")
    for machine, sid, tag in ((alice, "s-a1", "zebra"), (bob, "s-b1", "walrus")):
        shop = make_repo(machine.root / "code" / "shop", "git@github.com:acme/shop.git")
        machine.write_all(activity(sid, shop, start=30, tag=tag))
        machine.join(members[machine.name.split("-")[0]][1], "acme", shop)
        report = machine.json("team", "push", env=WORDLLAMA)
        assert report["state"] == "ok" and report["refused"] == 0
        assert report["vectors"] == "sent", report
    held = pg_db.sql("select count(*), count(embedding) from carto.events where team = 'acme'")[0]
    assert held[0] > 0 and held[1] == held[0]  # every row arrived with its vector

    found = alice.json("search", "walrus discount rounding", "--team", env=WORDLLAMA)
    team = found["team"]
    assert team["state"] == "ok", team
    assert team["vector"]["model"] == model and "note" not in team["vector"], team
    assert team["vector"]["ranked"] > 0 and team["keyword"]["ranked"] > 0, team
    assert any(r.get("machine") == "bob-box" for r in found["results"])  # bob's rows, from the team
