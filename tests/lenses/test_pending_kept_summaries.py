"""`carto wrapup --pending` and the `--tag` filter of `carto sessions`/`carto search` read the
session summaries `carto sessions` keeps (`lenses.sessionstore`) instead of loading every event
(seconds and gigabytes at a million events): what they answer is what the loaded corpus's
summaries give, on the sample home and a generated one, and no corpus is loaded."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.cli.tag_filter import tagged_sessions
from carto_core.evaluation.generate import generate_home
from carto_core.evaluation.sample import build_sample_home
from carto_core.lenses import livecorpus
from carto_core.lenses.lineage import lineage
from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.lenses.sessions import pending
from carto_core.lenses.tags import matching_sessions
from carto_core.lenses.views import session_summaries
from carto_core.logio.home import Home
from carto_core.model import corpus
from carto_core.util.timeparse import utcnow

TAGS = (["provider:claude"], ["provider:codex"], ["tool:bash", "ext:py"], ["outcome:commit"])


@pytest.fixture(params=["sample", "generated"])
def home(request, tmp_path) -> Home:
    if request.param == "sample":
        return build_sample_home(tmp_path / "s")
    generate_home(tmp_path / "g", events=1500, seed=3)
    return Home(tmp_path / "g")


def _no_corpus(monkeypatch) -> None:
    def refused(*args, **kwargs):
        raise AssertionError("the corpus was loaded")

    monkeypatch.setattr(livecorpus, "load_corpus", refused)
    monkeypatch.setattr(corpus, "load_corpus", refused)


def test_pending_lists_what_the_loaded_summaries_give_without_loading(home, monkeypatch):
    loaded = session_summaries(LiveCorpus(home))
    expected = [(r["session_id"], r["events"], r["commits"], r["edits"], r["ended_by"])
                for r in pending(loaded, utcnow(), threads=lineage(home).threads())]
    assert expected
    _no_corpus(monkeypatch)
    done = CliRunner().invoke(cli, ["wrapup", "--pending", "--json"], env={"CARTO_HOME": str(home.root)})
    assert done.exit_code == 0, done.output
    listed = json.loads(done.output)["pending"]
    assert [(r["session_id"], r["events"], r["commits"], r["edits"], r["ended_by"]) for r in listed] == expected


def test_a_tag_filter_keeps_what_the_loaded_summaries_give_without_loading(home, monkeypatch):
    loaded = session_summaries(LiveCorpus(home))
    expected = [matching_sessions(loaded, tags, None) for tags in TAGS]
    assert any(expected)
    _no_corpus(monkeypatch)
    assert [tagged_sessions(home, list(tags)) for tags in TAGS] == expected
