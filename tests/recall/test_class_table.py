"""The plugin table's class records (`table.class_target`) and loading a class without its
package's `__init__` (`resolve(target, standalone=True)`): how the prompt hook finds the search
classes."""

from __future__ import annotations

import json
import subprocess
import sys

from carto_core.plugin import registry, table


def test_registries_record_where_each_search_class_lives_and_a_rescan_keeps_it():
    registry.get_registries(hooks=registry.RANKING_HOOKS)
    assert table.class_target("analyzers", "english") == "carto_rankers.analyzers:EnglishAnalyzer"
    assert table.class_target("fusions", "rrf-prior") == "carto_rankers.rrf:RRFPriorFusion"
    assert table.class_target("decay_policies", "gated-prior") == "carto_rankers.decay:GatedPriorDecay"
    assert table.class_target("rankers", "no-such") is None
    assert table.class_target("analyzers", "english", {"CARTO_DISABLE_PLUGINS": "rankers"}) is None
    registry.set_registries(None)
    table.plugin_table(refresh=True)  # a rescan (some sys.path folder changed)
    assert table.class_target("rankers", "bm25") == "carto_rankers.bm25:BM25Ranker"


def test_a_rescan_drops_the_records_of_a_plugin_whose_version_changed(tmp_path):
    old = {"plugins": [{"name": "rankers", "distribution": "carto-rankers", "version": "0.1"}],
           "classes": {"rankers": {"bm25": {"target": "x:Y", "plugin": "rankers"}}}}
    same = {"plugins": [{"name": "rankers", "distribution": "carto-rankers", "version": "0.1"}]}
    bumped = {"plugins": [{"name": "rankers", "distribution": "carto-rankers", "version": "0.2"}]}
    table.carry_classes(old, same)
    table.carry_classes(old, bumped)
    assert same["classes"] == old["classes"] and "classes" not in bumped


def test_a_standalone_resolve_leaves_the_plugin_package_init_unrun():
    code = ("import sys, json\n"
            "from carto_core.plugin.resolve import resolve\n"
            "cls = resolve('carto_rankers.analyzers:EnglishAnalyzer', standalone=True)\n"
            "print(json.dumps([cls.__name__, cls().query('Where did my sister move?').terms,\n"
            "                  sorted(m for m in ('carto_rankers', 'pluggy', 'numpy') if m in sys.modules)]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["EnglishAnalyzer", ["sister", "move"], []]
