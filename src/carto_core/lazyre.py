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
