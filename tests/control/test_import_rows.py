"""`carto import` adds rows, never lines that are not rows, and never a search `carto forget`
took out whole."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
import time
from pathlib import Path

import pytest

from carto_core.logio.home import current_home
from tests.control.conftest import P, invoke, light_home


def _served_calls(home) -> list[str]:
    path = home.log("served")
    return [json.loads(line)["call_id"] for line in path.read_text().splitlines() if line.strip()]


def test_import_does_not_bring_back_a_search_that_served_a_forgotten_event(tmp_path):
    home = light_home(current_home().root)
    archive = tmp_path / "before.tar.gz"
    invoke("export", archive)
    assert "call-both" in _served_calls(home)  # it served one event of each project
    invoke("forget", "--event", home.ids[P][0], "--write")
    assert "call-both" not in _served_calls(home)  # the whole search went
    done = json.loads(invoke("import", archive, "--json", ok=(0, 3)).output)
    assert "call-both" not in _served_calls(home)
    assert done["skipped"]["served"]["forgotten"] == 2


def _archive(path: Path, logs: dict[str, list[bytes]]) -> Path:
    files, blobs = {}, {}
    for name, lines in logs.items():
        data = b"".join(line + b"\n" for line in lines)
        blobs[f"carto/home/{name}"] = data
        files[f"carto/home/{name}"] = {"bytes": len(data), "rows": len(lines),
                                       "sha256": hashlib.sha256(data).hexdigest()}
    manifest = {"carto_version": "0.1.0", "created": "2026-12-06T11:58:54Z", "files": files,
                "format": "carto-archive", "kind": "export", "rows": 0, "selection": None, "version": 1}
    with tarfile.open(path, "w:gz") as tar:
        for name, data in [*blobs.items(), ("carto/manifest.json", json.dumps(manifest).encode())]:
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), int(time.time())
            tar.addfile(info, io.BytesIO(data))
    return path


def _row(**fields) -> bytes:
    return json.dumps({"timestamp": "2026-12-01T10:00:00Z", "type": "tool_bash", "provider": "claude",
                       "project": "badproj", "session": "bad00000-0000-4000-8000-000000000000",
                       **fields}).encode()


@pytest.fixture
def bad_archive(tmp_path) -> Path:
    return _archive(tmp_path / "bad.tar.gz", {
        "tool-use-log.jsonl": [
            _row(event_id="evt-good1", summary="Ran: echo good row"),
            b"this is not json at all",
            b'{"event_id": "evt-torn", "summary": "torn',
            b"[1,2,3]",
            _row(summary="no event id"),
            _row(event_id=12345, summary="numeric id"),
            b"\x00\x00\x00\x00",
            _row(event_id="", summary="empty id"),
        ],
        "unknown-log.jsonl": [_row(event_id="evt-unk", summary="in an unknown log")],
    })


def test_import_adds_rows_only_and_counts_the_lines_it_skipped(bad_archive, tmp_path):
    env = {"CARTO_HOME": str(tmp_path / "clean")}
    done = json.loads(invoke("import", bad_archive, "--json", env=env).output)
    assert done["rows"] == 1
    assert done["skipped"]["tool-use"] == {"not JSON": 1, "torn row": 1, "not an object": 1,
                                           "no event_id": 3, "NUL run": 1}
    assert done["unknown_logs"] == ["unknown-log.jsonl"]
    kept = (tmp_path / "clean" / "tool-use-log.jsonl").read_bytes().splitlines()
    assert [json.loads(line)["event_id"] for line in kept] == ["evt-good1"]
    text = invoke("import", bad_archive, env={"CARTO_HOME": str(tmp_path / "again")}).output
    assert ("not added, not rows: 7 lines (1 NUL run, 3 no event_id, 1 not JSON, 1 not an object, "
            "1 torn row)") in text.splitlines()
    assert any(line.startswith("unknown-log.jsonl: not imported") for line in text.splitlines())
