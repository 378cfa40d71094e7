"""The memory desk: the field of sessions over a window with what each left behind (files,
commits, a wrapup), and a bounded review of one file or commit confined to the session's
repository.

Sessions, their windows and filters are `views.list_sessions` (the same code as `carto
sessions`). A session that logged no hook row (a backfilled one) shows the work its turns
record, through the lenses' own `lenses.turnwork` rule, so the desk and `carto standup` agree.

File review never leaves the session's repository: the repository is the git work tree of the
session's recorded cwd; a requested path with a NUL or a `..` component is refused before the
disk is touched, and a path whose real path (symlinks followed) is outside the repository's
real path is refused (403). Inside it, environment, key and credential files, `.git/` and
anything git ignores are refused too (`review_rules`); a commit's diff leaves them out, and
every text shown is redacted. Git is asked only inside that repository, with a commit given
as hex, and every answer is cut at `REVIEW_BYTES_MAX`.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter

from carto_core.model.events import Event
from carto_core.lenses.sessionfacts import commit_record
from carto_core.model.project import find_git
from carto_core.lenses import views
from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.lenses.sessionstore import stored_summaries, unloaded
from carto_core.serve import review_rules
from carto_core.serve.spec import ApiError

#: Evidence a session may have left (the desk's filter).
EVIDENCE = ("any", "commits", "edits", "wrapup", "no_wrapup", "unresolved")
FILES_PER_SESSION = 8
COMMITS_PER_SESSION = 6
SHARED_FILES = 50
#: A review answer (file text or diff) is cut here; `truncated` says so.
REVIEW_BYTES_MAX = 256 * 1024
#: Read past the limit so that redaction sees a credential the cut would halve (the longest
#: value a rule reads is 400 characters).
REDACT_MARGIN = 512
GIT_TIMEOUT = 15
SHA = re.compile(r"^[0-9a-fA-F]{4,64}$")


def session_work(live: LiveCorpus, session_id: str) -> list[Event]:
    """The session's evidence of work (`lenses.sessionfacts`): its events, plus what its
    turns record when it logged no hook row."""
    from carto_core.lenses.sessionfacts import session_facts

    return session_facts(session_id, views.session_events(live, session_id, unloaded(live))).work


def evidence_of(live: LiveCorpus, session_id: str) -> dict | None:
    """Files, commits and wrapup of one session (None: no such session); computed on first
    use and kept for the corpus generation."""
    memo: dict = live.cached("evidence", dict)  # type: ignore[assignment]
    if session_id in memo:
        return memo[session_id]
    if session_id not in stored_summaries(live):
        return None
    work = session_work(live, session_id)
    files: Counter = Counter()
    for event in work:
        files.update(views.edited_paths(event))
    commits = [c for c in (commit_record(e) for e in work) if c]
    wrapups = [e for e in work if e.row.get("milestone") == "session_wrapup"]
    unresolved = [u for e in wrapups for u in views.strings(e.row.get("unresolved"))]
    insight = next((e.row["key_insight"] for e in reversed(wrapups)
                    if isinstance(e.row.get("key_insight"), str) and e.row["key_insight"]), "")
    cwd = next((e.cwd for e in reversed(work) if e.cwd), "")
    memo[session_id] = found = {"files": files, "commits": commits, "wrapup": bool(wrapups),
                                "unresolved": unresolved, "key_insight": insight, "cwd": cwd}
    return found


def _has(evidence: dict, kind: str) -> bool:
    return {
        "any": True,
        "commits": bool(evidence["commits"]),
        "edits": bool(evidence["files"]),
        "wrapup": evidence["wrapup"],
        "no_wrapup": not evidence["wrapup"],
        "unresolved": bool(evidence["unresolved"]),
    }[kind]


def desk(live: LiveCorpus, *, days: int, project: str | None, provider: str | None,
         evidence: str, limit: int, only: set[str] | None = None) -> dict:
    """The desk's document; `only`: the sessions a tag filter kept."""
    # the kept summaries, as the session list reads them: summarising every session of the
    # corpus again after each new event cost the desk seconds on a large home
    listed = views.list_sessions(live, days=days, project=project, provider=provider,
                                 limit=100_000, with_bursts=True, only=only,
                                 summaries=stored_summaries(live))
    sessions = []
    shared: dict[str, set[str]] = {}
    touches: Counter = Counter()
    providers: Counter = Counter()
    projects: Counter = Counter()
    for summary in listed["sessions"]:
        found = evidence_of(live, summary["session_id"]) or {
            "files": Counter(), "commits": [], "wrapup": False, "unresolved": [], "key_insight": "",
            "cwd": ""}
        if not _has(found, evidence):
            continue
        for path, n in found["files"].items():
            shared.setdefault(path, set()).add(summary["session_id"])
            touches[path] += n
        providers[summary["provider"] or "?"] += 1
        projects[summary["project"] or "?"] += 1
        sessions.append({
            **summary,
            "evidence": [kind for kind in EVIDENCE[1:] if kind != "no_wrapup" and _has(found, kind)],
            "files": [{"path": p, "touches": n} for p, n in found["files"].most_common(FILES_PER_SESSION)],
            "files_total": len(found["files"]),
            "last_commits": [{k: c[k] for k in ("sha", "subject", "timestamp")}
                        for c in found["commits"][-COMMITS_PER_SESSION:]],
            "commits_total": len(found["commits"]),
            "unresolved": found["unresolved"][:5],
            "key_insight": found["key_insight"],
        })
    files = sorted(({"path": p, "sessions": sorted(s), "touches": touches[p]} for p, s in shared.items()),
                   key=lambda f: (-len(f["sessions"]), -f["touches"], f["path"]))
    return {
        "window": {"days": days, "project": project or "", "provider": provider or "",
                   "evidence": evidence},
        "sessions": sessions[:limit],
        "total": len(sessions),
        "files": files[:SHARED_FILES],
        "files_total": len(files),
        "providers": dict(providers.most_common()),
        "projects": dict(projects.most_common()),
        "index_generation": live.generation,
    }


