"""A third party's redaction patterns reach every writer, `carto hook` included: declared as data
under the `carto.redact` entry point group, read from the plugin table without pluggy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SECRET = "CORP-123456"
HOOK = """
import sys
from carto_core.capture.hookpath import main
code = main(["claude", "PostToolUse"])
assert "pluggy" not in sys.modules, "the hook built pluggy registries"
sys.exit(code)
"""


def third_party(root: Path, patterns: str) -> Path:
    """An installed distribution (a dist-info folder on sys.path) exporting a pattern table."""
    site = root / "site"
    (site / "acme_patterns-1.0.dist-info").mkdir(parents=True)
    (site / "acme_patterns-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-patterns\nVersion: 1.0\n")
    (site / "acme_patterns-1.0.dist-info" / "entry_points.txt").write_text(
        "[carto.redact]\nacme = acme_patterns:PATTERNS\n")
    (site / "acme_patterns.py").write_text(f"PATTERNS = {patterns}\n")
    return site


def run_hook(tmp_path: Path, site: Path, command: str, **env) -> subprocess.CompletedProcess:
    payload = {"session_id": "s1", "cwd": str(tmp_path), "hook_event_name": "PostToolUse", "tool_name": "Bash",
               "transcript_path": "/nonexistent.jsonl", "tool_input": {"command": command},
               "tool_response": {"stdout": command, "stderr": ""}}
    environment = {**os.environ, "CARTO_HOME": str(tmp_path / "home"), "CARTO_CATCHUP": "0",
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH", "")])), **env}
    return subprocess.run([sys.executable, "-c", HOOK], input=json.dumps(payload).encode(), capture_output=True,
                          env=environment, timeout=60)


def stored(tmp_path: Path) -> str:
    return "".join(p.read_text() for p in (tmp_path / "home").rglob("*") if p.is_file() and p.suffix in (".jsonl", ".json", ".log"))


def test_a_row_written_by_carto_hook_is_redacted_by_a_third_party_pattern(tmp_path):
    site = third_party(tmp_path, '{"corp-id": r"CORP-\\d{6}"}')
    done = run_hook(tmp_path, site, f"ticket-tool close {SECRET} --note done")
    assert done.returncode == 0, done.stderr
    text = stored(tmp_path)
    assert "ticket-tool close" in text and SECRET not in text and "[REDACTED:corp-id]" in text


def test_a_changed_pattern_module_is_read_again_and_a_blocked_plugin_is_not(tmp_path):
    site = third_party(tmp_path, '[("corp-id", r"CORP-\\d{6}")]')
    assert run_hook(tmp_path, site, f"first {SECRET}").returncode == 0
    # The same distribution, its table edited in place (an editable install): read again.
    (site / "acme_patterns.py").write_text('PATTERNS = [("corp-id", r"CORP-\\d{6}"), ("ops-id", r"OPS-\\d{4}")]\n')
    assert run_hook(tmp_path, site, "second OPS-4321").returncode == 0
    assert "OPS-4321" not in stored(tmp_path) and "[REDACTED:ops-id]" in stored(tmp_path)
    assert run_hook(tmp_path, site, "third CORP-654321", CARTO_DISABLE_PLUGINS="acme").returncode == 0
    assert "third CORP-654321" in stored(tmp_path)


def test_a_broken_table_never_stops_redaction(tmp_path):
    site = third_party(tmp_path, '[("corp-id", r"(unclosed"), ("ok-id", r"OK-\\d{3}"), "nonsense"]')
    done = run_hook(tmp_path, site, "ran OK-123 with ghp_" + "Zq9" * 12)
    assert done.returncode == 0, done.stderr
    text = stored(tmp_path)
    assert "OK-123" not in text and "[REDACTED:ok-id]" in text and "[REDACTED:github-token]" in text
    from carto_core.plugin.redaction import _read_target

    sys.path.insert(0, str(site))
    try:
        patterns, _, problems = _read_target("acme_patterns:PATTERNS")
    finally:
        sys.path.remove(str(site))
        sys.modules.pop("acme_patterns", None)
    assert patterns == [["ok-id", r"OK-\d{3}"]] and len(problems) == 2
