"""carto-notes: an example third-party plugin. Each markdown file in a folder becomes events.

One `note` event per `#`/`##` section of each `.md` file, in the milestones log
(`milestone: "note"`), so that notes are searchable beside the agents' own events. The event id
is stable: a hash of the file's path and the section's heading and text, so re-reading an
unchanged note adds nothing and an edited section is a new version.

Install it beside carto-core (`pip install -e examples/notes`), then:

    carto ingest notes --root ~/notes
"""

from __future__ import annotations

import hashlib
import os

from carto_core.api import Emit, ReadBatch, Source, Stream, format_timestamp, hookimpl, order_row

from datetime import datetime, timezone


#: A file is no text when it holds NUL or one character in this many does not decode (a note
#: in Latin-1, "caf\xe9", decodes but for its accents and stays a note).
NOT_TEXT = 3


class NotesSource(Source):
    name = "notes"
    provider = "notes"
    description = "markdown notes (one event per section) from --root folders"

    def discover(self):
        for base in self.root_paths(default=[os.environ.get("CARTO_NOTES_DIR", "~/notes")]):
            if base.is_file() and base.suffix == ".md":
                yield Stream(key=str(base.resolve()), path=base, size=base.stat().st_size)
                continue
            for path in sorted(base.rglob("*.md")) if base.is_dir() else ():
                yield Stream(key=str(path.resolve()), path=path, size=path.stat().st_size)

    def read(self, stream: Stream, checkpoint: dict | None) -> ReadBatch:
        path = stream.path
        raw = path.read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        batch = ReadBatch(checkpoint={"sha256": digest})
        if checkpoint and checkpoint.get("sha256") == digest:
            return batch  # unchanged since last read
        text = raw.decode("utf-8", errors="replace")
        bad = text.count("\ufffd")
        if b"\x00" in raw or bad * NOT_TEXT > len(text):
            # a binary file named .md (an image, an archive) is no note: its bytes would be
            # stored as text, NULs and all
            batch.skipped["not_text"] += 1
            return batch
        if bad:
            batch.skipped["invalid_utf8_bytes"] += bad
        moment = datetime.fromtimestamp(path.stat().st_mtime, tz=timezone.utc)
        project = path.parent.name
        occurrences: dict[tuple[str, str], int] = {}
        for heading, body in _sections(text):
            summary = " ".join(f"{heading}: {body}".split())[:500]
            if not body.strip():
                batch.skipped["empty_section"] += 1
                continue
            # The same section twice in one file (a repeated "## Standup") is two events; the
            # first keeps the plain hash so ids written before this rule stay valid.
            seen = occurrences[(heading, body)] = occurrences.get((heading, body), 0) + 1
            suffix = f"\n#{seen}" if seen > 1 else ""
            event_id = "note-" + hashlib.sha256(
                f"{stream.key}\n{heading}\n{body}{suffix}".encode()).hexdigest()[:16]
            batch.units += 1
            batch.rows.append(Emit("milestones", order_row("milestones", {
                "event_id": event_id,
                "timestamp": format_timestamp(moment),
                "milestone": "note",
                "provider": "notes",
                "description": summary,
                "session_id": "",
                "transcript_path": str(path),
                "project": project,
                "cwd": str(path.parent),
                "event": "Note",
                "salience": 0.5,
            })))
        return batch


def _sections(text: str):
    heading, lines = "", []
    for line in text.splitlines():
        if line.startswith("#"):
            if heading or any(l.strip() for l in lines):
                yield heading, "\n".join(lines)
            heading, lines = line.lstrip("#").strip(), []
        else:
            lines.append(line)
    if heading or any(l.strip() for l in lines):
        yield heading, "\n".join(lines)


@hookimpl
def carto_register_sources(register):
    register(NotesSource)
