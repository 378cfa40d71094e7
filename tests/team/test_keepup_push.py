"""The detached keep-up job pushes to the team when the home has one: started by hooks (one
stat, no import of the team's driver), never pushing inside the hook itself."""

from __future__ import annotations

import json

from carto_core.capture import detached, keepup
from carto_core.jobs import keepup as keepup_job

from teamkit import Machine, activity, make_repo, make_team, server_rows


def test_the_keep_up_pushes_when_a_team_is_set_up(tmp_path, pg_db, monkeypatch):
    shop = make_repo(tmp_path / "shop", "git@github.com:acme/shop.git")
    members = make_team(pg_db)
    a = Machine(tmp_path / "a", "alice-laptop")
    a.write_all(activity("s1", shop, start=30))
    monkeypatch.setenv("CARTO_KEEPUP", "1")
    monkeypatch.setenv("CARTO_SEMANTIC", "0")
    calls = []
    monkeypatch.setattr(detached, "spawn", lambda home, module, args: calls.append(module))
    # No team: the semantic ladder off leaves nothing to keep up.
    assert keepup.maybe_start(a.home, force=True) is None and calls == []
    a.join(members["alice"][1], "acme", shop)
    assert keepup.maybe_start(a.home, force=True) == "started"
    assert calls == ["carto_core.jobs.keepup"]
    result = keepup_job.run(a.home)
    assert result["team"]["state"] == "ok" and result["team"]["inserted"] == 6
    assert len(server_rows(pg_db)) == 6
    log = [json.loads(line) for line in (a.home.state / "team" / "push-log.jsonl").read_text().splitlines()]
    assert log[-1]["state"] == "ok" and log[-1]["inserted"] == 6
    # A ladder that cannot help does not back the team's pushes off.
    assert keepup.maybe_start(a.home, force=True) == "started"
    monkeypatch.setenv("CARTO_TEAM_PUSH", "0")
    assert keepup.maybe_start(a.home, force=True) is None


def test_the_hook_side_stat_names_the_settings_file_the_team_writes(tmp_path):
    from carto_core.logio.home import Home
    from carto_core.team.settings import settings_path

    home = Home(tmp_path)
    assert home.state.joinpath(*keepup.TEAM_SETTINGS) == settings_path(home)
