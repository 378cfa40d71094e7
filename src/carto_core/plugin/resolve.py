"""The one resolver of ``"module:attr"`` targets: entry points, live-capture handlers, the
live transcript's readers, the catch-up's source factories, the redaction tables, the classes
the prompt recall loads by name and the CLI's lazy commands all name an object this way.

``module`` alone names the module; ``attr`` may be dotted (``pkg.mod:Outer.Inner``); blanks
around either part are ignored, as ``importlib.metadata`` ignores them in an entry point.
Stdlib only: ``carto hook`` resolves its provider's handler here.
"""

from __future__ import annotations

import sys


def split(target: str) -> tuple[str, list[str]]:
    """(module name, attribute path) of a ``module:attr.path`` target."""
    module_name, _, attribute = target.partition(":")
    return module_name.strip(), [part for part in attribute.strip().split(".") if part]


def resolve(target: str, default: str | None = None, *, standalone: bool = False,
            reload: bool = False):
    """The object `target` names (the module itself when it names no attribute, or its
    `default` attribute when one is given).

    `standalone`: a module whose package is not imported yet is loaded from its file *without*
    running the package ``__init__`` above it (a plugin package's ``__init__`` registers its
    hooks and may import numpy, which the prompt hook must not pay for one analyzer class);
    it enters ``sys.modules`` under its own name and its absolute imports work as usual (a
    module importing relatively from its package cannot be loaded this way).
    `reload`: a module this process already imported is executed again (its file changed).

    Raises ImportError or AttributeError when the target is gone."""
    import importlib

    module_name, path = split(target)
    if not path and default:
        path = [default]
    top, _, rest = module_name.partition(".")
    if reload and module_name in sys.modules:
        module = importlib.reload(sys.modules[module_name])
    elif standalone and rest and top not in sys.modules and module_name not in sys.modules:
        module = _load_module_file(module_name)
    else:
        # Not sys.modules directly: a module another thread is still importing is there
        # half-run (a server loads its registries from two threads); import_module waits.
        module = importlib.import_module(module_name)
    value = module
    for part in path:
        value = getattr(value, part)
    return value


def _load_module_file(module_name: str):
    import importlib.util
    import os

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
