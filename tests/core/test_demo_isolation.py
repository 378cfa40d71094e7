"""`carto demo` never reads the machine's agent folders: a real-looking ~/.claude (settings with
a carto hook that leaves a mark when run, a transcript), ~/.codex and ~/.hermes are planted under
HOME, and the tour runs with an audit hook recording every file and folder it opens or lists."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

AUDIT = """
import os, sys
planted = sys.argv[1]
seen = []
def hook(event, args):
    if event in ("open", "os.listdir", "os.scandir") and args and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.fsdecode(args[0]) if not isinstance(args[0], int) else ""
        if path.startswith(planted):
            seen.append(event + " " + path)
sys.addaudithook(hook)
from carto_core.entry import main
try:
    main(["demo"])
except SystemExit:
    pass
finally:
    sys.stdout.flush()
    print("AUDIT " + repr(seen), file=sys.stderr)
"""


def test_the_demo_reads_nothing_of_the_real_agent_folders(tmp_path):
    home = Path(os.environ["HOME"])
    mark = tmp_path / "hook-ran"
    claude = home / ".claude"
    (claude / "projects" / "-work-secret").mkdir(parents=True)
    hook = {"type": "command", "command": f"touch {mark}; carto hook claude PostToolUse"}
    (claude / "settings.json").write_text(json.dumps(
        {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}))
    (claude / "projects" / "-work-secret" / "5eed0000-0000-4000-8000-000000000001.jsonl").write_text(
        json.dumps({"type": "user", "sessionId": "5eed0000-0000-4000-8000-000000000001",
                    "timestamp": "2026-01-01T00:00:00Z", "cwd": "/work/secret",
                    "message": {"role": "user", "content": "zorblax quarterly plan"}}) + "\n")
    (claude / "history.jsonl").write_text('{"display": "zorblax", "timestamp": 1700000000000}\n')
    (home / ".codex").mkdir()
    (home / ".codex" / "hooks.json").write_text(json.dumps({"hooks": {"Stop": [{"hooks": [hook]}]}}))
    (home / ".codex" / "config.toml").write_text('model = "x"\n')
    (home / ".hermes").mkdir()
    (home / ".hermes" / "state.db").write_bytes(b"")
    done = subprocess.run([sys.executable, "-c", AUDIT, str(home)], capture_output=True, text=True,
                          timeout=600, env={**os.environ, "CARTO_KEEPUP": "0"})
    assert "carto demo: sample home in" in done.stdout, done.stderr[-2000:]
    audit = done.stderr.rsplit("AUDIT ", 1)[1].strip()
    opened = [p for p in eval(audit) if any(f"/{d}" in p for d in (".claude", ".codex", ".hermes"))]
    assert opened == [], opened
    assert not mark.exists()  # doctor never ran the planted hooks
    assert "zorblax" not in done.stdout and "secret" not in done.stdout


def test_the_demo_neither_reads_nor_runs_the_current_folders_project_hooks(tmp_path):
    """Run from a project whose `.claude/settings.json` holds a carto hook, the tour's doctor
    listed "claude 12 hooks in <that folder>/.claude/settings.json" and ran each of them: the
    doctor looks at the project settings of the current folder, which the demo left where the
    person stood. The tour now stands in its own temporary folder, and is back afterwards."""
    project = tmp_path / "proj"
    mark = tmp_path / "hook-ran"
    hook = {"type": "command", "command": f"touch {mark}; carto hook claude PostToolUse"}
    for agent, name in ((".claude", "settings.json"), (".codex", "hooks.json")):
        (project / agent).mkdir(parents=True)
        (project / agent / name).write_text(json.dumps(
            {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}))
    script = ("import os\nfrom carto_core.entry import main\n"
              "try:\n    main(['demo'])\nexcept SystemExit:\n    pass\n"
              "print('CWD ' + os.getcwd())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=project,
                          timeout=600, env={**os.environ, "CARTO_KEEPUP": "0"})
    assert "carto demo: sample home in" in done.stdout, done.stderr[-2000:]
    assert str(project) not in done.stdout.replace(f"CWD {project}", ""), done.stdout
    assert not mark.exists()
    assert done.stdout.rstrip().endswith(f"CWD {project}")
