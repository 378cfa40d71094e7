"""Test isolation for the whole workspace: no test sees a real home, config or live session.

Every test runs with HOME, the XDG folders (the cache included) and CARTO_HOME inside its own
temporary folder, the session variables unset (delta serving would otherwise hide results) and
telemetry landing in that temporary home.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

#: Set by `.ci/run`: a test whose browser or real client binary is missing fails instead of
#: skipping (the one skip the suite allows, on a machine without the binary).
REQUIRE_BINARIES = "CARTO_REQUIRE_BINARIES"
#: what is missing -> the one line that says how to install it (printed once, at the end).
_missing_binaries: dict[str, str] = {}

# On CI the property tests explore a fixed set of examples (hypothesis' advice for CI): a run is
# reproducible, and new counterexamples are hunted in development runs, which stay random.
# No example has a deadline: a deadline is a timed assertion, and on a loaded machine it fails
# a property that holds (speed is measured by the benchmarks instead).
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", derandomize=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

SESSION_VARS = (
    "CARTO_SESSION_ID", "CARTOGRAPHER_SESSION_ID", "CLAUDE_SESSION_ID", "CLAUDE_CODE_SESSION_ID",
    "CODEX_SESSION_ID", "CODEX_THREAD_ID", "CODEX_HOME",
)
LEAKY_VARS = (
    "CARTOGRAPHER_DEV_DIR", "CARTO_CONFIG", "CARTO_PROJECT_REGISTRY", "CARTOGRAPHER_PROJECT_REGISTRY",
    "CARTO_DISABLE_PLUGINS", "CARTO_RANKERS", "CARTO_DECAY", "CARTO_EMBEDDER", "CARTO_QDRANT_URL",
    "CARTO_HOOK_TIMEOUT", "CARTO_SPILL_MAX_BYTES",
)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    base = tmp_path_factory.mktemp("env")
    fake_home = base / "user"
    fake_home.mkdir()
    monkeypatch.setenv("HOME", str(fake_home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(fake_home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(fake_home / ".local" / "share"))
    # The plugin table and derived model weights are cached under XDG_CACHE_HOME: a test writes
    # only to its own (a caller's XDG_CACHE_HOME would otherwise receive the tests' tables).
    monkeypatch.setenv("XDG_CACHE_HOME", str(fake_home / ".cache"))
    monkeypatch.setenv("CARTO_HOME", str(base / "carto-home"))
    monkeypatch.setenv("TMPDIR_BASE", str(base / "tmp"))
    # A hook whose home refuses a row spills it outside the home (carto_core.logio.spill): never
    # into the machine's shared /tmp folder from a test.
    monkeypatch.setenv("CARTO_SPILL_DIR", str(base / "spill"))
    for var in SESSION_VARS + LEAKY_VARS:
        monkeypatch.delenv(var, raising=False)
    # The semantic keep-up is a detached child: a test that wants it turns it on itself.
    monkeypatch.setenv("CARTO_KEEPUP", "0")
    # The semantic ladder's mechanics are tested with the static embedder, which embeds a row
    # in microseconds; the default (minilm: an encoder pass a row) and its fallback are tested
    # in rankers/tests/test_minilm.py, which names it.
    monkeypatch.setenv("CARTO_EMBEDDER", "wordllama")
    from carto_core.plugin import registry
    from carto_core.privacy import redact

    registry.set_registries(None)
    redact._default = None
    yield
    registry.set_registries(None)
    redact._default = None
    os.environ.pop("CARTO_HOME", None)


@pytest.fixture(scope="session")
def require_binary():
    """`require_binary(path, what=..., install=...)` returns `path` when it is an executable file;
    otherwise skips the test with one line naming what to install, or fails it when
    CARTO_REQUIRE_BINARIES is set (CI)."""

    def require(path, *, what: str, install: str) -> str:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return str(path)
        line = f"{what} not found ({path or 'not on PATH'}): install {install}"
        if os.environ.get(REQUIRE_BINARIES):
            pytest.fail(f"{line} ({REQUIRE_BINARIES} is set: this run requires it)", pytrace=False)
        _missing_binaries[what] = line
        pytest.skip(line)

    return require


def pytest_terminal_summary(terminalreporter):
    for line in _missing_binaries.values():
        terminalreporter.write_line(f"skipped: {line}")


@pytest.fixture(scope="session")
def shared_fixtures():
    """`shared/fixtures/` (real transcripts written by other projects), beside the checkout."""
    from pathlib import Path

    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "shared" / "fixtures", Path("/work/shared/fixtures")):
        if candidate.is_dir():
            return candidate
    pytest.fail("shared/fixtures not found beside the checkout; CI lays it at ../shared")


#: The account `second_user` runs commands as: another local user, with no claim on anything a
#: test creates.
SECOND_USER = "nobody"


class SecondUser:
    """Run a command as another local account (`runuser -u nobody`), to show what it cannot
    read or reach. `folder()` is a scratch folder that account can traverse (pytest's own
    temporary folders are private to their owner, which would refuse it for the wrong
    reason)."""

    def __init__(self, runuser: str, name: str):
        self.runuser, self.name = runuser, name
        import pwd

        self.uid = pwd.getpwnam(name).pw_uid
        self._folders: list[str] = []

    def run(self, argv: list[str], *, input: bytes | None = None, timeout: float = 60):
        import subprocess

        return subprocess.run([self.runuser, "-u", self.name, "--", *argv], input=input,
                              capture_output=True, timeout=timeout,
                              env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LC_ALL": "C"})

    def folder(self):
        import tempfile
        from pathlib import Path

        path = tempfile.mkdtemp(prefix="carto-second-user-", dir="/tmp")
        os.chmod(path, 0o755)
        self._folders.append(path)
        return Path(path)

    def cleanup(self) -> None:
        import shutil

        for path in self._folders:
            shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def second_user(require_binary):
    """A `SecondUser`. Switching users needs root: elsewhere the test skips with one line, and
    fails instead when CARTO_REQUIRE_BINARIES is set (CI runs as root)."""
    import shutil

    runuser = require_binary(shutil.which("runuser"), what="runuser (a second local user)",
                             install="util-linux (runuser), and run the tests as root")
    if os.geteuid() != 0:
        line = "the second-user tests need root (runuser -u nobody): run them as root"
        if os.environ.get(REQUIRE_BINARIES):
            pytest.fail(f"{line} ({REQUIRE_BINARIES} is set: this run requires it)", pytrace=False)
        _missing_binaries["second user"] = line
        pytest.skip(line)
    user = SecondUser(runuser, SECOND_USER)
    yield user
    user.cleanup()
