"""`GET /api/transcript/analysis`: what a transcript holds, turn by turn: who wrote each line
(the human, the model, a tool, a hook, the harness), where the context was compacted, which
tools were called, and where the tokens went.

The file is found and confined exactly as `GET /api/transcript` finds it (`transcript.locate`).
Turns start where the adapters start them: a Claude line `transcript_lines.is_human_prompt`
accepts, a Codex `user_message` event. Context a hook added (Claude's `hook_additional_context`
attachments; in a Codex rollout a message that starts with prompt recall's header) is its own
category, `injected`, and `carto recall` when it is carto's prompt-time recall: it was never
the user's words. A UserPromptSubmit hook's context is written before the prompt's line and
belongs to the turn that prompt starts.

Two token figures, never mixed: `reported` is what the model API billed (Claude's
`message.usage`, once per message id however many streamed lines repeat it; Codex's
`token_count.last_token_usage`; both read by `carto_core.transcript.usage`, as the transcript
readers read them for the turn rows' `tokens`), `estimated` is characters / 4 per category, which is the only
way to attribute tokens to a tool result or an injected context (the API bills a request, not
its parts).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

from carto_core.recall.snippet import HEADER as RECALL_HEADER
from carto_core.serve.spec import ApiError
from carto_core.serve.transcript import locate, open_transcript, provider_of
from carto_core.transcript.lines import content_texts, is_human_prompt, is_scaffolding
from carto_core.transcript.resolver import TranscriptRoots
from carto_core.transcript.usage import USAGE_KEYS, claude_usage, codex_usage

#: Categories in display order.
CATEGORIES = ("prompt", "assistant", "thinking", "tool_call", "tool_result", "injected",
              "compact_summary", "meta", "harness")
#: A transcript larger than this is refused (413): the analysis reads the whole file.
ANALYSIS_BYTES_MAX = 256 << 20
PROMPT_CHARS = 300
INJECTED_PREVIEW = 600
CHARS_PER_TOKEN = 4


def estimate(chars: int) -> int:
    return (chars + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def _injected_kind(text: str) -> str:
    return "carto_recall" if text.lstrip().startswith(RECALL_HEADER) else "hook_context"


class _Analysis:
    def __init__(self):
        self.categories = {name: {"messages": 0, "chars": 0} for name in CATEGORIES}
        self.turns: list[dict] = []
        self.compactions: list[dict] = []
        self.tools: dict[str, dict] = {}
        self.tool_names: dict[str, str] = {}
        self.injected: list[dict] = []
        self.pending: list[dict] = []
        self.reported = dict.fromkeys(USAGE_KEYS, 0)
        self.usage_by_message: dict[str, tuple[int | None, dict]] = {}
        self.lines = 0
        self.unreadable = 0
        self.preamble = self._new_turn(None, "", 0)

    # -- building ------------------------------------------------------------------------

    @staticmethod
    def _new_turn(timestamp, prompt: str, index: int) -> dict:
        return {"index": index, "timestamp": timestamp, "prompt": prompt[:PROMPT_CHARS],
                "prompt_truncated": len(prompt) > PROMPT_CHARS, "messages": 0,
                "tool_calls": 0, "failed": 0, "tools": Counter(),
                "reported_tokens": dict.fromkeys(USAGE_KEYS, 0),
                "chars": dict.fromkeys(CATEGORIES, 0), "injected": [], "compacted": 0}

    @property
    def turn(self) -> dict:
        return self.turns[-1] if self.turns else self.preamble

    def start_turn(self, timestamp, prompt: str) -> None:
        self.turns.append(self._new_turn(timestamp, prompt, len(self.turns)))
        self.flush_pending()

    def count(self, category: str, chars: int, *, message: bool = True) -> None:
        entry = self.categories[category]
        entry["chars"] += chars
        turn = self.turn
        turn["chars"][category] += chars
        if message:
            entry["messages"] += 1
            turn["messages"] += 1

    def tool_call(self, call_id: object, name: str, chars: int) -> None:
        name = name or "?"
        if isinstance(call_id, str):
            self.tool_names[call_id] = name
        tool = self.tools.setdefault(name, {"name": name, "calls": 0, "failed": 0,
                                            "input_chars": 0, "result_chars": 0})
        tool["calls"] += 1
        tool["input_chars"] += chars
        self.turn["tool_calls"] += 1
        self.turn["tools"][name] += 1
        self.count("tool_call", chars, message=False)

    def tool_result(self, call_id: object, chars: int, failed: bool) -> None:
        name = self.tool_names.get(call_id, "?") if isinstance(call_id, str) else "?"
        tool = self.tools.setdefault(name, {"name": name, "calls": 0, "failed": 0,
                                            "input_chars": 0, "result_chars": 0})
        tool["result_chars"] += chars
        if failed:
            tool["failed"] += 1
            self.turn["failed"] += 1
        self.count("tool_result", chars, message=False)

    def inject(self, timestamp, text: str, hook: str, event: str) -> None:
        item = {"timestamp": timestamp, "kind": _injected_kind(text), "hook": hook,
                "event": event, "chars": len(text), "text": text[:INJECTED_PREVIEW],
                "truncated": len(text) > INJECTED_PREVIEW, "turn": None}
        self.injected.append(item)
        if event == "UserPromptSubmit":
            # Written before the prompt's own line: it belongs to the turn that prompt starts.
            self.pending.append(item)
        else:
            self._attach(item)

    def _attach(self, item: dict) -> None:
        item["turn"] = len(self.turns) - 1 if self.turns else None
        self.turn["injected"].append(item)
        self.count("injected", item["chars"])

    def flush_pending(self) -> None:
        for item in self.pending:
            self._attach(item)
        self.pending = []

    def compaction(self, timestamp, trigger, pre_tokens, post_tokens) -> None:
        self.compactions.append({
            "timestamp": timestamp, "trigger": trigger if isinstance(trigger, str) else "",
            "pre_tokens": pre_tokens if isinstance(pre_tokens, int) else None,
            "post_tokens": post_tokens if isinstance(post_tokens, int) else None,
            "turn": len(self.turns) - 1 if self.turns else None, "summary_chars": 0})
        self.turn["compacted"] += 1

    def usage(self, key: str | None, usage: dict) -> None:
        """Reported tokens; a Claude message id's usage is counted once (its last copy)."""
        if key is not None:
            previous = self.usage_by_message.get(key)
            if previous is not None:
                turn_index, old = previous
                turn = self.turns[turn_index] if turn_index is not None else self.preamble
                for name in USAGE_KEYS:
                    self.reported[name] -= old[name]
                    turn["reported_tokens"][name] -= old[name]
            self.usage_by_message[key] = (len(self.turns) - 1 if self.turns else None, usage)
        for name in USAGE_KEYS:
            self.reported[name] += usage[name]
            self.turn["reported_tokens"][name] += usage[name]

    # -- the answer ----------------------------------------------------------------------

    def document(self, offset: int, limit: int) -> dict:
        self.flush_pending()
        def turn_out(turn: dict) -> dict:
            out = dict(turn)
            out["tools"] = dict(turn["tools"].most_common())
            out["estimated_tokens"] = {k: estimate(v) for k, v in turn["chars"].items() if v}
            out["chars"] = {k: v for k, v in turn["chars"].items() if v}
            return out

        categories = {name: {**entry, "estimated_tokens": estimate(entry["chars"])}
                      for name, entry in self.categories.items()}
        tools = sorted(({**t, "estimated_tokens": estimate(t["input_chars"] + t["result_chars"])}
                        for t in self.tools.values()),
                       key=lambda t: (-t["estimated_tokens"], t["name"]))
        estimated_total = sum(c["estimated_tokens"] for c in categories.values())
        preamble = self.preamble
        has_preamble = preamble["messages"] or any(preamble["chars"].values())
        injected_chars = sum(i["chars"] for i in self.injected)
        return {
            "lines": self.lines,
            "unreadable_lines": self.unreadable,
            "turns_total": len(self.turns),
            "offset": offset,
            "limit": limit,
            "turns": [turn_out(t) for t in self.turns[offset: offset + limit]],
            "preamble": turn_out(preamble) if has_preamble else None,
            "compactions": self.compactions,
            "categories": categories,
            "tools": tools,
            "injected": {
                "count": len(self.injected), "chars": injected_chars,
                "estimated_tokens": estimate(injected_chars),
                "carto_recall": sum(1 for i in self.injected if i["kind"] == "carto_recall"),
                "by_hook": dict(Counter(i["hook"] or "?" for i in self.injected).most_common()),
                "items": self.injected[:200],
            },
            "tokens": {
                "reported": dict(self.reported),
                "estimated": estimated_total,
                "estimate_rule": f"characters / {CHARS_PER_TOKEN}",
                "shares": {name: round(c["estimated_tokens"] / estimated_total, 4)
                           for name, c in categories.items()
                           if estimated_total and c["estimated_tokens"]},
            },
        }


