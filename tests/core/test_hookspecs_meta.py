"""Meta-tests (after datasette's): every hook's documented signature matches the code, its base
classes are named where a plugin author reads, and every hook is called through a real plugin
manager holding every installed plugin, each registered class checked against the annotated base.

Each check is a function returning its problems, so that a deliberately broken hookspec, docs
page or plugin (the last tests here) shows it failing.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import types
import typing
from collections.abc import Callable
from pathlib import Path

import pytest

from carto_core import hookimpl
from carto_core.plugin import hookspecs

ROOT = Path(__file__).resolve().parents[2]
PLUGINS_MD = (ROOT / "docs" / "plugins.md").read_text("utf-8")


def hooks_of(module) -> list[str]:
    return sorted(name for name, _ in inspect.getmembers(module, inspect.isfunction)
                  if name.startswith("carto_"))


def annotation_namespace(module) -> dict:
    """The names a hookspec module's annotations use: its TYPE_CHECKING imports, imported."""
    namespace: dict = {}
    tree = ast.parse(inspect.getsource(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for item in node.body:
                if isinstance(item, ast.Import):
                    for alias in item.names:
                        namespace[alias.asname or alias.name] = importlib.import_module(alias.name)
                elif isinstance(item, ast.ImportFrom):
                    source = importlib.import_module(item.module)
                    for alias in item.names:
                        namespace[alias.asname or alias.name] = getattr(source, alias.name)
    return namespace


def bases_of(spec, namespace: dict) -> tuple[type, ...]:
    """The classes a hook's single parameter takes: `register: Callable[[type[A | B]], ...]`
    gives (A, B); `cli: click.Group` gives (click.Group,)."""
    hints = typing.get_type_hints(spec, globalns=spec.__globals__, localns=namespace)
    [name] = list(inspect.signature(spec).parameters)
    hint = hints[name]
    if typing.get_origin(hint) is Callable:
        [argument], _ = typing.get_args(hint)
        inner = typing.get_args(argument)[0]  # type[X] -> X
        return typing.get_args(inner) or (inner,)
    return (hint,)


def dotted(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def signature_problems(module, docs: str) -> list[str]:
    """Every way the hooks of `module` and the docs page disagree."""
    problems: list[str] = []
    namespace = annotation_namespace(module)
    headings = {m.group(1): m.group(2) for m in re.finditer(r"^##+ `?(carto_\w+)\(([^)]*)\)`?", docs, re.M)}
    for hook in hooks_of(module):
        spec = getattr(module, hook)
        signature = inspect.signature(spec)
        parameters = list(signature.parameters)
        doc = inspect.getdoc(spec) or ""
        if len(doc) < 200 or ":param" not in doc or "Example::" not in doc:
            problems.append(f"{hook}: the docstring is not a reference entry (:param, Example::)")
        if hook not in headings:
            problems.append(f"{hook}: docs/plugins.md has no `### {hook}(...)` section")
        elif [p.strip() for p in headings[hook].split(",") if p.strip()] != parameters:
            problems.append(f"{hook}: documented as {hook}({headings[hook]}), the code takes "
                            f"{hook}({', '.join(parameters)})")
        missing = [p for p in parameters if signature.parameters[p].annotation is inspect.Parameter.empty]
        if missing:
            problems.append(f"{hook}: parameter(s) {missing} carry no annotation naming the base class")
            continue
        try:
            bases = bases_of(spec, namespace)
        except Exception as exc:  # an annotation that does not resolve is itself the problem
            problems.append(f"{hook}: the annotation does not resolve to base classes ({exc!r})")
            continue
        section = docs.split(f"`{hook}(", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0] if hook in headings else ""
        for base in bases:
            if f":class:`{dotted(base)}`" not in doc and f":class:`{base.__module__.split('.')[0]}.{base.__qualname__}`" not in doc:
                problems.append(f"{hook}: the docstring does not point at its base {dotted(base)}")
            if hook in headings and dotted(base) not in section and f"`{base.__module__.split('.')[0]}.{base.__qualname__}`" not in section:
                problems.append(f"{hook}: the docs/plugins.md section does not name its base {dotted(base)}")
        restated = re.findall(r"``(\w+)\(([^`]*)\)\s*->", doc)
        if restated:
            problems.append(f"{hook}: the docstring restates method signatures {restated} instead "
                            "of pointing at the base class")
    for hook in headings:
        if hook not in hooks_of(module):
            problems.append(f"docs/plugins.md documents {hook}, which no hookspec defines")
    return problems


def registration_problems(pm, hook: str, bases: tuple[type, ...]) -> tuple[int, list[str]]:
    """Call `hook` through the plugin manager's hook caller with a recording `register`; every
    class registered must subclass one of `bases`. Returns (how many, problems)."""
    got: list[type] = []

    def register(cls):
        got.append(cls)
        return cls

    getattr(pm.hook, hook)(register=register)
    problems = [f"{hook}: {cls!r} registered by an installed plugin subclasses none of "
                f"{[dotted(b) for b in bases]}" for cls in got
                if not (isinstance(cls, type) and issubclass(cls, bases))]
    return len(got), problems


HOOKS = hooks_of(hookspecs)
NAMESPACE = annotation_namespace(hookspecs)


def test_there_are_hooks():
    assert len(HOOKS) >= 7


def test_every_documented_signature_matches_the_code_and_names_its_bases():
    problems = signature_problems(hookspecs, PLUGINS_MD)
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def plugin_manager():
    from carto_core.plugin.registry import build_plugin_manager

    pm, infos = build_plugin_manager()
    assert not [i for i in infos.values() if i.error], [i.error for i in infos.values() if i.error]
    return pm


@pytest.mark.parametrize("hook", HOOKS)
def test_each_hook_is_called_through_the_plugin_manager_with_its_typed_base(hook, plugin_manager):
    """Every installed plugin's implementation runs through pluggy's hook caller, and registers
    only subclasses of the annotated base (commands: click commands added to a real group)."""
    spec = getattr(hookspecs, hook)
    bases = bases_of(spec, NAMESPACE)
    if list(inspect.signature(spec).parameters) == ["cli"]:
        import click

        from carto_core.cli import CORE_COMMANDS

        group = click.Group("carto", commands={name: click.Group(name) for name in CORE_COMMANDS})
        plugin_manager.hook.carto_register_commands(cli=group)
        added = {name: command for sub in group.commands.values() for name, command in
                 getattr(sub, "commands", {}).items()}
        assert added, "no installed plugin added a command"
        assert all(isinstance(c, click.Command) for c in added.values())
        return
    count, problems = registration_problems(plugin_manager, hook, bases)
    assert count >= 1, f"no installed plugin implements {hook}: nothing exercises it"
    assert not problems, "\n".join(problems)


def test_the_registries_accept_exactly_the_annotated_bases():
    """registries.REGISTRY_BASES (checked by name at load time) is the hookspecs' annotations."""
    from carto_core.plugin.registries import REGISTRATION_HOOKS, REGISTRY_BASES

    for hook, attr in REGISTRATION_HOOKS.items():
        annotated = {dotted(b) for b in bases_of(getattr(hookspecs, hook), NAMESPACE)}
        assert set(REGISTRY_BASES[attr]) == annotated, hook
    assert set(REGISTRATION_HOOKS) == set(HOOKS) - {"carto_register_commands"}


# --------------------------------------------------------------------------- the checks bite


def _fake_hookspecs(source: str):
    module = types.ModuleType("fake_hookspecs")
    module.__file__ = "<fake>"
    exec(compile(source, "<fake>", "exec"), module.__dict__)
    return module


FAKE = '''
from __future__ import annotations
from collections.abc import Callable
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from carto_core.model.sources import Source

def carto_register_sources(register: Callable[[type[Source]], type[Source]]) -> None:
    """Register sources (the reference entry, long enough to count as one, pointing at
    :class:`carto_core.model.sources.Source` as its base class and nothing else besides the padding
    that makes it two hundred characters).

    :param register: the registration callable.

    Example::

        register(X)
    """
'''
FAKE_DOCS = "### `carto_register_sources(register)`\n\nSubclasses of `carto_core.model.sources.Source`.\n"


@pytest.fixture
def fake_module(monkeypatch):
    def make(source: str):
        module = _fake_hookspecs(source)
        monkeypatch.setattr(inspect, "getsource", lambda obj, _real=inspect.getsource:
                            source if obj is module else _real(obj))
        return module
    return make


def test_the_signature_check_passes_a_consistent_fake(fake_module):
    assert signature_problems(fake_module(FAKE), FAKE_DOCS) == []


def test_the_signature_check_fails_a_heading_that_drifted(fake_module):
    problems = signature_problems(fake_module(FAKE), FAKE_DOCS.replace("(register)", "(register, options)"))
    assert problems == ["carto_register_sources: documented as carto_register_sources(register, options), "
                        "the code takes carto_register_sources(register)"]


def test_the_signature_check_fails_an_unannotated_or_restating_or_undocumented_hook(fake_module):
    unannotated = FAKE.replace("register: Callable[[type[Source]], type[Source]]", "register")
    assert any("no annotation" in p for p in signature_problems(fake_module(unannotated), FAKE_DOCS))
    restating = FAKE.replace("the registration callable.", "``discover(options) -> list`` and more.")
    assert any("restates method signatures" in p for p in signature_problems(fake_module(restating), FAKE_DOCS))
    other_base = FAKE.replace("type[Source]", "type[Writer]").replace(
        "from carto_core.model.sources import Source", "from carto_core.model.sources import Writer")
    problems = signature_problems(fake_module(other_base), FAKE_DOCS)
    assert any("does not point at its base carto_core.model.sources.Writer" in p for p in problems)
    assert any("section does not name its base carto_core.model.sources.Writer" in p for p in problems)
    assert signature_problems(fake_module(FAKE), "") == [
        "carto_register_sources: docs/plugins.md has no `### carto_register_sources(...)` section"]


def test_the_registration_check_fails_a_plugin_that_registers_the_wrong_kind():
    from carto_core.plugin.registry import build_plugin_manager
    from carto_core.model.sources import Source

    class NotASource:
        name = "impostor"

    plugin = types.SimpleNamespace(carto_register_sources=hookimpl(lambda register: register(NotASource)))
    pm, _ = build_plugin_manager(entry_points=False, extra={"impostor": plugin})
    count, problems = registration_problems(pm, "carto_register_sources", (Source,))
    assert count == 1 and len(problems) == 1 and "NotASource" in problems[0]
