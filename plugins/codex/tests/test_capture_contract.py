"""carto-codex's live capture against the capture contract shipped in core (carto_core.testing)."""

from __future__ import annotations

import pytest

from carto_core.testing import CaptureContract

pytest_plugins = ["carto_core.testing"]


class TestCodexCapture(CaptureContract):
    provider = "codex"
    min_rows = 6

    @pytest.fixture
    def payloads(self, tmp_path):
        base = {"session_id": "s-contract", "cwd": str(tmp_path), "transcript_path": str(tmp_path / "r.jsonl")}
        patch = "*** Begin Patch\n*** Update File: app.py\n@@\n-a\n+b\n*** End Patch\n"
        return [
            ("PostToolUse", {**base, "tool_name": "shell", "tool_input": {"command": ["bash", "-lc", "make test"]}}),
            ("PostToolUse", {**base, "tool_name": "apply_patch", "tool_input": {"input": patch}}),
            ("PostToolUse", {**base, "tool_name": "web__run", "tool_input": {"url": "https://docs.python.org/3/"}}),
            ("Stop", base),
        ]
