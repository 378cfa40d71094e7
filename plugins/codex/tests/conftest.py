"""Fixtures for the Codex plugin's tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "claude-code-log"


@pytest.fixture
def codex_home(tmp_path) -> Path:
    """A copy of the Codex samples laid out as a Codex home (never edit the originals)."""
    home = tmp_path / "codex-home"
    shutil.copytree(FIXTURES, home)
    return home
