"""Typed turn-log events: the common base of every game's event classes.

An event is a small frozen record of one thing that happened in a turn (a roll, or a rule
applied without one). Each game declares one class per kind of event (BLITZ!'s are in
``games/blitz/events.py``); the class names its ``rule`` and its fields, and
:meth:`Event.to_json` writes it exactly as the turn log (scenario-format.md, "Turn log")
has always written it:

``step``, ``rule``, the fields saying where and who (in the class's order, ``None`` left
out, a location ``(area, level)`` written ``{"area":…,"level":…}``), ``dice``,
``modifier``, ``need``, ``success``, ``ruling`` when one applied, ``manual`` when the
umpire gave the dice, and last the class's :attr:`Event.outcome` fields (what the roll
decided, e.g. a bomb run's ``result``) when set.

``repr(event)`` evaluates back to an equal event (given the class in scope), as
python-chess's ``Move`` does. For readers written against the old dict events, an event
is also a read-only mapping view of its JSON (``ev["rule"]``, ``ev.get("at")``,
``"refused" in ev``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from typing import Any, ClassVar

#: the fields every event has, written in this order around the class's own
ROLL_FIELDS = ("dice", "modifier", "need", "success")


def json_value(value: Any) -> Any:
    """A field's value as the turn log writes it (a location as an area/level object)."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
        return {"area": value[0], "level": value[1]}
    return value


def json_key(name: str) -> str:
    """A field's key in the log (``from_`` -> ``from``: a Python keyword)."""
    return name.rstrip("_")


def _first_init(self: Event, **fields: Any) -> None:
    """The first instance of a class: its own ``__init__`` made, set on the class, used."""
    cls = type(self)
    init = _make_init(cls)
    cls.__init__ = init  # type: ignore[method-assign]
    init(self, **fields)


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Event:
    """One event of a turn. Subclasses set :attr:`rule` and add their fields.

    A game declares its classes ``@dataclass(kw_only=True, repr=False, eq=False,
    init=False)``: the dataclass then writes no method at import (BLITZ!'s 63 classes cost
    189 compiled functions as frozen dataclasses). Events stay frozen (:meth:`__setattr__`),
    and each class gets the ``__init__`` a frozen keyword-only dataclass would have, made
    the first time the class is instantiated (:func:`_make_init`): a game played in the
    quiet mode makes no event and so compiles none."""

    #: the rule name the log writes (one class per rule)
    rule: ClassVar[str] = ""
    #: fields written after the roll (they hold what the roll decided), in this order
    outcome: ClassVar[tuple[str, ...]] = ()

    step: int
    dice: tuple[int, ...] = ()
    modifier: int = 0
    need: str = "auto"
    success: bool = True
    ruling: str | None = None
    manual: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__init__" not in cls.__dict__:  # not the one of the class it derives from
            cls.__init__ = _first_init  # type: ignore[method-assign]

    def __init__(self, **fields: Any) -> None:
        _first_init(self, **fields)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    # -- the log form ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The event as the turn log writes it (a fresh dict)."""
        where, outcome = _layout(type(self))
        out: dict[str, Any] = {"step": self.step, "rule": self.rule}
        for name, key in where:
            value = getattr(self, name)
            if value is not None:
                out[key] = json_value(value)
        out["dice"] = list(self.dice)
        out["modifier"] = self.modifier
        out["need"] = self.need
        out["success"] = self.success
        if self.ruling:
            out["ruling"] = self.ruling
        if self.manual:
            out["manual"] = True
        for name, key in outcome:
            value = getattr(self, name)
            if value is not None:
                out[key] = json_value(value)
        return out

    # -- equality and hash as the dataclass makes them (the fields in order), written once:
    # a game's event classes are declared ``eq=False`` and inherit them, so importing them
    # compiles no ``__eq__`` and ``__hash__`` per class
    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            names = _compared(type(self))[0]
            return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in _compared(type(self))[1]))

    def where_json(self) -> dict[str, Any]:
        """Only the fields saying where and who, as the log writes them."""
        where, _ = _layout(type(self))
        return {k: json_value(v) for n, k in where if (v := getattr(self, n)) is not None}

    def __repr__(self) -> str:
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.default is not MISSING and value == f.default:
                continue
            parts.append(f"{f.name}={value!r}")
        return f"{type(self).__name__}({', '.join(parts)})"

    # -- a read-only mapping view of the JSON, for readers of the old dict events -----------
    # A key is looked up alone (no whole JSON built per read): readers such as the turn
    # report ask an event for several keys each.
    def _item(self, key: object) -> Any:
        """The value the log writes under ``key``, or :data:`_ABSENT`."""
        if not isinstance(key, str):
            return _ABSENT
        if key in _ROLL_KEYS:
            return list(self.dice) if key == "dice" else getattr(self, key)
        if key == "rule":
            return self.rule
        if key == "ruling":
            return self.ruling or _ABSENT
        if key == "manual":
            return True if self.manual else _ABSENT
        name = _attributes(type(self)).get(key)
        if name is None:
            return _ABSENT
        value = getattr(self, name)
        return _ABSENT if value is None else json_value(value)

    def __getitem__(self, key: str) -> Any:
        value = self._item(key)
        if value is _ABSENT:
            raise KeyError(key)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        value = self._item(key)
        return default if value is _ABSENT else value

    def __contains__(self, key: object) -> bool:
        return self._item(key) is not _ABSENT

    def keys(self) -> Iterator[str]:
        return iter(self.to_json())

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_json())

    def __len__(self) -> int:
        return len(self.to_json())


