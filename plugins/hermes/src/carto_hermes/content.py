"""Reading Hermes's stored values: message content (plain or structured), tool calls (names
and the absolute paths in their arguments), epoch times, and the line filter that replaces
excluded lines with `[excluded]`.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timezone

from carto_core.api import format_timestamp

STRUCTURED_PREFIXES = ("\x00json:", "\x01json:")
PATH_KEYS = ("path", "file_path", "filepath", "workdir", "cwd", "directory", "dir")


def one_line(text: str) -> str:
    """`text` on one line, whitespace runs as one space."""
    return " ".join(text.split())


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def iso(epoch: object) -> str | None:
    """An epoch (seconds or milliseconds) as a carto timestamp; None when it is not one."""
    if isinstance(epoch, bool) or not isinstance(epoch, (int, float)):
        try:
            epoch = float(epoch)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return None
    if epoch != epoch or epoch <= 0:
        return None
    seconds = epoch / 1000.0 if epoch > 1e12 else epoch
    try:
        return format_timestamp(datetime.fromtimestamp(seconds, tz=timezone.utc))
    except (OverflowError, OSError, ValueError):
        return None


def as_float(value: object) -> float | None:
    """A positive number, or None."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return number if number == number and number > 0 else None


def decode_content(content: object) -> tuple[str, bool]:
    """(text, ok): plain text as is; structured content (either prefix) as its text parts."""
    if content is None:
        return "", True
    if isinstance(content, bytes):
        content = content.decode("utf-8", errors="replace")
    if not isinstance(content, str):
        return str(content), True
    for prefix in STRUCTURED_PREFIXES:
        if content.startswith(prefix):
            try:
                value = json.loads(content[len(prefix):])
            except ValueError:
                return "", False
            return _text_parts(value), True
    return content, True


def _text_parts(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(t for t in (_text_parts(v) for v in value) if t)
    if isinstance(value, dict):
        kind = value.get("type")
        if kind in (None, "text", "input_text", "output_text") and isinstance(value.get("text"), str):
            return value["text"]
        if kind is None and "content" in value:
            return _text_parts(value["content"])
    return ""  # images, audio, files: not text


def tool_names(tool_calls: object) -> tuple[list[str], list[str], bool]:
    """(function names, absolute paths in their arguments, ok) of an OpenAI-style list."""
    if tool_calls in (None, "", "[]"):
        return [], [], True
    try:
        calls = json.loads(tool_calls) if isinstance(tool_calls, (str, bytes)) else tool_calls
    except ValueError:
        return [], [], False
    if not isinstance(calls, list):
        return [], [], False
    names: list[str] = []
    paths: list[str] = []
    for call in calls:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            continue
        if isinstance(function.get("name"), str) and function["name"]:
            names.append(function["name"])
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except ValueError:
                arguments = None
        if isinstance(arguments, dict):
            for key in PATH_KEYS:
                value = arguments.get(key)
                if isinstance(value, str) and value.startswith(("/", "~")):
                    paths.append(os.path.expanduser(value))
    return names, paths, True


class LineFilter:
    """Replaces every line that matches an exclusion pattern with `[excluded]`."""

    def __init__(self, patterns: list[re.Pattern]):
        self.patterns = patterns

    def __call__(self, text: str) -> str:
        if not self.patterns or not text:
            return text
        lines = text.splitlines() or [text]
        return "\n".join(
            "[excluded]" if any(p.search(line) for p in self.patterns) else line for line in lines
        )

