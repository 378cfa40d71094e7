"""carto-claude's backfill source against the contract suite shipped in core (carto_core.testing).

Good input: the real and realistic transcripts of shared/fixtures/claude (copied into tmp_path,
never edited in place) plus a history.jsonl. Garbage: claude-code-log's edge_cases.jsonl (broken
and non-object lines, duplicate uuids) and a history file with broken lines.
"""

from __future__ import annotations

import json
import shutil

import pytest

from carto_claude.transcripts import ClaudeSource
from carto_core.testing import SourceContract

pytest_plugins = ["carto_core.testing"]

HISTORY = [
    {"display": "why does the hook fire twice?", "timestamp": 1790000000000,
     "sessionId": "1af7fc5e-0000-4000-8000-000000000000", "project": "/work/demo"},
    {"display": "/clear", "timestamp": 1790000001000, "project": "/work/demo"},
    {"display": "explain the checkpoint format", "timestamp": 1790000002000, "project": "/work/demo"},
]


class TestClaudeContract(SourceContract):
    min_rows = 10

    @pytest.fixture
    def source(self, tmp_path, shared_fixtures):
        root = tmp_path / "projects"
        shutil.copytree(shared_fixtures / "claude" / "claude-code-viewer" / "projects", root / "viewer")
        shutil.copytree(shared_fixtures / "claude" / "claude-code-log" / "minimal_showcase",
                        root / "showcase")
        shutil.copy(shared_fixtures / "claude" / "claude-code-log" / "representative_messages.jsonl",
                    root / "representative_messages.jsonl")
        history = tmp_path / "history.jsonl"
        history.write_text("".join(json.dumps(r) + "\n" for r in HISTORY), "utf-8")
        return ClaudeSource({"roots": [str(root)], "history": str(history), "settle_seconds": 0})

    @pytest.fixture
    def garbage_source(self, tmp_path, shared_fixtures):
        root = tmp_path / "garbage"
        root.mkdir()
        shutil.copy(shared_fixtures / "claude" / "claude-code-log" / "edge_cases.jsonl",
                    root / "edge_cases.jsonl")
        history = tmp_path / "history.jsonl"
        history.write_bytes(b'{"display": "fine prompt", "timestamp": 1790000000000}\n'
                            b"not json\n[1]\n"
                            b'{"display": "bad time", "timestamp": "soon"}\n')
        return ClaudeSource({"roots": [str(root)], "history": str(history), "settle_seconds": 0})