def _text(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_text(v) for v in value if _text(v))
    if isinstance(value, dict):
        return _text(value.get("text") if "text" in value else value.get("content"))
    return ""


# --------------------------------------------------------------------------- Claude


def _claude_line(a: _Analysis, row: dict) -> None:
    kind = row.get("type")
    ts = row.get("timestamp") if isinstance(row.get("timestamp"), str) else None
    message = row.get("message") if isinstance(row.get("message"), dict) else {}
    if kind == "user":
        content = message.get("content")
        if row.get("isCompactSummary"):
            text = _text(content)
            a.count("compact_summary", len(text))
            if a.compactions:
                a.compactions[-1]["summary_chars"] += len(text)
            return
        if row.get("isMeta"):
            a.count("meta", len(_text(content)))
            return
        if is_human_prompt(row):
            texts, _, _ = content_texts(content)
            prompt = "\n".join(t for t in texts if t.strip() and not is_scaffolding(t))
            a.start_turn(ts, prompt)
            a.count("prompt", len(prompt))
            return
        blocks = content if isinstance(content, list) else [content]
        for block in blocks:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                a.tool_result(block.get("tool_use_id"), len(_text(block.get("content"))),
                              bool(block.get("is_error")))
            else:
                text = _text(block)
                if text:
                    a.count("harness", len(text))
        return
    if kind == "assistant":
        blocks = message.get("content")
        wrote = False
        for block in blocks if isinstance(blocks, list) else [blocks]:
            if isinstance(block, str):
                block = {"type": "text", "text": block}
            if not isinstance(block, dict):
                continue
            btype = block.get("type")
            if btype == "text":
                a.count("assistant", len(_text(block)), message=not wrote)
                wrote = True
            elif btype in ("thinking", "redacted_thinking"):
                a.count("thinking", len(block.get("thinking") or "") if isinstance(
                    block.get("thinking"), str) else 0, message=False)
            elif btype in ("tool_use", "server_tool_use"):
                arguments = json.dumps(block.get("input"), ensure_ascii=False, default=str)
                a.tool_call(block.get("id"), str(block.get("name") or "?"), len(arguments))
        usage = claude_usage(message)
        if usage is not None:
            a.usage(message.get("id") if isinstance(message.get("id"), str) else None, usage)
        return
    if kind == "system":
        if row.get("subtype") == "compact_boundary":
            meta = row.get("compactMetadata") if isinstance(row.get("compactMetadata"), dict) else {}
            a.compaction(ts, meta.get("trigger"), meta.get("preTokens"), meta.get("postTokens"))
        else:
            a.count("harness", len(_text(row.get("content"))))
        return
    if kind == "attachment":
        attachment = row.get("attachment") if isinstance(row.get("attachment"), dict) else {}
        text = _text(attachment.get("content"))
        if attachment.get("type") == "hook_additional_context":
            a.inject(ts, text, str(attachment.get("hookName") or ""),
                     str(attachment.get("hookEvent") or ""))
        elif text:
            a.count("harness", len(text))


