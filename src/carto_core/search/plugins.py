"""Registries for a search, without importing every plugin on every cold `carto search`.

Loading all plugins (sources, capture adapters, their parsers) and scanning entry points costs a
cold search more than its whole ranking. A search only needs the plugins that register rankers
or decay policies, so the first full load records, per entry point, which hooks it implements
(`$XDG_CACHE_HOME/carto/search-plugins.json`); later searches import only the plugins that
implement a ranking hook. The record is trusted only while nothing it depends on changed: the
interpreter prefix, the modification times of every `sys.path` folder (installing or removing a
distribution touches site-packages) and of every plugin's entry module file, and
`CARTO_DISABLE_PLUGINS`. Any mismatch means a full load (which rewrites the record).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path

from carto_core.hookpath import path_fingerprint

RANKING_HOOKS = ("carto_register_rankers", "carto_register_decay_policies")
VERSION = 1


def _cache_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "carto" / "search-plugins.json"


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


def _environment_key() -> dict:
    return {
        "version": VERSION,
        "prefix": sys.prefix,
        "paths": path_fingerprint(),  # the hook dispatcher's own test for changed distributions
        "disabled": os.environ.get("CARTO_DISABLE_PLUGINS", ""),
    }


def _record(registries) -> None:
    plugins = []
    for name, info in registries.plugins.items():
        if info.blocked or info.error or not info.module:
            continue
        module_name = info.module.split(":")[0]
        module = sys.modules.get(module_name)
        path = getattr(module, "__file__", None)
        if not path:
            return  # an object plugin (tests): do not cache this environment
        plugins.append({"name": name, "module": module_name, "file": path,
                        "mtime": _mtime(path), "hooks": info.hooks, "builtin": info.builtin,
                        "distribution": info.distribution, "version": info.version})
    record = {"key": _environment_key(), "plugins": plugins}
    path = _cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(record), "utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache folder only costs speed


def _load_cached(hooks: tuple[str, ...] = RANKING_HOOKS):
    try:
        record = json.loads(_cache_path().read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if record.get("key") != _environment_key():
        return None
    plugins = record.get("plugins") or []
    if any(_mtime(p["file"]) != p["mtime"] for p in plugins):
        return None
    import pluggy

    from carto_core import HOOK_NAMESPACE, hookspecs
    from carto_core.registry import PluginInfo, Registries

    pm = pluggy.PluginManager(HOOK_NAMESPACE)
    pm.add_hookspecs(hookspecs)
    infos = {}
    for plugin in plugins:
        if not any(hook in hooks for hook in plugin["hooks"]):
            continue
        try:
            module = importlib.import_module(plugin["module"])
        except Exception:
            return None  # something changed underneath: fall back to the full load
        pm.register(module, name=plugin["name"])
        infos[plugin["name"]] = PluginInfo(
            name=plugin["name"], distribution=plugin.get("distribution"),
            version=plugin.get("version"), module=plugin["module"], builtin=plugin["builtin"])
    return Registries(pm, infos)


def search_registries():
    """Registries holding at least every ranker and decay policy installed.

    In a process that already built the full registries (a server, a test that installed its
    own), those are returned unchanged."""
    from carto_core import registry

    if registry._cached is not None:
        return registry._cached
    cached = _load_cached()
    if cached is not None:
        return cached
    full = registry.get_registries()
    _record(full)
    return full


def registries_for(hooks: tuple[str, ...]):
    """`search_registries` for other cold paths: registries holding at least every plugin that
    implements one of `hooks` (facts use it for `carto_register_fact_verbs`)."""
    from carto_core import registry

    if registry._cached is not None:
        return registry._cached
    cached = _load_cached(hooks)
    if cached is not None:
        return cached
    full = registry.get_registries()
    _record(full)
    return full
