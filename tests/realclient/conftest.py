"""The realclient tier: fixtures that run the genuine, pinned clients (pins.json) through scripted
sessions (harness.py) and hand the finished run to the test.

    def test_commit_row(claude_session):
        run = claude_session()                     # CLAUDE_MAIN, run once per test session
        assert run.rows("changelog")

    def test_something_that_changes_the_home(claude_session, tmp_path):
        run = claude_session(CLAUDE_EXTRA).clone(tmp_path)   # a copy to ingest into, edit, ...

    def test_own_session(claude_session):
        run = claude_session(MY_SCRIPT, setup=seed, fresh=True)  # options: harness.run_*_session

A session with the same script and options runs once per pytest session (a real session costs
seconds); `fresh=True` forces a new one. Every test here is marked `realclient`; without the
binaries (tests/realclient/install_clients.py puts them in the cache) each skips with one line,
and fails instead under CARTO_REQUIRE_BINARIES (CI).
"""

from __future__ import annotations

import json

import pytest

from .clients import binary, pins
from .harness import run_claude_session, run_codex_session
from .scripts import CLAUDE_MAIN, CODEX_MAIN

INSTALL_HINT = "the pinned clients with `python3 tests/realclient/install_clients.py` (needs npm)"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "realclient" in item.path.parts:
            item.add_marker(pytest.mark.realclient)


def _client(require_binary, name: str) -> str:
    pin = pins()[name]
    return require_binary(binary(name), what=f"{pin['package']} {pin['version']}", install=INSTALL_HINT)


@pytest.fixture(scope="session")
def claude_bin(require_binary) -> str:
    return _client(require_binary, "claude")


@pytest.fixture(scope="session")
def codex_bin(require_binary) -> str:
    return _client(require_binary, "codex")


def _session_cache(runner, client: str, default_script, tmp_path_factory, prefix: str):
    cache: dict[str, object] = {}

    def run(script=None, *, fresh: bool = False, **options):
        script = default_script if script is None else script
        key = json.dumps([script, sorted((k, repr(v)) for k, v in options.items())])
        if fresh or key not in cache:
            options.setdefault("client", client)
            cache[key] = runner(tmp_path_factory.mktemp(prefix), script, **options)
        return cache[key]

    return run


@pytest.fixture(scope="session")
def claude_session(claude_bin, tmp_path_factory):
    """`claude_session(script=CLAUDE_MAIN, fresh=False, **options) -> harness.Run`."""
    return _session_cache(run_claude_session, claude_bin, CLAUDE_MAIN, tmp_path_factory, "claude")


@pytest.fixture(scope="session")
def codex_session(codex_bin, tmp_path_factory):
    """`codex_session(script=CODEX_MAIN, fresh=False, **options) -> harness.Run`."""
    return _session_cache(run_codex_session, codex_bin, CODEX_MAIN, tmp_path_factory, "codex")
