"""The owner's token on every route: without it (or with a wrong one, or in the wrong place)
every route the app has answers 401 and nothing else; with it, in any of its three carriers, the
same requests pass. Routes are enumerated from the app (test_guard.app_requests), so a route
added later is covered without touching this file."""

from __future__ import annotations

import os
import stat

import pytest
from starlette.testclient import TestClient

from carto_core.serve.app import ENDPOINTS, create_app
from carto_core.serve.token import REFUSAL, cookie_name, load_or_create, token_path

from .conftest import BASE
from .test_guard import app_requests


def _send(client, method, path, **kwargs):
    return client.request(method, path, json={"query": "cart"} if method == "POST" else None,
                          follow_redirects=False, **kwargs)


@pytest.fixture
def bare(app):
    """A client holding no token."""
    with TestClient(app, base_url=BASE) as test_client:
        yield test_client


def _wrong(token: str) -> str:
    return token[:-1] + ("A" if token[-1] != "A" else "B")


def test_every_route_refuses_a_request_without_the_token(bare, app):
    token = app.state.carto.token
    requests = app_requests(app)
    assert len(requests) >= len(ENDPOINTS) + 3
    attempts = {
        "nothing": {},
        "wrong bearer": {"headers": {"authorization": f"Bearer {_wrong(token)}"}},
        "right value, wrong scheme": {"headers": {"authorization": f"Basic {token}"}},
        "token alone in the header": {"headers": {"authorization": token}},
        "right value under another cookie": {"headers": {"cookie": f"carto_token={token}"}},
        "wrong cookie": {"headers": {"cookie": f"{cookie_name(token)}={_wrong(token)}"}},
        "empty query": {"params": {"token": ""}},
        "a prefix of the token": {"params": {"token": token[:20]}},
        "the token with more after it": {"params": {"token": token + "x"}},
    }
    for name, kwargs in attempts.items():
        for method, path in requests:
            response = _send(bare, method, path, **kwargs)
            assert response.status_code == 401, (name, method, path, response.text)
            assert response.json() == REFUSAL
            assert "set-cookie" not in response.headers
            # The refusal still carries the security headers (the guard wraps it).
            assert response.headers["x-frame-options"] == "DENY"


def test_every_route_passes_with_the_token_in_each_carrier(bare, app):
    """The control: the same requests with the token are not refused, so the 401s come from
    its absence alone."""
    token = app.state.carto.token
    carriers = {
        "bearer": {"headers": {"authorization": f"Bearer {token}"}},
        "bearer, lower case": {"headers": {"authorization": f"bearer {token}"}},
        "cookie": {"headers": {"cookie": f"other=1; {cookie_name(token)}={token}"}},
        "query": {"params": {"token": token}},
    }
    for name, kwargs in carriers.items():
        for method, path in app_requests(app):
            response = _send(bare, method, path, **kwargs)
            assert response.status_code not in (401, 403), (name, method, path, response.text)


def test_the_page_trades_the_url_token_for_a_cookie(bare, app):
    token = app.state.carto.token
    response = bare.get("/", params={"token": token, "x": "1"}, follow_redirects=False)
    assert response.status_code == 303
    # The token leaves the address; any other parameter stays.
    assert response.headers["location"] == "/?x=1"
    cookie = response.headers["set-cookie"]
    assert cookie == f"{cookie_name(token)}={token}; Path=/; HttpOnly; SameSite=Strict"
    assert response.headers["cache-control"] == "no-store"
    bare.cookies.set(cookie_name(token), token)
    assert bare.get("/").status_code == 200
    assert bare.get("/api/health").json()["status"] == "ok"
    with bare.stream("GET", "/api/stream") as stream:
        assert stream.status_code == 200
        assert next(stream.iter_lines()).startswith(": carto stream")
    # Only the page redirects: an API route given the token in its query answers at once.
    assert bare.get("/api/health", params={"token": token}).json()["status"] == "ok"


def test_the_loopback_guard_runs_before_the_token(bare, app):
    token = app.state.carto.token
    for headers in ({"origin": "http://evil.example"}, {"host": "evil.example"}):
        for extra in ({}, {"authorization": f"Bearer {token}"}):
            response = bare.get("/api/health", headers={**headers, **extra})
            assert response.status_code == 403, (headers, extra)


def test_the_token_is_the_homes_private_file(home, roots):
    old = os.umask(0)
    try:
        first = create_app(home, transcript_roots=roots).state.carto.token
    finally:
        os.umask(old)
    path = token_path(home)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert open(path).read().strip() == first and len(first) >= 43
    # The same token on the next start; a new one when asked for.
    assert create_app(home, transcript_roots=roots).state.carto.token == first
    rotated = load_or_create(home, rotate=True)
    assert rotated != first and load_or_create(home) == rotated
    # A file others could read is no secret any more: replaced.
    os.chmod(path, 0o644)
    replaced = load_or_create(home)
    assert replaced != rotated and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    # A symlink in its place is not followed.
    elsewhere = home.root.parent / "planted"
    elsewhere.write_text("A" * 43 + "\n")
    os.chmod(elsewhere, 0o600)
    os.unlink(path)
    os.symlink(elsewhere, path)
    assert load_or_create(home) != "A" * 43
    assert elsewhere.read_text() == "A" * 43 + "\n"


def test_an_explicit_token_is_used(home, roots):
    app = create_app(home, transcript_roots=roots, token="t" * 43)
    with TestClient(app, base_url=BASE) as client:
        assert client.get("/api/health", headers={"authorization": "Bearer " + "t" * 43}).status_code == 200
        assert client.get("/api/health", headers={
            "authorization": f"Bearer {load_or_create(home)}"}).status_code == 401


def test_the_document_declares_the_401(client):
    document = client.get("/api/openapi.json").json()
    assert document["components"]["securitySchemes"]["bearer"] == {"type": "http", "scheme": "bearer"}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert "401" in operation["responses"], (method, path)


def test_a_home_that_cannot_be_written_gets_a_token_of_its_own_run(home, monkeypatch):
    from carto_core.serve import token as token_module

    def refuse(*args, **kwargs):
        raise PermissionError(13, "read-only home")

    monkeypatch.setattr(token_module, "open_fd", refuse)
    first, second = load_or_create(home), load_or_create(home)
    assert len(first) >= 43 and first != second
    assert not os.path.exists(token_path(home))
