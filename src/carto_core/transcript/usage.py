"""Tokens the model API reported, as the transcripts record them: one shape for both clients.

- Claude Code: an assistant line's `message.usage` (`input_tokens`, `output_tokens`,
  `cache_read_input_tokens`, `cache_creation_input_tokens`). A message streamed over several
  lines repeats its id and usage on each: count a message id once, its last copy.
- Codex: `event_msg/token_count` with `info.last_token_usage` (the request just answered);
  `input_tokens` includes `cached_input_tokens`, counted here as cache reads.

`reported` figures only (what the API billed); estimates from characters are the explorer's
(`carto_core.serve.analysis`). Stdlib only: the transcript readers run in hooks.
"""

from __future__ import annotations

USAGE_KEYS = ("input", "output", "cache_read", "cache_write")


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def claude_usage(message: object) -> dict | None:
    """{input, output, cache_read, cache_write} of a Claude assistant message, None without usage."""
    usage = message.get("usage") if isinstance(message, dict) else None
    if not isinstance(usage, dict):
        return None
    return {"input": _int(usage.get("input_tokens")), "output": _int(usage.get("output_tokens")),
            "cache_read": _int(usage.get("cache_read_input_tokens")),
            "cache_write": _int(usage.get("cache_creation_input_tokens"))}


def codex_usage(payload: object) -> dict | None:
    """The same from a Codex `token_count` event's payload, None when it holds no usage."""
    info = payload.get("info") if isinstance(payload, dict) else None
    last = info.get("last_token_usage") if isinstance(info, dict) else None
    if not isinstance(last, dict):
        return None
    cached = _int(last.get("cached_input_tokens"))
    return {"input": max(0, _int(last.get("input_tokens")) - cached), "output": _int(last.get("output_tokens")),
            "cache_read": cached, "cache_write": 0}


class UsageSum:
    """A turn's reported tokens: Claude messages by id (the last copy wins), Codex events added."""

    __slots__ = ("_by_message", "_loose")

    def __init__(self):
        self._by_message: dict[str, dict] = {}
        self._loose = dict.fromkeys(USAGE_KEYS, 0)

    def add(self, usage: dict | None, message_id: object = None) -> None:
        if usage is None:
            return
        if isinstance(message_id, str) and message_id:
            self._by_message[message_id] = usage
        else:
            for key in USAGE_KEYS:
                self._loose[key] += usage[key]

    def total(self) -> dict | None:
        """The sum, None when nothing was reported (no usage at all, or all zero)."""
        out = dict(self._loose)
        for usage in self._by_message.values():
            for key in USAGE_KEYS:
                out[key] += usage[key]
        return out if any(out.values()) else None
