"""The Hermes policy file (`hermes.json`): required, validated, and found in documented places.

There is no built-in default policy: which Hermes channels count, which projects are private and
which lines must never be written are decisions only the user can make, so the adapter refuses
to run without the file and says where it looked (upstream rule, reference 6.3).

Search order (first that exists wins; `--print-config-path` shows the answer):

1. `--config PATH` (must exist);
2. `$CARTO_HERMES_CONFIG` (must exist);
3. `$XDG_CONFIG_HOME/carto/hermes.json` (`~/.config/carto/hermes.json`);
4. `$XDG_CONFIG_HOME/session-cartographer/hermes.json` (an upstream install's file).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from carto_core.api import ExitCode


class HermesError(Exception):
    """A Hermes run that cannot go on; `exit_code` is from carto's documented enum."""

    exit_code: ExitCode = ExitCode.ERROR


class PolicyError(HermesError):
    """A missing, unreadable or invalid policy file (the caller can fix it: a usage error)."""

    exit_code = ExitCode.USAGE


#: Channels read when the file sets no `sources`: upstream's example list plus `cli`, Hermes's
#: terminal channel and main one for coding (reference formats.md section 3.3); the gateway's
#: channels (telegram, discord, ...) are chats with other people, read only when listed.
DEFAULT_SOURCES = ["cli", "desktop", "acp", "subagent", "cron"]

#: key -> (accepted types, default). `hermes_home`/`corpus_root` defaults resolve at load time.
KEYS: dict[str, tuple[tuple[type, ...], object]] = {
    "hermes_home": ((str, type(None)), None),
    "profiles": ((list, type(None)), None),
    "sources": ((list,), DEFAULT_SOURCES),
    "min_user_prompts": ((int,), 2),
    "default_project": ((str,), "hermes"),
    "corpus_root": ((str,), "~/Documents/dev"),
    "path_projects": ((dict,), {}),
    "cron_projects": ((dict,), {}),
    "cron_skip_turns": ((list,), []),
    "exclude_projects": ((list,), []),
    "redact_patterns": ((list,), []),
    "artifacts": ((list,), []),
    "busy_timeout_ms": ((int,), 5000),
    "settle_seconds": ((int,), 3600),
}

ARTIFACT_KEYS: dict[str, tuple[tuple[type, ...], object]] = {
    "kind": ((str,), None),
    "dir": ((str,), None),
    "match": ((str,), r"\.md$"),
    "exclude": ((list,), [r"(^|/)README\.md$"]),
    "depth": ((int,), 0),
    "salience": ((int, float), 0.7),
    "project": ((str, type(None)), None),
}

_KIND = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def default_hermes_home(env: dict | None = None) -> Path:
    """Where Hermes keeps its data when a policy does not say: `$HERMES_HOME`, else ~/.hermes."""
    env = os.environ if env is None else env
    return Path(env.get("HERMES_HOME") or "~/.hermes").expanduser()


def candidate_paths(explicit: str | None = None, env: dict | None = None) -> list[tuple[Path, str]]:
    """(path, why) in search order; an explicit path or the env var is the only candidate."""
    env = os.environ if env is None else env
    if explicit:
        return [(Path(explicit).expanduser(), "--config")]
    if env.get("CARTO_HERMES_CONFIG"):
        return [(Path(env["CARTO_HERMES_CONFIG"]).expanduser(), "CARTO_HERMES_CONFIG")]
    xdg = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return [
        (Path(xdg) / "carto" / "hermes.json", "carto config folder"),
        (Path(xdg) / "session-cartographer" / "hermes.json", "upstream config folder"),
    ]


def find_policy(explicit: str | None = None, env: dict | None = None) -> tuple[Path | None, list[Path]]:
    """(the file to use or None, every path looked at)."""
    candidates = candidate_paths(explicit, env)
    for path, _ in candidates:
        if path.is_file():
            return path, [p for p, _ in candidates]
    return None, [p for p, _ in candidates]


@dataclass
class Artifact:
    kind: str
    dir: Path
    match: re.Pattern
    exclude: list[re.Pattern]
    depth: int
    salience: float
    project: str | None


