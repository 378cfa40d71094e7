"""Reading a Hermes `state.db` (read-only, one snapshot per read): sessions with their
message rows in one ordered pass, each handed to the `SessionMapper`, the results folded
into one batch and one checkpoint (per database: the policy digest and, per session, what the
mapper says it has written).
"""

from __future__ import annotations

import itertools
from collections import Counter
import sqlite3

from carto_core.api import ReadBatch, Stream

from carto_hermes.db import Schema, open_readonly, probe, translate
from carto_hermes.mapping import SessionMapper, SessionResult
from carto_hermes.policy import Policy


def read_database(mapper: SessionMapper, policy: Policy, stream: Stream, checkpoint: dict | None, *,
                  only_session: str | None = None) -> ReadBatch:
    """Every session of the database at `stream.path` that changed since `checkpoint`."""
    batch = ReadBatch()
    if checkpoint and checkpoint.get("policy") != policy.digest:
        batch.messages.append("policy changed since the last run: every session read again")
        checkpoint = None
    done: dict = dict((checkpoint or {}).get("sessions") or {})
    unselected: Counter = Counter()
    path = stream.path
    conn = open_readonly(path, policy.busy_timeout_ms)
    try:
        schema = probe(conn, path)
        conn.execute("BEGIN")  # one snapshot for the whole read
        for result in session_results(mapper, conn, schema, stream, done, only_session=only_session):
            batch.units += 1
            if result.skipped:
                batch.skipped[result.skipped] += 1
                if result.skipped == "source_not_selected":
                    unselected[result.source] += 1
            batch.rows.extend(result.rows)
            if result.checkpoint is not None:
                done[result.session_id] = result.checkpoint
            for note in result.notes:
                batch.skipped[note] += 1
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        raise translate(exc, path) from None
    finally:
        conn.close()
    for source, count in sorted(unselected.items()):
        batch.messages.append(not_selected_message(policy, source, count))
    batch.checkpoint = {"policy": policy.digest, "sessions": done}
    return batch


def not_selected_message(policy: Policy, source: str, count: int = 1) -> str:
    """Why sessions of a channel were skipped, and the policy key that reads them."""
    where = f" in {policy.path}" if policy.path else ""
    return (f"{count} session(s) of source {source or '(none)'!r} skipped: the policy's `sources` "
            f"is {policy.sources}; add {source!r} to `sources`{where} to read them")


def explain(mapper: SessionMapper, policy: Policy, stream: Stream, session_id: str) -> SessionResult | None:
    """Every decision about one session, checkpoints ignored (`--show`)."""
    conn = open_readonly(stream.path, policy.busy_timeout_ms)
    try:
        schema = probe(conn, stream.path)
        for result in session_results(mapper, conn, schema, stream, {}, only_session=session_id):
            return result
    except sqlite3.Error as exc:
        raise translate(exc, stream.path) from None
    finally:
        conn.close()
    return None


def session_results(mapper: SessionMapper, conn, schema: Schema, stream: Stream, done: dict, *,
                    only_session: str | None = None):
    """Sessions with their message rows, in one ordered pass over `messages`.

    One scan instead of a query per session: Hermes's own index on messages.session_id is
    not guaranteed on every schema, and without it a query per session is quadratic.
    """
    where, params = "", ()
    if only_session is not None:
        where, params = " WHERE id = ?", (only_session,)
    columns = schema.session_columns()
    sessions = {
        str(values[0]): dict(zip(columns, values)) for values in conn.execute(
            f"SELECT {', '.join(columns)} FROM sessions{where} ORDER BY id", params)
    }
    message_columns = schema.message_columns()
    cursor = conn.execute(
        f"SELECT {', '.join(message_columns)} FROM messages"
        + (" WHERE session_id = ?" if only_session is not None else "")
        + " ORDER BY session_id, id", params)
    for sid, group in itertools.groupby(cursor, key=lambda values: str(values[1])):
        rows = [dict(zip(message_columns, values)) for values in group]
        meta = sessions.pop(sid, None)
        if meta is None:
            yield SessionResult(session_id=sid, skipped="orphan_messages")
            continue
        yield mapper.session(stream, meta, rows, done.get(sid))
    for sid, meta in sessions.items():  # sessions without any message
        yield mapper.session(stream, meta, [], done.get(sid))
