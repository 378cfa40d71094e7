"""Plugin loading: the one sequence every path that needs plugins runs, and the process's
registries.

Two entry-point groups describe a plugin distribution: ``carto``, the module (or object) with
the plugin's pluggy hook implementations, and ``carto.capture``, the live-capture handler
``carto hook`` runs without pluggy (docs/capture.md). Both are read from the plugin table
(`carto_core.plugin.table`); every target is resolved by `carto_core.plugin.resolve`.

The loading sequence (after tox's ``plugin/manager.py``), the same for a full or a partial load:

1. add the hookspecs;
2. block every name in ``CARTO_DISABLE_PLUGINS`` (comma-separated; it blocks a plugin's live
   capture too);
3. load each ``carto`` entry point, one at a time, in name order: a second entry point under a
   name already taken is refused; a plugin that fails to import, that pluggy refuses (a wrong
   signature) or that implements a hook that does not exist (a misspelt name) is recorded with
   its error (``carto plugins``, ``carto doctor``) and the rest go on without it;
4. register core's built-ins (``BUILTINS``), which are plugins like any other;
5. ``check_pending()``: only core's own plugins can fail it now (a bug in carto).

A partial load (``get_registries(hooks=...)``: search, facts, ``carto serve``, ``carto mcp``)
imports only the plugins the table knows to implement one of those hooks (or does not know
yet) and, when it knows them all, builds a `LightManager` instead of pluggy's. pluggy is
imported only when a plugin manager is built.
"""

from __future__ import annotations

import sys

from carto_core.plugin import table
from carto_core.plugin.registries import (  # noqa: F401 - the names callers import from here
    EMBEDDER_HOOKS,
    FACT_HOOKS,
    RANKING_HOOKS,
    PluginInfo,
    Registries,
    uninstall_command,
)
from carto_core.plugin.resolve import resolve

#: Core's own plugins, registered after the entry points (name -> module).
BUILTINS: dict[str, str] = {
    "core-writers": "carto_core.builtins.writers",
    "core-facts": "carto_core.builtins.facts",
}
#: The hooks each built-in implements (a test keeps it equal to the modules): a partial load
#: imports only the built-ins it needs (a cold `carto search` needs neither; the writers'
#: base class alone brought attrs).
BUILTIN_HOOKS: dict[str, tuple[str, ...]] = {
    "core-writers": ("carto_register_writers",),
    "core-facts": ("carto_register_fact_verbs",),
}


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
    from carto_core.plugin.light import LightManager

    infos: dict[str, PluginInfo] = {}
    blocked = table.blocked_names(env)
    light = hooks is not None and not extra and not blocked
    loaded: list[tuple[str, object]] = []  # entry points, in name order
    known_table = table.plugin_table() if entry_points else None
    if known_table is not None:
        capture_by_dist: dict[str | None, dict[str, str]] = {}
        for record in known_table.get("capture", []):
            if not record.get("taken_by"):
                capture_by_dist.setdefault(record.get("distribution"), {})[record["provider"]] = record["target"]
        for record in known_table.get("plugins", []):
            name = record["name"]
            info = PluginInfo(name=name, distribution=record.get("distribution"),
                              version=record.get("version"), module=record["value"],
                              capture=capture_by_dist.get(record.get("distribution"), {}))
            if record.get("taken_by"):
                info.taken_by = record["taken_by"]
                info.error = (f"entry point name {name!r} is already taken by another plugin "
                              f"(distribution {record['taken_by']})")
                infos[f"{name} ({record.get('distribution')})"] = info
                continue
            known = table.known_hooks(known_table, name) if hooks is not None else None
            if known is not None and not set(known) & set(hooks):
                continue  # not needed for this load
            infos[name] = info
            if name in blocked:
                info.blocked = True
                continue
            try:
                loaded.append((name, resolve(record["value"])))
            except Exception as exc:  # any import-time failure of a third-party plugin
                info.error = f"{type(exc).__name__}: {exc}"
                info.error_files = _traceback_files(exc)
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
        _register_or_record(pm, name, plugin, infos[name])
        if infos[name].error:
            infos[name].error_files = _module_files(plugin)
    for name, plugin in builtins:
        pm.register(plugin, name=name)
    for name, obj in (extra or {}).items():
        infos[name] = PluginInfo(name=name, module=repr(obj))
        _register_or_record(pm, name, obj, infos[name])
    pm.check_pending()  # only core's own plugins can still fail it: a bug in carto itself
    return pm, infos


