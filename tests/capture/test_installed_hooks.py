"""The hooks `carto install` writes fire where the agent runs them: with the agent's own
environment (`env -i PATH=/usr/bin:/bin HOME=...`, no virtual environment on PATH), the command
strings exactly as installed, the genuine PostToolUse payloads the clients sent (payloads/, taken
by the realclient harness). And after the environment moves, `carto install` again repairs them.

The environments here are real virtual environments (`python -m venv`) that see this checkout's
packages through a `.pth` file and carry a `carto` console script of their own, as pip writes it
(its first line names the environment's interpreter: the thing that breaks when it moves).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from carto_core.install.hooksfile import carto_handlers, hook_identity, load_settings
from carto_core.install.probe import AGENT_PATH, run_hook_command

PAYLOADS = Path(__file__).resolve().parent / "payloads"
CONSOLE_SCRIPT = """#!{python}
import sys
from carto_core.entry import main
if __name__ == "__main__":
    sys.exit(main())
"""


def make_env(path: Path) -> Path:
    """A virtual environment at `path` whose `bin/carto` runs this checkout's carto."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    site = Path(sysconfig.get_path("purelib", vars={"base": str(path), "platbase": str(path)}))
    # `site.addsitedir` (not a bare path line) so the editable installs' own .pth files count.
    ours = sysconfig.get_path("purelib")
    (site / "carto-checkout.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    script = path / "bin" / "carto"
    script.write_text(CONSOLE_SCRIPT.format(python=path / "bin" / "python"))
    script.chmod(0o755)
    return script


def user_shell(env_dir: Path, home: Path) -> dict:
    """The user's shell with the environment activated."""
    return {"PATH": f"{env_dir / 'bin'}:{AGENT_PATH}", "HOME": str(home), "LANG": "C.UTF-8"}


def install(carto: Path, agent: str, home: Path, *, argv: list[str] | None = None) -> dict:
    done = subprocess.run([*(argv or [str(carto)]), "install", agent, "--json"],
                          env=user_shell(carto.parent.parent, home), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


HOOK_FILES = {"claude": (".claude", "settings.json"), "codex": (".codex", "hooks.json")}


def installed_command(home: Path, agent: str, event: str) -> str:
    settings = load_settings(home.joinpath(*HOOK_FILES[agent]))
    commands = {h["handler"]["command"] for h in carto_handlers(settings, agent) if h["event"] == event}
    assert len(commands) == 1, commands
    return commands.pop()


def genuine_payload(agent: str, cwd: Path, session: str) -> dict:
    name = {"claude": "claude-PostToolUse-Write.json", "codex": "codex-PostToolUse-apply_patch.json"}[agent]
    text = (PAYLOADS / name).read_text()
    text = text.replace("{CWD}", str(cwd)).replace("{SESSION}", session)
    return json.loads(text.replace("{TRANSCRIPT}", str(cwd / "transcript.jsonl")))


def fire_and_find(home: Path, agent: str, cwd: Path, session: str) -> list[dict]:
    """Run the installed PostToolUse command string as the agent would; the rows it wrote."""
    done = run_hook_command(installed_command(home, agent, "PostToolUse"), genuine_payload(agent, cwd, session),
                            home, cwd=cwd, timeout=60)
    changelog = home / ".local" / "share" / "carto" / "changelog.jsonl"
    rows = [json.loads(line) for line in changelog.read_text().splitlines()] if changelog.exists() else []
    found = [row for row in rows if row.get("session") == session or row.get("session_id") == session]
    # What the hook said about itself, for an assertion's message (carto's hooks exit 0 always).
    log = home / ".local" / "share" / "carto" / ".carto" / "hook.log"
    done.hook_log = log.read_text()[-2000:] if log.exists() else ""
    return found, done


@pytest.fixture
def user(tmp_path):
    home = tmp_path / "home"
    cwd = tmp_path / "repo"
    for folder in (home, cwd):
        folder.mkdir()
    (cwd / "b.txt").write_text("hi kalahari\n")
    (cwd / "test_b.py").write_text("def test_b():\n    assert 1 + 1 == 2\n")
    return home, cwd


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_installed_hooks_fire_from_a_bare_environment_and_after_a_move(tmp_path, user, agent):
    home, cwd = user
    first = make_env(tmp_path / "project" / ".venv")
    result = install(first, agent, home)
    command = installed_command(home, agent, "PostToolUse")
    assert command.split()[0] == str(first), command  # the launcher, not a bare `carto`
    assert hook_identity(command) == (agent, "PostToolUse")

    rows, done = fire_and_find(home, agent, cwd, "sess-before-move-0001")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert [row["summary"] for row in rows if row["type"] == "tool_file_edit"], rows

    # The project folder moves: the old launcher is gone, the hook is silent.
    shutil.move(tmp_path / "project", tmp_path / "moved")
    rows, done = fire_and_find(home, agent, cwd, "sess-while-moved-0002")
    assert rows == [] and done.returncode == 127, (done.returncode, done.stderr)

    # A fresh environment in the new place, `carto install` again: repaired in place.
    again = install(make_env(tmp_path / "moved" / ".venv2"), agent, home)
    assert again["changes"] and all(" ~ " in line for line in again["changes"]), again["changes"]
    assert len(again["changes"]) == len(result["changes"])
    rows, done = fire_and_find(home, agent, cwd, "sess-after-repair-0003")
    assert done.returncode == 0 and rows, (done.returncode, done.stderr, done.hook_log)
    assert installed_command(home, agent, "PostToolUse").startswith(str(tmp_path / "moved" / ".venv2" / "bin" / "carto"))


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_the_moved_environment_itself_repairs_its_hooks(tmp_path, user, agent):
    """The environment folder itself moves (`mv`). Its `bin/carto` still names the old interpreter
    in its first line, so it cannot run, but the moved `bin/python` can: `python -m carto_core
    install` from there must not write that stale script as the launcher."""
    home, cwd = user
    install(make_env(tmp_path / "project" / ".venv"), agent, home)
    shutil.move(tmp_path / "project", tmp_path / "moved")
    moved = tmp_path / "moved" / ".venv" / "bin"
    stale = subprocess.run(["/bin/sh", "-c", f"{moved / 'carto'} --version"], capture_output=True,
                           env=user_shell(moved.parent, home))
    assert stale.returncode == 127  # the script pip wrote is broken by the move, as in real life
    again = install(moved / "carto", agent, home, argv=[str(moved / "python"), "-m", "carto_core"])
    assert again["launcher"] == [str(moved / "python"), "-m", "carto_core"], again["launcher"]
    rows, done = fire_and_find(home, agent, cwd, "sess-moved-itself-0004")
    assert done.returncode == 0 and [row for row in rows if row["type"] == "tool_file_edit"], (done.returncode, done.stderr,
                                                                             done.hook_log)
