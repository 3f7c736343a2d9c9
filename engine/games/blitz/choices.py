"""The orders a unit can take now, for the umpire's list (BLITZ!'s orders of §7).

:func:`order_choices` proposes each kind of order with the targets that make sense now (the
fires in range for a stream, the casualties for a rescue, the water for a pump...), checks
each with the rules (:func:`~.orders.check.check`) and keeps the reason of a refusal, so the
umpire sees what a unit may do and, for what it may not, the rule that forbids it. Moves are
given by dragging the unit on the map (:func:`move_choice`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...board.model import FeatureType, Location, place
from ...core.turn import TurnContext
from .orders.check import KINDS, Order, OrderError, check
from .state import GameState


@dataclass(frozen=True)
class Choice:
    """An order the umpire may pick; ``refused`` holds the rule and reason when the rules
    forbid it now (None: allowed)."""

    order: Order
    label: str
    refused: str | None = None


def _try(ctx: TurnContext, state: GameState, order: Order, label: str) -> Choice:
    try:
        check(ctx, state, order)
    except OrderError as exc:
        return Choice(order, label, str(exc))
    return Choice(order, label)


def move_choice(ctx: TurnContext, state: GameState, uid: str, to: Location) -> Choice:
    """A move of ``uid`` to ``to`` (a unit dragged on the map), checked."""
    return _try(ctx, state, Order(uid, "move", to=to), f"move to {place(to)}")


def _best(choices: list[Choice], kind: str, uid: str, fallback: str) -> list[Choice]:
    """The allowed choices of one kind; when none is allowed, one refused entry that says
    why (the first refusal, or ``fallback`` when there was nothing to try)."""
    allowed = [c for c in choices if c.refused is None]
    if allowed:
        return allowed
    if choices:
        return [Choice(choices[0].order, kind.replace("_", " "), choices[0].refused)]
    return [Choice(Order(uid, kind), kind.replace("_", " "), fallback)]


def order_choices(ctx: TurnContext, state: GameState, uid: str) -> list[Choice]:
    """Every kind of order for unit ``uid``: its allowed forms, or why it is refused."""
    u = state.units.get(uid)
    if u is None:
        return [Choice(Order(uid, "rest"), "orders", f"orders: there is no unit {uid!r}")]
    if not u.in_play or u.loc is None:
        why = "is out of the game" if u.status != "ok" else f"arrives on turn {u.arrives}"
        return [Choice(Order(uid, "rest"), "orders", f"orders: {uid} {why}")]
    out: list[Choice] = []
    out.append(Choice(Order(uid, "move"), "move: drag the unit to where its miniature went", None))
    fires = sorted(state.fire)
    streams = [_try(ctx, state, Order(uid, "stream", at=loc), f"stream on {place(loc)}")
               for loc in fires]  # fmt: skip
    out += _best(streams, "stream", uid, "§9: a stream is played on a burning location")
    near: set[Location] = set(state.embers)
    for loc in fires:
        near.update(n for n in ctx.graph.horizontal(loc) if n not in state.fire)
    damps = [_try(ctx, state, Order(uid, "damp_down", at=loc), f"damp down {place(loc)}")
             for loc in sorted(near)]  # fmt: skip
    out += _best(damps, "damp_down", uid, "§4: nothing near a fire to damp down")
    sources = ["tank", "hydrant"]
    sources += sorted({f"open:{f.area}" for f in ctx.scenario.features
                       if f.type is FeatureType.WATER})  # fmt: skip
    sources += sorted(f"dam:{d.id}" for d in state.units.values() if "dam" in d.type)
    conns = [_try(ctx, state, Order(uid, "connect", source=s), f"connect to {s}")
             for s in sources]  # fmt: skip
    out += _best(conns, "connect", uid, "§8: no water source")
    buried = sorted({c.loc for c in state.casualties if c.status in ("buried", "located")})
    rescues = [_try(ctx, state, Order(uid, "rescue", at=loc), f"rescue at {place(loc)}")
               for loc in buried]  # fmt: skip
    out += _best(rescues, "rescue", uid, "§9: no buried casualty on the map")
    pumps = sorted(p.id for p in state.units.values() if p.moves == "carried" and p.in_play)
    carries = [_try(ctx, state, Order(uid, "carry", pump=p), f"carry {p}") for p in pumps]
    out += _best(carries, "carry", uid, "§11: no pump a team can carry")
    out.append(_try(ctx, state, Order(uid, "set_down"), "set down the pump"))
    out.append(_try(ctx, state, Order(uid, "rest"), "rest"))
    out.append(_try(ctx, state, Order(uid, "withdraw"), "withdraw"))
    for kind in ("lay_hose", "pitch_ladder"):
        out.append(Choice(Order(uid, kind), kind.replace("_", " "),
                          "orders: give it in an orders file (it needs a path or a face)"))  # fmt: skip
    assert {c.order.kind for c in out} <= set(KINDS)
    return out