# --------------------------------------------------------------------------- file review


def _forbidden(message: str) -> ApiError:
    return ApiError(403, "REVIEW_FORBIDDEN", message)


def repository_of(live: LiveCorpus, session_id: str) -> str:
    """The real path of the session's git work tree, or ApiError 404."""
    if session_id not in stored_summaries(live):
        raise ApiError(404, "SESSION_NOT_FOUND", "no events carry that session id")
    found = evidence_of(live, session_id) or {}
    cwds = [found.get("cwd")] + [e.cwd for e in reversed(session_work(live, session_id))]
    for cwd in cwds:
        if cwd and os.path.isdir(cwd):
            info = find_git(cwd)
            if info is not None:
                return os.path.realpath(str(info.worktree))
    raise ApiError(404, "REPOSITORY_NOT_FOUND",
                   "the session's recorded folder is not in a git repository on this machine")


def confine(repo: str, path: str) -> str:
    """`path` (relative to the repository, or absolute) as a real path inside `repo`."""
    if "\x00" in path:
        raise _forbidden("a path with a NUL byte")
    if ".." in re.split(r"[\\/]+", path):
        raise _forbidden("a path with '..' is refused")
    candidate = path if os.path.isabs(path) else os.path.join(repo, path)
    real = os.path.realpath(candidate)
    if real != repo and not real.startswith(repo.rstrip(os.sep) + os.sep):
        raise _forbidden("the path lies outside the session's repository")
    return real


def refuse_hidden(repo: str, requested: str, real: str) -> str:
    """`real`'s path relative to `repo`, unless it (or the path as requested) is one the
    review never shows (`review_rules`) or git ignores: then 403."""
    rel = os.path.relpath(real, repo)
    asked = requested if not os.path.isabs(requested) else os.path.relpath(requested, repo)
    for candidate in (asked, rel):
        why = review_rules.refusal(candidate)
        if why is not None:
            raise _forbidden(why)
    if rel != ".":
        # --no-index: the ignore rules decide, tracked or not (a force-added local secret).
        code, _, _ = _git(repo, "check-ignore", "-q", "--no-index", "--", rel)
        if code != 1:  # 0: ignored; 128: git could not tell, so nothing is shown
            raise _forbidden("the repository's ignore rules match this path (builds, caches "
                             "and local secrets live there): never shown")
    return rel


def ignored(repo: str, paths: list[str]) -> list[str]:
    """Those of `paths` (relative to `repo`) its ignore rules match, tracked or not."""
    found: list[str] = []
    for start in range(0, len(paths), 200):
        # (-z needs --stdin; a name holding a line break or a quote is printed quoted and
        # not matched here)
        _, out, _ = _git(repo, "check-ignore", "--no-index", "--", *paths[start:start + 200])
        found.extend(p for p in out.decode("utf-8", "surrogateescape").splitlines() if p)
    return found


