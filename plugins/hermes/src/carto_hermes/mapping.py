"""Mapping one Hermes session onto carto rows (reference 6.3): which sessions are kept, which
messages count, the turns, the cron turn and the lifecycle row.

- kept only when its `source` is in the policy's `sources`, it is not `hidden`, and (unless it
  is a cron run) it has at least `min_user_prompts` user prompts or one tool row: single-shot
  sessions are skipped; a session whose project or paths contain an `exclude_projects` term is
  dropped whole (`attribution` picks the project);
- the live transcript only: `_compressed_summary` rows, rewound rows (inactive and not
  compacted) and active copies of compacted texts are left out; tool results, system messages,
  hidden scaffolding and Hermes's own review prompts are never indexed;
- a turn (turns log, `turn-hermes-<sid>-<user message rowid>`) is a user prompt and the assistant
  replies up to the next prompt, one line, `[tools: a, b]` appended, clipped to 1200 characters;
  the last turn of a session still running is held back until the session settles;
- cron runs: the prompt is never indexed; one turn holds the final assistant reply (unless the
  job is in `cron_skip_turns`);
- lifecycle rows (milestones log, `hermes-session-<sid>` / `hermes-cron-<sid>`) only once a
  session has settled: `ended_at` is set or its last message is `settle_seconds` (3600) old.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from carto_core.api import Emit, Stream, classify, order_row

from carto_hermes.attribution import attribute
from carto_hermes.content import LineFilter, as_float, clip, decode_content, iso, one_line, tool_names
from carto_hermes.policy import Policy

PROVIDER = "hermes"
TURN_MAX = 1200
SUMMARY_MAX = 500
HARNESS_PROMPTS = (
    "Review the conversation above and update the skill library",
    "Review the conversation above and consider saving to memory",
)
CRON_ID = re.compile(r"^cron_([0-9a-fA-F]+)_(\d{8})_(\d{6})$")
SALIENCE = {"lifecycle": 0.25, "turn": 0.5, "subagent": 0.4, "cron": 0.3}


@dataclass
class Message:
    id: int
    role: str
    text: str
    timestamp: float | None
    tools: list[str]
    paths: list[str]


@dataclass
class Turn:
    prompt: Message
    replies: list[Message] = field(default_factory=list)


@dataclass
class SessionResult:
    """What processing one session gave, with the reasons (`--show` prints them)."""

    session_id: str
    rows: list[Emit] = field(default_factory=list)
    skipped: str | None = None
    project: str = ""
    project_reason: str = ""
    settled: bool = False
    checkpoint: dict | None = None
    notes: list[str] = field(default_factory=list)
    #: The session's `sessions.source` (its channel: cli, desktop, telegram, ...).
    source: str = ""


class SessionMapper:
    """Turns one session's metadata and message rows into a `SessionResult` under a policy."""

    def __init__(self, policy: Policy, lines: LineFilter, now: Callable[[], float],
                 since_days: float | None = None):
        self.policy = policy
        self.lines = lines
        self.now = now
        self.since_days = since_days

    def session(self, stream: Stream, meta: dict, message_rows: list[dict], previous):
        """What to write for one session, given what the previous read wrote (`previous`)."""
        sid = str(meta["id"])
        result = SessionResult(session_id=sid)
        last_id = max((row["id"] for row in message_rows), default=None)
        last_ts = max((t for t in (as_float(row.get("timestamp")) for row in message_rows)
                       if t is not None), default=None)
        n_user = sum(1 for row in message_rows if row.get("role") == "user")
        n_tool = sum(1 for row in message_rows if row.get("role") == "tool")
        ended = as_float(meta.get("ended_at"))
        now = self.now()
        result.settled = ended is not None or (
            last_ts is not None and now - last_ts >= self.policy.settle_seconds)
        if (previous and previous.get("last_id") == last_id
                and (previous.get("settled") or not result.settled)):
            result.checkpoint = previous
            return result  # nothing new since the last run
        source = result.source = str(meta.get("source") or "")
        if self.since_days is not None and (last_ts or as_float(meta.get("started_at")) or 0) < (
                now - self.since_days * 86400):
            result.skipped = "older_than_since"
            return result
        if source not in self.policy.sources:
            result.skipped = "source_not_selected"
            result.checkpoint = {"last_id": last_id, "settled": True, "turn_upto": 0}
            return result
        if meta.get("hidden") in (1, "1", True):
            result.skipped = "hidden"
            result.checkpoint = {"last_id": last_id, "settled": True, "turn_upto": 0}
            return result
        cron = CRON_ID.match(sid)
        is_cron = source == "cron" or cron is not None
        job_id = cron.group(1) if cron else ""
        if not is_cron and n_user < self.policy.min_user_prompts and n_tool == 0:
            result.skipped = "single_shot"
            result.checkpoint = {"last_id": last_id, "settled": result.settled, "turn_upto": 0}
            return result
        messages, notes = self.messages(message_rows)
        result.notes.extend(notes)
        project, reason = attribute(self.policy, meta, job_id, messages)
        result.project, result.project_reason = project, reason
        term = self.policy.excluded(project, meta.get("cwd"), meta.get("git_repo_root"))
        if term is not None:
            result.skipped = "excluded_project"
            result.notes.clear()
            result.checkpoint = {"last_id": last_id, "settled": True, "turn_upto": 0}
            return result
        profile = stream.meta.get("profile", "default")
        started = iso(meta.get("started_at")) or (
            iso(messages[0].timestamp) if messages else None)
        if started is None:
            result.skipped = "no_timestamp"
            return result
        turn_upto = int((previous or {}).get("turn_upto") or 0)
        cwd = str(meta.get("cwd") or "")
        subagent = source == "subagent" or "_delegate_from" in str(meta.get("model_config") or "")
        if is_cron:
            rows, turn_upto = self._cron_turn(sid, job_id, project, messages, result.settled, turn_upto)
        else:
            rows, turn_upto = self._turns(sid, project, messages, result.settled, turn_upto, subagent)
        result.rows.extend(rows)
        if result.settled and not (previous or {}).get("settled"):
            result.rows.append(self._lifecycle(meta, sid, started, project, cwd, profile, source,
                                               is_cron, job_id, n_user, n_tool, messages))
        result.checkpoint = {"last_id": last_id, "settled": result.settled, "turn_upto": turn_upto}
        return result

    def messages(self, rows: list[dict]) -> tuple[list[Message], list[str]]:
        """The messages that count, and notes on what was skipped and why."""
        notes: list[str] = []
        compacted_texts: set[tuple[str, str]] = set()
        decoded: list[tuple[dict, str]] = []
        for row in rows:
            text, ok = decode_content(row.get("content"))
            if not ok:
                notes.append("bad_structured_content")
                continue  # undecodable: skipped and counted, never half-read
            decoded.append((row, text))
            if row.get("compacted") in (1, True) and len(text.strip()) > 20:
                compacted_texts.add((str(row.get("role")), text.strip()))
        kept: list[Message] = []
        for row, text in decoded:
            role = str(row.get("role") or "")
            active = row.get("active", 1)
            compacted = row.get("compacted", 0) in (1, True)
            if row.get("_compressed_summary") in (1, True):
                continue  # Hermes's own summary of compacted history, not the conversation
            if active in (0, False) and not compacted:
                continue  # rewound
            if not compacted and (role, text.strip()) in compacted_texts:
                continue  # an active copy of a compacted text
            if role not in ("user", "assistant"):
                if role not in ("tool", "system"):
                    notes.append(f"unknown_role:{role or '?'}")
                continue  # tool results and system prompts are never indexed
            if role == "user" and (row.get("display_kind") == "hidden" or not text.strip()
                                   or text.lstrip().startswith(HARNESS_PROMPTS)):
                continue  # scaffolding, an image-only prompt or Hermes's own review prompt
            timestamp = as_float(row.get("timestamp"))
            if timestamp is None:
                notes.append("bad_timestamp")
                continue
            names, paths, ok = tool_names(row.get("tool_calls"))
            if not ok:
                notes.append("bad_tool_calls")
            kept.append(Message(int(row["id"]), role, text, timestamp, names, paths))
        return kept, notes

    def _text(self, text: str) -> str:
        return one_line(self.lines(text))

    def _turns(self, sid, project, messages, settled, turn_upto, subagent):
        turns: list[Turn] = []
        for message in messages:
            if message.role == "user":
                turns.append(Turn(message))
            elif turns:
                turns[-1].replies.append(message)
        rows: list[Emit] = []
        for index, turn in enumerate(turns, start=1):
            is_last = index == len(turns)
            if is_last and not settled:
                break  # still growing: written once the session settles
            if turn.prompt.id <= turn_upto:
                continue
            body = " ".join(t for t in [self._text(turn.prompt.text),
                                        *(self._text(r.text) for r in turn.replies)] if t)
            names = list(dict.fromkeys(n for r in turn.replies for n in r.tools))
            if names:
                body += f" [tools: {', '.join(names)}]"
            # the turn's end: its last reply's time (a session's span ends there), as the
            # Claude and Codex readers keep it; none when no reply came after the prompt
            last = max((r.timestamp for r in turn.replies if r.timestamp is not None), default=None)
            begun = turn.prompt.timestamp
            ended = iso(last) if last is not None and begun is not None and last > begun else None
            rows.append(Emit("turns", order_row("turns", {
                "event_id": f"turn-hermes-{sid}-{turn.prompt.id}",
                "timestamp": iso(turn.prompt.timestamp),
                "project": project,
                "type": "transcript",
                "provider": PROVIDER,
                "summary": clip(body, TURN_MAX),
                "transcript_path": "",
                "session": sid,
                "turn_idx": index,
                "salience": SALIENCE["subagent" if subagent else "turn"],
                "prompt_intent": classify(self._text(turn.prompt.text)),
                "ended": ended,
            })))
            turn_upto = turn.prompt.id
        return rows, turn_upto

    def _cron_turn(self, sid, job_id, project, messages, settled, turn_upto):
        replies = [m for m in messages if m.role == "assistant" and m.text.strip()]
        if not settled or not replies or job_id in self.policy.cron_skip_turns:
            return [], turn_upto
        final = replies[-1]
        if final.id <= turn_upto:
            return [], turn_upto
        row = order_row("turns", {
            "event_id": f"turn-hermes-{sid}-{final.id}",
            "timestamp": iso(final.timestamp),
            "project": project,
            "type": "transcript",
            "provider": PROVIDER,
            "summary": clip(self._text(final.text), TURN_MAX),
            "transcript_path": "",
            "session": sid,
            "turn_idx": 1,
            "salience": SALIENCE["cron"],
        })
        return [Emit("turns", row)], final.id

    def _lifecycle(self, meta, sid, started, project, cwd, profile, source, is_cron, job_id,
                   n_user, n_tool, messages) -> Emit:
        title = self._text(str(meta.get("title") or ""))
        if not title:
            first = next((m for m in messages if m.role == "user"), None)
            title = clip(self._text(first.text), 120) if first else "(untitled)"
        fields: dict = {
            "event_id": f"hermes-{'cron' if is_cron else 'session'}-{sid}",
            "timestamp": started,
            "milestone": "hermes_cron_run" if is_cron else "hermes_session",
            "provider": PROVIDER,
            "session_id": sid,
            "transcript_path": "",
            "project": project,
            "cwd": cwd,
            "event": "CronRun" if is_cron else "HermesSession",
            "salience": SALIENCE["lifecycle"],
            "hermes_profile": profile,
            "hermes_source": source,
            "parent_session_id": meta.get("parent_session_id") or None,
        }
        if is_cron:
            job_name = title.split(" · ")[0].strip() or job_id
            fields.update(cron_job_id=job_id, cron_job=job_name,
                          ended_at=iso(meta.get("ended_at")))
            summary = f"Hermes cron run {job_name}: {title}"
        else:
            summary = f"Hermes {source} session: {title} ({n_user} prompts, {n_tool} tool calls)"
        fields["summary"] = clip(summary, SUMMARY_MAX)
        return Emit("milestones", order_row("milestones", fields))
