"""Claude Code backfill: transcripts -> `turns.jsonl`, `history.jsonl` -> `prompt-history.jsonl`.

The transcript parser (turn rules, open turns, checkpoints) is `carto_claude.turns`, shared
with the Stop hook; this module is the backfill source around it and the prompt history.
Options (`carto ingest claude` flags or `[sources.claude]`): `roots`, `history`, `since` (an
aware datetime, or a WHEN string from the config file; `since_days` is the older spelling),
`settle_seconds` (default 600), `body_max` (default 2000).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from carto_core.api import (
    Emit, ReadBatch, Source, Stream, batch_of, classify, order_row, settle_option, since_cutoff,
)

from carto_claude.turns import (  # noqa: F401  (re-exported: the parser's public names)
    BOOKKEEPING_TYPES,
    CHECKPOINT_VERSION,
    CONVERSATION_TYPES,
    DEFAULT_BODY_MAX,
    DEFAULT_SETTLE_SECONDS,
    SCAFFOLDING_PREFIXES,
    TranscriptReader,
    claude_dir,
    default_history,
    default_projects_root,
    is_human_prompt,
    is_scaffolding,
    line_texts,
    subagent_identity,
)

try:  # orjson is a core dependency; fall back for a bare interpreter
    from orjson import loads as _loads
except ImportError:  # pragma: no cover
    from json import loads as _loads


# ---------------------------------------------------------------------------------------------
# Prompt history (reference/cartographer.md 1.8, upstream build-prompt-history.js)

PROMPT_CONTENT_KEYS = (
    "summary", "description", "prompt", "url", "query", "topic", "note", "milestone", "event",
    "type", "session_id", "session", "project", "transcript_path", "cwd", "deeplink", "title",
    "category", "symptom", "hypothesis", "layer", "status",
)


def stable_event_id(record: dict) -> str:
    """`evt-<12 hex>`: sha256 over the timestamp and `key=value` of the content keys present."""
    import hashlib
    import json

    parts = [record.get("timestamp") or ""]
    for key in PROMPT_CONTENT_KEYS:
        value = record.get(key)
        if value is None or value == "":
            continue
        text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        parts.append(f"{key}={text}")
    return "evt-" + hashlib.sha256(" ".join(parts).encode("utf-8")).hexdigest()[:12]


def flatten_prompt(text: str) -> str:
    return re.sub(r" {2,}", " ", re.sub(r"[\r\n\t]+", " ", text)).strip()


def is_bare_slash_command(summary: str) -> bool:
    return summary.startswith("/") and not any(summary.split(" ")[1:])


def epoch_ms_to_iso(value: object) -> str | None:
    if isinstance(value, bool):
        return None
    try:
        ms = float(value.strip()) if isinstance(value, str) else float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    if ms != ms:
        return None
    try:
        moment = time.gmtime(ms / 1000.0)
    except (OverflowError, OSError, ValueError):
        return None
    if not 2024 <= moment.tm_year <= 2030:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", moment)


def project_prompt(row: object, transcripts: dict[str, str]) -> tuple[dict | None, str | None]:
    """(prompt-history row, None) or (None, skip reason) for one history.jsonl row."""
    if not isinstance(row, dict):
        return None, "not_an_object"
    display = row.get("display")
    summary = flatten_prompt(display if isinstance(display, str) else "")
    if not summary:
        return None, "empty"
    if is_bare_slash_command(summary):
        return None, "slash_command"
    timestamp = epoch_ms_to_iso(row.get("timestamp"))
    if timestamp is None:
        return None, "bad_timestamp"
    session = row.get("sessionId") if isinstance(row.get("sessionId"), str) and row.get("sessionId") else None
    cwd = row.get("project") if isinstance(row.get("project"), str) and row.get("project") else None
    project = os.path.basename(cwd.rstrip("/")) if cwd else None
    identity = {"timestamp": timestamp, "type": "prompt", "summary": summary, "session_id": session,
                "project": project, "cwd": cwd}
    fields = {
        "event_id": stable_event_id(identity), "timestamp": timestamp, "type": "prompt",
        "provider": "claude", "summary": summary, "project": project, "cwd": cwd, "session_id": session,
        "transcript_path": transcripts.get(session) if session else None, "salience": 0.6,
        "prompt_intent": classify(summary),
    }
    return order_row("prompts", fields), None


def read_history(path: Path, checkpoint: dict | None, transcripts: dict[str, str]) -> ReadBatch:
    batch = ReadBatch()
    offset = int(checkpoint.get("offset", 0)) if isinstance(checkpoint, dict) else 0
    try:
        size = path.stat().st_size
    except OSError as exc:
        batch.messages.append(f"{path}: {exc}")
        return batch
    if offset > size:
        offset = 0
    with open(path, "rb") as handle:
        handle.seek(offset)
        data = handle.read()
    end = data.rfind(b"\n") + 1
    for raw in data[:end].split(b"\n"):
        if not raw.strip():
            continue
        batch.units += 1
        try:
            row = _loads(raw)
        except ValueError:
            batch.skipped["broken_line"] += 1
            continue
        record, reason = project_prompt(row, transcripts)
        if record is None:
            batch.skipped[reason or "skipped"] += 1
        else:
            batch.rows.append(Emit("prompts", record))
    batch.checkpoint = {"version": CHECKPOINT_VERSION, "offset": offset + end}
    return batch


# ---------------------------------------------------------------------------------------------
# The source


class ClaudeSource(Source):
    """Claude Code transcripts (all three subagent layouts) and `~/.claude/history.jsonl`."""

    name = "claude"
    provider = "claude"
    description = "Claude Code transcripts (~/.claude/projects) -> turns, history.jsonl -> prompt history"
    revisable_logs = frozenset({"turns"})

    def __init__(self, options: dict | None = None):
        super().__init__(options)
        self._transcripts: dict[str, str] | None = None

    # installed hooks ---------------------------------------------------------------------
    def hook_files(self) -> list[Path]:
        """The user's settings, then this project's shared and local ones (what `carto doctor`
        checks; `carto install claude [--project]` writes the first two)."""
        # the user's file is install.default_settings_path(); spelled out here so that the
        # source does not import the installer (which imports this module: a cycle)
        project = Path.cwd() / ".claude"
        return [claude_dir() / "settings.json", project / "settings.json", project / "settings.local.json"]

    # options -------------------------------------------------------------------------------
    @property
    def roots(self) -> list[Path]:
        return self.root_paths(default=[default_projects_root()])

    def read_roots(self) -> list[Path]:
        return self.roots

    @property
    def history(self) -> Path | None:
        value = self.options.get("history", True)
        if value is False or value == "":
            return None
        if value is True or value is None:
            if self.given_roots():
                return None  # explicit roots read only what they name
            return default_history()
        return Path(value).expanduser()

    # discovery -----------------------------------------------------------------------------
    def transcript_files(self) -> list[Path]:
        files: list[Path] = []
        for root in self.roots:
            if root.is_file() and root.suffix == ".jsonl":
                files.append(root)
                continue
            if not root.is_dir():
                continue
            for folder, dirs, names in os.walk(root):
                dirs[:] = sorted(d for d in dirs if d not in ("tool-results", "memory"))
                for name in sorted(names):
                    if name.endswith(".jsonl"):
                        files.append(Path(folder) / name)
        return files

    def transcript_index(self) -> dict[str, str]:
        """session id -> transcript path, for the prompts whose transcript still exists."""
        if self._transcripts is None:
            index: dict[str, str] = {}
            for path in self.transcript_files():
                if not path.name.startswith("agent-"):
                    index.setdefault(path.stem, str(path))
            self._transcripts = index
        return self._transcripts

    def discover(self):
        cutoff = since_cutoff(self.options)
        for path in self.transcript_files():
            try:
                stat = path.stat()
            except OSError:
                continue
            if cutoff is not None and stat.st_mtime < cutoff:
                continue
            yield Stream(key=f"transcript:{path}", path=path, size=stat.st_size, meta={"kind": "transcript"})
        history = self.history
        if history is not None and history.is_file():
            yield Stream(key=f"history:{history}", path=history, size=history.stat().st_size,
                         meta={"kind": "history"})

    # reading -------------------------------------------------------------------------------
    def read(self, stream: Stream, checkpoint: dict | None) -> ReadBatch:
        path = stream.path or Path(stream.key.split(":", 1)[1])
        if stream.meta.get("kind") == "history" or stream.key.startswith("history:"):
            return read_history(path, checkpoint, self.transcript_index())
        agent_id, parent_session = subagent_identity(path)
        reader = TranscriptReader(
            path,
            body_max=int(self.options.get("body_max", DEFAULT_BODY_MAX)),
            settle_seconds=settle_option(self.options, DEFAULT_SETTLE_SECONDS),
            agent_id=agent_id, parent_session=parent_session, loads=_loads,
        )
        return batch_of(reader.read(checkpoint))


def catch_up_source(days: float) -> ClaudeSource:
    """The SessionStart catch-up's source (`carto_core.capture.catchup`): transcripts changed in
    the last `days` days, plus the prompt history."""
    return ClaudeSource({"since_days": days})


_subagent_identity = subagent_identity  # the older private name
