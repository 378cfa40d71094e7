"""Every fix `carto doctor` names works when run as printed, on a machine like a newcomer's: a
temporary HOME with no carto home, no hooks, a Claude Code transcript on disk. Each round runs
the command of each problem's fix exactly as the fix writes it (between backquotes), then asks
doctor again: the problem is gone, and no fix sends the person round in a circle."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

FIX_COMMAND = re.compile(r"`(carto [^`]+)`")


def machine(tmp_path: Path) -> dict:
    user = tmp_path / "user"
    user.mkdir()
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("CARTO", "CLAUDE", "CODEX", "XDG_"))}
    env.update(HOME=str(user), XDG_CACHE_HOME=str(tmp_path / "cache"), CARTO_KEEPUP="0",
               CARTO_EMBEDDER="wordllama", CARTO_SPILL_DIR=str(tmp_path / "spill"))
    return env


def carto(args: list[str], env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "carto_core", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)


def problems(env: dict, cwd: Path) -> list[dict]:
    done = carto(["doctor", "--json", "--no-probe"], env, cwd)
    assert done.returncode in (0, 1, 3), done.stderr
    return json.loads(done.stdout)["problems"]


def test_each_fix_doctor_prints_works_as_printed(tmp_path, shared_fixtures):
    env = machine(tmp_path)
    user = Path(env["HOME"])
    work = tmp_path / "work"
    work.mkdir()
    projects = user / ".claude" / "projects" / "-work-shop"
    projects.mkdir(parents=True)
    shutil.copy(shared_fixtures / "claude" / "claude-code-viewer" / "projects" / "sample-project"
                / "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl", projects)
    ran: list[str] = []
    first = problems(env, work)
    assert any(p["problem"].startswith("no carto home") for p in first)
    for _ in range(6):
        found = problems(env, work)
        if not found and ran:
            break
        with_commands = [(p, FIX_COMMAND.findall(p["fix"])) for p in found]
        assert all(commands for _, commands in with_commands), [p for p, c in with_commands if not c]
        problem, commands = with_commands[0]
        command = commands[0]
        assert command not in ran, f"doctor asks again for {command!r}: a circle ({problem})"
        done = carto(shlex.split(command)[1:], env, work)
        assert done.returncode == 0, (command, done.stdout[-1500:], done.stderr[-1500:])
        ran.append(command)
        after = [p["problem"] for p in problems(env, work)]
        assert problem["problem"] not in after, (command, after)
        if len(ran) == 2:  # a home other users can read: its fix too
            home = user / ".local" / "share" / "carto"
            next(home.glob("*.jsonl")).chmod(0o644)
    assert problems(env, work) == []
    assert ran[0].startswith("carto install ") and "carto ingest --all" in ran
    assert "carto repair permissions --write" in ran


def environment_with(tmp_path: Path, distribution: str, entry_points: str) -> Path:
    """A virtual environment that sees carto's (this one's packages, through a .pth) and has
    `distribution` installed in its own site-packages, as pip leaves one (a RECORD to uninstall
    it by): the python of that environment."""
    import sysconfig

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    ours = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    (site / "carto-under-test.pth").write_text(
        "".join(f"import site; site.addsitedir({path!r})\n" for path in ours))
    module = distribution.replace("-", "_")
    info = site / f"{module}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points)
    (info / "INSTALLER").write_text("pip\n")
    (site / f"{module}.py").write_text("def handle(*args):\n    pass\n")
    (info / "RECORD").write_text("".join(f"{path},,\n" for path in (
        f"{module}.py", *(f"{info.name}/{name}" for name in ("METADATA", "entry_points.txt", "INSTALLER", "RECORD")))))
    return python


def test_the_fix_for_an_entry_point_name_already_taken_works_as_printed(tmp_path):
    """A third-party distribution whose entry point takes a name carto's own plugin has (and a
    live capture a provider already has): doctor said to reinstall it or to block the name, and
    neither resolves it (blocking the name blocks the plugin that holds it). Its fix is the
    command that uninstalls that distribution from the environment carto runs in."""
    python = environment_with(tmp_path, "aaa-rankers",
                              "[carto]\nrankers = aaa_rankers\n\n[carto.capture]\nclaude = aaa_rankers:handle\n")
    env = machine(tmp_path)
    work = tmp_path / "work"
    work.mkdir()

    def problems_here() -> list[dict]:
        done = subprocess.run([python, "-m", "carto_core", "doctor", "--json", "--no-probe"], env=env,
                              cwd=work, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
        assert done.returncode in (0, 1, 3), done.stderr
        return [p for p in json.loads(done.stdout)["problems"] if "aaa-rankers" in p["problem"]]

    found = problems_here()
    assert [p["problem"] for p in found] == [
        "plugin 'rankers (aaa-rankers)' failed to load: entry point name 'rankers' is already taken "
        "by another plugin (distribution carto-rankers)",
        "live capture 'claude' from distribution 'aaa-rankers' refused: already provided by 'carto-claude'"]
    commands = {command for p in found for command in re.findall(r"`([^`]+)`", p["fix"])}
    assert commands == {f"{python} -m pip uninstall aaa-rankers"}, found
    [command] = commands
    done = subprocess.run(shlex.split(command), env=env, cwd=work, input="y\n", capture_output=True,
                          text=True, timeout=300)  # pip asks before it removes anything
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert problems_here() == []


MIRROR = '''import json, os
from carto_core.api import Writer, hookimpl


class Mirror(Writer):
    name = "mirror"

    def write(self, home, log, rows):
        out = os.environ["MIRROR_OUT"]
        if os.path.exists(out + ".full"):
            raise OSError(28, "No space left on device")
        with open(out, "a", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row) + "\\n" for row in rows)
        return len(rows)


@hookimpl
def carto_register_writers(register):
    register(Mirror)
'''


def test_the_fix_for_a_derived_writer_that_failed_during_ingest_works_as_printed(tmp_path, shared_fixtures):
    """A plugin's derived writer (a mirror of the logs) that raised during `carto ingest` left its
    copy without the rows, and doctor did not read .carto/writer-errors.jsonl. Its fix, run as
    printed once the disk has room again, gives the writer those rows and the problem goes."""
    site = tmp_path / "site"
    info = site / "carto_mirror-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: carto-mirror\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[carto]\nmirror = carto_mirror\n")
    (site / "carto_mirror.py").write_text(MIRROR)
    env = machine(tmp_path)
    mirror = tmp_path / "mirror.jsonl"
    env.update(PYTHONPATH=str(site), MIRROR_OUT=str(mirror))
    user, work = Path(env["HOME"]), tmp_path / "work"
    work.mkdir()
    projects = user / ".claude" / "projects" / "-work-shop"
    projects.mkdir(parents=True)
    shutil.copy(shared_fixtures / "claude" / "claude-code-viewer" / "projects" / "sample-project"
                / "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl", projects)
    Path(f"{mirror}.full").touch()
    done = carto(["ingest", "--all"], env, work)
    assert "writer 'mirror' failed" in done.stdout + done.stderr, (done.stdout, done.stderr)

    def writer_problems() -> list[dict]:
        return [p for p in problems(env, work) if "derived writer 'mirror'" in p["problem"]]

    [problem] = writer_problems()
    [command] = FIX_COMMAND.findall(problem["fix"])
    assert command == "carto repair writers --write"
    assert carto(shlex.split(command)[1:], env, work).returncode == 1  # the disk is still full
    assert writer_problems()
    Path(f"{mirror}.full").unlink()
    done = carto(shlex.split(command)[1:], env, work)
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert writer_problems() == []
    home = user / ".local" / "share" / "carto"
    logged = {json.loads(line)["event_id"] for log in home.glob("*.jsonl") for line in log.read_text().splitlines()}
    mirrored = {json.loads(line)["event_id"] for line in mirror.read_text().splitlines()}
    assert mirrored and mirrored <= logged
