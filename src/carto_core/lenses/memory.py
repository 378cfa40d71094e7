"""A project's curated memory, for the `MEMORY.md` Claude Code loads at session start.

`build_memory(home, project)` folds the logs into sections, each line a fact carto can show
the evidence for (its event ids, kept on the line as an HTML comment):

- **Standing preferences**, from prompts: the owner's own sentences that tell the agent how to
  work ("always", "never", "don't", "prefer", "make sure", "from now on", "instead of", ...), not
  questions and never what a prompt quotes, pastes, says came from someone else or asks to have
  translated (`carto_core.lenses.ownwords`); the same
  sentence in several prompts is one line with every prompt's id.
- **Decisions**, **open threads** and **key insights**, from `session_wrapup` milestones: the
  current records of the decision ledger (`carto_core.model.decisions`; superseded, retired and
  rejected ones are left out, and "none" is no thread); an open thread that a later wrapup
  decided, word for word, is dropped, and so is a decision that is the subject of a commit git
  says another author wrote (an older wrapup took a merged branch's commits as decisions).
- **Repeated failures and their fixes**, from the tool calls transcript turns record
  (`turnactivity`): a command that failed at least twice, in how many sessions, and what the
  session did next (the next commit in that session, or the same command passing again).
- **Conventions seen in commits**: the share of Conventional Commits subjects, their types and
  scopes (hook commit rows, and the commits of sessions known only from their transcripts).
- **The owner's work across projects**, from `<home>/.carto/profile.md` (`carto profile`, kept
  current by the memory refresh): its active surface, work shape and cadence lines (not its
  decisions: the project's own are above), last, so the profile reaches the agent within this
  file's budget. Its lines are aggregates of many events: they end with `PROFILE_MARK`, not ids.

Each section is newest and most-reused first (reuse: endorsing accesses in the access ledger,
`carto search --touch`; then time); `render` keeps the whole file within `MAX_LINES` (200:
Claude Code loads the first 200 lines of a project's MEMORY.md) and `MAX_BYTES` (25 KB), trimming
the oldest lines of the longest sections first. Deterministic for a given home (no clock in the
output), so writing it twice changes nothing.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from carto_core.lenses.ownwords import preference_sentences
from carto_core.model.project import Folder

MAX_LINES = 200
MAX_BYTES = 25 * 1024
BEGIN = "<!-- carto:memory begin (written by `carto memory --write`; edit outside these markers, this part is rewritten) -->"
END = "<!-- carto:memory end -->"
#: Section caps before the budget trims further (most useful first).
CAPS = {"preferences": 25, "decisions": 40, "threads": 20, "insights": 20, "failures": 15,
        "conventions": 6, "profile": 14}
TITLES = {"preferences": "Standing preferences (from prompts)", "decisions": "Decisions (from wrapups)",
          "threads": "Open threads (from wrapups)", "insights": "Key insights (from wrapups)",
          "failures": "Repeated failures and their fixes (from transcripts)",
          "conventions": "Conventions seen in commits",
          "profile": "The owner's work across projects (carto profile)"}
#: carto's section of a project whose rows hold no line yet.
NOTHING_YET = ("(nothing to remember yet: what is recorded for this project holds no decision, "
               "open thread, standing preference, repeated failure or commit convention; "
               "`carto wrapup` records a session's decisions and open threads)")
#: The comment that ends a profile line (an aggregate: no event ids to name).
PROFILE_MARK = "carto profile"
#: The profile's sections MEMORY.md takes (its decisions are other projects' too).
PROFILE_SECTIONS = ("Active surface", "Work shape", "Cadence")

_CONVENTIONAL = re.compile(r"^(?P<type>[a-z]+)(?:\((?P<scope>[^)]+)\))?(?P<bang>!)?: \S")
MAX_IDS = 5


@dataclass
class Item:
    text: str
    ids: list[str]
    ts: float = 0.0
    reuse: int = 0
    detail: str = ""
    record: str = ""  # the decision ledger's id (decisions, threads, insights)
    stale: str = ""   # what changed in git in what it cites, since (`model.staleness`)

    def line(self, profile: bool = False) -> str:
        """The bullet: ending in its ids, or (`profile`: an aggregate, no ids) in PROFILE_MARK."""
        body = _inert(self.text)
        if profile:
            return f"- {body} <!-- {PROFILE_MARK} -->"
        ids = self.ids[:MAX_IDS]
        more = f" +{len(self.ids) - MAX_IDS}" if len(self.ids) > MAX_IDS else ""
        detail = f" ({_inert(self.detail)})" if self.detail else ""
        return f"- {body}{detail} <!-- {', '.join(map(_written, ids))}{more} -->"


@dataclass
class Memory:
    project: str
    sections: dict[str, list[Item]] = field(default_factory=dict)
    sources: dict[str, int] = field(default_factory=dict)

    def knows_project(self) -> bool:
        """Whether anything of the project's own was found (the profile is the owner's)."""
        return any(items for name, items in self.sections.items() if name != "profile")

    def to_dict(self) -> dict:
        return {"project": self.project, "sources": self.sources,
                "sections": {name: [{"text": i.text, "detail": i.detail, "event_ids": i.ids,
                                     "reuse": i.reuse, **({"record": i.record} if i.record else {}),
                                     **({"stale": i.stale} if i.stale else {})}
                                    for i in items]
                             for name, items in self.sections.items()}}


def _inert(text: str) -> str:
    """`text` as one bullet's words: on one line, and with no comment marker, so a prompt's (or
    a wrapup's) "<!-- carto:memory end -->" or "<!-- evt-… -->" can neither end carto's section
    nor pass for a line's ids."""
    return " ".join(text.split()).replace("<!--", "&lt;!--").replace("-->", "--&gt;")


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


#: Words that make a request polite, not different: "please always use X" is "always use X".
_FILLERS = frozenset({"please", "pls", "plz", "kindly", "just"})


def _preference_key(sentence: str) -> str:
    return " ".join(word for word in _norm(sentence).split() if word not in _FILLERS)


def _day(ts: float) -> str:
    import time

    return time.strftime("%Y-%m-%d", time.gmtime(ts)) if ts else "undated"


class Scope(Folder):
    """Which of a project's rows belong to one folder's MEMORY.md. A project is named by its
    folder's last name, so `/work/clientA/api` and `/work/me/api` are both "api": a row belongs
    to `folder` when its `cwd` is inside it, or inside a checkout of the same repository (a
    linked worktree: `model.project.Folder`). A row that names no folder cannot be placed: it
    belongs only while every row of the project that names one names this folder (the name is
    this folder's alone). Rows of a project or folder in `[capture] exclude` belong to no
    MEMORY.md."""

    def __init__(self, folder: str | None = None):
        from carto_core.privacy.exclude import load as exclusion

        super().__init__(folder)
        self.unplaced = True
        self.rule = exclusion()

    def admits(self, row: dict) -> bool:
        if self.rule and self.rule.row(row):
            return False
        cwd = row.get("cwd")
        if isinstance(cwd, str) and cwd:
            return self.holds(cwd)
        return self.unplaced

    def survey(self, home, project: str) -> None:
        """Rows without a folder belong only if no row of the project names another folder."""
        if self.folder is None:
            return
        for label in ("prompts", "turns", "changelog", "milestones"):
            for row, _ in _rows(home, label, project):
                cwd = row.get("cwd")
                if isinstance(cwd, str) and cwd and not self.holds(cwd):
                    self.unplaced = False
                    return


def _rows(home, label: str, project: str, scope: Scope | None = None):
    """(row, Event) of a log's rows whose project is `project` (case-insensitive) and that
    `scope` admits; lines that do not hold the name's bytes are never parsed. A row with no
    usable event_id is named as every reader names it, `<label>-<line>` (`Event.from_row`)."""
    from carto_core.model.events import Event
    from carto_core.logio.jsonl import loads_line
    from carto_core.logio.reader import open_log

    try:
        with open_log(home.log(label)) as handle:  # a FIFO: refused, not waited on
            data = handle.read()
    except OSError:
        return
    lowered = data.lower()
    needle = project.lower().encode("utf-8")
    position = lowered.find(needle)
    lineno, counted = 1, 0  # the line number of the line starting at `counted`
    while position >= 0:
        start = data.rfind(b"\n", 0, position) + 1
        end = data.find(b"\n", position)
        end = len(data) if end < 0 else end
        position = lowered.find(needle, end)
        lineno += data.count(b"\n", counted, start)
        counted = start
        row, problem = loads_line(data[start:end])
        if problem == "malformed_json" or not isinstance(row, dict):
            continue
        value = row.get("project")
        if isinstance(value, str) and value.lower() == project.lower() and \
                (scope is None or scope.admits(row)):
            yield row, Event.from_row(row, label, fallback_id=f"{label}-{lineno}")


def _ts(event) -> float:
    return event.timestamp.timestamp() if event.timestamp else 0.0


def build_memory(home, project: str, folder: str | None = None) -> Memory:
    """The memory of `project` as recorded in `folder` (`Scope`; None: wherever the name was
    recorded, rows of an excluded project or folder still left out)."""
    from carto_core.search.telemetry import access_ledger_path, read_accesses

    accesses = read_accesses(access_ledger_path(home))

    def reuse(ids) -> int:
        return sum(len(accesses.get(i, ())) for i in ids)

    scope = Scope(folder)
    scope.survey(home, project)
    memory = Memory(project)
    memory.sections = {name: [] for name in TITLES}
    _wrapups(home, project, memory, scope=scope)
    turns = [event for _, event in _rows(home, "turns", project, scope)]
    commits = _commits(home, project, turns, memory, scope)
    _failures(turns, commits, memory)
    _preferences(home, project, memory, scope)
    _profile(home, memory, scope)
    for name, items in memory.sections.items():
        for item in items:
            item.reuse = reuse(item.ids)
        items.sort(key=lambda i: (bool(i.stale), -min(i.reuse, 3), -i.ts, i.text))
        del items[CAPS[name]:]
    return memory


def _wrapups(home, project: str, memory: Memory, ledger=None, scope: Scope | None = None) -> None:
    """Current decisions, threads and insights of the decision ledger (superseded, retired and
    rejected ones are left out); a thread a later wrapup decided, word for word, is dropped."""
    from carto_core.model.decisions import load, norm
    from carto_core.util.timeparse import epoch_seconds

    ledger = ledger or load(home)
    sections: dict[str, list[Item]] = {"decision": [], "thread": [], "insight": []}
    decided: dict[str, int] = {}
    records = [r for r in ledger.of_project(project) if r.current
               and (scope is None or scope.admits({"project": r.project, "cwd": r.cwd}))]
    from carto_core.lenses.decisions import others_decisions, staleness

    theirs = others_decisions(records)
    records = [r for r in records if r.id not in theirs]

    stale = staleness(records)
    for record in records:
        if record.kind == "decision":
            decided[norm(record.text)] = record.seq
    for record in records:
        if record.kind == "thread" and decided.get(norm(record.text), -1) >= record.seq:
            continue
        item = Item(record.text, list(record.sources), epoch_seconds(record.last) or 0.0)
        item.record = record.id
        item.detail = f"open since {_day(item.ts)}" if record.kind == "thread" else (
            _day(item.ts) if record.kind == "decision" else "")
        if stale.get(record.id):
            item.stale = stale[record.id]["note"]
            item.detail = "; ".join(p for p in (item.detail, "stale: " + item.stale) if p)
        sections[record.kind].append(item)
    memory.sections["decisions"] = sections["decision"]
    memory.sections["threads"] = sections["thread"]
    memory.sections["insights"] = sections["insight"]
    memory.sources["wrapups"] = ledger.wrapups.get(project.lower(), 0)


def _commits(home, project: str, turns, memory: Memory, scope: Scope | None = None) -> list:
    """Commit events of the project: hook rows, plus those of sessions known only by turns."""
    from carto_core.lenses.sessionfacts import commit_record as _commit
    from carto_core.lenses.turnwork import hooked_sessions
    from carto_core.capture.turnactivity import derived_events

    hooked_events = [event for _, event in _rows(home, "changelog", project, scope)]
    commits = [e for e in hooked_events if e.type == "git_commit"]
    hooked = hooked_sessions(hooked_events)
    for turn in turns:
        if turn.session_id not in hooked:
            commits += [e for e in derived_events(turn) if e.type == "git_commit"]
    seen: set[str] = set()
    unique = []
    for event in sorted(commits, key=_ts):
        info = _commit(event)
        sha = (info or {}).get("sha") or event.event_id
        if sha in seen:
            continue
        seen.add(sha)
        unique.append((event, info))
    memory.sources["commits"] = len(unique)
    if not unique:
        return unique
    types: Counter = Counter()
    scopes: Counter = Counter()
    ids_by: dict[str, list] = defaultdict(list)
    conventional = 0
    for event, info in unique:
        match = _CONVENTIONAL.match((info or {}).get("subject") or "")
        cite = event.parent_event_id if "#" in event.event_id else event.event_id
        if match:
            conventional += 1
            types[match["type"]] += 1
            ids_by["type:" + match["type"]].append((_ts(event), cite))
            if match["scope"]:
                scopes[match["scope"]] += 1
                ids_by["scope:" + match["scope"]].append((_ts(event), cite))
        ids_by["all"].append((_ts(event), cite))

    def newest(key: str) -> tuple[float, list[str]]:
        cited = sorted(ids_by[key], reverse=True)
        return (cited[0][0] if cited else 0.0), list(dict.fromkeys(i for _, i in cited))

    items = []
    share = conventional / len(unique)
    ts, ids = newest("all")
    if share >= 0.5:
        mix = ", ".join(f"{t} {n}" for t, n in types.most_common(6))
        items.append(Item(f"Commit subjects follow Conventional Commits `type(scope): subject` "
                          f"({conventional} of {len(unique)}: {mix})", ids, ts))
    else:
        items.append(Item(f"Commit subjects are mostly free-form ({conventional} of {len(unique)} "
                          "follow Conventional Commits)", ids, ts))
    if scopes:
        top = scopes.most_common(8)
        ts, ids = newest("scope:" + top[0][0])
        for scope, _ in top[1:]:
            ids += [i for i in newest("scope:" + scope)[1] if i not in ids][:1]
        items.append(Item("Commit scopes in use: " + ", ".join(f"`{s}` ({n})" for s, n in top), ids, ts))
    memory.sections["conventions"] = items
    return unique


def _command_key(text: str) -> str:
    words = text.split()
    if not words:
        return ""
    key = words[:3] if words[0] in ("npm", "uv", "cargo", "go", "python", "python3", "make", "git", "pnpm", "yarn") else words[:2]
    return " ".join(key)[:60]


def _failures(turns, commits, memory: Memory) -> None:
    """Commands that failed at least twice, with what followed each failure in its session."""
    from carto_core.capture.turnactivity import SHELL_TOOLS

    failures: dict[str, list] = defaultdict(list)   # key -> [(ts, session, turn id)]
    passes: dict[tuple[str, str], list[float]] = defaultdict(list)
    for turn in turns:
        tools = turn.row.get("tools") if isinstance(turn.row, dict) else None
        for entry in tools if isinstance(tools, list) else []:
            if not isinstance(entry, dict) or entry.get("name") not in SHELL_TOOLS:
                continue
            key = _command_key(entry.get("input") if isinstance(entry.get("input"), str) else "")
            if not key:
                continue
            ts = _ts(turn)
            if entry.get("failed") is True:
                failures[key].append((ts, turn.session_id, turn.event_id))
            else:
                passes[(key, turn.session_id)].append(ts)
    by_session: dict[str, list] = defaultdict(list)
    for event, info in commits:
        by_session[event.session_id].append((_ts(event), (info or {}).get("subject") or event.summary,
                                             event.parent_event_id if "#" in event.event_id else event.event_id))
    items = []
    for key, seen in failures.items():
        if len(seen) < 2:
            continue
        seen.sort()
        last_ts, session, turn_id = seen[-1]
        ids = list(dict.fromkeys(t for _, _, t in reversed(seen)))
        fix = next(((ts, subject, cite) for ts, subject, cite in sorted(by_session.get(session, []))
                    if ts >= last_ts), None)
        sessions = len({s for _, s, _ in seen})
        where = f"{len(seen)}× in {sessions} session{'s' if sessions != 1 else ''}"
        if fix is not None:
            detail = f"{where}; then committed: {fix[1][:120]}"
            ids.insert(0, fix[2])
        elif any(ts >= last_ts for ts in passes.get((key, session), [])):
            detail = f"{where}; it passed again later in that session"
        else:
            detail = f"{where}; no fix recorded"
        items.append(Item(f"`{key}` failed", ids, last_ts, detail=detail))
    memory.sections["failures"] = items


def _preferences(home, project: str, memory: Memory, scope: Scope | None = None) -> None:
    found: dict[str, Item] = {}
    prompts = 0
    for row, event in _rows(home, "prompts", project, scope):
        prompts += 1
        text = row.get("summary") or row.get("prompt") or row.get("display") or ""
        if not isinstance(text, str):
            continue
        for sentence in preference_sentences(text):
            key = _preference_key(sentence)
            item = found.get(key)
            ts = _ts(event)
            if item is None:
                found[key] = Item(sentence, [event.event_id], ts)
            else:
                if event.event_id not in item.ids:
                    item.ids.append(event.event_id)
                item.ts = max(item.ts, ts)
    for item in found.values():
        if len(item.ids) > 1:
            item.detail = f"{len(item.ids)} prompts"
    memory.sections["preferences"] = sorted(found.values(), key=lambda i: (-len(i.ids), -i.ts))
    memory.sources["prompts"] = prompts


def _profile(home, memory: Memory, scope: Scope | None = None) -> None:
    """The lines of `<home>/.carto/profile.md`'s PROFILE_SECTIONS, in its order (none when it
    was never written); an active-surface line of an excluded project is left out."""
    try:
        text = (home.state / "profile.md").read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return
    lines, section = [], ""
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif section in PROFILE_SECTIONS and line.startswith("- ") and "(none yet)" not in line:
            if section == "Active surface" and scope is not None and scope.rule and \
                    scope.rule.project(line[2:].split(":", 1)[0].strip()):
                continue
            lines.append(f"{section}: {line[2:].strip()}")
    # in the profile's order: the sort below is newest first, so the first line is the newest
    memory.sections["profile"] = [Item(text, [], ts=float(len(lines) - n)) for n, text in enumerate(lines)]


def render(memory: Memory, *, max_lines: int = MAX_LINES, max_bytes: int = MAX_BYTES) -> str:
    """carto's marked section (markers included), within `max_lines` and `max_bytes`."""
    # a line of another section than the profile with no ids would show no evidence and read
    # as a person's line (or, marked as the profile's, as the profile's): it is not written
    sections = {name: [i for i in items if i.ids or name == "profile"]
                for name, items in memory.sections.items()}
    sections = {name: items for name, items in sections.items() if items}

    def text() -> str:
        lines = [BEGIN, f"# {memory.project}: what carto remembers", INTRO]
        for name, items in sections.items():
            if items:
                lines += ["", f"## {TITLES[name]}"] + [item.line(name == "profile") for item in items]
        if len(lines) == 3:
            # the project has rows (else no memory is made): they hold no line yet, and saying
            # "nothing recorded" contradicts the prompts and turns `carto search` finds
            lines.append(NOTHING_YET)
        return "\n".join(lines + [END]) + "\n"

    out = text()
    while len(out.splitlines()) > max_lines or len(out.encode("utf-8")) > max_bytes:
        longest = max(sections, key=lambda n: len(sections[n]), default=None)
        if longest is None or not sections[longest]:
            break
        sections[longest].pop()  # its oldest, least reused line
        if not sections[longest]:
            del sections[longest]
        out = text()
    return out


def merge(existing: str, section: str) -> str:
    """`existing` MEMORY.md text with carto's marked section replaced (or appended after what
    a person wrote), everything outside the markers kept byte for byte."""
    start = existing.find(BEGIN)
    end = existing.find(END, start if start >= 0 else 0)
    if start >= 0 and end >= 0:
        tail = existing[end + len(END):]
        if tail.startswith("\n"):
            tail = tail[1:]
        return existing[:start] + section + tail
    if not existing:
        return section
    return existing + ("" if existing.endswith("\n") else "\n") + "\n" + section


class NoRoom(ValueError):
    """The file's own lines leave carto's section no room within Claude Code's budget."""


class Unclosed(NoRoom):
    """carto's begin marker with no end marker after it: where carto's lines stop and the
    person's start cannot be told, so nothing is written (a rewrite would append a second
    section, and the next one fold the person's text into carto's)."""


#: The comment `Item.line` ends a bullet with: its event ids, ", " between them, " +N" for those
#: left out; or the profile's mark. Every writer's id is a lowercase word naming its kind (evt-,
#: turn-, git-, memory-, hermes-, desktop-; a log's label for a row it holds without one), a
#: hyphen and more, and is written as it is. Rows may carry any such word (an import's
#: "milestone-…"), so the word is not a closed list: a forget must find every line of carto's
#: that cites a forgotten row. A row another tool wrote may carry any id ("FIN-12", "12345",
#: "WRAP 3", "a, b"), which is written as a JSON string (`_written`): a person's own comment
#: ("mine", "TODO: ask finance", a ticket "FIN-12", a date "2026-05-01") is none of these.
_PLAIN = r"[a-z][a-z0-9_]*-[^\s,<>]+"
_QUOTED = r'"(?:[^"\\\x00-\x1f<>]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"'
_ID = rf"(?:{_PLAIN}|{_QUOTED})"
_ID_LIST = rf"{_ID}(?:, {_ID})*(?: \+\d+)?"
_OUR_COMMENT = rf"<!-- (?:{_ID_LIST}|{re.escape(PROFILE_MARK)}) -->"
INTRO = "Each line ends with the event ids it comes from (`carto search --get ID`)."
#: What a memory with nothing in it said before NOTHING_YET: carto's line in files written then.
_NOTHING_BEFORE = "(nothing recorded for this project yet: wrapups, commits, prompts and transcripts fill this in)"
#: carto's lines in its section: the heading, the intro, its section headings, bullets ending
#: with its comment (their words hold no other: `_inert`), the line of a memory with nothing in
#: it yet. A person's own `## ` heading inside it, bullet ending in a comment of theirs, or line
#: that starts as the intro does, is theirs.
_OURS = re.compile(r"^(?:# .+: what carto remembers|## (?:" + "|".join(re.escape(t) for t in TITLES.values())
                   + r")|- (?:(?!<!--).)* " + _OUR_COMMENT + "|"
                   + "|".join(re.escape(line) for line in (INTRO, NOTHING_YET, _NOTHING_BEFORE)) + ")$")
_TOKEN = re.compile(_ID)


def _written(event_id: str) -> str:
    """`event_id` as carto's comment names it: a writer's id as it is, any other as a JSON string
    (ASCII, `<` and `>` escaped), so that no id can end the comment or the section, split into
    two, or make carto's bullet read as a person's."""
    if re.fullmatch(_PLAIN, event_id):
        return event_id
    return json.dumps(event_id).replace("<", "\\u003c").replace(">", "\\u003e")


@dataclass
class _Run:
    """Lines a person wrote inside carto's section, one after another (blank lines between
    them kept), with the carto lines around them: where they go when the section is rewritten."""
    lines: list[str]
    above: str | None  # the carto line just above (None: the begin marker)
    below: str         # the carto line just below (END: the end marker)
    heading: str | None  # the `## ` heading they were under


def _their_runs(existing: str) -> list[_Run]:
    start = existing.find(BEGIN)
    end = existing.find(END, start if start >= 0 else 0)
    if start < 0 or end < 0:
        return []
    runs: list[_Run] = []
    above: str | None = None
    heading: str | None = None
    lines: list[str] = []
    blanks: list[str] = []
    for line in existing[start + len(BEGIN):end].split("\n") + [END]:
        stripped = line.strip()
        if stripped == END or (stripped and _OURS.match(stripped)):
            if lines:
                runs.append(_Run(lines, above, stripped, heading))
                lines = []
            blanks = []
            above = stripped
            if stripped.startswith("## "):
                heading = stripped
        elif not stripped:
            if lines:
                blanks.append(line)
        else:
            lines += blanks + [line]
            blanks = []
    return runs


def _ids(line: str) -> set[str]:
    """The event ids a line of carto's names (`_written` undone)."""
    found = re.search(rf"<!-- ({_ID_LIST}) -->$", line)
    if found is None:
        return set()
    return {json.loads(token) if token.startswith('"') else token for token in _TOKEN.findall(found.group(1))}


def _same(old: str, new: list[str]) -> int | None:
    """The index in `new` of the line that is `old` rewritten: the same line, else the bullet
    naming most of its ids (its words or detail changed, or a person edited it), else the
    profile line of the same subject ("Active surface: webshop")."""
    if old in new:
        return new.index(old)
    ids = _ids(old)
    if ids:
        shared = [(len(ids & _ids(line)), -n) for n, line in enumerate(new)]
        best = max(shared, default=(0, 0))
        return -best[1] if best[0] else None
    if old.startswith("- ") and old.endswith(f"<!-- {PROFILE_MARK} -->"):
        subject = ":".join(old.split(":")[:2])
        return next((n for n, line in enumerate(new) if line.startswith("- ")
                     and line.endswith(f"<!-- {PROFILE_MARK} -->") and ":".join(line.split(":")[:2]) == subject),
                    None)
    return None


def _with_theirs(section: str, runs: list[_Run]) -> str:
    """carto's rendered `section` with the person's `runs` put back where they were: after the
    carto line they followed; that line gone, before the one they preceded; both gone, at the
    end of the heading they were under; that gone too, last, just above the end marker."""
    if not runs:
        return section
    new = section.split("\n")
    closing = new.index(END)
    after: dict[int, list[str]] = defaultdict(list)
    for run in runs:
        if run.above is None:
            slot = 0
        elif (found := _same(run.above, new)) is not None:
            slot = found
        elif (found := _same(run.below, new)) is not None:
            slot = found - 1
        elif run.heading is not None and run.heading in new:
            slot = new.index(run.heading)
            while slot + 1 < closing and new[slot + 1].strip() and not new[slot + 1].startswith("## "):
                slot += 1
        else:
            slot = closing - 1
        after[slot] += run.lines
    out: list[str] = []
    for n, line in enumerate(new):
        out.append(line)
        out += after.get(n, [])
    return "\n".join(out)


def rewritten(existing: str, memory: Memory) -> str:
    """`existing` MEMORY.md text with carto's section rendered from `memory` in the room the
    person's lines leave (Claude Code loads `MAX_LINES` lines, `MAX_BYTES` bytes); lines a
    person added inside the section stay among carto's lines where they were (`_with_theirs`).
    Raises `NoRoom` when they leave too little, `Unclosed` when the end marker is gone."""
    start = existing.find(BEGIN)
    if start >= 0 and existing.find(END, start) < 0:
        raise Unclosed(f"carto's section (line {existing.count(chr(10), 0, start) + 1}) has lost its end "
                       f"marker {END}")
    runs = _their_runs(existing)
    theirs = [line for run in runs for line in run.lines]
    outside = existing
    if BEGIN in existing and END in existing:
        start, end = existing.find(BEGIN), existing.find(END) + len(END)
        outside = existing[:start] + existing[end:]
    room_lines = MAX_LINES - len(outside.splitlines()) - len(theirs) - 1
    room_bytes = MAX_BYTES - len(outside.encode("utf-8")) - sum(len(line.encode("utf-8")) + 1 for line in theirs) - 2
    if room_lines < 6 or room_bytes < 512:
        raise NoRoom(f"{len(outside.splitlines()) + len(theirs)} lines outside carto's own: no room "
                     f"within Claude Code's {MAX_LINES} lines")
    return merge(existing, _with_theirs(render(memory, max_lines=room_lines, max_bytes=room_bytes), runs))


def without_section(existing: str) -> str:
    """`existing` without carto's marked section (and the newline that ends it); the lines a
    person wrote inside it stay, where the section was."""
    start = existing.find(BEGIN)
    end = existing.find(END, start if start >= 0 else 0)
    if start < 0 or end < 0:
        return existing
    theirs = "".join(line + "\n" for run in _their_runs(existing) for line in run.lines)
    tail = existing[end + len(END):]
    if tail.startswith("\n"):
        tail = tail[1:]
    head = existing[:start]
    if head.endswith("\n\n") and not tail and not theirs:
        head = head[:-1]  # the blank line `merge` put before an appended section
    return head + theirs + tail


def has_profile_lines(existing: str) -> bool:
    """Whether carto's section in `existing` holds lines of the owner's profile."""
    start = existing.find(BEGIN)
    end = existing.find(END, start if start >= 0 else 0)
    return start >= 0 and end >= 0 and f"<!-- {PROFILE_MARK} -->" in existing[start:end]


def section_of(existing: str) -> tuple[str, set[str]] | None:
    """(project, event ids named on its lines) of carto's section in `existing`, or None."""
    start = existing.find(BEGIN)
    end = existing.find(END, start if start >= 0 else 0)
    if start < 0 or end < 0:
        return None
    body = existing[start:end]
    heading = re.search(r"^# (.+): what carto remembers$", body, re.M)
    ids: set[str] = set()
    for line in body.split("\n"):  # carto's bullets' ids: a person's comments are no event ids
        if _OURS.match(line.strip()):
            ids |= _ids(line.strip())
    return (heading.group(1) if heading else ""), ids
