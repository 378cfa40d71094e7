"""Facts contract v1: request bounds, the 400/409 split, and the delta cursor.

Wire-compatible with upstream Session Cartographer's `POST /api/facts` (reference section 4):
the same fields, bounds and rejection wording, so a client written against upstream gets the
same answers and the same refusals here. Every rejection is a `FactsError` carrying the HTTP
status it would have (400: the caller asked wrongly; 409: the request or cursor describes
another corpus or contract version) and the matching `ExitCode` (2 and 4) for the CLI.

The cursor is base64url (no padding) of compact JSON
`{"v":1,"corpus":<root>,"pos":{<source>:{"offset":<int>,"boundary":<sha1 hex or "">}}}`.
It is opaque to callers; a cursor that does not decode, or whose positions are malformed, is
refused (400), never read as "start from now".
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime

from carto_core.util.exitcodes import ExitCode

CONTRACT_VERSION = 1

# Upstream's bounds (FACTS.md "Bounds"), and the lengths of the string fields.
CALL_ID_MAX = 160
PROJECT_MAX = 2048
WINDOW_MAX = 128
CORPUS_ROOT_MAX = 4096
CURSOR_MAX = 65536
PURPOSE_MAX = 64
TOP_DEFAULT, TOP_MIN, TOP_MAX = 20, 1, 200
SAMPLE_DEFAULT, SAMPLE_MIN, SAMPLE_MAX = 3, 0, 10
BUDGET_DEFAULT, BUDGET_MIN, BUDGET_MAX = 200, 1, 2000

_PURPOSE = re.compile(r"^[A-Za-z0-9_-]+$")
_HEX40 = re.compile(r"^[0-9a-f]{40}$")

_STRING_LIMITS = {
    "verb": None,
    "call_id": CALL_ID_MAX,
    "project": PROJECT_MAX,
    "since": WINDOW_MAX,
    "before": WINDOW_MAX,
    "purpose": PURPOSE_MAX,
    "corpus_root": CORPUS_ROOT_MAX,
    "cursor": CURSOR_MAX,
}
_INT_BOUNDS = {
    "top": (TOP_DEFAULT, TOP_MIN, TOP_MAX),
    "sample": (SAMPLE_DEFAULT, SAMPLE_MIN, SAMPLE_MAX),
    "budget": (BUDGET_DEFAULT, BUDGET_MIN, BUDGET_MAX),
}


class FactsError(ValueError):
    """A refused facts request. `status` is 400 or 409; `exit_code` is what the CLI exits with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.CONFLICT if self.status == 409 else ExitCode.USAGE

    def as_dict(self) -> dict:
        return {"error": self.message, "status": self.status}


#: Verbs that read a cursor: delta, and pulse (whose feed is a delta).
CURSOR_VERBS = frozenset({"delta", "pulse"})


@dataclass
class FactsRequest:
    """A validated request. `since_at`/`before_at` are the resolved window bounds."""

    verb: str
    call_id: str
    project: str = ""
    since: str = ""
    before: str = ""
    top: int = TOP_DEFAULT
    sample: int = SAMPLE_DEFAULT
    budget: int = BUDGET_DEFAULT
    purpose: str = "facts"
    corpus_root: str = ""
    cursor: str = ""
    contract_version: int = CONTRACT_VERSION
    since_at: datetime | None = None
    before_at: datetime | None = None
    #: Anything the engine passes down to verbs (home, now); not part of the wire contract.
    context: dict = field(default_factory=dict, repr=False)

    @property
    def windowed(self) -> bool:
        return self.since_at is not None or self.before_at is not None


