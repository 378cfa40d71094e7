"""`carto team push`: the home's logs are the outbox.

For each searched log, in the fold order (domain logs before the changelog), the rows after the
position the last push reached are read, kept when their project is allowed, redacted once
more, folded within the batch (a turn written again as it grew: the newest row), and sent in
bounded batches (rows and bytes). The changelog's ids ahead of the push are read first: a
domain row whose copy is among them goes out already listing the changelog in its `logs`, and
the copy stays here (`folded`). A batch is one transaction on the server:

1. COPY into a temporary inbox;
2. ids already held by another machine or another person are refused: left as they are,
   counted per holder, reported (a machine never overwrites another's ids), and so are ids
   held in a project this login may not read (`_UNSEEN`); a push that refused any ends in the
   state `refused` (`refusal_reason` says how many and whose);
3. a row that does not replace the one held (from a log the fold ranks after it: the
   changelog's copy of a tool call pushed after its tool-use row; or an equal or older
   revision) but names a log the held row does not list only adds it to `logs`;
4. the rest are upserted by (team, event_id): a new id is inserted; a held one is replaced only
   by a newer revision from the same machine (a revised turn), or by the same event's row from
   a log that wins the fold; an equal or older revision changes nothing (a re-sent batch, a
   push that arrives out of order);
5. the author's tallies and an audit row are written in the same transaction (the terms'
   document counts by the server's triggers: `schema`), then the counts are folded.

The log's position (`<home>/.carto/team/outbox.json`, per server as it names itself
(`server_identity`: a copy of a server's database is another server), team and machine)
advances only after the commit returns, and keeps the id of the batch's audit row: a server
restored to an earlier point in place lacks it, and the push goes back to the positions of the
newest push whose audit row it still holds (`lost_pushes`); a forget made from this home that
such a server no longer holds is made again before anything is sent (`forget.forget_again`). A
connection lost mid-batch is retried (libpq tries every host of the URL, so a promoted standby is
found) until `retry_seconds` pass; then the push stops, says why, and the next push starts from
the last committed batch: nothing acknowledged is lost, nothing is sent twice into the table (the
upsert is idempotent).

A project allowed after rows of it were read is caught up: its rows before the position are
read again for it alone (`keys` per log records which projects a position covers), and so are
rows `[capture] exclude` held back once the entry that held them is lifted (`held` per log
records which entry held which stretch of it). A log
rewritten under its position (a repair) is read again from its start, its rows now a newer
revision. Offline: nothing local changes, the next push catches up.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable

from carto_core.logio.fold import LOAD_ORDER
from carto_core.logio.logstate import identity, log_state, log_status
from carto_core.logio.reader import READ_BLOCK
from carto_core.team.connect import (TeamDenied, TeamError, TeamUnreachable, classify, clean_url, connect,
                                     not_a_member, server_fingerprint, server_identity)
from carto_core.team.rows import ARRAYS, COLUMNS, LOG_RANK, files_text, revision, team_files, terms_of
from carto_core.team.settings import folder, write_private
from carto_core.util.privatefiles import make_dirs

OUTBOX = "outbox.json"
LOCK = "push.lock"
BATCH_ROWS = 2000
#: Bytes of row JSON a batch carries at most (the server's memory, one COPY's size).
BATCH_BYTES = 8 << 20
RETRY_SECONDS = 30.0
#: Batches between two folds of the term counts (and one at the end of a push): the deltas a
#: search sums stay a few batches' worth, and a fold merges several batches' counts at once.
FOLD_EVERY = 8
OUTBOX_FORMAT = 2

_INBOX = """CREATE TEMP TABLE IF NOT EXISTS carto_inbox (
    event_id text, machine text, project_key text, project text, log text, log_rank smallint,
    logs text, rev bigint, ts timestamptz, session text, type text, provider text, summary text,
    row jsonb, files text, terms text, tfs text, dl integer, model text,
    embedding vector) ON COMMIT DELETE ROWS"""

_REFUSE = """DELETE FROM carto_inbox i USING carto.events e
    WHERE e.team = %(team)s AND e.event_id = i.event_id
      AND (e.machine <> i.machine OR e.author <> current_user)
    RETURNING i.event_id, e.author, e.machine,
        CASE WHEN e.author = current_user THEN 'another_machine' ELSE 'another_person' END"""

#: Ids held in a project this login may not read: row-level security hides the held row from
#: `_REFUSE` and the upsert leaves it alone, so the row sent is not on the server. Who holds
#: it is not this login's to know.
_UNSEEN = """SELECT i.event_id, NULL, NULL, 'not_readable' FROM carto_inbox i
    WHERE NOT EXISTS (SELECT 1 FROM carto.events e WHERE e.team = %(team)s AND e.event_id = i.event_id)"""

#: `logs` of a server row list its own log first, then the others in the fold order (as
#: `Corpus.sources` does).
_ORDERED_LOGS = ("ARRAY(SELECT x FROM (SELECT DISTINCT unnest({}) AS x) AS d ORDER BY array_position(ARRAY["
                 + ", ".join(f"'{label}'" for label in LOAD_ORDER) + "], x))")

#: A row that does not replace the one held (a log that loses the fold, an equal or older
#: revision) but names a log the held row does not list yet: only `logs` grows. (The upsert
#: leaves such rows alone: its WHERE is the fold rule.)
_MERGE = """WITH held AS (
        UPDATE carto.events e SET logs = """ + _ORDERED_LOGS.format("e.logs || string_to_array(i.logs, ' ')") + """
        FROM carto_inbox i
        WHERE e.team = %(team)s AND e.event_id = i.event_id
          AND (i.log_rank > e.log_rank OR (i.log_rank = e.log_rank AND i.rev <= e.rev))
          AND NOT (string_to_array(i.logs, ' ') <@ e.logs)
        RETURNING e.event_id)
    SELECT count(*) FROM held"""

_TABLE_COLUMNS = ("event_id", "machine", "project_key", "project", "log", "log_rank", "logs", "rev",
                  "ts", "session", "type", "provider", "summary", "row", "files", "terms", "tfs",
                  "dl", "model", "embedding")
_UPSERT = f"""INSERT INTO carto.events AS e (team, {', '.join(_TABLE_COLUMNS)})
    SELECT %(team)s, {', '.join(ARRAYS.get(c, c) for c in _TABLE_COLUMNS)} FROM carto_inbox
    ON CONFLICT (team, event_id) DO UPDATE SET
        {', '.join(f'{c} = excluded.{c}' for c in _TABLE_COLUMNS if c not in ('event_id', 'machine', 'logs'))},
        logs = {_ORDERED_LOGS.format("e.logs || excluded.logs")},
        pushed_at = now()
    WHERE e.machine = excluded.machine AND e.author = current_user
      AND (excluded.log_rank < e.log_rank
           OR (excluded.log_rank = e.log_rank AND excluded.rev > e.rev))
    RETURNING (xmax = 0) AS inserted, e.dl"""

_TALLY = """INSERT INTO carto.tallies (team, machine, events, dl_sum) VALUES (%(team)s, %(machine)s, %(n)s, %(dl)s)
    ON CONFLICT (team, author, machine) DO UPDATE
    SET events = carto.tallies.events + excluded.events, dl_sum = carto.tallies.dl_sum + excluded.dl_sum"""

_AUDIT = """INSERT INTO carto.audit (team, machine, action, sent, inserted, updated, unchanged, refused, detail)
    VALUES (%(team)s, %(machine)s, 'push', %(sent)s, %(inserted)s, %(updated)s, %(unchanged)s, %(refused)s, %(detail)s)
    RETURNING id, member"""


class PushReport:
    """What one push did (`to_dict`: the `--json` summary)."""

    def __init__(self):
        self.state = "ok"
        self.reason = ""
        self.read = 0
        self.sent = 0
        self.inserted = 0
        self.updated = 0
        self.merged = 0
        self.unchanged = 0
        self.refused = 0
        self.refused_ids: list[str] = []
        #: (why, author, machine) of the rows holding refused ids -> how many, a few ids.
        self.refusals: dict[tuple[str, str, str], dict] = {}
        self.not_allowed = 0
        #: Rows of allowed projects that `[capture] exclude` keeps here as it reads now.
        self.excluded = 0
        #: Rows an exclusion held back at an earlier push, sent now that it is lifted.
        self.released = 0
        #: Changelog copies folded into their domain rows before sending (never sent).
        self.folded = 0
        self.no_event_id = 0
        self.batches = 0
        self.retries = 0
        self.vectors = ""
        self.logs: dict[str, dict] = {}
        self.problems: list[str] = []
        self.seconds = 0.0

    def refuse(self, refused: list[tuple]) -> None:
        """Count one batch's refused rows, grouped by why and by who holds their ids."""
        self.refused += len(refused)
        self.refused_ids.extend(r[0] for r in refused[: max(0, 20 - len(self.refused_ids))])
        for event_id, author, machine, why in refused:
            group = self.refusals.setdefault((why, author, machine), {
                "why": why, "author": author, "machine": machine, "rows": 0, "ids": []})
            group["rows"] += 1
            if len(group["ids"]) < 3:
                group["ids"].append(event_id)

    def refused_by(self) -> list[dict]:
        return sorted(self.refusals.values(), key=lambda g: (-g["rows"], g["why"], g["author"] or "",
                                                             g["machine"] or ""))

    def log(self, label: str) -> dict:
        return self.logs.setdefault(label, {"read": 0, "sent": 0, "caught_up": 0, "folded": 0,
                                            "from": 0, "to": 0})

    def to_dict(self) -> dict:
        return {"state": self.state, "reason": self.reason or None, "read": self.read,
                "sent": self.sent, "inserted": self.inserted, "updated": self.updated,
                "merged": self.merged, "folded": self.folded, "unchanged": self.unchanged,
                "refused": self.refused,
                "refused_ids": self.refused_ids[:20], "refused_by": self.refused_by(),
                "not_allowed": self.not_allowed, "excluded": self.excluded, "released": self.released,
                "no_event_id": self.no_event_id, "batches": self.batches, "retries": self.retries,
                "vectors": self.vectors, "logs": self.logs, "problems": self.problems,
                "seconds": round(self.seconds, 3)}


