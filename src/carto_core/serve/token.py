"""The owner's secret: `carto serve` answers only a client that holds the home's serve token.

The loopback guard (`guard.py`) keeps web pages out, but any local account can reach
127.0.0.1. The token closes that door: it is a random 256-bit value kept in
`<home>/.carto/serve-token` (0600 in the home's private folder, so only the home's owner can
read it), printed in the URL `carto serve` shows, and required by every route, the page, its
static files and the event stream. A client proves it holds the token by one of:

- `?token=<token>` in the URL (the printed one). On the page (`GET /`) the answer is a redirect
  to the same address without it that sets the cookie, so the token leaves the address bar;
- the cookie (`carto_<digest>`, HttpOnly, SameSite=Strict), which the page's own requests and
  its EventSource then send;
- `Authorization: Bearer <token>`, for scripts and API clients.

The cookie's name is derived from the token, because browsers scope cookies by host and not
by port: two servers of two homes on the same host keep a cookie each. A refusal is a 401 with
a JSON body that says where the token is; it names no corpus data. The token is compared in
constant time. It stays the same across restarts (a bookmark keeps working) until
`carto serve --new-token` replaces it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from urllib.parse import parse_qsl, urlencode

from carto_core.util.privatefiles import make_dirs, open_fd

TOKEN_FILE = "serve-token"
QUERY_NAME = "token"
#: A token is this many random bytes, written as URL-safe base64.
TOKEN_BYTES = 32


def token_path(home) -> str:
    return os.path.join(str(home.state), TOKEN_FILE)


def _usable(path: str) -> str | None:
    """The token in `path` when the file is this user's and no one else may read it."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if info.st_uid != os.getuid() or info.st_mode & 0o077:
            return None  # someone else may have read it: not a secret any more
        text = os.read(fd, 256).decode("ascii", "replace").strip()
    finally:
        os.close(fd)
    return text if len(text) >= 32 and text.isascii() else None


def load_or_create(home, *, rotate: bool = False) -> str:
    """The home's serve token: the one kept in the home, or a new one written there (when
    asked to, when there is none, or when the file could have been read by others); a home
    that cannot be written gets a token for this run only."""
    path = token_path(home)
    if not rotate:
        found = _usable(path)
        if found is not None:
            return found
    token = secrets.token_urlsafe(TOKEN_BYTES)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        make_dirs(str(home.state))
        fd = open_fd(tmp, os.O_WRONLY | os.O_TRUNC)
        try:
            os.write(fd, token.encode() + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        # A home that cannot be written (read-only, full) is still served: with a token of
        # this run only, which the printed URL carries.
        return token
    return token


def cookie_name(token: str) -> str:
    return "carto_" + hashlib.sha256(token.encode()).hexdigest()[:12]


def _cookies(header: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in header.split(";"):
        name, sep, value = part.strip().partition("=")
        if sep:
            out.setdefault(name.strip(), value.strip())
    return out


REFUSAL = {
    "error": "unauthorized",
    "code": "token_required",
    "message": "carto serve answers its owner only: open the URL it printed (with ?token=), or "
               "send 'Authorization: Bearer <token>' (the token is in <home>/.carto/serve-token)",
}

#: What a browser asking for the page without the token is shown (the same words as REFUSAL, as
#: a page: a person who opened a bookmark of the bare address reads it, not a JSON document).
#: Static: it names no corpus data and no path of this machine.
REFUSAL_PAGE = b"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>carto explorer: the owner's token is needed</title></head>
<body>
<h1>carto explorer: the owner's token is needed</h1>
<p>carto serve answers its owner only. To open the explorer, open the URL <code>carto serve</code> printed
when it started (it ends in <code>?token=...</code>); this browser keeps the token in a cookie after
that.</p>
<p>A URL or a cookie that worked before no longer does when the token was replaced
(<code>carto serve --new-token</code>): open the URL printed since. The token is in
<code>&lt;home&gt;/.carto/serve-token</code>, readable by its owner alone.</p>
</body></html>
"""


class TokenGuard:
    """ASGI middleware: let through only requests that carry the token."""

    def __init__(self, app, token: str):
        self.app = app
        self.token = token.encode()
        self.cookie = cookie_name(token)

    def _matches(self, value: str | None) -> bool:
        return value is not None and hmac.compare_digest(value.encode("latin-1", "replace"),
                                                         self.token)

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers: dict[str, str] = {}
        for name, value in scope.get("headers", ()):
            headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                          keep_blank_values=True)
        from_query = next((v for k, v in query if k == QUERY_NAME), None)
        scheme, _, credentials = headers.get("authorization", "").partition(" ")
        held = (
            (scheme.lower() == "bearer" and self._matches(credentials.strip()))
            or self._matches(_cookies(headers.get("cookie", "")).get(self.cookie))
            or self._matches(from_query)
        )
        if not held:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            if scope.get("method") == "GET" and scope.get("path") == "/" \
                    and "text/html" in headers.get("accept", ""):
                await _answer(send, 401, REFUSAL_PAGE,
                              [(b"content-type", b"text/html; charset=utf-8"),
                               (b"www-authenticate", b'Bearer realm="carto serve"')])
                return
            await _answer(send, 401, json.dumps(REFUSAL).encode(),
                          [(b"content-type", b"application/json"),
                           (b"www-authenticate", b'Bearer realm="carto serve"')])
            return
        if from_query is not None and scope["type"] == "http" and scope.get("method") == "GET" \
                and scope.get("path") == "/":
            # The page: keep the token in a cookie and take it out of the address bar.
            rest = urlencode([(k, v) for k, v in query if k != QUERY_NAME])
            location = "/" + (f"?{rest}" if rest else "")
            cookie = (f"{self.cookie}={self.token.decode()}; Path=/; HttpOnly; "
                      "SameSite=Strict")
            await _answer(send, 303, b"", [(b"location", location.encode()),
                                           (b"set-cookie", cookie.encode()),
                                           (b"cache-control", b"no-store")])
            return
        await self.app(scope, receive, send)


async def _answer(send, status: int, body: bytes, headers: list) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
