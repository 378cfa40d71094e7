"""Hook stdout meant for the agent: text the agent adds to the model's context, and the
edit-collision note a PreToolUse of an edit shows.
"""

from __future__ import annotations

import json
import os

from carto_core.capture.context import Context, Outcome


def context_output(event_name: str, text: str) -> str:
    """Hook stdout the agent adds to the model's context (Claude Code and Codex alike)."""
    return json.dumps({"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}},
                      ensure_ascii=False)


def edit_collision_output(ctx: Context, out: Outcome, paths: list[str]) -> None:
    """PreToolUse of an edit: the collision note for the first of `paths` (relative ones are
    the cwd's) that another live session touched, as `out.output`."""
    if not ctx.session or not paths:
        return
    try:
        from carto_core.capture.collision import collision_note
    except ImportError:
        return
    for path in paths:
        absolute = path if os.path.isabs(path) or not ctx.cwd else os.path.join(ctx.cwd, path)
        note = collision_note(ctx.home, ctx.session, absolute)
        if note:
            out.output = context_output(ctx.event_name, note)
            return
