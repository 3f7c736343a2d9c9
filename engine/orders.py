"""Player orders (§7, R-9): an API and an orders file for ``fireground simulate --orders``.

An order names a unit and what it is to do: ``move``, ``pitch_ladder``, ``lay_hose``,
``connect``, ``stream``, ``damp_down``, ``rescue``, ``rest``, ``withdraw``, ``carry`` (a fire
team picks up the wheelbarrow pump ``pump`` where it stands and, with ``to``, carries it
there at foot speed) or ``set_down`` (it puts the pump down where it stands and, with
``source``, connects it to water).
:func:`give_order` checks it against the state now and raises :class:`OrderError` naming the
rule it breaks (the state is left unchanged); an accepted order waits in the state and takes
effect at step 6 of the next turn when the officer stands within one area of the unit, or a
turn later when a messenger must carry it (R-9). It is checked again when it takes effect.
A unit keeps a player's order until it is done (arrived, the fire out, the rest over), then
goes back to its standing orders.

The orders file (YAML or JSON)::

    orders:
      - {turn: 1, unit: E1, order: move, to: R3}
      - {turn: 2, unit: E1, order: connect, source: hydrant}
      - {turn: 2, unit: E1.1, order: lay_hose, path: [R3, S1], at: {area: S2, level: 1}}
      - {turn: 5, unit: E1.1, order: stream, at: {area: S2, level: 0}}
      - {turn: 5, unit: E1.2, order: carry, pump: WB1, to: S4}
      - {turn: 6, unit: E1.2, order: set_down, source: hydrant}

A location is ``AREA`` (level 0), ``[AREA, LEVEL]`` or ``{area: AREA, level: LEVEL}``.
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .errors import Diagnostic, ScenarioError
from .rules import movement as mv
from .rules import reach
from .scenario import AreaKind, Location
from .state import GameState
from .turn import TurnContext
from .units import STAND, UnitState
from .yamlsafe import Mark, decode, parse

KINDS = (
    "move", "pitch_ladder", "lay_hose", "connect", "stream", "damp_down", "rescue", "rest",
    "withdraw", "carry", "set_down",
)  # fmt: skip
MESSENGERS = frozenset({"messenger_boy", "despatch_rider"})


class OrderError(ValueError):
    """An order the rules do not allow; ``rule`` names the rule or ruling it breaks."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(f"{rule}: {message}")


@dataclass(frozen=True)
class Order:
    unit: str
    kind: str
    turn: int | None = None  # the turn it is written (orders file); None: now
    to: Location | None = None
    at: Location | None = None
    path: tuple[Location, ...] = ()
    source: str | None = None
    face: str | None = None
    pump: str | None = None
    where: str = field(default="", compare=False)  # FILE:LINE:COL of an order from a file

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in asdict(self).items() if v not in (None, (), "")}
        if self.path:
            d["path"] = [list(p) for p in self.path]
        for k in ("to", "at"):
            if k in d:
                d[k] = list(d[k])
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Order:
        def loc(v: Any) -> Location | None:
            return None if v is None else (str(v[0]), int(v[1]))

        return Order(
            d["unit"], d["kind"], d.get("turn"), loc(d.get("to")), loc(d.get("at")),
            tuple((str(a), int(b)) for a, b in d.get("path", [])), d.get("source"),
            d.get("face"), d.get("pump"), d.get("where", ""),
        )  # fmt: skip


# -- the API ---------------------------------------------------------------------------------
def give_order(
    ctx: TurnContext, state: GameState, order: Order, *, during_turn: bool = False
) -> int:
    """Check ``order`` now and queue it; the turn whose step 6 carries it out (R-9).

    Between turns (the default) an order from the officer on the spot takes effect in the
    next turn's step 6, one by messenger a turn later; given during a turn's step 6
    (``during_turn``, as the orders file does) the officer's takes effect at once.
    Raises :class:`OrderError` (state unchanged) when the rules do not allow it.
    """
    u = _unit(state, order)
    check(ctx, state, order)
    delay = delivery_delay(ctx, state, u)
    due = state.turn + (0 if during_turn else 1) + delay
    pending: list[dict[str, Any]] = state.extra.setdefault("pending_orders", [])
    pending.append({**order.to_dict(), "due": due})
    return due


