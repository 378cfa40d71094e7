"""Redaction patterns plugins declare as data, read from the plugin table without pluggy.

A distribution adds patterns with an entry point of the group ``carto.redact`` naming a table:
a mapping of kind to regular expression, or a sequence of ``(kind, regex)`` pairs::

    [project.entry-points."carto.redact"]
    acme = "acme_carto.patterns:PATTERNS"      # PATTERNS = {"acme-ticket": r"CORP-\\d{6}"}

The table is read when the plugin table is scanned (`carto_core.plugin.table.plugin_table`)
and kept in it (``"redact"``), with its module file's size and mtime: every process that
redacts (``carto hook`` included, which never builds pluggy registries) adds the patterns to
its redactor (`carto_core.privacy.redact.default_redactor`) from the table, and reads the
module again only when that file changed. A pattern that does not compile is left out and
reported by `carto doctor`; ``CARTO_DISABLE_PLUGINS`` naming the entry point or its
distribution's plugin leaves its patterns out.

Stdlib only (``carto hook`` reads it); the pattern module is imported only on a scan, so it
must be importable without carto's dependencies (a plain module of strings).
"""

from __future__ import annotations

import re

from carto_core.util.safeio import file_stamp

REDACT_GROUP = "carto.redact"
#: Most patterns one entry point may add, and the longest pattern (a table is data, not code).
MAX_PATTERNS = 200
MAX_PATTERN_CHARS = 2000


def _read_target(target: str) -> tuple[list[list[str]], str | None, list[str]]:
    """(patterns, module file, problems) of one ``module:attr`` table."""
    import sys

    from carto_core.plugin.resolve import resolve, split

    problems: list[str] = []
    try:
        # A module this process already imported is read again: its file changed.
        value = resolve(target, reload=True)
        module = sys.modules[split(target)[0]]
    except Exception as exc:  # a broken plugin never stops redaction
        return [], None, [f"{target}: {type(exc).__name__}: {exc}"]
    items = list(value.items()) if isinstance(value, dict) else list(value) if isinstance(value, (list, tuple)) else None
    if items is None:
        return [], getattr(module, "__file__", None), [f"{target}: not a mapping or a list of (kind, regex)"]
    patterns = []
    for item in items[:MAX_PATTERNS]:
        if not (isinstance(item, (list, tuple)) and len(item) == 2 and all(isinstance(x, str) for x in item)):
            problems.append(f"{target}: {item!r} is not a (kind, regex) pair")
            continue
        kind, pattern = item
        if not re.fullmatch(r"[\w.-]{1,60}", kind) or len(pattern) > MAX_PATTERN_CHARS:
            problems.append(f"{target}: pattern {kind!r} refused (kind: letters, digits, _.-; regex at most "
                            f"{MAX_PATTERN_CHARS} characters)")
            continue
        try:
            re.compile(pattern)
        except re.error as exc:
            problems.append(f"{target}: pattern {kind!r} does not compile: {exc}")
            continue
        patterns.append([kind, pattern])
    if len(items) > MAX_PATTERNS:
        problems.append(f"{target}: only the first {MAX_PATTERNS} patterns are used")
    return patterns, getattr(module, "__file__", None), problems


def scan(entry_points=None) -> list[dict]:
    """The ``carto.redact`` entry points, each read (the slow path: the plugin table's scan)."""
    if entry_points is None:
        from importlib import metadata

        entry_points = metadata.entry_points(group=REDACT_GROUP)
    records = []
    for ep in sorted(entry_points, key=lambda e: e.name):
        dist = getattr(ep, "dist", None)
        patterns, path, problems = _read_target(ep.value)
        records.append({"name": ep.name, "target": ep.value, "distribution": dist.name if dist else None,
                        "patterns": patterns, "file": path, "stamp": file_stamp(path), "problems": problems})
    return records


def table_patterns(table: dict, blocked: set[str], write_table=None) -> tuple[list[tuple[str, str]], list[str]]:
    """((kind, regex) of every enabled plugin, problems) from the plugin `table`; a record whose
    module file changed since it was read is read again (and `write_table(table)` called)."""
    records = table.get("redact")
    if not isinstance(records, list):
        return [], []
    blocked_distributions = {p.get("distribution") for p in table.get("plugins", []) if p.get("name") in blocked}
    patterns: list[tuple[str, str]] = []
    problems: list[str] = []
    changed = False
    for record in records:
        if not isinstance(record, dict):
            continue
        if record.get("name") in blocked or (record.get("distribution") in blocked_distributions
                                             and record.get("distribution") is not None):
            continue
        if record.get("file") and file_stamp(record["file"]) != record.get("stamp"):
            record["patterns"], record["file"], record["problems"] = _read_target(record.get("target", ""))
            record["stamp"] = file_stamp(record["file"])
            changed = True
        patterns += [(str(kind), str(pattern)) for kind, pattern in record.get("patterns") or ()]
        problems += [str(p) for p in record.get("problems") or ()]
    if changed and write_table is not None:
        write_table(table)
    return patterns, problems