#: what the mapping view answers for a key the event's JSON does not hold
_ABSENT: Any = object()
#: the log keys of the roll fields that are always written, as they are named
_ROLL_KEYS = frozenset(("step", *ROLL_FIELDS))
_ATTRIBUTES: dict[type[Event], dict[str, str]] = {}


def _attributes(cls: type[Event]) -> dict[str, str]:
    """A class's own fields by their log key (``from`` -> ``from_``), computed once."""
    hit = _ATTRIBUTES.get(cls)
    if hit is None:
        where, outcome = _layout(cls)
        hit = _ATTRIBUTES[cls] = {key: name for name, key in (*where, *outcome)}
    return hit


_COMPARED: dict[type[Event], tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _compared(cls: type[Event]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the fields equality compares, the fields the hash takes) of a class, in order, as
    the dataclass picks them; computed once."""
    hit = _COMPARED.get(cls)
    if hit is None:
        fs = fields(cls)
        hit = _COMPARED[cls] = (
            tuple(f.name for f in fs if f.compare),
            tuple(f.name for f in fs if (f.compare if f.hash is None else f.hash)),
        )
    return hit


_LAYOUTS: dict[type[Event], tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]] = {}
_BASE = frozenset(f.name for f in fields(Event))


def _layout(
    cls: type[Event],
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """(where fields, outcome fields) of a class as (attribute, log key), computed once."""
    hit = _LAYOUTS.get(cls)
    if hit is None:
        own = [f.name for f in fields(cls) if f.name not in _BASE]
        unknown = set(cls.outcome) - set(own)
        if unknown:
            raise TypeError(f"{cls.__name__}.outcome names no field: {sorted(unknown)}")
        where = tuple((n, json_key(n)) for n in own if n not in cls.outcome)
        outcome = tuple((n, json_key(n)) for n in cls.outcome)
        hit = _LAYOUTS[cls] = (where, outcome)
    return hit


def _make_init(cls: type[Event]) -> Any:
    """The ``__init__`` ``@dataclass(frozen=True, kw_only=True)`` writes for ``cls``: every
    field a keyword argument (with its default, if any), set in field order past the
    class's frozen ``__setattr__``."""
    args: list[str] = []
    body: list[str] = []
    env: dict[str, Any] = {"__set": object.__setattr__}
    for k, f in enumerate(fields(cls)):
        if f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: an event field takes no default_factory")
        if f.default is MISSING:
            args.append(f.name)
        else:
            env[f"__default_{k}"] = f.default
            args.append(f"{f.name}=__default_{k}")
        body.append(f"    __set(self, {f.name!r}, {f.name})")
    star = "*, " if args else ""
    src = f"def __init__(self, {star}{', '.join(args)}):\n" + ("\n".join(body) or "    pass")
    exec(src, env)  # the source is made above, from the class's fields
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def event_classes(namespace: dict[str, Any]) -> tuple[type[Event], ...]:
    """The event classes among a module's names (a game's whole set, e.g. for its tests)."""
    return tuple(
        v for v in namespace.values() if isinstance(v, type) and issubclass(v, Event) and v.rule
    )