def _git(repo: str, *args: str) -> tuple[int, bytes, bool]:
    """(exit code, stdout read up to REVIEW_BYTES_MAX and REDACT_MARGIN, cut: more than
    REVIEW_BYTES_MAX) of git run inside `repo`."""
    try:
        # core.quotePath=false: paths come out as they are named (not octal-quoted), so the
        # names one command prints can be handed to the next.
        child = subprocess.Popen(["git", "-C", repo, "--no-pager", "-c", "core.quotePath=false",
                                  *args], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                                 env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"})
    except OSError as exc:
        raise ApiError(503, "GIT_UNAVAILABLE", f"git cannot run: {exc.strerror}") from None
    try:
        data = child.stdout.read(REVIEW_BYTES_MAX + REDACT_MARGIN)  # type: ignore[union-attr]
        cut = len(data) > REVIEW_BYTES_MAX
        if cut:
            child.kill()
        code = child.wait(GIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        child.kill()
        raise ApiError(503, "GIT_UNAVAILABLE", "git took too long") from None
    finally:
        child.stdout.close()  # type: ignore[union-attr]
    return (0 if cut else code), data, cut


def _text(data: bytes) -> tuple[str | None, bool]:
    """(the text shown, binary) of bytes read up to the limit and a margin: redacted as
    stored text is, then cut at the limit (a credential across the cut is matched within
    the margin, never shown in part)."""
    from carto_core.privacy.redact import redact_text

    if b"\x00" in data[:8192]:
        return None, True
    text = redact_text(data.decode("utf-8", "replace"))
    raw = text.encode("utf-8")
    if len(raw) > REVIEW_BYTES_MAX:
        text = raw[:REVIEW_BYTES_MAX].decode("utf-8", "ignore")
    return text, False


def review(live: LiveCorpus, session_id: str, *, path: str | None, commit: str | None) -> dict:
    repo = repository_of(live, session_id)
    if not path and not commit:
        raise ApiError(400, "REVIEW_TARGET_REQUIRED", "give path, commit or both")
    rel = None
    if path:
        rel = refuse_hidden(repo, path, confine(repo, path))
    out: dict = {"session_id": session_id, "repository": repo, "path": rel, "commit": commit,
                 "limit_bytes": REVIEW_BYTES_MAX}
    if commit:
        if not SHA.match(commit):
            raise ApiError(400, "PARAM_INVALID", "commit must be 4 to 64 hex digits")
        code, head, _ = _git(repo, "show", "-s", "--format=%H%x00%an%x00%aI%x00%s",
                             f"{commit}^{{commit}}", "--")
        if code != 0 or head.count(b"\x00") < 3:
            raise ApiError(404, "COMMIT_NOT_FOUND", "the session's repository has no such commit")
        sha, author, when, subject = head.decode("utf-8", "replace").strip().split("\x00", 3)
        from carto_core.privacy.redact import redact_text

        out["commit"] = {"sha": sha, "author": author, "date": when,
                         "subject": redact_text(subject)}
        _, names, _ = _git(repo, "show", "--format=", "--name-status", "--no-renames", sha, "--")
        out["files"] = [{"status": line.split("\t", 1)[0], "path": line.split("\t", 1)[1]}
                        for line in names.decode("utf-8", "replace").splitlines() if "\t" in line]
        args = ["show", "--format=", "--patch", "--no-color", "--no-ext-diff", sha, "--"]
        hidden = [f":(exclude,literal){p}" for p in ignored(repo, [f["path"] for f in out["files"]])]
        code, diff, cut = _git(repo, *args, *([rel] if rel else ["."]),
                               *review_rules.DIFF_EXCLUDES, *hidden)
        text, binary = _text(diff)
        out.update({"kind": "diff", "text": text, "binary": binary, "truncated": cut,
                    "bytes": min(len(diff), REVIEW_BYTES_MAX)})
        return out
    real = os.path.join(repo, rel or "")
    if not os.path.isfile(real):
        raise ApiError(404, "FILE_NOT_FOUND", "no such file in the session's repository")
    with open(real, "rb") as handle:
        data = handle.read(REVIEW_BYTES_MAX + REDACT_MARGIN)
    size = os.path.getsize(real)
    text, binary = _text(data)
    out.update({"kind": "file", "text": text, "binary": binary,
                "truncated": len(data) > REVIEW_BYTES_MAX, "bytes": size})
    return out
