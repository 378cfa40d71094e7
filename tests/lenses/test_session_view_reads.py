"""`carto session ID` reads one session, not the home: its summary is the one `carto sessions`
keeps (`lenses.sessionstore`), its rows are read back through the facts columns, and the logs
each event occurs in come from `lenses.eventlogs`. The document is the one a loaded corpus
gives (`views.session_detail`, what the explorer served), on the sample home, a generated one
and a home backfilled from the shared fixtures; and a warm run reads a fraction of the logs'
bytes where loading the corpus read them all."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.generate import generate_home
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.lenses import views
from carto_core.lenses.eventlogs import cache_path, open_event_logs
from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.logio.logs import SEARCHED_LOGS


def _session(home: Home, *args: str):
    return CliRunner().invoke(cli, ["session", *args], env={"CARTO_HOME": str(home.root), "COLUMNS": "200"})


def _loaded(home: Home, session_id: str) -> dict:
    """What `carto session ID --json` printed when it loaded the corpus."""
    return json.loads(json.dumps(views.session_detail(LiveCorpus(home), session_id), default=str))


def _same_as_loaded(home: Home) -> int:
    sessions = [s["session_id"] for s in views.session_summaries(LiveCorpus(home))]
    for sid in sessions:
        done = _session(home, sid, "--json")
        assert done.exit_code == 0, done.output
        assert json.loads(done.output) == _loaded(home, sid), sid
    return len(sessions)



def test_every_session_is_the_loaded_corpus_document_cold_and_warm(tmp_path, backfilled):
    generate_home(tmp_path / "g", 3000, seed=5)
    for home in (build_sample_home(tmp_path / "s"), Home(tmp_path / "g"), backfilled):
        assert _same_as_loaded(home) > 0  # cold: summaries and the id entries are made
        assert cache_path(home).is_file()
        _same_as_loaded(home)  # warm: read back


def test_an_event_with_a_changelog_copy_names_both_logs(tmp_path):
    generate_home(tmp_path / "g", 3000, seed=5)
    home = Home(tmp_path / "g")
    sid = views.session_summaries(LiveCorpus(home))[0]["session_id"]
    document = json.loads(_session(home, sid, "--json").output)
    assert any(len(event["sources"]) > 1 for event in document["events"])


def test_an_appended_copy_and_a_rewritten_log_are_seen(tmp_path):
    from carto_core.logio.rewrite_journal import bump_generation

    home = build_sample_home(tmp_path / "s")
    sid = SESSIONS["b"]
    before = json.loads(_session(home, sid, "--json").output)
    row = {"event_id": "evt-view-1", "timestamp": "2099-01-01T00:00:00Z", "type": "tool_bash",
           "session_id": sid, "project": "webshop", "provider": "codex", "summary": "Ran: make"}
    append_rows(home.log("tool-use"), [row])
    assert json.loads(_session(home, sid, "--json").output) == _loaded(home, sid)
    append_rows(home.log("changelog"), [row])  # the hook's copy, appended after
    after = json.loads(_session(home, sid, "--json").output)
    assert after == _loaded(home, sid)
    assert [e["sources"] for e in after["events"] if e["event_id"] == "evt-view-1"] == [["tool-use", "changelog"]]
    assert len(after["events"]) == len(before["events"]) + 1
    # a rewrite that drops the copy: the log is searched again
    path = home.log("changelog")
    path.write_text("".join(line + "\n" for line in path.read_text().splitlines()
                            if "evt-view-1" not in line))
    bump_generation(path)
    again = json.loads(_session(home, sid, "--json").output)
    assert again == _loaded(home, sid)
    assert [e["sources"] for e in again["events"] if e["event_id"] == "evt-view-1"] == [["tool-use"]]


def test_an_ambiguous_prefix_and_an_unknown_one_answer_as_before(tmp_path):
    home = build_sample_home(tmp_path / "s")
    ids = sorted(SESSIONS.values())
    shared = os.path.commonprefix(ids[:2])
    done = _session(home, shared, "--json")
    if shared and not any(sid == shared for sid in ids):
        assert done.exit_code == 2
        assert [c["session_id"] for c in json.loads(done.output)["candidates"]] == \
            sorted(s for s in ids if s.startswith(shared))
    missing = _session(home, "zz-no-such-session")
    assert missing.exit_code == 3
    assert "no session id starts with" in missing.output


def test_a_crc_collision_or_a_nested_id_adds_no_log(tmp_path):
    home = build_sample_home(tmp_path / "s")
    sid = SESSIONS["b"]
    # a research row whose text quotes another event's id is no row of that event
    first = _loaded(home, sid)["events"][0]["event_id"]
    append_rows(home.log("research"), [{
        "event_id": "evt-view-2", "timestamp": "2099-01-02T00:00:00Z", "type": "research",
        "session_id": "another", "summary": "quoted", "payload": {"event_id": first}}])
    holding = open_event_logs(home).logs_holding([first])
    assert "research" not in holding[first]


def _read_bytes() -> int:
    with open("/proc/self/io") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith("rchar:"))


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts bytes read through /proc")
def test_a_warm_session_reads_a_fraction_of_the_logs(tmp_path):
    generate_home(tmp_path / "g", 20000, seed=7)
    home = Home(tmp_path / "g")
    sid = max(views.session_summaries(LiveCorpus(home)), key=lambda s: s["events"])["session_id"]
    assert _session(home, sid, "--json").exit_code == 0  # cold: the kept state is made
    logs = sum(home.log(label).stat().st_size for label in SEARCHED_LOGS if home.log(label).exists())
    before = _read_bytes()
    assert _session(home, sid, "--json").exit_code == 0
    read = _read_bytes() - before
    # Loading the corpus reads every log whole (read >= logs); the lineage's bytes searches
    # of the milestones and turns logs, the facts columns and the kept files are what is left.
    assert read < logs * 0.6, (read, logs)


def test_the_explorers_session_page_summarises_its_session_alone(tmp_path, monkeypatch):
    from carto_core.lenses.sessionstore import stored_summaries

    home = build_sample_home(tmp_path / "s")
    live = LiveCorpus(home)
    listed = views.list_sessions(live, days=None, project=None, provider=None, limit=100)
    assert views.list_sessions(live, days=None, project=None, provider=None, limit=100,
                               summaries=stored_summaries(live)) == listed
    expected = views.session_out(views._sessions(live)[SESSIONS["b"]])
    live.generation += 1  # a new event: nothing derived is held any more
    summarised: list[str] = []
    real = views.summarize_session
    monkeypatch.setattr(views, "summarize_session", lambda sid, events: summarised.append(sid) or real(sid, events))
    detail = views.session_detail(live, SESSIONS["b"])
    assert summarised == [SESSIONS["b"]]
    assert detail["session"] == expected
