"""Redaction of credential shapes before any row is written. Stdlib only (hook path).

Every string in a row (nested ones too) passes through the same pattern list. Plugins add
patterns with `add_pattern` from their `carto_register_writers` hook, or users with
`[redact] patterns = [...]` in the config file. A match is replaced by `[REDACTED:<kind>]`, so
that a reader sees that something was there and what shape it had, never the value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# (kind, pattern). Patterns keep any leading key (`password=`) and replace only the secret.
_BUILTIN: list[tuple[str, str]] = [
    ("private-key", r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"),
    ("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})"),
    ("anthropic-key", r"\bsk-ant-[A-Za-z0-9_\-]{16,}"),
    ("openai-key", r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_\-]{20,}"),
    ("slack-token", r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"),
    ("aws-access-key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("google-api-key", r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    ("stripe-key", r"\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}"),
    ("npm-token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("jwt", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    ("bearer", r"(?i)(?<=\bbearer )[A-Za-z0-9._~+/\-]{8,}=*"),
    ("basic-auth-url", r"(?<=://)[^/\s:@]+:[^/\s@]+(?=@)"),
    (
        "secret-assignment",
        # Python's re has no variable-width look-behind: the key stays via the `secret` group.
        r"(?i)\b(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|"
        r"secret[_-]?key|client[_-]?secret|auth[_-]?token)[\"']?\s{0,3}[=:]\s{0,3}[\"']?"
        r"(?P<secret>[^\s\"'&,;]{4,})",
    ),
]


# Lower-case substrings at least one of which any match of a built-in pattern contains.
_NEEDLES: dict[str, tuple[str, ...]] = {
    pattern: needles
    for (kind, pattern), needles in zip(_BUILTIN, [
        ("-----begin",),
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        ("sk-ant-",),
        ("sk-",),
        ("xox",),
        ("akia", "asia"),
        ("aiza",),
        ("k_live_", "k_test_"),
        ("npm_",),
        ("eyj",),
        ("bearer ",),
        ("://",),
        ("passw", "pwd", "secret", "token", "api", "access"),
    ])
}


class _Probe:
    """The `secret-assignment` pattern without `(?i)`, for lower-cased text (its literals are
    lower case, so it matches the lowered text exactly where the original matches)."""

    def __init__(self, pattern: str):
        self.source = pattern.replace("(?i)", "", 1)
        self.compiled = None

    def search(self, text: str):
        if self.compiled is None:
            self.compiled = re.compile(self.source)
        return self.compiled.search(text)


_PROBES: dict[str, _Probe] = {pattern: _Probe(pattern) for kind, pattern in _BUILTIN if kind == "secret-assignment"}


def _replacement(kind: str, pattern: re.Pattern):
    """Replace the whole match, or only its `secret` group when the pattern names one."""
    marker = f"[REDACTED:{kind}]"
    if "secret" not in pattern.groupindex:
        return marker

    def replace(match: re.Match) -> str:
        whole, start = match.group(0), match.start()
        return whole[: match.start("secret") - start] + marker + whole[match.end("secret") - start:]

    return replace


class Redactor:
    """An ordered set of credential patterns applied to every string of a row."""

    def __init__(self, patterns: Iterable[tuple[str, str]] = ()):
        self._patterns: list[tuple[str, re.Pattern | str, tuple[str, ...] | None]] = []
        self._scan: re.Pattern | None = None
        self._scan_for: int | None = None
        self._needles: tuple[str, ...] | None = None
        for kind, pattern in patterns:
            self.add_pattern(kind, pattern)

    def add_pattern(self, kind: str, pattern: str) -> None:
        needles = _NEEDLES.get(pattern)
        # Built-ins (known needles) compile on first use: the live hook rarely needs any.
        self._patterns.append((kind, pattern if needles else re.compile(pattern), needles))

    @property
    def kinds(self) -> list[str]:
        return [kind for kind, _, _ in self._patterns]

    def _all_needles(self) -> tuple[str, ...] | None:
        """Every needle, or None when some pattern has none (then every pattern runs)."""
        if self._scan_for != len(self._patterns):
            complete = all(group for _, _, group in self._patterns)
            self._needles = tuple(n for _, _, g in self._patterns for n in (g or ())) if complete else None
            self._scan = None
            self._scan_for = len(self._patterns)
        return self._needles

    def _present(self, value: str) -> frozenset[str] | None:
        """The needles that occur in `value` (lower-cased); None when every pattern must run."""
        needles = self._all_needles()
        if needles is None:
            return None
        lowered = value.lower()
        if len(value) >= 512:
            if self._scan is None:
                self._scan = re.compile("|".join(map(re.escape, needles)))
            if self._scan.search(lowered) is None:
                return frozenset()
        return frozenset(needle for needle in needles if needle in lowered)

    def text(self, value: str) -> str:
        present = self._present(value)
        if present is not None and not present:
            return value  # the common case: no pattern's needle occurs at all
        lowered = None
        for index, (kind, pattern, needles) in enumerate(self._patterns):
            if needles is not None:
                # A built-in pattern cannot match text that lacks all of its literal needles;
                # checking them first skips most regex scans of long bodies (backfill speed).
                if lowered is None:
                    lowered = value.lower()
                if present is not None and not present.intersection(needles):
                    continue
                if present is None and not any(needle in lowered for needle in needles):
                    continue
            if isinstance(pattern, str):
                pattern = re.compile(pattern)
                self._patterns[index] = (kind, pattern, needles)
            probe = _PROBES.get(pattern.pattern)
            if probe is not None and lowered is not None and len(lowered) == len(value) and not probe.search(lowered):
                continue  # the case-sensitive probe on lower-cased text is ~5x cheaper than (?i)
            if pattern.search(value):
                value = pattern.sub(_replacement(kind, pattern), value)
                lowered = None
                present = self._present(value)  # the marker text may hold other needles
        return value

    def value(self, value):
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {key: self.value(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.value(item) for item in value]
        return value

    def row(self, row: dict) -> dict:
        """A copy of `row` with every credential shape replaced; keys and order unchanged."""
        return self.value(row)


_default: Redactor | None = None


def default_redactor() -> Redactor:
    """The process-wide redactor: built-in patterns plus the config file's."""
    global _default
    if _default is None:
        _default = Redactor(_BUILTIN)
        for index, pattern in enumerate(_config_patterns()):
            _default.add_pattern(f"config-{index + 1}", pattern)
    return _default


def add_pattern(kind: str, pattern: str) -> None:
    """Extend the process-wide redactor (for plugins)."""
    default_redactor().add_pattern(kind, pattern)


def redact_row(row: dict) -> dict:
    return default_redactor().row(row)


def _config_patterns() -> list[str]:
    from carto_core.home import config_file

    path = config_file()
    if not path.is_file():
        return []
    import tomllib

    try:
        patterns = tomllib.loads(path.read_text("utf-8")).get("redact", {}).get("patterns", [])
    except (OSError, ValueError, AttributeError):
        return []
    return [p for p in patterns if isinstance(p, str)]
