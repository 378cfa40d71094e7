"""What a cold `carto search` run through the console script (the warm client first, then the
click command) leaves out of its process: each module here was cut from the cold path
(docs/performance.md, "Cold path") and comes back only by a change that costs every search."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

#: The warm client's transport (imported only when a `carto serve` socket exists), and pluggy
#: (a partial registry load whose plugins the table knows uses plugin.light.LightManager), heapq
#: (the facets' top counts are sorted, not `most_common(n)`), what only an index build needs
#: (`index_build` imports `array` and `timeparse` on first use), and `bisect` (the lite index
#: view, which bm25 imports for a constant, binary-searches with it only when used), and
#: `unicodedata` (the analyzers fold non-ASCII text only; the query and page here are ASCII).
NOT_IMPORTED = ("socket", "selectors", "base64", "pluggy", "carto_core.plugin.hookspecs", "heapq",
                "array", "carto_core.util.timeparse", "bisect", "unicodedata")

COLD = """
import atexit, json, sys
watch = json.loads(sys.argv.pop(1))
# entry.main ends a one-shot search with os._exit after the atexit handlers run.
atexit.register(lambda: print("MODULES " + json.dumps(sorted(m for m in watch if m in sys.modules)),
                              file=sys.stderr))
atexit.register(lambda: print("GC " + json.dumps(__import__("gc").isenabled()), file=sys.stderr))
atexit.register(lambda: print("DEFERRED " + json.dumps(sorted(
    m for m in ("fnmatch", "ipaddress", "ntpath", "urllib.parse")
    if type(sys.modules.get(m)).__name__ == "Deferred")),
    file=sys.stderr))
LAZY = (("carto_core.logio.jsonl", "_SURROGATE"), ("carto_core.search.index_view", "_HEADER"),
        ("carto_core.search.pipeline", "_ID_SHAPED"), ("carto_core.search.pipeline", "_VERSION"))
atexit.register(lambda: print("COMPILED " + json.dumps(sorted(
    m + "." + a for m, a in LAZY if m in sys.modules and getattr(sys.modules[m], a).compiled is not None)),
    file=sys.stderr))
sys.argv[0] = "carto"
from carto_core.entry import main
sys.exit(main())
"""


@pytest.fixture(scope="module")
def small_home(tmp_path_factory):
    from carto_core.evaluation.generate import generate_home

    root = tmp_path_factory.mktemp("cold") / "home"
    generate_home(root, 300, seed=3)
    env = {**os.environ, "CARTO_HOME": str(root), "CARTO_SEMANTIC": "0"}
    carto = os.path.join(os.path.dirname(sys.executable), "carto")
    subprocess.run([carto, "index", "--step", "keyword"], env=env, check=True, capture_output=True)
    return root, env


def cold_run(env, watch, *args) -> tuple[list[str], str, bool]:
    """(watched modules imported, stdout, whether the cyclic GC was on at the end)."""
    out = subprocess.run([sys.executable, "-c", COLD, json.dumps(list(watch)), *args],
                         capture_output=True, text=True, env=env)
    line = next(l for l in out.stderr.splitlines() if l.startswith("MODULES "))
    gc_on = next(l for l in out.stderr.splitlines() if l.startswith("GC "))
    return json.loads(line[len("MODULES "):]), out.stdout, json.loads(gc_on[len("GC "):])


def cold_modules(env, watch, *args) -> tuple[list[str], dict]:
    found, stdout, _ = cold_run(env, watch, "search", *args)
    return found, json.loads(stdout)


def test_a_cold_search_imports_none_of_the_cut_modules(small_home):
    _, env = small_home
    found, document = cold_modules(env, NOT_IMPORTED, "commit", "--json", "--limit", "3")
    assert document["results"], "the search must answer for the check to mean anything"
    assert found == []


def test_the_watch_itself_sees_a_module_that_is_imported(small_home):
    """The check can fail: numpy and click are in every cold search."""
    _, env = small_home
    found, _ = cold_modules(env, ("numpy", "click", "socket"), "commit", "--json")
    assert found == ["click", "numpy"]


def test_a_one_shot_search_runs_without_the_cyclic_gc_and_other_commands_with_it(small_home):
    """The console script's search turns the collector off (entry.main: it walked the
    imports' objects ~60 times a cold search) and never loads what pathlib imports for
    `as_uri` (carto_core.util.deferred); any other command keeps both."""
    _, env = small_home
    out = subprocess.run([sys.executable, "-c", COLD, "[]", "search", "commit", "--json"],
                         capture_output=True, text=True, env=env)
    line = next(l for l in out.stderr.splitlines() if l.startswith("DEFERRED "))
    assert json.loads(line[len("DEFERRED "):]) == ["fnmatch", "ipaddress", "ntpath", "urllib.parse"]
    _, stdout, gc_on = cold_run(env, (), "search", "commit", "--json", "--limit", "3")
    assert json.loads(stdout)["results"] and gc_on is False
    _, _, gc_on = cold_run(env, (), "facts", "census", "--json")
    assert gc_on is True


def test_a_cold_search_compiles_none_of_the_patterns_it_does_not_use(small_home):
    """Patterns compiled on first use (carto_core.util.lazyre): the surrogate class of jsonl, the
    lite view's npy header, the phantom-entity shapes of a search that found nothing."""
    _, env = small_home
    out = subprocess.run([sys.executable, "-c", COLD, "[]", "search", "commit", "--json"],
                         capture_output=True, text=True, env=env)
    line = next(l for l in out.stderr.splitlines() if l.startswith("COMPILED "))
    assert json.loads(out.stdout)["results"] and json.loads(line[len("COMPILED "):]) == []
    out = subprocess.run([sys.executable, "-c", COLD, "[]", "search", "evt-zzzznotthere", "--json"],
                         capture_output=True, text=True, env=env)
    line = next(l for l in out.stderr.splitlines() if l.startswith("COMPILED "))
    assert "carto_core.search.pipeline._ID_SHAPED" in json.loads(line[len("COMPILED "):])