def delivery_delay(ctx: TurnContext, state: GameState, u: UnitState) -> int:
    """R-9: 0 with the officer within one area, 1 by messenger; else OrderError."""
    assert u.loc is not None
    near = reach.area_distances(ctx, u.loc[0], 1)
    officers = [o for o in state.units.values() if o.type == "officer" and o.in_play]
    if any(o.loc is not None and o.loc[0] in near for o in officers):
        return 0
    if any(m.type in MESSENGERS and m.in_play for m in state.units.values()):
        return 1
    raise OrderError(
        "R-9", f"no officer within one area of {u.id} and no messenger to carry the order"
    )


def _unit(state: GameState, order: Order) -> UnitState:
    u = state.units.get(order.unit)
    if u is None:
        raise OrderError("orders", f"there is no unit {order.unit!r}")
    if not u.in_play or u.loc is None:
        why = "is out of the game" if u.status != "ok" else f"arrives on turn {u.arrives}"
        raise OrderError("orders", f"{u.id} {why}")
    if order.kind not in KINDS:
        raise OrderError("orders", f"unknown order {order.kind!r}; one of {', '.join(KINDS)}")
    return u


def _need(order: Order, name: str) -> Any:
    value = getattr(order, name)
    if value in (None, ()):
        raise OrderError("orders", f"a {order.kind} order needs {name!r}")
    return value


def _exists(ctx: TurnContext, loc: Location) -> None:
    if loc[0] not in ctx.scenario.area_by_id or loc[1] not in ctx.scenario.levels_of(loc[0]):
        raise OrderError("§1", f"there is no location {loc[0]} level {loc[1]}")


def check(ctx: TurnContext, state: GameState, order: Order) -> None:
    """Raise :class:`OrderError` unless the rules allow ``order`` in ``state`` now."""
    u = _unit(state, order)
    assert u.loc is not None
    k = order.kind
    if k == "move":
        to = _need(order, "to")
        _exists(ctx, to)
        if u.kind == STAND:
            if to in state.fire:
                raise OrderError("§4", "no unit may enter a burning location")
            dist, _ = reach.foot_search(ctx, state, u.loc, goal=to)
            if to not in dist:
                raise OrderError("§7", f"{u.id} cannot reach {to[0]} level {to[1]} on foot")
        else:
            if u.moves == "carried":
                raise OrderError("§11", f"{u.id} is carried by a fire team, not driven")
            if u.moves == "towed":
                raise OrderError("§7", f"{u.id} moves only behind its towing vehicle")
            if mv.tied_down(state, u):
                raise OrderError("§7", f"{u.id} must take up its hoses and ladders first")
            if reach.area_kind(ctx, to[0]) is not AreaKind.STREET:
                raise OrderError("§7", "vehicles drive on streets only")
            if to[0] not in reach.road_routes(ctx, state, u.loc[0]):
                raise OrderError("§7", f"no clear street route from {u.loc[0]} to {to[0]}")
    elif k == "pitch_ladder":
        why = mv.can_pitch(ctx, state, u, _need(order, "face"))
        if why is not None:
            raise OrderError(why.split(":")[0], why.split(": ", 1)[-1])
    elif k == "lay_hose":
        _check_lay(ctx, state, u, order)
    elif k == "connect":
        src = _source(u, _need(order, "source"))
        why = mv.connect_problem(ctx, state, u, src)
        if why is not None:
            raise OrderError(why.split(":")[0], why.split(": ", 1)[-1])
    elif k in ("stream", "damp_down"):
        at = _need(order, "at")
        _exists(ctx, at)
        h = state.hoses.get(u.hose or "")
        if h is None or h.plan or u.loc != h.branch:
            raise OrderError("§9", f"{u.id} has no laid hose line at its branch")
        _check_target(ctx, h.branch, at)
        if k == "stream" and at == h.branch:
            raise OrderError("§4", "the crew cannot stand in the fire it plays on")
        if k == "stream" and at not in state.fire:
            raise OrderError("§9", "a stream is played on a burning location (damp_down else)")
        if k == "damp_down" and at in state.fire:
            raise OrderError("§4", "damping down is for a location that is not burning")
    elif k == "rescue":
        at = _need(order, "at")
        from .rules.rescue import SEARCHERS, root_type

        if u.kind != STAND or root_type(state, u) not in SEARCHERS:
            raise OrderError("§9", f"{u.id} is not a rescue team")
        if not any(c.loc == at and c.status in ("buried", "located") for c in state.casualties):
            raise OrderError("§9", f"no buried casualty at {at[0]} level {at[1]}")
        if at in state.fire:
            raise OrderError("§9", "rescue starts only where the fire is out")
    elif k == "rest":
        if u.kind != STAND:
            raise OrderError("§10", "only personnel stands rest")
    elif k == "carry":
        _check_carry(ctx, state, u, order)
    elif k == "set_down":
        _check_set_down(ctx, state, u, order)
    elif k == "withdraw":
        if u.kind != STAND and mv.tied_down(state, u):
            raise OrderError("§7", f"{u.id} must take up its hoses and ladders first")
        if (
            u.kind != STAND
            and order.to is not None
            and order.to[0] not in reach.road_routes(ctx, state, u.loc[0])
        ):
            raise OrderError("§7", f"no clear street route to {order.to[0]}")