_REFUSAL_WHO = {"another_person": "{author} on {machine}", "another_machine": "your machine {machine}",
                "not_readable": "someone in a project you may not read"}


def refusal_reason(refused: int, groups: list[dict]) -> str:
    """How many rows the server refused and why, one clause per holder of their ids (`groups`:
    `PushReport.refused_by`)."""
    parts = [f"{g['rows']:,} held by " + _REFUSAL_WHO[g["why"]].format(**g) + f" (e.g. {', '.join(g['ids'])})"
             for g in groups[:5]]
    if len(groups) > 5:
        parts.append(f"{sum(g['rows'] for g in groups[5:]):,} held by {len(groups) - 5} others")
    rows = "row was" if refused == 1 else "rows were"
    return (f"{refused:,} {rows} refused, not shared from this machine: their ids are already on "
            f"the server from another machine (a push never overwrites another machine's rows): {'; '.join(parts)}")


# --------------------------------------------------------------------------- the outbox


def _legacy_fingerprint(settings) -> str:
    """The outbox's first format named the stored URL, whichever server a push reached."""
    return server_fingerprint(settings, settings.stored_url)


def _read_outbox(home, settings) -> dict:
    """The outbox file as {"v", "servers": fingerprint -> positions, "legacy"}: one entry per
    server pushed to from here (each with the URL it was reached by), and the positions of the
    first format not yet claimed by a server."""
    try:
        data = json.loads((folder(home) / OUTBOX).read_text("utf-8"))
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    if data.get("v") == 1:
        # Positions of the first format are the stored URL's server's: the first push that
        # reaches a server through the stored URL takes them over.
        legacy = None
        if data.get("server") == _legacy_fingerprint(settings) and isinstance(data.get("logs"), dict):
            legacy = {"logs": data["logs"], "url": clean_url(settings.stored_url)}
        return {"v": OUTBOX_FORMAT, "servers": {}, "legacy": legacy}
    if data.get("v") != OUTBOX_FORMAT or not isinstance(data.get("servers"), dict):
        return {"v": OUTBOX_FORMAT, "servers": {}, "legacy": None}
    return data


