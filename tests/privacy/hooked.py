"""A home written by carto's own hooks, for the tests that check what a payload leaves under it."""

from __future__ import annotations

import json


def home_text(root) -> str:
    """Every file under the home, `.carto/` included, as one text."""
    return "".join(p.read_text("utf-8", "replace") for p in sorted(root.rglob("*")) if p.is_file())


def through_hooks(tmp_path, monkeypatch, *, prompt: str, command: str, output: str,
                  answer: str):
    """A home under `tmp_path` that Codex's and Claude's hooks recorded one turn in: the prompt,
    a Bash call of `command` that printed `output`, and the final `answer`."""
    from carto_core.capture.hookpath import run
    from carto_core.logio.home import Home

    home = Home(tmp_path / "home")
    for name, value in {"CARTO_HOME": str(home.root), "HOME": str(tmp_path), "CARTO_CATCHUP": "0",
                        "CARTO_KEEPUP": "0", "CARTO_SPILL_DIR": str(tmp_path / "spill")}.items():
        monkeypatch.setenv(name, value)
    repo = tmp_path / "repo"
    repo.mkdir()

    def hook(provider, event, payload):
        base = {"session_id": f"s-{provider}", "cwd": str(repo), "hook_event_name": event,
                "transcript_path": f"/nonexistent/{provider}.jsonl"}
        run(provider, event, json.dumps({**base, **payload}).encode(), home)

    for provider in ("codex", "claude"):
        hook(provider, "UserPromptSubmit", {"prompt": prompt})
        bash = {"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": f"t-{provider}"}
        hook(provider, "PreToolUse", bash)
        hook(provider, "PostToolUse", {**bash, "tool_response": {"stdout": output, "stderr": ""}})
        hook(provider, "Stop", {"last_assistant_message": answer})
    return home