def _register_or_record(pm, name: str, plugin, info: PluginInfo) -> None:
    """Register one plugin, or record why it cannot be and leave it out: pluggy refuses a wrong
    signature at `register` but an unknown hook (a misspelt name) only at `check_pending`,
    which would take every command down with it, so that check is made here, plugin by plugin."""
    try:
        pm.register(plugin, name=name)
    except Exception as exc:  # a plugin pluggy refuses
        info.error = f"{type(exc).__name__}: {exc}"
        return
    unknown = sorted(caller.name for caller in pm.get_hookcallers(plugin) or ()
                     if not caller.has_spec()
                     and any(impl.plugin is plugin and not impl.optionalhook
                             for impl in caller.get_hookimpls()))
    if unknown:
        pm.unregister(plugin)
        info.error = "; ".join(unknown_hook_message(hook) for hook in unknown)


def _traceback_files(exc: BaseException) -> dict[str, list[int] | None]:
    """The files an import failure went through (the plugin's module, a dependency that
    raised), stamped: editing one of them makes the plugin worth importing again."""
    import importlib
    import os

    from carto_core.util.safeio import file_stamp

    # The loader's own frames (this package, importlib) are no part of the failure.
    loaders = tuple(os.path.dirname(module.__file__) + os.sep for module in (importlib, table))
    paths = set()
    trace = exc.__traceback__
    while trace is not None:
        path = trace.tb_frame.f_code.co_filename
        if not path.startswith(loaders) and os.path.isfile(path):
            paths.add(path)
        trace = trace.tb_next
    return {path: file_stamp(path) for path in sorted(paths)}


def _module_files(plugin) -> dict[str, list[int] | None]:
    """The files of a plugin that imported but was refused (a wrong signature, a misspelt
    hook): its module's and each marked implementation's."""
    from carto_core.plugin.markers import IMPL_ATTR

    try:
        functions = [value for value in vars(plugin).values() if hasattr(value, IMPL_ATTR)]
    except TypeError:  # an object without attributes of its own
        functions = []
    return table.hook_files(plugin, functions)


def unknown_hook_message(hook: str) -> str:
    """What `carto plugins` says of an implementation of no hookspec, with the nearest hook."""
    import difflib

    from carto_core.plugin.light import HOOK_ARGS

    near = difflib.get_close_matches(hook, sorted(HOOK_ARGS), n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]!r}?" if near else f" (carto's hooks: {', '.join(sorted(HOOK_ARGS))})"
    return f"unknown hook {hook!r}: no carto hook has this name{hint}"


def load_registries(env: dict | None = None, *, hooks: tuple[str, ...] | None = None,
                    extra: dict | None = None, entry_points: bool = True) -> Registries:
    """Build registries through the loading sequence and remember each loaded plugin's hooks."""
    pm, infos = build_plugin_manager(env, entry_points=entry_points, extra=extra, hooks=hooks)
    registries = Registries(pm, infos)
    known_table = table.loaded_table()
    if entry_points and known_table is not None:
        for record in known_table.get("capture", []):
            if record.get("taken_by"):
                registries.problem(
                    f"live capture {record['provider']!r} from distribution {record.get('distribution')!r} "
                    f"refused: already provided by {record['taken_by']!r}",
                    f"{uninstall_command(record['distribution'])} (the distribution refused; "
                    f"{record['taken_by']} keeps the provider)" if record.get("distribution") else
                    f"uninstall one of distributions {record['taken_by']!r} and "
                    f"{record.get('distribution')!r}")
        table.record_hooks(known_table, _hook_records(pm, infos), _failure_records(infos))
        table.record_classes(known_table, registries)
    return registries


def _hook_records(pm, infos: dict[str, PluginInfo]) -> list[tuple[str, object, list[str], list]]:
    """(name, module, hooks, implementation functions) of each loaded entry-point plugin."""
    out = []
    for name, plugin in pm.list_name_plugin():
        info = infos.get(name)
        if info is None or info.builtin or info.blocked or info.error or not info.module:
            continue
        module = sys.modules.get(info.module.split(":")[0].strip())
        functions = [impl.function for caller in pm.get_hookcallers(plugin) or ()
                     for impl in caller.get_hookimpls() if impl.plugin_name == name]
        out.append((name, module, info.hooks, functions))
    return out


def _failure_records(infos: dict[str, PluginInfo]) -> dict[str, dict]:
    """name -> (files, error) of each entry point that failed to load (`table.record_hooks`)."""
    return {name: {"files": info.error_files, "error": info.error} for name, info in infos.items()
            if info.error and info.error_files is not None}


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
    global _cached
    _cached = registries
    _partial.clear()
    if registries is None:
        table.forget()