def load_outbox(home, settings, identity: str | None = None) -> dict:
    """The positions of one server: `{"server", "url", "logs"}`. With `identity` (a push, once
    connected) the server's own; without (`carto team status`, which need not connect) those
    last pushed through the URL in use."""
    data = _read_outbox(home, settings)
    url = clean_url(settings.url)
    legacy = data.get("legacy") if isinstance(data.get("legacy"), dict) else None
    if identity is not None:
        fingerprint = server_fingerprint(settings, identity)
        found = data["servers"].get(fingerprint)
        if isinstance(found, dict) and isinstance(found.get("logs"), dict):
            return {"server": fingerprint, "identity": identity, "url": url, "logs": found["logs"],
                    **_receipts(found)}
        if legacy and legacy.get("url") == url:
            return {"server": fingerprint, "identity": identity, "url": url, "logs": legacy["logs"],
                    "claims_legacy": True}
        return {"server": fingerprint, "identity": identity, "url": url, "logs": {}}
    reached = [(entry.get("at") or 0, fingerprint) for fingerprint, entry in data["servers"].items()
               if isinstance(entry, dict) and entry.get("url") == url and isinstance(entry.get("logs"), dict)]
    if reached:
        fingerprint = max(reached)[1]
        found = data["servers"][fingerprint]
        return {"server": fingerprint, "url": url, "logs": found["logs"], **_receipts(found)}
    if legacy and legacy.get("url") == url:
        return {"server": None, "url": url, "logs": legacy["logs"]}
    return {"server": None, "url": url, "logs": {}}


def save_outbox(home, outbox: dict, settings) -> None:
    """Write one server's positions (`load_outbox`'s document), keeping every other server's."""
    target = folder(home)
    make_dirs(target)
    data = _read_outbox(home, settings)
    data["servers"][outbox["server"]] = {"logs": outbox["logs"], "url": outbox["url"],
                                         "identity": outbox.get("identity"), "at": time.time(),
                                         **_receipts(outbox)}
    if outbox.get("claims_legacy"):
        data["legacy"] = None
    write_private(target / OUTBOX, json.dumps(data, sort_keys=True))


#: Pushes whose positions a server entry keeps, to go back to when the server lost later ones.
CHECKPOINTS = 16


def _receipt(value) -> dict | None:
    if isinstance(value, dict) and isinstance(value.get("audit"), int) and isinstance(value.get("push"), str):
        return value
    return None


def _receipts(entry: dict) -> dict:
    """A server entry's receipts: `receipt`, the audit row of the last batch it committed (id,
    push id, login, when), and `checkpoints`, the positions at the end of recent pushes, each
    with the receipt of its last batch."""
    out = {}
    if _receipt(entry.get("receipt")):
        out["receipt"] = entry["receipt"]
    checkpoints = [c for c in entry.get("checkpoints") or []
                   if isinstance(c, dict) and _receipt(c.get("receipt")) and isinstance(c.get("logs"), dict)]
    if checkpoints:
        out["checkpoints"] = checkpoints[-CHECKPOINTS:]
    return out


def checkpoint(outbox: dict) -> None:
    """Keep the positions a push ended at beside the receipt of its last batch."""
    receipt = outbox.get("receipt")
    if not receipt:
        return
    checkpoints = [c for c in outbox.get("checkpoints") or [] if c["receipt"] != receipt]
    checkpoints.append({"receipt": receipt, "logs": json.loads(json.dumps(outbox["logs"]))})
    outbox["checkpoints"] = checkpoints[-CHECKPOINTS:]


def lost_pushes(conn, settings, outbox: dict) -> dict | None:
    """Whether the server lost batches it committed for these positions: a server restored to
    an earlier point (point-in-time recovery, a dump restored into the same database) keeps its
    id and place, but not the audit rows written with the rows after that point (a batch's rows
    and its audit row commit together, and a member can never delete an audit row). None when
    the last batch's audit row is there (or no receipt can be checked: an older outbox, another
    login that does not own the schema: `pushes_unchecked`); else `{"since": when the newest
    lost batch was committed, "checkpoint": the newest checkpoint whose batch the server holds
    (None: send everything again)}`."""
    import psycopg

    receipt = outbox.get("receipt")
    if not receipt:
        return None
    try:
        if pushes_unchecked(conn, outbox):
            return None
        wanted = [receipt] + [c["receipt"] for c in outbox.get("checkpoints") or []]
        held = {(audit, push) for audit, push in conn.execute(
            "SELECT id, detail->>'push' FROM carto.audit WHERE team = %s AND id = ANY(%s)",
            (settings.team, [r["audit"] for r in wanted])).fetchall()}
    except psycopg.Error:
        return None  # not checkable: the push itself meets (and reports) what is wrong
    finally:
        conn.rollback()
    if (receipt["audit"], receipt["push"]) in held:
        return None
    kept = [c for c in outbox.get("checkpoints") or [] if (c["receipt"]["audit"], c["receipt"]["push"]) in held]
    lost = [c["receipt"] for c in outbox.get("checkpoints") or [] if c not in kept]
    since = min((r.get("at") or 0 for r in lost + [receipt]), default=0)
    return {"since": iso_time(since), "checkpoint": kept[-1] if kept else None}


