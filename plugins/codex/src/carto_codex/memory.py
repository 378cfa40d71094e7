"""Codex's memories as a source (`carto ingest codex-memory`): `<codex home>/memories/`
(`CARTOGRAPHER_CODEX_MEMORIES_DIR` as upstream, else `$CODEX_HOME/memories`, `~/.codex/memories`):
`MEMORY.md` split by its `# Task Group: <name>` headings, `memory_summary.md` by its `## `
sections, and every `rollout_summaries/*.md`. Keys `codex:<relative path>[#<section>]`, as
upstream's `backfill-codex-memories.js`; rows, revisions and deletions: `carto_core.model.memoryfiles`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from carto_core.api import Entry, ReadBatch, Source, Stream, read_entries, read_text, sections


def default_memories() -> Path:
    given = os.environ.get("CARTOGRAPHER_CODEX_MEMORIES_DIR")
    if given:
        return Path(given).expanduser()
    home = os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")
    return Path(home) / "memories"


def _project(text: str) -> str:
    """The project a memory names (`cwd=/x/y` or a `cwd: /x/y` line), else "" (global)."""
    match = re.search(r"\bcwd=(/[^\s;)]+)", text) or re.search(r"^cwd:\s*(/\S+)", text, re.M)
    if not match:
        return ""
    from carto_core.api import project_for

    return project_for(match.group(1).rstrip("/"))


class CodexMemorySource(Source):
    name = "codex-memory"
    provider = "codex"
    description = "Codex memories (~/.codex/memories: MEMORY.md task groups, memory_summary.md, rollout_summaries) -> changelog memory events"
    revisable_logs = frozenset({"changelog"})

    def discover(self):
        for root in self.root_paths(default=[default_memories()]):
            if root.is_dir():
                yield Stream(key=f"codex-memories:{root}", path=root)

    def read(self, stream: Stream, checkpoint: dict | None) -> ReadBatch:
        root = stream.path or Path(stream.key.split(":", 1)[1])
        return read_entries(self.entries(root), checkpoint, provider="codex", type_prefix="memory_codex_")

    def entries(self, root: Path) -> list[Entry]:
        out: list[Entry] = []

        def add(path: Path, section: str, text: str, kind: str, line: int, whole) -> None:
            rel = path.relative_to(root).as_posix()
            out.append(Entry(key=f"codex:{rel}" + (f"#{section}" if section else ""), path=path,
                             text=text, kind=kind, project=_project(text), line=line,
                             carto_section=whole.carto, invalid_utf8=whole.invalid))

        # The registry is cut by task group, the overview by section; a file without its
        # headings is one entry.
        for file_name, heading, kind in (("MEMORY.md", r"^# Task Group:\s*(.+)$", "registry"),
                                         ("memory_summary.md", r"^## (.+)$", "overview")):
            path = root / file_name
            text = read_text(path) if path.is_file() else None
            if text is None:
                continue
            parts = sections(text, heading)
            for name, body, line in parts:
                add(path, name, body, kind, line, text)
            if not parts:
                add(path, "", str(text), kind, 1, text)
        rollouts = root / "rollout_summaries"
        if rollouts.is_dir():
            for path in sorted(rollouts.glob("*.md")):
                text = read_text(path)
                if text is not None:
                    add(path, "", str(text), "rollout", 1, text)
        return out
