"""Paths an `apply_patch` envelope touches. Stdlib only: the live hook imports this.

Codex's freeform `apply_patch` tool takes a patch in its own envelope::

    *** Begin Patch
    *** Add File: gamma.txt
    +text
    *** Update File: src/app.py
    *** Move to: src/main.py
    @@ ...
    *** End Patch

Upstream logs such an edit as `Modified: a,b` with the added and updated paths in patch order,
each once; the parser is core's (`carto_core.capture.shell.apply_patch_paths`). This module
only finds the patch text in the shapes Codex payloads and function-call arguments carry it.
"""

from __future__ import annotations

from carto_core.api import apply_patch_paths as patch_paths  # the one parser (Add/Update headers)

__all__ = ["patch_paths", "patch_text"]


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
