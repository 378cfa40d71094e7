"""Signed page cursors for `carto mcp`.

A cursor is `<payload>.<tag>`: the payload is base64url(compact JSON), the tag an HMAC-SHA256
of it under a key kept in the home (`<home>/.carto/mcp-cursor.key`, created 0600 on first use).
The payload says which tool, which arguments and which offset, so a page can be replayed after
the server restarted; the tag makes an edited or forged cursor a structured error instead of a
silently different answer. The key lives in the home (not in the process) so cursors survive a
restart of the server, and a cursor minted for another home does not verify here.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from carto_core.util.privatefiles import make_dir, open_fd

VERSION = 1
_DOMAIN = b"carto-mcp-cursor/1|"
_TAG_BYTES = 16  # 128-bit tag: forging one by trial is out of reach, the cursor stays short.
MAX_CURSOR_CHARS = 16384


class CursorError(ValueError):
    """A cursor that is malformed, tampered with, minted elsewhere or for another tool."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def load_key(state_dir: Path) -> bytes:
    """The cursor key of a home, created on first use; a per-process key if the home is read-only
    or does not exist.

    A read-only home still pages (within one server's lifetime); its cursors just do not survive
    a restart.
    """
    path = Path(state_dir) / "mcp-cursor.key"
    try:
        text = path.read_text(encoding="ascii").strip()
        if len(text) >= 32:
            return bytes.fromhex(text)
    except (OSError, ValueError):
        pass
    key = secrets.token_bytes(32)
    try:
        # Not parents=True: a home that does not exist yet is not made here (no accidental homes);
        # the key is then per-process, as for a read-only home.
        try:
            make_dir(path.parent)
        except FileExistsError:
            pass
        fd = open_fd(path, os.O_WRONLY | os.O_EXCL)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(key.hex() + "\n")
    except FileExistsError:
        # Another server created it between our read and our create: use theirs.
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except OSError:
        pass
    return key


class CursorCodec:
    """Encode and verify cursors under one key."""

    def __init__(self, key: bytes):
        if len(key) < 16:
            raise ValueError("cursor key too short")
        self._key = key

    def _tag(self, body: str) -> str:
        digest = hmac.new(self._key, _DOMAIN + body.encode("ascii"), hashlib.sha256).digest()
        return _b64(digest[:_TAG_BYTES])

    def encode(self, payload: dict) -> str:
        body = _b64(json.dumps({"v": VERSION, **payload}, separators=(",", ":"),
                               sort_keys=True).encode("utf-8"))
        return f"{body}.{self._tag(body)}"

    def decode(self, cursor: object, *, tool: str | None = None) -> dict:
        """The payload of a cursor this codec minted; `CursorError` for anything else."""
        if not isinstance(cursor, str) or not cursor:
            raise CursorError("cursor must be a non-empty string from a previous answer")
        if len(cursor) > MAX_CURSOR_CHARS:
            raise CursorError(f"cursor is longer than {MAX_CURSOR_CHARS} characters")
        body, dot, tag = cursor.partition(".")
        if not dot or not body or not tag:
            raise CursorError("cursor is malformed (expected <payload>.<tag>)")
        if not hmac.compare_digest(self._tag(body), tag):
            raise CursorError("cursor failed verification: it was altered, or minted by another "
                              "carto home; start again without a cursor")
        try:
            payload = json.loads(_unb64(body))
        except (ValueError, UnicodeDecodeError) as exc:  # pragma: no cover - tag already verified
            raise CursorError(f"cursor payload unreadable: {exc}") from None
        if not isinstance(payload, dict) or payload.get("v") != VERSION:
            raise CursorError("cursor has an unknown version; start again without a cursor")
        if tool is not None and payload.get("t") != tool:
            raise CursorError(f"cursor belongs to tool {payload.get('t')!r}, not {tool!r}")
        return payload