# --------------------------------------------------------------------------- Codex

CODEX_CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call", "web_search_call",
                         "tool_search_call", "image_generation_call"})
CODEX_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output", "tool_search_output"})


def _codex_line(a: _Analysis, row: dict, seen_prompts: set) -> None:
    kind = row.get("type")
    ts = row.get("timestamp") if isinstance(row.get("timestamp"), str) else None
    payload = row.get("payload") if isinstance(row.get("payload"), dict) else {}
    ptype = payload.get("type")
    if kind == "compacted":
        a.compaction(ts, "auto", None, None)
        a.count("compact_summary", len(_text(payload.get("message"))))
        if a.compactions:
            a.compactions[-1]["summary_chars"] += len(_text(payload.get("message")))
        return
    if kind == "event_msg":
        if ptype == "user_message":
            text = _text(payload.get("message"))
            a.start_turn(ts, text)
            a.count("prompt", len(text))
            seen_prompts.add(text.strip())
        elif ptype == "token_count":
            usage = codex_usage(payload)
            if usage is not None:
                a.usage(None, usage)
        elif ptype == "context_compacted" and not (a.compactions and a.compactions[-1]["timestamp"] == ts):
            a.compaction(ts, "auto", None, None)
        return
    if kind != "response_item":
        return
    if ptype == "message":
        text = _text(payload.get("content"))
        role = payload.get("role")
        if role == "assistant":
            a.count("assistant", len(text))
        elif text.lstrip().startswith(RECALL_HEADER):
            a.inject(ts, text, "", "UserPromptSubmit")
        elif role == "user" and text.strip() in seen_prompts:
            seen_prompts.discard(text.strip())  # the prompt's own copy, counted once
        elif text:
            a.count("harness", len(text))
    elif ptype == "reasoning":
        a.count("thinking", len(_text(payload.get("summary"))), message=False)
    elif ptype in CODEX_CALLS:
        arguments = payload.get("arguments", payload.get("input", payload.get("action")))
        chars = len(arguments if isinstance(arguments, str) else json.dumps(arguments, default=str))
        a.tool_call(payload.get("call_id"), str(payload.get("name") or ptype), chars)
    elif ptype in CODEX_OUTPUTS:
        output = payload.get("output")
        text = _text(output) if not isinstance(output, dict) else _text(output.get("content"))
        failed = isinstance(output, dict) and output.get("success") is False
        a.tool_result(payload.get("call_id"), len(text), failed)


