"""Scripted local mocks of the two model APIs the real clients call, served on 127.0.0.1 from a
thread of the test process (adapted from ../shared/realclients: same selection rule, same
streams).

- `AnthropicMock` answers Claude Code's `POST /v1/messages` (SSE and plain) and `count_tokens`.
  A *main* request (one that offers the Bash tool and is not a title/summary side call) gets the
  script's turn N, N = the number of `tool_result` blocks its messages already hold (clamped to the
  last turn); a side request gets a short text, and a sub-agent's request (its first message holds
  `SUBAGENT_MARKER`) a final text. A turn is a list of blocks:
  `{"type": "text", "text": ...}` or `{"type": "tool_use", "name": ..., "input": {...}}`.
- `OpenAIMock` answers Codex's `POST /v1/responses` (SSE). A request offering tools gets step N,
  N = the number of tool outputs its `input` holds (clamped); a step is `{"shell": command}`,
  `{"patch": text}` (through the `apply_patch` tool when offered, else a shell heredoc) or
  `{"text": final answer}`. A request without tools gets "ok".

`{REPO}` in a script is replaced by the session's repository. Every request is kept
(`requests`: method, path, kind, step and the full body) and appended to `<log>` as JSON lines:
the bodies are the clients' own request records, so the log lives in the run's temporary folder,
never in the repository.
"""

from __future__ import annotations

import gzip
import json
import threading
import time
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class MockServer:
    """A scripted HTTP mock in a daemon thread; use as a context manager."""

    def __init__(self, script: list, log: Path, repo: Path):
        self.script = json.loads(json.dumps(script).replace("{REPO}", str(repo)))
        self.log = Path(log)
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def record(self, entry: dict) -> None:
        entry["t"] = time.time()
        with self._lock:
            self.requests.append(entry)
            with self.log.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(entry) + "\n")

    def __enter__(self) -> "MockServer":
        mock = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # the request log is ours
                pass

            def body(self) -> dict:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                encoding = (self.headers.get("content-encoding") or "").lower()
                if encoding == "gzip":
                    raw = gzip.decompress(raw)
                elif encoding == "deflate":
                    raw = zlib.decompress(raw)
                try:
                    return json.loads(raw) if raw else {}
                except ValueError:
                    return {"_unparsed": raw[:2000].decode("utf-8", "replace")}

            def send_json(self, status: int, obj) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def send_sse(self, events: list[tuple[str, dict]]) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("connection", "close")
                self.end_headers()
                self.close_connection = True
                for name, data in events:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()

            def do_GET(self):
                mock.record({"method": "GET", "path": self.path})
                if self.path.split("?")[0].rstrip("/").endswith("/models"):
                    self.send_json(200, {"object": "list", "models": [], "data": [
                        {"id": "mock-model", "object": "model", "created": 0, "owned_by": "mock"}]})
                else:
                    self.send_json(200, {})

            def do_HEAD(self):
                mock.record({"method": "HEAD", "path": self.path})
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def do_POST(self):
                mock.answer(self, self.path.split("?")[0], self.body())

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def answer(self, handler, path: str, body: dict) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


# --- Anthropic Messages API (Claude Code) ------------------------------------------------------


def _text_of(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_text_of(v.get("text", "") if isinstance(v, dict) else v) for v in value)
    return ""


#: A task prompt holding this word marks a sub-agent's requests (they get a final text at once).
SUBAGENT_MARKER = "SUBAGENT-TASK"


