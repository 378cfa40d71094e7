"""What the export, restore, import and repair commands say: every exit code in --help, the
key file's verb, --dry-run on repairs as on forget, counts that agree with their noun."""

from __future__ import annotations

import json

from tests.control.conftest import invoke


def test_help_names_exit_4_and_what_the_key_file_does():
    assert "4 FILE exists" in invoke("export", "--help").output
    for command in ("restore", "import"):
        text = " ".join(invoke(command, "--help").output.split())
        assert "Seal or open" not in text and "Open with this key file" in text
    assert "Seal with this key file" in " ".join(invoke("backup", "--help").output.split())


def _home(tmp_path, lines: list[bytes]) -> dict:
    root = tmp_path / "home"
    root.mkdir()
    (root / "tool-use-log.jsonl").write_bytes(b"".join(line + b"\n" for line in lines))
    return {"CARTO_HOME": str(root)}


ROW = json.dumps({"event_id": "evt-b", "timestamp": "2026-05-10T10:00:00Z", "type": "tool_bash",
                  "summary": "Ran: ls", "session": "s1"}).encode()


def test_repairs_take_dry_run_and_count_in_words(tmp_path):
    env = _home(tmp_path, [b'{"event_id":"evt-a","timestamp":"2026-05-10T09:00:00Z","summ', ROW])
    dry = invoke("repair", "torn-rows", "--dry-run", env=env)
    assert any(line.startswith("1 torn row found;") for line in dry.output.splitlines()), dry.output
    refused = invoke("repair", "torn-rows", "--dry-run", "--write", env=env, ok=(2,))
    assert "--write and --dry-run disagree" in refused.output
    assert invoke("repair", "orphan-sessions", "--dry-run", env=env, ok=(0, 3)).exit_code in (0, 3)


def test_nul_runs_are_said_as_what_they_are(tmp_path):
    env = _home(tmp_path, [ROW, b"\x00\x00\x00\x00"])
    assert "0 torn rows found; 1 run of NUL bytes would be removed" in invoke("repair", "torn-rows", env=env).output
    done = invoke("repair", "torn-rows", "--write", env=env).output
    assert "0 torn rows found, 0 fixed; 1 run of NUL bytes removed" in done


def test_transcript_paths_counts_in_words(tmp_path):
    env = _home(tmp_path, [ROW])
    text = invoke("repair", "transcript-paths", env=env, ok=(0, 3)).output
    assert "0 stale transcript paths found" in text
