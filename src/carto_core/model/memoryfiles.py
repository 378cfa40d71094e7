"""Memory files as a source: the markdown an agent or a person keeps for the agent (Claude
Code's auto-memory `MEMORY.md` and topic files, projects' `CLAUDE.md`, Codex's memories),
ingested as changelog events that carry a `memory_key`.

One event per memory entry (a file, or a section of one): its event id is derived from the
key alone (`memory-<provider>-<12 hex of sha256(key)>`), so a revision is a new row *of the
same event*. The logs keep every revision (append-only) and every reader keeps the newest row
of an id (`carto_core.logio.fold`: the keyword index retires the older document, the semantic
indexer embeds the new text, facts count one event): the superseded text is no longer found,
the new text is. Upstream kept each revision under an id of its own and listed the superseded
ones in `.carto/codex-memory-stale-ids.txt`; one id per entry gets the same suppression from
the one fold rule every reader already obeys, with nothing else to keep in step. A file (or
section) that disappears gets a last row `memory_state: "deleted"` (its text is gone from
search; its revisions stay in the log). The source keeps what it saw in its checkpoint
(key -> content hash and revision), so a re-run writes nothing when nothing changed.

carto's own generated section of a MEMORY.md (`carto memory --write`, between the
`<!-- carto:memory begin ...-->` and `<!-- carto:memory end -->` markers) is cut out before
hashing and indexing: it is carto's recall of events already in the logs, not something a
person wrote; a row notes `carto_section: true` when the file held one.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from carto_core.logio.logs import order_row
from carto_core.model.sources import Emit, ReadBatch

#: carto's generated section (carto_core.lenses.memory writes these markers).
CARTO_BEGIN = "<!-- carto:memory begin"
CARTO_END = "<!-- carto:memory end -->"
#: Characters of an entry's text kept in its summary (MEMORY.md is loaded up to 25 KB).
SUMMARY_MAX = 12000
SALIENCE = 0.7
CHECKPOINT_VERSION = 1


def strip_carto_section(text: str) -> tuple[str, bool]:
    """(the text without carto's generated section(s), whether there was one). An unclosed
    begin marker cuts to the end (carto writes both; a cut file must not leak its half)."""
    found = False
    while True:
        start = text.find(CARTO_BEGIN)
        if start < 0:
            return text, found
        found = True
        end = text.find(CARTO_END, start)
        text = text[:start] + ("" if end < 0 else text[end + len(CARTO_END):])


def flatten(text: str) -> str:
    return " ".join(text.split())


def title_of(text: str, fallback: str) -> str:
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return fallback


@dataclass
class Entry:
    """One memory entry as read now."""

    key: str
    path: Path
    text: str
    kind: str
    project: str
    cwd: str | None = None
    carto_section: bool = False
    line: int = 1
    #: The file held bytes that are not UTF-8 (decoded with U+FFFD; counted as invalid_utf8).
    invalid_utf8: bool = False

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def event_id(provider: str, key: str) -> str:
    return f"memory-{provider}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:12]}"


def _mtime_iso(path: Path) -> str:
    import time

    try:
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(path.stat().st_mtime))
    except OSError:
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def read_entries(entries: list[Entry], checkpoint: dict | None, *, provider: str,
                 type_prefix: str) -> ReadBatch:
    """Rows for entries that are new or changed since `checkpoint`, and a deletion mark for
    every key the checkpoint held that is gone; the new checkpoint."""
    import time

    batch = ReadBatch()
    seen = dict(checkpoint.get("keys", {})) if isinstance(checkpoint, dict) and \
        checkpoint.get("version") == CHECKPOINT_VERSION else {}
    now_keys: set[str] = set()
    for entry in entries:
        batch.units += 1
        if entry.invalid_utf8:
            batch.skipped["invalid_utf8"] += 1
        if not entry.text.strip():
            batch.skipped["empty" if not entry.carto_section else "carto_section_only"] += 1
            continue
        now_keys.add(entry.key)
        previous = seen.get(entry.key) or {}
        digest = entry.digest
        if previous.get("hash") == digest and previous.get("state") != "deleted":
            batch.skipped["unchanged"] += 1
            continue
        revision = int(previous.get("revision", 0)) + 1
        heading = title_of(entry.text, entry.path.name)
        summary = flatten(f"{heading}: {entry.text}")[:SUMMARY_MAX]
        fields = {
            "event_id": event_id(provider, entry.key), "timestamp": _mtime_iso(entry.path),
            "type": f"{type_prefix}{entry.kind}", "provider": provider, "project": entry.project or None,
            "cwd": entry.cwd, "summary": summary, "related_ids": [], "salience": SALIENCE,
            "memory_key": entry.key, "memory_hash": digest, "memory_path": str(entry.path),
            "memory_line": entry.line, "memory_type": entry.kind, "memory_revision": revision,
            "memory_state": "current",
        }
        if previous.get("hash"):
            fields["supersedes_hash"] = previous["hash"]
        if entry.carto_section:
            fields["carto_section"] = True
        batch.rows.append(Emit("changelog", order_row("changelog", fields)))
        seen[entry.key] = {"hash": digest, "revision": revision, "project": entry.project,
                           "path": str(entry.path), "kind": entry.kind}
    for key, previous in list(seen.items()):
        if key in now_keys or previous.get("state") == "deleted":
            continue
        revision = int(previous.get("revision", 0)) + 1
        batch.rows.append(Emit("changelog", order_row("changelog", {
            "event_id": event_id(provider, key),
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "type": f"{type_prefix}deleted", "provider": provider,
            "project": previous.get("project") or None, "summary": f"Memory removed: {key}",
            "related_ids": [], "salience": 0.3, "memory_key": key, "memory_hash": None,
            "memory_path": previous.get("path"), "memory_type": previous.get("kind"),
            "memory_revision": revision, "memory_state": "deleted",
            "supersedes_hash": previous.get("hash")})))
        seen[key] = {**previous, "state": "deleted", "revision": revision}
    batch.checkpoint = {"version": CHECKPOINT_VERSION, "keys": seen}
    return batch


class Text(str):
    """A memory file's text without carto's section; `.carto` (it had one), `.invalid`
    (bytes that were not UTF-8, replaced)."""

    carto: bool = False
    invalid: bool = False


def read_text(path: Path) -> Text | None:
    """A memory file's text without carto's generated section; None when unreadable."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        raw, invalid = data.decode("utf-8"), False
    except UnicodeDecodeError:
        raw, invalid = data.decode("utf-8", errors="replace"), True
    stripped, carto = strip_carto_section(raw)
    text = Text(stripped)
    text.carto, text.invalid = carto, invalid
    return text


def sections(text: str, pattern: str) -> list[tuple[str, str, int]]:
    """(heading, section text, first line number) for each heading line matching `pattern`."""
    matches = list(re.finditer(pattern, text, re.M))
    out = []
    for n, match in enumerate(matches):
        end = matches[n + 1].start() if n + 1 < len(matches) else len(text)
        out.append((match.group(1).strip(), text[match.start():end], text[:match.start()].count("\n") + 1))
    return out


def cwds_in_home(home, limit: int = 2000) -> list[str]:
    """Working folders the home's logs name (changelog, prompts, turns), most seen first."""
    from collections import Counter

    pattern = re.compile(rb'"cwd":\s*"((?:[^"\\]|\\.)+)"')
    counts: Counter = Counter()
    for label in ("changelog", "prompts", "turns", "tool-use"):
        path = home.log(label)
        try:
            with open(path, "rb") as handle:
                for raw in handle:
                    match = pattern.search(raw)
                    if match:
                        counts[match.group(1)] += 1
        except OSError:
            continue
    out = []
    import json

    for value, _ in counts.most_common(limit):
        try:
            out.append(json.loads(b'"' + value + b'"'))
        except ValueError:
            continue
    return [c for c in out if isinstance(c, str) and os.path.isabs(c)]