@dataclass
class Policy:
    path: Path | None
    raw: dict
    hermes_home: Path
    profiles: list[str] | None
    sources: list[str]
    min_user_prompts: int
    default_project: str
    corpus_root: Path
    path_projects: dict[str, str]
    cron_projects: dict[str, str]
    cron_skip_turns: list[str]
    exclude_projects: list[str]
    redact_patterns: list[re.Pattern]
    artifacts: list[Artifact] = field(default_factory=list)
    busy_timeout_ms: int = 5000
    settle_seconds: int = 3600

    @property
    def digest(self) -> str:
        """Identifies the rules: a checkpoint made under other rules is not trusted."""
        text = json.dumps(self.raw, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def excluded(self, *values: str | None) -> str | None:
        """The exclude term found (case-insensitive substring) in any value, else None."""
        for term in self.exclude_projects:
            lowered = term.lower()
            for value in values:
                if value and lowered in value.lower():
                    return term
        return None

    @property
    def line_patterns(self) -> list[re.Pattern]:
        """Line-level exclusion: the redact patterns plus every excluded project's name."""
        names = [re.compile(re.escape(term), re.IGNORECASE) for term in self.exclude_projects if term]
        return [*self.redact_patterns, *names]


def load_policy(explicit: str | None = None, env: dict | None = None) -> Policy:
    """Find, read and validate the policy file; PolicyError says what and where."""
    env = os.environ if env is None else env
    path, looked = find_policy(explicit, env)
    if path is None:
        places = "\n  ".join(str(p) for p in looked)
        raise PolicyError(
            "no Hermes policy file (the adapter never runs without one: there is no default "
            f"policy)\nLooked in:\n  {places}\n"
            "Create one (docs/providers/hermes.md has a commented example) or pass --config PATH."
        )
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(f"cannot read Hermes policy file {path}: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise PolicyError(f"Hermes policy file {path} is not valid JSON: {exc}") from None
    return policy_from_dict(data, path=path, env=env)


def policy_from_dict(data: object, *, path: Path | None = None, env: dict | None = None) -> Policy:
    env = os.environ if env is None else env
    where = str(path) if path else "Hermes policy"
    if not isinstance(data, dict):
        raise PolicyError(f"{where}: the policy must be a JSON object, not {type(data).__name__}")
    problems: list[str] = []
    values: dict = {}
    for key, value in data.items():
        if key.startswith("_") or key == "$schema":
            continue  # comments
        if key not in KEYS:
            problems.append(f"unknown key {key!r} (accepted: {', '.join(KEYS)})")
    for key, (types, default) in KEYS.items():
        value = data.get(key, default)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            names = " or ".join(t.__name__ for t in types)
            problems.append(f"{key} must be {names}, not {type(value).__name__}")
            continue
        values[key] = value
    for key in ("profiles", "sources", "cron_skip_turns", "exclude_projects", "redact_patterns"):
        items = values.get(key)
        if isinstance(items, list) and not all(isinstance(x, str) for x in items):
            problems.append(f"{key} must be a list of strings")
    for key in ("path_projects", "cron_projects"):
        mapping = values.get(key)
        if isinstance(mapping, dict) and not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in mapping.items()
        ):
            problems.append(f"{key} must map strings to non-empty project names")
    for key in ("min_user_prompts", "busy_timeout_ms", "settle_seconds"):
        if isinstance(values.get(key), int) and values[key] < 0:
            problems.append(f"{key} must not be negative")
    patterns: list[re.Pattern] = []
    for pattern in values.get("redact_patterns") or []:
        if not isinstance(pattern, str):
            continue
        try:
            patterns.append(re.compile(pattern))
        except re.error as exc:
            problems.append(f"redact_patterns: {pattern!r} is not a valid regex: {exc}")
    artifacts = _artifacts(values.get("artifacts") or [], problems)
    if problems:
        raise PolicyError(f"{where} is invalid:\n  " + "\n  ".join(problems))
    hermes_home = Path(values["hermes_home"]).expanduser() if values["hermes_home"] else default_hermes_home(env)
    if ".openclaw" in hermes_home.resolve().parts:
        raise PolicyError(f"{where}: hermes_home {hermes_home} resolves under .openclaw; refused")
    return Policy(
        path=path,
        raw={k: v for k, v in data.items() if not k.startswith("_")},
        hermes_home=hermes_home,
        profiles=values["profiles"],
        sources=values["sources"],
        min_user_prompts=values["min_user_prompts"],
        default_project=values["default_project"],
        corpus_root=Path(values["corpus_root"]).expanduser(),
        path_projects={str(Path(k).expanduser()): v for k, v in values["path_projects"].items()},
        cron_projects=values["cron_projects"],
        cron_skip_turns=values["cron_skip_turns"],
        exclude_projects=[t for t in values["exclude_projects"] if t.strip()],
        redact_patterns=patterns,
        artifacts=artifacts,
        busy_timeout_ms=values["busy_timeout_ms"],
        settle_seconds=values["settle_seconds"],
    )


def _artifacts(items: list, problems: list[str]) -> list[Artifact]:
    out: list[Artifact] = []
    for index, item in enumerate(items):
        label = f"artifacts[{index}]"
        if not isinstance(item, dict):
            problems.append(f"{label} must be an object")
            continue
        unknown = sorted(set(item) - set(ARTIFACT_KEYS))
        if unknown:
            problems.append(f"{label}: unknown keys {unknown} (accepted: {', '.join(ARTIFACT_KEYS)})")
        spec: dict = {}
        for key, (types, default) in ARTIFACT_KEYS.items():
            value = item.get(key, default)
            if value is None and type(None) not in types:
                problems.append(f"{label}: {key} is required")
                continue
            if not isinstance(value, types) or isinstance(value, bool):
                problems.append(f"{label}: {key} has the wrong type ({type(value).__name__})")
                continue
            spec[key] = value
        if len(spec) != len(ARTIFACT_KEYS):
            continue
        if not _KIND.match(spec["kind"]):
            problems.append(f"{label}: kind {spec['kind']!r} must match [a-z0-9][a-z0-9_-]*")
            continue
        try:
            match = re.compile(spec["match"])
            exclude = [re.compile(p) for p in spec["exclude"]]
        except (re.error, TypeError) as exc:
            problems.append(f"{label}: bad regex: {exc}")
            continue
        out.append(Artifact(spec["kind"], Path(spec["dir"]).expanduser(), match, exclude,
                            max(0, spec["depth"]), float(spec["salience"]), spec["project"]))
    return out
