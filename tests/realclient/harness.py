"""Run the genuine Claude Code and Codex CLIs through one scripted session each, offline, and
hand back everything a test asserts on.

    run = run_claude_session(work, CLAUDE_MAIN)        # or run_codex_session(work, CODEX_MAIN)
    run.rows("changelog")        # what carto's hooks wrote (the home under the user's HOME)
    run.payloads("PostToolUse")  # the genuine hook payloads (tap handlers beside carto's)
    run.requests                 # every request the client sent to the mock (full bodies)
    run.transcript               # the client's own transcript / rollout
    run.carto("search", "zanzibarneedle", "--json")    # the venv's carto, on the same HOME

How a session runs, the way a user's does: `carto install <client>` from the virtual environment
(the venv's `carto`, PATH holding the venv), then the client starts with a minimal environment
(PATH=/usr/bin:/bin, HOME, the mock's address: no virtual environment), so the hooks fire only if
the installed command works from anywhere. Each hook writes to the default home under that HOME
(`~/.local/share/carto`, no CARTO_HOME). The client, its mock and every file it writes live in
`work`, a temporary folder: transcripts and request records never enter the repository.

Options common to both: `install` (run `carto install`, default True; extra arguments with
`install_args`), `tap` (add a tap handler per event that saves the payload, default True),
`setup(run)` (called after the repository exists, before the client starts: seed commits,
edit settings), `prompt`, `env` (more variables for the client), `timeout`, `client` (the
binary; default the pinned one in the cache).
"""

from __future__ import annotations

import collections
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from carto_core.install.hooksfile import hook_identity

from .clients import binary
from .mocks import AnthropicMock, OpenAIMock

HERE = Path(__file__).resolve().parent
TAP = HERE / "tap_hook.py"
#: The venv's own `carto` (what a user types after activating it).
CARTO = Path(sys.executable).with_name("carto")
#: The agent's view of the machine: no virtual environment on PATH.
AGENT_PATH = "/usr/bin:/bin"
#: Events a tap handler listens to (a superset of what carto installs: what the client fires).
CLAUDE_TAP_EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                     "PostToolUseFailure", "PostToolBatch", "PermissionRequest", "Notification",
                     "Stop", "StopFailure", "SubagentStart", "SubagentStop", "PreCompact",
                     "PostCompact", "SessionEnd", "InstructionsLoaded")
CODEX_TAP_EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                    "PermissionRequest", "Stop", "SessionEnd", "PreCompact", "PostCompact",
                    "SubagentStart", "SubagentStop")
MATCHER_EVENTS = ("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest")
_HOOK_RUN = re.compile(r"(?:Hooks: )?(?P<event>[A-Za-z]+)(?::\S+)? \[(?P<command>[^\]]+)\] "
                       r"(?:finished|completed) with status (?P<status>-?\d+)")


