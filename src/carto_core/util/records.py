"""Plain record classes for the modules a cold `carto search` imports.

`@dataclass` writes the source of `__init__`, `__repr__` and `__eq__` (and, frozen, of
`__setattr__`, `__delattr__` and `__hash__`) and compiles it when the class is defined, for
each of the records the modules a search imports define, paid by every cold process
(docs/performance.md, "Cold path"). A record here writes its `__init__` by hand (as
fast to call as the generated one) and takes `__repr__` and `__eq__` from `Record`, which read
the field names of `_fields`; `FrozenRecord` adds the frozen methods. They behave as the
dataclasses they replace (`tests/search/test_records.py` compares each with a dataclass made
from its `__init__`), except that `dataclasses.fields`/`replace`/`asdict` do not apply.
"""

from __future__ import annotations

from typing import Any, ClassVar

#: The default of a field that was a dataclass' `default_factory`: `__init__` makes a new value
#: (`_factories` names the factory of each such field, for the test that compares).
NEW: Any = object()


class Record:
    """A mutable record: `==` compares the fields of two records of the same class (as a
    dataclass does), `repr` shows them, and it is unhashable (a dataclass with `eq` is)."""

    __slots__ = ()
    #: The field names, in `__init__` order.
    _fields: ClassVar[tuple[str, ...]] = ()
    #: Fields whose default (`NEW`) is a new value made by the factory named here.
    _factories: ClassVar[dict[str, Any]] = {}
    #: Fields `repr` leaves out (a dataclass field with `repr=False`).
    _norepr: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields)

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields
                          if name not in self._norepr)
        return f"{type(self).__qualname__}({inner})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class FrozenRecord(Record):
    """A record whose fields cannot be assigned or deleted after `__init__` (which sets them
    with `object.__setattr__`); hashable by its fields."""

    __slots__ = ()

    def __setattr__(self, name, value):
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:
        return hash(self._values())
