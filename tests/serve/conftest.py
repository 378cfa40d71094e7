"""Fixtures for `carto serve`: a sample home, transcript roots, the app under TestClient and a
real uvicorn server on 127.0.0.1 for the browser tests."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import pytest

# No skip when the extra is missing: `requirements-dev.txt` installs carto-core[serve], and a
# suite that skipped these tests would pass without testing the explorer.
from starlette.testclient import TestClient

from carto_core.evaluation.sample import SESSIONS, build_sample_home

from .browserkit import ARGS, CHROMIUM, VIEWPORT
from carto_core.serve.app import create_app
from carto_core.transcript.resolver import TranscriptRoots

BASE = "http://127.0.0.1:8000"


def write_transcript(path: Path, session_id: str, texts: list[tuple[str, str]]) -> None:
    """A Claude-shaped transcript: (role, text) pairs, plus a tool_result line that is not a
    message of its own."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for index, (role, text) in enumerate(texts):
        lines.append({"type": role, "sessionId": session_id, "timestamp": f"2026-01-01T00:00:{index:02d}Z",
                      "message": {"role": role, "content": [{"type": "text", "text": text}]}})
    lines.append({"type": "user", "sessionId": session_id,
                  "message": {"role": "user", "content": [{"type": "tool_result", "content": "x"}]}})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


@pytest.fixture
def roots(tmp_path) -> TranscriptRoots:
    claude = tmp_path / "claude-projects"
    codex = tmp_path / "codex-home"
    (codex / "sessions").mkdir(parents=True)
    write_transcript(claude / "-work-webshop" / f"{SESSIONS['a']}.jsonl", SESSIONS["a"],
                     [("user", "add discount codes to the cart"),
                      ("assistant", "I'll add a DiscountCode model."),
                      ("user", "<b>bold?</b> and thanks")])
    return TranscriptRoots(claude=(claude,), codex=(codex,))


@pytest.fixture
def home(tmp_path):
    return build_sample_home(tmp_path / "home")


@pytest.fixture
def app(home, roots):
    return create_app(home, transcript_roots=roots, poll_seconds=0.05, stream_lifetime=1.0,
                      heartbeat_seconds=0.2)


def bearer(app) -> dict[str, str]:
    """The header that carries the app's serve token (`carto_core.serve.token`)."""
    return {"authorization": f"Bearer {app.state.carto.token}"}


@pytest.fixture
def client(app):
    with TestClient(app, base_url=BASE, headers=bearer(app)) as test_client:
        yield test_client


class LiveServer:
    """uvicorn serving an app on 127.0.0.1 in a thread (the way `carto serve` runs it)."""

    def __init__(self, app):
        import uvicorn

        # IPPROTO_TCP, as `carto serve` does: asyncio then sets TCP_NODELAY.
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.token = app.state.carto.token
        #: The page's address as `carto serve` prints it: the first visit trades the token
        #: for the cookie (and a redirect to `root`).
        self.root = f"http://127.0.0.1:{self.port}/"
        self.url = f"{self.root}?token={self.token}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


@pytest.fixture(scope="module")
def browser(require_binary):
    """Debian's chromium under Playwright, one per test module (a start costs about a second)."""
    from playwright import sync_api

    require_binary(CHROMIUM, what="the browser tests' chromium",
                   install="Debian's chromium package (apt-get install chromium; .ci/system-packages)")
    with sync_api.sync_playwright() as playwright:
        # Playwright gives the browser a fresh, empty profile of its own.
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A page at 1400x1000 that fails the test on any uncaught script error."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert errors == [], errors
