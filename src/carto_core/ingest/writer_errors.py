"""What derived writers failed to write, and giving it to them again.

`carto ingest` hands every batch to each enabled writer (`runner.write_rows`). A derived writer
that raises does not fail the batch: the rows are in the logs, and the failure is appended to
`<home>/.carto/writer-errors.jsonl` as one row ``{timestamp, writer, error, log, event_ids}``.
An ingest never offers those rows to the writer again (they are in the logs now, so the next
run skips them), so what the writer derives from them stays missing until
`carto repair writers --write` reads them back from the logs and writes them through the writer
once more. When every row it missed went through, the repair appends
``{timestamp, writer, repaired: N}``: the failures above that row are resolved. `carto doctor`
reports the failures of each installed writer after its last such row.

Rows written by an older carto name no event ids: their rows cannot be told apart, so the
repair resolves them without writing anything (`unknown_rows`).
"""

from __future__ import annotations

FILE = "writer-errors.jsonl"
#: Rows handed to a writer in one call by the repair (ingest batches are of this order).
CHUNK = 1000


def path(home):
    return home.state / FILE


def pending(home) -> dict[str, dict]:
    """Per writer, its failures not resolved by a later repair: {failures, last_timestamp,
    last_error, unknown_rows, logs: {log: [event_id, ...]}} (event ids in failure order)."""
    from carto_core.logio.reader import iter_lines

    out: dict[str, dict] = {}
    try:
        lines = list(iter_lines(path(home)))
    except OSError:
        return out
    for line in lines:
        row = line.row
        writer = row.get("writer")
        if not isinstance(writer, str):
            continue
        if row.get("repaired") is not None:
            out.pop(writer, None)
            continue
        entry = out.setdefault(writer, {"failures": 0, "last_timestamp": None, "last_error": None,
                                        "unknown_rows": 0, "logs": {}})
        entry["failures"] += 1
        entry["last_timestamp"] = row.get("timestamp")
        entry["last_error"] = row.get("error")
        ids = row.get("event_ids")
        if isinstance(row.get("log"), str) and isinstance(ids, list):
            known = entry["logs"].setdefault(row["log"], [])
            known.extend(i for i in ids if isinstance(i, str) and i not in known)
        else:
            entry["unknown_rows"] += 1
    return out


def rows_of(home, log: str, event_ids: list[str]) -> list[dict]:
    """The newest row of each of `event_ids` in `log`, in the log's order."""
    from carto_core.logio.reader import iter_lines

    wanted = set(event_ids)
    found: dict[str, dict] = {}
    for line in iter_lines(home.log(log)):
        event_id = line.row.get("event_id")
        if event_id in wanted:
            found.pop(event_id, None)  # a later revision moves to its place
            found[event_id] = line.row
    return list(found.values())


def repair(home, writers: dict, *, write: bool) -> dict:
    """Give each installed writer (`writers`: name -> class) the rows it failed to write.
    Returns the counts document of `carto repair writers`."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.util.timeparse import format_timestamp, utcnow

    document = {"repair": "writers", "home": str(home.root), "dry_run": not write,
                "failed_writes": 0, "fixed": 0, "would_fix": 0, "logs": {}, "writers": {},
                "examples": []}
    for name, entry in sorted(pending(home).items()):
        rows = {log: rows_of(home, log, ids) for log, ids in entry["logs"].items()}
        count = sum(len(r) for r in rows.values())
        report = {"failures": entry["failures"], "rows": count, "unknown_rows": entry["unknown_rows"],
                  "installed": name in writers, "error": None}
        document["writers"][name] = report
        document["failed_writes"] += entry["failures"]
        for log, found in rows.items():
            document["logs"].setdefault(log, {})[name] = len(found)
        if name not in writers:
            continue  # nothing to write them with: said, left for when it is installed again
        if not write:
            document["would_fix"] += count
            continue
        writer = writers[name]()
        try:
            for log, found in rows.items():
                for start in range(0, len(found), CHUNK):
                    writer.write(home, log, found[start:start + CHUNK])
        except Exception as exc:  # still failing: the failures stay, for the next try
            report["error"] = f"{type(exc).__name__}: {exc}"
            continue
        append_rows(path(home), [{"timestamp": format_timestamp(utcnow()), "writer": name,
                                  "repaired": count}])
        document["fixed"] += count
    return document
