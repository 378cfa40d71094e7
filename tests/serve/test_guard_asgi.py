"""`LoopbackGuard` as ASGI middleware, driven with raw scopes and a recording inner app.

The route tests (test_guard.py) go through Starlette's TestClient, which forgives a refusal
without headers and never sends a websocket, a lifespan scope, a repeated header or an https
scheme: mutation testing changed each of those paths in the middleware unnoticed."""

from __future__ import annotations

import asyncio
import json

import pytest

from carto_core.serve.guard import REFUSAL_TEXT, SECURITY_HEADERS, LoopbackGuard


class Inner:
    """The app behind the guard: records what reached it and answers with `headers`."""

    def __init__(self, headers=()):
        self.scopes = []
        self.headers = list(headers)

    async def __call__(self, scope, receive, send):
        self.scopes.append(scope)
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": list(self.headers)})
            await send({"type": "http.response.body", "body": b"ok"})


def call(scope, inner=None):
    """Run one scope through the guard; (messages sent, inner app)."""
    inner = inner or Inner()
    sent = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    asyncio.run(LoopbackGuard(inner)(scope, receive, send))
    return sent, inner


def http(headers, scheme="http", kind="http"):
    return {"type": kind, "scheme": scheme, "path": "/", "headers": [(k.encode(), v.encode()) for k, v in headers]}


def test_a_refusal_is_a_complete_json_403_with_the_security_headers():
    sent, inner = call(http([("host", "evil.example")]))
    assert inner.scopes == []
    start, body = sent
    assert start["type"] == "http.response.start" and start["status"] == 403
    payload = body["body"]
    assert body["type"] == "http.response.body"
    assert json.loads(payload) == {"error": "forbidden", "code": "host_not_loopback",
                                   "message": REFUSAL_TEXT["host_not_loopback"]}
    assert start["headers"] == [(b"content-type", b"application/json"),
                                (b"content-length", str(len(payload)).encode()), *SECURITY_HEADERS]


def test_a_forged_websocket_is_closed_with_policy_violation_and_a_loopback_one_passes():
    sent, inner = call(http([("host", "evil.example")], kind="websocket"))
    assert sent == [{"type": "websocket.close", "code": 1008}] and inner.scopes == []
    sent, inner = call(http([("host", "127.0.0.1:2526")], kind="websocket"))
    assert len(inner.scopes) == 1 and sent == []


def test_other_scopes_pass_through_untouched():
    scope = {"type": "lifespan"}
    sent, inner = call(scope)
    assert inner.scopes == [scope] and sent == []


@pytest.mark.parametrize("headers, code", [
    ([("host", "127.0.0.1:2526"), ("host", "evil.example")], "host_not_loopback"),
    ([("host", "evil.example"), ("host", "127.0.0.1:2526")], "host_not_loopback"),
    ([("host", "127.0.0.1:2526"), ("origin", "http://127.0.0.1:2526"), ("origin", "http://evil.example")],
     "origin_foreign"),
    ([("Host", "evil.example")], "host_not_loopback"),  # names are compared lowercased
    ([("HOST", "127.0.0.1:2526"), ("Origin", "http://evil.example:2526")], "origin_foreign"),
])
def test_repeated_or_capitalised_headers_cannot_smuggle_a_request_in(headers, code):
    sent, inner = call(http(headers))
    assert inner.scopes == [] and json.loads(sent[1]["body"])["code"] == code


def test_the_same_header_repeated_with_the_same_value_passes():
    sent, inner = call(http([("host", "127.0.0.1:2526"), ("host", "127.0.0.1:2526")]))
    assert len(inner.scopes) == 1 and sent[0]["status"] == 200


def test_the_scopes_scheme_sets_the_default_port_an_origin_is_compared_with():
    # Host without a port on https means 443: an https origin on 443 is this server, http (80) is not
    sent, inner = call(http([("host", "127.0.0.1"), ("origin", "https://127.0.0.1")], scheme="https"))
    assert len(inner.scopes) == 1 and sent[0]["status"] == 200
    sent, inner = call(http([("host", "127.0.0.1"), ("origin", "http://127.0.0.1")], scheme="https"))
    assert inner.scopes == [] and json.loads(sent[1]["body"])["code"] == "origin_foreign"


def test_an_answer_gets_each_missing_security_header_once_and_keeps_the_apps_own():
    own = [(b"content-type", b"text/plain"), (b"X-Frame-Options", b"SAMEORIGIN")]
    sent, inner = call(http([("host", "localhost:2526")]), Inner(own))
    start, body = sent
    assert body == {"type": "http.response.body", "body": b"ok"}
    names = [name.lower() for name, _ in start["headers"]]
    assert start["headers"][:2] == own
    assert names.count(b"x-frame-options") == 1
    for name, value in SECURITY_HEADERS:
        if name != b"x-frame-options":
            assert (name, value) in start["headers"]
    assert len(start["headers"]) == len(own) + len(SECURITY_HEADERS) - 1


def test_headers_are_optional_in_asgi_messages_and_scopes():
    """ASGI lets a response start without `headers` (and a server build a scope without them)."""

    class Bare(Inner):
        async def __call__(self, scope, receive, send):
            self.scopes.append(scope)
            await send({"type": "http.response.start", "status": 204})

    sent, inner = call(http([("host", "127.0.0.1:2526")]), Bare())
    assert sent[0]["headers"] == SECURITY_HEADERS
    sent, inner = call({"type": "http", "scheme": "http", "path": "/"})
    assert inner.scopes == [] and json.loads(sent[1]["body"])["code"] == "host_missing"
