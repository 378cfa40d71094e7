"""`carto mcp` on the wire: every line a client can send is answered per JSON-RPC 2.0 (before,
the SDK's transport dropped them and the client waited forever) and the server keeps serving."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from carto_core.evaluation.sample import build_sample_home

PATIENCE = 30  # seconds a loaded machine may take for one answer; "never" is what is tested


class Wire:
    def __init__(self, home: Path):
        env = {**os.environ, "CARTO_HOME": str(home)}
        self.proc = subprocess.Popen([sys.executable, "-m", "carto_core", "mcp", "--no-warm"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
        self.buffer = b""

    def send(self, raw: bytes | dict | list) -> None:
        data = raw if isinstance(raw, bytes) else json.dumps(raw).encode()
        self.proc.stdin.write(data if data.endswith(b"\n") else data + b"\n")
        self.proc.stdin.flush()

    def receive(self, timeout: float = PATIENCE):
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                raise AssertionError("no answer: the client would wait forever")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise AssertionError("the server stopped")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def ask(self, raw, timeout: float = PATIENCE):
        self.send(raw)
        return self.receive(timeout)

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=PATIENCE)
        finally:
            self.proc.kill()
            self.proc.stdout.close()


@pytest.fixture
def wire(tmp_path):
    home = tmp_path / "home"
    build_sample_home(home)
    connection = Wire(home)
    answer = connection.ask({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "test", "version": "1"}}})
    assert answer["id"] == 0 and "result" in answer
    connection.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    yield connection
    connection.close()


def search(i, query):
    return {"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": "search", "arguments": {"query": query}}}


CASES = [
    (b"not json", None, -32700),
    (b'{"jsonrpc": "2.0", "id": 2, "method": "tools/li', None, -32700),
    (b"\xff\xfe garbage", None, -32700),
    (b'{"jsonrpc": "2.0", "id": 4}', 4, -32600),
    (b'{"jsonrpc": "2.0", "id": 5, "method": 12}', 5, -32600),
    (b'{"jsonrpc": "1.0", "id": 6, "method": "ping"}', 6, -32600),
    (b'{"jsonrpc": "2.0", "id": true, "method": "ping"}', None, -32600),
    (b'{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": "x"}', 8, -32600),
    (b"[]", None, -32600),
    (b'{"jsonrpc": "2.0", "id": 10, "method": "no/such/method"}', 10, -32601),
    (b'{"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {}}', 11, -32602),
    (b'{"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": [1, 2]}', 12, -32602),
    (b'{"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": '
     + b'{"a": ' * 100 + b"1" + b"}" * 100 + b"}", 13, -32602),
    (b'{"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": '
     + b"[" * 50_000 + b"]" * 50_000 + b"}", None, -32600),
]


def test_every_bad_line_is_answered_and_the_server_keeps_serving(wire):
    for raw, answer_id, code in CASES:
        answer = wire.ask(raw)
        assert answer["jsonrpc"] == "2.0" and answer["id"] == answer_id, raw[:60]
        assert answer["error"]["code"] == code, (raw[:60], answer)
    # Still serving: a real call after all of that.
    answer = wire.ask(search(20, "rounding"))
    assert answer["id"] == 20 and not answer["result"].get("isError")
    assert answer["result"]["structuredContent"]["results"]


def test_a_lone_surrogate_in_a_query_is_answered(wire):
    raw = b'{"jsonrpc": "2.0", "id": 30, "method": "tools/call", "params": {"name": "search", ' \
          b'"arguments": {"query": "rounding \\ud83d"}}}'
    answer = wire.ask(raw)
    assert answer["id"] == 30 and "result" in answer
    assert answer["result"]["structuredContent"]["query"] == "rounding \ufffd"


def test_batches_get_one_array_and_notifications_get_nothing(wire):
    wire.send([{"jsonrpc": "2.0", "id": "p", "method": "ping"},
               {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}},
               {"jsonrpc": "2.0", "id": 40, "method": "tools/list"},
               {"jsonrpc": "2.0", "id": 41, "method": "nope"},
               {"bad": True}])
    array = wire.receive()
    assert isinstance(array, list) and len(array) == 4
    by_id = {a["id"]: a for a in array if a["id"] is not None}
    assert by_id["p"]["result"] == {}
    assert {t["name"] for t in by_id[40]["result"]["tools"]} >= {"search", "get", "facts"}
    assert by_id[41]["error"]["code"] == -32601
    assert [a["error"]["code"] for a in array if a["id"] is None] == [-32600]
    # A batch of notifications only is not answered at all: the next answer is the ping's.
    wire.send([{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 2}}])
    assert wire.ask({"jsonrpc": "2.0", "id": 50, "method": "ping"}) == {"jsonrpc": "2.0", "id": 50, "result": {}}


def test_every_request_piped_before_stdin_closes_is_answered(tmp_path):
    """A client that writes its requests and closes stdin (`printf ... | carto mcp`) gets an
    answer to each of them. Before, the end of stdin cancelled the calls still running: the
    first tools/call got nothing and the next 'Connection closed'."""
    home = tmp_path / "home"
    build_sample_home(home)
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        search(2, "discount codes"),
        {"jsonrpc": "2.0", "id": "three", "method": "tools/call",
         "params": {"name": "standup", "arguments": {}}},
        [search(4, "rounding"), {"jsonrpc": "2.0", "id": 5, "method": "ping"}],
        search(6, "flaky test"),
    ]
    stdin = b"".join(json.dumps(m).encode() + b"\n" for m in messages)
    done = subprocess.run([sys.executable, "-m", "carto_core", "mcp"], input=stdin,
                          capture_output=True, timeout=PATIENCE * 4,
                          env={**os.environ, "CARTO_HOME": str(home)})
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    ids = []
    for answer in answers:
        for item in answer if isinstance(answer, list) else [answer]:
            assert "result" in item, item
            ids.append(item["id"])
    assert sorted(map(str, ids)) == ["1", "2", "4", "5", "6", "three"], done.stderr[-2000:]
    assert done.returncode == 0


def test_a_window_ending_before_it_starts_is_refused(wire):
    """since after before was searched, and answered with no result as if nothing matched."""
    answer = wire.ask({"jsonrpc": "2.0", "id": 60, "method": "tools/call",
                       "params": {"name": "search", "arguments": {"query": "rounding", "since": "today",
                                                                  "before": "yesterday"}}})
    error = answer["result"]["structuredContent"]["error"]
    assert answer["result"]["isError"] and error["code"] == "invalid_arguments"
    assert "since today is after before yesterday" in error["message"]
    answer = wire.ask({"jsonrpc": "2.0", "id": 61, "method": "tools/call",
                       "params": {"name": "orient", "arguments": {"project": "webshop", "since": "today",
                                                                  "before": "yesterday"}}})
    assert answer["result"]["isError"]


def test_a_home_that_does_not_exist_is_not_made_by_serving_it(tmp_path):
    """CARTO_HOME naming no folder (a typo, a home not made yet): `carto mcp` warmed an index
    into it at start-up, so the folder, a search index and a cursor key appeared; the stderr
    line said it answered 'for an empty home'. Nothing is written there now."""
    home = tmp_path / "nohome"
    env = {**os.environ, "CARTO_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "carto_core", "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "test", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             search(2, "rounding"),
             {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
              "params": {"name": "orient", "arguments": {"project": "webshop"}}}]
    out, _ = proc.communicate(b"".join(json.dumps(line).encode() + b"\n" for line in lines),
                              timeout=PATIENCE)
    answers = {a["id"]: a for a in map(json.loads, out.splitlines())}
    assert answers[2]["result"]["structuredContent"]["error"]["code"] == "not_found"
    assert not home.exists(), sorted(str(p) for p in home.rglob("*"))


def test_get_of_a_forgotten_id_says_so(tmp_path):
    from carto_core.logio.home import Home
    from carto_core.logio.tombstone import bury

    home = tmp_path / "home"
    build_sample_home(home)
    bury(Home(home), ["evt-0000000f0a77"])
    connection = Wire(home)
    try:
        connection.ask({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                   "clientInfo": {"name": "test", "version": "1"}}})
        answer = connection.ask({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": "get", "arguments": {"ids": ["evt-0000000f0a77"]}}})
    finally:
        connection.close()
    error = answer["result"]["structuredContent"]["error"]
    assert error["code"] == "not_found" and error["forgotten"] == ["evt-0000000f0a77"]
    assert "`carto forget` took out evt-0000000f0a77" in error["message"]


def test_orient_on_a_project_the_home_has_not_names_the_projects_it_has(wire):
    """orient with project 'webshp' (a typo) answered an empty orientation as a success: the
    agent learnt nothing, where `carto search --project webshp` exits 3 and lists the projects."""
    answer = wire.ask({"jsonrpc": "2.0", "id": 70, "method": "tools/call",
                       "params": {"name": "orient", "arguments": {"project": "webshp"}}})
    error = answer["result"]["structuredContent"]["error"]
    assert answer["result"]["isError"] and error["code"] == "not_found"
    assert error["projects"] == ["infra-tools", "webshop"]
    assert error["message"] == "No project matches webshp; this home's projects: infra-tools, webshop."
    fine = wire.ask({"jsonrpc": "2.0", "id": 71, "method": "tools/call",
                     "params": {"name": "orient", "arguments": {"project": "webshop"}}})
    assert not fine["result"].get("isError") and fine["result"]["structuredContent"]["events"] > 0


def test_thread_of_a_turn_says_it_is_no_changelog_event_and_what_shows_it(wire):
    """thread of a transcript turn's id (search results carry them) answered 'no changelog event
    turn-...', as if the id did not exist."""
    turn = next(hit["event_id"] for hit in wire.ask(search(80, "discount codes"))["result"]
                ["structuredContent"]["results"] if hit["event_id"].startswith("turn-"))
    answer = wire.ask({"jsonrpc": "2.0", "id": 81, "method": "tools/call",
                       "params": {"name": "thread", "arguments": {"event_id": turn}}})
    error = answer["result"]["structuredContent"]["error"]
    assert error["code"] == "not_found"
    assert error["message"].startswith(f"{turn} is a transcript turn, not a changelog event: a work "
                                       "arc follows changelog events' parent_event_id; the get tool "
                                       "shows the turn")
