"""The `codex` source: rollouts under Codex homes into `turns.jsonl`.

Options (from `carto ingest codex` flags or `[sources.codex]` in the config file):

- `roots`: Codex homes (`sessions/` + `archived_sessions/`), folders of rollouts or rollout
  files; default `$CODEX_HOME`, else `~/.codex` (see `carto_core.transcripts`).
- `since`: an aware datetime; rollouts last modified before it are not opened.
- `settle_seconds`: a rollout untouched this long is finished, so its last turn is written
  (default 600); an unfinished last turn waits for the next run unless Codex closed it
  (`turn_complete` / `task_complete`).
- `body_max`: characters kept of a turn's text (default 50,000, upstream's `TURN_BODY_MAX`).

Checkpoint per rollout (keyed by file name, so archiving a read rollout re-reads nothing):
`{size, mtime_ns, offset, state}`; `offset` is where the first unwritten turn starts.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from carto_core.logs import order_row
from carto_core.sources import Emit, ReadBatch, Source, Stream
from carto_core.transcripts import TranscriptRoots, codex_rollouts, find_session, session_id_from_path

from carto_codex.rollout import (
    SETTLE_SECONDS, TURN_BODY_MAX, SessionState, infer_project, parse_rollout, settled,
)

CHECKPOINT_VERSION = 1


class CodexRolloutSource(Source):
    name = "codex"
    provider = "codex"
    description = "Codex CLI rollouts (sessions/ and archived_sessions/) as transcript turns"

    def __init__(self, options: dict | None = None):
        super().__init__(options)
        self.roots: tuple[Path, ...] = tuple(self.given_roots()) or TranscriptRoots.default().codex
        since = self.options.get("since")
        if isinstance(since, str) and since.strip():  # from the config file: the WHEN grammar
            from carto_core.timeparse import parse_when

            since = parse_when(since)
        self.since: datetime | None = since if isinstance(since, datetime) else None
        self.settle_seconds = float(self.options.get("settle_seconds", SETTLE_SECONDS))
        self.body_max = int(self.options.get("body_max", TURN_BODY_MAX))
        #: (path, message) notes for people: torn rollouts, files that are not rollouts.
        self.notes: list[str] = []
        self._parents: dict[str, frozenset[bytes]] = {}

    def hook_files(self) -> list[Path]:
        """$CODEX_HOME/hooks.json, then this project's ./.codex/hooks.json."""
        from carto_codex.install import default_hooks_path

        return [default_hooks_path(), default_hooks_path(project=True)]

    def hook_problems(self, path: Path, settings: dict) -> list[dict]:
        """Codex skips hooks the user has not trusted (silently under `codex exec`): each carto
        handler of `path` that is untrusted, modified since it was trusted, or disabled; and a
        config that turns hooks off."""
        from carto_codex import trust

        config_file = trust.config_path()
        try:
            _, config = trust.load_config(config_file)
        except trust.TrustError as exc:
            return [{"problem": str(exc), "fix": "fix config.toml; Codex cannot read it either"}]
        problems = []
        off = trust.feature_problem(config)
        if off:
            problems.append({"problem": f"codex: {off} ({config_file})",
                             "fix": "remove that line (hooks are on by default), or set it to true"})
        by_status: dict[str, list[dict]] = {}
        for entry in trust.review(path, settings, config):
            by_status.setdefault(entry["status"], []).append(entry)
        fix = ("carto install codex --trust (records trust for carto's handlers only), or run "
               "`codex` in a terminal and approve them under /hooks")
        for status, what in (("untrusted", "never trusted"), ("modified", "changed since they were trusted")):
            entries = by_status.get(status, [])
            if entries:
                events = ", ".join(sorted({e["event"] for e in entries}))
                problems.append({"problem": f"codex: {len(entries)} carto hook(s) in {path} {what} "
                                            f"({events}); Codex skips them, `codex exec` without a word",
                                 "fix": fix})
        if by_status.get("disabled"):
            events = ", ".join(sorted({e["event"] for e in by_status["disabled"]}))
            problems.append({"problem": f"codex: carto hook(s) in {path} disabled in {config_file} ({events})",
                             "fix": "enable them in `codex` under /hooks (carto never re-enables what you turned off)"})
        return problems

    def discover(self):
        seen: set[str] = set()
        cutoff = self.since.timestamp() if self.since is not None else None
        for path in codex_rollouts(self.roots):
            key = f"rollout:{path.name}"
            if key in seen:  # the same rollout live and archived: the live copy is newer
                continue
            seen.add(key)
            try:
                stat = path.stat()
            except OSError:
                continue
            if cutoff is not None and stat.st_mtime < cutoff:
                continue
            yield Stream(key=key, path=path, size=stat.st_size)

    def read(self, stream: Stream, checkpoint: dict | None) -> ReadBatch:
        path = Path(stream.path)
        stat = path.stat()
        if checkpoint and checkpoint.get("v") != CHECKPOINT_VERSION:
            checkpoint = None
        if checkpoint and checkpoint.get("size") == stat.st_size and checkpoint.get("mtime_ns") == stat.st_mtime_ns:
            return ReadBatch(checkpoint=checkpoint)
        offset = 0
        state = None
        if checkpoint and isinstance(checkpoint.get("state"), dict) and 0 < checkpoint.get("offset", 0) <= stat.st_size:
            offset = int(checkpoint["offset"])
            state = SessionState.from_dict(checkpoint["state"])
        with open(path, "rb") as handle:
            handle.seek(offset)
            data = handle.read()
        parent_lines: frozenset[bytes] = frozenset()
        if state is None:
            peek = parse_rollout(data[: data.find(b"\n") + 1] if b"\n" in data else b"")
            if peek.state.parent:
                parent_lines = self._parent_lines(peek.state.parent)
        result = parse_rollout(data, start=offset, state=state, parent_lines=parent_lines)
        state = result.state
        batch = ReadBatch(units=result.lines)
        batch.skipped.update(result.skipped)
        if offset == 0:
            if not state.session:
                state.session = session_id_from_path(path) or ""
            if not state.session:
                raise ValueError(
                    "not a Codex rollout: no session_meta with an id and no session id in the "
                    "file name")
            state.project = infer_project(state.cwd, result.workdirs)
        finished = not result.torn and settled(path, self.settle_seconds)
        resume_at = result.end
        for position, turn in enumerate(result.turns):
            last = position == len(result.turns) - 1
            if last and not (turn.closed or finished):
                resume_at = turn.offset
                batch.skipped["turn_in_progress"] += 1
                break
            batch.rows.append(Emit("turns", self._row(path, state, turn)))
            state.next_idx += 1
        if result.torn:
            note = (f"{path}: last line is cut short (rollout truncated or still being written); "
                    f"it is not read, and its turn waits for the next run")
            batch.messages.append(note)
            self.notes.append(note)
        batch.checkpoint = {
            "v": CHECKPOINT_VERSION,
            "size": stat.st_size,
            "mtime_ns": stat.st_mtime_ns,
            "offset": resume_at,
            "state": state.as_dict(),
        }
        return batch

    def _row(self, path: Path, state: SessionState, turn) -> dict:
        fields = {
            "event_id": f"turn-codex-{state.session}-{state.next_idx}",
            "timestamp": turn.timestamp if isinstance(turn.timestamp, str) else state.meta_timestamp,
            "project": state.project or "unknown",
            "type": "transcript",
            "provider": "codex",
            "summary": turn.body(self.body_max),
            "transcript_path": str(path),
            "session": state.session,
            "turn_idx": state.next_idx,
        }
        if state.parent:
            fields["parent_session"] = state.parent
        if state.cwd:
            fields["cwd"] = state.cwd
        fields.update(turn.calls.fields())  # tool calls, edits, commits (carto_core.turnactivity)
        return order_row("turns", fields)

    def _parent_lines(self, parent: str) -> frozenset[bytes]:
        """Raw lines of a sub-agent's parent rollout (found by the shared resolver)."""
        if parent not in self._parents:
            found = find_session(parent, provider="codex", roots=TranscriptRoots(codex=self.roots))
            lines: frozenset[bytes] = frozenset()
            if found is not None:
                try:
                    lines = frozenset(line.strip() for line in found.read_bytes().splitlines() if line.strip())
                except OSError:
                    pass
            self._parents[parent] = lines
        return self._parents[parent]



def catch_up_source(days: float) -> CodexRolloutSource:
    """The SessionStart catch-up's source (`carto_core.capture.catchup`): rollouts changed in the
    last `days` days."""
    from datetime import timedelta, timezone

    return CodexRolloutSource({"since": datetime.now(timezone.utc) - timedelta(days=days)})