def _check_carry(ctx: TurnContext, state: GameState, u: UnitState, order: Order) -> None:
    pid = _need(order, "pump")
    pump = state.units.get(pid)
    if pump is None:
        raise OrderError("orders", f"there is no pump {pid!r}")
    if pump.extra.get("carried_by") != u.id:  # already carrying it: just a new destination
        why = mv.pick_up_problem(state, u, pump)
        if why is not None:
            raise OrderError(why.split(":")[0], why.split(": ", 1)[-1])
    if order.to is not None:
        assert u.loc is not None
        _exists(ctx, order.to)
        if order.to in state.fire:
            raise OrderError("§4", "no unit may enter a burning location")
        dist, _ = reach.foot_search(ctx, state, u.loc, goal=order.to)
        if order.to not in dist:
            raise OrderError("§7", f"{u.id} cannot reach {order.to[0]} level {order.to[1]} on foot")


def _check_set_down(ctx: TurnContext, state: GameState, u: UnitState, order: Order) -> None:
    pump = mv.carried_pump(state, u) if u.kind == STAND else None
    if pump is None:
        raise OrderError("§11", f"{u.id} carries no pump")
    if order.source is not None:
        ground = pump.copy()  # as it will be once down: ready, hose from the team's appliance
        ground.loc, ground.deployed = u.loc, True
        ground.extra.pop("carried_by", None)
        ground.extra["stock"] = u.parent
        why = mv.connect_problem(ctx, state, ground, _source(ground, order.source))
        if why is not None:
            raise OrderError(why.split(":")[0], why.split(": ", 1)[-1])


def _source(u: UnitState, src: str) -> str:
    if src == "hydrant" and u.loc is not None:
        return f"hydrant:{u.loc[0]}"
    return src


def _check_lay(ctx: TurnContext, state: GameState, u: UnitState, order: Order) -> None:
    path = list(_need(order, "path"))
    if u.kind != STAND or u.parent is None:
        raise OrderError("§7", f"{u.id} is not a fire team")
    if mv.carried_pump(state, u) is not None:
        raise OrderError("§11", f"{u.id} must set its pump down before laying hose")
    stock = state.units[u.parent]
    pump = state.units.get(order.pump or "") if order.pump else None
    if order.pump and pump is None:
        raise OrderError("orders", f"there is no pump {order.pump!r}")
    pump = pump or _home_pump(state, stock)
    if pump is None or pump.pumps <= 0 or not pump.in_play:
        raise OrderError("§8", f"{u.id} has no pump to feed a line")
    if not pump.deployed:
        raise OrderError("§7", f"{pump.id} is not deployed yet")
    for loc in path:
        _exists(ctx, loc)
        if loc in state.fire:
            raise OrderError("§4", "no unit may enter a burning location")
    if path[0] != pump.loc:
        raise OrderError("§7", f"a line starts at its pump ({pump.id} stands in {pump.loc})")
    if u.loc != path[0]:
        raise OrderError("§7", "a fire team must be at the end of the line it lays")
    for a, b in itertools.pairwise(path):
        if reach.link_between(ctx, state, a, b) is None:
            raise OrderError("§7", f"the hose cannot run from {a} to {b} (not neighbours)")
    if mv.pump_capacity(state, pump) <= 0:
        raise OrderError("§8", f"every delivery pump of {pump.id} already feeds a line")
    if mv.path_lengths(ctx, path) > stock.hose_left:
        raise OrderError(
            "§11", f"the line needs {mv.path_lengths(ctx, path)} lengths, "
            f"{stock.id} has {stock.hose_left}",
        )  # fmt: skip
    if order.at is not None:
        _exists(ctx, order.at)
        _check_target(ctx, path[-1], order.at)


