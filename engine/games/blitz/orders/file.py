"""The orders file of ``fireground simulate --orders`` (YAML or JSON, described in
:mod:`.orders`): :func:`load_orders` reads it into an :class:`OrderBook`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ....board.model import Location
from ....core.errors import Diagnostic, ScenarioError
from ....core.yamlsafe import Mark, decode, parse
from ..memos import ORDER_BOOK
from .check import KINDS, Order


@dataclass
class OrderBook:
    """Orders from a file, by the turn they are written."""

    orders: list[Order]
    source: str = ""

    def for_turn(self, turn: int) -> list[Order]:
        return [o for o in self.orders if o.turn == turn]


def apply_orders(game: Any, book: OrderBook) -> None:
    """Before each turn (``simulate --orders``): hand the book to the movement step, which
    gives each turn's orders in its step 6, after the arrivals."""
    game.ctx.cache[ORDER_BOOK] = book


def load_orders(path: str | Path) -> OrderBook:
    """Read an orders file; a bad entry raises ScenarioError with FILE:LINE:COL."""
    name = str(path)
    try:
        text = decode(Path(path).read_bytes(), name)
    except OSError as exc:
        raise ScenarioError(
            [Diagnostic(name, 0, 0, f"cannot read orders: {exc.strerror}")]
        ) from exc
    return loads_orders(text, name)


def loads_orders(text: str, name: str = "<orders>") -> OrderBook:
    """Parse orders text (YAML or JSON) with the scenario loader's defensive reader: aliases,
    tags, duplicate keys and deep nesting are refused with FILE:LINE:COL."""
    root = parse(text, name)
    if root is None:
        return OrderBook([], name)

    def err(mark: Mark, msg: str) -> ScenarioError:
        return ScenarioError([Diagnostic(name, mark[0], mark[1], msg)])

    items, items_mark = root, getattr(root, "mark", (1, 1))
    if isinstance(root, dict):
        extra = [k for k in root if k != "orders"]
        if extra:
            raise err(getattr(root, "kmarks", {}).get(extra[0], items_mark),
                      f"unknown key {extra[0]!r} (the file holds 'orders')")  # fmt: skip
        if "orders" not in root:
            raise err(items_mark, "an orders file holds a list under 'orders'")
        items, items_mark = root["orders"], getattr(root, "vmarks", {}).get("orders", items_mark)
    if not isinstance(items, list):
        raise err(items_mark, "'orders' must be a list")
    marks = getattr(items, "vmarks", [])
    out = [
        _order_from_data(v, marks[i] if i < len(marks) else items_mark, name, err)
        for i, v in enumerate(items)
    ]
    return OrderBook(out, name)


def _order_from_data(data: Any, mark: Mark, name: str, err: Any) -> Order:
    if not isinstance(data, dict):
        raise err(mark, "each order is a mapping such as {turn: 1, unit: E1, order: move}")
    kmarks: dict[str, Mark] = getattr(data, "kmarks", {})
    vmarks: dict[str, Mark] = getattr(data, "vmarks", {})

    def at(key: str) -> Mark:
        return vmarks.get(key, mark)

    allowed = {"turn", "unit", "order", "to", "at", "path", "source", "face", "pump"}
    for k in data:
        if k not in allowed:
            raise err(kmarks.get(k, mark), f"unknown key {k!r} in an order")
    for key in ("turn", "unit", "order"):
        if key not in data:
            raise err(mark, f"an order needs {key!r}")
    turn = data["turn"]
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise err(at("turn"), "turn must be a whole number from 1")
    if not isinstance(data["order"], str) or data["order"] not in KINDS:
        raise err(at("order"), f"unknown order {data['order']!r}; one of {', '.join(KINDS)}")

    def loc(key: str) -> Location | None:
        if key not in data:
            return None
        return _loc(data[key], at(key), err)

    path: tuple[Location, ...] = ()
    if "path" in data:
        pv = data["path"]
        if not isinstance(pv, list) or not pv:
            raise err(at("path"), "path must be a list of locations")
        pmarks = getattr(pv, "vmarks", [])
        path = tuple(
            _loc(v, pmarks[i] if i < len(pmarks) else at("path"), err) for i, v in enumerate(pv)
        )
    where = f"{name}:{mark[0]}:{mark[1]}"
    for key in ("unit", "source", "face", "pump"):
        if key in data and not isinstance(data[key], str):
            raise err(at(key), f"{key} must be text")
    return Order(
        data["unit"], data["order"], turn, loc("to"), loc("at"), path, data.get("source"),
        data.get("face"), data.get("pump"), where,
    )  # fmt: skip


def _loc(v: Any, mark: Mark, err: Any) -> Location:
    if isinstance(v, str):
        return (v, 0)
    if (
        isinstance(v, list)
        and len(v) == 2
        and isinstance(v[0], str)
        and isinstance(v[1], int)
        and not isinstance(v[1], bool)
    ):
        return (v[0], v[1])
    if (
        isinstance(v, dict)
        and isinstance(v.get("area"), str)
        and isinstance(v.get("level", 0), int)
        and not isinstance(v.get("level", 0), bool)
        and set(v) <= {"area", "level"}
    ):
        return (v["area"], int(v.get("level", 0)))
    raise err(mark, "a location is AREA, [AREA, LEVEL] or {area: AREA, level: LEVEL}")
