"""`[recall] prompt = true` in carto's config file, written as text (`tomltext`) so the rest of
the file, its comments and layout stay as they were: what `carto install codex --recall` does
(Codex's UserPromptSubmit handler always runs, to capture the prompt; the config is its
opt-in). The result is parsed back and checked before it is written; the old file is backed up.
"""

from __future__ import annotations

import re

from carto_core.install.configedit import backup, write_atomic
from carto_core.util.tomltext import append_block, table_span

_PROMPT = re.compile(r"^\s*prompt\s*=")


class ConfigEditError(ValueError):
    """The config file cannot be read or changed safely."""


def enable_prompt_recall(env: dict | None = None, *, dry_run: bool = False) -> list[str]:
    """Set `[recall] prompt = true`; the change lines ([] when it already is)."""
    import tomllib

    from carto_core.logio.home import config_file

    path = config_file(env)
    try:
        text = path.read_text("utf-8") if path.exists() else ""
        current = tomllib.loads(text)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigEditError(f"cannot read {path}: {exc}") from None
    table = current.get("recall")
    if isinstance(table, dict) and table.get("prompt") is True:
        return []
    lines = text.splitlines()
    span = table_span(lines, ["recall"])
    if span is None:
        new_text = append_block(text, "[recall]\nprompt = true\n")
    else:
        start, end = span
        for index in range(start + 1, end):
            if _PROMPT.match(lines[index]):
                lines[index] = "prompt = true"
                break
        else:
            lines.insert(start + 1, "prompt = true")
        new_text = "\n".join(lines) + "\n"
    try:
        parsed = tomllib.loads(new_text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigEditError(f"refusing to change {path}: the edit would not parse ({exc})") from None
    if parsed.get("recall", {}).get("prompt") is not True or \
            {k: v for k, v in parsed.items() if k != "recall"} != {k: v for k, v in current.items() if k != "recall"}:
        raise ConfigEditError(f"refusing to change {path}: the edit would change more than [recall] prompt")
    change = f"{path}: [recall] prompt = true (prompt-time recall on for every agent whose UserPromptSubmit reaches carto)"
    if not dry_run:
        saved = backup(path)
        write_atomic(path, new_text)
        if saved:
            change += f"; backup: {saved}"
    return [change]
