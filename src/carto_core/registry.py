"""Plugin loading and the named registries.

One explicit loading sequence (after tox's `plugin/manager.py`):

1. add the hookspecs;
2. block every name in `CARTO_DISABLE_PLUGINS` (comma-separated);
3. load each entry point of the group `carto`, one at a time: a plugin that fails to import is
   recorded with its error (`carto plugins`, `carto doctor`) and the CLI goes on without it;
4. register core's built-ins (`BUILTINS`), which are plugins like any other;
5. `check_pending()`: an implementation of a hook that does not exist is an error.

Registries are built by calling each plugin's registration hooks one plugin at a time so that
every name is attributed to the plugin that registered it. A name registered twice is rejected:
the first registration stays and the clash is recorded as a problem.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import pluggy

from carto_core import HOOK_NAMESPACE, hookspecs

ENTRY_POINT_GROUP = "carto"

#: Core's own plugins, registered after the entry points (name -> module).
BUILTINS: dict[str, str] = {
    "core-writers": "carto_core.builtins.writers",
    "core-facts": "carto_core.builtins.facts",
}

#: Registration hooks and the registry each one fills.
REGISTRATION_HOOKS: dict[str, str] = {
    "carto_register_sources": "sources",
    "carto_register_writers": "writers",
    "carto_register_rankers": "rankers",
    "carto_register_decay_policies": "decay_policies",
    "carto_register_fact_verbs": "fact_verbs",
    "carto_register_embedders": "embedders",
}

T = TypeVar("T")


class DuplicateNameError(ValueError):
    """A second class under a name that a registry already holds."""


class UnknownNameError(LookupError):
    """A name that no registered class has; the message lists the accepted names."""


class NamedRegistry(Generic[T]):
    """Classes of one kind by unique name, with the plugin that registered each."""

    def __init__(self, kind: str):
        self.kind = kind
        self._items: dict[str, tuple[type, str]] = {}

    def register(self, cls: type, plugin: str = "?") -> type:
        name = getattr(cls, "name", None)
        if not isinstance(name, str) or not name:
            raise ValueError(f"{self.kind}: {cls!r} from {plugin} has no `name`")
        if name in self._items:
            other = self._items[name][1]
            raise DuplicateNameError(
                f"{self.kind} {name!r} from plugin {plugin!r} rejected: "
                f"already registered by plugin {other!r}"
            )
        self._items[name] = (cls, plugin)
        return cls

    def get(self, name: str) -> type:
        try:
            return self._items[name][0]
        except KeyError:
            accepted = ", ".join(self.names()) or "(none installed)"
            raise UnknownNameError(f"unknown {self.kind} {name!r}; accepted: {accepted}") from None

    def plugin_of(self, name: str) -> str:
        return self._items[name][1]

    def names(self) -> list[str]:
        return sorted(self._items)

    def items(self) -> Iterator[tuple[str, type]]:
        for name in self.names():
            yield name, self._items[name][0]

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __len__(self) -> int:
        return len(self._items)


@dataclass
class PluginInfo:
    name: str
    distribution: str | None = None
    version: str | None = None
    module: str | None = None
    builtin: bool = False
    error: str | None = None
    blocked: bool = False
    hooks: list[str] = field(default_factory=list)
    registered: dict[str, list[str]] = field(default_factory=dict)


class Registries:
    """The loaded plugin manager plus every named registry, built once per process."""

    def __init__(self, pm: pluggy.PluginManager, plugins: dict[str, PluginInfo]):
        self.pm = pm
        self.plugins = plugins
        self.problems: list[str] = []
        self.sources: NamedRegistry = NamedRegistry("source")
        self.writers: NamedRegistry = NamedRegistry("writer")
        self.rankers: NamedRegistry = NamedRegistry("ranker")
        self.decay_policies: NamedRegistry = NamedRegistry("decay policy")
        self.fact_verbs: NamedRegistry = NamedRegistry("fact verb")
        self.embedders: NamedRegistry = NamedRegistry("embedder")
        for plugin_name, plugin in pm.list_name_plugin():
            info = plugins.get(plugin_name)
            if info is not None:
                info.hooks = sorted(
                    caller.name for caller in pm.get_hookcallers(plugin) or ()
                )
        for hook_name, attr in REGISTRATION_HOOKS.items():
            registry = getattr(self, attr)
            for impl in getattr(pm.hook, hook_name).get_hookimpls():
                self._call_registration(impl, registry)

    def _call_registration(self, impl, registry: NamedRegistry) -> None:
        plugin = impl.plugin_name

        def register(cls):
            try:
                registry.register(cls, plugin)
            except (DuplicateNameError, ValueError) as exc:
                self.problems.append(str(exc))
                return cls
            self.plugins[plugin].registered.setdefault(registry.kind, []).append(cls.name)
            return cls

        try:
            impl.function(register=register)
        except Exception as exc:  # a broken plugin must not take the CLI down
            self.problems.append(f"plugin {plugin!r} failed in {registry.kind} registration: {exc!r}")

    def register_commands(self, cli) -> None:
        for impl in self.pm.hook.carto_register_commands.get_hookimpls():
            before = _command_paths(cli)
            try:
                impl.function(cli=cli)
            except Exception as exc:
                self.problems.append(f"plugin {impl.plugin_name!r} failed adding commands: {exc!r}")
                continue
            # Subcommands added under core groups count too (`ingest hermes`, `install claude`).
            added = sorted(_command_paths(cli) - before)
            if added:
                self.plugins[impl.plugin_name].registered.setdefault("command", []).extend(added)


def _command_paths(group, prefix: str = "") -> set[str]:
    """Names of the commands already built in a click group, subgroups as `group sub`."""
    paths = set()
    for name, command in getattr(group, "commands", {}).items():
        paths.add(prefix + name)
        if hasattr(command, "commands"):
            paths |= _command_paths(command, prefix + name + " ")
    return paths


def blocked_names(env: dict | None = None) -> set[str]:
    env = os.environ if env is None else env
    return {name.strip() for name in env.get("CARTO_DISABLE_PLUGINS", "").split(",") if name.strip()}


def build_plugin_manager(
    env: dict | None = None, *, entry_points: bool = True, extra: dict | None = None
) -> tuple[pluggy.PluginManager, dict[str, PluginInfo]]:
    """Run the loading sequence. `extra` registers objects by name (tests)."""
    pm = pluggy.PluginManager(HOOK_NAMESPACE)
    pm.add_hookspecs(hookspecs)
    infos: dict[str, PluginInfo] = {}
    blocked = blocked_names(env)
    for name in blocked:
        pm.set_blocked(name)
    if entry_points:
        from importlib import metadata  # 20 ms: only a full load pays for it (search caches)

        for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            dist = getattr(ep, "dist", None)
            info = PluginInfo(
                name=ep.name,
                distribution=dist.name if dist else None,
                version=dist.version if dist else None,
                module=ep.value,
            )
            infos[ep.name] = info
            if ep.name in blocked:
                info.blocked = True
                continue
            if ep.name in (n for n, _ in pm.list_name_plugin()):
                info.error = f"entry point name {ep.name!r} is already taken by another plugin"
                continue
            try:
                pm.register(ep.load(), name=ep.name)
            except Exception as exc:  # any import-time failure of a third-party plugin
                info.error = f"{type(exc).__name__}: {exc}"
    from carto_core import __version__

    for name, module in BUILTINS.items():
        info = PluginInfo(name=name, distribution="carto-core", version=__version__,
                          module=module, builtin=True)
        infos[name] = info
        if name in blocked:
            info.blocked = True
            continue
        pm.register(importlib.import_module(module), name=name)
    for name, obj in (extra or {}).items():
        infos[name] = PluginInfo(name=name, module=repr(obj))
        pm.register(obj, name=name)
    pm.check_pending()
    return pm, infos


_cached: Registries | None = None


def get_registries(*, refresh: bool = False) -> Registries:
    """The process-wide registries (built on first use)."""
    global _cached
    if _cached is None or refresh:
        pm, infos = build_plugin_manager()
        _cached = Registries(pm, infos)
    return _cached


def set_registries(registries: Registries | None) -> None:
    """Install registries for this process (tests use this with `extra` plugins)."""
    global _cached
    _cached = registries
