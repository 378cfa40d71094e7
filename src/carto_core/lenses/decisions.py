"""The decision lifecycle as documents: list the records (`carto_core.model.decisions`) and
change one's state by appending a `decision_update` milestone (with its changelog copy).

`list_document(home, ...)` is what `carto decision list --json` and the MCP `decisions` tool
answer; `change(home, ...)` what `carto decision retire|reject|supersede` and the MCP
`decide` tool do. A change is refused (`DecisionError`, `usage` True: exit 2) when it names a
prefix several records share or one too short to name any (`dec`, `dec-1`), supersedes a
record by itself or by one that is not current, or changes a record that is not current into
another state; an id no record has is `usage` False (exit 3). Changing a record into the state it already has writes nothing.
"""

from __future__ import annotations

import re

from carto_core.model import decisions as model


#: How a refusal names the successor's arguments and where the records are listed, per caller:
#: the flags of `carto decision`, the arguments of the MCP `decide` tool.
WORDS = {
    "cli": {"by": "--by", "text": "--text", "by_id": "--by ID", "text_words": "--text TEXT",
            "listed": "`carto decision list --all`"},
    "mcp": {"by": "by", "text": "text", "by_id": "by=ID", "text_words": "text=TEXT",
            "listed": "the decisions tool with all=true"},
}


class DecisionError(ValueError):
    def __init__(self, message: str, *, usage: bool = True):
        super().__init__(message)
        self.usage = usage


def resolve(ledger: model.Ledger, prefix: str, what: str = "record", words: str = "cli") -> model.Record:
    found = ledger.find(prefix.strip())
    if not found and len(prefix.strip()) < model.MIN_PREFIX and prefix.strip() not in ledger.records:
        raise DecisionError(f"{prefix!r} is too short to name a {what}: give its kind and at least two "
                            "characters of the id (dec-1a, thr-4c, ins-9f)")
    if not found:
        raise DecisionError(f"no {what} with id {prefix!r} ({WORDS[words]['listed']} lists them)",
                            usage=False)
    if len(found) > 1:
        raise DecisionError(f"{prefix!r} names {len(found)} records: "
                            + ", ".join(r.id for r in found[:8]) + "; give more of the id")
    return found[0]


def entry(ledger: model.Ledger, record: model.Record, stale: dict | None = None) -> dict:
    out = record.to_dict()
    successor = ledger.successor(record)
    out["current_successor"] = successor.id if successor is not None else None
    out["stale"] = stale
    return out


def staleness(records) -> dict[str, dict | None]:
    """Record id -> what changed in git in what it cites (None: up to date, or no git)."""
    from carto_core.model.staleness import Checker, prepare

    checker = Checker()
    prepare(checker, records)
    return {r.id: r.staleness(checker) for r in records}


#: A decision a wrapup took from a commit: its subject, then its short sha.
_COMMIT_DECISION = re.compile(r"^(?P<subject>.+) \((?P<sha>[0-9a-f]{7,40})\)$")


def others_decisions(records) -> set[str]:
    """Ids of the decisions that are the subject of a commit git says another author wrote:
    wrapups written before `lenses.wrapup` left such commits out (a branch the agent merged)
    hold them as the owner's, and what shows decisions as the owner's leaves them out
    (`carto memory`, `carto decision list`, the profile's durable decisions). The same
    judgement as a new wrapup's (`wrapup._others_commits`: owners as `digest.owners` names
    them); a decision git cannot tell about, or whose words are not that commit's subject,
    stays. One git log per repository, and none when no decision is a commit's subject and
    sha."""
    import os

    from carto_core.lenses.digest import DigestError, _git, _is_owner, owners
    from carto_core.model.project import find_git

    asked: dict[str, list[tuple[str, str, str]]] = {}  # repo -> (id, sha, subject)
    for record in records:
        found = _COMMIT_DECISION.match(record.text) if record.kind == "decision" else None
        if found is None:
            continue
        cites = record.cites[-1] if record.cites else {}
        repo = cites.get("repo") if isinstance(cites, dict) and isinstance(cites.get("repo"), str) else ""
        if not repo and record.cwd and os.path.isdir(record.cwd):
            info = find_git(record.cwd)
            repo = str(info.worktree) if info is not None else ""
        if repo and os.path.isdir(repo):
            asked.setdefault(repo, []).append((record.id, found["sha"], " ".join(found["subject"].split())))
    out: set[str] = set()
    for repo, wanted in asked.items():
        try:
            names = owners(repo)[0]
        except DigestError:
            continue  # an owner variable naming nobody: no one to compare with
        code, text = _git(repo, "log", "--no-walk=unsorted", "--ignore-missing",
                          "--format=%H%x00%an%x00%ae%x00%s", *{sha for _, sha, _ in wanted})
        if not names or code != 0:
            continue
        commits = [line.split("\x00") for line in text.splitlines() if line.count("\x00") == 3]
        for rid, sha, subject in wanted:
            commit = next((c for c in commits if c[0].startswith(sha)), None)
            if commit is not None and " ".join(commit[3].split()) == subject \
                    and not _is_owner(commit[1], commit[2], names):
                out.add(rid)
    return out


