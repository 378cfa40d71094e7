"""`carto serve` and the home as another local account sees them: `nobody`, through `runuser`
(the tests run as root on CI). Without the token every route the app has answers 401 and the
warm socket cannot be reached; the home's folders cannot be listed and its files cannot be
read, even when a parent lets the account through. The controls run the same probes as
`nobody` holding the token (answers) and on a file left world-readable (read), so a refusal
comes from what is tested, not from a broken probe.

Only root can act as another user: elsewhere the test is skipped, saying why."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from carto_core.cli import cli
from carto_core.evaluation.sample import build_sample_home
from carto_core.serve.app import create_app
from carto_core.serve.warm_client import socket_path
from carto_core.transcript.resolver import TranscriptRoots

from .conftest import LiveServer
from .test_guard import app_requests

OTHER = "nobody"
PYTHON = "/usr/bin/python3"

# Run as the other account: stdlib only, its input on stdin, one JSON line out.
PROBE = r"""
import json, os, socket, sys, urllib.error, urllib.request
job = json.load(sys.stdin)
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
out = {"uid": os.getuid(), "http": [], "files": {}, "socket": None, "listing": {}}
for method, path in job["requests"]:
    headers = {"authorization": "Bearer " + job["token"]} if job["token"] else {}
    data = b'{"query": "cart"}' if method == "POST" else None
    request = urllib.request.Request(job["base"] + path, data=data, method=method,
                                     headers=headers)
    try:
        with opener.open(request, timeout=20) as answer:
            out["http"].append([method, path, answer.status, answer.read(4096).decode("utf-8", "replace")])
    except urllib.error.HTTPError as error:
        out["http"].append([method, path, error.code, error.read(4096).decode("utf-8", "replace")])
for name in job["files"]:
    try:
        with open(name, "rb") as handle:
            out["files"][name] = "read:" + handle.read(64).decode("utf-8", "replace")
    except OSError as error:
        out["files"][name] = "refused:" + type(error).__name__
for name in job["folders"]:
    try:
        out["listing"][name] = "listed:" + ",".join(sorted(os.listdir(name)))
    except OSError as error:
        out["listing"][name] = "refused:" + type(error).__name__
if job["socket"]:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(5)
            sock.connect(job["socket"])
            sock.sendall(b'{"v": 1, "argv": ["search", "cart"]}')
            sock.shutdown(socket.SHUT_WR)
            out["socket"] = "answered:" + sock.recv(4096).decode("utf-8", "replace")
    except OSError as error:
        out["socket"] = "refused:" + type(error).__name__
print(json.dumps(out))
"""


def _as_other(job: dict) -> dict:
    done = subprocess.run(["runuser", "-u", OTHER, "--", PYTHON, "-c", PROBE],
                          input=json.dumps(job), capture_output=True, text=True, timeout=300,
                          cwd="/")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def shared_parent():
    """A folder every account may enter (pytest's own temporary folders are root's alone,
    which would refuse `nobody` before the home's own modes are tested)."""
    if os.geteuid() != 0:
        pytest.skip("acting as another local user needs root (runuser)")
    if shutil.which("runuser") is None or not os.path.exists(PYTHON):
        pytest.skip("runuser or /usr/bin/python3 is missing")
    folder = Path(tempfile.mkdtemp(prefix="carto-other-user-"))
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_another_user_gets_nothing_from_the_server_or_the_home(shared_parent):
    home = build_sample_home(shared_parent / "home")
    # The stream closes after a second: the probe reads each answer to its end.
    app = create_app(home, transcript_roots=TranscriptRoots(claude=(), codex=()), warm_search=True,
                     warm_cli=cli, poll_seconds=0.2, stream_lifetime=1.0)
    token = app.state.carto.token
    files = sorted(str(p) for p in home.root.rglob("*") if p.is_file() and not p.is_socket())
    folders = [str(home.root), str(home.state)]
    readable = shared_parent / "readable.txt"
    readable.write_text("CONTROL-TEXT")
    os.chmod(readable, 0o644)
    with LiveServer(app) as server:
        requests = app_requests(app)
        base = server.root.rstrip("/")
        sock = socket_path(home)
        assert os.path.exists(sock)
        job = {"base": base, "requests": requests, "token": "", "files": files + [str(readable)],
               "folders": folders, "socket": sock}
        stranger = _as_other(job)
        # The control: the same account holding the token is answered.
        holder = _as_other({**job, "token": token, "files": [], "folders": [], "socket": ""})
        # The home made traversable (as a careless chmod would): its files stay unreadable.
        os.chmod(home.root, 0o711)
        os.chmod(home.state, 0o711)
        try:
            through = _as_other({**job, "requests": [], "token": ""})
        finally:
            os.chmod(home.root, 0o700)
            os.chmod(home.state, 0o700)
    assert stranger["uid"] != 0
    assert len(stranger["http"]) == len(requests) >= 20
    for method, path, status, body in stranger["http"]:
        assert status == 401, (method, path, status, body)
        assert json.loads(body)["code"] == "token_required"
        assert "webshop" not in body and "discount" not in body
    for method, path, status, _ in holder["http"]:
        assert status not in (401, 403), (method, path, status)
    assert any(status == 200 and "webshop" in body for _, _, status, body in holder["http"])
    for result in (stranger, through):
        assert result["files"].pop(str(readable)) == "read:CONTROL-TEXT"
        assert set(result["files"]) == set(files) and len(files) >= 6
        assert all(v == "refused:PermissionError" for v in result["files"].values()), result["files"]
        assert result["socket"] == "refused:PermissionError"
    assert str(token_file := os.path.join(str(home.state), "serve-token")) in files
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
    assert all(v == "refused:PermissionError" for v in stranger["listing"].values())
    assert all(v == "refused:PermissionError" for v in through["listing"].values())
