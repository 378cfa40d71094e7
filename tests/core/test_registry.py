import json
import os
import subprocess
import sys
import types
from importlib import metadata

import pytest
from click.testing import CliRunner

from carto_core import hookimpl
from carto_core.plugin import table
from carto_core.plugin.registries import (REGISTRATION_HOOKS, DuplicateNameError, NamedRegistry, Registries,
                                          UnknownNameError)
from carto_core.plugin.registry import build_plugin_manager, set_registries
from carto_core.model.sources import Source


class Alpha(Source):
    name = "alpha"


class AlphaAgain(Source):
    name = "alpha"


class Beta(Source):
    name = "beta"


def test_named_registry_rejects_duplicates_and_sorts():
    registry = NamedRegistry("source")
    registry.register(Beta, "p1")
    registry.register(Alpha, "p1")
    with pytest.raises(DuplicateNameError, match="already registered by plugin 'p1'"):
        registry.register(AlphaAgain, "p2")
    assert registry.names() == ["alpha", "beta"]
    assert registry.get("alpha") is Alpha
    with pytest.raises(UnknownNameError, match="accepted: alpha, beta"):
        registry.get("gamma")


def _plugin(*classes):
    module = types.SimpleNamespace()

    @hookimpl
    def carto_register_sources(register):
        for cls in classes:
            register(cls)

    module.carto_register_sources = carto_register_sources
    return module


def test_duplicate_from_a_second_plugin_is_reported_first_stays():
    pm, infos = build_plugin_manager(entry_points=False, extra={"one": _plugin(Alpha), "two": _plugin(AlphaAgain, Beta)})
    registries = Registries(pm, infos)
    assert registries.sources.get("alpha") is Alpha
    assert registries.sources.plugin_of("alpha") == "one"
    assert "beta" in registries.sources
    assert any("'alpha' from plugin 'two' rejected" in p for p in registries.problems)
    assert infos["two"].registered == {"source": ["beta"]}


class _FakeEntryPoint:
    def __init__(self, name, value):
        self.name, self.value = name, value
        self.dist = types.SimpleNamespace(name=f"carto-{name}", version="9.9")


