"""The plugin package's pieces on their own: the one resolver of "module:attr" targets, the hook
records of the plugin table (trusted only while every file they came from is unchanged) and
the hookimpl marker against pluggy's own."""

from __future__ import annotations

import itertools
import os
import sys
import types

import pytest

from carto_core.plugin import table
from carto_core.plugin.resolve import resolve, split


def _module_file(tmp_path, name: str, text: str):
    path = tmp_path / f"{name}.py"
    path.write_text(text, "utf-8")
    return path


def test_split_reads_module_and_dotted_attribute():
    assert split(" pkg.mod : Outer.Inner ") == ("pkg.mod", ["Outer", "Inner"])
    assert split("pkg.mod") == ("pkg.mod", [])


def test_resolve_names_a_module_an_attribute_or_its_default(tmp_path, monkeypatch):
    _module_file(tmp_path, "house_probe_a", "class Outer:\n    class Inner:\n        pass\n\n"
                                            "def handle():\n    return 'h'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = resolve("house_probe_a")
    assert module is sys.modules["house_probe_a"]
    assert resolve("house_probe_a:Outer.Inner") is module.Outer.Inner
    assert resolve("house_probe_a", "handle")() == "h"
    assert resolve("house_probe_a:Outer", "handle") is module.Outer  # a named attribute wins
    with pytest.raises(AttributeError):
        resolve("house_probe_a:nothing")
    with pytest.raises(ImportError):
        resolve("house_no_such_module:x")


def test_resolve_waits_for_a_module_another_thread_is_importing(tmp_path, monkeypatch):
    # A server loads its registries from two threads: the second must not take the first's
    # half-run module from sys.modules (its hooks not defined yet: the plugin registered nothing).
    import threading
    import time

    _module_file(tmp_path, "house_probe_slow", "import time\ntime.sleep(0.5)\nVALUE = 7\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    first = threading.Thread(target=resolve, args=("house_probe_slow",))
    first.start()
    while "house_probe_slow" not in sys.modules:
        time.sleep(0.005)
    try:
        assert resolve("house_probe_slow:VALUE") == 7
    finally:
        first.join()


def test_resolve_reload_reads_a_changed_module_again(tmp_path, monkeypatch):
    path = _module_file(tmp_path, "house_probe_b", "VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert resolve("house_probe_b:VALUE") == 1
    path.write_text("VALUE = 22\n", "utf-8")
    assert resolve("house_probe_b:VALUE") == 1  # imported once: the same module
    assert resolve("house_probe_b:VALUE", reload=True) == 22


def test_resolve_standalone_leaves_the_package_init_unrun(tmp_path, monkeypatch):
    package = tmp_path / "house_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("raise RuntimeError('the package __init__ ran')\n")
    (package / "leaf.py").write_text("class Leaf:\n    name = 'leaf'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert resolve("house_pkg.leaf:Leaf", standalone=True).name == "leaf"
    assert "house_pkg" not in sys.modules
    sys.modules.pop("house_pkg.leaf")
    with pytest.raises(RuntimeError, match="__init__ ran"):
        resolve("house_pkg.leaf:Leaf")


# --------------------------------------------------------------------------- hook records


def _plugin_module(path) -> types.ModuleType:
    module = types.ModuleType("probe")
    module.__file__ = str(path)
    return module


def test_a_hook_record_is_trusted_only_while_its_module_file_is_unchanged(tmp_path):
    path = _module_file(tmp_path, "probe", "def carto_register_sources(register): pass\n")
    record: dict = {}
    table.record_hooks(record, [("probe", _plugin_module(path), ["carto_register_sources"], [])])
    assert table.known_hooks(record, "probe") == ["carto_register_sources"]
    # The plugin now implements another hook: a partial load must import it again. Same
    # mtime, another size, then the same size and another mtime: each is a change.
    stamp = os.stat(path)
    path.write_text("def carto_register_decay_policies(register): pass\n", "utf-8")
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert table.known_hooks(record, "probe") is None
    table.record_hooks(record, [("probe", _plugin_module(path), ["carto_register_decay_policies"], [])])
    assert table.known_hooks(record, "probe") == ["carto_register_decay_policies"]
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000_000))
    assert table.known_hooks(record, "probe") is None
    path.unlink()
    assert table.known_hooks(record, "probe") is None


def test_a_hook_record_follows_the_file_its_implementations_live_in(tmp_path):
    # The entry point's module imports its hooks from another file: a change there counts too.
    entry = _module_file(tmp_path, "entry", "from hooks import carto_register_sources\n")
    hooks = _module_file(tmp_path, "hooks", "def carto_register_sources(register):\n    pass\n")
    code = compile(hooks.read_text(), str(hooks), "exec")
    namespace: dict = {}
    exec(code, namespace)
    record: dict = {}
    table.record_hooks(record, [("probe", _plugin_module(entry), ["carto_register_sources"],
                                 [namespace["carto_register_sources"]])])
    assert sorted(record["hooks"]["probe"]["files"]) == sorted([str(entry), str(hooks)])
    assert table.known_hooks(record, "probe") == ["carto_register_sources"]
    hooks.write_text("def carto_register_sources(register):\n    register(object)\n", "utf-8")
    assert table.known_hooks(record, "probe") is None


def test_a_record_of_the_old_format_is_not_trusted():
    old = {"hooks": {"probe": {"file": __file__, "mtime": os.stat(__file__).st_mtime_ns,
                               "hooks": ["carto_register_sources"]}}}
    assert table.known_hooks(old, "probe") is None


def test_each_write_of_the_table_has_its_own_temporary_file(monkeypatch):
    # Two threads of a server sharing one temporary file interleaved their bytes into a table
    # that no longer parsed (every partial load then rescanned, or trusted a torn record).
    import json

    from carto_core.util import privatefiles

    opened = []
    real = privatefiles.open_private

    def spy(path, *args, **kwargs):
        opened.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(privatefiles, "open_private", spy)
    table.write_table({"hooks": {"a": {"hooks": ["x"]}}})
    table.write_table({"hooks": {}})
    assert len(opened) == 2 and opened[0] != opened[1]
    with open(table.table_path(), encoding="utf-8") as handle:
        assert json.load(handle) == {"hooks": {}}
    folder = os.path.dirname(table.table_path())
    assert [name for name in os.listdir(folder) if name.endswith(".tmp")] == []


# --------------------------------------------------------------------------- the marker


OPTIONS = ("wrapper", "hookwrapper", "optionalhook", "tryfirst", "trylast")


def test_the_marker_sets_what_pluggys_marker_sets_for_every_option():
    """carto_core.hookimpl writes pluggy's private marker format by hand (so marking a hook
    imports no pluggy); pluggy's own HookimplMarker is the reference for every option."""
    import pluggy

    from carto_core import HOOK_NAMESPACE, hookimpl
    from carto_core.plugin.markers import IMPL_ATTR

    theirs_marker = pluggy.HookimplMarker(HOOK_NAMESPACE)
    assert IMPL_ATTR == f"{HOOK_NAMESPACE}_impl"
    cases = [dict(zip(OPTIONS, flags)) for flags in itertools.product((False, True), repeat=len(OPTIONS))]
    cases += [{"specname": "carto_register_sources"}]
    for options in cases:
        def mine(register):
            pass

        def theirs(register):
            pass

        hookimpl(**options)(mine)
        theirs_marker(**options)(theirs)
        assert getattr(mine, IMPL_ATTR) == getattr(theirs, IMPL_ATTR), options
    bare_mine, bare_theirs = (lambda register: None), (lambda register: None)
    hookimpl(bare_mine)
    theirs_marker(bare_theirs)
    assert getattr(bare_mine, IMPL_ATTR) == getattr(bare_theirs, IMPL_ATTR)
    # and pluggy reads the hand-written mark as its own
    pm = pluggy.PluginManager(HOOK_NAMESPACE)
    assert pm.parse_hookimpl_opts(types.SimpleNamespace(f=bare_mine), "f") == \
        pm.parse_hookimpl_opts(types.SimpleNamespace(f=bare_theirs), "f")
