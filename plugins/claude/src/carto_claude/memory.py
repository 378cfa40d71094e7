"""Claude Code's memory files as a source (`carto ingest claude-memory`): the auto-memory
folders `~/.claude/projects/<project>/memory/*.md` (MEMORY.md and its topic files), the user's
`~/.claude/CLAUDE.md`, and the `CLAUDE.md` files (`CLAUDE.md`, `.claude/CLAUDE.md`,
`CLAUDE.local.md`) of the projects the home has seen (the working folders its logs name, at
their repository's main checkout). Rows, revisions and deletions: `carto_core.model.memoryfiles`.

Options (`carto ingest claude-memory` flags or `[sources.claude-memory]`): `roots` (Claude
`projects/` folders; default `~/.claude/projects`), `projects` (folders whose CLAUDE.md to read,
instead of the home's working folders), `claude_md` (false: auto-memory only), `home` (the carto
home whose logs name the projects; default the current one).
"""

from __future__ import annotations

import os
from pathlib import Path

from carto_core.api import Entry, ReadBatch, Source, Stream, cwds_in_home, read_entries, read_text

from carto_claude.turns import claude_dir, default_projects_root

CLAUDE_MD_NAMES = ("CLAUDE.md", os.path.join(".claude", "CLAUDE.md"), "CLAUDE.local.md")


def folder_project(folder: Path) -> tuple[str, str | None]:
    """(project, cwd) of a `projects/<encoded cwd>` folder: the cwd its transcripts record
    (first lines of the newest one), else the encoded name's last part."""
    import json

    from carto_core.api import project_for

    try:
        transcripts = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        transcripts = []
    for path in transcripts[:3]:
        try:
            with open(path, "rb") as handle:
                for _, raw in zip(range(40), handle):
                    try:
                        line = json.loads(raw)
                    except ValueError:
                        continue
                    cwd = line.get("cwd") if isinstance(line, dict) else None
                    if isinstance(cwd, str) and cwd:
                        return project_for(cwd), cwd
        except OSError:
            continue
    return folder.name.rsplit("-", 1)[-1] or folder.name, None


class ClaudeMemorySource(Source):
    """Claude Code's auto-memory folders and the CLAUDE.md files of the projects seen."""

    name = "claude-memory"
    provider = "claude"
    description = "Claude Code auto-memory (~/.claude/projects/*/memory/*.md) and projects' CLAUDE.md -> changelog memory events"
    revisable_logs = frozenset({"changelog"})

    @property
    def roots(self) -> list[Path]:
        return self.root_paths(default=[default_projects_root()])

    def discover(self):
        for root in self.roots:
            if root.is_dir():
                yield Stream(key=f"auto-memory:{root}", path=root, meta={"kind": "auto-memory"})
        if self.options.get("claude_md", True) is not False:
            yield Stream(key="claude-md", meta={"kind": "claude-md"})

    def read(self, stream: Stream, checkpoint: dict | None) -> ReadBatch:
        if stream.meta.get("kind") == "claude-md" or stream.key == "claude-md":
            return read_entries(self._claude_md_entries(), checkpoint, provider="claude",
                                type_prefix="memory_claude_")
        root = stream.path or Path(stream.key.split(":", 1)[1])
        return read_entries(self._auto_memory_entries(root), checkpoint, provider="claude",
                            type_prefix="memory_claude_")

    def _auto_memory_entries(self, root: Path) -> list[Entry]:
        entries = []
        for folder in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
            memory = folder / "memory"
            if not memory.is_dir():
                continue
            project, cwd = folder_project(folder)
            for path in sorted(memory.glob("*.md")):
                text = read_text(path)
                if text is None:
                    continue
                entries.append(Entry(key=f"claude-memory:{folder.name}/{path.name}", path=path, text=str(text),
                                     kind="auto_memory", project=project, cwd=cwd, carto_section=text.carto,
                                     invalid_utf8=text.invalid))
        return entries

    def _project_folders(self) -> list[str]:
        given = self.options.get("projects")
        if given:
            return [os.path.expanduser(str(p)) for p in ([given] if isinstance(given, str) else given)]
        from carto_core.api import Home, current_home

        home = self.options.get("home")
        home = Home(home) if isinstance(home, (str, os.PathLike)) else (home or current_home())
        return cwds_in_home(home)

    def _claude_md_entries(self) -> list[Entry]:
        from carto_core.api import find_git, project_for

        candidates: dict[str, tuple[Path, str, str]] = {}
        user = claude_dir() / "CLAUDE.md"
        candidates[str(user)] = (user, "user", "")
        for cwd in self._project_folders():
            info = find_git(cwd) if os.path.isdir(cwd) else None
            root = str(info.main_worktree) if info is not None else cwd
            for name in CLAUDE_MD_NAMES:
                path = Path(root) / name
                candidates.setdefault(str(path), (path, project_for(root), root))
        entries = []
        for key, (path, project, cwd) in sorted(candidates.items()):
            if not path.is_file():
                continue
            text = read_text(path)
            if text is None:
                continue
            entries.append(Entry(key=f"claude-md:{key}", path=path, text=str(text),
                                 kind="user_claude_md" if project == "user" else "claude_md",
                                 project="" if project == "user" else project, cwd=cwd or None,
                                 carto_section=text.carto, invalid_utf8=text.invalid))
        return entries
