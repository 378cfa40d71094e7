"""Paths an `apply_patch` envelope touches. Stdlib only: the live hook imports this.

Codex's freeform `apply_patch` tool takes a patch in its own envelope::

    *** Begin Patch
    *** Add File: gamma.txt
    +text
    *** Update File: src/app.py
    *** Move to: src/main.py
    @@ ...
    *** Delete File: old.txt
    *** End Patch

Upstream logs such an edit as `Modified: a,b` with the paths in patch order, each once.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$", re.M)


def patch_paths(patch: object) -> list[str]:
    """File paths named by the patch's headers, in order, without repeats."""
    if not isinstance(patch, str):
        return []
    out: list[str] = []
    for match in _HEADER.finditer(patch):
        path = match.group(1) or match.group(2)
        if path and path not in out:
            out.append(path)
    return out


def patch_text(tool_input: object) -> str:
    """The patch text of an apply_patch call: a bare string, or `{"input"|"patch"|"command": ...}`
    as hook payloads and function-call arguments carry it."""
    if isinstance(tool_input, str):
        return tool_input
    if isinstance(tool_input, dict):
        for key in ("input", "patch", "command"):
            value = tool_input.get(key)
            if isinstance(value, str):
                return value
            if isinstance(value, list):  # `["apply_patch", "<patch>"]` exec form
                texts = [v for v in value if isinstance(v, str) and "*** Begin Patch" in v]
                if texts:
                    return texts[0]
    return ""