def pushes_unchecked(conn, outbox: dict) -> str | None:
    """Why `lost_pushes` cannot check these positions, or None: row-level security shows a
    member its own audit rows alone, so the receipt of a push made as another login is read by
    that login or by the schema's owner (who bypasses it), and by nobody else."""
    from carto_core.team.forget import is_owner

    login = (outbox.get("receipt") or {}).get("login")
    if not login:
        return None
    me = conn.execute("SELECT current_user").fetchone()[0]
    if login == me or is_owner(conn):
        return None
    return (f"whether the team server still holds what this machine pushed is not checked: the last push from "
            f"here was made as {login}, and the server shows {me} only its own audit rows (check as {login}, "
            "or as the schema's owner)")


def iso_time(stamp: float) -> str | None:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(stamp, timezone.utc).isoformat(timespec="seconds") if stamp else None


def resume_after_loss(outbox: dict, lost: dict) -> str:
    """Go back to the newest checkpoint the server holds (else the start); says what was done."""
    kept = lost["checkpoint"]
    if kept is None:
        outbox["logs"], outbox["checkpoints"] = {}, []
        outbox.pop("receipt", None)
        again = "sending every row again"
    else:
        outbox["logs"] = json.loads(json.dumps(kept["logs"]))
        outbox["receipt"] = kept["receipt"]
        outbox["checkpoints"] = outbox["checkpoints"][:outbox["checkpoints"].index(kept) + 1]
        again = f"sending again what was pushed after {iso_time(kept['receipt'].get('at') or 0)}"
    return (f"the team server no longer holds rows this machine pushed since {lost['since']} (restored to an "
            f"earlier point?): {again}; what it still holds is left as it is")


# --------------------------------------------------------------------------- sending


