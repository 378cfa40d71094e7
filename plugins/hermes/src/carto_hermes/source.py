"""The Hermes source: sessions of `state.db` files and configured markdown artifacts as rows.

Streams: one per database (`<hermes home>/state.db` is profile `default`, every
`<hermes home>/profiles/<name>/state.db` its own profile; dot-names and tombstoned profiles are
skipped; backups never read), and one per artifact file the policy's `artifacts` globs find.

Per session (reference 6.3):

- kept only when its `source` is in the policy's `sources`, it is not `hidden`, and (unless it
  is a cron run) it has at least `min_user_prompts` user prompts or one tool row: single-shot
  sessions are skipped;
- project attribution, first that answers: cwd / git root under `corpus_root` (the shared
  resolver); `path_projects` longest prefix; `cron_projects[job id]`; the dominant path in tool
  call arguments under `corpus_root` (>= 2 votes and >= 60 %); `default_project`;
- two-level exclusion: a session whose project or paths contain an `exclude_projects` term is
  dropped whole; a line of text matching a `redact_patterns` regex (or naming an excluded
  project) is replaced by `[excluded]`, the rest of the text stays;
- the live transcript only: `_compressed_summary` rows, rewound rows (inactive and not
  compacted) and active copies of compacted texts are left out; tool results, system messages,
  hidden scaffolding and Hermes's own review prompts are never indexed;
- a turn (turns log, `turn-hermes-<sid>-<user message rowid>`) is a user prompt and the assistant
  replies up to the next prompt, one line, `[tools: a, b]` appended, clipped to 1200 characters;
  the last turn of a session still running is held back until the session settles, so that a
  turn is never written half-grown;
- cron runs: the prompt is never indexed; one turn holds the final assistant reply (unless the
  job is in `cron_skip_turns`);
- lifecycle rows (milestones log, `hermes-session-<sid>` / `hermes-cron-<sid>`) only once a
  session has settled: `ended_at` is set or its last message is `settle_seconds` (3600) old.

Artifacts are versioned: one milestones row per content version,
`hermes-<kind>-<slug>-<sha256[:8]>`; an edited file is a new row, the old one stays.

Checkpoints (kept by `carto_core.ingest.run_ingest` in `<home>/.carto/checkpoints/hermes.json`,
one entry per stream): per database, the policy digest and per session the last message id,
the last turn written and whether the lifecycle row is out; per artifact, its content hash.
A checkpoint made under another policy is ignored (the database is read again; rows already in
the logs are not written twice).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import re
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from carto_core.logs import order_row
from carto_core.project import find_git, project_for
from carto_core.sources import Emit, ReadBatch, Source, Stream
from carto_core.timeparse import format_timestamp

from carto_hermes.db import Schema, open_readonly, probe, translate
from carto_hermes.policy import Policy, load_policy, policy_from_dict

PROVIDER = "hermes"
TURN_MAX = 1200
DESCRIPTION_MAX = 20000
SUMMARY_MAX = 500
STRUCTURED_PREFIXES = ("\x00json:", "\x01json:")
HARNESS_PROMPTS = (
    "Review the conversation above and update the skill library",
    "Review the conversation above and consider saving to memory",
)
CRON_ID = re.compile(r"^cron_([0-9a-fA-F]+)_(\d{8})_(\d{6})$")
PATH_KEYS = ("path", "file_path", "filepath", "workdir", "cwd", "directory", "dir")
SALIENCE = {"lifecycle": 0.25, "turn": 0.5, "subagent": 0.4, "cron": 0.3}


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _iso(epoch: object) -> str | None:
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


def _as_float(value: object) -> float | None:
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


@functools.lru_cache(maxsize=4096)
def _resolved(path: str) -> Path | None:
    # Tool-call paths repeat within and across sessions; resolve each distinct one once.
    try:
        return Path(path).resolve()
    except (OSError, ValueError):
        return None


def _under(path: str, root: Path) -> bool:
    resolved, base = _resolved(str(path)), _resolved(str(root))
    return resolved is not None and base is not None and resolved.is_relative_to(base)


def _first_segment(path: str, root: Path) -> str:
    resolved, base = _resolved(str(path)), _resolved(str(root))
    if resolved is None or base is None or not resolved.is_relative_to(base):
        return ""
    parts = resolved.relative_to(base).parts
    return parts[0] if parts else ""


class HermesSource(Source):
    """Hermes Agent sessions and artifacts (run through `carto ingest hermes`)."""

    name = "hermes"
    provider = PROVIDER
    description = "Hermes Agent state.db sessions and markdown artifacts (needs hermes.json)"

    def __init__(self, options: dict | None = None):
        super().__init__(options)
        policy = self.options.get("policy")
        if isinstance(policy, dict):
            policy = policy_from_dict(policy)  # the policy's keys given inline (tests, embedding)
        elif policy is None:
            # No policy handed in: the policy file is required, as for the command.
            policy = load_policy(self.options.get("config"))
        self.policy: Policy = policy
        self.only: str | None = self.options.get("_only")
        self.profiles: list[str] | None = self.options.get("_profiles")
        self.since_days: float | None = self.options.get("_since_days")
        self._now: float | None = self.options.get("_now")
        self.lines = LineFilter(self.policy.line_patterns)

    def now(self) -> float:
        return self._now if self._now is not None else time.time()

    # -- discovery ---------------------------------------------------------------------------

    def databases(self) -> list[tuple[str, Path]]:
        """(profile, state.db path) for the default profile and every live named profile."""
        root = self.policy.hermes_home
        found: list[tuple[str, Path]] = []
        if (root / "state.db").is_file():
            found.append(("default", root / "state.db"))
        profiles_dir = root / "profiles"
        tombstones = profiles_dir / ".deleted"
        if profiles_dir.is_dir():
            for folder in sorted(profiles_dir.iterdir()):
                if folder.name.startswith(".") or (tombstones / folder.name).exists():
                    continue
                if (folder / "state.db").is_file():
                    found.append((folder.name, folder / "state.db"))
        # The policy's list bounds what is read; --profile can only narrow it further.
        if self.policy.profiles is not None:
            found = [(p, path) for p, path in found if p in self.policy.profiles]
        if self.profiles:
            found = [(p, path) for p, path in found if p in self.profiles]
        return [(p, path) for p, path in found if ".openclaw" not in path.resolve().parts]

    def artifact_files(self) -> list[tuple[int, Path]]:
        out: list[tuple[int, Path]] = []
        for index, spec in enumerate(self.policy.artifacts):
            base = spec.dir
            if not base.is_dir() or ".openclaw" in base.resolve().parts:
                continue
            for dirpath, dirnames, filenames in os.walk(base):
                level = len(Path(dirpath).relative_to(base).parts)
                dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")) if level < spec.depth else []
                for name in sorted(filenames):
                    relative = (Path(dirpath) / name).relative_to(base).as_posix()
                    if spec.match.search(relative) and not any(x.search(relative) for x in spec.exclude):
                        out.append((index, Path(dirpath) / name))
        return out

    def discover(self):
        if self.only in (None, "sessions"):
            for profile, path in self.databases():
                yield Stream(key=f"db:{path.resolve()}", path=path, size=path.stat().st_size,
                             meta={"kind": "db", "profile": profile})
        if self.only in (None, "artifacts"):
            for index, path in self.artifact_files():
                kind = self.policy.artifacts[index].kind
                yield Stream(key=f"artifact:{kind}:{path.resolve()}", path=path,
                             size=path.stat().st_size, meta={"kind": "artifact", "spec": index})

    # -- reading -----------------------------------------------------------------------------

    def read(self, stream: Stream, checkpoint: dict | None) -> ReadBatch:
        if stream.meta.get("kind") == "artifact":
            return self.read_artifact(stream, checkpoint)
        return self.read_database(stream, checkpoint)

    def read_database(self, stream: Stream, checkpoint: dict | None, *,
                      only_session: str | None = None) -> ReadBatch:
        batch = ReadBatch()
        if checkpoint and checkpoint.get("policy") != self.policy.digest:
            batch.messages.append("policy changed since the last run: every session read again")
            checkpoint = None
        done: dict = dict((checkpoint or {}).get("sessions") or {})
        path = stream.path
        conn = open_readonly(path, self.policy.busy_timeout_ms)
        try:
            schema = probe(conn, path)
            conn.execute("BEGIN")  # one snapshot for the whole read
            for result in self._sessions(conn, schema, stream, done, only_session=only_session):
                batch.units += 1
                if result.skipped:
                    batch.skipped[result.skipped] += 1
                batch.rows.extend(result.rows)
                if result.checkpoint is not None:
                    done[result.session_id] = result.checkpoint
                for note in result.notes:
                    batch.skipped[note] += 1
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise translate(exc, path) from None
        finally:
            conn.close()
        batch.checkpoint = {"policy": self.policy.digest, "sessions": done}
        return batch

    def explain(self, stream: Stream, session_id: str) -> SessionResult | None:
        """Every decision about one session, checkpoints ignored (`--show`)."""
        conn = open_readonly(stream.path, self.policy.busy_timeout_ms)
        try:
            schema = probe(conn, stream.path)
            for result in self._sessions(conn, schema, stream, {}, only_session=session_id):
                return result
        except sqlite3.Error as exc:
            raise translate(exc, stream.path) from None
        finally:
            conn.close()
        return None

    def _sessions(self, conn, schema: Schema, stream: Stream, done: dict, *,
                  only_session: str | None = None):
        """Sessions with their message rows, in one ordered pass over `messages`.

        One scan instead of a query per session: Hermes's own index on messages.session_id is
        not guaranteed on every schema, and without it a query per session is quadratic.
        """
        where, params = "", ()
        if only_session is not None:
            where, params = " WHERE id = ?", (only_session,)
        columns = schema.session_columns()
        sessions = {
            str(values[0]): dict(zip(columns, values)) for values in conn.execute(
                f"SELECT {', '.join(columns)} FROM sessions{where} ORDER BY id", params)
        }
        message_columns = schema.message_columns()
        cursor = conn.execute(
            f"SELECT {', '.join(message_columns)} FROM messages"
            + (" WHERE session_id = ?" if only_session is not None else "")
            + " ORDER BY session_id, id", params)
        for sid, group in itertools.groupby(cursor, key=lambda values: str(values[1])):
            rows = [dict(zip(message_columns, values)) for values in group]
            meta = sessions.pop(sid, None)
            if meta is None:
                yield SessionResult(session_id=sid, skipped="orphan_messages")
                continue
            yield self._session(stream, meta, rows, done.get(sid))
        for sid, meta in sessions.items():  # sessions without any message
            yield self._session(stream, meta, [], done.get(sid))

    def _session(self, stream: Stream, meta: dict, message_rows: list[dict], previous):
        sid = str(meta["id"])
        result = SessionResult(session_id=sid)
        last_id = max((row["id"] for row in message_rows), default=None)
        last_ts = max((t for t in (_as_float(row.get("timestamp")) for row in message_rows)
                       if t is not None), default=None)
        n_user = sum(1 for row in message_rows if row.get("role") == "user")
        n_tool = sum(1 for row in message_rows if row.get("role") == "tool")
        ended = _as_float(meta.get("ended_at"))
        now = self.now()
        result.settled = ended is not None or (
            last_ts is not None and now - last_ts >= self.policy.settle_seconds)
        if (previous and previous.get("last_id") == last_id
                and (previous.get("settled") or not result.settled)):
            result.checkpoint = previous
            return result  # nothing new since the last run
        source = str(meta.get("source") or "")
        if self.since_days is not None and (last_ts or _as_float(meta.get("started_at")) or 0) < (
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
        messages, notes = self._messages(message_rows)
        result.notes.extend(notes)
        project, reason = self.attribute(meta, job_id, messages)
        result.project, result.project_reason = project, reason
        term = self.policy.excluded(project, meta.get("cwd"), meta.get("git_repo_root"))
        if term is not None:
            result.skipped = "excluded_project"
            result.notes.clear()
            result.checkpoint = {"last_id": last_id, "settled": True, "turn_upto": 0}
            return result
        profile = stream.meta.get("profile", "default")
        started = _iso(meta.get("started_at")) or (
            _iso(messages[0].timestamp) if messages else None)
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

    def _messages(self, rows: list[dict]) -> tuple[list[Message], list[str]]:
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
            timestamp = _as_float(row.get("timestamp"))
            if timestamp is None:
                notes.append("bad_timestamp")
                continue
            names, paths, ok = tool_names(row.get("tool_calls"))
            if not ok:
                notes.append("bad_tool_calls")
            kept.append(Message(int(row["id"]), role, text, timestamp, names, paths))
        return kept, notes

    # -- attribution ---------------------------------------------------------------------------

    def attribute(self, meta: dict, job_id: str, messages: list[Message]) -> tuple[str, str]:
        """(project, which rule chose it), in the documented order."""
        root = self.policy.corpus_root
        for key in ("git_repo_root", "cwd"):
            path = meta.get(key)
            if isinstance(path, str) and path and _under(path, root):
                name = project_for(path) if find_git(path) else _first_segment(path, root)
                if name:
                    return name, f"{key} under corpus_root"
        for key in ("cwd", "git_repo_root"):
            path = meta.get(key)
            if isinstance(path, str) and path:
                best = ""
                for prefix in self.policy.path_projects:
                    if (path == prefix or path.startswith(prefix.rstrip("/") + "/")) and len(prefix) > len(best):
                        best = prefix
                if best:
                    return self.policy.path_projects[best], f"path_projects[{best}]"
        if job_id and job_id in self.policy.cron_projects:
            return self.policy.cron_projects[job_id], f"cron_projects[{job_id}]"
        votes = Counter(
            name for m in messages for p in m.paths if _under(p, root)
            for name in [_first_segment(p, root)] if name
        )
        if votes:
            name, count = votes.most_common(1)[0]
            if count >= 2 and count / sum(votes.values()) >= 0.6:
                return name, f"dominant tool path ({count} of {sum(votes.values())})"
        return self.policy.default_project, "default_project"

    # -- rows --------------------------------------------------------------------------------

    def _text(self, text: str) -> str:
        return _one_line(self.lines(text))

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
            rows.append(Emit("turns", order_row("turns", {
                "event_id": f"turn-hermes-{sid}-{turn.prompt.id}",
                "timestamp": _iso(turn.prompt.timestamp),
                "project": project,
                "type": "transcript",
                "provider": PROVIDER,
                "summary": _clip(body, TURN_MAX),
                "transcript_path": "",
                "session": sid,
                "turn_idx": index,
                "salience": SALIENCE["subagent" if subagent else "turn"],
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
            "timestamp": _iso(final.timestamp),
            "project": project,
            "type": "transcript",
            "provider": PROVIDER,
            "summary": _clip(self._text(final.text), TURN_MAX),
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
            title = _clip(self._text(first.text), 120) if first else "(untitled)"
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
                          ended_at=_iso(meta.get("ended_at")))
            summary = f"Hermes cron run {job_name}: {title}"
        else:
            summary = f"Hermes {source} session: {title} ({n_user} prompts, {n_tool} tool calls)"
        fields["summary"] = _clip(summary, SUMMARY_MAX)
        return Emit("milestones", order_row("milestones", fields))

    # -- artifacts ---------------------------------------------------------------------------

    def read_artifact(self, stream: Stream, checkpoint: dict | None) -> ReadBatch:
        spec = self.policy.artifacts[stream.meta["spec"]]
        raw = stream.path.read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        batch = ReadBatch(checkpoint={"sha256": digest, "policy": self.policy.digest}, units=1)
        if checkpoint and checkpoint.get("sha256") == digest and checkpoint.get("policy") == self.policy.digest:
            return batch
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("utf-8", errors="replace")
            batch.skipped["invalid_utf8"] += 1
        project = spec.project or self.policy.default_project
        if self.policy.excluded(project, str(stream.path)) is not None:
            batch.skipped["excluded_project"] += 1
            return batch
        if not text.strip():
            batch.skipped["empty_artifact"] += 1
            return batch
        clean = self.lines(text)
        title, lead = _title_and_lead(clean, stream.path.stem)
        slug = re.sub(r"[^a-z0-9]+", "-", stream.path.stem.lower()).strip("-") or "artifact"
        moment = datetime.fromtimestamp(stream.path.stat().st_mtime, tz=timezone.utc)
        batch.rows.append(Emit("milestones", order_row("milestones", {
            "event_id": f"hermes-{spec.kind}-{slug}-{digest[:8]}",
            "timestamp": format_timestamp(moment),
            "milestone": f"hermes_{spec.kind}",
            "provider": PROVIDER,
            "description": _clip(_one_line(clean), DESCRIPTION_MAX),
            "transcript_path": str(stream.path),
            "project": project,
            "event": spec.kind.replace("_", " ").replace("-", " ").title().replace(" ", ""),
            "salience": spec.salience,
            "artifact_kind": spec.kind,
            "artifact_path": str(stream.path),
            "content_hash": digest,
            "summary": _clip(_one_line(f"{title}: {lead}" if lead else title), SUMMARY_MAX),
        })))
        return batch


def _title_and_lead(text: str, fallback: str) -> tuple[str, str]:
    title = ""
    paragraphs: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not title and stripped.startswith("# "):
            title = stripped[2:].strip()
            continue
        if stripped.startswith("#") or not stripped:
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        current.append(stripped)
    if current:
        paragraphs.append(" ".join(current))
    return title or fallback, paragraphs[0] if paragraphs else ""
