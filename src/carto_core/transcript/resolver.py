"""The one transcript resolver: where an agent's transcript is now, given where it was recorded.

Rows carry the `transcript_path` the agent reported when the row was written; agents move and
delete those files afterwards (Codex moves a finished rollout from
`sessions/YYYY/MM/DD/` to the flat `archived_sessions/`, and back on unarchive; Claude Code
deletes transcripts after `cleanupPeriodDays`). Every consumer (the explorer, the lenses, the
backfills, the hooks) asks this module, in this order:

1. the recorded path, when it still exists;
2. the archive basename: the same file name in a Codex home's `archived_sessions/` (or, for an
   archived recording, back under `sessions/YYYY/MM/DD/` from the date in the name);
3. a session-id hunt across the Claude `projects/` folders and the Codex homes
   (`<sid>.jsonl`, `agent-<sid>.jsonl`, `rollout-*<sid>.jsonl`).

Roots (first that is set wins): the `roots` argument; `[transcripts] claude = [...]` and
`codex = [...]` in the config file; `$CLAUDE_CONFIG_DIR/projects` (else `~/.claude/projects`)
and `$CODEX_HOME` (else `~/.codex`). A Claude root is a `projects/` folder; a Codex root is a
Codex home (holding `sessions/` and `archived_sessions/`) or any folder of rollouts.

Stdlib only: the hook path and the web server import this.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: A session / thread id at the end of a transcript's file name.
_SID_AT_END = re.compile(
    r"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$"
)
#: `rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl`: the date folders of a live rollout.
_ROLLOUT_DATE = re.compile(r"^rollout-(\d{4})-(\d{2})-(\d{2})T")

HOW_RECORDED = "recorded"
HOW_ARCHIVE = "archive"
HOW_HUNT = "session_hunt"
HOW_MISSING = "missing"


@dataclass(frozen=True)
class TranscriptRoots:
    """Where transcripts live: Claude `projects/` folders and Codex homes."""

    claude: tuple[Path, ...] = ()
    codex: tuple[Path, ...] = ()

    @classmethod
    def default(cls, env: dict | None = None, *, use_config: bool = True) -> "TranscriptRoots":
        """Roots from the config file's `[transcripts]` table, else the agents' defaults."""
        env = os.environ if env is None else env
        claude: list[str] = []
        codex: list[str] = []
        if use_config:
            claude, codex = _configured_roots(env)
        if not claude:
            base = env.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
            claude = [os.path.join(base, "projects")]
        if not codex:
            codex = [env.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")]
        return cls(
            claude=tuple(Path(p).expanduser() for p in claude),
            codex=tuple(Path(p).expanduser() for p in codex),
        )


def _configured_roots(env) -> tuple[list[str], list[str]]:
    try:
        from carto_core.model.config import load_config

        section = load_config(dict(env)).section("transcripts")
    except Exception:  # an unreadable config must not stop a lookup; defaults still apply
        return [], []

    def strings(value) -> list[str]:
        if isinstance(value, str):
            return [value]
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []

    return strings(section.get("claude")), strings(section.get("codex"))


@dataclass(frozen=True)
class Resolved:
    """The answer for one recorded path: where the transcript is now and which step found it."""

    recorded: str
    path: Path | None
    how: str  # recorded | archive | session_hunt | missing

    @property
    def found(self) -> bool:
        return self.path is not None

    def as_dict(self) -> dict:
        return {"recorded": self.recorded, "path": str(self.path) if self.path else None,
                "how": self.how}


def session_id_from_path(path: os.PathLike | str | None) -> str | None:
    """The uuid ending a transcript file name (`<sid>.jsonl`, `rollout-…-<sid>.jsonl`)."""
    if not path:
        return None
    stem = os.path.basename(os.fspath(path))
    if stem.endswith(".jsonl"):
        stem = stem[: -len(".jsonl")]
    match = _SID_AT_END.search(stem)
    return match.group(1).lower() if match else None


def guess_provider(path: os.PathLike | str | None) -> str | None:
    """`codex` for rollouts and paths under `.codex/`, `claude` under `.claude/`, else None."""
    if not path:
        return None
    text = os.fspath(path).replace("\\", "/")
    name = os.path.basename(text)
    if name.startswith("rollout-") or "/.codex/" in text:
        return "codex"
    if "/.claude/" in text:
        return "claude"
    return None


def resolve_transcript(
    recorded: os.PathLike | str | None,
    session_id: str | None = None,
    *,
    provider: str | None = None,
    roots: TranscriptRoots | None = None,
) -> Resolved:
    """Where the transcript recorded as `recorded` (of `session_id`) is now.

    `provider` narrows the hunt (`claude`, `codex`); by default it is guessed from the path and
    both stores are hunted when the guess fails.
    """
    text = os.fspath(recorded) if recorded else ""
    if text and os.path.isfile(text):
        return Resolved(text, Path(text), HOW_RECORDED)
    roots = roots if roots is not None else TranscriptRoots.default()
    provider = provider or guess_provider(text)
    if text and provider in (None, "codex"):
        for candidate in _archive_candidates(Path(text), roots):
            if candidate.is_file():
                return Resolved(text, candidate, HOW_ARCHIVE)
    sid = session_id if session_id and session_id.strip() else session_id_from_path(text)
    if sid:
        found = find_session(sid, provider=provider, roots=roots)
        if found is not None:
            return Resolved(text, found, HOW_HUNT)
    return Resolved(text, None, HOW_MISSING)


def _archive_candidates(recorded: Path, roots: TranscriptRoots) -> Iterator[Path]:
    name = recorded.name
    if not name:
        return
    homes: list[Path] = []
    # The recording's own Codex home first (`<home>/sessions/Y/M/D/x` or `<home>/archived_sessions/x`).
    parts = recorded.parts
    if "sessions" in parts:
        index = len(parts) - 1 - parts[::-1].index("sessions")
        homes.append(Path(*parts[:index]))
    elif recorded.parent.name == "archived_sessions":
        homes.append(recorded.parent.parent)
    homes.extend(roots.codex)
    date = _ROLLOUT_DATE.match(name)
    seen: set[Path] = set()
    for home in homes:
        for candidate in (
            home / "archived_sessions" / name,
            home / "sessions" / date.group(1) / date.group(2) / date.group(3) / name if date else None,
        ):
            if candidate is not None and candidate not in seen:
                seen.add(candidate)
                yield candidate


def find_session(
    session_id: str, *, provider: str | None = None, roots: TranscriptRoots | None = None
) -> Path | None:
    """The transcript file of a session id in the Claude and/or Codex roots, else None.

    A live Codex rollout wins over an archived copy; for Claude the main transcript
    (`<sid>.jsonl`) wins over a subagent file (`agent-<sid>.jsonl`).
    """
    sid = session_id.strip().lower()
    if not sid or "/" in sid or "\\" in sid:
        return None
    roots = roots if roots is not None else TranscriptRoots.default()
    if provider in (None, "codex"):
        for path in codex_rollouts(roots.codex, session_id=sid):
            return path
    if provider in (None, "claude"):
        for root in roots.claude:
            found = _hunt_claude(root, sid)
            if found is not None:
                return found
    return None


def _hunt_claude(root: Path, sid: str) -> Path | None:
    names = (f"{sid}.jsonl", f"agent-{sid}.jsonl")
    direct = [root / n for n in names]  # a root that is itself one project folder
    for path in direct:
        if path.is_file():
            return path
    try:
        projects = sorted(e.path for e in os.scandir(root) if e.is_dir())
    except OSError:
        return None
    for name in names:
        for project in projects:
            path = Path(project) / name
            if path.is_file():
                return path
    # Newest layout: `<project>/<parent sid>/subagents/agent-<sid>.jsonl`.
    for project in projects:
        try:
            parents = [e.path for e in os.scandir(project) if e.is_dir()]
        except OSError:
            continue
        for parent in parents:
            path = Path(parent) / "subagents" / f"agent-{sid}.jsonl"
            if path.is_file():
                return path
    return None


def _scan_rollouts(folder: Path, depth: int) -> Iterator[Path]:
    """`rollout-*.jsonl` files in `folder`, descending `depth` levels (sorted, stable order)."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_file() and entry.name.startswith("rollout-") and entry.name.endswith(".jsonl"):
                yield Path(entry.path)
            elif depth > 0 and entry.is_dir() and not entry.name.startswith("."):
                yield from _scan_rollouts(Path(entry.path), depth - 1)
        except OSError:
            continue


def codex_rollouts(
    roots: tuple[Path, ...] | list[Path], *, session_id: str | None = None
) -> Iterator[Path]:
    """Every rollout under the Codex roots: `sessions/YYYY/MM/DD/` first, then
    `archived_sessions/`; a root that is neither a Codex home nor a rollout file is searched
    up to four folders deep. `session_id` keeps only that thread's files."""
    suffix = f"{session_id.lower()}.jsonl" if session_id else None
    seen: set[str] = set()
    for root in roots:
        root = Path(root)
        if root.is_file():
            candidates: Iterator[Path] = iter([root])
        elif (root / "sessions").is_dir() or (root / "archived_sessions").is_dir():
            candidates = _chain(_scan_rollouts(root / "sessions", 3),
                                _scan_rollouts(root / "archived_sessions", 0))
        else:
            candidates = _scan_rollouts(root, 4)
        for path in candidates:
            if suffix is not None and not path.name.lower().endswith(suffix):
                continue
            key = os.path.realpath(path)
            if key in seen:
                continue
            seen.add(key)
            yield path


def _chain(*iterators: Iterator[Path]) -> Iterator[Path]:
    for iterator in iterators:
        yield from iterator