# --------------------------------------------------------------------------- the route


def analyze_file(path: Path, provider: str, *, offset: int = 0, limit: int = 500) -> dict:
    a = _Analysis()
    seen_prompts: set[str] = set()
    with open_transcript(path) as handle:
        for raw in handle:
            if not raw.strip():
                continue
            a.lines += 1
            try:
                row = json.loads(raw)
            except ValueError:
                a.unreadable += 1
                continue
            if not isinstance(row, dict):
                a.unreadable += 1
                continue
            if provider == "codex" or row.get("type") in ("session_meta", "response_item",
                                                          "event_msg", "turn_context"):
                _codex_line(a, row, seen_prompts)
            else:
                _claude_line(a, row)
    return a.document(offset, limit)


def analysis_answer(path: str | None, session_id: str | None, roots: TranscriptRoots,
                    offset: int, limit: int) -> dict:
    found, status = locate(path, session_id, roots)
    size = os.path.getsize(found)
    if size == 0:
        raise ApiError(404, "TRANSCRIPT_EMPTY", "the transcript is empty")
    if size > ANALYSIS_BYTES_MAX:
        raise ApiError(413, "TRANSCRIPT_TOO_LARGE",
                       f"the transcript is {size} bytes; the analysis reads at most {ANALYSIS_BYTES_MAX}")
    provider = provider_of(found, roots)
    document = analyze_file(found, provider, offset=offset, limit=limit)
    if document["lines"] == document["unreadable_lines"]:
        raise ApiError(422, "TRANSCRIPT_NO_MESSAGES", "the transcript holds no readable lines")
    return {"path": str(found), "path_status": status, "provider": provider, **document}
