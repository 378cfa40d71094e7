"""The modules a live hook loads, pinned: `carto hook` runs on every tool call of an agent, and
each module it imports is paid for on every call (interpreter instructions, `stat`s, bytecode
reads). A hook process is run for the common payloads of both agents (the second call of each,
as an agent's next tool call: the plugin table cached, the changelog holding the session's last
row); what it added to `sys.modules` must be in ALLOWED, which says why each is there. A module
that shows up unlisted fails the test: import it where it is needed (inside the function of the
rare case) or list it here with its reason. `tests/core/test_layers.py` checks the same path
statically (stdlib only); this test catches what it cannot: stdlib modules that cost time, and
imports that run although the code reaching them is rare.

How this list shrank: docs/performance.md, "Modules on the hook path".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

#: module -> why a hook needs it. carto's own modules first, then the stdlib they pull in.
ALLOWED: dict[str, str] = {
    # carto: the dispatcher and what every call uses
    "carto_core": "the package (its __init__ defers the pluggy marker to first use)",
    "carto_core.entry": "the console script's entry point; sends `hook` to the lean dispatcher",
    "carto_core.capture.hookpath": "the dispatcher",
    "carto_core.util.hookcap": "the wall-clock cap armed for every call (issue 14: hooks never block)",
    "carto_core.logio.home": "where the logs are",
    "carto_core.logio.logs": "log names (home.py's table of them)",
    "carto_core.plugin.table": "capture_target: the provider's handler from the cached plugin table",
    "carto_core.plugin.resolve": "load_handler: the handler's `module:function` imported",
    "carto_core.capture": "the capture library's package",
    "carto_core.api": "the public API the capture modules import their builders from (a name table)",
    "carto_core.util": "the utilities' package (an empty __init__)",
    "carto_core.logio": "the log I/O package (an empty __init__)",
    "carto_core.privacy": "the redaction package (an empty __init__)",
    "carto_core.model": "the records' package (an empty __init__)",
    "carto_core.plugin": "the plugin surface's package (an empty __init__)",
    "carto_core.capture.context": "Context/Outcome and write_outcome",
    "carto_core.capture.tooluse": "the tool-call row builders",
    "carto_core.capture.shell": "reading a shell command (noise, summary, writes, git verbs)",
    "carto_core.util.jsondepth": "a payload nested past the bound keeps its row (the parser recurses per level)",
    "carto_core.util.lazyre": "regexes compiled on first use (a plain command compiles almost none)",
    # carto: what writing a row uses
    "carto_core.privacy.redact": "every stored string is redacted (issue 14)",
    "carto_core.privacy.rules": "the redactor's rule table",
    "carto_core.plugin.redaction": "the redaction patterns installed plugins declare, read from the plugin table",
    "carto_core.logio.jsonl": "rows as compact JSON lines",
    "carto_core.logio.appendlog": "the one-write-per-row appender",
    "carto_core.util.privatefiles": "a new log, folder or hook.log line is created 0600/0700 whatever the umask",
    "carto_core.logio.rewrite_journal": "the appender settles a rewrite that died (one lstat when none did)",
    "carto_core.logio.spill": "rows a full home refuses are kept outside it (one stat when none are)",
    "carto_core.model.project": "a row's project: the repository of the cwd, from .git files",
    "carto_core.util.safeio": "reading .git files without blocking on a FIFO",
    "carto_core.capture.tail": "PostToolBatch: the changelog's tail searched for its calls' ids",
    "carto_core.privacy.exclude": "`[capture] exclude`: an excluded folder writes nothing (the config "
                                  "file's bytes read once; no TOML parse without an exclude key)",
    "carto_core.logio.tombstone": "a forgotten event is never written back (one failed open when "
                                  "nothing was forgotten)",
    # the capture modules of the providers
    "carto_claude": "the Claude plugin's package",
    "carto_claude.capture": "Claude Code's capture handler",
    "carto_codex": "the Codex plugin's package",
    "carto_codex.capture": "Codex's capture handler",
    "carto_codex.patch": "Codex's apply_patch paths, read for its Modified: rows",
    # stdlib: the payload, paths and regexes
    "json": "the payload and the rows", "json.decoder": "json", "json.encoder": "json",
    "json.scanner": "json", "_json": "json's C speedups",
    "re": "the capture rules", "re._casefix": "re", "re._compiler": "re", "re._constants": "re",
    "re._parser": "re", "_sre": "re's engine", "copyreg": "re (pattern pickling)",
    "enum": "re's flags", "types": "enum", "operator": "collections", "_operator": "operator",
    "functools": "re", "_functools": "functools", "collections": "functools",
    "_collections": "collections", "keyword": "collections.namedtuple", "reprlib": "collections",
    "itertools": "collections", "collections.abc": "the redactor's type annotations",
    "math": "the redactor's entropy check",
    "pathlib": "Home's paths (every log path is a pathlib.Path)", "fnmatch": "pathlib",
    "ntpath": "pathlib", "urllib": "pathlib", "urllib.parse": "pathlib (file URIs)",
    "ipaddress": "urllib.parse", "errno": "pathlib; the spill and appender's error codes",
    "warnings": "pathlib",
    "zlib": "the spill file's name (crc32 of the home path), looked up on every write",
    "importlib": "hookpath.load_handler imports the handler the plugin table names",
    "importlib._bootstrap": "importlib", "importlib._bootstrap_external": "importlib",
    "__future__": "every carto module's annotations",
    "shlex": "a command with an output redirection: its words, for the Modified: row",
    "fcntl": "the appender's flock: a torn end is sealed only when no writer is mid-row",
}

PROBE = r"""
import sys
before = set(sys.modules)
from carto_core.entry import main
try:
    main(["hook", sys.argv[1], sys.argv[2]])
