"""`GET /api/transcript`: a transcript found by the one resolver, confined to the roots, read
as messages for display.

Confinement is decided on real paths (symlinks followed): a file is served only when its real
path lies inside the real path of a configured transcript root. A requested path with a `..`
component, a relative path or a NUL is refused before the disk is touched; an existing file
outside the roots is refused (403), not hunted around. Only a recorded path that no longer
exists goes through the resolver's archive and session-id steps, whose answers are confined too.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from carto_core.serve.spec import ApiError
from carto_core.transcript.resolver import (
    HOW_RECORDED,
    TranscriptRoots,
    codex_rollouts,
    find_session,
    guess_provider,
    resolve_transcript,
    session_id_from_path,
)

SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$")
#: A message's text is cut here for display (the page shows the start and says it was cut).
MESSAGE_TEXT_MAX = 20_000


def roots_list(roots: TranscriptRoots) -> list[str]:
    out = []
    for root in (*roots.claude, *roots.codex):
        try:
            out.append(os.path.realpath(root))
        except (OSError, ValueError):
            continue
    return out


def inside_roots(path: str | os.PathLike, roots: TranscriptRoots) -> bool:
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return False
    for root in roots_list(roots):
        if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
            return True
    return False


def provider_of(path: Path, roots: TranscriptRoots) -> str:
    """`claude` or `codex` by the root the file lies in, else by its name."""
    for provider, folders in (("claude", roots.claude), ("codex", roots.codex)):
        if folders and inside_roots(path, TranscriptRoots(**{provider: folders})):
            return provider
    return guess_provider(path) or ""


def _forbidden(message: str) -> ApiError:
    return ApiError(403, "TRANSCRIPT_FORBIDDEN", message)


def locate(path: str | None, session_id: str | None, roots: TranscriptRoots) -> tuple[Path, str]:
    """(file, path_status) for a request, or ApiError (400/403/404)."""
    if not path and not session_id:
        raise ApiError(400, "TRANSCRIPT_PATH_REQUIRED", "give path or session_id")
    if session_id and not SESSION_ID.match(session_id):
        raise ApiError(400, "PARAM_INVALID", "session_id must be letters, digits, '_', '-', '.'")
    if path:
        if "\x00" in path:
            raise _forbidden("a path with a NUL byte")
        parts = re.split(r"[\\/]+", path)
        if ".." in parts:
            raise _forbidden("a path with '..' is refused")
        if not os.path.isabs(path):
            raise _forbidden("a transcript path must be absolute (as recorded)")
        if os.path.lexists(path):
            if not inside_roots(path, roots):
                raise _forbidden("the path lies outside the configured transcript roots")
            if not os.path.isfile(path):
                raise ApiError(404, "TRANSCRIPT_NOT_FOUND", "not a file")
            return Path(path), "recorded"
        resolved = resolve_transcript(path, session_id, roots=roots)
        found, how = resolved.path, resolved.how
    else:
        found, how = find_session(session_id or "", roots=roots), "session_hunt"
    if found is None:
        raise ApiError(404, "TRANSCRIPT_NOT_FOUND", "no transcript found for that path or session")
    if not inside_roots(found, roots):
        raise _forbidden("the transcript found lies outside the configured transcript roots")
    return Path(found), ("recorded" if how == HOW_RECORDED else "resolved")


def here(sessions: list[dict], roots: TranscriptRoots) -> dict[str, bool]:
    """session id -> whether `locate` finds its transcript on this machine, for many sessions
    (the desk's cards): the answer `locate` gives, without a hunt through every root per
    session whose transcript is gone (Claude Code deletes old transcripts: a desk over months
    holds many). One listing of the roots' transcript file names tells which sessions could
    be found; only those, and sessions whose recorded file exists, are asked of `locate`."""
    ids: set[str] | None = None
    out: dict[str, bool] = {}
    for session in sessions:
        sid, path = session["session_id"], session.get("transcript_path") or None
        if not (path and os.path.isfile(path)):
            if ids is None:
                ids = _transcript_ids(roots)
            if not any(i and i.strip().lower() in ids for i in (sid, session_id_from_path(path))):
                out[sid] = False
                continue
        try:
            locate(path, sid, roots)
        except ApiError:
            out[sid] = False
        else:
            out[sid] = True
    return out


def _transcript_ids(roots: TranscriptRoots) -> set[str]:
    """What a session id `find_session` finds under the roots can be: each transcript file's
    name without `.jsonl`, and every tail of it after a `-` or `_` (a rollout's name ends with
    its id; `agent-<sid>`), lower case."""
    names = [path.name for path in codex_rollouts(roots.codex)]
    for root in roots.claude:
        try:
            projects = [e.path for e in os.scandir(root) if e.is_dir()]
        except OSError:
            projects = []
        folders = [str(root), *projects]
        for project in projects:
            try:
                folders += [os.path.join(e.path, "subagents") for e in os.scandir(project) if e.is_dir()]
            except OSError:
                continue
        for folder in folders:
            try:
                names += [e.name for e in os.scandir(folder) if e.name.endswith(".jsonl")]
            except OSError:
                continue
    ids: set[str] = set()
    for name in names:
        stem = name[: -len(".jsonl")].lower() if name.endswith(".jsonl") else name.lower()
        ids.add(stem)
        ids.update(stem[i + 1:] for i, char in enumerate(stem) if char in "-_")
    return ids


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict):
                kind = block.get("type")
                if isinstance(block.get("text"), str):
                    parts.append(block["text"])
                elif kind == "tool_use":
                    parts.append(f"[tool call: {block.get('name', '?')}]")
                # tool results and thinking are not messages a person wrote or read

        return "\n".join(p for p in parts if p)
    return ""


def message_of(row: object) -> dict | None:
    """A displayable message from one transcript line (Claude or Codex shape), else None."""
    if not isinstance(row, dict):
        return None
    timestamp = row.get("timestamp") if isinstance(row.get("timestamp"), str) else None
    kind = row.get("type")
    if kind in ("user", "assistant") and isinstance(row.get("message"), dict):
        message = row["message"]
        role = message.get("role") if isinstance(message.get("role"), str) else kind
        text = _text_of(message.get("content"))
    elif kind == "response_item" and isinstance(row.get("payload"), dict):
        payload = row["payload"]
        if payload.get("type") != "message":
            return None
        role = payload.get("role") if isinstance(payload.get("role"), str) else "unknown"
        text = _text_of(payload.get("content"))
    else:
        return None
    if not text.strip():
        return None
    cut = len(text) > MESSAGE_TEXT_MAX
    return {"role": role, "timestamp": timestamp, "text": text[:MESSAGE_TEXT_MAX],
            "truncated": cut}


def open_transcript(path: Path):
    """The located transcript opened for reading (binary), or ApiError 503."""
    try:
        return open(path, "rb")
    except OSError as exc:
        raise ApiError(503, "TRANSCRIPT_UNREADABLE", f"cannot read the transcript: {exc.strerror}")


def read_messages(path: Path, offset: int, limit: int) -> tuple[list[dict], int]:
    messages: list[dict] = []
    total = 0
    with open_transcript(path) as handle:
        for raw in handle:
            try:
                row = json.loads(raw)
            except ValueError:
                continue
            message = message_of(row)
            if message is None:
                continue
            if offset <= total < offset + limit:
                messages.append(message)
            total += 1
    return messages, total


def transcript_answer(path: str | None, session_id: str | None, roots: TranscriptRoots,
                      offset: int, limit: int) -> dict:
    found, status = locate(path, session_id, roots)
    if found.stat().st_size == 0:
        raise ApiError(404, "TRANSCRIPT_EMPTY", "the transcript is empty")
    messages, total = read_messages(found, offset, limit)
    if total == 0:
        raise ApiError(422, "TRANSCRIPT_NO_MESSAGES", "the transcript holds no readable messages")
    return {"path": str(found), "path_status": status, "provider": provider_of(found, roots),
            "messages": messages, "total": total, "offset": offset, "limit": limit}
