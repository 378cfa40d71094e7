from __future__ import annotations

import pytest


@pytest.fixture
def sample_home(tmp_path, monkeypatch):
    """The demo's sample home (three live sessions on two projects, older ones for decay), as CARTO_HOME."""
    from carto_core.evaluation.sample import build_sample_home

    root = tmp_path / "sample"
    build_sample_home(root)
    monkeypatch.setenv("CARTO_HOME", str(root))
    return root