finally:
    sys.stderr.write("\nMODULES " + " ".join(sorted(set(sys.modules) - before)) + "\n")
"""


def payloads(repo: str) -> dict[str, tuple[str, str, dict]]:
    base = {"session_id": "s1", "cwd": repo, "transcript_path": os.path.join(repo, "t.jsonl"),
            "hook_event_name": "PostToolUse", "tool_use_id": "toolu_1"}
    done = {"stdout": "ok", "stderr": "", "interrupted": False}
    return {
        "Bash, Ran: row": ("claude", "PostToolUse", {**base, "tool_name": "Bash", "tool_response": done,
                                                     "tool_input": {"command": "npm test -- --grep parser"}}),
        "Bash, noise": ("claude", "PostToolUse", {**base, "tool_name": "Bash", "tool_input": {"command": "ls -la"}}),
        "Bash, redirect": ("claude", "PostToolUse", {**base, "tool_name": "Bash", "tool_use_id": "toolu_2",
                                                     "tool_input": {"command": "npm test > test.log 2>&1"},
                                                     "tool_response": done}),
        "Edit": ("claude", "PostToolUse", {**base, "tool_name": "Edit", "tool_use_id": "toolu_3",
                                           "tool_input": {"file_path": os.path.join(repo, "a.py"),
                                                          "old_string": "a", "new_string": "b"}}),
        "PostToolBatch": ("claude", "PostToolBatch", {**base, "hook_event_name": "PostToolBatch", "tool_calls": [
            {"tool_name": "Bash", "tool_input": {"command": "npm test -- --grep parser"},
             "tool_use_id": "toolu_1", "tool_response": "ok"}]}),
        "Codex shell": ("codex", "PostToolUse", {**base, "tool_name": "shell", "tool_response": "ok",
                                                 "tool_input": {"command": ["bash", "-lc", "make test"]}}),
    }


def hook_modules(provider: str, event: str, payload: dict, env: dict) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, provider, event], input=json.dumps(payload).encode(),
                          capture_output=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return set(done.stderr.decode().rpartition("\nMODULES ")[2].split())


@pytest.fixture(scope="module")
def loaded(tmp_path_factory) -> dict[str, set[str]]:
    base = tmp_path_factory.mktemp("hookmods")
    repo = base / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    env = {**os.environ, "CARTO_HOME": str(base / "home"), "XDG_CACHE_HOME": str(base / "cache"),
           "CARTO_CATCHUP": "0", "CARTO_KEEPUP": "0", "CARTO_SPILL_DIR": str(base / "spill")}
    found = {}
    for name, (provider, event, payload) in payloads(str(repo)).items():
        hook_modules(provider, event, payload, env)  # the first call of a session: builds caches
        found[name] = hook_modules(provider, event, payload, env)
    assert not (base / "home" / ".carto" / "hook.log").exists(), (base / "home" / ".carto" / "hook.log").read_text()
    return found


def test_a_hook_loads_only_the_modules_allowed_on_its_path(loaded):
    unlisted = {name: sorted(modules - set(ALLOWED)) for name, modules in loaded.items() if modules - set(ALLOWED)}
    assert unlisted == {}, "import these where they are needed, or list them in ALLOWED with their reason"


def test_every_carto_module_on_the_list_is_still_loaded(loaded):
    # A list that keeps modules the hook no longer loads stops guarding anything.
    seen = set().union(*loaded.values())
    assert sorted(m for m in ALLOWED if m.startswith("carto") and m not in seen) == []


def test_rare_cases_stay_off_the_common_path(loaded):
    # What a plain `npm test` call must not pay for: commits, timestamps, the changelog tail.
    common = loaded["Bash, Ran: row"]
    for module in ("datetime", "carto_core.util.timeparse", "carto_core.capture.turnactivity", "signal",
                   "carto_core.capture.gitstate", "carto_core.capture.tail", "shlex", "subprocess",
                   "importlib.metadata"):
        assert module not in common, module
