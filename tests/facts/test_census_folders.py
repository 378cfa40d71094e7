"""A project is a folder's last name, so `~/me/api` and `~/clientA/api` are both "api". A
MEMORY.md and prompt recall keep them apart; census counted them as one project, one client's
work added to another's. Census counts a name recorded in several folders per folder, grouped
as `carto memory` groups them (a folder's subfolders are that folder), and says which."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.facts import run_facts
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from tests.facts.conftest import NOW


def _home(tmp_path) -> tuple[Home, str, str]:
    mine, client = tmp_path / "me" / "api", tmp_path / "clientA" / "api"
    (mine / "src").mkdir(parents=True)
    client.mkdir(parents=True)
    stamp = lambda n: (NOW - timedelta(hours=n)).strftime("%Y-%m-%dT%H:%M:%SZ")  # noqa: E731
    rows = [{"event_id": f"e-me-{n}", "timestamp": stamp(n), "session_id": "s1", "project": "api",
             "cwd": str(mine / "src") if n % 2 else str(mine)} for n in range(1, 6)]
    rows += [{"event_id": f"e-client-{n}", "timestamp": stamp(n), "session_id": "s2", "project": "api",
              "cwd": str(client)} for n in range(1, 4)]
    rows += [{"event_id": "e-nowhere", "timestamp": stamp(7), "session_id": "s3", "project": "api"},
             {"event_id": "e-web", "timestamp": stamp(2), "session_id": "s4", "project": "web",
              "cwd": str(tmp_path / "web")}]
    # no project is no bucket, whatever folders its rows name
    rows += [{"event_id": f"e-none-{n}", "timestamp": stamp(3), "session_id": "s5", "project": "unknown",
              "cwd": str(folder)} for n, folder in enumerate((mine, client))]
    home = Home(tmp_path / "home")
    append_rows(home.log("changelog"), rows)
    return home, str(mine), str(client)


@pytest.mark.parametrize("cached", ["1", "0"])
def test_two_folders_of_one_name_are_counted_apart(tmp_path, monkeypatch, cached):
    monkeypatch.setenv("CARTO_FACTS_CACHE", cached)
    home, mine, client = _home(tmp_path)
    for fields in ({}, {"project": "api"}):
        facts = run_facts({"contract_version": 1, "verb": "census", "call_id": "t", **fields},
                          home, now=NOW)["facts"]
        buckets = [(b["name"], b.get("folder"), b["count"]) for b in facts["by_project"]]
        assert ("api", mine, 5) in buckets and ("api", client, 3) in buckets, buckets
        assert ("api", None, 1) in buckets, buckets
        assert sum(b["count"] for b in facts["by_project"]) == facts["events"] - facts["unattributed"]["project"]
        assert all(b["name"] in ("api", "web") for b in facts["by_project"])
        by_folder = {b.get("folder"): b for b in facts["by_project"]}
        assert by_folder[client]["event_ids"] == ["e-client-1", "e-client-2", "e-client-3"]
        assert by_folder[mine]["event_ids"] == ["e-me-1", "e-me-2", "e-me-3"]
        # a name of one folder keeps its single bucket, as before
        assert ({"name": "web", "count": 1, "event_ids": ["e-web"]} in facts["by_project"]) is not fields


def test_census_text_names_the_folders(tmp_path):
    home, mine, client = _home(tmp_path)
    done = CliRunner().invoke(cli, ["facts", "census"], env={"CARTO_HOME": str(home.root)})
    assert done.exit_code == 0, done.output
    assert f"api ({mine})" in done.stdout and f"api ({client})" in done.stdout, done.stdout
    assert "api (no folder recorded)" in done.stdout
    done = CliRunner().invoke(cli, ["facts", "census", "--json"], env={"CARTO_HOME": str(home.root)})
    document = json.loads(done.stdout)
    census = document.get("facts", document)
    assert sorted(b.get("folder") or "" for b in census["by_project"] if b["name"] == "api") == sorted(["", mine, client])


def test_delta_summarises_two_folders_of_one_name_apart(tmp_path):
    """Delta's summary follows census's rule: a name recorded in several folders, a bucket per
    folder (and one for its rows with no folder); the events themselves are as before."""
    rows_home, mine, client = _home(tmp_path)
    rows = [json.loads(line) for line in rows_home.log("changelog").read_text().splitlines() if line]
    home = Home(tmp_path / "fresh")
    home.log("changelog").parent.mkdir(parents=True, exist_ok=True)
    home.log("changelog").write_text("")
    base = run_facts({"contract_version": 1, "verb": "delta", "call_id": "t"}, home, now=NOW)["facts"]
    append_rows(home.log("changelog"), rows)
    facts = run_facts({"contract_version": 1, "verb": "delta", "call_id": "t", "cursor": base["cursor"]},
                      home, now=NOW)["facts"]
    buckets = [(b["name"], b.get("folder"), b["count"]) for b in facts["summary"]["by_project"]]
    assert buckets == [("api", mine, 5), ("api", client, 3), ("api", None, 1),
                       ("web", None, 1)], buckets
    assert "folder" not in facts["summary"]["by_project"][-1]  # a name of one folder: as before
    assert all("cwd" not in event for event in facts["events"])
    scoped = run_facts({"contract_version": 1, "verb": "delta", "call_id": "t", "cursor": base["cursor"],
                        "project": "api"}, home, now=NOW)["facts"]
    assert [(b.get("folder"), b["count"]) for b in scoped["summary"]["by_project"]] == [
        (mine, 5), (client, 3), (None, 1)]


def test_pulse_text_counts_the_delta_per_folder(tmp_path):
    """Pulse's delta section counts as delta's summary does: a bucket per folder of a name
    recorded in several, named with its folder."""
    rows_home, mine, client = _home(tmp_path)
    rows = [json.loads(line) for line in rows_home.log("changelog").read_text().splitlines() if line]
    home = Home(tmp_path / "fresh")
    home.log("changelog").parent.mkdir(parents=True, exist_ok=True)
    home.log("changelog").write_text("")
    env = {"CARTO_HOME": str(home.root), "HOME": str(tmp_path)}
    cursor = tmp_path / "pulse.cursor"
    first = CliRunner().invoke(cli, ["facts", "pulse", "--cursor-file", str(cursor)], env=env)
    assert first.exit_code == 0, first.output
    append_rows(home.log("changelog"), rows)
    done = CliRunner().invoke(cli, ["facts", "pulse", "--cursor-file", str(cursor)], env=env)
    assert done.exit_code == 0, done.output
    section = done.stdout.split("## Since the last pulse (delta)", 1)[1]
    assert "      5  api (~/me/api)" in section and "      3  api (~/clientA/api)" in section, section
    assert "      1  api (no folder recorded)" in section and "      1  web\n" in section, section


def test_pulse_outside_the_scope_counts_two_folders_of_one_name_apart(tmp_path):
    """The projects a scoped pulse leaves out are census's buckets: a name recorded in several
    folders, a bucket per folder, each naming its folder (without it they read as one project
    listed three times)."""
    home, mine, client = _home(tmp_path)
    request = {"contract_version": 1, "verb": "pulse", "call_id": "t", "since": "24h"}
    outside = run_facts({**request, "project": "web"}, home, now=NOW)["facts"]["outside_scope"]
    # the two rows of project 'unknown' (unattributed) are outside the scope too, in no bucket
    assert outside == {"events": 11, "projects": [{"name": "api", "folder": mine, "count": 5},
                                                  {"name": "api", "folder": client, "count": 3},
                                                  {"name": "api", "folder": None, "count": 1}]}
    outside = run_facts({**request, "project": "api"}, home, now=NOW)["facts"]["outside_scope"]
    assert outside == {"events": 3, "projects": [{"name": "web", "count": 1}]}
