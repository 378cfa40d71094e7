"""A small home with earlier work in one session and everyday noise in others, its keyword
index persisted, and the plugin table knowing the search classes (as after any CLI call)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

CARTO = [sys.executable, "-c", "import sys; from carto_core.entry import main; sys.exit(main())"]
NOW = datetime.now(timezone.utc).replace(microsecond=0)
WORK_ID = "evt-coupon0stack"
COMMIT_ID = "evt-coupon0commt"


def _ts(days: float) -> str:
    return (NOW - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")


NOISE = [
    "Ran: npm test", "Ran: make test", "Ran: pytest -q", "Ran: git status --short", "Ran: ls -la",
    "Modified: src/app.py", "Modified: README.md", "Modified: src/server/routes.py",
    "Ran: npm run build", "Ran: docker compose up", "Modified: tests/test_api.py",
    "Ran: cargo test", "Ran: ruff check", "Modified: src/db/schema.sql", "Ran: uv run pytest",
    "Ran: kubectl get pods", "Modified: docs/index.md", "Ran: make lint", "Ran: go test ./...",
    "Modified: web/styles.css", "Ran: npm run dev", "Modified: src/auth/login.ts",
]
PROMPTS = ["run the tests again", "thanks, looks good", "can you fix the lint errors", "hello",
           "please update the readme", "start the dev server", "continue", "commit this"]


def write_home(home: Path) -> dict:
    home.mkdir(parents=True, exist_ok=True)
    changelog, tool_use, prompts = [], [], []
    for i, summary in enumerate(NOISE * 3):
        sid = f"noise-{i % 5}"
        event_id = f"evt-noise{i:07d}"
        row = {"event_id": event_id, "timestamp": _ts(1 + i % 40), "type": "tool_bash"
               if summary.startswith("Ran") else "tool_file_edit", "provider": "claude",
               "summary": summary, "project": ["infra", "webshop", "blog"][i % 3],
               "cwd": "/src/x", "session_id": sid, "salience": 0.2}
        changelog.append(row)
    for i, text in enumerate(PROMPTS * 2):
        prompts.append({"event_id": f"evt-prompt{i:06d}", "timestamp": _ts(2 + i), "type": "prompt",
                        "provider": "claude", "summary": text, "project": "webshop",
                        "session_id": f"noise-{i % 5}", "salience": 0.6})
    changelog.append({"event_id": WORK_ID, "timestamp": _ts(6), "type": "tool_file_edit",
                      "provider": "claude", "summary": "Modified: src/checkout/coupons.py - coupon "
                      "stacking fixed: discounts are applied before tax, one coupon per order",
                      "project": "webshop", "cwd": "/src/webshop", "session_id": "work-session",
                      "salience": 0.4})
    changelog.append({"event_id": COMMIT_ID, "timestamp": _ts(6), "type": "git_commit",
                      "provider": "claude", "summary": "Committed: a1b2c3d fix(checkout): stop coupon "
                      "stacking on discounted carts", "project": "webshop", "cwd": "/src/webshop",
                      "session_id": "work-session", "salience": 0.8})
    for name, rows in (("changelog.jsonl", changelog), ("prompt-history.jsonl", prompts)):
        with open(home / name, "w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row) + "\n")
    return {"work": WORK_ID, "commit": COMMIT_ID}


def build_index(home: Path) -> None:
    from carto_core.logio.home import Home
    from carto_core.plugin.registry import RANKING_HOOKS, get_registries
    from carto_core.search.engine import SearchEngine

    get_registries(hooks=RANKING_HOOKS)  # records the classes in the plugin table, as any CLI call
    SearchEngine(Home(home)).ensure_loaded()


@pytest.fixture(autouse=True)
def _plugin_table():
    """Each test has its own HOME, so its own plugin table: filled as any CLI call fills it."""
    from carto_core.plugin.registry import RANKING_HOOKS, get_registries

    get_registries(hooks=RANKING_HOOKS)


@pytest.fixture
def recall_home(tmp_path) -> Path:
    home = tmp_path / "home"
    write_home(home)
    build_index(home)
    return home


def run_hook(home: Path, provider: str, payload: dict | bytes, env: dict | None = None,
             event: str = "UserPromptSubmit") -> subprocess.CompletedProcess:
    stdin = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    environment = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", **(env or {})}
    return subprocess.run([*CARTO, "hook", provider, event], input=stdin, capture_output=True,
                          env=environment, timeout=120)


def prompt_payload(session: str, prompt: str, cwd: str = "/src/webshop") -> dict:
    return {"session_id": session, "cwd": cwd, "hook_event_name": "UserPromptSubmit",
            "transcript_path": f"/tmp/{session}.jsonl", "prompt": prompt}


def context_of(done: subprocess.CompletedProcess) -> str | None:
    if not done.stdout.strip():
        return None
    document = json.loads(done.stdout)
    assert document["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    return document["hookSpecificOutput"]["additionalContext"]