class Sender:
    """One connection and the batches sent through it; reconnects when the server goes away."""

    def __init__(self, settings, report: PushReport, retry_seconds: float, connector=connect,
                 sleep: Callable[[float], None] = time.sleep):
        self.settings = settings
        self.report = report
        self.retry_seconds = retry_seconds
        self.connector = connector
        self.sleep = sleep
        self.conn = None
        #: Batches committed since the last fold of the term counts.
        self.unfolded = 0
        #: Names this push in each batch's audit row (a batch is a transaction, and an audit
        #: row, of its own), so `carto team status` can add a push's batches up.
        self.push_id = os.urandom(8).hex()
        #: The audit row of the last batch committed (`lost_pushes` checks the server holds it).
        self.receipt: dict | None = None

    def open(self):
        if self.conn is None or self.conn.closed:
            from pgvector.psycopg import register_vector

            self.conn = self.connector(self.settings, query_timeout_ms=120_000)
            register_vector(self.conn)
            self.conn.adapters.register_dumper(_RawJson, _raw_json_dumper())
            self.conn.execute(_INBOX)
            self.conn.commit()
        return self.conn

    def fold(self) -> None:
        """Move the term counts the server's triggers appended into their table (a fold already
        running for the team: this one returns at once, the deltas wait for the next)."""
        if self.conn is not None and not self.conn.closed:
            self.conn.execute("SELECT carto.fold_terms(%s)", (self.settings.team,))
            self.conn.commit()
        self.unfolded = 0

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:  # noqa: BLE001 - closing a dead connection
                pass
            self.conn = None

    def send(self, rows: list[tuple], detail: dict) -> dict:
        """Send one batch; retried on a lost connection until `retry_seconds` pass. Raises
        TeamError (unreachable, denied) when it cannot be sent."""
        import psycopg

        deadline = time.monotonic() + self.retry_seconds
        delay = 0.2
        while True:
            try:
                return self._send_once(rows, detail)
            except psycopg.OperationalError as exc:
                # The connection broke: the batch may or may not have committed. Sending it
                # again is safe (idempotent), so reconnect and do.
                self.close()
                error = classify(exc, self.settings)
            except TeamUnreachable as exc:
                self.close()
                error = exc
            except psycopg.errors.InsufficientPrivilege as exc:
                self.close()
                raise TeamDenied(f"the team server refused the rows: {str(exc).splitlines()[0]} "
                                 "(is this project granted to you? `carto team status`)") from None
            except psycopg.Error as exc:
                self.close()
                raise classify(exc, self.settings) from None
            if time.monotonic() + delay > deadline:
                raise error
            self.report.retries += 1
            self.report.problems.append(f"batch {self.report.batches + 1}: {error}; retrying")
            self.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _send_once(self, rows: list[tuple], detail: dict) -> dict:
        from psycopg.types.json import Jsonb

        conn = self.open()
        team = self.settings.team
        params = {"team": team}
        with conn.transaction():
            cur = conn.cursor()
            with cur.copy(f"COPY carto_inbox ({', '.join(COLUMNS)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            refused = [tuple(r) for r in cur.execute(_REFUSE, params).fetchall()]
            merged = cur.execute(_MERGE, params).fetchone()[0]
            changed = cur.execute(_UPSERT, params).fetchall()
            refused += [tuple(r) for r in cur.execute(_UNSEEN, params).fetchall()]
            inserted = sum(1 for r in changed if r[0])
            updated = len(changed) - inserted
            dl = sum(r[1] for r in changed if r[0])
            if inserted:
                cur.execute(_TALLY, {**params, "machine": self.settings.machine, "n": inserted, "dl": dl})
            unchanged = len(rows) - len(refused) - merged - len(changed)
            audit = cur.execute(_AUDIT, {**params, "machine": self.settings.machine, "sent": len(rows),
                                 "inserted": inserted, "updated": updated,
                                 "unchanged": unchanged, "refused": len(refused),
                                 "detail": Jsonb({**detail, "push": self.push_id, "merged": merged,
                                                  "refused_ids": [r[0] for r in refused[:20]]})}).fetchone()
        self.receipt = {"audit": audit[0], "push": self.push_id, "login": audit[1], "at": time.time()}
        self.unfolded += 1
        if self.unfolded >= FOLD_EVERY:
            self.fold()
        return {"inserted": inserted, "updated": updated, "merged": merged,
                "unchanged": unchanged, "refused": refused}


# --------------------------------------------------------------------------- the push


class _Batch:
    """Rows waiting to be sent, one per event_id (the newest read wins: a turn that grew)."""

    def __init__(self):
        self.rows: dict[str, tuple] = {}
        self.texts: dict[str, str] = {}
        self.bytes = 0

    def add(self, event_id: str, row: tuple, size: int, text: str) -> None:
        if event_id in self.rows:
            del self.rows[event_id]  # keep the newest row, at the end
        self.rows[event_id] = row
        self.texts[event_id] = text
        self.bytes += size

    def __len__(self) -> int:
        return len(self.rows)


def team_config(conn, team: str) -> dict:
    """The team's model, dimension and analyzer; TeamDenied when this login is no member."""
    found = conn.execute("SELECT model, dim, analyzer FROM carto.teams WHERE team = %s", (team,)).fetchone()
    conn.rollback()
    if found is None:
        raise not_a_member(conn, team)
    return {"model": found[0], "dim": found[1], "analyzer": found[2]}


def check_grants(conn, team: str, allowed: set[str]) -> None:
    """TeamDenied naming the allowed projects this login may not push, before any row is sent:
    row-level security would refuse the first batch holding one of them, and say only that a
    policy was violated."""
    login = conn.execute("SELECT current_user").fetchone()[0]
    grants = conn.execute("SELECT project, can_write FROM carto.members WHERE team = %s AND member = current_user",
                          (team,)).fetchall()
    conn.rollback()
    writable = {project for project, can_write in grants if can_write}
    if "*" in writable:
        return
    refused = sorted(allowed - writable)
    if refused:
        keys = ", ".join(refused)
        raise TeamDenied(f"team {team} grants {login} no push to {keys}: stop sending "
                         f"{'it' if len(refused) == 1 else 'them'} from here (`carto team allow --remove "
                         f"{' '.join(refused)}`) or the team's administrator runs `carto team admin grant "
                         f"{login} --team {team} " + " ".join(f"--project {key}" for key in refused) + "`")


def team_embedder(home, config: dict):
    """(the local embedder when it makes the team's vectors, why not otherwise)."""
    if not config.get("model"):
        return None, "the team keeps no vectors"
    try:
        from carto_core.semantic.embedder import create_embedder
        from carto_core.semantic.settings import SemanticSettings

        settings = SemanticSettings.load()
        embedder = create_embedder(settings.embedder, home, settings)
        embedder.check()
        tag = embedder.model_tag
    except Exception as exc:  # noqa: BLE001 - no vectors is an answer, never a failure
        return None, f"not sent: the local embedder is unavailable ({type(exc).__name__}: {exc})"
    if getattr(embedder, "needs_fit", False):
        return None, f"not sent: {embedder.name} is fitted on this machine's corpus, no other can compare its vectors"
    if tag != config["model"]:
        return None, f"not sent: the local model {tag} is not the team's {config['model']}"
    return embedder, "sent"


def push(home, settings, *, batch_rows: int = BATCH_ROWS, batch_bytes: int = BATCH_BYTES,
         retry_seconds: float = RETRY_SECONDS, progress: Callable[[int, int], None] | None = None,
         connector=connect, from_start: bool = False, embed: bool = True) -> PushReport:
    """Push what the home's logs hold beyond the outbox's positions (see the module)."""
    from carto_core.capture.detached import exclusive

    report = PushReport()
    started = time.monotonic()
    make_dirs(folder(home))
    with exclusive(home, f"{folder(home).name}/{LOCK}") as held:
        if not held:
            report.state, report.reason = "busy", "another push of this home is running"
            return report
        sender = Sender(settings, report, retry_seconds, connector)
        try:
            _push_locked(home, settings, sender, report, batch_rows, batch_bytes, progress, embed, from_start)
            if sender.unfolded:
                _fold_at_end(sender, report)
            if report.refused and report.state == "ok":
                # Every batch committed, but these rows are not shared from here: a caller
                # must be able to tell (the CLI exits 4 on this state).
                report.state, report.reason = "refused", refusal_reason(report.refused, report.refused_by())
        except TeamError as exc:
            report.state, report.reason = exc.state, str(exc)
        finally:
            sender.close()
    report.seconds = time.monotonic() - started
    return report


def _fold_at_end(sender: Sender, report: PushReport) -> None:
    """The last fold of a push: what it does not fold, the next push or forget does (a search
    sums the deltas meanwhile), so a failure is a problem reported, not a failed push."""
    import psycopg

    try:
        sender.fold()
    except psycopg.Error as exc:
        report.problems.append(f"term counts not folded: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}; "
                               "the next push folds them")


def _push_locked(home, settings, sender: Sender, report: PushReport, batch_rows: int,
                 batch_bytes: int, progress, embed: bool, from_start: bool = False) -> None:
    import psycopg

    from carto_core.logio.reader import ReadReport, iter_lines
    from carto_core.model.events import Event
    from carto_core.privacy.redact import redact_row
    from carto_core.search.analysis import resolve_analyzer
    from carto_core.semantic.text import document_text
    from carto_core.team.forget import forget_again
    from carto_core.team.remotes import KeyCache

    conn = sender.open()
    config = team_config(conn, settings.team)
    embedder, report.vectors = team_embedder(home, config) if embed else (None, "not sent (--no-vectors)")
    try:
        analyzer = resolve_analyzer(config["analyzer"])
    except Exception as exc:  # noqa: BLE001 - an unknown analyzer name
        raise TeamError(f"the team's analyzer {config['analyzer']!r} is not installed here: {exc}") from None
    server, copy_of = server_identity(conn, settings)
    outbox = load_outbox(home, settings, server)
    if copy_of and outbox.pop("claims_legacy", False):
        outbox["logs"] = {}  # the first format's positions are the original's
    lost = lost_pushes(conn, settings, outbox)
    if lost:
        report.problems.append(resume_after_loss(outbox, lost))
        save_outbox(home, outbox, settings)
    try:
        if not lost:
            report.problems.extend(why for why in [pushes_unchecked(conn, outbox)] if why)
            conn.rollback()
        # Before anything is sent, and whatever is allowed: a forget the server no longer
        # holds (restored to an earlier point) left the rows it removed there again.
        report.problems.extend(forget_again(conn, home, settings, outbox["server"]))
    except psycopg.Error as exc:
        raise classify(exc, settings) from None
    if from_start:
        # This server's positions only: another server's still say what it holds.
        outbox["logs"] = {}
        save_outbox(home, outbox, settings)
    if copy_of and not any(outbox["logs"].values()):
        report.problems.append(f"this server is a copy of team server {copy_of} (its database was restored from a "
                               "dump or made from a template): it is pushed to from the start, apart from the "
                               "original; `carto team admin setup` on it gives it an id of its own")
    matcher = settings.matcher()
    excluded = _Excluded(matcher)
    allowed = matcher.keys
    keys = KeyCache()
    machine = settings.machine
    if not allowed:
        report.state, report.reason = "nothing_allowed", ("no project is allowed to leave this machine: "
                                                           "`carto team allow PATH` allows one")
        return
    check_grants(conn, settings.team, allowed)
    # What each log needs: its catch-up range (projects allowed since its position was
    # reached), then its new rows.
    plan = []
    total = 0
    for label in LOAD_ORDER:
        path = home.log(label)
        entry = outbox["logs"].get(label) or {}
        state = entry.get("state")
        status = log_status(path, state)
        covered = covered_keys(entry, matcher.allowings)
        if status == "stale":
            state, covered = None, set()
            report.problems.append(f"{label}: rewritten since the last push; read again from its start")
        end = state["end"] if state else 0
        new_keys = allowed - covered
        held = held_back(entry) if state else []
        # Rows an exclusion since lifted held back are read again for the projects the position
        # covers (a catch-up of new projects reads them anyway).
        release = _Release.of(held, end, excluded, covered & allowed)
        try:
            size = os.path.getsize(path)
        except OSError:
            size = 0
        if new_keys and end:
            plan.append((label, 0, 0, end, new_keys | (release.keys if release else set()), "catch_up", release))
            total += end
        elif release and release.keys and end:
            plan.append((label, release.start, release.line, release.until, release.keys, "catch_up", release))
            total += release.until - release.start
        elif release:
            held = [r for r in held if r not in release.lifted]
        if size > end:
            plan.append((label, end, state["lines"] if state else 0, None, allowed, "new", None))
            total += size - end
        outbox["logs"][label] = (_covering({"state": state, **({"held": held} if held else {})}, covered & allowed,
                                           matcher.allowings) if state else {})
    # The changelog holds a copy of most domain rows (same event_id): its ids ahead of this
    # push, read first, let a domain row go out already naming the changelog, and its copy
    # stay here (nothing to redact, analyse or send; the server would only add the label).
    copies = changelog_ids(home, plan)
    folded: set[str] = set()
    done_bytes = 0
    for label, start, start_line, until, wanted, kind, release in plan:
        path = home.log(label)
        log_report = report.log(label)
        before = identity(path)
        generation = before.get("generation", 0) or 0
        read_report = ReadReport(str(path))
        batch = _Batch()
        last_end, last_line = start, start_line

        def flush(final: bool = False) -> None:
            nonlocal batch
            if not batch and not final:
                return
            if batch:
                rows = list(batch.rows.values())
                if embedder is not None:
                    rows = _with_vectors(embedder, rows, list(batch.texts.values()), report)
                detail = {"log": label, "kind": kind, "first": rows[0][0], "last": rows[-1][0]}
                result = sender.send(rows, detail)
                outbox["receipt"] = sender.receipt
                report.batches += 1
                report.sent += len(rows)
                log_report["sent"] += len(rows)
                if kind == "catch_up":
                    log_report["caught_up"] += len(rows)
                report.inserted += result["inserted"]
                report.updated += result["updated"]
                report.merged += result["merged"]
                report.unchanged += result["unchanged"]
                report.refuse(result["refused"])
            # Committed: the position moves (a catch-up moves no position: it covers a range
            # the position already passed, for new projects).
            if kind == "new":
                entry = outbox["logs"].setdefault(label, {})
                entry["state"] = log_state(path, last_end, last_line, before)
                # Every allowed project is covered up to here: before the old position by the
                # catch-up that ran first (or there was none to cover), after it by this pass.
                _covering(entry, wanted, matcher.allowings)
                save_outbox(home, outbox, settings)
            batch = _Batch()

        log_report["from"] = start
        for line in iter_lines(path, read_report, start=start, start_lineno=start_line):
            if until is not None and line.offset >= until:
                break
            last_end, last_line = line.end, line.lineno
            report.read += 1
            log_report["read"] += 1
            raw = line.row
            event_id = raw.get("event_id")
            if line.problem == "missing_event_id" or not isinstance(event_id, str):
                report.no_event_id += 1
                continue
            if label == CHANGELOG and event_id in folded:
                report.folded += 1
                log_report["folded"] += 1
                continue
            key = matcher.key_of_row(raw)
            if key is None or key not in wanted:
                # A catch-up passes over the rows of projects allowed before (sent already).
                if key not in allowed:
                    report.not_allowed += 1
                continue
            releasing = release is not None and key in release.keys
            if releasing and not release.held(raw, key):
                continue  # sent before: the exclusion lifted did not hold it back
            holders = excluded.holders(raw, key)
            if holders:
                report.excluded += 1
                hold(outbox["logs"].setdefault(label, {}), holders, line)
                continue
            if releasing:
                report.released += 1
            row = redact_row(raw)
            event = Event.from_row(row, label)
            logs = label
            if label != CHANGELOG and event.event_id in copies.get(kind, ()):
                logs = f"{label} {CHANGELOG}"
                folded.add(event.event_id)
            terms, tfs, dl = terms_of(analyzer, row)
            data = json.dumps(row, ensure_ascii=False).replace("\\u0000", "\\ufffd")
            record = (event.event_id, machine, key, event.project, label, LOG_RANK[label], logs,
                      revision(generation, line.end), event.timestamp, event.session_id, event.type,
                      event.provider, _no_nul(event.summary), _RawJson(data),
                      files_text(team_files(event, keys)), terms, tfs, dl, None, None)
            batch.add(event.event_id, record, len(data), document_text(event) if embedder is not None else "")
            if len(batch) >= batch_rows or batch.bytes >= batch_bytes:
                flush()
            if progress is not None and report.read % 500 == 0:
                progress(done_bytes + (line.end - start), total)
        if until is None:
            last_end = max(last_end, read_report.end_offset)
            if read_report.lines:
                last_line = max(last_line, start_line + read_report.lines)
        flush(final=kind == "new")
        if kind == "catch_up":
            entry = outbox["logs"].setdefault(label, {})
            _covering(entry, covered_keys(entry, matcher.allowings) | wanted, matcher.allowings)
            if release is not None:
                entry["held"] = [r for r in held_back(entry) if r not in release.lifted]
            save_outbox(home, outbox, settings)
        log_report["to"] = last_end
        done_bytes += (last_end if until is None else until) - start
        if progress is not None:
            progress(done_bytes, total)
        for message in read_report.messages():
            report.problems.append(message)
    if sender.receipt is not None:
        checkpoint(outbox)
        save_outbox(home, outbox, settings)


def covered_keys(entry: dict, allowings: dict) -> set[str]:
    """The projects a log's position covers: those it covered for the allowing of them in force
    now. A project taken off the list and allowed again (`carto team forget` clears it; its
    rows may have left the server) is caught up from the start."""
    done = entry.get("allowed") if isinstance(entry.get("allowed"), dict) else {}
    return {key for key in entry.get("keys") or [] if done.get(key) == allowings.get(key)}


def _covering(entry: dict, keys, allowings: dict) -> dict:
    entry["keys"] = sorted(keys)
    entry["allowed"] = {key: allowings[key] for key in entry["keys"] if allowings.get(key)}
    return entry


def held_back(entry: dict) -> list[dict]:
    """A log's records of rows an exclusion held back before its position: `{"by": the
    `[capture] exclude` entry (None: the config file could not be read, which holds everything
    back), "from", "line": where the first such row starts, "to": where the last ends}`."""
    return [r for r in entry.get("held") or [] if isinstance(r, dict)
            and (r.get("by") is None or isinstance(r.get("by"), str))
            and all(isinstance(r.get(k), int) for k in ("from", "line", "to"))]


def hold(entry: dict, holders: list, line) -> None:
    """Record that the entries `holders` held back the row `line` of the entry's log."""
    records = held_back(entry)
    for by in holders:
        for record in records:
            if record["by"] == by:
                if line.offset < record["from"]:
                    record["from"], record["line"] = line.offset, line.lineno - 1
                record["to"] = max(record["to"], line.end)
                break
        else:
            records.append({"by": by, "from": line.offset, "line": line.lineno - 1, "to": line.end})
    entry["held"] = records


def held_back_summary(home, settings, logs: dict, *, listing: bool = False) -> dict:
    """What the next push sends of the rows earlier pushes held back (`hold`), read as that
    push will read them: `{"release": rows whose entry is lifted and that no entry in force
    covers, for the projects the position covers, "lifted": those entries, "held_by": the
    entries still keeping rows back, "rows": the rows released (with `listing`)}`. A log
    rewritten since (read again from its start) and projects not yet covered (caught up) are
    the pending bytes' and the catch-up's, not counted here."""
    from carto_core.logio.reader import ReadReport, iter_lines

    matcher = settings.matcher()
    excluded = _Excluded(matcher)
    allowed = matcher.keys
    lifted_by: set = set()
    held_by: set = set()
    seen: set[str] = set()
    rows: list[dict] = []
    for label in LOAD_ORDER:
        entry = logs.get(label) or {}
        state = entry.get("state")
        path = home.log(label)
        if not state or log_status(path, state) == "stale":
            continue
        held = held_back(entry)
        release = _Release.of(held, state["end"], excluded, covered_keys(entry, matcher.allowings) & allowed)
        held_by.update(r["by"] for r in held if not release or r not in release.lifted)
        if not release or not release.keys:
            continue
        lifted_by.update(r["by"] for r in release.lifted)
        for line in iter_lines(path, ReadReport(str(path)), start=release.start, start_lineno=release.line):
            if line.offset >= release.until:
                break
            raw = line.row
            event_id = raw.get("event_id")
            key = matcher.key_of_row(raw)
            if not isinstance(event_id, str) or event_id in seen or key not in release.keys:
                continue
            if not release.held(raw, key) or excluded.holders(raw, key):
                continue
            seen.add(event_id)
            if listing:
                rows.append({"event_id": event_id, "log": label, "project": raw.get("project"), "key": key,
                             "timestamp": raw.get("timestamp"), "type": raw.get("type"),
                             "summary": raw.get("summary")})
    out = {"release": len(seen), "lifted": sorted(lifted_by, key=str),
           "held_by": sorted(held_by, key=str)}
    if listing:
        out["rows"] = rows
    return out


class _Release:
    """What a catch-up sends of the rows exclusions since lifted held back: those of `keys`
    (projects the position covers) that one of the `lifted` records' entries keeps out (`held`),
    read from `start` (at line `line`) to `until` (the log's position at most). A push plans
    its catch-up with it, and `held_back_summary` counts what that catch-up will send."""

    def __init__(self, keys: set[str], held, lifted: list[dict], end: int):
        self.keys = keys
        self.held = held
        self.lifted = lifted
        first = min(lifted, key=lambda r: r["from"])
        self.start, self.line = first["from"], first["line"]
        self.until = min(end, max(r["to"] for r in lifted))

    @classmethod
    def of(cls, held: list[dict], end: int, excluded: _Excluded, keys: set[str]) -> _Release | None:
        """The release of a log's `held` records whose entries `excluded` no longer has (None:
        every entry is still in force), up to the log's position `end`."""
        lifted = excluded.lifted(held)
        return cls(keys, excluded.only(lifted), lifted, end) if lifted else None


class _Excluded:
    """Whether `[capture] exclude`, as the config file says now, keeps a row of an allowed
    project here. Rows are excluded when they are written; a folder or project excluded since
    holds rows written before, and pushing them would share what the machine now keeps out. A
    row is out when its project or `cwd` is (`Exclusion.row`), when its `cwd` lies in an
    excluded project (`Exclusion.folder`), or, lacking a `cwd`, when its project's checkout
    here is excluded. Which entries keep a row out is recorded (`hold`): once an entry is
    lifted, the next push sends what it held back (`lifted`, `only`)."""

    def __init__(self, matcher, exclusion=None):
        from carto_core.privacy import exclude

        self.exclusion = exclude.load() if exclusion is None else exclusion
        self.matcher = matcher
        self.paths = matcher.paths
        self._folders: dict[str, bool] = {}
        self._each: dict[str, _Excluded] = {}

    def holders(self, row: dict, key: str) -> list:
        """The entries that keep this row here ([None]: an unreadable config file), or []."""
        if not self(row, key):
            return []
        if self.exclusion.unreadable:
            return [None]
        from carto_core.privacy.exclude import Exclusion

        found = []
        for pattern in self.exclusion.patterns:
            if pattern not in self._each:
                self._each[pattern] = _Excluded(self.matcher, Exclusion([pattern]))
            if self._each[pattern](row, key):
                found.append(pattern)
        return found or list(self.exclusion.patterns)

    def lifted(self, records: list[dict]) -> list[dict]:
        """The records of rows held back by entries this exclusion no longer has."""
        if self.exclusion.unreadable:
            return []
        now = set(self.exclusion.patterns)
        return [r for r in records if r["by"] is None or r["by"] not in now]

    def only(self, records: list[dict]):
        """Whether one of the records' entries keeps a row out (a test as this one is)."""
        from carto_core.privacy.exclude import UNREADABLE, Exclusion

        if any(r["by"] is None for r in records):
            return _Excluded(self.matcher, UNREADABLE)
        return _Excluded(self.matcher, Exclusion([r["by"] for r in records]))

    def folder(self, path: str) -> bool:
        if path not in self._folders:
            self._folders[path] = self.exclusion.folder(path)
        return self._folders[path]

    def __call__(self, row: dict, key: str) -> bool:
        if not self.exclusion:
            return False
        if self.exclusion.row(row):
            return True
        cwd = row.get("cwd")
        return self.folder(cwd if isinstance(cwd, str) and cwd else self.paths.get(key, ""))


class _RawJson:
    """Row JSON already serialised (its size bounds the batch), copied as is into a jsonb
    column by `_raw_json_dumper`."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def _raw_json_dumper():
    from psycopg.adapt import Dumper
    from psycopg.postgres import types

    class RawJsonDumper(Dumper):
        oid = types["jsonb"].oid

        def dump(self, obj):
            return obj.text.encode("utf-8")

    return RawJsonDumper


def _no_nul(text: str) -> str:
    """PostgreSQL text and jsonb hold no NUL character: U+FFFD stands for it."""
    return text.replace("\x00", "\ufffd") if "\x00" in text else text


CHANGELOG = "changelog"
_ROW_ID = re.compile(rb'^\{"event_id":\s*"((?:[^"\\]|\\.)*)"', re.MULTILINE)


def changelog_ids(home, plan: list[tuple]) -> dict[str, set[str]]:
    """kind ("new", "catch_up") -> the event ids of the complete changelog rows that pass will
    read (rows start with their event_id: `carto_core.logio.logs.SHAPES`; a row that does not
    is sent as it is, which costs the server one more update, never a wrong row)."""
    out: dict[str, set[str]] = {}
    for label, start, _, until, _, kind, _ in plan:
        if label != CHANGELOG:
            continue
        found = out.setdefault(kind, set())
        left = None if until is None else until - start
        carry = b""
        try:
            with open(home.log(label), "rb") as handle:
                handle.seek(start)
                while left is None or left > 0:
                    block = handle.read(READ_BLOCK if left is None else min(READ_BLOCK, left))
                    if not block:
                        break
                    if left is not None:
                        left -= len(block)
                    data = carry + block
                    cut = data.rfind(b"\n") + 1  # complete lines only, as the pass reads them
                    found.update(m.group(1).decode("utf-8", "replace") for m in _ROW_ID.finditer(data, 0, cut))
                    carry = data[cut:]
        except OSError:
            continue
    return out


def _with_vectors(embedder, rows: list[tuple], texts: list[str], report: PushReport) -> list[tuple]:
    import numpy as np

    wanted = [i for i, text in enumerate(texts) if text]
    if not wanted:
        return rows
    try:
        vectors = embedder.embed_documents([texts[i] for i in wanted])
    except Exception as exc:  # noqa: BLE001 - rows go without vectors, and the report says so
        report.problems.append(f"vectors not made for a batch: {type(exc).__name__}: {exc}")
        return rows
    model = embedder.model_tag
    out = list(rows)
    for i, vector in zip(wanted, np.asarray(vectors, dtype=np.float32)):
        out[i] = out[i][:-2] + (model, vector)
    return out
