"""The Claude desktop app's local session metadata as a source (`carto ingest claude-desktop`).

The desktop app keeps one small JSON file per session, `local_<uuid>.json`, under
`claude-code-sessions/` (its Code tab: a Claude Code session run by the app, `cliSessionId`
naming the transcript under `~/.claude/projects`) and `local-agent-mode-sessions/` (Cowork,
the local agent mode), each under `<account id>/<workspace id>/`, in the app's data folder:

| system | folder |
|---|---|
| macOS | `~/Library/Application Support/Claude/` (`Claude-3p/` for third-party-provider builds) |
| Windows | `%APPDATA%\\Claude\\` (an MSIX install: `%LOCALAPPDATA%\\Packages\\<Claude package>\\LocalCache\\Roaming\\Claude\\`) |
| Linux | no official build; community builds use `$XDG_CONFIG_HOME/Claude/` (`~/.config/Claude/`) |

Read (when present): `sessionId`, `cliSessionId`, `title`, `cwd` (else `originCwd`,
`worktreePath`, `userSelectedFolders[0]`), `model`, `createdAt` / `lastActivityAt` (epoch ms),
`scheduledTaskId`, and a first prompt from `initialMessage`, `initialPrompt`, `prompt` or
`firstMessage`. A `deleted_<uuid>.json` tombstone marks the session deleted. What this is built
on is said in docs/providers/claude-desktop.md: the folders and the `local_*.json` fields are
documented by third-party tools that read them, not by Anthropic, and the prompt keys are a
guess; the source reads what it finds and counts what it cannot.

Rows: a changelog row per session (`type: desktop_session`, id `desktop-<uuid>`, summary
"Desktop session: <title>", `session_id` the Claude Code session when the app names one, so
the session's turns and this row meet) and, when the file holds a prompt, a prompt-history row
(`desktop-prompt-<uuid>`, classified like every prompt). A renamed session revises its row
(same id, the newest row wins); a tombstone appends `desktop_state: "deleted"`.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from carto_core.api import Emit, ReadBatch, Source, Stream, order_row

KINDS = {"claude-code-sessions": "code", "local-agent-mode-sessions": "cowork"}
PROMPT_KEYS = ("initialMessage", "initialPrompt", "prompt", "firstMessage")
CWD_KEYS = ("cwd", "originCwd", "worktreePath")
CHECKPOINT_VERSION = 1


def default_app_dirs(env: dict | None = None, platform: str | None = None) -> list[Path]:
    """The desktop app's data folders on this system (those that exist are read)."""
    env = os.environ if env is None else env
    platform = platform or sys.platform
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    if platform == "darwin":
        base = home / "Library" / "Application Support"
        return [base / "Claude", base / "Claude-3p"]
    if platform.startswith("win"):
        out = []
        if env.get("APPDATA"):
            out.append(Path(env["APPDATA"]) / "Claude")
        if env.get("LOCALAPPDATA"):
            packages = Path(env["LOCALAPPDATA"]) / "Packages"
            out.extend(sorted(packages.glob("*Claude*/LocalCache/Roaming/Claude")) if packages.is_dir() else [])
        return out
    config = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    return [config / "Claude"]


def _iso_ms(value) -> str | None:
    import time

    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if isinstance(value, str) and value[:2] == "20":
            from carto_core.api import format_timestamp, parse_timestamp

            moment = parse_timestamp(value)
            return format_timestamp(moment) if moment else None
        return None
    seconds = value / 1000.0 if value > 1e11 else float(value)
    try:
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))
    except (OverflowError, OSError, ValueError):
        return None


def _text(value) -> str:
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, list):  # content blocks
        return " ".join(_text(v.get("text")) if isinstance(v, dict) else _text(v) for v in value).strip()
    if isinstance(value, dict):
        return _text(value.get("text") or value.get("content"))
    return ""


