"""Standard modules a one-shot `carto search` imports only because `pathlib` does, loaded when
first used.

Python 3.11's `pathlib` imports `urllib.parse` (for `Path.as_uri`), which imports `ipaddress`
(for bracketed hosts in URLs), which a cold search that never makes a URI pays for
(docs/performance.md, "Cold path"); and `ntpath` (Windows paths) and `fnmatch`
(`Path.match`, `glob`), likewise. `defer()` puts a stand-in for each in
`sys.modules` before `pathlib` loads: the first use of anything in it (an attribute, the
deferred function `pathlib` takes by name) imports the real module, and the stand-in then holds
the real module's attributes. Stdlib only.
"""

from __future__ import annotations

import sys
import types

#: module -> the names a module that imports it takes with `from module import name` at its
#: own import time (each becomes a function that loads the real one on first call).
DEFERRED: dict[str, tuple[str, ...]] = {
    "ipaddress": (),
    "urllib.parse": ("quote_from_bytes",),
    # pathlib keeps `ntpath` for `PureWindowsPath` (its import tries `nt` five times) and
    # calls `fnmatch` for `match`/`glob`: a search makes neither
    "ntpath": (),
    "fnmatch": (),
}


class Deferred(types.ModuleType):
    """A module not imported yet: the first attribute it lacks imports the real one."""

    def __getattr__(self, name):
        if name == "__path__":  # the import system asks whether it is a package: it is not
            raise AttributeError(name)
        return getattr(load(self), name)


def load(stub: Deferred) -> types.ModuleType:
    """The real module `stub` stands for, imported on first use (and its attributes copied
    into the stand-in, for whoever bound it)."""
    real = stub.__dict__.get("_deferred_real")
    if real is not None:
        return real
    import importlib

    name = stub.__name__
    if sys.modules.get(name) is stub:
        del sys.modules[name]
    real = importlib.import_module(name)
    stub.__dict__.update(real.__dict__)
    stub.__dict__["_deferred_real"] = real
    return real


def _function(stub: Deferred, name: str):
    def deferred(*args, **kwargs):
        return getattr(load(stub), name)(*args, **kwargs)

    deferred.__name__ = deferred.__qualname__ = name
    return deferred


def defer() -> None:
    """Stand-ins for the modules of `DEFERRED` that are not imported yet."""
    for name, functions in DEFERRED.items():
        if name in sys.modules:
            continue
        parent, _, child = name.rpartition(".")
        stub = Deferred(name)
        for function in functions:
            setattr(stub, function, _function(stub, function))
        sys.modules[name] = stub
        if parent:
            # `import urllib.parse` then `urllib.parse.x` reads the package's attribute
            package = __import__(parent)
            setattr(sys.modules[parent], child, stub)
            del package
