"""Which project a Hermes session belongs to, first rule that answers (reference 6.3): cwd /
git root under `corpus_root` (the shared resolver); `path_projects` longest prefix;
`cron_projects[job id]`; the dominant path in tool-call arguments under `corpus_root`
(>= 2 votes and >= 60 %); `default_project`.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

from carto_core.api import find_git, project_for

from carto_hermes.policy import Policy


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


def attribute(policy: Policy, meta: dict, job_id: str, messages: list) -> tuple[str, str]:
    """(project, which rule chose it), in the documented order; `messages` are the session's
    kept `mapping.Message`s (their tool-call paths vote)."""
    root = policy.corpus_root
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
            for prefix in policy.path_projects:
                if (path == prefix or path.startswith(prefix.rstrip("/") + "/")) and len(prefix) > len(best):
                    best = prefix
            if best:
                return policy.path_projects[best], f"path_projects[{best}]"
    if job_id and job_id in policy.cron_projects:
        return policy.cron_projects[job_id], f"cron_projects[{job_id}]"
    votes = Counter(
        name for m in messages for p in m.paths if _under(p, root)
        for name in [_first_segment(p, root)] if name
    )
    if votes:
        name, count = votes.most_common(1)[0]
        if count >= 2 and count / sum(votes.values()) >= 0.6:
            return name, f"dominant tool path ({count} of {sum(votes.values())})"
    return policy.default_project, "default_project"
