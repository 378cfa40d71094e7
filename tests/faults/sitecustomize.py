"""Fault injection for whole-process tests: imported at start-up when this folder is on
PYTHONPATH. `CARTO_TEST_FAULT=<kind>:<folder>` makes the home behave as

- `readonly`: every write under <folder> fails with EROFS (creating, opening for writing,
  renaming, linking, removing, making folders);
- `full`: the same writes fail with ENOSPC (a full disk refuses new blocks).

Reads are untouched. Test-only: nothing in src/ knows about it.
"""

import builtins
import errno
import io
import os

_spec = os.environ.get("CARTO_TEST_FAULT", "")
if ":" in _spec:
    _kind, _root = _spec.split(":", 1)
    _root = os.path.realpath(_root)
    _code = {"readonly": errno.EROFS, "full": errno.ENOSPC}[_kind]

    def _inside(path) -> bool:
        try:
            if isinstance(path, int):
                return False
            real = os.path.realpath(os.fsdecode(path))
        except (TypeError, ValueError):
            return False
        return real == _root or real.startswith(_root + os.sep)

    def _refuse(path):
        raise OSError(_code, os.strerror(_code), os.fsdecode(path))

    _open, _os_open = builtins.open, os.open
    _write_flags = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def open_(file, mode="r", *args, **kwargs):
        if any(c in mode for c in "wax+") and _inside(file):
            _refuse(file)
        return _open(file, mode, *args, **kwargs)

    def os_open(path, flags, *args, **kwargs):
        if flags & _write_flags and _inside(path):
            _refuse(path)
        return _os_open(path, flags, *args, **kwargs)

    builtins.open = io.open = open_
    os.open = os_open

    def _guard(name, *positions):
        real = getattr(os, name)

        def guarded(*args, **kwargs):
            for i in positions:
                if i < len(args) and _inside(args[i]):
                    _refuse(args[i])
            return real(*args, **kwargs)

        setattr(os, name, guarded)

    for _name, _positions in (("mkdir", (0,)), ("rename", (0, 1)), ("replace", (0, 1)),
                              ("link", (1,)), ("unlink", (0,)), ("remove", (0,)), ("rmdir", (0,)),
                              ("symlink", (1,)), ("truncate", (0,))):
        _guard(_name, *_positions)
