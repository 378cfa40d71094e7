"""Plugin loading and the named registries: the one loader every path uses.

Two entry-point groups describe a plugin distribution:

- ``carto``: the module (or object) with the plugin's pluggy hook implementations (sources,
  writers, rankers, decay policies, fact verbs, embedders, commands);
- ``carto.capture``: ``provider = "module:function"``, the live-capture handler ``carto hook
  PROVIDER EVENT`` runs (docs/capture.md). It is read without pluggy: the hook path is
  stdlib-only.

Reading entry points scans every installed distribution (20 ms and more), so one *plugin table*
is cached per Python environment in ``$XDG_CACHE_HOME/carto/plugins-<env>.json``: both groups'
entry points with their distributions, keyed on the installed distributions (the interpreter
prefix and the mtimes of the ``sys.path`` folders, which change whenever a distribution is
installed, upgraded or removed), plus, per plugin, which hooks it implements (recorded after it
was loaded once, trusted while its module file is unchanged). Every path reads that table: the
CLI, ``carto hook`` (``capture_target``, no pluggy), search, facts, ``carto serve`` and ``carto
mcp`` (``get_registries(hooks=...)``, which imports only the plugins implementing those hooks).

The loading sequence (after tox's ``plugin/manager.py``), the same for a full or a partial load:

1. add the hookspecs;
2. block every name in ``CARTO_DISABLE_PLUGINS`` (comma-separated; it blocks a plugin's live
   capture too);
3. load each ``carto`` entry point, one at a time, in name order: a second entry point under a
   name already taken is refused, a plugin that fails to import is recorded with its error
   (``carto plugins``, ``carto doctor``) and the rest go on without it;
4. register core's built-ins (``BUILTINS``), which are plugins like any other;
5. ``check_pending()``: an implementation of a hook that does not exist is an error.

Registries are built by calling each plugin's registration hooks one plugin at a time so that
every name is attributed to the plugin that registered it. A name registered twice is rejected:
the first registration stays and the clash is recorded as a problem.

Import-light on purpose (stdlib ``json``/``os``/``sys`` only at module level): the hook
dispatcher imports this module; pluggy is imported only when a plugin manager is built.
"""

from __future__ import annotations

import json
import os
import sys

ENTRY_POINT_GROUP = "carto"
CAPTURE_GROUP = "carto.capture"
TABLE_VERSION = 2  # 2: the carto.redact pattern tables

