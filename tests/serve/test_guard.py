"""The loopback guard on every route: a forged Host, a foreign Origin and a cross-site fetch are
refused, whatever the route. Routes are enumerated from the app itself, so a route added later
is covered without touching this file."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from starlette.routing import Mount, Route

from carto_core.serve.app import ENDPOINTS
from carto_core.serve.guard import LOOPBACK_HOSTS, check_request, split_host

FORGERIES = {
    "forged host": ({"host": "evil.example"}, "host_not_loopback"),
    "rebinding host": ({"host": "127.0.0.1.nip.io:8000"}, "host_not_loopback"),
    "host with userinfo": ({"host": "127.0.0.1@evil.example"}, "host_not_loopback"),
    "foreign origin": ({"origin": "http://evil.example"}, "origin_foreign"),
    # The port matches this server's (8000): only the host check can refuse it (mutation
    # testing found the host check could go with the suite passing).
    "foreign origin, same port": ({"origin": "http://evil.example:8000"}, "origin_foreign"),
    "loopback origin, same port, not http": ({"origin": "ftp://127.0.0.1:8000"}, "origin_foreign"),
    "null origin": ({"origin": "null"}, "origin_foreign"),
    "loopback origin, other port": ({"origin": "http://127.0.0.1:9999"}, "origin_foreign"),
    "cross-site fetch": ({"sec-fetch-site": "cross-site"}, "cross_site_fetch"),
    "same-site fetch (another localhost port)": ({"sec-fetch-site": "same-site"}, "cross_site_fetch"),
}


def app_requests(app) -> list[tuple[str, str]]:
    """(method, concrete path) for every route the app has; path parameters filled in."""
    out = []
    for route in app.routes:
        if isinstance(route, Route):
            path = re.sub(r"\{[^}]+\}", "x", route.path)
            for method in sorted(route.methods - {"HEAD"}):
                out.append((method, path))
        elif isinstance(route, Mount):
            out.append(("GET", route.path + "/app.js"))
        else:  # a new kind of route must be taught to this test, not skipped
            raise AssertionError(f"route kind not enumerated: {route!r}")
    # A path no route serves is guarded too (a 404 must not answer a foreign page either).
    out.append(("GET", "/no-such-route"))
    return out


def test_enumeration_covers_every_declared_endpoint(app):
    requests = app_requests(app)
    paths = {path for _, path in requests}
    for endpoint in ENDPOINTS:
        assert re.sub(r"\{[^}]+\}", "x", endpoint.path) in paths
    assert ("GET", "/") in requests and ("GET", "/static/app.js") in requests


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_every_route_refuses(client, app, forgery):
    headers, code = FORGERIES[forgery]
    requests = app_requests(app)
    assert len(requests) >= len(ENDPOINTS) + 2
    for method, path in requests:
        response = client.request(method, path, headers=headers,
                                  json={"query": "cart"} if method == "POST" else None)
        assert response.status_code == 403, (method, path, response.text)
        assert response.json()["code"] == code
        # The refusal must not leak corpus data.
        assert "webshop" not in response.text


def test_every_route_answers_a_clean_loopback_request(client, app):
    """The control: the same requests from this origin are not refused, so the 403s above come
    from the forgery and nothing else."""
    own = {"origin": "http://127.0.0.1:8000", "sec-fetch-site": "same-origin"}
    for method, path in app_requests(app):
        response = client.request(method, path, headers=own,
                                  json={"query": "cart"} if method == "POST" else None)
        assert response.status_code != 403, (method, path, response.text)


def test_security_headers_on_answers(client):
    response = client.get("/")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert "access-control-allow-origin" not in response.headers


@given(st.from_regex(r"[a-z0-9.\-]{1,30}(:[0-9]{1,6})?", fullmatch=True))
def test_any_other_host_is_refused(host):
    assume(host.split(":")[0] not in ("127.0.0.1", "localhost"))
    assert check_request({"host": host}) == "host_not_loopback"


@given(st.dictionaries(st.sampled_from(["host", "origin", "sec-fetch-site"]),
                       st.text(max_size=60)))
def test_guard_never_raises_and_only_passes_loopback(headers):
    rule = check_request(headers)
    if rule is None:
        assert split_host(headers["host"])[0] in LOOPBACK_HOSTS
        assert headers.get("sec-fetch-site", "none").strip().lower() in ("none", "same-origin")


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:2526", "localhost:80", "[::1]:2526"])
def test_loopback_hosts_pass(host):
    assert check_request({"host": host}) is None
    port = host.rsplit(":", 1)[1] if host.count(":") == 1 or host.endswith("]:2526") else "80"
    assert check_request({"host": host, "origin": f"http://localhost:{port}",
                          "sec-fetch-site": "same-origin"}) is None


@pytest.mark.parametrize("headers, rule", [
    ({"host": "127.0.0.1:8000", "origin": "http://evil.example:8000"}, "origin_foreign"),
    ({"host": "127.0.0.1", "origin": "http://evil.example"}, "origin_foreign"),  # both port 80
    ({"host": "localhost:443", "origin": "https://evil.example"}, "origin_foreign"),
    ({"host": "127.0.0.1:8000", "origin": "ws://127.0.0.1:8000"}, "origin_foreign"),
    ({"host": "127.0.0.1:443", "origin": "https://127.0.0.1"}, None),  # https's default port
    ({"host": "127.0.0.1:80", "origin": "http://localhost"}, None),
    ({"host": "127.0.0.1:443", "origin": "http://127.0.0.1"}, "origin_foreign"),  # 80, not 443
    ({"host": "127.0.0.1:8000", "origin": "http://[::1]:8000"}, None),
    # origins urlsplit cannot read (a port out of range, a broken IPv6 literal) are foreign
    ({"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:99999"}, "origin_foreign"),
    ({"host": "127.0.0.1:8000", "origin": "http://[::1:8000"}, "origin_foreign"),
])
def test_the_origin_must_be_this_servers_host_kind_and_port(headers, rule):
    assert check_request(headers) == rule


def test_every_security_header_is_sent_as_declared(client):
    """Each header and each CSP directive (mutation testing changed several, unnoticed)."""
    headers = client.get("/").headers
    csp = [part.strip() for part in headers["content-security-policy"].split(";")]
    for directive in ("default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
                      "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"):
        assert directive in csp, directive
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["cross-origin-resource-policy"] == "same-origin"
    assert headers["cross-origin-opener-policy"] == "same-origin"


@pytest.mark.parametrize("site, rule", [("none", None), ("same-origin", None), ("None", None),
                                        ("cross-site", "cross_site_fetch"), ("same-site", "cross_site_fetch")])
def test_a_typed_address_and_a_same_origin_fetch_pass(site, rule):
    assert check_request({"host": "127.0.0.1:8000", "sec-fetch-site": site}) == rule


@pytest.mark.parametrize("host", ["localhost/evil", "localhost?x=1", "localhost#x", "local host",
                                  "localhost\\evil", "127.0.0.1\tx", "user@localhost"])
def test_a_host_with_url_syntax_in_it_is_refused(host):
    assert split_host(host) is None
    assert check_request({"host": host}) == "host_not_loopback"


def test_missing_host_is_refused():
    assert check_request({}) == "host_missing"