def _check_target(ctx: TurnContext, branch: Location, at: Location) -> None:
    """A stream's target: in range of the branch (its own location counts, as range 1) and
    not water, which neither burns nor takes damp."""
    if reach.area_kind(ctx, at[0]) is AreaKind.WATER:
        raise OrderError("§4", "water neither burns nor needs damping down")
    if reach.stream_range(ctx, branch, at) is None:
        raise OrderError("§9", "beyond 3 areas (levels included) a stream has no effect")


def _home_pump(state: GameState, stock: UnitState) -> UnitState | None:
    from .autopilot import pump_of

    p = pump_of(state, stock)
    return p if p.pumps > 0 else None


# -- carrying orders out (step 6) ------------------------------------------------------------
def apply_due(ctx: TurnContext, state: GameState) -> None:
    """Step 6: orders due now take effect (checked again); standing player orders go on."""
    book: OrderBook | None = ctx.cache.get("order_book")
    if book is not None:
        _give_from_book(ctx, state, book)
    pending: list[dict[str, Any]] = state.extra.get("pending_orders", [])
    due = [d for d in pending if d["due"] <= state.turn]
    state.extra["pending_orders"] = [d for d in pending if d["due"] > state.turn]
    for d in due:
        order = Order.from_dict({k: v for k, v in d.items() if k != "due"})
        try:
            check(ctx, state, order)
        except OrderError as exc:
            ctx.note("order", unit=order.unit, order=order.kind, refused=str(exc))
            continue
        ctx.note("order", unit=order.unit, order=order.kind)
        start(ctx, state, order)
    for uid in sorted(state.units):
        u = state.units[uid]
        if u.order is not None and u.in_play:
            carry_on(ctx, state, u)
        elif u.order is not None:
            u.order = None


def start(ctx: TurnContext, state: GameState, order: Order) -> None:
    u = state.units[order.unit]
    k = order.kind
    u.order = order.to_dict()
    if k == "pitch_ladder":
        mv.pitch_ladder(ctx, state, u, order.face or "")
        u.order = None
    elif k == "connect":
        mv.connect(ctx, state, u, _source(u, order.source or "tank"))
        u.order = None
    elif k == "lay_hose":
        stock = state.units[u.parent or ""]
        pump = state.units.get(order.pump or "") or _home_pump(state, stock)
        assert pump is not None
        mv.start_hose(ctx, state, [u], pump, list(order.path), order.at, stock)
    elif k in ("stream", "damp_down"):
        h = state.hoses[u.hose or ""]
        h.target = order.at
        u.task = "fight" if k == "stream" else "damp"
    elif k == "rest":
        mv.leave_hose(state, u)
        u.task = "rest"
    elif k == "withdraw":
        line = state.hoses.get(u.hose or "") if u.kind == STAND else None
        if line is not None:
            mv.recover_hose(ctx, state, line)
        u.task = "withdraw"
    elif k == "rescue":
        u.task = "move"
    elif k == "carry":
        pump = state.units[order.pump or ""]
        if pump.extra.get("carried_by") != u.id:
            mv.pick_up(ctx, state, u, pump)
        if order.to is None:
            u.order = None
    elif k == "set_down":
        pump = mv.carried_pump(state, u)
        assert pump is not None
        mv.set_down(ctx, state, pump)
        if order.source is not None:
            mv.connect(ctx, state, pump, _source(pump, order.source))
        u.order = None


