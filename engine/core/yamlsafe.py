"""A defensive YAML reader for files from strangers.

Builds plain Python data (dict, list, str, int, float, bool, None) straight from the
libyaml *event* stream, remembering where every value came from. Working on events rather
than composed nodes matters for safety, not only speed:

- ``yaml.compose`` with the C loader recurses in C and crashes the interpreter (SIGSEGV) on
  ~200,000 nested ``[``; here depth is a counter and the file is refused at depth 101;
- an alias or an anchor is refused at the first event that carries one, so the 9x9
  "billion laughs" file stops after a few events instead of expanding;
- scalars are resolved by a small YAML 1.2-style resolver: only ``true``/``false`` are
  booleans, so an area called ``NO`` or ``on`` stays a string (YAML 1.1 would read
  booleans), and ``1:20`` or ``2024-01-01`` stay strings too.

Also refused: explicit tags other than the standard scalar/collection ones (``!!python/…``,
``!!binary``, custom ``!tags``), duplicate keys, keys that are not plain text, NaN and
infinite numbers, non-UTF-8 bytes and a second document in one file. Every refusal is a
:class:`~.errors.ScenarioError` with ``FILE:LINE:COL``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from .errors import ScenarioError

MAX_DEPTH = 100
#: Keys whose plain values are always text, even when they look like numbers or
#: booleans (an area id ``012`` stays "012"). Not applied inside ``house_rules``.
TEXT_KEYS = frozenset({"id", "area", "building", "name", "text", "description", "entry", "ruleset"})
#: Lists whose items are ids.
ID_LISTS = frozenset({"rubble", "craters"})

_Loader: Any = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null")} | {"!"}
_MAP_TAGS = {None, _TAG + "map", "!"}
_SEQ_TAGS = {None, _TAG + "seq", "!"}

_INT = re.compile(r"[-+]?[0-9]+\Z")
_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_OCT = re.compile(r"0o[0-7]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_SPECIAL = {
    "": None, "~": None, "null": None, "Null": None, "NULL": None,
    "true": True, "True": True, "TRUE": True,
    "false": False, "False": False, "FALSE": False,
    ".inf": math.inf, ".Inf": math.inf, ".INF": math.inf,
    "+.inf": math.inf, "+.Inf": math.inf, "+.INF": math.inf,
    "-.inf": -math.inf, "-.Inf": -math.inf, "-.INF": -math.inf,
    ".nan": math.nan, ".NaN": math.nan, ".NAN": math.nan,
}  # fmt: skip
#: Characters a YAML reader refuses outright (and that we must escape when writing), as a
#: regular expression's text. Not compiled here (its Unicode ranges cost about 16 ms of
#: start-up): :func:`first_non_printable` finds them with the ASCII class below
NON_PRINTABLE = "[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
#: NON_PRINTABLE's ASCII part, and every character beyond ASCII
_NOT_ASCII_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e]")


def first_non_printable(text: str) -> tuple[int, str] | None:
    """The first character of ``text`` that :data:`NON_PRINTABLE` matches (its index and
    itself), or None: the ASCII class finds the candidates, and one beyond ASCII is
    judged by NON_PRINTABLE's ranges (most files have few such characters, or none)."""
    for m in _NOT_ASCII_PRINTABLE.finditer(text):
        c = m.group()
        cp = ord(c)
        if cp < 0x80 or not (
            cp == 0x85
            or 0xA0 <= cp <= 0xD7FF
            or 0xE000 <= cp <= 0xFEFE
            or 0xFF00 <= cp <= 0xFFFD
            or 0x10000 <= cp <= 0x10FFFF
        ):
            return m.start(), c
    return None


Mark = tuple[int, int]


class MDict(dict[str, Any]):
    """A mapping read from YAML, with the positions of its keys and values."""

    __slots__ = ("kmarks", "mark", "vmarks")

    def __init__(self, mark: Mark) -> None:
        super().__init__()
        self.mark = mark
        self.kmarks: dict[str, Mark] = {}
        self.vmarks: dict[str, Mark] = {}


class MList(list[Any]):
    """A sequence read from YAML, with the position of each item."""

    __slots__ = ("mark", "vmarks")

    def __init__(self, mark: Mark) -> None:
        super().__init__()
        self.mark = mark
        self.vmarks: list[Mark] = []


