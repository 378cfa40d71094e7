"""The codex source against the source contract suite shipped in core (carto_core.testing)."""

from __future__ import annotations

import pytest

from carto_core.testing import SourceContract

from carto_codex.source import CodexRolloutSource

pytest_plugins = ["carto_core.testing"]


class TestCodexContract(SourceContract):
    min_rows = 4  # one turn per sample rollout

    @pytest.fixture
    def source(self, codex_home):
        return CodexRolloutSource({"roots": [str(codex_home)], "settle_seconds": 0})

    @pytest.fixture
    def garbage_source(self, tmp_path):
        root = tmp_path / "garbage"
        root.mkdir()
        sid = "ffffffff-0000-4000-8000-000000000001"
        (root / f"rollout-2026-01-01T00-00-00-{sid}.jsonl").write_bytes(
            b'{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"' + sid.encode()
            + b'","cwd":"/x/p"}}\n'
            b"not json\n[1, 2]\n"
            b'{"timestamp":"2026-01-01T00:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"ok \xff"}}\n'
            b'{"timestamp":"2026-01-01T00:00:02Z","type":"brand_new_kind","payload":{}}\n'
            b'{"timestamp":"2026-01-01T00:00:03Z","type":"event_msg","payload":{"type":"user_mes')
        return CodexRolloutSource({"roots": [str(root)], "settle_seconds": 0})
