"""The plugin table: every installed plugin's entry points, cached per Python environment.

Reading entry points scans every installed distribution (docs/performance.md), so one table is
cached in ``$XDG_CACHE_HOME/carto/plugins-<env>.json``, keyed on the installed distributions
(the interpreter prefix and the mtimes of the ``sys.path`` folders, which change whenever a
distribution is installed, upgraded or removed). It holds:

- ``plugins``: the ``carto`` entry points with their distributions (a second one under a name
  already taken is kept as a refusal, ``taken_by``, so every path reports the same clash);
- ``capture``: the ``carto.capture`` entry points (``provider = "module:function"``), read by
  ``carto hook`` (`capture_target`);
- ``redact``: the ``carto.redact`` pattern tables (`carto_core.plugin.redaction`);
- ``hooks``: per plugin, the hooks it implemented when it was last loaded, trusted while every
  file its implementations live in is unchanged (`known_hooks`): a partial load imports only
  the plugins implementing the hooks it needs. A plugin that failed to load (its module raised
  on import, pluggy refused it, it names a hook that does not exist) is recorded with its
  ``error``, no hooks and the files its failure went through: a partial load leaves it out
  without importing it again until one of those files changes or the installed distributions
  do (a new table); a full load (``carto plugins``, ``carto doctor``) still tries it and says why;
- ``classes``: where each registered ranker, analyzer, fusion and decay policy lives
  (`class_target`), for the prompt recall, which loads them without pluggy.

Every path reads this table: the CLI, ``carto hook``, search, facts, ``carto serve`` and
``carto mcp``. Stdlib only (``json``/``os``/``sys`` at module level): ``carto hook`` imports it.
"""

from __future__ import annotations

import itertools
import json
import os
import sys

from carto_core.util.safeio import file_stamp

ENTRY_POINT_GROUP = "carto"
CAPTURE_GROUP = "carto.capture"
TABLE_VERSION = 4  # 2: the carto.redact pattern tables; 3: hook records stamp every file;
# 4: fusions and analyzers recorded under their own kinds

#: Registries whose classes the prompt recall may need by name (`class_target`).
LIGHT_KINDS = ("rankers", "fusions", "analyzers", "decay_policies")


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
    every distribution again (docs/performance.md, "Modules on the hook path")."""
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


#: The table this process scanned or read.
_table: dict | None = None


def scan_entry_points() -> dict:
    """Every group's entry points, read from the installed distributions (the slow, exact way)."""
    from importlib import metadata

    from carto_core.plugin.registries import own_distribution

    def order(ep) -> tuple:
        # By name; under one name carto's own distribution first, so that a third-party entry
        # point (or live capture) cannot take a name carto's own plugins use.
        dist = getattr(getattr(ep, "dist", None), "name", "") or ""
        return ep.name, not own_distribution(dist), dist

    plugins: list[dict] = []
    owner: dict[str, str | None] = {}
    for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=order):
        dist = getattr(ep, "dist", None)
        record = {"name": ep.name, "value": ep.value,
                  "distribution": dist.name if dist else None, "version": dist.version if dist else None}
        if ep.name in owner:
            record["taken_by"] = owner[ep.name]
        else:
            owner[ep.name] = record["distribution"]
        plugins.append(record)
    capture: list[dict] = []
    providers: dict[str, str | None] = {}
    for ep in sorted(metadata.entry_points(group=CAPTURE_GROUP), key=order):
        dist = getattr(ep, "dist", None)
        record = {"provider": ep.name, "target": ep.value, "distribution": dist.name if dist else None}
        if ep.name in providers:
            record["taken_by"] = providers[ep.name]
        else:
            providers[ep.name] = record["distribution"]
        capture.append(record)
    from carto_core.plugin import redaction

    return {"plugins": plugins, "capture": capture, "hooks": {}, "redact": redaction.scan()}


#: Numbers each write's temporary file: two threads of one process (a server answering two
#: calls) writing the same temporary file interleaved their bytes into a table that no longer
#: parsed.
_writes = itertools.count()