def resolve_plain(v: str) -> Any:
    """The value of an untagged plain scalar (YAML 1.2 core schema, roughly)."""
    if v in _SPECIAL:
        return _SPECIAL[v]
    c = v[0]
    if c.isdigit() or c in "+-.":
        if _INT.match(v):
            return int(v)
        if _FLOAT.match(v):
            return float(v)
        if _HEX.match(v):
            return int(v[2:], 16)
        if _OCT.match(v):
            return int(v[2:], 8)
    return v


def decode(data: bytes, filename: str) -> str:
    """UTF-8 text of ``data`` (a BOM is dropped); anything else is refused with its place."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise ScenarioError.at(
            filename,
            line,
            col,
            f"not UTF-8 text (byte 0x{data[e.start]:02x}); save the file as UTF-8",
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def parse(text: str, filename: str, *, text_keys: bool = True) -> Any:
    """Plain data of the single YAML document in ``text`` (None for an empty file).

    With ``text_keys`` (scenario and orders files) values of id-like keys (``id``, ``area``,
    …) stay text, so an area called ``012`` is not the number 12; plain data files such as
    rulesets pass False."""
    bad = first_non_printable(text)
    if bad is not None:
        line, col = _line_col(text, bad[0])
        raise ScenarioError.at(
            filename, line, col, f"control character U+{ord(bad[1]):04X} is not allowed"
        )
    try:
        return _build(_events(text), filename, text_keys)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        if e.problem and "nesting depth" in e.problem:
            # Newer libyaml (0.2.6+) caps flow nesting itself while its scanner reads ahead,
            # before our own depth count sees the events: same refusal, same words.
            raise ScenarioError.at(
                filename, line, col, f"nesting deeper than {MAX_DEPTH} levels"
            ) from None
        what = " ".join(x for x in (e.context, e.problem) if x) or "YAML syntax error"
        raise ScenarioError.at(filename, line, col, f"YAML syntax error: {what}") from None
    except yaml.YAMLError as e:  # ReaderError and other unmarked problems
        raise ScenarioError.at(filename, 1, 1, f"unreadable YAML: {e}") from None


def _events(text: str) -> Iterator[Any]:
    """The event stream (one C call per event: cheaper than ``yaml.parse``)."""
    loader = _Loader(text)
    try:
        get = loader.get_event
        while True:
            ev = get()
            if ev is None or type(ev) is StreamEndEvent:
                return
            yield ev
    finally:
        loader.dispose()


def _line_col(text: str, index: int) -> Mark:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


class _Frame:
    __slots__ = ("container", "id_list", "key", "key_mark", "text_keys")

    def __init__(self, container: MDict | MList, text_keys: bool, id_list: bool) -> None:
        self.container = container
        self.key: str | None = None  # pending key of a mapping, waiting for its value
        self.key_mark: Mark = (0, 0)
        self.text_keys = text_keys  # False inside house_rules
        self.id_list = id_list  # a list of ids (start.rubble, start.craters)


def _build(events: Any, filename: str, root_text_keys: bool = True) -> Any:
    def fail(ev: Any, message: str) -> ScenarioError:
        m = ev.start_mark
        return ScenarioError.at(filename, m.line + 1, m.column + 1, message)

    stack: list[_Frame] = []
    root: Any = None
    documents = 0

    def add(value: Any, mark: Mark, ev: Any) -> None:
        nonlocal root
        if not stack:
            root = value
            return
        top = stack[-1]
        c = top.container
        if type(c) is MList:
            c.append(value)
            c.vmarks.append(mark)
            return
        assert type(c) is MDict
        key = top.key
        if key is None:  # this value is a key
            if not isinstance(value, str):
                raise fail(ev, "a key must be plain text, not a list or mapping")
            if value in c:
                first = c.kmarks[value]
                raise fail(ev, f"duplicate key '{value}' (first at line {first[0]})")
            top.key, top.key_mark = value, mark
            return
        c[key] = value
        c.kmarks[key] = top.key_mark
        c.vmarks[key] = mark
        top.key = None

    for ev in events:
        cls = type(ev)
        if cls is ScalarEvent:
            if ev.anchor is not None:
                raise fail(ev, f"YAML anchors (&{ev.anchor}) are not allowed")
            tag = ev.tag
            raw: str = ev.value
            top = stack[-1] if stack else None
            is_key = top is not None and type(top.container) is MDict and top.key is None
            if tag is not None and tag not in _SCALAR_TAGS:
                raise fail(ev, f"YAML tag {_short(tag)} is not allowed")
            if is_key:
                value: Any = raw
            elif tag is None and ev.implicit[0]:
                value = _plain_value(raw, top)
            elif tag is None or tag in (_TAG + "str", "!"):
                value = raw
            else:
                value = _tagged(raw, tag)
                if value is _BAD:
                    raise fail(ev, f"{raw!r} is not a valid {_short(tag)} value")
            if type(value) is float and not math.isfinite(value):
                raise fail(ev, f"{raw!r} is not a finite number (NaN and infinity are refused)")
            m = ev.start_mark
            add(value, (m.line + 1, m.column + 1), ev)
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            if ev.anchor is not None:
                raise fail(ev, f"YAML anchors (&{ev.anchor}) are not allowed")
            is_map = cls is MappingStartEvent
            if ev.tag not in (_MAP_TAGS if is_map else _SEQ_TAGS):
                raise fail(ev, f"YAML tag {_short(ev.tag)} is not allowed")
            if len(stack) >= MAX_DEPTH:
                raise fail(ev, f"nesting deeper than {MAX_DEPTH} levels")
            if stack and type(stack[-1].container) is MDict and stack[-1].key is None:
                raise fail(ev, "a key must be plain text, not a list or mapping")
            m = ev.start_mark
            mark = (m.line + 1, m.column + 1)
            container: MDict | MList = MDict(mark) if is_map else MList(mark)
            text_keys, id_list = root_text_keys, False
            if stack:
                parent = stack[-1]
                text_keys = parent.text_keys and not (
                    len(stack) == 1 and parent.key == "house_rules"
                )
                id_list = not is_map and text_keys and parent.key in ID_LISTS
            stack.append(_Frame(container, text_keys, id_list))
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            done = stack.pop().container
            add(done, done.mark, ev)
        elif cls is AliasEvent:
            raise fail(ev, f"YAML aliases (*{ev.anchor}) are not allowed")
        elif cls is DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise fail(ev, "only one YAML document per file")
    return root


def _plain_value(raw: str, top: _Frame | None) -> Any:
    if (
        top is not None
        and top.text_keys
        and raw not in ("", "~", "null", "Null", "NULL")
        and (top.id_list or (type(top.container) is MDict and top.key in TEXT_KEYS))
    ):
        return raw
    return resolve_plain(raw)


_BAD = object()


def _tagged(raw: str, tag: str) -> Any:
    value = resolve_plain(raw) if raw else None
    kind = tag[len(_TAG) :]
    if kind == "int":
        return value if type(value) is int else _BAD
    if kind == "float":
        return float(value) if isinstance(value, int | float) and type(value) is not bool else _BAD
    if kind == "bool":
        return value if type(value) is bool else _BAD
    return None if value is None else _BAD  # null


def _short(tag: str | None) -> str:
    if tag and tag.startswith(_TAG):
        return "!!" + tag[len(_TAG) :]
    return str(tag)


def position(root: Any, path: tuple[str | int, ...], *, key: bool = False) -> Mark:
    """(line, col) of the value at ``path`` in data from :func:`parse`.

    Path elements that are not in the data (a pydantic union tag, a missing key) are
    skipped, so the answer is the closest enclosing value. With ``key=True`` the last
    element's key position is given instead of its value's.
    """
    node = root
    pos: Mark = getattr(root, "mark", (1, 1))
    last = len(path) - 1
    for i, p in enumerate(path):
        if isinstance(node, dict) and isinstance(p, str) and p in node:
            dmarks: dict[str, Mark] = getattr(node, "kmarks" if key and i == last else "vmarks", {})
            child = node[p]
            pos = dmarks[p] if p in dmarks else getattr(child, "mark", pos)
            node = child
        elif isinstance(node, list) and type(p) is int and 0 <= p < len(node):
            child = node[p]
            marks = getattr(node, "vmarks", [])
            pos = marks[p] if len(marks) == len(node) else getattr(child, "mark", pos)
            node = child
    return pos
