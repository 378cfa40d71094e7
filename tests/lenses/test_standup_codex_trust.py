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
                    "were trusted (Stop); Codex runs them only when hook trust is bypassed (`codex "
                    "--dangerously-bypass-hook-trust`) and otherwise skips them, `codex exec` without "
                    "a word; fix: `carto "
                    "install codex --trust` (records trust for carto's handlers only), or run `codex` in "
                    "a terminal and approve them under /hooks.")

    run("uninstall", "codex")
    run("install", "codex")
    trust, line = _trust()
    assert (trust["state"], trust["trust_known"]) == ("untrusted", True)
    assert line.startswith(f"  Codex hooks untrusted: codex: 10 of carto's hooks in {hooks} never trusted "
                           "(on 9 events: ")
    assert PARENT not in trust["silent_sessions"]  # sessions from before the install say nothing


FIRED = "44444444-4444-4444-8444-444444444444"


def _hook_fired(tmp_path):
    """What carto's PostToolUse hook writes for a Codex session whose hooks ran (the hook
    itself, in-process, as Codex runs it)."""
    from carto_core.capture.hookpath import run as hook

    shop = tmp_path / "shop"
    shop.mkdir()
    payload = {"session_id": FIRED, "transcript_path": None, "cwd": str(shop),
               "hook_event_name": "PostToolUse", "model": "gpt-5.5", "turn_id": "turn-1",
               "permission_mode": "bypassPermissions", "tool_name": "Bash",
               "tool_input": {"command": "npm test -- --grep cart"}, "tool_response": "ok"}
    hook("codex", "PostToolUse", json.dumps(payload).encode(), current_home())


def test_hooks_that_fired_without_a_trust_record_are_not_called_untrusted(shared_fixtures, tmp_path, monkeypatch):
    """A Codex run that bypasses hook trust (`--dangerously-bypass-hook-trust`) runs carto's
    handlers though config.toml records no trust for them. Before: standup called them
    untrusted ('Codex hooks untrusted: ... Codex skips them') while their rows were in the
    window, and doctor said Codex skips them. Now standup says they fired, and what the trust
    record says in the doctor's own words, which no longer claim they are always skipped."""
    codex = _codex(shared_fixtures, tmp_path, monkeypatch)
    monkeypatch.setenv("CARTO_CATCHUP", "0")
    run("install", "codex")  # no --trust: nothing recorded
    run("ingest", "codex", "--root", str(codex), "--settle", "0", "--json")
    _hook_fired(tmp_path)
    trust, line = _trust()
    hooks = codex / "hooks.json"
    events = ("PostCompact, PostToolUse, PreCompact, PreToolUse, SessionEnd, SessionStart, Stop, "
              "SubagentStop, UserPromptSubmit")
    problem = (f"codex: 10 of carto's hooks in {hooks} never trusted (on 9 events: {events}); Codex "
               "runs them only when hook trust is bypassed (`codex --dangerously-bypass-hook-trust`) "
               "and otherwise skips them, `codex exec` without a word")
    fix = ("`carto install codex --trust` (records trust for carto's handlers only), or run `codex` "
           "in a terminal and approve them under /hooks")
    assert {k: trust[k] for k in ("state", "trust_known", "hooks_fired", "silent_sessions")} == {
        "state": "fired", "trust_known": True, "hooks_fired": [FIRED], "silent_sessions": []}
    assert line == ("  Codex hooks fired: carto's hooks logged rows of 1 Codex session in the window, "
                    "so Codex ran them, though its config.toml does not record them as trusted: "
                    f"{problem}; fix: {fix}.")
    doctor = run("doctor", "--no-probe", "--json", ok=(1,))
    assert [p for p in doctor["problems"] if p["problem"].startswith("codex:")] == [
        {"problem": problem, "fix": fix}]
    # Trusted since: the rows say nothing more.
    run("install", "codex", "--trust")
    trust, line = _trust()
    assert (trust["state"], trust["hooks_fired"]) == ("trusted", [FIRED])
