"""Recall v2, as a user sees it through `carto search --json`: small homes, every script,
prefixes, stems, identifiers, empty ladders that say why, and an analyzer change that rebuilds."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from carto_core.cli import cli


@pytest.fixture
def home_env(writer, monkeypatch):
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    return writer


def search(*args):
    result = CliRunner().invoke(cli, ["search", "--json", *args], catch_exceptions=False)
    document = json.loads(result.output) if result.output.strip() else {}
    return result.exit_code, document


def ids(document) -> list[str]:
    return [hit["event_id"] for hit in document.get("results", [])]


def test_two_event_home_finds_each_by_its_own_word_and_both_by_the_shared_one(home_env):
    """Upstream's clamped idf scores a word in half the documents at 0: on a home of two
    events the shared word found nothing, and each one's own word (df 1 of N 2) neither."""
    first = home_env.prompt("deploy the quokka service", session="s-a")
    second = home_env.prompt("deploy the wallaby service", session="s-b")
    assert ids(search("quokka")[1]) == [first]
    assert ids(search("wallaby")[1]) == [second]
    assert set(ids(search("deploy")[1])) == {first, second}
    third = home_env.prompt("restart the numbat worker", session="s-b")
    assert ids(search("numbat")[1]) == [third] and ids(search("wallaby")[1]) == [second]
    # the upstream pair, kept for comparison, shows the bug this fixes
    code, document = search("deploy", "--ranker", "bm25-upstream", "--analyzer", "upstream")
    assert code == 3 and ids(document) == []
    (ladder,) = [l for l in document["ladders"] if l["ranker"] == "bm25-upstream"]
    assert ladder["status"] == "empty" and "idf 0" in ladder["reason"]


@pytest.mark.parametrize("word,text", [
    ("сервер", "перезапустил сервер после обновления"),
    ("東京", "東京のデータセンターに移行しました"),
    ("الخادم", "أعدت تشغيل الخادم بعد التحديث"),
    ("नमस्ते", "नमस्ते दुनिया"),
])
def test_a_word_of_any_script_finds_its_row(home_env, word, text):
    target = home_env.prompt(text)
    home_env.prompt("restarted the api server after the update")
    code, document = search(word)
    assert code == 0 and ids(document)[0] == target  # (the next prompt of the session may
    # follow: it holds this one as context)


def test_a_one_character_cjk_query_finds_its_row(home_env):
    target = home_env.prompt("猫が好きです")
    home_env.prompt("犬を飼っています")
    assert ids(search("猫")[1])[0] == target


def test_prefix_query_finds_longer_words(home_env):
    target = home_env.prompt("the deployment pipeline failed at the lint step")
    home_env.prompt("unrelated note about lunch")
    assert ids(search("deploy*")[1])[0] == target
    assert ids(search("pipe*")[1])[0] == target
    code, document = search("zzq*")
    assert code == 3
    (ladder,) = [l for l in document["ladders"] if l["ranker"] == "bm25"]
    assert ladder["status"] == "empty" and "'zzq*'" in ladder["reason"]


def test_stems_and_hyphens_fold(home_env):
    researching = home_env.prompt("Researching the camping permits")
    destress = home_env.prompt("a de-stress walk after the release")
    assert ids(search("research camped")[1])[0] == researching
    assert ids(search("destress")[1])[0] == destress


def test_an_identifier_beats_rows_holding_its_parts(home_env):
    """`batch_batch_lock` is kept whole (and split): the row naming it wins over rows that
    only hold the words."""
    target = home_env.tool("Ran: pytest -k batch_batch_lock")
    for i in range(5):
        home_env.tool(f"Ran: batch job {i} took the lock batch again")
    assert ids(search("batch_batch_lock", "--decay", "none")[1])[0] == target
    camel = home_env.tool("Modified: src/parseConfig.ts")
    assert ids(search("parse config", "--decay", "none")[1])[0] == camel


def test_question_words_are_left_out_of_queries(home_env):
    target = home_env.prompt("we moved the quokka cluster to arm64")
    for i in range(4):
        home_env.prompt(f"what did I do when where {i}")
    code, document = search("what did I do with the quokka cluster")
    assert code == 0 and ids(document)[0] == target


def test_a_ladder_outside_the_scope_says_so(home_env):
    home_env.prompt("quokka notes", project="alpha")
    code, document = search("quokka", "--project", "beta")
    assert code == 3
    (ladder,) = [l for l in document["ladders"] if l["ranker"] == "bm25"]
    assert ladder["status"] == "empty" and "outside the scope" in ladder["reason"]


def test_the_index_records_its_analyzer_and_another_one_rebuilds_it(home_env):
    from carto_core.logio.home import Home
    from carto_core.search.index import KeywordIndex

    target = home_env.prompt("перезапустил сервер")
    home_env.prompt("plain english words")
    assert ids(search("сервер")[1])[0] == target
    home = Home(home_env.home.root)
    folder = KeywordIndex.folder(home)
    meta = json.loads((folder / (folder / "CURRENT").read_text().strip() / "meta.json").read_text())
    assert meta["analyzer"] == "english/2"
    # upstream's analyzer has no Cyrillic at all: the same query is now refused
    result = CliRunner().invoke(cli, ["search", "сервер", "--analyzer", "upstream"])
    assert result.exit_code == 2 and "'upstream' analyzer" in result.output
    assert ids(search("plain", "--analyzer", "upstream")[1])
    meta = json.loads((folder / (folder / "CURRENT").read_text().strip() / "meta.json").read_text())
    assert meta["analyzer"] == "upstream/1"
    bad = CliRunner().invoke(cli, ["search", "x", "--analyzer", "nope"])
    assert bad.exit_code == 2 and "english" in bad.output and "upstream" in bad.output
