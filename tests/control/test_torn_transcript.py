"""A torn row of a turn carto ingested from a transcript still on disk is read again from it by
`carto repair torn-rows --write` (that stream alone), though the checkpoint says it was read."""

from __future__ import annotations

import json
import os
from pathlib import Path

from carto_core.logio.home import current_home
from tests.control.conftest import SID_P, invoke, write_projects


def _tear_last_row(path: Path) -> bytes:
    lines = path.read_bytes().splitlines(keepends=True)
    whole = lines[-1]
    path.write_bytes(b"".join(lines[:-1]) + whole[: len(whole) // 2])
    return whole


def test_repair_reads_a_torn_turn_again_from_its_transcript():
    home = current_home()
    home.root.mkdir(parents=True, exist_ok=True)
    write_projects(Path(os.environ["HOME"]))
    invoke("ingest", "claude", "--settle", "0")
    turns = home.log("turns")
    before = turns.read_bytes()
    checkpoints = json.loads((home.state / "checkpoints" / "claude.json").read_text())
    whole = _tear_last_row(turns)
    assert json.loads(whole)["event_id"].startswith("turn-")

    dry = json.loads(invoke("repair", "torn-rows", "--json").output)
    assert dry["would_fix"] >= 1 and dry["would_read_again"]
    done = json.loads(invoke("repair", "torn-rows", "--write", "--json").output)
    assert done["fixed"] >= 1 and done["unsettled"] == 0 and done["read_again"]
    rows = [json.loads(line) for line in turns.read_bytes().splitlines()]
    assert sorted(r["event_id"] for r in rows) == sorted(json.loads(l)["event_id"] for l in before.splitlines())
    assert turns.read_bytes().endswith(b"\n")
    # Only the torn row's stream was read again: the other checkpoints are as they were.
    after = json.loads((home.state / "checkpoints" / "claude.json").read_text())
    other = [key for key in checkpoints if json.loads(whole).get("session_id", "?") not in key]
    assert other and all(after[key] == checkpoints[key] for key in other)
    again = invoke("repair", "torn-rows", ok=(3,))
    assert again.output.startswith("0 torn rows found")