def carry_on(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    """One turn of a player's order in force; clears it when done."""
    assert u.order is not None and u.loc is not None
    o = Order.from_dict(u.order)
    k = o.kind
    done = False
    if k in ("move", "carry") and o.to is not None:
        if u.kind == STAND:
            if u.loc != o.to and not mv.acted(state, u):
                u.task = "move"
                mv.walk(ctx, state, u, o.to)
            done = u.loc == o.to
        else:
            done = u.loc[0] == o.to[0] or (
                not _packing(ctx, state, u) and mv.drive(ctx, state, u, o.to[0])
            )
            if done:
                u.extra["hold"] = True  # stays where the player put it while work is in reach
        if done and u.task == "move":
            u.task = "idle"
    elif k == "lay_hose":
        h = state.hoses.get(u.hose or "")
        done = h is None or (not h.plan and (h.target is None or h.target not in state.fire))
    elif k in ("stream", "damp_down"):
        h = state.hoses.get(u.hose or "")
        done = h is None or h.target != o.at or (k == "stream" and o.at not in state.fire)
    elif k == "rest":
        done = u.task != "rest"
    elif k == "rescue" and o.at is not None:
        if u.loc != o.at:
            mv.walk(ctx, state, u, o.at)
        if u.loc == o.at:
            u.task = "rescue"
        done = not any(
            c.loc == o.at and c.status in ("buried", "located") for c in state.casualties
        )
    elif k == "withdraw":
        if u.kind == STAND:
            h = state.hoses.get(u.hose or "")
            if h is None:
                home = state.units.get(u.parent or "")
                goal = o.to or (home.loc if home is not None else None)
                if goal is not None and u.loc != goal:
                    mv.walk(ctx, state, u, goal)
                done = goal is None or u.loc == goal
        else:
            to = o.to[0] if o.to is not None else _nearest_entry(ctx, state, u)
            done = to is None or (not _packing(ctx, state, u) and mv.drive(ctx, state, u, to))
        if done:
            u.task = "idle"
    else:
        done = True
    if done:
        u.order = None


def _packing(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """A vehicle whose pump or dam is set up recovers it before driving (§7: a turn for a
    towed pump, two for a skid pump); whether it is still packing up."""
    if u.task == "stow":
        return True
    if u.deployed and mv.sets_up(ctx, u) and u.task != "deploy":
        return mv.stow(ctx, state, u)
    return False


def _nearest_entry(ctx: TurnContext, state: GameState, u: UnitState) -> str | None:
    assert u.loc is not None
    routes = reach.road_routes(ctx, state, u.loc[0])
    exits = [a for a in mv.entry_areas(ctx) if a in routes]
    return min(exits, key=lambda a: (len(routes[a]), a)) if exits else None


# -- the orders file -------------------------------------------------------------------------
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
    game.ctx.cache["order_book"] = book


def _give_from_book(ctx: TurnContext, state: GameState, book: OrderBook) -> None:
    """A refused order does not stop the game: it is reported on stderr and logged as an
    ``order`` event with ``refused``."""
    import sys

    for order in book.for_turn(state.turn):
        try:
            give_order(ctx, state, order, during_turn=True)
        except OrderError as exc:
            print(f"{order.where}: order refused: {exc}", file=sys.stderr)
            ctx.note("order", unit=order.unit, order=order.kind, refused=str(exc))


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
    if isinstance(v, list) and len(v) == 2 and isinstance(v[0], str) and isinstance(v[1], int):
        return (v[0], v[1])
    if (
        isinstance(v, dict)
        and isinstance(v.get("area"), str)
        and isinstance(v.get("level", 0), int)
        and set(v) <= {"area", "level"}
    ):
        return (v["area"], int(v.get("level", 0)))
    raise err(mark, "a location is AREA, [AREA, LEVEL] or {area: AREA, level: LEVEL}")


__all__ = [
    "KINDS",
    "Order",
    "OrderBook",
    "OrderError",
    "apply_orders",
    "check",
    "give_order",
    "load_orders",
    "loads_orders",
]
