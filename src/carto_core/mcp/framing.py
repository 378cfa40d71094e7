"""JSON-RPC 2.0 framing in front of the MCP SDK: every line from the client gets its answer.

The SDK's own stdio transport drops what it cannot validate (text that is not JSON, a
truncated line, a batch, a request without a method, a lone surrogate), and the client then
waits forever. `Framing` sits between the wire and the SDK and answers those itself, per the
JSON-RPC 2.0 specification:

- text that is not JSON: `-32700` Parse error, id null;
- a value that is not a Request object (not an object, `jsonrpc` not "2.0", `method` not a
  string, an id that is neither a string nor an integer, `params` neither an object nor an
  array, nesting deeper than `MAX_DEPTH`): `-32600` Invalid Request, with the id when it could
  be read (null otherwise); a notification gets no answer unless it is malformed beyond reading;
- params the MCP methods cannot take (an array, an object nested deeper than `MAX_DEPTH`):
  `-32602` Invalid params, with the id;
- unknown methods (`-32601`) and params a method rejects (`-32602`) are answered by the SDK;
- a batch (a non-empty array): every element is handled as above and the answers are sent as
  one array once every request in it is answered (notifications get none; a batch of only
  notifications gets nothing); an empty array is one `-32600`;
- a request other than `initialize` or `ping` before `initialize`: `-32602` saying the session
  is not initialized (the SDK's own answer names nothing);
- lone UTF-16 surrogates in any string but the id become U+FFFD before the SDK sees them; the
  id is answered as it was sent.

Requests of a batch reach the SDK under ids of the framing's own (`carto-batch-...`), so two
batches, or a batch and a lone request, can reuse an id without their answers mixing; the
answers carry the client's ids again.

Pure: no I/O. `carto_core.mcp.stdio` drives it over stdin/stdout.
"""

from __future__ import annotations

import itertools
import json
import os

from carto_core.logio.jsonl import scrub_surrogates

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

#: Deepest nesting accepted in a message (MCP's own documents are a few levels deep).
MAX_DEPTH = 64


def error(code: int, message: str, request_id=None, data=None) -> dict:
    body = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": body}


