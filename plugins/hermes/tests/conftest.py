"""Fixtures for the Hermes tests: databases from `carto_hermes.fixtures`, a policy writer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carto_hermes.fixtures import HermesHome


@pytest.fixture
def hermes_home(tmp_path) -> HermesHome:
    return HermesHome(tmp_path / "hermes")


@pytest.fixture
def old_hermes_home(tmp_path) -> HermesHome:
    return HermesHome(tmp_path / "hermes-old", schema="old")


@pytest.fixture
def corpus_root(tmp_path) -> Path:
    root = tmp_path / "dev"
    root.mkdir()
    return root


@pytest.fixture
def make_policy(tmp_path, hermes_home, corpus_root):
    """Write hermes.json (defaults that suit the tests, overridable) and return its path."""

    def make(**overrides) -> Path:
        policy = {
            "hermes_home": str(hermes_home.root),
            "sources": ["desktop", "cli", "acp", "subagent", "cron"],
            "min_user_prompts": 2,
            "default_project": "hermes",
            "corpus_root": str(corpus_root),
            "busy_timeout_ms": 200,
            **overrides,
        }
        path = tmp_path / "config" / "hermes.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(policy), "utf-8")
        return path

    return make
