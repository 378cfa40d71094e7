"""Fixtures shared by the rankers' tests."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from carto_core.logio.home import Home


def turns_home(root: Path, texts: list[str]) -> Home:
    """A home whose turns are `texts`, one a session and a day (`turn-s<i>-1`)."""
    rows = [{"event_id": f"turn-s{i}-1", "timestamp": f"2026-11-{i + 1:02d}T10:00:00Z",
             "session": f"s{i}", "turn_idx": 1, "project": "notes", "type": "transcript",
             "summary": text} for i, text in enumerate(texts)]
    root.mkdir(parents=True)
    (root / "turns.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return Home(root)


@pytest.fixture(scope="module")
def minilm_turns(tmp_path_factory):
    """Build and index with minilm a home of these turns: `minilm_turns(name, texts)`."""
    from carto_core.semantic.indexer import run_index

    def build(name: str, texts: list[str]) -> Home:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("CARTO_EMBEDDER", "minilm")
            home = turns_home(tmp_path_factory.mktemp(name) / "h", texts)
            assert run_index(home).outcome == "ok"
        return home

    return build


@pytest.fixture
def typed_engine(tmp_path):
    """Rows 0-1 tool rows (salience 0.2; "Ran: kubectl preload fonts -n host<i>"), 2-6 prompts
    (0.6; "prompt <i> about fonts"), an hour old each, loaded."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.search.engine import SearchEngine

    home = Home(tmp_path / "t")
    stamp = (datetime(2026, 6, 1, tzinfo=timezone.utc) - timedelta(hours=1)).strftime(
        "%Y-%m-%dT%H:%M:%SZ")
    append_rows(home.log("tool-use"), [
        {"event_id": f"evt-{i:012d}", "timestamp": stamp, "type": "tool_bash", "salience": 0.2,
         "summary": f"Ran: kubectl preload fonts -n host{i}"} for i in range(2)])
    append_rows(home.log("prompts"), [
        {"event_id": f"evt-{i:012d}", "timestamp": stamp, "type": "prompt", "salience": 0.6,
         "summary": f"prompt {i} about fonts"} for i in range(2, 7)])
    engine = SearchEngine(home, persist=False)
    engine.ensure_loaded()
    return engine
