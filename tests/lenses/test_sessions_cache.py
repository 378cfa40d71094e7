"""`carto sessions` reads the session summaries kept from its last run
(`<home>/.carto/sessions/summaries.json`, `lenses.sessionstore`) instead of loading every event:
the list is the one a loaded corpus gives (`views.list_sessions`, what the explorer serves), on
the sample home, a generated one and a home backfilled from the shared fixtures; a warm run
summarises nothing, an append re-summarises its session alone, a rewritten log all of them."""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.cli.sessions_text import session_table
from carto_core.evaluation.generate import generate_home
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.lenses import views
from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.util.timeparse import parse_when

FILTERS = ([], ["--limit", "100000"], ["--provider", "codex"], ["--since", "30d"], ["--project", "a|e"])


def _invoke(home: Home, *args: str):
    return CliRunner().invoke(cli, ["sessions", *args], env={"CARTO_HOME": str(home.root)})


def _loaded(home: Home, args: list[str]) -> dict:
    """What `carto sessions ARGS --json` listed when it loaded the corpus."""
    opts = dict(zip(args[::2], args[1::2]))
    return views.list_sessions(LiveCorpus(home), days=None, project=opts.get("--project"),
                               provider=opts.get("--provider"), limit=int(opts.get("--limit", 50)),
                               since=parse_when(opts["--since"]) if "--since" in opts else None)


def _same_as_loaded(home: Home) -> None:
    for args in FILTERS:
        done = _invoke(home, *args, "--json")
        assert done.exit_code in (0, 3), done.output
        document = json.loads(done.output)
        loaded = _loaded(home, args)
        assert (document["sessions"], document["total"]) == (loaded["sessions"], loaded["total"]), args
    text = CliRunner().invoke(cli, ["sessions"], env={"CARTO_HOME": str(home.root), "COLUMNS": "200"})
    rows = _loaded(home, [])["sessions"]
    assert text.output.splitlines()[: len(rows) + 1] == session_table(rows, 200)



def test_the_list_is_the_loaded_corpus_list_cold_and_warm(tmp_path, backfilled):
    generate_home(tmp_path / "g", 3000, seed=5)
    for home in (build_sample_home(tmp_path / "s"), Home(tmp_path / "g"), backfilled):
        _same_as_loaded(home)  # cold: the summaries are made
        assert (home.state / "sessions" / "summaries.json").is_file()
        _same_as_loaded(home)  # warm: read back


def _counting(monkeypatch) -> list[str]:
    summarised: list[str] = []
    real = views.summarize_session

    def counted(sid, events):
        summarised.append(sid)
        return real(sid, events)

    monkeypatch.setattr(views, "summarize_session", counted)
    return summarised


def test_a_warm_run_summarises_nothing_and_an_append_its_session_alone(tmp_path, monkeypatch):
    home = build_sample_home(tmp_path / "s")
    assert _invoke(home).exit_code == 0
    summarised = _counting(monkeypatch)
    assert _invoke(home, "--json").exit_code == 0
    assert summarised == []
    append_rows(home.log("changelog"), [{
        "event_id": "evt-cache-1", "timestamp": "2099-01-01T00:00:00Z", "type": "git_commit",
        "session_id": SESSIONS["b"], "project": "webshop", "provider": "codex",
        "summary": "[main 1234abc] fix: later"}])
    document = json.loads(_invoke(home, "--json").output)
    assert summarised == [SESSIONS["b"]]
    assert document["sessions"][0]["session_id"] == SESSIONS["b"]
    assert document["sessions"] == _loaded(home, [])["sessions"]


def test_a_rewritten_log_summarises_every_session_again(tmp_path, monkeypatch):
    from carto_core.logio.rewrite_journal import bump_generation

    home = build_sample_home(tmp_path / "s")
    assert _invoke(home).exit_code == 0
    bump_generation(home.log("changelog"))
    summarised = _counting(monkeypatch)
    document = json.loads(_invoke(home, "--json", "--limit", "1000").output)
    assert sorted(summarised) == sorted(s["session_id"] for s in document["sessions"])
    assert document["sessions"] == _loaded(home, ["--limit", "1000"])["sessions"]


def test_a_tag_filter_reads_the_kept_summaries(tmp_path):
    home = build_sample_home(tmp_path / "s")
    tagged = json.loads(_invoke(home, "--tag", "provider:codex", "--json").output)["sessions"]
    assert [s["session_id"] for s in tagged] == [SESSIONS["b"]]


def test_a_warm_run_opens_the_facts_columns_once(tmp_path, monkeypatch):
    """The table's short ids are checked against every session of the home: the summaries'
    ids, not the columns read a second time (a second copy of them at 1M events)."""
    from carto_core.facts import store

    home = build_sample_home(tmp_path / "s")
    assert _invoke(home).exit_code == 0
    opened = []
    real = store.open_columns
    monkeypatch.setattr(store, "open_columns", lambda *a, **k: opened.append(1) or real(*a, **k))
    assert _invoke(home).exit_code == 0
    assert len(opened) == 1


def test_forget_takes_the_kept_summaries_of_a_forgotten_session(tmp_path):
    """The summaries name projects and transcripts: a forget deletes the file, and the next
    list, summarised again, no longer holds the forgotten session."""
    home = build_sample_home(tmp_path / "s")
    assert _invoke(home).exit_code == 0
    kept = home.state / "sessions" / "summaries.json"
    assert SESSIONS["b"] in kept.read_text("utf-8")
    done = CliRunner().invoke(cli, ["forget", "--session", SESSIONS["b"], "--write"],
                              env={"CARTO_HOME": str(home.root)})
    assert done.exit_code == 0, done.output
    assert not kept.exists() or SESSIONS["b"] not in kept.read_text("utf-8")
    listed = json.loads(_invoke(home, "--json").output)["sessions"]
    assert SESSIONS["b"] not in {s["session_id"] for s in listed}
    assert SESSIONS["b"] not in kept.read_text("utf-8")


def test_summaries_kept_before_prompts_counted_turns_are_made_again(backfilled):
    """A backfilled session said `"prompts": 0` (prompt rows alone were counted); the summaries a
    carto of that rule kept would say so still, unless the file's version turns them away."""
    first = {s["session_id"]: s["prompts"] for s in json.loads(_invoke(backfilled, "--json").output)["sessions"]}
    assert first and all(n >= 1 for n in first.values()), first
    path = backfilled.state / "sessions" / "summaries.json"
    kept = json.loads(path.read_text())
    kept["version"] = 1
    for entry in kept["sessions"].values():
        entry["summary"]["prompts"] = 0
    path.write_text(json.dumps(kept))
    again = {s["session_id"]: s["prompts"] for s in json.loads(_invoke(backfilled, "--json").output)["sessions"]}
    assert again == first
