"""Private by default: whatever the umask, the home is 0700, every folder carto makes 0700 and
every file 0600, and another local user reads nothing in it.

The writers run as a user would run them (hooks and commands in their own processes) under
umask 000, the most permissive: a file or folder created without `carto_core.util.privatefiles`
comes out 0666/0777 there, and the walk names it.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from carto_core.util import privatefiles

CARTO = str(Path(sys.executable).parent / "carto")
SESSION = "11111111-2222-3333-4444-555555555555"
CODEX_SESSION = "019a0000-0000-7000-8000-000000000001"


@pytest.fixture
def umask_000():
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def not_private(*roots: Path) -> list[str]:
    """Every folder or file under `roots` (the roots included) that group or others may use."""
    found = []
    for root in roots:
        for folder, _dirs, files in os.walk(root):
            for path in [folder, *(os.path.join(folder, f) for f in files)]:
                mode = os.lstat(path).st_mode
                if not stat.S_ISLNK(mode) and mode & 0o077:
                    found.append(f"{oct(mode & 0o777)} {os.path.relpath(path, root.parent)}")
    return sorted(found)


class World:
    """A user account's folders (agent transcripts, a repository) and a carto home that does not
    exist yet, with the environment every process gets."""

    def __init__(self, base: Path):
        self.base = base
        self.home = base / "home"
        self.user = base / "user"
        self.repo = base / "repo"
        self.user.mkdir()
        self.repo.mkdir()
        subprocess.run(["git", "init", "-q", str(self.repo)], check=True)
        projects = self.user / ".claude" / "projects" / "-repo"
        projects.mkdir(parents=True)
        self.transcript = projects / f"{SESSION}.jsonl"
        lines = [
            {"type": "user", "sessionId": SESSION, "cwd": str(self.repo), "uuid": "u1",
             "timestamp": "2026-01-01T00:00:00Z",
             "message": {"role": "user", "content": "add discount codes to the cart"}},
            {"type": "assistant", "sessionId": SESSION, "cwd": str(self.repo), "uuid": "a1",
             "parentUuid": "u1", "timestamp": "2026-01-01T00:00:05Z",
             "message": {"role": "assistant",
                         "content": [{"type": "text", "text": "Added a DiscountCode model."}]}},
        ]
        self.transcript.write_text("".join(json.dumps(line) + "\n" for line in lines))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CARTO", "CLAUDE", "CODEX"))}
        env.update(HOME=str(self.user), CARTO_HOME=str(self.home),
                   XDG_CACHE_HOME=str(self.user / ".cache"), XDG_CONFIG_HOME=str(self.user / ".config"),
                   XDG_DATA_HOME=str(self.user / ".local" / "share"), CARTO_CATCHUP="0",
                   CARTO_KEEPUP="0", CARTO_SPILL_DIR=str(base / "spill"))
        self.env = env

    def hook(self, provider: str, event: str, payload: dict) -> None:
        subprocess.run([CARTO, "hook", provider, event], input=json.dumps(payload).encode(),
                       env=self.env, cwd=self.repo, check=True, timeout=60)

    def carto(self, *args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([CARTO, *args], env=self.env, cwd=self.repo, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode in (0, 3), (args, done.returncode, done.stderr[-2000:])
        return done

    def hooks(self) -> None:
        """Every kind of hook row, and a Stop that ingests the live transcript."""
        common = {"session_id": SESSION, "cwd": str(self.repo), "transcript_path": str(self.transcript)}
        self.hook("claude", "SessionStart", {**common, "hook_event_name": "SessionStart", "source": "startup"})
        self.hook("claude", "UserPromptSubmit", {**common, "hook_event_name": "UserPromptSubmit",
                                                 "prompt": "add discount codes to the cart"})
        self.hook("claude", "PostToolUse", {**common, "hook_event_name": "PostToolUse", "tool_name": "Bash",
                                            "tool_input": {"command": "echo hi > notes.txt"},
                                            "tool_response": {"stdout": ""}})
        self.hook("claude", "PostToolUse", {**common, "hook_event_name": "PostToolUse", "tool_name": "Edit",
                                            "tool_input": {"file_path": str(self.repo / "cart.py"),
                                                           "old_string": "a", "new_string": "b"},
                                            "tool_response": {}})
        self.hook("claude", "Stop", {**common, "hook_event_name": "Stop",
                                     "last_assistant_message": "Added a DiscountCode model."})
        self.hook("codex", "PostToolUse", {"session_id": CODEX_SESSION, "cwd": str(self.repo),
                                           "hook_event_name": "PostToolUse", "tool_name": "shell",
                                           "tool_input": {"command": ["bash", "-lc", "make test"]},
                                           "tool_response": "ok"})
        # A problem line: hook.log.
        subprocess.run([CARTO, "hook", "claude", "PostToolUse"], input=b"not json", env=self.env,
                       cwd=self.repo, check=True, timeout=60)


@pytest.mark.parametrize("umask", [0o000, 0o002, 0o022, 0o027, 0o077])
def test_the_helper_creates_private_files_and_folders_whatever_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        privatefiles.make_dirs(tmp_path / "a" / "b" / "c")
        privatefiles.make_dirs(tmp_path / "a" / "b" / "c")  # exists: no error
        privatefiles.write_text(tmp_path / "a" / "t.txt", "x")
        privatefiles.write_bytes(tmp_path / "a" / "b" / "t.bin", b"x")
        with privatefiles.open_private(tmp_path / "a" / "b" / "c" / "log", "ab") as handle:
            handle.write(b"row\n")
        os.close(privatefiles.open_fd(tmp_path / "a" / "fd", os.O_WRONLY))
        privatefiles.make_dir(tmp_path / "a" / "d")
    finally:
        os.umask(old)
    modes = {p.relative_to(tmp_path).as_posix(): p.stat().st_mode & 0o777
             for p in sorted(tmp_path.rglob("*"))}
    expected_dir, expected_file = 0o700 & ~umask, 0o600 & ~umask
    assert modes == {"a": expected_dir, "a/b": expected_dir, "a/b/c": expected_dir,
                     "a/b/c/log": expected_file, "a/b/t.bin": expected_file, "a/d": expected_dir,
                     "a/fd": expected_file, "a/t.txt": expected_file}


def test_make_dirs_leaves_an_existing_folder_as_it_is(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o755)
    privatefiles.make_dirs(folder)
    assert folder.stat().st_mode & 0o777 == 0o755  # tightening is repair's job, not a writer's


def test_hooks_write_a_private_home_under_umask_000(tmp_path, umask_000):
    world = World(tmp_path)
    world.hooks()
    assert world.home.is_dir() and (world.home / ".carto" / "hook.log").is_file()
    assert (world.home / "changelog.jsonl").is_file() and (world.home / ".carto" / "live").is_dir()
    assert not_private(world.home, world.user / ".cache" / "carto") == []


@pytest.mark.slow
def test_every_writer_leaves_a_private_home_under_umask_000(tmp_path, umask_000):
    """Hooks, backfill, the indexes (keyword, facts, semantic), search telemetry, lenses that
    write, a rewrite and the MCP cursor key: nothing in the home is readable by others."""
    world = World(tmp_path)
    world.hooks()
    world.carto("ingest", "claude")
    world.carto("index")
    world.carto("search", "discount", "--json")
    found = json.loads(world.carto("search", "discount", "--json", "--all").stdout)["results"]
    world.carto("search", "--touch", found[0]["event_id"])
    world.carto("facts", "census", "--json")
    world.carto("standup", "--json")
    world.carto("profile")
    world.carto("repair", "redact", "--write")
    mcp = subprocess.run([CARTO, "mcp"], env=world.env, cwd=world.repo, capture_output=True, timeout=120,
                         input=b"".join(json.dumps(m).encode() + b"\n" for m in [
                             {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                         "clientInfo": {"name": "t", "version": "1"}}},
                             {"jsonrpc": "2.0", "method": "notifications/initialized"},
                             {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                              "params": {"name": "facts", "arguments": {"verb": "delta"}}}]))
    assert b'"id":2' in mcp.stdout, mcp.stderr[-2000:]
    state = world.home / ".carto"
    for made in ("search", "facts", "vectors", "checkpoints", "live", "served"):
        assert any(p.name.startswith(made) for p in state.iterdir()) or (world.home / f"{made}-log.jsonl").exists(), made
    assert not_private(world.home, world.user / ".cache" / "carto") == []


def test_a_second_user_reads_nothing_in_the_home(second_user, umask_000):
    """As `nobody`: the home cannot be listed nor any file in it read; and were the home's own
    folder opened up (chmod 755 by hand), its files (0600) and folders (0700) still refuse."""
    world = World(second_user.folder())
    world.hooks()
    files = sorted(p for p in world.home.rglob("*") if p.is_file())
    folders = sorted(p for p in world.home.rglob("*") if p.is_dir())
    assert len(files) >= 5 and folders
    # What the other account can reach: the folder above the home is world-traversable.
    assert second_user.run(["ls", str(world.base)]).returncode == 0
    refused = second_user.run(["ls", str(world.home)])
    assert refused.returncode != 0 and b"Permission denied" in refused.stderr
    for path in files:
        done = second_user.run(["cat", str(path)])
        assert done.returncode != 0 and b"Permission denied" in done.stderr, path
    world.home.chmod(0o755)
    for path in files:
        done = second_user.run(["cat", str(path)])
        assert done.returncode != 0 and b"Permission denied" in done.stderr and not done.stdout, path
    for path in folders:
        done = second_user.run(["ls", str(path)])
        assert done.returncode != 0 and b"Permission denied" in done.stderr, path
