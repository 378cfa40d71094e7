"""`carto_core.hookimpl`: the marker plugins put on their hook implementations, without pluggy.

It sets exactly what `pluggy.HookimplMarker("carto")` sets (a `carto_impl` dict of the same
options on the function), so pluggy's `PluginManager.register` finds the implementations as
before; and a partial registry load can read them without importing pluggy at all
(`carto_core.plugin.light.LightManager`: a cold `carto search` no longer pays for pluggy).
Stdlib only: `carto hook` may import a plugin module.
"""

from __future__ import annotations

#: The attribute pluggy reads for project "carto" (`<project_name>_impl`).
IMPL_ATTR = "carto_impl"


def hookimpl(function=None, hookwrapper: bool = False, optionalhook: bool = False,
             tryfirst: bool = False, trylast: bool = False, specname: str | None = None,
             wrapper: bool = False):
    """Mark `function` as a carto hook implementation (`@hookimpl` or `@hookimpl(...)`, the
    options of `pluggy.HookimplMarker.__call__`)."""

    def mark(func):
        setattr(func, IMPL_ATTR, {"wrapper": wrapper, "hookwrapper": hookwrapper,
                                  "optionalhook": optionalhook, "tryfirst": tryfirst,
                                  "trylast": trylast, "specname": specname})
        return func

    return mark if function is None else mark(function)
