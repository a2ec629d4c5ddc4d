"""Record values (`record Placement { piece: str, where: cell }` in a rule file): immutable,
hashable tuples of their fields in declaration order, one tuple subclass per record type.

A tuple subclass is the fastest of the forms measured (docs/performance.md, "Records"): built
with `tuple.__new__(cls, values)`, a field read is an index (`m[1]`, which the compiler writes
for `m.where`), and hashing and `==` are the tuple's own. Records pickle by their type's name
and field names with the values (`__reduce__`), not by a class reachable from a module, so a
worker process that compiled the game afresh, or never did, reads them back; a game whose record
has other fields refuses the value instead of reading it in the wrong order.
"""
from __future__ import annotations

_TYPES: dict = {}


class Record(tuple):
    """A record value; subclasses carry the type's `_name` and `_fields`."""
    __slots__ = ()
    _name = ""
    _fields: tuple = ()

    def __reduce__(self):
        return _rebuild, (self._name, self._fields, tuple(self))

    def __repr__(self) -> str:
        return f"{self._name}(" + ", ".join(f"{f}: {v!r}" for f, v in zip(self._fields, self)) + ")"

    def as_dict(self) -> dict:
        return dict(zip(self._fields, self))


def record_type(name: str, fields: tuple) -> type:
    """The class of record `name` with these fields (one per name and fields, per process)."""
    key = (name, tuple(fields))
    cls = _TYPES.get(key)
    if cls is None:
        cls = type(name, (Record,), {"__slots__": (), "_name": name, "_fields": tuple(fields)})
        _TYPES[key] = cls
    return cls


def _rebuild(name: str, fields: tuple, values: tuple) -> Record:
    if len(fields) != len(values):
        raise ValueError(f"a {name} record of {len(fields)} fields given {len(values)} values")
    return tuple.__new__(record_type(name, fields), values)


make = tuple.__new__        # make(cls, (v1, v2, ...)): the compiled form of a record literal