def _valid_id(value) -> bool:
    # MCP: a string or an integer, never null; JSON-RPC discourages fractions, MCP forbids them.
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def depth(value, limit: int = MAX_DEPTH) -> int:
    """How deep `value` nests (stops counting past `limit`), without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if level > deepest:
            deepest = level
            if deepest > limit:
                return deepest
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


class Batch:
    __slots__ = ("pending", "answers")

    def __init__(self):
        self.pending: dict[str, object] = {}  # framing id -> the client's id
        self.answers: list[dict] = []


class Framing:
    """State of one connection: the batches waiting for answers."""

    def __init__(self, require_initialize: bool = False):
        #: Answer a request that comes before `initialize` itself (the server's transport does).
        self._require_initialize = require_initialize
        self._batches: dict[str, Batch] = {}  # framing id -> its batch
        self._ids = (f"carto-batch-{os.getpid()}-{n}" for n in itertools.count(1))
        self._initialized = False

    # --- client -> server ----------------------------------------------------------------------

    def inbound(self, line: bytes | str) -> tuple[list[dict], list[object]]:
        """One line from the client: (messages for the SDK, answers to write back now)."""
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        if not text.strip(" \t\r\n"):  # JSON's whitespace only: any other byte is an answer
            return [], []
        try:
            value = json.loads(text)
        except RecursionError:
            return [], [error(INVALID_REQUEST, f"Invalid Request: nested deeper than this server "
                                               f"reads (at most {MAX_DEPTH} levels)")]
        except ValueError as exc:
            return [], [error(PARSE_ERROR, f"Parse error: {exc}")]
        if "\\u" in text:
            value = _keep_ids(value, scrub_surrogates(value))
        if isinstance(value, list):
            return self._batch(value)
        forward, answer = self._one(value)
        return ([forward] if forward is not None else []), ([answer] if answer is not None else [])

    def _batch(self, items: list) -> tuple[list[dict], list[object]]:
        if not items:
            return [], [error(INVALID_REQUEST, "Invalid Request: an empty batch")]
        batch = Batch()
        forwards: list[dict] = []
        for item in items:
            forward, answer = self._one(item)
            if answer is not None:
                batch.answers.append(answer)
            if forward is None:
                continue
            if "method" in forward and "id" in forward:  # a request: answered later, by the SDK
                own = next(self._ids)
                batch.pending[own] = forward["id"]
                self._batches[own] = batch
                forward = {**forward, "id": own}
            forwards.append(forward)
        if batch.pending:
            return forwards, []
        return forwards, ([batch.answers] if batch.answers else [])

    def _one(self, message) -> tuple[dict | None, dict | None]:
        """(what to forward, what to answer) for one message."""
        if not isinstance(message, dict):
            return None, error(INVALID_REQUEST, "Invalid Request: a message must be a JSON object")
        has_id = "id" in message
        request_id = message.get("id")
        answer_id = request_id if _valid_id(request_id) else None
        if message.get("jsonrpc") != "2.0":
            return None, error(INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"', answer_id)
        if "method" in message:
            if not isinstance(message["method"], str):
                return None, error(INVALID_REQUEST, 'Invalid Request: "method" must be a string', answer_id)
            if has_id and not _valid_id(request_id):
                return None, error(INVALID_REQUEST, 'Invalid Request: "id" must be a string or an '
                                                    "integer", None)
            params = message.get("params")
            if "params" in message and not isinstance(params, (dict, list)):
                return None, error(INVALID_REQUEST, 'Invalid Request: "params" must be an object or an '
                                                    "array", answer_id)
            if isinstance(params, list) or depth(params) > MAX_DEPTH:
                why = ("MCP methods take params by name (an object), not an array"
                       if isinstance(params, list) else f"params nest deeper than {MAX_DEPTH} levels")
                if not has_id:
                    return None, None  # a notification is never answered, even when wrong
                return None, error(INVALID_PARAMS, f"Invalid params: {why}", answer_id)
            if message["method"] == "initialize":
                self._initialized = True
            elif has_id and self._require_initialize and not self._initialized and message["method"] != "ping":
                # The SDK says only "Invalid request parameters" (data ""): say what is wrong.
                return None, error(INVALID_PARAMS, "Invalid request: the session is not initialized "
                                                   "(send initialize first)", answer_id)
            return message, None
        if "result" in message or "error" in message:
            # The client answering a request of ours: nothing is ever sent back for it.
            return (message if _valid_id(request_id) else None), None
        return None, error(INVALID_REQUEST, 'Invalid Request: no "method" (nor "result"/"error")', answer_id)

    # --- server -> client ----------------------------------------------------------------------

    def outbound(self, message: dict) -> list[object]:
        """One message from the SDK: what to write now (nothing while its batch waits)."""
        own = message.get("id")
        batch = self._batches.pop(own, None) if isinstance(own, str) else None
        if batch is None or not ("result" in message or "error" in message):
            if batch is not None:
                self._batches[own] = batch
            return [message]
        batch.answers.append({**message, "id": batch.pending.pop(own)})
        return [batch.answers] if not batch.pending else []

    def unanswered(self, own: str) -> list[object]:
        """The SDK settled a batched request without an answer (it was cancelled)."""
        batch = self._batches.pop(own, None)
        if batch is None:
            return []
        batch.pending.pop(own, None)
        if batch.pending:
            return []
        return [batch.answers] if batch.answers else []

    def framing_id(self, own) -> bool:
        return isinstance(own, str) and own in self._batches


def _keep_ids(original, scrubbed):
    """`scrubbed` with each message's id as the client sent it, lone surrogates and all: the
    answer must carry the very id for the client to match it."""
    if isinstance(original, dict) and isinstance(scrubbed, dict) and isinstance(original.get("id"), str):
        scrubbed["id"] = original["id"]
    elif isinstance(original, list) and isinstance(scrubbed, list):
        for before, after in zip(original, scrubbed):
            _keep_ids(before, after)
    return scrubbed


def encode(message: object) -> bytes:
    """One message (or batch answer) as a line of UTF-8, never failing on a lone surrogate: one
    in an id is written as the escape the client sent (`"s\\ud83d"`, in ASCII), any other
    becomes U+FFFD."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(_keep_ids(message, scrub_surrogates(message)), ensure_ascii=True,
                          separators=(",", ":")).encode("ascii") + b"\n"
