"""The `codex` source: rollouts under Codex homes into `turns.jsonl`.

Options (from `carto ingest codex` flags or `[sources.codex]` in the config file):

- `roots`: Codex homes (`sessions/` + `archived_sessions/`), folders of rollouts or rollout
  files; default `$CODEX_HOME`, else `~/.codex` (see `carto_core.transcript.resolver`).
- `since`: an aware datetime or a WHEN string (`since_days`, a number of days, is the older
  spelling); rollouts last modified before it are not opened.
- `settle_seconds`: a rollout untouched this long, or whose newest record is this old, is
  finished (default 600; `carto_core.transcript.settle`). A last turn Codex has not closed
  (`turn_complete` / `task_complete`) is written as it stands, `"open": true` until the rollout
  is finished, and rewritten as it grows.
- `body_max`: characters kept of a turn's text (default 50,000, upstream's `TURN_BODY_MAX`).

Checkpoint per rollout (keyed by file name, so archiving a read rollout re-reads nothing):
`carto_codex.rollout.read_rollout`; `offset` is where the first turn not yet final starts.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import orjson

from carto_core.api import (
    ReadBatch, Source, Stream, TranscriptRoots, batch_of, codex_rollouts, settle_option,
    since_cutoff,
)

from carto_codex.rollout import (  # noqa: F401  (CHECKPOINT_VERSION: re-exported)
    CHECKPOINT_VERSION, SETTLE_SECONDS, TURN_BODY_MAX, parent_rollout_lines, read_rollout,
)


class CodexRolloutSource(Source):
    name = "codex"
    provider = "codex"
    description = "Codex CLI rollouts (sessions/ and archived_sessions/) as transcript turns"
    revisable_logs = frozenset({"turns"})

    def __init__(self, options: dict | None = None):
        super().__init__(options)
        self.roots: tuple[Path, ...] = tuple(self.given_roots()) or TranscriptRoots.default().codex
        self.cutoff: float | None = since_cutoff(self.options)
        self.settle_seconds = settle_option(self.options, SETTLE_SECONDS)
        self.body_max = int(self.options.get("body_max", TURN_BODY_MAX))
        #: (path, message) notes for people: torn rollouts, files that are not rollouts.
        self.notes: list[str] = []
        self._parents: dict[str, frozenset[bytes]] = {}

    def read_roots(self) -> list[Path]:
        return list(self.roots)

    def hook_files(self) -> list[Path]:
        """$CODEX_HOME/hooks.json, then this project's ./.codex/hooks.json."""
        from carto_codex.install import default_hooks_path

        return [default_hooks_path(), default_hooks_path(project=True)]

    def hook_problems(self, path: Path, settings: dict) -> list[dict]:
        """Codex skips hooks the user has not trusted (silently under `codex exec`; a run that
        bypasses hook trust runs them): each carto handler of `path` that is untrusted, modified
        since it was trusted, or disabled; and a config that turns hooks off."""
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
        fix = ("`carto install codex --trust` (records trust for carto's handlers only), or run "
               "`codex` in a terminal and approve them under /hooks")
        for status, what in (("untrusted", "never trusted"), ("modified", "changed since they were trusted")):
            entries = by_status.get(status, [])
            if entries:
                names = sorted({e["event"] for e in entries})
                hooks = f"{len(entries)} of carto's hooks" if len(entries) != 1 else "one of carto's hooks"
                events = (f"on {len(names)} events: " if len(names) != len(entries) else "") + ", ".join(names)
                problems.append({"problem": f"codex: {hooks} in {path} {what} ({events}); Codex runs "
                                            "them only when hook trust is bypassed (`codex "
                                            "--dangerously-bypass-hook-trust`) and otherwise skips "
                                            "them, `codex exec` without a word",
                                 "fix": fix})
        if by_status.get("disabled"):
            events = ", ".join(sorted({e["event"] for e in by_status["disabled"]}))
            problems.append({"problem": f"codex: carto hook(s) in {path} disabled in {config_file} ({events})",
                             "fix": "enable them in `codex` under /hooks (carto never re-enables what you turned off)"})
        return problems

    def discover(self):
        seen: set[str] = set()
        cutoff = self.cutoff
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
        read = read_rollout(path, checkpoint, settle_seconds=self.settle_seconds,
                            body_max=self.body_max, loads=orjson.loads,
                            parent_lines=self._parent_lines)
        self.notes.extend(read.messages)
        return batch_of(read)

    def _parent_lines(self, parent: str) -> frozenset[bytes]:
        """Raw lines of a sub-agent's parent rollout (found by the shared resolver)."""
        if parent not in self._parents:
            self._parents[parent] = parent_rollout_lines(parent, self.roots)
        return self._parents[parent]



def catch_up_source(days: float) -> CodexRolloutSource:
    """The SessionStart catch-up's source (`carto_core.capture.catchup`): rollouts changed in the
    last `days` days."""
    from datetime import timedelta, timezone

    return CodexRolloutSource({"since": datetime.now(timezone.utc) - timedelta(days=days)})
