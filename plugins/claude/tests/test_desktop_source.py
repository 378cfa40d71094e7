"""The Claude desktop app's session metadata as a source, on fixtures built here from the
format third-party readers document (docs/providers/claude-desktop.md): the contract suite,
titles and prompts found by search, a session's row tied to its Claude Code session, a rename
revising the row, a tombstone marking it deleted, the folders per system."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_claude.desktop import ClaudeDesktopSource, default_app_dirs
from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.testing import SourceContract

pytest_plugins = ["carto_core.testing"]

CODE = "8d3f0000-1111-4222-8333-444455556666"
COWORK = "77aa0000-1111-4222-8333-444455556666"


def app_dir(base: Path, *, title="Fix the albatross checkout", prompt="the checkout total is wrong when a coupon applies") -> Path:
    root = base / "Claude"
    code = root / "claude-code-sessions" / "acct-1" / "ws-1"
    cowork = root / "local-agent-mode-sessions" / "acct-1" / "ws-1"
    code.mkdir(parents=True)
    cowork.mkdir(parents=True)
    (code / f"local_{CODE}.json").write_text(json.dumps({
        "sessionId": f"local_{CODE}", "cliSessionId": "5c0375b4-57a5-4f26-b12d-d022ee4e51b7",
        "title": title, "cwd": "/work/webshop", "model": "claude-opus", "createdAt": 1790000000000,
        "lastActivityAt": 1790000600000, "initialMessage": prompt}))
    (cowork / f"local_{COWORK}.json").write_text(json.dumps({
        "sessionId": f"local_{COWORK}", "title": "Quarterly cormorant report",
        "userSelectedFolders": ["/Users/me/Reports"], "createdAt": 1790001000000}))
    # a Cowork session's own folder (what it worked on): never a session file, whatever its names
    work = cowork / f"local_{COWORK}"
    work.mkdir()
    (work / "cowork_settings.json").write_text(json.dumps({"model": "claude-opus"}))
    (work / "local_export.json").write_text(json.dumps({"sessionId": "local_export", "title": "an upload"}))
    return root


class TestDesktopContract(SourceContract):
    min_rows = 3

    @pytest.fixture
    def source(self, tmp_path):
        return ClaudeDesktopSource({"roots": [str(app_dir(tmp_path))]})

    @pytest.fixture
    def garbage_source(self, tmp_path):
        root = tmp_path / "Claude" / "claude-code-sessions" / "a" / "w"
        root.mkdir(parents=True)
        (root / "local_broken.json").write_text("{not json")
        (root / "local_list.json").write_text("[1, 2]")
        (root / "local_bytes.json").write_bytes(b'{"title": "\xff\xfe"}')
        (root / "local_empty.json").write_text("{}")
        return ClaudeDesktopSource({"roots": [str(tmp_path / "Claude")]})


def run(*args, ok=(0,)):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in ok, (args, result.exit_code, result.output)
    return json.loads(result.stdout) if "--json" in args else result


def found(word):
    doc = run("search", word, "--json", "--all", "--no-semantic", ok=(0, 3))
    return {r["event_id"]: r for r in doc["results"]}


def test_titles_and_prompts_are_searchable_and_tied_to_the_session(tmp_path):
    root = app_dir(tmp_path)
    summary = run("ingest", "claude-desktop", "--root", str(root), "--json")
    assert summary["written"] == {"changelog": 2, "prompts": 1}
    home = Home(os.environ["CARTO_HOME"])
    hits = found("albatross")
    assert list(hits) == [f"desktop-{CODE}"]
    row = run("search", "--get", f"desktop-{CODE}", "--json")["found"][f"desktop-{CODE}"]
    assert row["session_id"] == "5c0375b4-57a5-4f26-b12d-d022ee4e51b7" and row["project"] == "webshop"
    assert row["desktop_kind"] == "code" and row["timestamp"] == "2026-09-21T14:13:20Z"
    assert f"desktop-prompt-{CODE}" in found("coupon")
    prompt = json.loads(home.log("prompts").read_text().splitlines()[0])
    assert prompt["prompt_intent"] == "bug-fixes"
    cowork = run("search", "--get", f"desktop-{COWORK}", "--json")["found"][f"desktop-{COWORK}"]
    assert cowork["desktop_kind"] == "cowork" and cowork["cwd"] == "/Users/me/Reports"
    assert run("ingest", "claude-desktop", "--root", str(root), "--json", ok=(0, 3))["rows_written"] == 0
    # renamed in the app: the row is revised, the old title is no longer found
    path = next(root.rglob(f"local_{CODE}.json"))
    data = json.loads(path.read_text())
    data["title"] = "Fix the bittern checkout"
    path.write_text(json.dumps(data))
    run("ingest", "claude-desktop", "--root", str(root), "--json")
    assert f"desktop-{CODE}" in found("bittern") and not found("albatross")
    # deleted in the app: a tombstone marks it
    (path.parent / f"deleted_{CODE}.json").write_text(json.dumps({"sessionId": f"local_{CODE}", "title": data["title"]}))
    run("ingest", "claude-desktop", "--root", str(root), "--json")
    row = run("search", "--get", f"desktop-{CODE}", "--json")["found"][f"desktop-{CODE}"]
    assert row["desktop_state"] == "deleted"


@pytest.mark.parametrize("platform,env,expected", [
    ("darwin", {"HOME": "/Users/me"}, ["/Users/me/Library/Application Support/Claude",
                                        "/Users/me/Library/Application Support/Claude-3p"]),
    ("linux", {"HOME": "/home/me"}, ["/home/me/.config/Claude"]),
    ("linux", {"HOME": "/home/me", "XDG_CONFIG_HOME": "/cfg"}, ["/cfg/Claude"]),
    ("win32", {"HOME": "C:/Users/me", "APPDATA": "C:/Users/me/AppData/Roaming"},
     ["C:/Users/me/AppData/Roaming/Claude"]),
])
def test_where_the_app_keeps_its_sessions(platform, env, expected):
    assert [p.as_posix() for p in default_app_dirs(env, platform)] == expected


def test_nothing_to_read_without_the_app(tmp_path):
    assert run("ingest", "claude-desktop", "--root", str(tmp_path / "nope"), ok=(3,)).exit_code == 3
