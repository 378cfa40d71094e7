"""Finding what Hermes stored: one stream per database (`<hermes home>/state.db` is profile
`default`, every `<hermes home>/profiles/<name>/state.db` its own profile; dot-names and
tombstoned profiles are skipped; backups never read), and one per artifact file the policy's
`artifacts` globs find.
"""

from __future__ import annotations

import os
from pathlib import Path

from carto_core.api import Stream

from carto_hermes.policy import Policy


def databases(policy: Policy, profiles: list[str] | None = None) -> list[tuple[str, Path]]:
    """(profile, state.db path) for the default profile and every live named profile."""
    root = policy.hermes_home
    found: list[tuple[str, Path]] = []
    if (root / "state.db").is_file():
        found.append(("default", root / "state.db"))
    profiles_dir = root / "profiles"
    tombstones = profiles_dir / ".deleted"
    if profiles_dir.is_dir():
        for folder in sorted(profiles_dir.iterdir()):
            if folder.name.startswith(".") or (tombstones / folder.name).exists():
                continue
            if (folder / "state.db").is_file():
                found.append((folder.name, folder / "state.db"))
    # The policy's list bounds what is read; --profile can only narrow it further.
    if policy.profiles is not None:
        found = [(p, path) for p, path in found if p in policy.profiles]
    if profiles:
        found = [(p, path) for p, path in found if p in profiles]
    return [(p, path) for p, path in found if ".openclaw" not in path.resolve().parts]


def artifact_files(policy: Policy) -> list[tuple[int, Path]]:
    """(index of the policy's artifact spec, file) for every file an artifact glob finds."""
    out: list[tuple[int, Path]] = []
    for index, spec in enumerate(policy.artifacts):
        base = spec.dir
        if not base.is_dir() or ".openclaw" in base.resolve().parts:
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            level = len(Path(dirpath).relative_to(base).parts)
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")) if level < spec.depth else []
            for name in sorted(filenames):
                relative = (Path(dirpath) / name).relative_to(base).as_posix()
                if spec.match.search(relative) and not any(x.search(relative) for x in spec.exclude):
                    out.append((index, Path(dirpath) / name))
    return out


def streams(policy: Policy, only: str | None = None, profiles: list[str] | None = None):
    """The streams to read: databases unless `only` is "artifacts", artifacts unless "sessions"."""
    if only in (None, "sessions"):
        for profile, path in databases(policy, profiles):
            yield Stream(key=f"db:{path.resolve()}", path=path, size=path.stat().st_size,
                         meta={"kind": "db", "profile": profile})
    if only in (None, "artifacts"):
        for index, path in artifact_files(policy):
            kind = policy.artifacts[index].kind
            yield Stream(key=f"artifact:{kind}:{path.resolve()}", path=path,
                         size=path.stat().st_size, meta={"kind": "artifact", "spec": index})
