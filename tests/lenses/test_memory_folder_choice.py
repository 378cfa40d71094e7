"""`carto memory --project api` where two folders are named api (`~/me/api`, `~/clientA/api`):
a MEMORY.md is one folder's, so run from outside both it names them and asks for one (exit 2,
as an ambiguous --project or event id prefix), instead of taking the folder with more rows and
writing one client's memory into another's folder. A full path chooses; so does running it
inside one of them."""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home

NDA = "never mention Acme Bank in commit messages, the contract is under NDA"
MINE = "always use ruff for formatting"


def _prompt(n: int, text: str, cwd: str) -> dict:
    return {"event_id": f"evt-choose{n:06d}", "timestamp": f"2026-11-01T0{n}:00:00Z", "type": "prompt",
            "provider": "claude", "summary": text, "project": "api", "session_id": f"s{n}", "cwd": cwd}


def _two_apis(tmp_path, monkeypatch):
    client, mine = tmp_path / "w" / "clientA" / "api", tmp_path / "w" / "me" / "api"
    (client / "src").mkdir(parents=True)
    mine.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    home = Home(tmp_path / "h")
    home.root.mkdir()
    # the client's folder holds more rows: the old choice took it for `--project api`
    append_rows(home.log("prompts"), [_prompt(1, "always route payments through the Acme Bank sandbox", str(client)),
                                      _prompt(2, NDA, str(client / "src")),
                                      _prompt(3, MINE, str(mine))])
    monkeypatch.chdir(elsewhere)
    env = {"CARTO_HOME": str(home.root), "CARTO_SESSION_ID": "", "CLAUDE_CODE_SESSION_ID": "",
           "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "CLAUDE_CONFIG_DIR": str(tmp_path / "claude")}
    return env, client, mine


def _run(env, *args):
    return CliRunner().invoke(cli, ["memory", *args], env=env)


def test_a_name_of_two_folders_is_refused_from_outside_both_naming_them(tmp_path, monkeypatch):
    env, client, mine = _two_apis(tmp_path, monkeypatch)
    for args in (["--project", "api"], ["--project", "api", "--write"]):
        done = _run(env, *args)
        assert done.exit_code == 2, done.output
        assert str(client) in done.stderr and str(mine) in done.stderr and "full path" in done.stderr
        assert "Acme" not in done.stdout
    assert not (tmp_path / "claude").exists()  # nothing written anywhere
    answer = _run(env, "--project", "api", "--json")
    assert answer.exit_code == 2
    document = json.loads(answer.stdout)
    assert document["exit_code"] == 2 and "full path" in document["error"]
    assert [f["folder"] for f in document["folders"]] == [str(client), str(mine)]
    assert [f["rows"] for f in document["folders"]] == [2, 1]


def test_a_full_path_or_the_current_folder_chooses(tmp_path, monkeypatch):
    env, client, mine = _two_apis(tmp_path, monkeypatch)
    chosen = _run(env, "--project", str(mine), "--json")
    assert chosen.exit_code == 0, chosen.output
    document = json.loads(chosen.stdout)
    assert document["folder"] == str(mine) and document["project"] == "api"
    assert "Acme" not in chosen.stdout and MINE in document["markdown"]
    target = tmp_path / "MEMORY.md"
    written = _run(env, "--project", str(mine), "--write", "--file", str(target))
    assert written.exit_code == 0 and MINE in target.read_text() and "Acme" not in target.read_text()
    monkeypatch.chdir(client / "src")
    inside = json.loads(_run(env, "--project", "api", "--json").stdout)
    assert inside["folder"] == str(client) and NDA in inside["markdown"]
    unknown = _run(env, "--project", str(tmp_path / "w" / "nowhere"))
    assert unknown.exit_code == 3 and "nowhere" in unknown.stderr
