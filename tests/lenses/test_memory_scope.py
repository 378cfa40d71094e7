"""A MEMORY.md belongs to one folder. A project is named by its folder's last name, so
`/…/clientA/api` and `/…/me/api` are both "api": what one folder's memory holds is what was
recorded in that folder, never the other's (a client's NDA preferences must not reach the
owner's own repository). Rows of a project in `[capture] exclude` reach no memory, and a
forget takes a project out of every memory's profile lines too."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.control import memoryfiles
from carto_core.lenses.memory import build_memory
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home

NDA = "never mention Acme Bank in commit messages, the contract is under NDA"
MINE = "always use ruff for formatting"
BASE = datetime(2026, 11, 1, tzinfo=timezone.utc)


def _ts(n: int) -> str:
    return (BASE + timedelta(hours=n)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _prompt(n: int, text: str, cwd: str | None, project: str = "api") -> dict:
    row = {"event_id": f"evt-scope{n:07d}", "timestamp": _ts(n), "type": "prompt", "provider": "claude",
           "summary": text, "project": project, "session_id": f"s{n}"}
    if cwd:
        row["cwd"] = cwd
    return row


def _wrapup(n: int, decision: str, cwd: str) -> dict:
    return {"event_id": f"evt-wrap{n:08d}", "timestamp": _ts(n), "milestone": "session_wrapup",
            "provider": "claude", "description": "d", "session_id": f"w{n}", "project": "api",
            "cwd": cwd, "decisions": [decision], "unresolved": [], "key_insight": ""}


def _two_apis(tmp_path):
    client, mine = tmp_path / "proj" / "clientA" / "api", tmp_path / "proj" / "me" / "api"
    client.mkdir(parents=True)
    mine.mkdir(parents=True)
    home = Home(tmp_path / "h")
    home.root.mkdir()
    append_rows(home.log("prompts"), [
        _prompt(1, "always route payments through the Acme Bank sandbox gateway", str(client)),
        _prompt(2, NDA, str(client / "src")),
        _prompt(3, MINE, str(mine)),
    ])
    append_rows(home.log("milestones"), [_wrapup(4, "bill Acme Bank monthly", str(client)),
                                         _wrapup(5, "ship the api as a wheel", str(mine))])
    return home, client, mine


def _texts(memory, section: str) -> list[str]:
    return [item.text for item in memory.sections[section]]


def test_a_folders_memory_holds_only_what_was_recorded_in_that_folder(tmp_path):
    home, client, mine = _two_apis(tmp_path)
    memory = build_memory(home, "api", str(mine))
    assert _texts(memory, "preferences") == [MINE]
    assert _texts(memory, "decisions") == ["ship the api as a wheel"]
    other = build_memory(home, "api", str(client))
    assert NDA in _texts(other, "preferences") and MINE not in _texts(other, "preferences")
    assert _texts(other, "decisions") == ["bill Acme Bank monthly"]


def test_a_row_without_a_folder_belongs_only_while_the_name_is_one_folders(tmp_path):
    home, client, mine = _two_apis(tmp_path)
    append_rows(home.log("prompts"), [_prompt(9, "never commit the generated docs", None)])
    # "api" is two folders: a row that names none cannot be placed, so neither takes it
    assert "never commit the generated docs" not in _texts(build_memory(home, "api", str(mine)), "preferences")
    assert "never commit the generated docs" not in _texts(build_memory(home, "api", str(client)), "preferences")
    alone = Home(tmp_path / "h2")
    alone.root.mkdir()
    append_rows(alone.log("prompts"), [_prompt(1, MINE, str(mine)), _prompt(2, "never commit the generated docs", None)])
    assert _texts(build_memory(alone, "api", str(mine)), "preferences") == [
        "never commit the generated docs", MINE]


def test_carto_memory_write_in_one_folder_and_the_refresh_keep_the_other_folders_rows_out(tmp_path, monkeypatch):
    home, client, mine = _two_apis(tmp_path)
    target = mine / "MEMORY.md"
    monkeypatch.chdir(mine)
    env = {"CARTO_HOME": str(home.root), "CARTO_SESSION_ID": "", "CLAUDE_CODE_SESSION_ID": "",
           "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    printed = CliRunner().invoke(cli, ["memory", "--json"], env=env)
    assert printed.exit_code == 0, printed.output
    assert json.loads(printed.output)["folder"] == str(mine) and "Acme" not in printed.output
    done = CliRunner().invoke(cli, ["memory", "--write", "--file", str(target)], env=env)
    assert done.exit_code == 0, done.output
    assert MINE in target.read_text() and "Acme" not in target.read_text()
    # the client's folder records more; the refresh of me/api's file still takes none of it
    append_rows(home.log("prompts"), [_prompt(7, "always cc legal@acme.example on Acme Bank releases", str(client))])
    memoryfiles.refresh(home)
    assert "Acme" not in target.read_text()


def test_an_excluded_projects_rows_and_profile_line_reach_no_memory(tmp_path, monkeypatch):
    home = Home(tmp_path / "h")
    home.root.mkdir()
    append_rows(home.log("prompts"), [_prompt(1, "always use pnpm instead of npm", "/w/webshop", "webshop"),
                                      _prompt(2, "always encrypt the zebrafish exports", "/w/nda-client", "nda-client")])
    home.ensure_state()
    (home.state / "profile.md").write_text(
        "# Profile\n\n## Active surface\n- webshop: last seen 2026-11-01, 1 event, 0 commits\n"
        "- nda-client: last seen 2026-11-01, 1 event, 0 commits\n")
    config = tmp_path / "config.toml"
    config.write_text('[capture]\nexclude = ["nda-client"]\n')
    monkeypatch.setenv("CARTO_CONFIG", str(config))
    webshop = build_memory(home, "webshop")
    assert not any("nda-client" in text for text in _texts(webshop, "profile"))
    assert any("webshop" in text for text in _texts(webshop, "profile"))
    assert not build_memory(home, "nda-client").knows_project()


def test_forget_takes_a_project_out_of_every_memorys_profile_lines(tmp_path):
    from carto_core.control.criteria import Criteria
    from carto_core.control.forget import forget
    from carto_core.lenses.memory import render
    from carto_core.lenses.profile import build_profile, write_profile

    home = Home(tmp_path / "h")
    home.root.mkdir()
    append_rows(home.log("prompts"), [
        _prompt(1, "always use pnpm instead of npm", "/w/webshop", "webshop"),
        _prompt(2, "plan the hippocampus migration", "/w/secretproj", "secretproj"),
        _prompt(3, "always encrypt the zebrafish exports", "/w/secretproj", "secretproj")])
    write_profile(home, build_profile(home))
    target = tmp_path / "MEMORY.md"
    target.write_text(render(build_memory(home, "webshop")))
    memoryfiles.remember(home, target, "webshop")
    assert "secretproj" in target.read_text()
    forget(home, Criteria(projects=["secretproj"]))
    assert "secretproj" not in target.read_text() and "pnpm" in target.read_text()
