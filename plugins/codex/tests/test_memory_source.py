"""Codex's memories as a source: task groups, summary sections and rollout summaries as entries
keyed as upstream keys them; a changed section revises its event, a removed one is marked."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from carto_codex.memory import CodexMemorySource
from carto_core.cli import cli
from carto_core.logio.home import Home
from carto_core.testing import SourceContract

pytest_plugins = ["carto_core.testing"]

REGISTRY = """# Task Group: deploys
cwd=/work/infra
Reusable knowledge: terraform needs the lock table
# Task Group: tests
cwd: /work/webshop
run pytest -q first
"""


def memories(base, registry=REGISTRY):
    root = base / "memories"
    (root / "rollout_summaries").mkdir(parents=True)
    (root / "MEMORY.md").write_text(registry)
    (root / "memory_summary.md").write_text("## User preferences\nshort answers\n## General Tips\nuse rg\n")
    (root / "rollout_summaries" / "2026-01-02.md").write_text("# Rollout\nOutcome: fixed the cart\n")
    return root


class TestCodexMemoryContract(SourceContract):
    min_rows = 5

    @pytest.fixture
    def source(self, tmp_path):
        return CodexMemorySource({"roots": [str(memories(tmp_path))]})

    @pytest.fixture
    def garbage_source(self, tmp_path):
        root = tmp_path / "memories"
        (root / "rollout_summaries").mkdir(parents=True)
        (root / "MEMORY.md").write_text("")
        (root / "rollout_summaries" / "bad.md").write_bytes(b"\xff\xfe\x00 not text")
        return CodexMemorySource({"roots": [str(root)]})


def test_keys_projects_revisions_and_deletions(tmp_path):
    root = memories(tmp_path)
    run = lambda: json.loads(CliRunner().invoke(cli, ["ingest", "codex-memory", "--root", str(root), "--json"]).stdout)
    assert run()["rows_written"] == 5
    home = Home(os.environ["CARTO_HOME"])
    rows = [json.loads(l) for l in home.log("changelog").read_text().splitlines()]
    assert sorted(r["memory_key"] for r in rows) == [
        "codex:MEMORY.md#deploys", "codex:MEMORY.md#tests", "codex:memory_summary.md#General Tips",
        "codex:memory_summary.md#User preferences", "codex:rollout_summaries/2026-01-02.md"]
    by_key = {r["memory_key"]: r for r in rows}
    assert by_key["codex:MEMORY.md#deploys"]["project"] == "infra"
    assert by_key["codex:MEMORY.md#tests"]["type"] == "memory_codex_registry"
    (root / "MEMORY.md").write_text(REGISTRY.replace("run pytest -q first", "run pytest -x first").split("# Task Group: deploys")[0]
                                    + "# Task Group: tests\ncwd: /work/webshop\nrun pytest -x first\n")
    assert run()["rows_written"] == 2  # tests revised, deploys removed
    rows = [json.loads(l) for l in home.log("changelog").read_text().splitlines()][5:]
    states = {r["memory_key"]: (r["memory_state"], r["memory_revision"]) for r in rows}
    assert states == {"codex:MEMORY.md#tests": ("current", 2), "codex:MEMORY.md#deploys": ("deleted", 2)}