def write_table(table: dict) -> None:
    path = table_path()
    try:
        from carto_core.util.privatefiles import make_dirs, open_private

        text = json.dumps(table)
        make_dirs(os.path.dirname(path))
        tmp = f"{path}.{os.getpid()}.{next(_writes)}.tmp"
        with open_private(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except (OSError, RuntimeError):
        pass  # a read-only cache folder (or a record another thread is changing) costs speed


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
    if isinstance(cached, dict) and (cached.get("key") or {}).get("version") == TABLE_VERSION:
        carry_classes(cached, table)
    write_table(table)
    _table = table
    return table


def loaded_table() -> dict | None:
    """The table this process already read or scanned (None: none yet)."""
    return _table


def forget() -> None:
    """Read the table again on next use (tests; `set_registries(None)`)."""
    global _table
    _table = None


def capture_target(provider: str, env: dict | None = None) -> tuple[str | None, str | None]:
    """("module:function", None) of `provider`'s live capture; (None, None) when it is disabled
    (`CARTO_DISABLE_PLUGINS` names the provider or its distribution's plugin); (None, why) when
    none is installed.

    `carto hook` calls this on every tool call. A second distribution's handler for the same
    provider is refused, as a second plugin of the same name is."""
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


# --------------------------------------------------------------------------- hook records


def known_hooks(table: dict, name: str) -> list[str] | None:
    """The hooks plugin `name` implemented when it was last loaded, if no file its module and
    its implementations live in has changed since (None: unknown, import it)."""
    record = table.get("hooks", {}).get(name)
    if not isinstance(record, dict) or not isinstance(record.get("files"), dict):
        return None
    for path, stamp in record["files"].items():
        if file_stamp(path) != stamp:
            return None
    return record.get("hooks")


def hook_files(module, functions) -> dict[str, list[int] | None]:
    """The files a plugin's hook record depends on: its module's and every implementation's
    (an entry-point module may import its hooks from another file)."""
    paths = {getattr(module, "__file__", None)}
    paths |= {getattr(getattr(f, "__code__", None), "co_filename", None) for f in functions}
    return {path: file_stamp(path) for path in sorted(p for p in paths if p)}


def record_hooks(table: dict, plugins: list[tuple[str, object, list[str], list]],
                 failures: dict[str, dict] | None = None) -> None:
    """Remember which hooks each loaded module plugin implements, with the stamps of the files
    they live in: (name, module, hook names, implementation functions) per plugin; and each
    plugin that failed to load (`failures`: name -> {"files": stamps, "error": text}) as one
    implementing no hook, so that a partial load does not import it again for nothing."""
    changed = False
    records = {}
    for name, module, hooks, functions in plugins:
        if not getattr(module, "__file__", None):
            continue  # an object plugin (tests): nothing to key a record on
        records[name] = {"files": hook_files(module, functions), "hooks": sorted(hooks)}
    for name, failure in (failures or {}).items():
        records[name] = {"files": failure["files"], "hooks": [], "error": failure["error"]}
    for name, record in records.items():
        if table.setdefault("hooks", {}).get(name) != record:
            table["hooks"][name] = record
            changed = True
    if changed:
        write_table(table)


# --------------------------------------------------------------------------- class records


def carry_classes(old: dict, new: dict) -> None:
    """Keep the class records (`record_classes`) of plugins a rescan finds unchanged (same
    name, distribution and version) and those of plugins that are no entry point (core's
    built-ins): a rescan only means *some* `sys.path` folder changed."""
    versions = {(p.get("name"), p.get("distribution"), p.get("version")) for p in new.get("plugins", [])}
    plugins = {p.get("name"): (p.get("name"), p.get("distribution"), p.get("version"))
               for p in old.get("plugins", [])}
    kept: dict = {}
    for kind, records in (old.get("classes") or {}).items():
        if not isinstance(records, dict):
            continue
        for name, record in records.items():
            if not isinstance(record, dict):
                continue
            plugin = record.get("plugin")
            if plugin not in plugins or plugins[plugin] in versions:
                kept.setdefault(kind, {})[name] = record
    if kept:
        new["classes"] = kept


def record_classes(table: dict, registries) -> None:
    """Remember where each class of the `LIGHT_KINDS` registries lives (`module:qualname` and
    its plugin), so that a stdlib-only caller can import one class by name without pluggy
    (`class_target`). Merged: a partial load keeps what a fuller one saw."""
    known = table.setdefault("classes", {})
    changed = False
    for attr in LIGHT_KINDS:
        registry = getattr(registries, attr)
        records = known.setdefault(attr, {})
        for name, cls in registry.items():
            record = {"target": f"{cls.__module__}:{cls.__qualname__}",
                      "plugin": registry.plugin_of(name)}
            if records.get(name) != record:
                records[name] = record
                changed = True
    if changed:
        write_table(table)


def class_target(kind: str, name: str, env: dict | None = None) -> str | None:
    """`module:qualname` of the class registered as `name` in registry `kind` (one of
    `LIGHT_KINDS`), as recorded the last time the registries were built in this environment;
    None when unknown or its plugin is blocked.

    The UserPromptSubmit recall resolves the configured analyzer, rankers, fusion and decay
    policy with it (`carto_core.plugin.resolve.resolve(target, standalone=True)`)."""
    table = plugin_table()
    record = (table.get("classes", {}).get(kind) or {}).get(name)
    if not isinstance(record, dict) or not record.get("target"):
        return None
    if record.get("plugin") in blocked_names(env):
        return None
    return record["target"]
