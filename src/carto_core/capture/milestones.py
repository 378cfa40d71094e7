"""Milestones: session-milestones rows and their changelog copies (session end, a restart's
start, compaction, agent stops, turn stops), the PostCompact summary row, and the agent events every provider
shares (reference/cartographer.md 1.8). `gitstate` is imported only when a milestone is written.
"""

from __future__ import annotations

import os

from carto_core.capture import shell as _shell
from carto_core.capture.context import SALIENCE, Context, Outcome, as_text, new_event_id
from carto_core.logio.logs import order_row
from carto_core.util.safeio import open_regular
from carto_core.util.terminal import counted


def session_event_count(home, session: str) -> int:
    """Changelog lines that mention the session id (upstream: `grep -c`), before this write."""
    if not session:
        return 0
    needle = session.encode("utf-8")
    count = 0
    try:
        with open_regular(home.log("changelog")) as handle:
            for line in handle:
                if needle in line:
                    count += 1
    except OSError:
        return 0
    return count


def deeplink_for(provider: str, transcript: str, verified: bool) -> str:
    if provider != "claude" or not verified or not transcript:
        return ""
    from urllib.parse import quote

    return "claude-history://session/" + quote(transcript, safe="")


def milestone_salience(milestone: str) -> float:
    if milestone == "session_wrapup":
        return SALIENCE["session_wrapup"]
    for prefix, key in (("session_end", "session_end"), ("compaction", "compaction"), ("agent_", "agent"),
                        ("turn_stop", "turn_stop")):
        if milestone.startswith(prefix):
            return SALIENCE[key]
    return SALIENCE["milestone"]


def capture_milestone(
    ctx: Context,
    out: Outcome,
    *,
    milestone: str,
    description: str,
    drop_when_unverified_and_empty: bool = False,
    event_id: str | None = None,
) -> str | None:
    """A milestone row and its changelog copy (`milestone_<name>`, summary with git context).

    With `drop_when_unverified_and_empty` (SessionEnd), a missing transcript keeps the row only
    if the session already has events (`transcript_verified: false`, empty deeplink). `event_id`
    names a milestone that is written again for the same thing (folded into one event), else
    the id is new.
    """
    verified = bool(ctx.transcript) and os.path.isfile(ctx.transcript)
    count = session_event_count(ctx.home, ctx.session)
    if drop_when_unverified_and_empty and not verified and count == 0:
        out.problems.append(
            f"{ctx.event_name}: session {ctx.session or '?'} has no events and its transcript "
            f"{ctx.transcript or '(none)'} does not exist; milestone {milestone} not written"
        )
        return None
    from carto_core.capture import gitstate

    branch, dirty, recent = gitstate.milestone_git(ctx.cwd)
    event_id = event_id or new_event_id()
    parent = ctx.parent()
    salience = milestone_salience(milestone)
    deeplink = deeplink_for(ctx.provider, ctx.transcript, verified)
    description = _shell.flatten(description)
    out.add("milestones", order_row("milestones", {
        "event_id": event_id, "timestamp": ctx.timestamp, "milestone": milestone, "provider": ctx.provider,
        "description": description, "session_id": ctx.session, "transcript_path": ctx.transcript,
        "transcript_verified": verified, "deeplink": deeplink, "project": ctx.project, "cwd": ctx.cwd,
        "event": ctx.event_name, "git_branch": branch, "git_dirty_files": dirty, "recent_commits": recent,
        "session_event_count": count, "salience": salience, "parent_event_id": parent,
    }))
    events = counted(count, "event")
    context = f"[{branch}, {dirty} dirty, {events}]" if branch else f"[{events}]"
    out.add("changelog", order_row("changelog-milestone", {
        "event_id": event_id, "timestamp": ctx.timestamp, "type": "milestone_" + milestone,
        "provider": ctx.provider, "session_id": ctx.session, "project": ctx.project, "cwd": ctx.cwd,
        "deeplink": deeplink, "summary": f"{description} {context}", "transcript_path": ctx.transcript,
        "transcript_verified": verified, "related_ids": [], "salience": salience, "parent_event_id": parent,
    }))
    ctx.chained(event_id)
    return event_id


#: Subagent types whose stop is a milestone (upstream skips the others).
MILESTONE_AGENT_TYPES = frozenset({"Explore", "Plan", "general-purpose"})
#: The role Codex gives a subagent whose `spawn_agent` call names none (codex-rs
#: `DEFAULT_ROLE_NAME`; Codex 0.169's SubagentStop says `agent_type: "default"`).
DEFAULT_AGENT_ROLE = "default"


def agent_role(value: object) -> str:
    """A Codex subagent's role as a milestone name holds it: one word of `[A-Za-z0-9_.-]` (a
    model writes `spawn_agent`'s `agent_type`), `DEFAULT_AGENT_ROLE` when there is none."""
    import re

    text = re.sub(r"[^A-Za-z0-9_.-]+", "-", value.strip())[:64].strip("-") if isinstance(value, str) else ""
    return text or DEFAULT_AGENT_ROLE


