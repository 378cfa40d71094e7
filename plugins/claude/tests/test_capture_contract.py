"""carto-claude's live capture against the capture contract shipped in core (carto_core.testing)."""

from __future__ import annotations

import pytest

from carto_core.testing import CaptureContract

pytest_plugins = ["carto_core.testing"]


class TestClaudeCapture(CaptureContract):
    provider = "claude"
    min_rows = 8

    @pytest.fixture
    def payloads(self, tmp_path):
        base = {"session_id": "s-contract", "cwd": str(tmp_path), "transcript_path": str(tmp_path / "t.jsonl")}
        return [
            ("PostToolUse", {**base, "tool_name": "Bash", "tool_input": {"command": "make test"},
                             "duration_ms": 120}),
            ("PostToolUse", {**base, "tool_name": "Edit", "tool_input": {"file_path": str(tmp_path / "app.py")}}),
            ("PostToolUse", {**base, "tool_name": "WebFetch", "tool_input": {"url": "https://arxiv.org/abs/1"}}),
            ("PostToolUse", {**base, "tool_name": "WebSearch", "tool_input": {"query": "bm25 saturation"},
                             "tool_response": {"results": [{"url": "https://example.org/a", "title": "A"}]}}),
            ("PreCompact", {**base, "trigger": "manual"}),
        ]
