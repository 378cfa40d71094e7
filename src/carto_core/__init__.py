"""carto: a memory of their own work for AI coding agents.

The package root stays import-light on purpose: the live hook path imports it on every tool
call, so nothing here may pull in pluggy, click, attrs or orjson.
"""

__version__ = "0.1.0"

HOOK_NAMESPACE = "carto"


def __getattr__(name):
    # `from carto_core import hookimpl` is the documented way for plugins to mark hooks: the
    # marker sets what pluggy's HookimplMarker(HOOK_NAMESPACE) sets, without importing pluggy.
    if name == "hookimpl":
        from carto_core.plugin.markers import hookimpl

        return hookimpl
    raise AttributeError(name)