def compaction_description(trigger: str) -> str:
    return f"Context compaction ({trigger}) — session at peak density"


def capture_compact_summary(ctx: Context, out: Outcome, *, trigger: str, summary: str,
                            limit: int | None = None) -> str | None:
    """PostCompact: a changelog-only `derived_compaction_summary` row with a content-hash id."""
    if not summary or not summary.strip():
        return None
    import hashlib

    from carto_core.privacy.redact import default_redactor

    limit = limit or int(os.environ.get("CARTO_COMPACT_SUMMARY_MAX", "8000") or 8000)
    clean = " ".join(default_redactor().text(summary).split())
    digest = hashlib.sha256(f"{ctx.session}\n{trigger}\n{summary}".encode("utf-8", "surrogatepass")).hexdigest()
    event_id = "evt-compact-summary-" + digest[:16]
    truncated = len(clean) > limit
    text = clean[:limit] if truncated else clean
    verified = bool(ctx.transcript) and os.path.isfile(ctx.transcript)
    parent = ctx.parent()
    row = {
        "event_id": event_id, "timestamp": ctx.timestamp, "type": "derived_compaction_summary",
        "provider": ctx.provider, "session_id": ctx.session, "project": ctx.project, "cwd": ctx.cwd,
        "transcript_path": ctx.transcript, "deeplink": deeplink_for(ctx.provider, ctx.transcript, verified),
        "summary": text, "summary_hash": hashlib.sha256(clean.encode("utf-8", "surrogatepass")).hexdigest(),
        "summary_truncated": truncated, "compaction_trigger": trigger, "canonical": False,
        "noise_class": "compaction_echo",
        "derived_from": {"kind": f"{ctx.provider}_postcompact", "session_id": ctx.session,
                         "transcript_path": ctx.transcript},
        "related_ids": [], "salience": SALIENCE["derived_compaction_summary"],
    }
    if parent:
        row["parent_event_id"] = parent
    out.add("changelog", row)
    ctx.chained(event_id)
    return event_id


#: SessionStart sources that are a restart worth a row: lineage links sessions through them
#: (`carto_core.lenses.lineage`). A plain start is not recorded; a compaction already is
#: (PreCompact).
RESTART_SOURCES = frozenset({"resume", "clear", "fork"})


def capture_session_start(ctx: Context, out: Outcome) -> str | None:
    """SessionStart whose `source` is a restart (resume, clear, fork): a `session_start_<source>`
    milestone with its changelog copy; nothing for a plain start."""
    source = as_text(ctx.payload.get("source"))
    if source not in RESTART_SOURCES or not ctx.session:
        return None
    return capture_milestone(ctx, out, milestone=f"session_start_{source}",
                             description=f"Session started ({source})")


def capture_agent_event(ctx: Context, out: Outcome, *, quiet_without_summary: bool = False,
                        every_subagent: bool = False) -> bool:
    """PreCompact, PostCompact and SubagentStop, the same for every provider; False for any
    other event. A PostCompact without `compact_summary` is a hook.log problem unless
    `quiet_without_summary` (Codex's PostCompact schema has no summary field).

    `every_subagent` (Codex): each subagent is one a `spawn_agent` call started, so its stop is
    a milestone `agent_<role>` whatever the role (Claude also stops agents of its own, the
    compaction's: only the types upstream marks count). Codex fires SubagentStop after each of
    the subagent's turns, so the milestone's id is the subagent's: they fold into one event."""
    event_name, payload = ctx.event_name, ctx.payload
    if event_name == "PreCompact":
        trigger = as_text(payload.get("trigger")) or "auto"
        capture_milestone(ctx, out, milestone=f"compaction_{trigger}", description=compaction_description(trigger))
    elif event_name == "PostCompact":
        summary = as_text(payload.get("compact_summary"))
        if summary:
            capture_compact_summary(ctx, out, trigger=as_text(payload.get("trigger")) or "auto", summary=summary)
        elif not quiet_without_summary:
            out.problems.append("PostCompact payload has no compact_summary; nothing captured")
    elif event_name == "SubagentStop":
        agent_type = as_text(payload.get("agent_type"))
        if every_subagent:
            agent_type, agent = agent_role(agent_type), as_text(payload.get("agent_id"))
            event_id = None
            if agent and ctx.session:
                import hashlib

                event_id = "evt-" + hashlib.sha256(f"subagent|{ctx.session}|{agent}".encode()).hexdigest()[:12]
            capture_milestone(ctx, out, milestone=f"agent_{agent_type}", description=f"{agent_type} agent completed",
                              event_id=event_id)
        elif agent_type in MILESTONE_AGENT_TYPES:
            capture_milestone(ctx, out, milestone=f"agent_{agent_type}", description=f"{agent_type} agent completed")
    else:
        return False
    return True
