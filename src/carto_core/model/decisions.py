"""Decisions, open threads and key insights as records with a state.

A wrapup (`session_wrapup` milestone) states them; a `decision_update` milestone changes the
state of one: `retired` (no longer true), `rejected` (never was), `superseded` by another
record (one already stated, or one the update row states itself, `text`). Rows are only
appended: the state of a record is the fold of the milestones log in its order, so nothing is
edited in place and every change keeps its event id, time, session and reason. A record stated
again by a later wrapup is current again (the later session said so).

A record's id is stable for (kind, project, text): `dec-`, `thr-` or `ins-` and 10 hex digits
of a hash of the three, the text compared without case, punctuation or spacing; the same
sentence in several wrapups is one record with every wrapup's id as its sources. An open
thread that says nothing ("none", "n/a", "-") is not a record.

Stdlib only: prompt recall (the hook path) reads the ledger to leave out what was retired.
"""

from __future__ import annotations

import hashlib
import re

KINDS = ("decision", "thread", "insight")
#: kind -> the session_wrapup field that states it.
FIELDS = {"decision": "decisions", "thread": "unresolved", "insight": "key_insight"}
PREFIX = {"decision": "dec-", "thread": "thr-", "insight": "ins-"}
#: An id prefix names a record only with its kind and at least two characters of the id.
MIN_PREFIX = 6
STATES = ("current", "superseded", "retired", "rejected")
#: What `carto decision` may set (a record becomes current by being stated).
CHANGES = ("superseded", "retired", "rejected")
WRAPUP = "session_wrapup"
UPDATE = "decision_update"

_EMPTY = re.compile(r"^(?:none|n a|na|nothing|nil|null|no|nope|tbd|-)"
                    r"(?: (?:yet|so far|open|left|remaining|known|pending|for now))?$")
#: Words by which a new decision says it replaces an earlier one.
REVERSAL = re.compile(r"\b(?:revers(?:es|ed|ing|e)|instead of|no longer|replaces|replacing|"
                      r"supersedes|overrides|rather than)\b", re.I)
_FILLER = frozenset(
    "a an the of to in on at for and or but is are was be been it its this that these those with "
    "we our us i you they by as from not no longer instead rather than reverses reversed reverse "
    "reversing replaces replacing supersedes overrides earlier previous prior old rule decision "
    "now use using do does".split())