@dataclass
class Run:
    """One finished session: where everything is, and readers over it."""

    client: str
    work: Path
    home: Path
    repo: Path
    script: list
    rc: int = -1
    stdout: str = ""
    stderr: str = ""
    seconds: float = 0.0
    install_output: str = ""
    requests: list = field(default_factory=list)
    client_bin: str = ""

    @property
    def carto_home(self) -> Path:
        """Where the hooks wrote: the default home under the session's HOME."""
        return self.home / ".local" / "share" / "carto"

    @property
    def logs(self) -> Path:
        return self.work / "logs"

    @property
    def transcript(self) -> Path | None:
        """Claude: the session's transcript under ~/.claude/projects; Codex: the rollout."""
        if self.client == "claude":
            found = sorted((self.home / ".claude" / "projects").glob("*/*.jsonl"))
        else:
            found = sorted((self.home / ".codex" / "sessions").rglob("rollout-*.jsonl"))
        return found[0] if found else None

    def transcript_lines(self) -> list[dict]:
        path = self.transcript
        return read_jsonl(path) if path else []

    def rows(self, label: str) -> list[dict]:
        """Rows of one of carto's logs by label (`changelog`, `tool-use`, `milestones`, ...)."""
        from carto_core.logio.home import Home

        return read_jsonl(Home(self.carto_home).log(label))

    def hook_log(self) -> list[str]:
        path = self.carto_home / ".carto" / "hook.log"
        return path.read_text("utf-8").splitlines() if path.exists() else []

    def tapped(self) -> list[dict]:
        """Every genuine hook payload the tap handlers saved, in the order they fired."""
        out = []
        for path in sorted((self.logs / "tap").glob("*.json")):
            try:
                out.append(json.loads(path.read_text("utf-8")))
            except ValueError:
                out.append({"hook_event_name": path.stem.split("-")[1], "_unparsed": True})
        return out

    def payloads(self, event: str, tool: str | None = None) -> list[dict]:
        return [p for p in self.tapped() if p.get("hook_event_name") == event
                and (tool is None or p.get("tool_name") == tool)]

    def events_fired(self) -> collections.Counter:
        return collections.Counter(p.get("hook_event_name") for p in self.tapped())

    def carto_hooks_run(self) -> collections.Counter:
        """Claude Code: `(event, exit status)` of each carto handler the client ran, from its
        debug logs (`Hooks: PostToolUse:Bash [<command>] finished with status 0`)."""
        ran = collections.Counter()
        for path in sorted(self.logs.glob("claude-debug*.log")):
            for match in _HOOK_RUN.finditer(path.read_text("utf-8", "replace")):
                if hook_identity(match.group("command")):
                    ran[(match.group("event"), int(match.group("status")))] += 1
        return ran

    def diagnosis(self) -> str:
        """What to print when an assertion about the session fails: the client's exit, carto's
        hook runs and hook.log, and the client's own lines about hooks that failed or timed out."""
        lines = [f"{self.client} exit {self.rc} after {self.seconds:.1f} s; events fired: {dict(self.events_fired())}"]
        if self.client == "claude":
            lines.append(f"carto handlers run: {dict(self.carto_hooks_run())}")
            for path in sorted(self.logs.glob("claude-debug*.log")):
                lines += [line[:300] for line in path.read_text("utf-8", "replace").splitlines()
                          if "hook" in line.lower() and re.search(r"timed? ?out|cancel|error|fail", line, re.I)][:20]
        lines += [f"hook.log: {line[:300]}" for line in self.hook_log()[-10:]]
        lines.append(f"stderr: {self.stderr[-1500:]}")
        return "\n".join(lines)

    def main_requests(self) -> list[dict]:
        return [r for r in self.requests if r.get("kind") == "main"]

    def env(self, **extra) -> dict:
        """The user's shell after activating the venv: PATH holds it, HOME is the session's."""
        return {"PATH": f"{CARTO.parent}:{AGENT_PATH}", "HOME": str(self.home), "LANG": "C.UTF-8", **extra}

    def carto(self, *args: str, check: bool = False, **env) -> subprocess.CompletedProcess:
        """Run the venv's carto as the user would, on this session's HOME (and its default home)."""
        done = subprocess.run([str(CARTO), *args], env=self.env(**env), cwd=self.repo,
                              capture_output=True, text=True, timeout=300)
        if check and done.returncode != 0:
            raise AssertionError(f"carto {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
        return done

    def carto_json(self, *args: str, **env):
        done = self.carto(*args, "--json", **env)
        try:
            return json.loads(done.stdout)
        except ValueError:
            raise AssertionError(f"carto {' '.join(args)} --json printed no JSON "
                                 f"(exit {done.returncode}): {done.stdout[-500:]} {done.stderr[-1500:]}") from None

    def clone(self, dest: Path) -> "Run":
        """A copy of the session's HOME and repository to change freely (rows keep the original
        paths; ingest from the copy reads the copied transcripts)."""
        dest.mkdir(parents=True, exist_ok=True)
        for name in ("home", "repo", "logs"):
            shutil.copytree(self.work / name, dest / name, symlinks=True,
                            copy_function=_copy_if_present)
        copy = Run(**{**self.__dict__, "work": dest, "home": dest / "home", "repo": dest / "repo"})
        return copy


def _copy_if_present(src: str, dst: str) -> None:
    """copy2, skipping a file removed between the listing and the copy: the session's
    detached keep-up job may still be running (onnxruntime's SQLite journal under
    ~/.cache/Microsoft comes and goes), and the copy is of what stays."""
    try:
        shutil.copy2(src, dst)
    except FileNotFoundError:
        pass


def read_jsonl(path: Path) -> list[dict]:
    rows = []
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except ValueError:
                        rows.append({"_unparsed": line[:200]})
    except FileNotFoundError:
        pass
    return rows


def _prepare(client: str, work: Path, script: list) -> Run:
    work.mkdir(parents=True, exist_ok=True)
    run = Run(client=client, work=work, home=work / "home", repo=work / "repo", script=script)
    (run.logs / "tap").mkdir(parents=True)
    run.home.mkdir()
    (run.home / ".gitconfig").write_text(
        "[user]\n\tname = Mock User\n\temail = mock@example.invalid\n[init]\n\tdefaultBranch = main\n")
    run.repo.mkdir()
    git = {"env": {"HOME": str(run.home), "PATH": AGENT_PATH}, "cwd": run.repo, "check": True,
           "capture_output": True}
    subprocess.run(["git", "init", "-q"], **git)
    (run.repo / "README.md").write_text("# scratch\n")
    subprocess.run(["git", "add", "README.md"], **git)
    subprocess.run(["git", "commit", "-qm", "init"], **git)
    return run


def _install(run: Run, args: tuple[str, ...]) -> None:
    done = run.carto("install", run.client, *args)
    run.install_output = done.stdout + done.stderr
    if done.returncode != 0:
        raise AssertionError(f"carto install {run.client} exited {done.returncode}: {run.install_output}")


def _add_taps(hooks_file: Path, events: tuple[str, ...], run: Run) -> None:
    """A tap handler per event, appended after carto's (Codex trust keys are positional)."""
    data = json.loads(hooks_file.read_text("utf-8")) if hooks_file.exists() else {}
    hooks = data.setdefault("hooks", {})
    python = shutil.which("python3", path=AGENT_PATH) or sys.executable
    for event in events:
        group = {"hooks": [{"type": "command", "timeout": 10,
                            "command": f"{python} {TAP} {run.logs / 'tap'} {event}"}]}
        if event in MATCHER_EVENTS:
            group = {"matcher": "*" if run.client == "claude" else ".*", **group}
        hooks.setdefault(event, []).append(group)
    hooks_file.parent.mkdir(parents=True, exist_ok=True)
    hooks_file.write_text(json.dumps(data, indent=2) + "\n")


def wait_for_detached(run: Run, seconds: float = 20.0) -> None:
    """Wait until the hooks' detached children (the SessionStart catch-up) released their locks."""
    deadline = time.monotonic() + seconds
    for lock in sorted((run.carto_home / ".carto").glob("*.lock")):
        while time.monotonic() < deadline:
            try:
                with open(lock, "a") as handle:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    fcntl.flock(handle, fcntl.LOCK_UN)
                break
            except OSError:
                time.sleep(0.1)


def _launch(run: Run, argv: list[str], env: dict, timeout: float) -> None:
    started = time.monotonic()
    try:
        done = subprocess.run(argv, cwd=run.repo, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout)
        run.rc, run.stdout, run.stderr = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as exc:
        run.rc = -9
        run.stdout = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        run.stderr = f"timed out after {timeout} s"
    run.seconds = time.monotonic() - started
    (run.logs / "client.stdout").write_text(run.stdout)
    (run.logs / "client.stderr").write_text(run.stderr)
    wait_for_detached(run)


def run_claude_session(work: Path, script: list, *, install: bool = True, install_args=(),
                       tap: bool = True, setup=None, prompt: str = "please add a file and commit it",
                       claude_args=(), env: dict | None = None, timeout: float = 180,
                       client: str | None = None) -> Run:
    """One `claude -p` session against `AnthropicMock(script)`; see the module docstring."""
    run = _prepare("claude", work, script)
    settings = run.home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    if install:
        _install(run, tuple(install_args))
    if not settings.exists():
        settings.write_text("{}\n")
    if tap:
        _add_taps(settings, CLAUDE_TAP_EVENTS, run)
    if setup:
        setup(run)
    return _claude(run, script, prompt, list(claude_args), env, timeout, client, "claude-debug.log")


def resume_claude_session(run: Run, prompt: str, script: list | None = None, *, claude_args=(),
                          env: dict | None = None, timeout: float = 180) -> Run:
    """Continue `run`'s session (`claude -p PROMPT --resume <session id>`) in the same HOME:
    `prompt="/compact"` compacts it (PreCompact, PostCompact). Returns a new Run over the same
    folders whose `requests` are the new ones (taps and carto's rows accumulate)."""
    started = run.payloads("SessionStart")
    if not started:
        raise AssertionError("the session to resume fired no SessionStart (no tap, or it never started)")
    again = Run(**{**run.__dict__, "requests": []})
    index = len(list(run.logs.glob("claude-debug*.log")))
    return _claude(again, script or [[{"type": "text", "text": "Resumed."}]], prompt,
                   ["--resume", started[0]["session_id"], *claude_args], env, timeout, None,
                   f"claude-debug-{index}.log")


def next_claude_session(run: Run, prompt: str, script: list | None = None, *, claude_args=(),
                        env: dict | None = None, timeout: float = 180) -> Run:
    """A new session (`claude -p PROMPT`, a new session id) in `run`'s HOME and repository, after
    it: what the user's next session sees of the last one. Returns a new Run over the same
    folders whose `requests` are the new session's (taps and carto's rows accumulate)."""
    again = Run(**{**run.__dict__, "requests": []})
    index = len(list(run.logs.glob("claude-debug*.log")))
    return _claude(again, script or [[{"type": "text", "text": "Noted."}]], prompt, list(claude_args),
                   env, timeout, None, f"claude-debug-{index}.log")


def _claude(run: Run, script: list, prompt: str, claude_args: list, env, timeout, client, debug) -> Run:
    with AnthropicMock(script, run.logs / "requests.jsonl", run.repo) as mock:
        client_env = {"PATH": AGENT_PATH, "HOME": str(run.home), "LANG": "C.UTF-8",
                      "ANTHROPIC_BASE_URL": mock.url, "ANTHROPIC_API_KEY": "sk-test-mock",
                      "DISABLE_TELEMETRY": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                      "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
                      # As root the client refuses --dangerously-skip-permissions without it.
                      "IS_SANDBOX": "1", **(env or {})}
        run.client_bin = client or run.client_bin or str(binary("claude"))
        argv = [run.client_bin, "-p", prompt, "--dangerously-skip-permissions",
                "--debug-file", str(run.logs / debug), *claude_args]
        _launch(run, argv, client_env, timeout)
        run.requests = list(mock.requests)
    return run


CODEX_CONFIG = """\
model = "{model}"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.mock]
name = "Mock"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[projects."{repo}"]
trust_level = "trusted"
"""


def codex_config(run: Run, url: str, model: str) -> str:
    return CODEX_CONFIG.format(model=model, url=url, repo=run.repo)


def run_codex_session(work: Path, script: list, *, install: bool = True, install_args=(),
                      tap: bool = True, setup=None, prompt: str = "add a file and commit it",
                      bypass_trust: bool = True, model: str = "gpt-5.5", env: dict | None = None,
                      timeout: float = 180, client: str | None = None) -> Run:
    """One `codex exec` session against `OpenAIMock(script)`. `bypass_trust` passes
    `--dangerously-bypass-hook-trust` (hooks run untrusted); without it only hooks trusted in
    config.toml fire. `model="gpt-5.5"` makes Codex offer its apply_patch tool; `mock-model`
    does not (the patch then goes through exec_command)."""
    run = _prepare("codex", work, script)
    codex_home = run.home / ".codex"
    codex_home.mkdir()
    with OpenAIMock(script, run.logs / "requests.jsonl", run.repo) as mock:
        # config.toml first: `carto install codex --trust` records trust in it.
        (codex_home / "config.toml").write_text(codex_config(run, mock.url, model))
        if install:
            _install(run, tuple(install_args))
        if tap:
            _add_taps(codex_home / "hooks.json", CODEX_TAP_EVENTS, run)
        if setup:
            setup(run)
        run.client_bin = client or str(binary("codex"))
        _launch(run, [*_codex_argv(run, bypass_trust), prompt], _codex_env(run, env), timeout)
        run.requests = list(mock.requests)
    return run


def _codex_argv(run: Run, bypass_trust: bool) -> list[str]:
    argv = [run.client_bin, "exec", "--dangerously-bypass-approvals-and-sandbox",
            "--skip-git-repo-check", "--json"]
    return argv + (["--dangerously-bypass-hook-trust"] if bypass_trust else [])


def _codex_env(run: Run, env: dict | None) -> dict:
    return {"PATH": AGENT_PATH, "HOME": str(run.home), "LANG": "C.UTF-8",
            "MOCK_API_KEY": "sk-mock-local", "NO_COLOR": "1", **(env or {})}


def next_codex_session(run: Run, prompt: str, script: list | None = None, *, bypass_trust: bool = True,
                       env: dict | None = None, timeout: float = 180) -> Run:
    """A new `codex exec` session in `run`'s HOME and repository, after it (its own mock: the
    provider's address in config.toml is moved to it). Returns a new Run over the same folders
    whose `requests` are the new session's."""
    again = Run(**{**run.__dict__, "requests": []})
    config = run.home / ".codex" / "config.toml"
    with OpenAIMock(script or [{"text": "Noted."}], run.logs / "requests.jsonl", run.repo) as mock:
        config.write_text(re.sub(r'base_url = "[^"]*"', f'base_url = "{mock.url}/v1"', config.read_text()))
        _launch(again, [*_codex_argv(again, bypass_trust), prompt], _codex_env(again, env), timeout)
        again.requests = list(mock.requests)
    return again