def list_document(home, *, project: str | None = None, states=("current",), kinds=model.KINDS,
                  ledger: model.Ledger | None = None, check_git: bool = True) -> dict:
    """The records of `project` (case-insensitive; None: every project) in `states` and
    `kinds`: current ones first, up to date before stale (`stale`: what changed in git in what
    it cites), then newest stated or changed first. A decision that is the subject of a commit
    another author wrote is left out (`others_decisions`; `others_commits` counts them)."""
    ledger = ledger or model.load(home)
    records = [r for r in ledger.of_project(project) if r.state in states and r.kind in kinds]
    theirs = others_decisions(records) if check_git else set()
    records = [r for r in records if r.id not in theirs]
    stale = staleness(records) if check_git else {}
    records.sort(key=lambda r: (not r.current, stale.get(r.id) is not None, -r.seq))
    return {"project": project, "states": list(states), "kinds": list(kinds),
            "records": [entry(ledger, r, stale.get(r.id)) for r in records], "total": len(records),
            "others_commits": len(theirs)}


def change(home, target: str, state: str, *, by: str | None = None, text: str | None = None,
           reason: str | None = None, session_id: str | None = None, provider: str = "unknown",
           dry_run: bool = False, now=None, words: str = "cli") -> dict:
    """Retire, reject or supersede the record `target` (an id or a unique prefix of one).
    `words`: the caller, `cli` or `mcp`: whose arguments a refusal names (`WORDS`), and the
    row's `via`."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.logs import order_row
    from carto_core.privacy.redact import redacted
    from carto_core.util.timeparse import format_timestamp, utcnow

    if state not in model.CHANGES:
        raise DecisionError(f"state must be one of {', '.join(model.CHANGES)}")
    ledger = model.load(home, complete=True)
    named = WORDS[words]
    record = resolve(ledger, target, words=words)
    text = " ".join((text or "").split())
    successor = None
    if state == "superseded":
        if bool(by) == bool(text):
            raise DecisionError("supersede needs the record that replaces it: "
                                f"{named['by_id']} or {named['text_words']} (one)")
        if by:
            successor = resolve(ledger, by, "successor", words)
            if successor.id == record.id:
                raise DecisionError(f"{record.id} cannot supersede itself")
            if not successor.current:
                raise DecisionError(f"{successor.id} is {successor.state}: a record is superseded "
                                    "by a current one")
        elif model.is_empty(text):
            raise DecisionError(f"{named['text']} states nothing")
        elif model.record_id(record.kind, record.project, text) == record.id:
            raise DecisionError(f"the text is {record.id}'s own")
    elif by or text:
        raise DecisionError(f"{named['by']} and {named['text']} go with supersede")
    if record.state == state and (state != "superseded" or (successor and record.by == successor.id)):
        return {"log_outcome": "already_present", "event_id": record.change_id,
                "record": entry(ledger, record)}
    if not record.current:
        raise DecisionError(f"{record.id} is already {record.state}"
                            + (f" (by {record.by})" if record.by else "") + "; only a current record changes state")
    by_id = successor.id if successor else (model.record_id(record.kind, record.project, text) if text else "")
    row = model.update_row(record, state, by=by_id, text=text,
                           reason=reason or "", session_id=session_id, provider=provider, via=words,
                           timestamp=format_timestamp(now or utcnow()),
                           successor_text=successor.text if successor else "")
    row = redacted([row])[0]  # reasons and texts are typed by people and agents
    if not dry_run:
        append_rows(home.log("milestones"), [row])
        append_rows(home.log("changelog"), [order_row("changelog-milestone", {
            "event_id": row["event_id"], "timestamp": row["timestamp"],
            "type": "milestone_" + model.UPDATE, "provider": row["provider"],
            "session_id": row.get("session_id"), "project": row.get("project"), "cwd": row.get("cwd"),
            "deeplink": "", "summary": row["description"], "transcript_path": None,
            "transcript_verified": False, "related_ids": [], "salience": row["salience"],
            "via": row["via"]})])
    after = model.fold([*model.rows(home, complete=True), row] if dry_run
                        else model.rows(home, complete=True))
    changed = after.records.get(record.id, record)
    out = {"log_outcome": "dry_run" if dry_run else "written", "event_id": row["event_id"],
           "record": entry(after, changed), "row": row}
    if text:
        new = after.records.get(by_id)
        out["successor"] = entry(after, new) if new is not None else None
    return out


def proposals(home, row: dict) -> list[dict]:
    """The supersessions a wrapup row's decisions propose (`model.reversals`), against the
    records the home held before it."""
    project = row.get("project") if isinstance(row.get("project"), str) else ""
    decisions = [d for d in row.get("decisions") or [] if isinstance(d, str)]
    if not decisions:
        return []
    return model.reversals(model.load(home), project, decisions)
