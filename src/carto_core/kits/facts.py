"""Contract kit for fact verbs (`carto_core.facts.verb.FactVerb`).

    from carto_core.api import FactVerbContract

    class TestMyVerb(FactVerbContract):
        @pytest.fixture
        def verb(self):
            return MyVerb

The fact verb runs through `run_facts` on a generated home of ~600 events (`carto_kit_home`).
PYTEST_DONT_REWRITE: every assertion carries its own message.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone

import pytest

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
VOLATILE = ("call_id", "stages_ms")


@pytest.fixture(scope="session")
def carto_kit_home(tmp_path_factory):
    """A generated home of ~600 events (logs only, nothing derived)."""
    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home

    root = tmp_path_factory.mktemp("carto-kit-facts") / "home"
    generate_home(root, 600, seed=12, now=NOW)
    return Home(root)


def _files(root) -> dict[str, tuple[int, int]]:
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            info = os.stat(path)
            out[os.path.relpath(path, root)] = (info.st_size, info.st_mtime_ns)
    return out


def _event_ids(value) -> set[str]:
    """Every string that looks like an event id anywhere in a facts document."""
    if isinstance(value, dict):
        return set().union(*(_event_ids(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_event_ids(v) for v in value)) if value else set()
    if isinstance(value, str) and value.startswith(("evt-", "turn-", "git-", "hermes-")) and " " not in value:
        return {value}
    return set()


class FactVerbContract:
    """The fact verb rules; provide a `verb` fixture (the class) and, when the verb needs
    arguments, a `request` fixture (the request's fields besides `verb`)."""

    @pytest.fixture
    def verb(self):
        raise NotImplementedError("define a `verb` fixture returning the fact verb class")

    @pytest.fixture
    def request_fields(self) -> dict:
        return {}

    def _run(self, verb, fields, home):
        from carto_core.facts.contract import CONTRACT_VERSION
        from carto_core.facts.engine import run_facts

        request = {"contract_version": CONTRACT_VERSION, "verb": verb.name, "call_id": "kit-call",
                   "purpose": "audit", **fields}
        return run_facts(request, home, now=NOW, verbs={verb.name: verb})

    def test_verb_answers_with_a_json_document(self, verb, request_fields, carto_kit_home):
        facts = self._run(verb, request_fields, carto_kit_home)["facts"]
        assert isinstance(facts, dict) and facts, f"run() must return a non-empty dict, got {facts!r}"
        json.dumps(facts)  # raises on what JSON cannot hold

    def test_verb_is_deterministic(self, verb, request_fields, carto_kit_home):
        first = self._run(verb, request_fields, carto_kit_home)
        second = self._run(verb, request_fields, carto_kit_home)
        for key in VOLATILE:
            first.pop(key, None), second.pop(key, None)
        assert first == second, "the same request over the same logs answered differently"

    def test_verb_samples_are_events_of_the_home(self, verb, request_fields, carto_kit_home):
        from carto_core.search.engine import SearchEngine

        ids = _event_ids(self._run(verb, request_fields, carto_kit_home)["facts"])
        engine = SearchEngine(carto_kit_home, persist=False, analyzer="upstream")
        unknown = sorted(i for i in ids if engine.index_of(i) is None)
        assert not unknown, f"sample event ids the home does not hold: {unknown[:5]}"

    def test_verb_writes_nothing_to_the_logs(self, verb, request_fields, carto_kit_home):
        """A verb never writes: no log, no telemetry (a derived cache under .carto/ may be
        built by the engine, not by the verb)."""
        before = {k: v for k, v in _files(carto_kit_home.root).items() if not k.startswith(".carto")}
        self._run(verb, request_fields, carto_kit_home)
        after = {k: v for k, v in _files(carto_kit_home.root).items() if not k.startswith(".carto")}
        assert after == before, f"files of the home changed: {sorted(set(after) ^ set(before)) or 'sizes'}"
