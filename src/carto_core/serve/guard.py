"""The loopback guard: every HTTP request to `carto serve` passes here first.

A server on 127.0.0.1 is still reachable from any web page the user opens: a page on another
site can send requests to it (CSRF) or rebind its own DNS name to 127.0.0.1 and read the answers
(DNS rebinding). Three checks close those doors, on every route, static files included:

- `Host` must name a loopback address (127.0.0.1, localhost, ::1): a rebound DNS name arrives
  with the attacker's host name in it;
- `Origin`, when sent, must be this server's own origin (loopback host and the same port);
  `Origin: null` (sandboxed frames, file://) is refused;
- `Sec-Fetch-Site`, when sent, must be `same-origin` or `none` (the user typed the address);
  `cross-site` and `same-site` (another port of localhost is "same-site") are refused.

Clients that send neither Origin nor Sec-Fetch-Site (curl, the CLI, tests) pass on Host alone.
Refusals are 403 with a JSON body naming the rule. Every answer also carries headers that keep
corpus text inert in the page: a strict Content-Security-Policy without inline script, nosniff,
no framing, no referrer.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

ALLOWED_FETCH_SITES = frozenset({"same-origin", "none"})


def split_host(value: str) -> tuple[str, int | None] | None:
    """`host[:port]` -> (lowercased host, port or None); None when it does not parse."""
    value = value.strip().lower()
    if not value or any(ch in value for ch in "/@?# \t\\"):
        return None
    try:
        parsed = urlsplit("//" + value)
        host = parsed.hostname
        port = parsed.port
    except ValueError:
        return None
    if host is None:
        return None
    return host, port


def check_request(headers: dict[str, str], scheme: str = "http") -> str | None:
    """Return the name of the rule a request breaks, or None when it may pass.

    `headers` has lowercased names (ASGI gives them so).
    """
    raw_host = headers.get("host")
    if raw_host is None:
        return "host_missing"
    host = split_host(raw_host)
    if host is None or host[0] not in LOOPBACK_HOSTS:
        return "host_not_loopback"
    default_port = 443 if scheme == "https" else 80
    host_port = host[1] if host[1] is not None else default_port
    origin = headers.get("origin")
    if origin is not None:
        try:
            parts = urlsplit(origin.strip())
            origin_host, origin_port = parts.hostname, parts.port
        except ValueError:
            return "origin_foreign"
        if parts.scheme not in ("http", "https") or origin_host not in LOOPBACK_HOSTS:
            return "origin_foreign"
        if origin_port is None:
            origin_port = 443 if parts.scheme == "https" else 80
        if origin_port != host_port:
            return "origin_foreign"
    site = headers.get("sec-fetch-site")
    if site is not None and site.strip().lower() not in ALLOWED_FETCH_SITES:
        return "cross_site_fetch"
    return None


REFUSAL_TEXT = {
    "host_missing": "a request without a Host header",
    "host_not_loopback": "the Host header does not name a loopback address (DNS rebinding?)",
    "origin_foreign": "the Origin is not this server's own",
    "cross_site_fetch": "Sec-Fetch-Site says the request comes from another site",
}


class LoopbackGuard:
    """ASGI middleware: refuse what `check_request` refuses; add the security headers."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers: dict[str, str] = {}
        for name, value in scope.get("headers", ()):
            key = name.decode("latin-1").lower()
            # A repeated Host/Origin is itself suspicious: keep the first that disagrees.
            text = value.decode("latin-1")
            if key in headers and headers[key] != text:
                headers[key] = "\x00conflict"
            else:
                headers.setdefault(key, text)
        rule = check_request(headers, scope.get("scheme", "http"))
        if rule is not None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            body = json.dumps(
                {"error": "forbidden", "code": rule, "message": REFUSAL_TEXT[rule]}
            ).encode()
            await send({
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *SECURITY_HEADERS,
                ],
            })
            await send({"type": "http.response.body", "body": body})
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(n, v) for n, v in SECURITY_HEADERS if n not in present]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
