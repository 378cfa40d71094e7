"""A regular expression compiled on first use. Stdlib only (hook path).

The hook imports its modules on every call and most calls need few of their patterns;
compiling them all at import cost more than the patterns' use."""

from __future__ import annotations

import re


class Lazy:
    __slots__ = ("args", "compiled")

    def __init__(self, *args):
        self.args = args
        self.compiled = None

    def __getattr__(self, name):
        if self.compiled is None:
            self.compiled = re.compile(*self.args)
        return getattr(self.compiled, name)


class FirstUse:
    """A pattern compiled on first use that then takes its own place in `namespace` (a module's
    `globals()`) under `name`: no indirection afterwards, for patterns a loop calls hundreds of
    thousands of times (`Lazy`'s lookup on every call cost the analyzers' `terms` ~15 % over a
    build's words). Only for a module's own global names: a copy imported elsewhere keeps the
    stand-in, which still works (a `Lazy` without the memo)."""

    __slots__ = ("namespace", "name", "args")

    def __init__(self, namespace: dict, name: str, *args):
        self.namespace, self.name, self.args = namespace, name, args

    def __getattr__(self, attribute):
        compiled = re.compile(*self.args)
        self.namespace[self.name] = compiled
        return getattr(compiled, attribute)