def _render(value: object) -> str:
    """A value as upstream's messages show it (JSON-ish: null, true, numbers, strings bare)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def normalize_request(raw: object, verbs: list[str], *, now: datetime | None = None) -> FactsRequest:
    """Validate a request body against contract v1 and the installed verbs.

    Raises FactsError with upstream's wording. The order of checks follows upstream's so that a
    request with several faults is refused for the same one.
    """
    from carto_core.util.timeparse import WhenError, parse_when

    if not isinstance(raw, dict):
        raise FactsError("request body must be an object")
    version = raw.get("contract_version")
    if isinstance(version, bool) or version != CONTRACT_VERSION:
        raise FactsError(f"unsupported contract_version {_render(version)}", 409)
    values: dict[str, object] = {}
    for name, limit in _STRING_LIMITS.items():
        value = raw.get(name)
        if value is None:
            values[name] = ""
            continue
        if not isinstance(value, str):
            raise FactsError(f"{name} must be a string")
        if limit is not None and len(value) > limit:
            raise FactsError(f"{name} is too long")
        values[name] = value.strip() if name not in ("cursor",) else value
    if not values["verb"]:
        raise FactsError(f"no verb given; supported verbs: {', '.join(sorted(verbs))}")
    if not values["call_id"]:
        raise FactsError("call_id must not be empty")
    verb = str(values["verb"])
    if verb not in verbs:
        raise FactsError(
            f"unsupported verb '{verb}'; supported verbs: {', '.join(sorted(verbs))}"
        )
    ints: dict[str, int] = {}
    for name, (default, low, high) in _INT_BOUNDS.items():
        value = raw.get(name)
        if value is None:
            ints[name] = default
            continue
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise FactsError(f"{name} must be an integer from {low} to {high}")
        ints[name] = value
    purpose = str(values["purpose"]) or "facts"
    if not _PURPOSE.match(purpose):
        raise FactsError("purpose contains unsupported characters")
    if verb == "delta" and (values["since"] or values["before"]):
        raise FactsError("delta is bounded by cursor, not by since/before; omit the time window")
    if verb not in CURSOR_VERBS and values["cursor"]:
        raise FactsError(f"cursor is only meaningful for delta, not {verb}")
    bounds: dict[str, datetime | None] = {}
    for name in ("since", "before"):
        text = str(values[name])
        if not text:
            bounds[name] = None
            continue
        try:
            bounds[name] = parse_when(text, now=now)
        except WhenError:
            raise FactsError(f"cannot parse {name} value '{text}'") from None
    return FactsRequest(
        verb=verb,
        call_id=str(values["call_id"]),
        project=str(values["project"]),
        since=str(values["since"]),
        before=str(values["before"]),
        top=ints["top"],
        sample=ints["sample"],
        budget=ints["budget"],
        purpose=purpose,
        corpus_root=str(values["corpus_root"]),
        cursor=str(values["cursor"]),
        since_at=bounds["since"],
        before_at=bounds["before"],
    )


# ---------------------------------------------------------------------------------------------
# The cursor


@dataclass(frozen=True)
class Position:
    """Where a reader stands in one log: a byte offset after a complete line, and the SHA-1 of
    up to 4096 bytes before it ("" at offset 0, where there is nothing to fingerprint)."""

    offset: int
    boundary: str


def same_corpus(a: str, b: str) -> bool:
    """Two corpus roots name the same folder (as written, or after resolving links)."""
    if a == b:
        return True
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def encode_cursor(corpus_root: str, positions: dict[str, Position]) -> str:
    document = {
        "v": CONTRACT_VERSION,
        "corpus": corpus_root,
        "pos": {source: {"offset": p.offset, "boundary": p.boundary} for source, p in positions.items()},
    }
    raw = json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


_INVALID = "cursor is not a valid facts cursor; pass a cursor returned by delta, or none for a new baseline"


def decode_cursor(token: str, corpus_root: str, known_sources) -> dict[str, Position]:
    """Positions from a cursor issued for `corpus_root`. Raises FactsError (400 malformed,
    409 another corpus or contract version)."""
    if not isinstance(token, str) or not token or len(token) > CURSOR_MAX:
        raise FactsError(_INVALID)
    text = token.strip()
    if not re.fullmatch(r"[A-Za-z0-9_-]+=*", text):
        raise FactsError(_INVALID)
    try:
        raw = base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
        document = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise FactsError(_INVALID) from None
    if not isinstance(document, dict):
        raise FactsError(_INVALID)
    version = document.get("v")
    if isinstance(version, bool) or version != CONTRACT_VERSION:
        raise FactsError(f"cursor contract_version {_render(version)} is not supported", 409)
    corpus = document.get("corpus")
    if corpus not in (None, "") and (not isinstance(corpus, str) or not same_corpus(corpus, corpus_root)):
        raise FactsError(f"cursor was issued for {corpus}, but this service indexes {corpus_root}", 409)
    pos = document.get("pos")
    if not isinstance(pos, dict):
        raise FactsError("cursor has no log positions")
    out: dict[str, Position] = {}
    for source, entry in pos.items():
        if source not in known_sources:
            raise FactsError(f"cursor names an unknown log '{source}'")
        if not isinstance(entry, dict):
            raise FactsError(f"cursor position for {source} is malformed")
        offset, boundary = entry.get("offset"), entry.get("boundary", "")
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise FactsError(f"cursor position for {source} is malformed")
        if not isinstance(boundary, str) or not (boundary == "" or _HEX40.match(boundary)):
            raise FactsError(f"cursor position for {source} is malformed")
        out[source] = Position(offset, boundary)
    return out