class AnthropicMock(MockServer):
    def answer(self, handler, path: str, body: dict) -> None:
        if path.endswith("/v1/messages/count_tokens"):
            self.record({"method": "POST", "path": path, "kind": "count_tokens"})
            handler.send_json(200, {"input_tokens": 100})
            return
        if not path.endswith("/v1/messages"):
            self.record({"method": "POST", "path": path, "kind": "unknown"})
            handler.send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "mock"}})
            return
        tools = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
        system = _text_of(body.get("system")).lower()[:400]
        side = ("Bash" not in tools or (body.get("max_tokens") or 99999) <= 512
                or "title" in system or "summar" in system)
        messages = body.get("messages") or []
        results = sum(1 for m in messages if isinstance(m.get("content"), list)
                      for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result")
        first = _text_of(messages[0].get("content")) if messages else ""
        if SUBAGENT_MARKER in first:
            # A sub-agent's own conversation (its task prompt carries the marker): it answers
            # at once, so the parent's script goes on.
            blocks = [{"type": "text", "text": "Sub-agent done."}]
            self.record({"method": "POST", "path": path, "kind": "subagent", "reply": blocks, "body": body})
            self._reply(handler, body, blocks)
            return
        if side:
            step, blocks = None, [{"type": "text", "text": "Scripted session"}]
        else:
            step = min(results, len(self.script) - 1)
            blocks = self.script[step]
        self.record({"method": "POST", "path": path, "kind": "side" if side else "main", "step": step,
                     "tool_results": results, "reply": blocks, "body": body})
        self._reply(handler, body, blocks)

    def _reply(self, handler, body: dict, blocks: list) -> None:
        content = []
        for index, block in enumerate(blocks):
            if block["type"] == "tool_use":
                content.append({"type": "tool_use", "id": f"toolu_mock{uuid.uuid4().hex[:16]}{index}",
                                "name": block["name"], "input": block["input"]})
            else:
                content.append({"type": "text", "text": block["text"]})
        stop = "tool_use" if any(b["type"] == "tool_use" for b in content) else "end_turn"
        message_id = "msg_mock" + uuid.uuid4().hex[:20]
        model = body.get("model") or "claude-mock"
        usage = {"input_tokens": 100, "output_tokens": 12, "cache_creation_input_tokens": 0,
                 "cache_read_input_tokens": 0}
        if not body.get("stream"):
            handler.send_json(200, {"id": message_id, "type": "message", "role": "assistant", "model": model,
                                    "content": content, "stop_reason": stop, "stop_sequence": None,
                                    "usage": usage})
            return
        events = [("message_start", {"type": "message_start", "message": {
            "id": message_id, "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": dict(usage, output_tokens=1)}})]
        for index, block in enumerate(content):
            if block["type"] == "text":
                start = {"type": "text", "text": ""}
                deltas = [{"type": "text_delta", "text": block["text"][i:i + 24]}
                          for i in range(0, len(block["text"]), 24)]
            else:
                start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
                raw = json.dumps(block["input"])
                deltas = [{"type": "input_json_delta", "partial_json": raw[i:i + 40]}
                          for i in range(0, len(raw), 40)]
            events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                   "content_block": start}))
            events += [("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d})
                       for d in deltas]
            events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        events.append(("message_delta", {"type": "message_delta",
                                         "delta": {"stop_reason": stop, "stop_sequence": None},
                                         "usage": {"output_tokens": 12}}))
        events.append(("message_stop", {"type": "message_stop"}))
        handler.send_sse(events)


# --- OpenAI Responses API (Codex) --------------------------------------------------------------

OUTPUT_TYPES = ("function_call_output", "custom_tool_call_output", "local_shell_call_output")


class OpenAIMock(MockServer):
    def answer(self, handler, path: str, body: dict) -> None:
        if not path.endswith("/responses"):
            self.record({"method": "POST", "path": path, "kind": "unknown"})
            handler.send_json(404, {"error": {"message": "mock only speaks the Responses API"}})
            return
        tools = {}
        for tool in body.get("tools") or []:
            if isinstance(tool, dict):
                name = tool.get("name") or (tool.get("function") or {}).get("name")
                if name:
                    tools[name] = tool.get("type")
        outputs = sum(1 for item in body.get("input") or []
                      if isinstance(item, dict) and item.get("type") in OUTPUT_TYPES)
        call_id = f"call_{outputs}_{uuid.uuid4().hex[:8]}"
        if not tools:
            step, item = None, self._message("ok")
        else:
            step = min(outputs, len(self.script) - 1)
            item = self._item(self.script[step], tools, call_id)
        self.record({"method": "POST", "path": path, "kind": "main" if tools else "aux", "step": step,
                     "tool_outputs": outputs, "tools": tools, "reply": item, "body": body})
        response = {"id": "resp_" + uuid.uuid4().hex[:12], "object": "response",
                    "created_at": int(time.time()), "status": "in_progress",
                    "model": body.get("model", "mock-model"), "output": []}
        events = [{"type": "response.created", "response": response}]
        added = {**item, "status": "in_progress", "content": []} if item["type"] == "message" else item
        events.append({"type": "response.output_item.added", "output_index": 0, "item": added})
        if item["type"] == "message":
            text = item["content"][0]["text"]
            common = {"item_id": item["id"], "output_index": 0, "content_index": 0}
            events.append({"type": "response.content_part.added", **common,
                           "part": {"type": "output_text", "text": "", "annotations": []}})
            for piece in (text[: len(text) // 2], text[len(text) // 2:]):
                events.append({"type": "response.output_text.delta", **common, "delta": piece})
            events.append({"type": "response.output_text.done", **common, "text": text})
        events.append({"type": "response.output_item.done", "output_index": 0, "item": item})
        events.append({"type": "response.completed", "response": {
            **response, "status": "completed", "output": [item],
            "usage": {"input_tokens": 100, "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens": 20, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": 120}}})
        handler.send_sse([(e["type"], {**e, "sequence_number": n}) for n, e in enumerate(events)])

    @staticmethod
    def _message(text: str) -> dict:
        return {"type": "message", "id": "msg_" + uuid.uuid4().hex[:8], "status": "completed",
                "role": "assistant", "content": [{"type": "output_text", "text": text, "annotations": []}]}

    def _item(self, step: dict, tools: dict, call_id: str) -> dict:
        if "text" in step:
            return self._message(step["text"])
        if "patch" in step and tools.get("apply_patch") == "custom":
            return {"type": "custom_tool_call", "id": "ctc_" + call_id, "status": "completed",
                    "name": "apply_patch", "input": step["patch"], "call_id": call_id}
        if "patch" in step and tools.get("apply_patch") == "function":
            return {"type": "function_call", "id": "fc_" + call_id, "status": "completed",
                    "name": "apply_patch", "arguments": json.dumps({"input": step["patch"]}),
                    "call_id": call_id}
        command = step.get("shell") or f"apply_patch <<'EOF'\n{step['patch']}EOF\n"
        if "exec_command" in tools:
            name, args = "exec_command", {"cmd": command, "yield_time_ms": 10000}
        elif "shell_command" in tools:
            name, args = "shell_command", {"command": command}
        else:
            name, args = "shell", {"command": ["bash", "-lc", command]}
        return {"type": "function_call", "id": "fc_" + call_id, "status": "completed", "name": name,
                "arguments": json.dumps(args), "call_id": call_id}
