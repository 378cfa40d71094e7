"""The warm CLI path (`carto_core.serve.warm_client`): with `carto serve` running for the home, `carto search`
and `carto facts` are answered by the server over the Unix socket in the home, with the same
bytes and exit code as a cold run; a changed log, another home or another command is never
answered warm; the socket keeps to its guard rules."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.serve.app import create_app
from carto_core.util.timeparse import format_timestamp, utcnow
from carto_core.cli import cli
from carto_core.serve.warm_socket import run_command
from carto_core.serve.warm_client import ENGINE_ENV, FORWARDED_ENV, REQUEST_MAX, fingerprints, socket_path

from .conftest import LiveServer


@pytest.fixture
def warm(home, roots):
    app = create_app(home, transcript_roots=roots, warm_search=True, warm_cli=cli,
                     poll_seconds=0.2)
    with LiveServer(app) as server:
        server.state = app.state.carto
        yield server


def carto(home, *args, warm_path=True, session=None):
    """The CLI as an agent runs it. Two runs compare byte for byte when they name the same
    call id (it is printed, and otherwise holds the time and the pid) and share no session
    (delta serving hides from a session what an earlier call served it)."""
    env = {**os.environ, "CARTO_HOME": str(home.root), "CARTO_WARM": "1" if warm_path else "0"}
    if session:
        env["CARTO_SESSION_ID"] = session
    done = subprocess.run([sys.executable, "-m", "carto_core", *args], capture_output=True,
                          env=env, timeout=120)
    return done.returncode, done.stdout, done.stderr


def _strip(document: bytes) -> dict:
    data = json.loads(document)
    for key in ("stages_ms", "call_id"):
        data.pop(key, None)
    for ladder in data.get("ladders", []):
        ladder.pop("ms")  # the clock of each run
    return data


def test_warm_and_cold_answers_are_the_same_bytes(warm, home):
    assert stat.S_IMODE(os.stat(socket_path(home)).st_mode) == 0o600
    for args in (["search", "discount codes", "--call-id", "c1"],
                 ["search", "discount codes", "-n", "3", "--call-id", "c1"],
                 ["search", "qwertyzzzz-nothing", "--call-id", "c1"],
                 ["search", "--project", "webshop"], ["search", "--limit", "0", "x"]):
        before = warm.state.warm.served
        cold = carto(home, *args, warm_path=False)
        hot = carto(home, *args)
        assert hot == cold, args
        assert warm.state.warm.served == before + 1, f"{args} was not answered warm"
    # exit codes pass through: nothing found is 3, a usage error 2
    assert carto(home, "search", "qwertyzzzz-nothing")[0] == 3
    assert carto(home, "search", "--limit", "0", "x")[0] == 2
    # --json: the same document but for the per-call clock and id
    cold = carto(home, "search", "discount codes", "--json", "--call-id", "c2", warm_path=False)
    hot = carto(home, "search", "discount codes", "--json", "--call-id", "c2")
    assert hot[0] == cold[0] == 0 and _strip(hot[1]) == _strip(cold[1])
    carto(home, "facts", "census", warm_path=False)  # builds the columns cache (said on stderr)
    for args in (["facts", "census"], ["facts", "tempo"], ["facts", "census", "--since", "bogus"]):
        before = warm.state.warm.served
        assert carto(home, *args) == carto(home, *args, warm_path=False), args
        assert warm.state.warm.served == before + 1
    facts_cold = carto(home, "facts", "census", "--json", warm_path=False)
    facts_hot = carto(home, "facts", "census", "--json")
    assert facts_hot[0] == facts_cold[0] == 0
    assert json.loads(facts_hot[1])["facts"] == json.loads(facts_cold[1])["facts"]


def test_a_warm_answer_to_a_reader_that_left_ends_quietly(warm, home):
    """`carto search X | head -1` answered warm: the reader has closed the pipe, so writing the
    answer fails; the command ends with exit 1 and no traceback, as a cold run does (it once
    ended in a BrokenPipeError traceback, exit 120)."""
    for args in (["search", "discount codes"], ["search", "discount codes", "--json"],
                 ["facts", "census"]):
        before = warm.state.warm.served
        read, write = os.pipe()
        os.close(read)
        try:
            done = subprocess.run([sys.executable, "-m", "carto_core", *args], stdout=write,
                                  stderr=subprocess.PIPE, timeout=120,
                                  env={**os.environ, "CARTO_HOME": str(home.root), "CARTO_WARM": "1"})
        finally:
            os.close(write)
        assert warm.state.warm.served == before + 1, f"{args} was not answered warm"
        err = done.stderr.decode("utf-8", "replace")
        assert done.returncode == 1 and "Traceback" not in err and "Broken" not in err, (args, err)


def test_a_warm_answer_records_the_callers_session(warm, home):
    from carto_core.search.telemetry import read_served

    code, out, _ = carto(home, "search", "discount codes", session="warm-session")
    assert code == 0 and warm.state.warm.served >= 1
    served = read_served(home, "warm-session")
    assert served and all(eid.encode() in out for eid in served)
    # delta serving for that session, as a cold run would do it: the same call again hides them
    again = carto(home, "search", "discount codes", session="warm-session")
    cold_again = carto(home, "search", "discount codes", session="warm-session", warm_path=False)
    assert again[0] == cold_again[0] and not any(eid.encode() in again[1] for eid in served)


def test_a_new_row_is_seen_warm(warm, home):
    assert b"Ran: zebrafishctl" not in carto(home, "search", "zebrafishctl")[1]
    append_rows(home.log("changelog"), [{"event_id": "evt-zebra", "timestamp": format_timestamp(utcnow()),
                                         "type": "tool_bash", "summary": "Ran: zebrafishctl migrate",
                                         "project": "zoo", "session_id": "s-zoo", "provider": "claude"}])
    served = warm.state.warm.served
    code, out, _ = carto(home, "search", "zebrafishctl")
    assert code == 0 and b"zebrafishctl migrate" in out and warm.state.warm.served == served + 1


def test_never_stale_never_another_home_never_another_command(home, tmp_path):
    base = {"v": 1, "argv": ["search", "discount codes"], "cwd": str(tmp_path),
            "home": str(home.root),
            "env": {**{k: os.environ[k] for k in FORWARDED_ENV + ENGINE_ENV if k in os.environ},
                    "CARTO_HOME": str(home.root)}}
    assert run_command(home, {**base, "fingerprints": fingerprints(home)}, cli)["status"] == "ok"
    # the caller saw other logs than the server answers from: it must run cold
    seen = fingerprints(home)
    append_rows(home.log("changelog"), [{"event_id": "evt-late", "timestamp": format_timestamp(utcnow()),
                                         "type": "tool_bash", "summary": "Ran: late", "project": "p",
                                         "session_id": "s", "provider": "claude"}])
    assert run_command(home, {**base, "fingerprints": seen}, cli) == {"status": "cold", "reason": "the logs changed"}
    assert run_command(home, {**base, "fingerprints": fingerprints(home), "home": str(tmp_path)}, cli)["status"] == "cold"
    # a caller whose engine would differ (another analyzer, config, plugin set) is not ours
    other = {**base["env"], "CARTO_ANALYZER": "upstream"}
    assert run_command(home, {**base, "env": other, "fingerprints": fingerprints(home)}, cli) == \
        {"status": "cold", "reason": "another engine configuration"}
    for argv in (["doctor"], ["repair", "torn-rows"], ["hook", "claude", "PostToolUse"], [], "search"):
        assert run_command(home, {**base, "argv": argv, "fingerprints": fingerprints(home)}, cli)["status"] == "cold"


def _ask(path, payload: bytes) -> dict:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(path)
        sock.sendall(payload)
        sock.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return json.loads(data)


def test_socket_guard(warm, home):
    path = socket_path(home)
    assert _ask(path, b"not json") == {"status": "refused", "reason": "bad request"}
    assert _ask(path, json.dumps({"v": 2}).encode())["status"] == "refused"
    assert _ask(path, b"x" * (REQUEST_MAX + 10))["status"] == "refused"
    assert warm.state.warm.refused == 3
    # a second server of the same home does not take over a live socket
    from carto_core.serve.warm_socket import WarmSocket

    with pytest.raises(FileExistsError):
        WarmSocket(home, cli).bind()


@pytest.mark.parametrize("mode", [0o750, 0o705, 0o711, 0o755, 0o777])
def test_no_socket_in_a_folder_others_may_enter(home, mode):
    from carto_core.serve.warm_socket import WarmSocket

    folder = os.path.dirname(socket_path(home))
    os.makedirs(folder, exist_ok=True)
    os.chmod(folder, mode)
    with pytest.raises(PermissionError, match="not private"):
        WarmSocket(home, cli).bind()
    assert not os.path.exists(socket_path(home))
    os.chmod(folder, 0o700)
    sock = WarmSocket(home, cli).bind()
    try:
        assert stat.S_IMODE(os.stat(socket_path(home)).st_mode) == 0o600
    finally:
        sock.close()
        os.unlink(socket_path(home))


def test_no_server_runs_cold(home):
    assert not os.path.exists(socket_path(home))
    code, out, _ = carto(home, "search", "discount codes")
    assert code == 0 and b"discount" in out.lower()
