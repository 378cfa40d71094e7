"""A stand-in for pluggy's `PluginManager` on a partial registry load, built without pluggy.

A partial load (a cold `carto search`) whose plugins the plugin table already knows registers
them here: importing pluggy, building its manager and validating each plugin cost a measurable
part of every search (docs/performance.md). `LightManager.build` returns None (the caller then
uses pluggy, which reports what is wrong) unless every plugin is a module whose
implementations are plain functions marked with `carto_core.hookimpl` and no option, named
after a hookspec, taking only its arguments: the cases where pluggy's registration is this
loop. Stdlib only.
"""

from __future__ import annotations

from carto_core.plugin.registries import REGISTRATION_HOOKS


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
    """The part of a pluggy `PluginManager` that `Registries` reads (module docstring)."""

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