def test_plugin_that_fails_to_import_is_listed_and_cli_still_works(monkeypatch, tmp_path):
    (tmp_path / "carto_broken.py").write_text("import missing_dependency\n")
    (tmp_path / "carto_good.py").write_text(
        "from carto_core import hookimpl\nfrom carto_core.model.sources import Source\n\n"
        "class Beta(Source):\n    name = 'beta'\n\n"
        "@hookimpl\ndef carto_register_sources(register):\n    register(Beta)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    fake = [_FakeEntryPoint("broken", "carto_broken"), _FakeEntryPoint("good", "carto_good")]
    real = metadata.entry_points

    def entry_points(**kw):
        return fake if kw.get("group") == "carto" else real(**kw)

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    set_registries(None)
    from carto_core.cli import CartoGroup, cli

    # A group of its own, and `carto plugins` builds the commands of the group it runs under:
    # the process' `cli` loads its plugins once, and loaded from these fake entry points it
    # would lack every real plugin's commands in the tests after this one (`install claude`:
    # "No such command").
    monkeypatch.setattr(cli, "_load_plugins", lambda: pytest.fail("the process' cli was loaded"))
    result = CliRunner().invoke(CartoGroup(name="carto"), ["plugins", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    by_name = {p["name"]: p for p in doc["plugins"]}
    assert by_name["broken"]["status"] == "error"
    assert "missing_dependency" in by_name["broken"]["error"]
    assert by_name["good"]["registered"] == {"source": ["beta"]}
    assert by_name["core-writers"]["registered"] == {"writer": ["jsonl"]}


def test_disable_plugins_blocks_by_name(monkeypatch):
    monkeypatch.setenv("CARTO_DISABLE_PLUGINS", "notes, core-writers")
    pm, infos = build_plugin_manager()
    registries = Registries(pm, infos)
    assert infos["notes"].blocked and infos["core-writers"].blocked
    assert "notes" not in registries.sources
    assert "jsonl" not in registries.writers


def test_plugins_json_lists_builtins_workspace_plugins_and_the_example():
    result = CliRunner().invoke(__import__("carto_core.cli", fromlist=["cli"]).cli, ["plugins", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    names = {p["name"] for p in doc["plugins"]}
    assert {"core-writers", "rankers", "claude", "codex", "git", "hermes", "notes"} <= names
    by_name = {p["name"]: p for p in doc["plugins"]}
    assert by_name["notes"]["distribution"] == "carto-notes"
    assert by_name["notes"]["registered"]["source"] == ["notes"]
    assert "carto_register_sources" in by_name["notes"]["hooks"]
    assert all(p["status"] == "loaded" for p in doc["plugins"])
    # live capture, from the same table the hook dispatcher reads
    assert by_name["claude"]["capture"] == {"claude": "carto_claude.capture:handle"}
    assert by_name["notes"]["capture"] == {}


def test_a_plugin_command_cannot_take_a_core_name():
    import click

    @click.command(name="doctor")
    def fake_doctor():
        click.echo("hijacked")

    plugin = types.SimpleNamespace()

    @hookimpl
    def carto_register_commands(cli):
        cli.add_command(fake_doctor)

    plugin.carto_register_commands = carto_register_commands
    pm, infos = build_plugin_manager(entry_points=False, extra={"hijack": plugin})
    set_registries(Registries(pm, infos))
    from carto_core.cli import CartoGroup, cli

    group = CartoGroup(name="carto", commands={})
    group.list_commands(click.Context(group))
    assert group.commands["doctor"] is not fake_doctor
    from carto_core.plugin.registry import get_registries

    assert any("'doctor' refused" in p for p in get_registries().problems)


def _base(attr):
    from carto_core.plugin.registries import REGISTRY_BASES

    module, _, name = REGISTRY_BASES[attr][0].rpartition(".")
    return getattr(__import__(module, fromlist=[name]), name)


@pytest.mark.parametrize("hook,attr", sorted(REGISTRATION_HOOKS.items()))
def test_each_registration_hook_fills_its_own_registry(hook, attr):
    thing = type("Thing", (_base(attr),), {"name": f"probe-{attr.replace('_', '-')}"})
    plugin = types.SimpleNamespace()

    def impl(register):
        register(thing)

    setattr(plugin, hook, hookimpl(impl))
    pm, infos = build_plugin_manager(entry_points=False, extra={"probe": plugin})
    registries = Registries(pm, infos)
    for other_hook, other_attr in REGISTRATION_HOOKS.items():
        registry = getattr(registries, other_attr)
        assert (f"probe-{attr.replace('_', '-')}" in registry) is (other_attr == attr), other_hook
    assert getattr(registries, attr).plugin_of(f"probe-{attr.replace('_', '-')}") == "probe"
    assert hook in infos["probe"].hooks


def _search_classes():
    from carto_core.search.api import Fusion, Ranker
    from carto_core.search.tokens import Analyzer

    return (type("OldFusion", (Fusion,), {"name": "same"}),
            type("OldAnalyzer", (Analyzer,), {"name": "old-analyzer"}),
            type("Ladder", (Ranker,), {"name": "same"}))


def test_a_fusion_or_analyzer_registered_the_old_way_lands_in_its_own_registry_with_a_warning():
    fusion, analyzer, ranker = _search_classes()

    def old_way(register):
        register(fusion)
        register(analyzer)
        register(ranker)

    plugin = types.SimpleNamespace(carto_register_rankers=hookimpl(old_way))
    pm, infos = build_plugin_manager(entry_points=False, extra={"old": plugin})
    with pytest.warns(DeprecationWarning) as caught:
        registries = Registries(pm, infos)
    messages = sorted(str(w.message) for w in caught)
    assert messages == [
        "plugin 'old' registers analyzer 'old-analyzer' through carto_register_rankers: use carto_register_analyzers",
        "plugin 'old' registers fusion 'same' through carto_register_rankers: use carto_register_fusions"]
    # each in its own registry: a fusion and a ranker may share a name
    assert registries.fusions.get("same") is fusion and registries.rankers.get("same") is ranker
    assert registries.analyzers.get("old-analyzer") is analyzer
    assert "same" not in registries.analyzers and "old-analyzer" not in registries.rankers
    assert infos["old"].registered == {"fusion": ["same"], "analyzer": ["old-analyzer"], "ranker": ["same"]}
    assert registries.problems == []


def test_the_new_hooks_register_without_a_warning_and_refuse_duplicates_per_registry():
    import warnings

    fusion, analyzer, _ = _search_classes()
    again = type("OtherFusion", (fusion,), {"name": "same"})
    one = types.SimpleNamespace(carto_register_fusions=hookimpl(lambda register: register(fusion)),
                                carto_register_analyzers=hookimpl(lambda register: register(analyzer)))
    two = types.SimpleNamespace(carto_register_fusions=hookimpl(lambda register: register(again)))
    pm, infos = build_plugin_manager(entry_points=False, extra={"one": one, "two": two})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        registries = Registries(pm, infos)
    assert registries.fusions.get("same") is fusion
    assert registries.problems == ["fusion 'same' from plugin 'two' rejected: already registered by plugin 'one'"]


def test_a_fusion_given_to_another_hook_is_still_refused():
    fusion, _, _ = _search_classes()
    plugin = types.SimpleNamespace(carto_register_decay_policies=hookimpl(lambda register: register(fusion)))
    pm, infos = build_plugin_manager(entry_points=False, extra={"p": plugin})
    registries = Registries(pm, infos)
    assert "same" not in registries.fusions and "same" not in registries.decay_policies
    assert any("decay policy 'same'" in p and "subclasses none of" in p for p in registries.problems)


def test_carto_register_commands_adds_a_command_attributed_to_its_plugin():
    import click

    @click.command(name="hello-probe")
    def hello():
        click.echo("hello from a plugin")

    plugin = types.SimpleNamespace(carto_register_commands=hookimpl(lambda cli: cli.add_command(hello)))
    pm, infos = build_plugin_manager(entry_points=False, extra={"probe": plugin})
    set_registries(Registries(pm, infos))
    from carto_core.cli import CartoGroup

    group = CartoGroup(name="carto")
    result = CliRunner().invoke(group, ["hello-probe"])
    assert result.exit_code == 0 and "hello from a plugin" in result.output
    assert infos["probe"].registered["command"] == ["hello-probe"]


def test_a_class_outside_its_registry_base_is_refused_and_reported():
    class Impostor:  # quacks like a source, is not one
        name = "impostor"

        def discover(self):
            return []

    pm, infos = build_plugin_manager(entry_points=False, extra={"odd": _plugin(Impostor, Beta)})
    registries = Registries(pm, infos)
    assert "impostor" not in registries.sources and "beta" in registries.sources
    assert any("'impostor' from plugin 'odd' rejected" in p and "carto_core.model.sources.Source" in p
               for p in registries.problems), registries.problems
    assert infos["odd"].registered == {"source": ["beta"]}


def test_a_plugin_that_implements_no_hook_is_reported():
    """An entry point naming the wrong module (or stale metadata) registers nothing, loudly."""
    pm, infos = build_plugin_manager(entry_points=False, extra={"empty": types.SimpleNamespace()})
    registries = Registries(pm, infos)
    assert any("'empty'" in p and "implements no carto hook" in p for p in registries.problems)


def test_a_hook_that_raises_does_not_break_the_others():
    def bad(register):
        raise RuntimeError("plugin bug")

    plugin = types.SimpleNamespace(carto_register_sources=hookimpl(bad))
    pm, infos = build_plugin_manager(entry_points=False, extra={"buggy": plugin, "good": _plugin(Beta)})
    registries = Registries(pm, infos)
    assert "beta" in registries.sources
    assert any("buggy" in p and "plugin bug" in p for p in registries.problems)


# --------------------------------------------------------------------------- the plugin table


def _read_table():
    return json.loads(open(table.table_path(), encoding="utf-8").read())


def _write_table(record):
    with open(table.table_path(), "w", encoding="utf-8") as handle:
        json.dump(record, handle)


def test_the_plugin_table_is_cached_and_follows_the_installed_distributions():
    assert table.capture_target("claude") == ("carto_claude.capture:handle", None)
    cached = _read_table()
    assert {"claude", "codex"} <= {c["provider"] for c in cached["capture"]}
    assert {"claude", "codex", "git", "hermes", "notes", "rankers"} <= {p["name"] for p in cached["plugins"]}
    # Trusted while the distributions are unchanged: a doctored target is believed ...
    for record in cached["capture"]:
        if record["provider"] == "claude":
            record["target"] = "nowhere:handle"
    _write_table(cached)
    set_registries(None)  # forget the copy this process holds
    assert table.capture_target("claude") == ("nowhere:handle", None)
    # ... and a changed distribution set (another key) makes the next call scan again.
    cached["key"]["paths"] = [["/some/old/site-packages", 1]]
    _write_table(cached)
    set_registries(None)
    assert table.capture_target("claude") == ("carto_claude.capture:handle", None)
    assert table.capture_target("nosuch") == (None, "no live capture installed for provider 'nosuch'")


def test_the_block_list_silences_a_capture_by_its_name_or_its_plugins(monkeypatch):
    doctored = {"key": table.distributions_key(), "hooks": {},
             "plugins": [{"name": "journal", "value": "carto_journal", "distribution": "carto-journal",
                          "version": "1"}],
             "capture": [{"provider": "jot", "target": "carto_journal.capture:handle",
                          "distribution": "carto-journal"}]}
    import os

    os.makedirs(os.path.dirname(table.table_path()), exist_ok=True)
    _write_table(doctored)
    set_registries(None)
    assert table.capture_target("jot") == ("carto_journal.capture:handle", None)
    monkeypatch.setenv("CARTO_DISABLE_PLUGINS", "jot")
    assert table.capture_target("jot") == (None, None)
    monkeypatch.setenv("CARTO_DISABLE_PLUGINS", "journal")  # the plugin of the same distribution
    assert table.capture_target("jot") == (None, None)


class _FakeCapture:
    def __init__(self, name, value, dist):
        self.name, self.value = name, value
        self.dist = types.SimpleNamespace(name=dist, version="1.0")


def test_a_second_capture_for_a_provider_is_refused_and_reported(monkeypatch):
    from carto_core.plugin import registry

    fakes = [_FakeCapture("claude", "impostor.capture:handle", "zz-impostor"),
             _FakeCapture("claude", "carto_claude.capture:handle", "carto-claude")]
    real = metadata.entry_points

    def entry_points(**kw):
        return fakes if kw.get("group") == "carto.capture" else real(**kw)

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    set_registries(None)
    table.plugin_table(refresh=True)
    # Distribution name order decides, as for `carto` entry points; the other is reported.
    assert table.capture_target("claude") == ("carto_claude.capture:handle", None)
    registries = registry.get_registries()
    assert any("zz-impostor" in p and "claude" in p for p in registries.problems), registries.problems
    assert registries.plugins["claude"].capture == {"claude": "carto_claude.capture:handle"}


def _run(code: str, env: dict) -> str:
    import os
    import subprocess

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


PARTIAL = """
import json, sys
from carto_core.plugin.registry import RANKING_HOOKS, get_registries
registries = get_registries(hooks=RANKING_HOOKS)
print(json.dumps({"plugins": sorted(registries.plugins), "rankers": registries.rankers.names(),
                  "decay": registries.decay_policies.names(),
                  "imported": sorted(m for m in ("carto_claude.plugin", "carto_hermes", "carto_git.plugin",
                                                 "carto_rankers", "carto_core.builtins.writers",
                                                 "carto_core.builtins.facts", "attrs")
                                     if m in sys.modules)}))
"""


def test_a_partial_load_imports_only_the_plugins_a_search_needs_and_obeys_the_block_list(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    first = json.loads(_run(PARTIAL, env))  # nothing recorded yet: every plugin is imported once
    assert "claude" in first["plugins"] and "bm25" in first["rankers"]
    second = json.loads(_run(PARTIAL, env))  # recorded: only what implements a ranking hook
    # nor the built-in writers and fact verbs (the writers' base class brought attrs)
    assert second["imported"] == ["carto_rankers"], second
    assert second["rankers"] == first["rankers"] and second["decay"] == first["decay"]
    assert "claude" not in second["plugins"] and "core-writers" not in second["plugins"]
    blocked = json.loads(_run(PARTIAL, {**env, "CARTO_DISABLE_PLUGINS": "rankers"}))
    assert "bm25" not in blocked["rankers"] and "semantic" in blocked["rankers"]


def _installed_distribution(site, name: str, source: str) -> None:
    """A third-party distribution `carto-<name>` with one `carto` entry point, installed into
    the folder `site` as an installer would (its module beside a .dist-info)."""
    info = site / f"carto_{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: carto-{name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[carto]\n{name} = carto_{name}\n")
    (site / f"carto_{name}.py").write_text(source)


COLD_SEARCH_LOAD = """
import json, sys
from carto_core.plugin.registry import RANKING_HOOKS, get_registries
registries = get_registries(hooks=RANKING_HOOKS)
print(json.dumps({"rankers": registries.rankers.names(),
                  "imported": sorted(m for m in ("carto_broke", "carto_typo", "pluggy") if m in sys.modules)}))
"""


def test_a_plugin_that_fails_to_load_is_not_imported_again_by_each_cold_search(tmp_path):
    """A plugin that raised on import, or named a hook that does not exist, was never recorded
    in the plugin table: every cold search imported it again, and (the misspelt one being
    unknown) built pluggy's manager instead of the light one. Its failure is recorded now: the
    next cold search leaves it out without importing it, until one of its files or the
    installed distributions change; `carto plugins` still tries it and reports the error."""
    site, tries = tmp_path / "site", tmp_path / "tries"
    broken = f"open({str(tries)!r}, 'a').write('.')\nimport missing_dependency_of_broke\n"
    _installed_distribution(site, "broke", broken)
    _installed_distribution(site, "typo", TYPO)
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(site)}

    def cold_search_load() -> tuple[list[str], int]:
        """(modules of interest imported, imports of the broken plugin so far)"""
        loaded = json.loads(_run(COLD_SEARCH_LOAD, env))
        assert "bm25" in loaded["rankers"]
        return loaded["imported"], len(tries.read_text()) if tries.exists() else 0

    assert cold_search_load() == (["carto_typo", "pluggy"], 1)  # nothing known yet
    assert cold_search_load() == ([], 1)
    assert cold_search_load() == ([], 1)
    done = subprocess.run([sys.executable, "-m", "carto_core", "plugins", "--json"], capture_output=True,
                          text=True, timeout=120, env={**os.environ, **env})
    errors = {p["name"]: p["error"] for p in json.loads(done.stdout)["plugins"] if p["status"] == "error"}
    assert errors == {"broke": "ModuleNotFoundError: No module named 'missing_dependency_of_broke'",
                      "typo": "unknown hook 'carto_register_source': no carto hook has this name; "
                              "did you mean 'carto_register_sources'?"}, errors
    assert cold_search_load() == ([], 2)  # the full load tried it; the cold one still does not
    # Its file changed (mended in an editable install, say): tried again once.
    (site / "carto_broke.py").write_text(broken + "# edited\n")
    assert cold_search_load() == ([], 3)
    assert cold_search_load() == ([], 3)
    # A distribution installed or removed (here: the missing one) makes a new table: tried again.
    (site / "missing_dependency_of_broke-1.0.dist-info").mkdir()
    assert cold_search_load() == (["carto_typo", "pluggy"], 4)
    assert cold_search_load() == ([], 4)


def test_each_builtin_declares_the_hooks_its_module_implements():
    import importlib

    from carto_core.plugin import hookspecs
    from carto_core.plugin.registry import BUILTIN_HOOKS, BUILTINS

    assert set(BUILTIN_HOOKS) == set(BUILTINS)
    specs = {name for name in dir(hookspecs) if name.startswith("carto_")}
    for name, module in BUILTINS.items():
        implemented = {attr for attr in dir(importlib.import_module(module)) if attr in specs}
        assert set(BUILTIN_HOOKS[name]) == implemented, name


def test_a_full_load_still_has_the_builtins():
    from carto_core.plugin.registry import load_registries

    registries = load_registries(entry_points=False)
    assert "jsonl" in registries.writers.names() and "census" in registries.fact_verbs.names()


def test_a_misspelt_hook_leaves_its_plugin_out_with_the_nearest_name_full_or_partial():
    """An implementation of a hook that does not exist failed pluggy's check_pending, which
    took every command down (a traceback ending in PluginValidationError). The plugin is now
    left out with its error, like one that fails to import, and the others load."""
    typo = types.SimpleNamespace(carto_register_source=hookimpl(lambda register: None),
                                 carto_register_rankers=hookimpl(lambda register: None))
    from carto_core.plugin.registry import RANKING_HOOKS, load_registries

    for hooks in (None, RANKING_HOOKS):
        registries = load_registries(hooks=hooks, extra={"typo": typo, "good": _plugin(Beta)})
        error = registries.plugins["typo"].error
        assert error == ("unknown hook 'carto_register_source': no carto hook has this name; "
                         "did you mean 'carto_register_sources'?"), error
        assert "typo" not in dict(registries.pm.list_name_plugin())
        assert "beta" in registries.sources
        assert not registries.problems, registries.problems
    nothing_near = types.SimpleNamespace(carto_frobnicate=hookimpl(lambda register: None))
    registries = load_registries(extra={"odd": nothing_near})
    assert "carto's hooks: carto_register_analyzers" in registries.plugins["odd"].error


def _fake_entry_points(monkeypatch, tmp_path, modules: dict[str, str], dists: dict[str, str] | None = None):
    """Entry points named after `modules` (name -> source), as distribution carto-<name> unless
    `dists` says otherwise (name -> distribution), next to the installed ones."""
    for name, source in modules.items():
        (tmp_path / f"carto_fake_{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))  # a new sys.path: the plugin table is scanned again
    fake = []
    for name in modules:
        ep = _FakeEntryPoint(name, f"carto_fake_{name}")
        if dists and name in dists:
            ep.dist = types.SimpleNamespace(name=dists[name], version="9.9")
        fake.append(ep)
    real = metadata.entry_points

    def entry_points(**kw):
        return [*real(**kw), *fake] if kw.get("group") == "carto" else real(**kw)

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    set_registries(None)


TYPO = ("from carto_core import hookimpl\n\n"
        "@hookimpl\ndef carto_register_source(register):\n    pass\n")


def test_a_misspelt_hook_name_is_an_error_line_and_every_command_runs(monkeypatch, tmp_path):
    from carto_core.cli import cli

    _fake_entry_points(monkeypatch, tmp_path, {"typo": TYPO})
    result = CliRunner().invoke(cli, ["plugins"])
    assert result.exit_code == 0, result.output
    assert "typo 9.9 (carto-typo) [error]" in result.output
    assert ("    error: unknown hook 'carto_register_source': no carto hook has this name; did you "
            "mean 'carto_register_sources'?") in result.output
    assert "problem:" not in result.output
    doctor = json.loads(CliRunner().invoke(cli, ["doctor", "--json", "--no-probe"]).stdout)
    [typo] = [p for p in doctor["problems"] if "'typo'" in p["problem"]]
    assert typo["problem"].startswith("plugin 'typo' failed to load: unknown hook 'carto_register_source'")
    assert typo["fix"] == ("correct the hook's name in the plugin (an update of its distribution, "
                           "carto-typo) or block it with CARTO_DISABLE_PLUGINS=typo")
    for argv in (["--help"], ["ingest", "--help"], ["search", "--help"], ["facts", "--help"]):
        assert CliRunner().invoke(cli, argv).exit_code == 0, argv


def test_a_disabled_plugin_is_no_plugin_without_hooks(monkeypatch, tmp_path):
    """Blocked, the misspelt plugin was reported as one whose entry point names the wrong module
    and lumped with the other plugin problems under 'uninstall or rename one of the two'."""
    from carto_core.cli import cli

    _fake_entry_points(monkeypatch, tmp_path, {"typo": TYPO})
    monkeypatch.setenv("CARTO_DISABLE_PLUGINS", "typo")
    doc = json.loads(CliRunner().invoke(cli, ["plugins", "--json"]).output)
    assert {p["name"]: p["status"] for p in doc["plugins"]}["typo"] == "blocked"
    assert doc["problems"] == []
    result = CliRunner().invoke(cli, ["doctor", "--no-probe"])
    assert "typo" not in result.output and "two plugins" not in result.output, result.output


def test_a_plugin_without_hooks_and_a_clash_each_get_their_own_fix():
    pm, infos = build_plugin_manager(entry_points=False, extra={"empty": types.SimpleNamespace(),
                                                                "one": _plugin(Alpha),
                                                                "two": _plugin(AlphaAgain)})
    registries = Registries(pm, infos)
    fixes = {problem.split(":")[0]: registries.fixes[problem] for problem in registries.problems}
    assert fixes == {
        "plugin 'empty' (namespace()) implements no carto hook":
            "point the entry point at the module with the plugin's hooks or reinstall its "
            "distribution (None); or block it with CARTO_DISABLE_PLUGINS=empty",
        "source 'alpha' from plugin 'two' rejected":
            "rename the source in one of plugins 'one' and 'two', or block one with "
            "CARTO_DISABLE_PLUGINS",
    }, fixes


def test_carto_own_plugins_keep_their_names_against_a_third_party_one(monkeypatch, tmp_path):
    """A third-party plugin registering a name carto's own plugins use won, because
    registration ran in plugin name order ('dupname' < 'rankers'), and `carto plugins` said
    carto's was the one rejected: `carto search` then used the impostor."""
    from carto_core.cli import cli
    from carto_core.plugin.registry import get_registries

    source = ("from carto_core import hookimpl\nfrom carto_core.search.api import Ranker\n"
              "from carto_core.model.sources import Source\n\n"
              "class Impostor(Ranker):\n    name = 'bm25'\n\n"
              "class Claude(Source):\n    name = 'claude'\n\n"
              "@hookimpl\ndef carto_register_rankers(register):\n    register(Impostor)\n\n"
              "@hookimpl\ndef carto_register_sources(register):\n    register(Claude)\n")
    _fake_entry_points(monkeypatch, tmp_path, {"aaa": source})
    registries = get_registries()
    assert registries.rankers.plugin_of("bm25") == "rankers"
    assert registries.sources.plugin_of("claude") == "claude"
    assert registries.plugins["aaa"].registered == {}
    assert not registries.plugins["aaa"].own and registries.plugins["rankers"].own
    doc = json.loads(CliRunner().invoke(cli, ["plugins", "--json"]).output)
    assert sorted(doc["problems"]) == [
        "ranker 'bm25' from plugin 'aaa' rejected: already registered by plugin 'rankers' "
        "(carto's own plugins keep their names)",
        "source 'claude' from plugin 'aaa' rejected: already registered by plugin 'claude' "
        "(carto's own plugins keep their names)"]
    by_name = {p["name"]: p for p in doc["plugins"]}
    assert "bm25" in by_name["rankers"]["registered"]["ranker"]
    doctor = json.loads(CliRunner().invoke(cli, ["doctor", "--json", "--no-probe"]).stdout)
    assert {p["fix"] for p in doctor["problems"] if "'aaa'" in p["problem"]} == {
        "rename the ranker in plugin 'aaa' or block it with CARTO_DISABLE_PLUGINS=aaa",
        "rename the source in plugin 'aaa' or block it with CARTO_DISABLE_PLUGINS=aaa"}


def test_between_two_third_party_plugins_the_first_by_name_keeps_the_name(monkeypatch, tmp_path):
    from carto_core.plugin.registry import get_registries

    def source(label):
        return ("from carto_core import hookimpl\nfrom carto_core.model.sources import Source\n\n"
                f"class Notes(Source):\n    name = 'shared'\n    label = {label!r}\n\n"
                "@hookimpl\ndef carto_register_sources(register):\n    register(Notes)\n")

    _fake_entry_points(monkeypatch, tmp_path, {"zeta": source("z"), "beta": source("b")})
    registries = get_registries()
    assert registries.sources.plugin_of("shared") == "beta"
    assert any("'shared' from plugin 'zeta' rejected: already registered by plugin 'beta'" in p
               and "carto's own" not in p for p in registries.problems), registries.problems


def test_a_third_party_entry_point_cannot_take_an_own_plugins_entry_point_name(monkeypatch, tmp_path):
    """Entry points under one name: carto's own distribution keeps it whatever the order the
    installed distributions are read in."""
    real = metadata.entry_points
    monkeypatch.syspath_prepend(str(tmp_path))
    impostor = _FakeEntryPoint("rankers", "carto_rankers")
    impostor.dist = types.SimpleNamespace(name="aaa-rankers", version="9.9")
    capture = _FakeCapture("claude", "evil:handle", "aaa-claude")

    def entry_points(**kw):
        if kw.get("group") == "carto":
            return [impostor, *real(**kw)]
        if kw.get("group") == "carto.capture":
            return [capture, *real(**kw)]
        return real(**kw)

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    set_registries(None)
    scanned = table.plugin_table(refresh=True)
    [rankers] = [r for r in scanned["plugins"] if r["name"] == "rankers" and not r.get("taken_by")]
    assert rankers["distribution"] in ("carto-rankers", "carto_rankers")
    assert table.capture_target("claude") == ("carto_claude.capture:handle", None)


def test_own_distributions_are_the_workspace_plugins_and_core():
    """OWN_DISTRIBUTIONS names carto-core and every package under plugins/ and rankers/."""
    import tomllib
    from pathlib import Path

    from carto_core.plugin.registries import OWN_DISTRIBUTIONS

    root = Path(__file__).resolve().parents[2]
    names = {tomllib.loads((root / "pyproject.toml").read_text())["project"]["name"]}
    for pyproject in [*sorted((root / "plugins").glob("*/pyproject.toml")), root / "rankers" / "pyproject.toml"]:
        names.add(tomllib.loads(pyproject.read_text())["project"]["name"])
    assert OWN_DISTRIBUTIONS == names


def test_the_hook_dispatcher_rebuilds_the_table_without_pluggy(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "cold-cache"), "CARTO_HOME": str(tmp_path / "home"),
           "CARTO_CATCHUP": "0"}
    code = ("import sys, io, json\n"
            "sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps({'session_id': 's', 'cwd': '/x', "
            "'tool_name': 'Bash', 'tool_input': {'command': 'make test'}}).encode()))\n"
            "from carto_core.capture.hookpath import main\n"
            "main(['claude', 'PostToolUse'])\n"
            "print(sorted(m for m in ('pluggy', 'click', 'attrs') if m in sys.modules))")
    assert _run(code, env) == "[]"
    assert (tmp_path / "home" / "tool-use-log.jsonl").is_file()
    assert list((tmp_path / "cold-cache" / "carto").glob("plugins-*.json"))


def test_the_main_modules_folder_does_not_key_the_plugin_table(tmp_path, monkeypatch):
    # `carto` runs with its bin/ first on sys.path, a `python -m` child (the semantic keep-up)
    # with its working folder: the same distributions, so the same table, unless that folder
    # holds distributions itself.
    script, working, site = tmp_path / "bin", tmp_path / "work", tmp_path / "site"
    for folder in (script, working, site):
        folder.mkdir()
    monkeypatch.setattr(sys, "path", [str(script), str(site), *sys.path[1:]])
    as_script = table.distributions_key()
    assert [str(site), site.stat().st_mtime_ns] in as_script["paths"]
    assert all(entry != str(script) for entry, _ in as_script["paths"])
    os.makedirs(os.path.dirname(table.table_path()), exist_ok=True)
    table.write_table({"key": as_script, "hooks": {}, "plugins": [],
                           "capture": [{"provider": "jot", "target": "jot.capture:handle", "distribution": "jot"}]})
    set_registries(None)
    monkeypatch.setattr(sys, "path", [str(working), str(site), *sys.path[2:]])
    monkeypatch.setattr(table, "scan_entry_points", lambda: pytest.fail("scanned again"))
    assert table.distributions_key() == as_script
    assert table.capture_target("jot") == ("jot.capture:handle", None)
    (working / "jot-1.0.dist-info").mkdir()  # a distribution installed into that folder counts
    assert [str(working), working.stat().st_mtime_ns] in table.distributions_key()["paths"]


LIGHT = """
import json, sys
from carto_core.plugin import light
from carto_core.plugin.registry import RANKING_HOOKS, FACT_HOOKS, load_registries

def describe(registries):
    kinds = ("sources", "writers", "rankers", "decay_policies", "fact_verbs", "embedders")
    return {"manager": type(registries.pm).__name__, "problems": registries.problems,
            "registries": {k: [(n, cls.__module__ + "." + cls.__qualname__,
                                getattr(registries, k).plugin_of(n))
                               for n, cls in getattr(registries, k).items()] for k in kinds},
            "plugins": {n: [i.hooks, i.registered, i.error, i.blocked, i.builtin]
                        for n, i in sorted(registries.plugins.items())}}

out = {}
build = light.LightManager.__dict__["build"]
for name, hooks in (("ranking", RANKING_HOOKS), ("facts", FACT_HOOKS)):
    built = describe(load_registries(hooks=hooks))
    out[name + "_pluggy_imported"] = "pluggy" in sys.modules
    light.LightManager.build = classmethod(lambda cls, plugins: None)  # pluggy's way
    heavy = describe(load_registries(hooks=hooks))
    light.LightManager.build = build
    out[name] = [built, heavy]
print(json.dumps(out))
"""


def test_a_known_partial_load_skips_pluggy_and_registers_what_pluggy_registers(tmp_path):
    """With every needed plugin's hooks in the table, a partial load builds its registries
    without pluggy (plugin.light.LightManager): the same classes under the same names from the
    same plugins, the same hooks and problems as pluggy's manager gives."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    _run(PARTIAL, env)  # records which hooks each plugin implements
    out = json.loads(_run(LIGHT, env))
    assert out["ranking_pluggy_imported"] is False
    for name in ("ranking", "facts"):
        light, heavy = out[name]
        assert (light["manager"], heavy["manager"]) == ("LightManager", "PluginManager"), name
        assert light["registries"]["rankers"] or light["registries"]["fact_verbs"]
        assert {k: v for k, v in light.items() if k != "manager"} == \
            {k: v for k, v in heavy.items() if k != "manager"}, name


def test_the_light_manager_leaves_to_pluggy_what_it_cannot_stand_for():
    """An object plugin, a marker option, a misnamed or mis-signed implementation: pluggy
    decides (and reports), the light manager declines."""
    from carto_core.plugin.light import HOOK_ARGS, LightManager

    def module(**attrs):
        made = types.ModuleType("p")
        made.__dict__.update(attrs)
        return made

    def rankers(register):
        pass

    assert LightManager.build([("ok", module(carto_register_rankers=hookimpl(rankers)))]) is not None
    assert LightManager.build([("obj", types.SimpleNamespace(carto_register_rankers=hookimpl(rankers)))]) is None
    assert LightManager.build([("first", module(carto_register_rankers=hookimpl(tryfirst=True)(lambda register: None)))]) is None
    assert LightManager.build([("typo", module(carto_register_rankerz=hookimpl(lambda register: None)))]) is None
    assert LightManager.build([("args", module(carto_register_rankers=hookimpl(lambda register, extra: None)))]) is None
    named = LightManager.build([("spec", module(other=hookimpl(specname="carto_register_rankers")(rankers)))])
    assert [i.plugin_name for i in named.hook.carto_register_rankers.get_hookimpls()] == ["spec"]
    from carto_core.plugin import hookspecs

    assert set(HOOK_ARGS) == {n for n in dir(hookspecs) if n.startswith("carto_")}
    for hook, args in HOOK_ARGS.items():
        code = getattr(hookspecs, hook).__code__
        assert code.co_varnames[:code.co_argcount] == args, hook


def test_plugins_names_a_disable_entry_that_blocks_nothing(monkeypatch):
    """CARTO_DISABLE_PLUGINS=hemes (a typo of hermes) blocked nothing and `carto plugins` said
    nothing of it: the plugin meant to be off ran on. The name is now said, with the names it
    could be."""
    from carto_core.cli import cli

    monkeypatch.setenv("CARTO_DISABLE_PLUGINS", "hemes, notes")
    result = CliRunner().invoke(cli, ["plugins"])
    assert result.exit_code == 0, result.output
    assert ("problem: CARTO_DISABLE_PLUGINS names hemes, which is no installed plugin or live-capture "
            "provider: it blocks nothing (plugins: ") in result.output
    assert "notes 0.1.0 (carto-notes) [blocked]" in result.output
    doc = json.loads(CliRunner().invoke(cli, ["plugins", "--json"]).output)
    assert doc["unknown_disabled"] == ["hemes"]
    doctor = json.loads(CliRunner().invoke(cli, ["doctor", "--json", "--no-probe"]).stdout)
    assert any(p["problem"].startswith("CARTO_DISABLE_PLUGINS names hemes") and "hermes" in p["fix"]
               for p in doctor["problems"])
    monkeypatch.setenv("CARTO_DISABLE_PLUGINS", "claude")  # a live-capture provider is a name too
    assert json.loads(CliRunner().invoke(cli, ["plugins", "--json"]).output)["unknown_disabled"] == []


@pytest.mark.parametrize("attr", sorted(REGISTRATION_HOOKS.values()))
@pytest.mark.parametrize("name", ["../../../pwned", "a/b", "..", "Notes", "my_source", "-x",
                                  "caf\u00e9", "notes\n", "x y"])
def test_a_name_outside_the_rule_is_rejected_by_every_registry(attr, name):
    """A source named '../../../pwned' was accepted, listed by `carto ingest --help`, and its
    checkpoint written outside the home."""
    bad = type("Bad", (_base(attr),), {"name": name})
    good = type("Good", (_base(attr),), {"name": "fine-2"})
    plugin = types.SimpleNamespace()
    hook = next(h for h, a in REGISTRATION_HOOKS.items() if a == attr)

    def impl(register):
        register(bad)
        register(good)

    setattr(plugin, hook, hookimpl(impl))
    pm, infos = build_plugin_manager(entry_points=False, extra={"odd": plugin})
    registries = Registries(pm, infos)
    registry = getattr(registries, attr)
    kind = registry.kind
    assert "fine-2" in registry and name not in registry
    assert infos["odd"].registered == {kind: ["fine-2"]}
    [problem] = registries.problems
    assert problem == (f"{kind} {name!r} from plugin 'odd' rejected: a name must match "
                       "[a-z0-9][a-z0-9-]* (lowercase letters, digits and hyphens, not starting "
                       "with a hyphen)")
    assert registries.fixes[problem] == (f"rename the {kind} in plugin 'odd' to match "
                                         "[a-z0-9][a-z0-9-]* (an update of the plugin) or block "
                                         "it with CARTO_DISABLE_PLUGINS=odd")


def test_a_traversing_source_is_not_offered_to_ingest_and_writes_nothing_outside(monkeypatch, tmp_path):
    from carto_core.cli import cli

    source = ("from carto_core import hookimpl\nfrom carto_core.model.sources import Source\n\n"
              "class Pwned(Source):\n    name = '../../../pwned'\n    provider = 'pwned'\n"
              "    def discover(self):\n        return []\n\n"
              "@hookimpl\ndef carto_register_sources(register):\n    register(Pwned)\n")
    site = tmp_path / "site"
    site.mkdir()
    _fake_entry_points(monkeypatch, site, {"pwned": source})
    help_text = CliRunner().invoke(cli, ["ingest", "--help"]).output
    assert "pwned" not in help_text, help_text
    result = CliRunner().invoke(cli, ["ingest", "../../../pwned", "--root", str(tmp_path)])
    assert result.exit_code != 0
    assert not list(tmp_path.parent.rglob("pwned.json"))
    doc = json.loads(CliRunner().invoke(cli, ["plugins", "--json"]).output)
    assert any("'../../../pwned' from plugin 'pwned' rejected: a name must match" in p
               for p in doc["problems"]), doc["problems"]


@pytest.mark.parametrize("name", ["../../../pwned", "..", ".", "a/b", "a\\b", "", "x\0y"])
def test_the_checkpoint_path_refuses_a_name_that_leaves_its_folder(tmp_path, name):
    """Defence in depth: a source that reached run_ingest without a registry (a plugin's own
    command) still cannot put its checkpoint outside the home."""
    from carto_core.ingest.runner import CheckpointStore
    from carto_core.logio.home import Home

    home = Home(tmp_path / "home")
    with pytest.raises(ValueError, match="cannot name a checkpoint file"):
        CheckpointStore(home, name)
    assert CheckpointStore(home, "claude-desktop").path == home.state / "checkpoints" / "claude-desktop.json"


def test_search_index_and_eval_help_list_installed_plugins_names(monkeypatch, tmp_path):
    """`--fusion` and `--analyzer` help listed the built-ins' names only ('rrf-prior, rrf'),
    while the error for an unknown name listed every installed plugin's."""
    from carto_core.cli import cli

    source = ("from carto_core import hookimpl\n"
              "from carto_core.search.api import DecayPolicy, Fusion\n"
              "from carto_core.search.tokens import Analyzer\n\n"
              "class SumFusion(Fusion):\n    name = 'sum-fuse'\n\n"
              "class Plain(Analyzer):\n    name = 'plain-words'\n\n"
              "class Flat(DecayPolicy):\n    name = 'flat'\n\n"
              "@hookimpl\ndef carto_register_fusions(register):\n    register(SumFusion)\n\n"
              "@hookimpl\ndef carto_register_analyzers(register):\n    register(Plain)\n\n"
              "@hookimpl\ndef carto_register_decay_policies(register):\n    register(Flat)\n")
    _fake_entry_points(monkeypatch, tmp_path, {"extra": source})
    wide = {"terminal_width": 400, "max_content_width": 400}  # one line per option
    search_help = CliRunner().invoke(cli, ["search", "--help"], **wide).output
    assert "Fusion method: rrf, rrf-prior, sum-fuse (default rrf-prior" in search_help, search_help
    assert "Analyzer of the keyword index: english, plain-words, unicode, upstream (" in search_help
    assert "Decay policy: exp, flat, gated-exp, gated-prior, none (" in search_help
    assert "Ladder ranker to fuse, repeatable: bm25, bm25-upstream, semantic (" in search_help
    index_help = CliRunner().invoke(cli, ["index", "--help"], **wide).output
    assert "Analyzer of the keyword index (english, plain-words, unicode, upstream; default" in index_help
    eval_help = CliRunner().invoke(cli, ["eval", "--help"], **wide).output
    assert "Fusion to compare: rrf, rrf-prior, sum-fuse (repeatable" in eval_help, eval_help
    assert "Analyzer of the keyword index: english, plain-words, unicode, upstream (" in eval_help
    assert "Decay policy to compare: exp, flat, gated-exp, gated-prior, none (" in eval_help


def test_registry_names_are_read_for_help_only(monkeypatch):
    """Running a search builds no help: the registries its help lists are not loaded for it."""
    import carto_core.cli
    from carto_core.cli import cli

    monkeypatch.setattr(carto_core.cli, "installed_names",
                        lambda attr: pytest.fail(f"{attr}'s names read without --help"))
    result = CliRunner().invoke(cli, ["search", "--json", "anything"])
    assert result.exit_code in (0, 3), result.output  # 3: the test's home is empty
    monkeypatch.undo()

    def broken(**kw):
        raise RuntimeError("no registries")

    monkeypatch.setattr("carto_core.plugin.registry.get_registries", broken)
    wide = {"terminal_width": 400, "max_content_width": 400}
    assert "Fusion method: see `carto plugins` (default" in CliRunner().invoke(cli, ["search", "--help"], **wide).output