class ClaudeDesktopSource(Source):
    """Claude desktop app session metadata (Code tab and Cowork): titles and first prompts."""

    name = "claude-desktop"
    provider = "claude"
    description = ("Claude desktop app sessions (claude-code-sessions/, local-agent-mode-sessions/ in "
                   "~/Library/Application Support/Claude, %APPDATA%\\Claude or ~/.config/Claude) "
                   "-> titles and prompts")
    revisable_logs = frozenset({"changelog", "prompts"})

    def discover(self):
        for root in self.root_paths(default=default_app_dirs()):
            for folder, kind in KINDS.items():
                path = root / folder
                if path.is_dir():
                    yield Stream(key=f"desktop:{path}", path=path, meta={"kind": kind})

    def read(self, stream: Stream, checkpoint: dict | None) -> ReadBatch:
        from carto_core.api import project_for

        root = stream.path or Path(stream.key.split(":", 1)[1])
        kind = stream.meta.get("kind") or KINDS.get(root.name, "code")
        batch = ReadBatch()
        seen = dict(checkpoint.get("files", {})) if isinstance(checkpoint, dict) and \
            checkpoint.get("version") == CHECKPOINT_VERSION else {}
        # session files sit in <account>/<workspace>/ (a level more tolerated); a Cowork
        # session's own folder local_<uuid>/ holds what it worked on, never a session file
        files = sorted(p for p in root.rglob("*.json") if p.name.startswith(("local_", "deleted_"))
                       and len(p.relative_to(root).parts) <= 4
                       and not any(part.startswith("local_") for part in p.relative_to(root).parts[:-1]))
        # a tombstone wins over the session file it deletes (the app may leave both)
        tombstoned = {p.stem[len("deleted_"):] for p in files if p.name.startswith("deleted_")}
        for path in files:
            batch.units += 1
            if path.name.startswith("local_") and path.stem[len("local_"):] in tombstoned:
                batch.skipped["deleted"] += 1
                continue
            try:
                stat = path.stat()
                raw = path.read_bytes()
            except OSError as exc:
                batch.messages.append(f"{path}: {exc}")
                continue
            stamp = [stat.st_size, stat.st_mtime_ns]
            if seen.get(str(path)) == stamp:
                batch.skipped["unchanged"] += 1
                continue
            try:
                data = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                batch.skipped["invalid_utf8"] += 1
                continue
            except ValueError:
                batch.skipped["broken_json"] += 1
                continue
            if not isinstance(data, dict):
                batch.skipped["not_an_object"] += 1
                continue
            local = str(data.get("sessionId") or path.stem.split("_", 1)[-1])
            local = local[len("local_"):] if local.startswith("local_") else local
            deleted = path.name.startswith("deleted_")
            cwd = next((data[k] for k in CWD_KEYS if isinstance(data.get(k), str) and data[k]), None)
            folders = data.get("userSelectedFolders")
            if cwd is None and isinstance(folders, list) and folders and isinstance(folders[0], str):
                cwd = folders[0]
            created = _iso_ms(data.get("createdAt")) or _iso_ms(data.get("lastActivityAt")) or \
                _iso_ms(stat.st_mtime)
            title = _text(data.get("title")) or "(untitled)"
            cli = data.get("cliSessionId") if isinstance(data.get("cliSessionId"), str) else None
            project = project_for(cwd) if cwd else None
            fields = {
                "event_id": f"desktop-{local}", "timestamp": created, "type": "desktop_session",
                "provider": "claude", "session_id": cli or None, "project": project or None,
                "cwd": cwd, "summary": (f"Desktop session deleted: {title}" if deleted
                                        else f"Desktop session ({kind}): {title}"),
                "related_ids": [], "salience": 0.5, "desktop_kind": kind,
                "desktop_session_id": local, "title": title,
                "model": data.get("model") if isinstance(data.get("model"), str) else None,
                "scheduled_task_id": data.get("scheduledTaskId") if isinstance(data.get("scheduledTaskId"), str) else None,
                "desktop_state": "deleted" if deleted else "current", "metadata_path": str(path),
            }
            batch.rows.append(Emit("changelog", order_row("changelog", fields)))
            prompt = next((_text(data[k]) for k in PROMPT_KEYS if _text(data.get(k))), "")
            if prompt and not deleted:
                batch.rows.append(Emit("prompts", order_row("prompts", {
                    "event_id": f"desktop-prompt-{local}", "timestamp": created, "type": "prompt",
                    "provider": "claude", "summary": prompt, "project": project or None, "cwd": cwd,
                    "session_id": cli or None, "salience": 0.6, "desktop_kind": kind,
                    "desktop_session_id": local})))
            seen[str(path)] = stamp
        batch.checkpoint = {"version": CHECKPOINT_VERSION, "files": seen}
        return batch
