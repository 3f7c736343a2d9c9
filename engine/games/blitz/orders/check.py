"""An order (§7) and its check against the rules now: :class:`Order`, :class:`OrderError`
and :func:`check`, with the kinds of order (the lowest layer of :mod:`.orders`)."""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, field
from typing import Any

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..reach import danger, foot
from ..rules import equipment, hoses, reach, wheelbarrow
from ..rules import movement as mv
from ..rules.lorry import lays_areas, lorry_problem
from ..state import GameState, pump_of
from ..units import STAND, UnitState

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


def ordered_unit(state: GameState, order: Order) -> UnitState:
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
    u = ordered_unit(state, order)
    assert u.loc is not None
    k = order.kind
    if k == "move":
        to = _need(order, "to")
        _exists(ctx, to)
        if u.kind == STAND:
            if to in state.fire:
                raise OrderError("§4", "no unit may enter a burning location")
            dist, _ = foot.foot_search(ctx, state, u.loc, goal=to)
            if to not in dist:
                raise OrderError("§7", f"{u.id} cannot reach {to[0]} level {to[1]} on foot")
        else:
            if u.moves == "carried":
                raise OrderError("§11", f"{u.id} is carried by a fire team, not driven")
            if u.moves == "towed":
                raise OrderError("§7", f"{u.id} moves only behind its towing vehicle")
            if mv.tied_down(state, u):
                raise OrderError("§7", f"{u.id} must take up its hoses and ladders first")
            if danger.area_kind(ctx, to[0]) is not AreaKind.STREET:
                raise OrderError("§7", "vehicles drive on streets only")
            if to[0] not in reach.road_routes(ctx, state, u.loc[0]):
                raise OrderError("§7", f"no clear street route from {u.loc[0]} to {to[0]}")
    elif k == "pitch_ladder":
        why = equipment.can_pitch(ctx, state, u, _need(order, "face"))
        if why is not None:
            raise OrderError(why.split(":")[0], why.split(": ", 1)[-1])
    elif k == "lay_hose" and lays_areas(ctx, u):
        path = list(_need(order, "path"))
        for loc in path:
            _exists(ctx, loc)
        why = lorry_problem(ctx, state, u, lorry_pump(state, order), path, order.at)
        if why is not None:
            raise OrderError(why.split(":")[0], why.split(": ", 1)[-1])
    elif k == "lay_hose":
        _check_lay(ctx, state, u, order)
    elif k == "connect":
        src = source_name(u, _need(order, "source"))
        why = equipment.connect_problem(ctx, state, u, src)
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
        from ..rules.rescue import SEARCHERS, root_type

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
        why = wheelbarrow.pick_up_problem(state, u, pump)
        if why is not None:
            raise OrderError(why.split(":")[0], why.split(": ", 1)[-1])
    if order.to is not None:
        assert u.loc is not None
        _exists(ctx, order.to)
        if order.to in state.fire:
            raise OrderError("§4", "no unit may enter a burning location")
        dist, _ = foot.foot_search(ctx, state, u.loc, goal=order.to)
        if order.to not in dist:
            raise OrderError("§7", f"{u.id} cannot reach {order.to[0]} level {order.to[1]} on foot")


def _check_set_down(ctx: TurnContext, state: GameState, u: UnitState, order: Order) -> None:
    pump = wheelbarrow.carried_pump(state, u) if u.kind == STAND else None
    if pump is None:
        raise OrderError("§11", f"{u.id} carries no pump")
    if order.source is not None:
        ground = pump.copy()  # as it will be once down: ready, hose from the team's appliance
        ground.loc, ground.deployed = u.loc, True
        ground.extra.pop("carried_by", None)
        ground.extra["stock"] = u.parent
        why = equipment.connect_problem(ctx, state, ground, source_name(ground, order.source))
        if why is not None:
            raise OrderError(why.split(":")[0], why.split(": ", 1)[-1])


def lorry_pump(state: GameState, order: Order) -> UnitState | None:
    """The fixed end of a lorry's line: the ``pump`` named, else the first unit with pumps
    (by id, not a stand) standing where the path starts."""
    if order.pump:
        return state.units.get(order.pump)
    if not order.path:
        return None
    return next(
        (p for _, p in sorted(state.units.items())
         if p.in_play and p.pumps > 0 and p.kind != STAND and p.loc == order.path[0]),
        None,
    )  # fmt: skip


def source_name(u: UnitState, src: str) -> str:
    if src == "hydrant" and u.loc is not None:
        return f"hydrant:{u.loc[0]}"
    return src


def _check_lay(ctx: TurnContext, state: GameState, u: UnitState, order: Order) -> None:
    path = list(_need(order, "path"))
    if u.kind != STAND or u.parent is None:
        raise OrderError("§7", f"{u.id} is not a fire team")
    if wheelbarrow.carried_pump(state, u) is not None:
        raise OrderError("§11", f"{u.id} must set its pump down before laying hose")
    stock = state.units[u.parent]
    pump = state.units.get(order.pump or "") if order.pump else None
    if order.pump and pump is None:
        raise OrderError("orders", f"there is no pump {order.pump!r}")
    pump = pump or home_pump(state, stock)
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
        if foot.link_between(ctx, state, a, b) is None:
            raise OrderError("§7", f"the hose cannot run from {a} to {b} (not neighbours)")
    if hoses.pump_capacity(state, pump) <= 0:
        raise OrderError("§8", f"every delivery pump of {pump.id} already feeds a line")
    if hoses.path_lengths(ctx, path) > stock.hose_left:
        raise OrderError(
            "§11", f"the line needs {hoses.path_lengths(ctx, path)} lengths, "
            f"{stock.id} has {stock.hose_left}",
        )  # fmt: skip
    if order.at is not None:
        _exists(ctx, order.at)
        _check_target(ctx, path[-1], order.at)


def _check_target(ctx: TurnContext, branch: Location, at: Location) -> None:
    """A stream's target: in range of the branch (its own location counts, as range 1) and
    not water, which neither burns nor takes damp."""
    if danger.area_kind(ctx, at[0]) is AreaKind.WATER:
        raise OrderError("§4", "water neither burns nor needs damping down")
    if reach.stream_range(ctx, branch, at) is None:
        raise OrderError("§9", "beyond 3 areas (levels included) a stream has no effect")


def home_pump(state: GameState, stock: UnitState) -> UnitState | None:
    p = pump_of(state, stock)
    return p if p.pumps > 0 else None