def norm(text: str) -> str:
    """`text` without case, punctuation or repeated spaces (what makes two statements one)."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def is_empty(text) -> bool:
    """True for a statement that states nothing ("none", "n/a", "-", blank)."""
    if not isinstance(text, str):
        return True
    key = norm(text)
    return not key or bool(_EMPTY.match(key))


def record_id(kind: str, project: str, text: str) -> str:
    digest = hashlib.sha256(f"{kind}|{(project or '').lower()}|{norm(text)}".encode()).hexdigest()
    return PREFIX[kind] + digest[:10]


def statements(row: dict) -> list[tuple[str, str]]:
    """(kind, text) of what a session_wrapup row states, empty ones left out."""
    out = []
    for kind in KINDS:
        values = row.get(FIELDS[kind])
        for value in values if isinstance(values, list) else [values]:
            if not is_empty(value):
                out.append((kind, " ".join(value.split())))
    return out


class Record:
    """One decision, thread or insight and its state (the fold of the rows that name it)."""

    __slots__ = ("id", "kind", "text", "project", "sources", "first", "last", "seq", "cwd",
                 "state", "by", "reason", "changed_at", "change_id", "cites")

    def __init__(self, rid: str, kind: str, text: str, project: str):
        self.id, self.kind, self.text, self.project = rid, kind, text, project
        self.sources: list[str] = []      # event ids of the rows that stated it
        self.first = self.last = ""       # timestamps (ISO) of its first and last statement
        self.seq = -1                     # log position of its last statement or change
        self.cwd = ""
        self.state = "current"
        self.by = ""                      # the successor's id (superseded)
        self.reason = ""
        self.changed_at = ""
        self.change_id = ""
        self.cites: list[dict] = []       # the `cites` of the wrapups that stated it

    @property
    def current(self) -> bool:
        return self.state == "current"

    def staleness(self, checker) -> dict | None:
        """What changed in git, since its last statement, in what it cites (`model.staleness`)."""
        from carto_core.model.staleness import of_statement
        from carto_core.util.timeparse import epoch_seconds

        written = epoch_seconds(self.last)
        if written is None:
            return None
        return of_statement(checker, self.text, self.cites[-1] if self.cites else None, self.cwd, written)

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "text": self.text, "project": self.project,
                "state": self.state, "superseded_by": self.by or None, "reason": self.reason or None,
                "changed_at": self.changed_at or None, "change_event_id": self.change_id or None,
                "first_stated": self.first or None, "last_stated": self.last or None,
                "event_ids": list(self.sources)}


class Ledger:
    """Every record of a home (or of the rows given), by id, in the order first stated."""

    def __init__(self):
        self.records: dict[str, Record] = {}
        self.wrapups: dict[str, int] = {}  # wrapup rows by project (lower case)

    # --- the fold ---------------------------------------------------------------------------

    def add_row(self, row: dict, seq: int) -> None:
        kind = row.get("milestone")
        if kind == WRAPUP:
            project = row.get("project") if isinstance(row.get("project"), str) else ""
            self.wrapups[project.lower()] = self.wrapups.get(project.lower(), 0) + 1
            for what, text in statements(row):
                self._state(what, text, row, seq)
        elif kind == UPDATE:
            self._change(row, seq)

    def _state(self, kind: str, text: str, row: dict, seq: int) -> Record:
        project = row.get("project") if isinstance(row.get("project"), str) else ""
        rid = record_id(kind, project, text)
        record = self.records.get(rid)
        if record is None:
            record = self.records[rid] = Record(rid, kind, text, project)
            record.first = str(row.get("timestamp") or "")
        event_id = row.get("event_id")
        if isinstance(event_id, str) and event_id not in record.sources:
            record.sources.append(event_id)
        record.last = str(row.get("timestamp") or record.last)
        record.seq = seq
        if isinstance(row.get("cwd"), str) and row["cwd"]:
            record.cwd = row["cwd"]
        if isinstance(row.get("cites"), dict):
            record.cites.append(row["cites"])
        if record.state != "current":
            # stated again after it was changed: the later session holds it true
            record.state, record.by, record.reason = "current", "", ""
        return record

    def _change(self, row: dict, seq: int) -> None:
        target = self.records.get(row.get("target")) if isinstance(row.get("target"), str) else None
        state = row.get("state")
        if target is None or state not in CHANGES:
            return  # names a record this fold does not hold (another project's rows were left out)
        by = row.get("superseded_by") if isinstance(row.get("superseded_by"), str) else ""
        if state == "superseded" and isinstance(row.get("text"), str) and not is_empty(row["text"]):
            # the successor is stated in its record's project and folder (an update row an
            # older carto wrote names the folder the change was run from, which may be any)
            by = self._state(target.kind, " ".join(row["text"].split()),
                             {**row, "project": target.project, "cwd": target.cwd}, seq).id
        if state == "superseded" and (not by or by == target.id):
            return
        target.state, target.by = state, by if state == "superseded" else ""
        target.reason = row.get("reason") if isinstance(row.get("reason"), str) else ""
        target.changed_at = str(row.get("timestamp") or "")
        target.change_id = row.get("event_id") if isinstance(row.get("event_id"), str) else ""
        target.seq = seq

    # --- questions --------------------------------------------------------------------------

    def of_project(self, project: str | None) -> list[Record]:
        wanted = (project or "").lower()
        return [r for r in self.records.values() if project is None or r.project.lower() == wanted]

    def successor(self, record: Record) -> Record | None:
        """The current record that (through a chain of supersessions) replaced `record`."""
        seen = {record.id}
        while record.state == "superseded" and record.by in self.records and record.by not in seen:
            record = self.records[record.by]
            seen.add(record.id)
        return record if record.current and len(seen) > 1 else None

    def find(self, prefix: str) -> list[Record]:
        """The record with this id, or every record whose id starts with it (at least 2 hex digits
        after the kind)."""
        if prefix in self.records:
            return [self.records[prefix]]
        return [r for rid, r in self.records.items() if rid.startswith(prefix)] if len(prefix) >= MIN_PREFIX else []

    def retired_texts(self, project: str | None = None) -> set[str]:
        """`norm` of every statement that is not current (what recall must not bring back)."""
        current = {norm(r.text) for r in self.records.values() if r.current}
        return {norm(r.text) for r in self.of_project(project) if not r.current} - current


def fold(rows) -> Ledger:
    """The ledger of milestone rows, in the order given (the log's)."""
    ledger = Ledger()
    for seq, row in enumerate(rows):
        if isinstance(row, dict):
            ledger.add_row(row, seq)
    return ledger


def _wanted(raw: bytes):
    from carto_core.logio.jsonl import loads_line

    # Only wrapups and updates are decoded: the other milestones cost a bytes search.
    if b"session_wrapup" in raw or b"decision_update" in raw:
        return loads_line(raw)
    return None, None


def rows(home, *, complete: bool = False) -> list[dict]:
    """The wrapup and update rows of a home's milestones log, in its order. A log that cannot
    be read (`reader.unreadable`) reads as absent, as `load_corpus` reads it: readers answer
    from the rest and name it (`cli.logskips.skip_unreadable`). With `complete` it raises
    instead (the OSError of opening it): a change decided on half a ledger would be wrong."""
    from carto_core.logio.reader import iter_lines, unreadable

    path = home.log("milestones")
    if not complete and unreadable(path):
        return []
    return [_named(line) for line in iter_lines(path, loads=_wanted)
            if isinstance(line.row, dict) and line.row]


def _named(line) -> dict:
    """The row as every reader of the corpus names it: one with no usable event_id (none, not a
    string, blank or "unknown"; another tool wrote it) is `milestones-<line>`, the fallback of
    `Event.from_row` (not imported: the hook path reads the ledger), which `carto search --get`
    finds it by; its records cite that name, not nothing."""
    event_id = line.row.get("event_id")
    if isinstance(event_id, str) and event_id.strip().lower() not in ("", "unknown"):
        return line.row
    return {**line.row, "event_id": f"milestones-{line.lineno}"}


def load(home, *, complete: bool = False) -> Ledger:
    """The ledger of a home's milestones log (`rows` says what `complete` changes)."""
    return fold(rows(home, complete=complete))


def reversals(ledger: Ledger, project: str, texts: list[str]) -> list[dict]:
    """For each decision in `texts` that says it reverses something ("reverses", "instead of",
    "no longer", ...): the current decision of `project` it most likely replaces (the most
    words in common, at least 2 and half of the earlier one's), as a proposal to supersede."""
    out = []
    for text in texts:
        if is_empty(text) or not REVERSAL.search(text):
            continue
        new_id = record_id("decision", project, text)
        words = _words(text)
        best = None
        for record in ledger.of_project(project):
            if record.kind != "decision" or not record.current or record.id == new_id:
                continue
            theirs = _words(record.text)
            shared = words & theirs
            if len(shared) < 2 or 2 * len(shared) < len(theirs):
                continue
            key = (len(shared), record.seq)
            if best is None or key > best[0]:
                best = (key, record, shared)
        if best is not None:
            _, record, shared = best
            out.append({"supersede": record.id, "old_text": record.text, "by": new_id,
                        "new_text": " ".join(text.split()), "shared_words": sorted(shared),
                        "command": f"carto decision supersede {record.id} --by {new_id}"})
    return out


def _words(text: str) -> set[str]:
    return {w for w in norm(text).split() if w not in _FILLER and len(w) > 1}


def update_row(target: Record, state: str, *, by: str = "", text: str = "", reason: str = "",
               session_id: str | None = None, provider: str = "unknown", via: str = "cli",
               timestamp: str, successor_text: str = "") -> dict:
    """The `decision_update` milestone that changes `target` (not written). Its description
    names the new words (`text`, or the successor record's, `successor_text`), so a search or
    a prompt recall that finds the row reads what replaced the old record, not only that it
    was replaced. Its project and folder are the record's (the folder it was last stated in),
    never the changing process's: a terminal or an MCP server runs anywhere, and its folder
    would make the project two in `carto facts census` and give a successor stated by `text`
    another repository to be checked against. `via`: the front door that changed it, `cli`
    (`carto decision`, a person at a terminal unless `provider` names an agent) or `mcp` (the
    `decide` tool: an agent's, whatever its server's environment names)."""
    from carto_core.logio.logs import order_row

    event_id = "evt-" + hashlib.sha256(
        f"{UPDATE}|{target.id}|{state}|{by}|{norm(text)}|{timestamp}".encode()).hexdigest()[:12]
    what = {"superseded": "superseded", "retired": "retired", "rejected": "rejected"}[state]
    description = f"{target.kind} {what}: {target.text}"
    if text or successor_text:
        description += f" -> {text or successor_text}"
    return order_row("milestones", {
        "event_id": event_id, "timestamp": timestamp, "milestone": UPDATE, "provider": provider,
        "description": description[:500], "session_id": session_id, "project": target.project,
        "cwd": target.cwd, "event": "Decision", "salience": 0.5, "target": target.id,
        "kind": target.kind, "state": state, "superseded_by": by or None, "text": text or None,
        "reason": reason or None, "via": via})
