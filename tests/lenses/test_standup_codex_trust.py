"""Standup's word on carto's Codex hooks is the trust Codex itself checks: right after `carto
install codex --trust` they are trusted (the install wrote that trust, and the Codex source reads
it back as `carto doctor` does); a handler changed since, or an install without `--trust`, is
untrusted, with the fix. It never says carto cannot read what carto has just written.

Input: the shared fixtures' Codex rollouts (`shared/fixtures/SOURCES.md`), copied into a Codex
home and ingested, so the window holds Codex sessions with no hook row."""

from __future__ import annotations

import json
import shutil

from carto_core.logio.home import current_home
from tests.clikit import run

PARENT = "22222222-2222-4222-8222-222222222222"


def _codex(shared_fixtures, tmp_path, monkeypatch):
    codex = tmp_path / "codex"
    shutil.copytree(shared_fixtures / "codex" / "claude-code-log" / "sessions", codex / "sessions")
    monkeypatch.setenv("CODEX_HOME", str(codex))
    return codex


def _trust(*args: str) -> tuple[dict, str]:
    doc = run("standup", "--since", "2y", "--no-git", "--json", *args)
    text = run("standup", "--since", "2y", "--no-git")
    (line,) = [x for x in text.splitlines() if x.startswith("  Codex hooks ")]
    return doc["silent"]["codex_hook_trust"], line


def test_hooks_trusted_by_the_install_are_trusted_in_standup(shared_fixtures, tmp_path, monkeypatch):
    codex = _codex(shared_fixtures, tmp_path, monkeypatch)
    run("install", "codex", "--trust")
    run("ingest", "codex", "--root", str(codex), "--settle", "0", "--json")
    trust, line = _trust()
    hooks = codex / "hooks.json"
    assert {k: trust[k] for k in ("state", "trust_known", "hook_files", "silent_sessions")} == {
        "state": "trusted", "trust_known": True, "hook_files": [str(hooks)],
        "silent_sessions": []}
    assert line == (f"  Codex hooks trusted: carto's hooks in {hooks} are trusted in Codex's config.toml, as Codex "
                    "checks before it runs one (3 Codex sessions in the window are from before they "
                    "were installed).")
    assert current_home().log("turns").is_file()


def test_a_changed_handler_and_an_install_without_trust_are_untrusted(shared_fixtures, tmp_path, monkeypatch):
    codex = _codex(shared_fixtures, tmp_path, monkeypatch)
    run("install", "codex", "--trust")
    run("ingest", "codex", "--root", str(codex), "--settle", "0", "--json")
    hooks = codex / "hooks.json"
    data = json.loads(hooks.read_text())
    data["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 9
    hooks.write_text(json.dumps(data))
    trust, line = _trust()
    assert (trust["state"], trust["trust_known"]) == ("untrusted", True)
    assert line == (f"  Codex hooks untrusted: codex: one of carto's hooks in {hooks} changed since they "
                    "were trusted (Stop); Codex skips them, `codex exec` without a word; fix: `carto "
                    "install codex --trust` (records trust for carto's handlers only), or run `codex` in "
                    "a terminal and approve them under /hooks.")

    run("uninstall", "codex")
    run("install", "codex")
    trust, line = _trust()
    assert (trust["state"], trust["trust_known"]) == ("untrusted", True)
    assert line.startswith(f"  Codex hooks untrusted: codex: 10 of carto's hooks in {hooks} never trusted "
                           "(on 9 events: ")
    assert PARENT not in trust["silent_sessions"]  # sessions from before the install say nothing
