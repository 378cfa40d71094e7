"""`carto related` names each co-occurring term as people wrote it ("rounding", "quantize"),
not as the index stems it ("round", "quantiz"); its JSON keeps the terms and adds the words."""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import build_sample_home


def test_related_shows_the_words_and_keeps_the_terms(tmp_path):
    home = build_sample_home(tmp_path / "h")
    env = {"CARTO_HOME": str(home.root)}
    text = CliRunner().invoke(cli, ["related", "--term", "decimal"], env=env)
    assert text.exit_code == 0, text.output
    listed = [line.split()[1] for line in text.output.split("\nterms\n", 1)[1].split("\nsessions\n")[0].splitlines()]
    assert {"rounding", "quantize", "currency"} <= set(listed), listed
    assert not {"round", "quantiz", "currenc"} & set(listed), listed
    done = CliRunner().invoke(cli, ["related", "--term", "decimal", "--json"], env=env)
    co = json.loads(done.output)["co_terms"]
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine

    analyzer = SearchEngine(Home(home.root)).analyzer
    assert [t["word"] for t in co] == listed
    for entry in co:  # the index's fields as they were, and a word that folds to the term
        assert set(entry) == {"term", "together", "df", "score", "word"}
        assert entry["term"] in analyzer.terms(entry["word"]), entry
    assert {"round", "quantiz"} <= {t["term"] for t in co}