#: Core's own plugins, registered after the entry points (name -> module).
BUILTINS: dict[str, str] = {
    "core-writers": "carto_core.builtins.writers",
    "core-facts": "carto_core.builtins.facts",
}
#: The hooks each built-in implements (a test keeps it equal to the modules): a partial load
#: imports only the built-ins it needs (a cold `carto search` needs neither; the writers'
#: base class alone brought attrs, ~8 ms of every search).
BUILTIN_HOOKS: dict[str, tuple[str, ...]] = {
    "core-writers": ("carto_register_writers",),
    "core-facts": ("carto_register_fact_verbs",),
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

#: The base classes a registry accepts, by dotted name (checked along each class's MRO, so no
#: base module is imported to load plugins). They are the hookspecs' annotations; a meta-test
#: (tests/core/test_hookspecs_meta.py) fails when the two disagree.
REGISTRY_BASES: dict[str, tuple[str, ...]] = {
    "sources": ("carto_core.model.sources.Source",),
    "writers": ("carto_core.model.sources.Writer",),
    "rankers": ("carto_core.search.api.Ranker", "carto_core.search.api.Fusion",
                "carto_core.search.tokens.Analyzer"),
    "decay_policies": ("carto_core.search.api.DecayPolicy",),
    "fact_verbs": ("carto_core.facts.verb.FactVerb",),
    "embedders": ("carto_core.semantic.embedder.Embedder",),
}

#: What a search needs (rankers, fusions, decay policies) and what facts need.
RANKING_HOOKS = ("carto_register_rankers", "carto_register_decay_policies")
FACT_HOOKS = ("carto_register_fact_verbs",)
EMBEDDER_HOOKS = ("carto_register_embedders",)


class DuplicateNameError(ValueError):
    """A second class under a name that a registry already holds."""


class UnknownNameError(LookupError):
    """A name that no registered class has; the message lists the accepted names."""


class NamedRegistry:
    """Classes of one kind by unique name, with the plugin that registered each; with `bases`
    (dotted names), only subclasses of one of them."""

    def __init__(self, kind: str, bases: tuple[str, ...] = ()):
        self.kind = kind
        self.bases = bases
        self._items: dict[str, tuple[type, str]] = {}

    def register(self, cls: type, plugin: str = "?") -> type:
        name = getattr(cls, "name", None)
        if not isinstance(name, str) or not name:
            raise ValueError(f"{self.kind}: {cls!r} from {plugin} has no `name`")
        if self.bases and not any(f"{c.__module__}.{c.__qualname__}" in self.bases
                                  for c in getattr(cls, "__mro__", ())):
            raise ValueError(f"{self.kind} {name!r} from plugin {plugin!r} rejected: "
                             f"{cls.__module__}.{cls.__qualname__} subclasses none of "
                             f"{', '.join(self.bases)}")
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

    def items(self):
        for name in self.names():
            yield name, self._items[name][0]

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __len__(self) -> int:
        return len(self._items)


class PluginInfo:
    """One plugin as `carto plugins` lists it: where it comes from and what it did."""

    def __init__(self, name: str, distribution: str | None = None, version: str | None = None,
                 module: str | None = None, builtin: bool = False, error: str | None = None,
                 blocked: bool = False, hooks: list[str] | None = None,
                 registered: dict[str, list[str]] | None = None,
                 capture: dict[str, str] | None = None):
        self.name = name
        self.distribution = distribution
        self.version = version
        self.module = module
        self.builtin = builtin
        self.error = error
        self.blocked = blocked
        self.hooks = hooks if hooks is not None else []
        self.registered = registered if registered is not None else {}
        #: provider -> "module:function" of the live capture its distribution ships.
        self.capture = capture if capture is not None else {}

    def __repr__(self) -> str:
        return f"PluginInfo({self.name!r}, {self.distribution!r}, error={self.error!r})"


# --------------------------------------------------------------------------- the plugin table


def blocked_names(env: dict | None = None) -> set[str]:
    """`CARTO_DISABLE_PLUGINS`, split: plugin names (and live-capture provider names)."""
    env = os.environ if env is None else env
    return {name.strip() for name in env.get("CARTO_DISABLE_PLUGINS", "").split(",") if name.strip()}


def _holds_distributions(folder: str) -> bool:
    try:
        with os.scandir(folder) as entries:
            return any(entry.name.endswith((".dist-info", ".egg-info")) for entry in entries)
    except OSError:
        return False


def distributions_key() -> dict:
    """What the installed distributions depend on: the interpreter prefix and (folder, mtime_ns)
    of every existing `sys.path` folder (installing, upgrading or removing a distribution
    touches its folder).

    The folder Python puts first for the main module (the `carto` script's `bin/`, the working
    folder of `python -m`) counts only when it holds distributions: else a `python -m` child
    (the semantic keep-up) and the next hook would each find the other's table stale and scan
    every distribution again (~40 ms, more than the whole hook)."""
    paths = []
    prepended = not getattr(sys.flags, "safe_path", False)
    for index, entry in enumerate(sys.path):
        if not entry or (index == 0 and prepended and not _holds_distributions(entry)):
            continue
        try:
            paths.append([entry, os.stat(entry).st_mtime_ns])
        except OSError:
            continue
    return {"version": TABLE_VERSION, "prefix": sys.prefix, "paths": paths}


def table_path() -> str:
    """`$XDG_CACHE_HOME/carto/plugins-<env>.json`, one file per interpreter prefix."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    digest = 2166136261  # FNV-1a of the prefix: stable across processes, no hashlib import
    for byte in sys.prefix.encode("utf-8", "surrogateescape"):
        digest = ((digest ^ byte) * 16777619) & 0xFFFFFFFF
    return os.path.join(base, "carto", f"plugins-{digest:08x}.json")


#: The table this process scanned or read, and (scanned only) the entry points themselves.
_table: dict | None = None
_loaded_entry_points: dict[str, object] = {}


def scan_entry_points() -> dict:
    """Both groups' entry points, read from the installed distributions (the slow, exact way).

    A second `carto` entry point under a name already taken, and a second capture handler for a
    provider, are kept as refusals (`taken_by`) so that every path reports the same clash."""
    from importlib import metadata

    global _loaded_entry_points
    plugins: list[dict] = []
    loaders: dict[str, object] = {}
    for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        dist = getattr(ep, "dist", None)
        record = {"name": ep.name, "value": ep.value,
                  "distribution": dist.name if dist else None, "version": dist.version if dist else None}
        if ep.name in loaders:
            record["taken_by"] = next(p["distribution"] for p in plugins if p["name"] == ep.name)
        else:
            loaders[ep.name] = ep
        plugins.append(record)
    capture: list[dict] = []
    seen: set[str] = set()
    for ep in sorted(metadata.entry_points(group=CAPTURE_GROUP),
                     key=lambda e: (e.name, getattr(getattr(e, "dist", None), "name", "") or "")):
        dist = getattr(ep, "dist", None)
        record = {"provider": ep.name, "target": ep.value, "distribution": dist.name if dist else None}
        if ep.name in seen:
            record["taken_by"] = next(c["distribution"] for c in capture if c["provider"] == ep.name)
        seen.add(ep.name)
        capture.append(record)
    _loaded_entry_points = loaders
    from carto_core.plugin import redaction

    return {"plugins": plugins, "capture": capture, "hooks": {}, "redact": redaction.scan()}


def _write_table(table: dict) -> None:
    path = table_path()
    try:
        from carto_core.util.privatefiles import make_dirs, open_private

        make_dirs(os.path.dirname(path))
        tmp = f"{path}.{os.getpid()}.tmp"
        with open_private(tmp, "w", encoding="utf-8") as handle:
            json.dump(table, handle)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache folder only costs speed


def plugin_table(*, refresh: bool = False) -> dict:
    """The plugin table of this environment: from the cache while the installed distributions
    are unchanged, else scanned and cached again."""
    global _table
    key = distributions_key()
    if _table is not None and not refresh and _table.get("key") == key:
        return _table
    cached = None
    try:
        with open(table_path(), encoding="utf-8") as handle:
            cached = json.load(handle)
    except (OSError, ValueError):
        pass
    if not refresh and isinstance(cached, dict) and cached.get("key") == key:
        _table = cached
        return cached
    table = {"key": key, **scan_entry_points()}
    if isinstance(cached, dict):
        _carry_classes(cached, table)
    _write_table(table)
    _table = table
    return table


def capture_target(provider: str, env: dict | None = None) -> tuple[str | None, str | None]:
    """("module:function", None) of `provider`'s live capture; (None, None) when it is disabled
    (`CARTO_DISABLE_PLUGINS` names the provider or its distribution's plugin); (None, why) when
    none is installed.

    Stdlib only: `carto hook` calls this on every tool call. A second distribution's handler for
    the same provider is refused, as a second plugin of the same name is."""
    blocked = blocked_names(env)
    if provider in blocked:
        return None, None
    table = plugin_table()
    for record in table.get("capture", []):
        if record.get("provider") != provider or record.get("taken_by"):
            continue
        distribution = record.get("distribution")
        for plugin in table.get("plugins", []):
            if plugin.get("distribution") == distribution and plugin.get("name") in blocked:
                return None, None
        return record.get("target"), None
    return None, f"no live capture installed for provider {provider!r}"


def _file_mtime(path: str | None) -> int:
    try:
        return os.stat(path).st_mtime_ns if path else -1
    except OSError:
        return -1


def _known_hooks(table: dict, name: str) -> list[str] | None:
    """The hooks plugin `name` implemented when it was last loaded, if its file is unchanged."""
    record = table.get("hooks", {}).get(name)
    if not record or _file_mtime(record.get("file")) != record.get("mtime"):
        return None
    return record.get("hooks")


def _record_hooks(table: dict, infos: dict[str, PluginInfo]) -> None:
    """Remember which hooks each loaded module plugin implements (for partial loads)."""
    changed = False
    for info in infos.values():
        if info.builtin or info.blocked or info.error or not info.module:
            continue
        module = sys.modules.get(info.module.split(":")[0])
        path = getattr(module, "__file__", None)
        if not path:
            continue  # an object plugin (tests): nothing to key a record on
        record = {"file": path, "mtime": _file_mtime(path), "hooks": sorted(info.hooks)}
        if table.setdefault("hooks", {}).get(info.name) != record:
            table["hooks"][info.name] = record
            changed = True
    if changed:
        _write_table(table)


def _load_entry_point(record: dict):
    """The object a `carto` entry point names (`module` or `module:attr`)."""
    ep = _loaded_entry_points.get(record["name"])
    if ep is not None and getattr(ep, "value", None) == record["value"]:
        return ep.load()
    import importlib

    module_name, _, attribute = record["value"].partition(":")
    target = importlib.import_module(module_name.strip())
    for part in filter(None, attribute.strip().split(".")):
        target = getattr(target, part)
    return target


# --------------------------------------------------------------------------- pluggy


class Registries:
    """The loaded plugin manager plus every named registry."""

    def __init__(self, pm, plugins: dict[str, PluginInfo]):
        self.pm = pm
        self.plugins = plugins
        self.problems: list[str] = []
        self.sources = NamedRegistry("source", REGISTRY_BASES["sources"])
        self.writers = NamedRegistry("writer", REGISTRY_BASES["writers"])
        self.rankers = NamedRegistry("ranker", REGISTRY_BASES["rankers"])
        self.decay_policies = NamedRegistry("decay policy", REGISTRY_BASES["decay_policies"])
        self.fact_verbs = NamedRegistry("fact verb", REGISTRY_BASES["fact_verbs"])
        self.embedders = NamedRegistry("embedder", REGISTRY_BASES["embedders"])
        for plugin_name, plugin in pm.list_name_plugin():
            info = plugins.get(plugin_name)
            if info is not None:
                info.hooks = sorted(
                    caller.name for caller in pm.get_hookcallers(plugin) or ()
                )
                if not info.hooks and not info.builtin:
                    self.problems.append(
                        f"plugin {plugin_name!r} ({info.module}) implements no carto hook: its "
                        "entry point names the wrong module, or the distribution needs reinstalling")
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


class _Caller:
    """What `Registries` reads of a pluggy hook caller: its name and implementations."""

    __slots__ = ("name", "impls")

    def __init__(self, name: str):
        self.name = name
        self.impls: list[_Impl] = []

    def get_hookimpls(self) -> list["_Impl"]:
        return list(self.impls)


class _Impl:
    __slots__ = ("plugin", "plugin_name", "function")

    def __init__(self, plugin, plugin_name: str, function):
        self.plugin = plugin
        self.plugin_name = plugin_name
        self.function = function


class _Hooks:
    def __init__(self, callers: dict[str, _Caller]):
        self._callers = callers

    def __getattr__(self, name: str) -> _Caller:
        if name.startswith("_"):
            raise AttributeError(name)
        return self._callers.setdefault(name, _Caller(name))


#: Every hookspec and the arguments it passes (a test keeps it equal to carto_core.plugin.hookspecs).
HOOK_ARGS: dict[str, tuple[str, ...]] = {**{name: ("register",) for name in REGISTRATION_HOOKS},
                                         "carto_register_commands": ("cli",)}


class LightManager:
    """The part of a pluggy `PluginManager` that `Registries` reads, built without pluggy.

    A partial load (a cold `carto search`) whose plugins the table already knows registers
    them here: importing pluggy, building its manager and validating each plugin cost ~4 ms of
    every search. `build` returns None (the caller then uses pluggy, which reports what is
    wrong) unless every plugin is a module whose implementations are plain functions marked
    with `carto_core.hookimpl` and no option, named after a hookspec, taking only its
    arguments: the cases where pluggy's registration is this loop."""

    def __init__(self):
        self._plugins: list[tuple[str, object]] = []
        self._callers: dict[str, _Caller] = {}
        self._by_plugin: dict[int, list[_Caller]] = {}
        self.hook = _Hooks(self._callers)

    @classmethod
    def build(cls, plugins: list[tuple[str, object]]) -> "LightManager | None":
        import types

        from carto_core.plugin.markers import IMPL_ATTR

        manager = cls()
        for name, plugin in plugins:
            if not isinstance(plugin, types.ModuleType):
                return None
            found: dict[str, object] = {}
            for attr, value in vars(plugin).items():
                opts = getattr(value, IMPL_ATTR, None)
                if opts is None:
                    continue
                if not isinstance(value, types.FunctionType) or not isinstance(opts, dict):
                    return None
                if any(opts.get(flag) for flag in ("wrapper", "hookwrapper", "optionalhook",
                                                   "tryfirst", "trylast")):
                    return None
                hook = opts.get("specname") or attr
                code = value.__code__
                args = code.co_varnames[:code.co_argcount]
                if (hook not in HOOK_ARGS or hook in found or code.co_kwonlyargcount
                        or not set(args) <= set(HOOK_ARGS[hook])):
                    return None
                found[hook] = value
            manager._plugins.append((name, plugin))
            callers = manager._by_plugin[id(plugin)] = []
            for hook in sorted(found):
                caller = manager._callers.setdefault(hook, _Caller(hook))
                caller.impls.append(_Impl(plugin, name, found[hook]))
                callers.append(caller)
        return manager

    def list_name_plugin(self) -> list[tuple[str, object]]:
        return list(self._plugins)

    def get_hookcallers(self, plugin) -> list[_Caller]:
        return list(self._by_plugin.get(id(plugin), ()))

    def check_pending(self) -> None:
        """Nothing is pending: `build` took only implementations of existing hookspecs."""


def build_plugin_manager(
    env: dict | None = None, *, entry_points: bool = True, extra: dict | None = None,
    hooks: tuple[str, ...] | None = None,
):
    """Run the loading sequence; returns (plugin manager, PluginInfo by name).

    `hooks` makes a partial load: only the entry points known to implement one of those hooks
    (or not known yet) are imported; when each of them is known, nothing is blocked and no
    `extra` is given, the manager is a `LightManager` (no pluggy) if it can stand for pluggy's.
    `extra` registers objects by name (tests)."""
    import importlib

    from carto_core import __version__

    infos: dict[str, PluginInfo] = {}
    blocked = blocked_names(env)
    light = hooks is not None and not extra and not blocked
    loaded: list[tuple[str, object]] = []  # entry points, in name order
    table = plugin_table() if entry_points else None
    if table is not None:
        capture_by_dist: dict[str | None, dict[str, str]] = {}
        for record in table.get("capture", []):
            if not record.get("taken_by"):
                capture_by_dist.setdefault(record.get("distribution"), {})[record["provider"]] = record["target"]
        for record in table.get("plugins", []):
            name = record["name"]
            info = PluginInfo(name=name, distribution=record.get("distribution"),
                              version=record.get("version"), module=record["value"],
                              capture=capture_by_dist.get(record.get("distribution"), {}))
            if record.get("taken_by"):
                info.error = (f"entry point name {name!r} is already taken by another plugin "
                              f"(distribution {record['taken_by']})")
                infos[f"{name} ({record.get('distribution')})"] = info
                continue
            known = _known_hooks(table, name) if hooks is not None else None
            if known is not None and not set(known) & set(hooks):
                continue  # not needed for this load
            infos[name] = info
            if name in blocked:
                info.blocked = True
                continue
            try:
                loaded.append((name, _load_entry_point(record)))
            except Exception as exc:  # any import-time failure of a third-party plugin
                info.error = f"{type(exc).__name__}: {exc}"
                continue
            light = light and known is not None
    builtins: list[tuple[str, object]] = []
    for name, module in BUILTINS.items():
        if hooks is not None and not set(BUILTIN_HOOKS[name]) & set(hooks):
            continue  # not needed for this load
        info = PluginInfo(name=name, distribution="carto-core", version=__version__,
                          module=module, builtin=True)
        infos[name] = info
        if name in blocked:
            info.blocked = True
            continue
        builtins.append((name, importlib.import_module(module)))
    if light:
        manager = LightManager.build(loaded + builtins)
        if manager is not None:
            return manager, infos
    import pluggy

    from carto_core import HOOK_NAMESPACE
    from carto_core.plugin import hookspecs

    pm = pluggy.PluginManager(HOOK_NAMESPACE)
    pm.add_hookspecs(hookspecs)
    for name in blocked:
        pm.set_blocked(name)
    for name, plugin in loaded:
        try:
            pm.register(plugin, name=name)
        except Exception as exc:  # a third-party plugin pluggy refuses
            infos[name].error = f"{type(exc).__name__}: {exc}"
    for name, plugin in builtins:
        pm.register(plugin, name=name)
    for name, obj in (extra or {}).items():
        infos[name] = PluginInfo(name=name, module=repr(obj))
        pm.register(obj, name=name)
    pm.check_pending()
    return pm, infos


def load_registries(env: dict | None = None, *, hooks: tuple[str, ...] | None = None,
                    extra: dict | None = None, entry_points: bool = True) -> Registries:
    """Build registries through the loading sequence and remember each loaded plugin's hooks."""
    pm, infos = build_plugin_manager(env, entry_points=entry_points, extra=extra, hooks=hooks)
    registries = Registries(pm, infos)
    if entry_points and _table is not None:
        for record in _table.get("capture", []):
            if record.get("taken_by"):
                registries.problems.append(
                    f"live capture {record['provider']!r} from distribution {record.get('distribution')!r} "
                    f"refused: already provided by {record['taken_by']!r}")
        _record_hooks(_table, infos)
        _record_classes(_table, registries)
    return registries


def _carry_classes(old: dict, new: dict) -> None:
    """Keep the class records (`_record_classes`) of plugins a rescan finds unchanged (same
    name, distribution and version): a rescan only means *some* `sys.path` folder changed."""
    versions = {(p.get("name"), p.get("distribution"), p.get("version")) for p in new.get("plugins", [])}
    plugins = {p.get("name"): (p.get("name"), p.get("distribution"), p.get("version"))
               for p in old.get("plugins", [])}
    builtin = {name for name in BUILTINS}
    kept: dict = {}
    for kind, records in (old.get("classes") or {}).items():
        if not isinstance(records, dict):
            continue
        for name, record in records.items():
            plugin = record.get("plugin") if isinstance(record, dict) else None
            if plugin in builtin or plugins.get(plugin) in versions:
                kept.setdefault(kind, {})[name] = record
    if kept:
        new["classes"] = kept


#: Registries whose classes the hook path may need by name (`class_target`).
_LIGHT_KINDS = ("rankers", "decay_policies")


def _record_classes(table: dict, registries: "Registries") -> None:
    """Remember where each registered ranker, analyzer, fusion and decay policy lives
    (`module:qualname` and its plugin), so that a stdlib-only caller can import one class by
    name without pluggy (`class_target`). Merged: a partial load keeps what a fuller one saw."""
    known = table.setdefault("classes", {})
    changed = False
    for attr in _LIGHT_KINDS:
        registry = getattr(registries, attr)
        records = known.setdefault(attr, {})
        for name, cls in registry.items():
            record = {"target": f"{cls.__module__}:{cls.__qualname__}",
                      "plugin": registry.plugin_of(name)}
            if records.get(name) != record:
                records[name] = record
                changed = True
    if changed:
        _write_table(table)


def class_target(kind: str, name: str, env: dict | None = None) -> str | None:
    """`module:qualname` of the class registered as `name` in registry `kind` (`rankers`:
    rankers, fusions and analyzers; `decay_policies`), as recorded the last time the
    registries were built in this environment; None when unknown or its plugin is blocked.

    Stdlib only, like `capture_target`: the UserPromptSubmit recall resolves the configured
    analyzer, ranker, fusion and decay policy with it."""
    table = plugin_table()
    record = (table.get("classes", {}).get(kind) or {}).get(name)
    if not isinstance(record, dict) or not record.get("target"):
        return None
    if record.get("plugin") in blocked_names(env):
        return None
    return record["target"]


def load_class(target: str):
    """The class a `module:qualname` target names, its module loaded *without* running the
    package `__init__` above it when that package is not imported yet: a plugin package's
    `__init__` registers its hooks (pluggy) and may import numpy, which the hook path must not
    pay for an analyzer or a decay policy that needs neither. The module is loaded from its
    file and entered in `sys.modules` under its own name; its own absolute imports work as
    usual (a module that imports relatively from its package cannot be loaded this way).
    Raises ImportError or AttributeError when the target is gone."""
    import importlib

    module_name, _, qualname = target.partition(":")
    module = sys.modules.get(module_name)
    if module is None:
        top, _, rest = module_name.partition(".")
        if not rest or top in sys.modules:
            module = importlib.import_module(module_name)
        else:
            module = _load_module_file(module_name)
    value = module
    for part in qualname.split("."):
        value = getattr(value, part)
    return value


def _load_module_file(module_name: str):
    import importlib.util

    top, *parts = module_name.split(".")
    spec = importlib.util.find_spec(top)  # locates the package; does not execute it
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"no package {top!r} for {module_name!r}")
    for location in spec.submodule_search_locations:
        path = os.path.join(location, *parts[:-1], parts[-1] + ".py")
        if os.path.isfile(path):
            break
    else:
        raise ImportError(f"no module file for {module_name!r}")
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    try:
        module_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


_cached: Registries | None = None
_partial: dict[tuple[str, ...], Registries] = {}


def get_registries(*, refresh: bool = False, hooks: tuple[str, ...] | None = None) -> Registries:
    """The process-wide registries, built on first use.

    With `hooks`, registries holding at least every plugin that implements one of them (a cold
    `carto search` needs rankers and decay policies, not every provider's parsers); a process
    that already built the full registries (a server, a test that installed its own) gets
    those."""
    global _cached
    if _cached is not None and not refresh:
        return _cached
    if hooks is not None and not refresh:
        key = tuple(sorted(hooks))
        if key not in _partial:
            _partial[key] = load_registries(hooks=key)
        return _partial[key]
    _cached = load_registries()
    return _cached


def set_registries(registries: Registries | None) -> None:
    """Install registries for this process (tests use this with `extra` plugins); None forgets
    every registry built so far, full or partial."""
    global _cached, _table, _loaded_entry_points
    _cached = registries
    _partial.clear()
    if registries is None:
        _table, _loaded_entry_points = None, {}
