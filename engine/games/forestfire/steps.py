"""Forest Fire's turn sequence as a step table (spec section 2).

Each phase kind of :class:`~.state.Phase` has one row in :data:`STEP_TABLE`: the side that
decides, the function listing its legal decisions and the function resolving one. Between
decisions the automatic steps run: engines lost (2.1 A), burn-out (2.1 C, FF-3), the end of
a turn and of the game (section 5). Only a spray rolls a die; :func:`outcomes` gives the
exact chances of a decision's results (for search), :func:`apply` rolls the seeded dice and
says what happened as log events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .rules import Rules
from .state import (
    ACT,
    CHIEF,
    FIRE,
    FIRE_ACTION,
    LOAD,
    OVER,
    PLACE,
    SPRAY,
    Action,
    Engine,
    Phase,
    State,
)

Event = dict[str, Any]


class DiceLike(Protocol):
    def die(self) -> int: ...


class IllegalAction(ValueError):
    """A decision that is not among :func:`legal_actions` of the state."""


def engine_id(i: int) -> str:
    return f"E{i + 1}"


# -- starting position -------------------------------------------------------------------


def initial_state(
    rules: Rules,
    tokens: dict[int, int] | None = None,
    engines: list[tuple[int, int]] | None = None,
) -> State:
    """The position before Fire's first turn: ``tokens`` (square -> count, default one
    token on the last square) and ``engines`` ((square, water) each, default all in the
    town, empty). Engines already on fire are lost at once (2.1 A of round 1)."""
    n = rules.squares
    if tokens is None:
        start = rules.fire_square or n
        tokens = {start: rules.fire_tokens}
    counts = [0] * n
    for sq, c in tokens.items():
        counts[sq - 1] += c
    if engines is None:
        engines = [(1, 0)] * rules.engine_count
    st = State(
        tokens=tuple(counts),
        burnt=(False,) * n,
        engines=tuple(Engine(sq, w) for sq, w in engines),
        vp=0,
        round=1,
        phase=Phase(FIRE_ACTION),
    )
    events: list[Event] = []
    if rules.chief_first:
        return _next_engine(st, -1, rules, events)
    return _start_fire_turn(st, rules, events)


# -- the automatic steps -----------------------------------------------------------------


def _end(st: State, why: str) -> State:
    return st._replace(phase=Phase(OVER, why=why))


def _burn(
    tokens: list[int], burnt: list[bool], sq: int, rules: Rules, events: list[Event] | None
) -> int:
    """Burn square ``sq`` out (its tokens removed); the VP it is worth (3., FF-4)."""
    tokens[sq - 1] = 0
    burnt[sq - 1] = True
    vp = rules.vp_town if sq == 1 else rules.vp_square
    if events is not None:
        events.append({"step": "burn_out", "rule": "FF-burn-out", "square": sq, "vp": vp})
    return vp


def _start_fire_turn(st: State, rules: Rules, events: list[Event] | None) -> State:
    """2.1 A: every engine on a square with fire tokens is destroyed (5 VP each)."""
    engines = list(st.engines)
    vp = st.vp
    for i, e in enumerate(engines):
        if not e.destroyed and st.tokens[e.square - 1] > 0:
            engines[i] = e._replace(destroyed=True, water=0)
            vp += rules.vp_engine
            if events is not None:
                events.append(
                    {"step": "engine_lost", "rule": "FF-engines-lost", "side": FIRE,
                     "unit": engine_id(i), "square": e.square, "vp": rules.vp_engine}
                )  # fmt: skip
            if vp >= rules.vp_win:
                return _end(st._replace(engines=tuple(engines), vp=vp), "vp")
    return st._replace(engines=tuple(engines), vp=vp, phase=Phase(FIRE_ACTION))


def _end_fire_turn(
    st: State, tokens: list[int], burnt: list[bool], vp: int, rules: Rules,
    events: list[Event] | None,
) -> State:  # fmt: skip
    """2.1 C (FF-3): squares at ``burn_out.at`` or more burn out, then the optional
    rightmost rule; then the end checks and the Chief's first engine."""
    for i in range(len(tokens)):
        if tokens[i] >= rules.burn_out_at:
            vp += _burn(tokens, burnt, i + 1, rules, events)
            if vp >= rules.vp_win:
                return _end(_set(st, tokens, burnt, vp), "vp")
    if rules.rightmost_at_total and sum(tokens) >= rules.rightmost_at_total:
        right = max(i for i, t in enumerate(tokens) if t) + 1
        vp += _burn(tokens, burnt, right, rules, events)
        if vp >= rules.vp_win:
            return _end(_set(st, tokens, burnt, vp), "vp")
    st = _set(st, tokens, burnt, vp)
    if not any(tokens):
        return _end(st, "no fire")
    if rules.chief_first:  # the Fire turn closes the round
        if st.round >= rules.rounds_max:
            return _end(st, "round cap")
        st = st._replace(round=st.round + 1)
    return _next_engine(st, -1, rules, events)


def _set(st: State, tokens: list[int], burnt: list[bool], vp: int) -> State:
    return st._replace(tokens=tuple(tokens), burnt=tuple(burnt), vp=vp)


def _next_engine(st: State, after: int, rules: Rules, events: list[Event] | None) -> State:
    """The next engine still in play after ``after`` acts; past the last, the Chief's turn
    ends (and with it the round, unless ``rounds.chief_first`` puts Fire's turn last)."""
    if any(st.tokens):
        for i in range(after + 1, len(st.engines)):
            e = st.engines[i]
            if e.destroyed:
                continue
            if e.square == 1 and e.water < rules.capacity:
                return st._replace(phase=Phase(LOAD, engine=i))
            return st._replace(phase=Phase(ACT, engine=i))
    # The Chief's turn is over (with no fire left, what remains of it can change nothing).
    if not any(st.tokens):
        return _end(st, "no fire")
    if rules.chief_first:
        return _start_fire_turn(st, rules, events)
    if st.round >= rules.rounds_max:
        return _end(st, "round cap")
    return _start_fire_turn(st._replace(round=st.round + 1), rules, events)


# -- legal decisions ---------------------------------------------------------------------


def _fire_legal(st: State, rules: Rules) -> list[Action]:
    acts = [Action("wind")]
    burning = [i + 1 for i, t in enumerate(st.tokens) if t]
    acts += [Action("grow", s) for s in burning]
    acts += [Action("intensify", s) for s in burning]
    return acts


def place_squares(st: State, rules: Rules) -> list[int]:
    """Where the next intensify token may go (FF-2: not burnt, within reach, the town
    included; at or beyond ``low`` so that every split has one order)."""
    ph = st.phase
    lo = max(ph.low, ph.center - ph.reach, 1)
    hi = min(ph.center + ph.reach, rules.squares)
    return [s for s in range(lo, hi + 1) if not st.burnt[s - 1]]


def _place_legal(st: State, rules: Rules) -> list[Action]:
    return [Action("place", s) for s in place_squares(st, rules)]


def _load_legal(st: State, rules: Rules) -> list[Action]:
    e = st.engines[st.phase.engine]
    return [Action("load", amount=a) for a in range(rules.capacity - e.water + 1)]


def spray_targets(st: State, e: Engine, rules: Rules) -> list[int]:
    """Squares with fire tokens the engine can spray (FF-5: within range, a die can hit)."""
    out = []
    for s in range(
        max(1, e.square - rules.spray_range), min(rules.squares, e.square + rules.spray_range) + 1
    ):
        if st.tokens[s - 1] and rules.need(abs(s - e.square)) <= 6:
            out.append(s)
    return out


def move_squares(e: Engine, rules: Rules) -> list[int]:
    """Squares the engine can end its move on (2.2: ``engine.move`` less its water)."""
    reach = max(0, rules.move - e.water)
    return list(range(max(1, e.square - reach), min(rules.squares, e.square + reach) + 1))


def _act_legal(st: State, rules: Rules) -> list[Action]:
    e = st.engines[st.phase.engine]
    acts = [Action("move", s) for s in move_squares(e, rules)]
    if e.water:
        acts += [Action("spray", s) for s in spray_targets(st, e, rules)]
    return acts


def _spray_legal(st: State, rules: Rules) -> list[Action]:
    e = st.engines[st.phase.engine]
    return [Action("stop")] + [Action("spray", s) for s in spray_targets(st, e, rules)]


# -- resolving one decision --------------------------------------------------------------


def _resolve_fire(
    st: State, a: Action, rules: Rules, hit: bool | None, events: list[Event] | None
) -> State:
    tokens = list(st.tokens)
    burnt = list(st.burnt)
    vp = st.vp
    if a.kind == "wind":  # FF-1
        left = st.leftmost()
        placed = []
        for k in range(1, rules.wind_squares + 1):
            s = left - k
            if s >= 1 and not burnt[s - 1]:
                tokens[s - 1] += 1
                placed.append(s)
        if events is not None:
            events.append({"step": "action", "rule": "FF-wind", "side": FIRE, "square": left,
                           "placed": placed})  # fmt: skip
        return _end_fire_turn(st, tokens, burnt, vp, rules, events)
    if a.kind == "grow":
        tokens[a.square - 1] += 1
        if events is not None:
            events.append({"step": "action", "rule": "FF-grow", "side": FIRE, "square": a.square})
        return _end_fire_turn(st, tokens, burnt, vp, rules, events)
    # intensify (FF-2): burn the square first, then place 2n tokens within n
    n = tokens[a.square - 1]
    if events is not None:
        events.append({"step": "action", "rule": "FF-intensify", "side": FIRE,
                       "square": a.square, "tokens": n, "to_place": 2 * n})  # fmt: skip
    vp += _burn(tokens, burnt, a.square, rules, events)
    st = _set(st, tokens, burnt, vp)
    if vp >= rules.vp_win:
        return _end(st, "vp")
    st = st._replace(phase=Phase(PLACE, left=2 * n, center=a.square, reach=n, low=1))
    if not place_squares(st, rules):
        if events is not None:
            events.append({"step": "tokens_lost", "rule": "FF-intensify", "side": FIRE,
                           "count": 2 * n})  # fmt: skip
        return _end_fire_turn(st, tokens, burnt, vp, rules, events)
    return st


def _resolve_place(
    st: State, a: Action, rules: Rules, hit: bool | None, events: list[Event] | None
) -> State:
    tokens = list(st.tokens)
    tokens[a.square - 1] += 1
    if events is not None:
        events.append({"step": "place", "rule": "FF-intensify", "side": FIRE, "square": a.square})
    ph = st.phase
    if ph.left > 1:
        return st._replace(tokens=tuple(tokens), phase=ph._replace(left=ph.left - 1, low=a.square))
    return _end_fire_turn(st, tokens, list(st.burnt), st.vp, rules, events)


def _resolve_load(
    st: State, a: Action, rules: Rules, hit: bool | None, events: list[Event] | None
) -> State:
    i = st.phase.engine
    e = st.engines[i]
    engines = list(st.engines)
    engines[i] = e._replace(water=e.water + a.amount)
    if events is not None:
        events.append({"step": "load", "rule": "FF-load", "side": CHIEF, "unit": engine_id(i),
                       "water": a.amount, "holds": e.water + a.amount})  # fmt: skip
    return st._replace(engines=tuple(engines), phase=Phase(ACT, engine=i))


def _resolve_act(
    st: State, a: Action, rules: Rules, hit: bool | None, events: list[Event] | None
) -> State:
    i = st.phase.engine
    e = st.engines[i]
    if a.kind == "move":
        if events is not None:
            events.append({"step": "move", "rule": "FF-move", "side": CHIEF, "unit": engine_id(i),
                           "from": e.square, "to": a.square})  # fmt: skip
        engines = list(st.engines)
        engines[i] = e._replace(square=a.square)
        return _next_engine(st._replace(engines=tuple(engines)), i, rules, events)
    if a.kind == "stop":
        if events is not None:
            events.append({"step": "stop", "rule": "FF-spray", "side": CHIEF, "unit": engine_id(i)})
        return _next_engine(st, i, rules, events)
    # spray (FF-5): one water per try, hit or miss
    tokens = list(st.tokens)
    if hit:
        tokens[a.square - 1] -= 1
    engines = list(st.engines)
    e = e._replace(water=e.water - 1)
    engines[i] = e
    st = st._replace(tokens=tuple(tokens), engines=tuple(engines), phase=Phase(SPRAY, engine=i))
    if e.water and spray_targets(st, e, rules):
        return st
    return _next_engine(st, i, rules, events)


@dataclass(frozen=True, slots=True)
class Step:
    """One row of the step table."""

    side: str
    legal: Callable[[State, Rules], list[Action]]
    resolve: Callable[[State, Action, Rules, bool | None, list[Event] | None], State]


#: Phase kind -> who decides, what is legal, how a decision resolves (spec section 2).
STEP_TABLE: dict[str, Step] = {
    FIRE_ACTION: Step(FIRE, _fire_legal, _resolve_fire),  # 2.1 B
    PLACE: Step(FIRE, _place_legal, _resolve_place),  # 2.1 B3, FF-2
    LOAD: Step(CHIEF, _load_legal, _resolve_load),  # 2.2 step 1
    ACT: Step(CHIEF, _act_legal, _resolve_act),  # 2.2 step 2
    SPRAY: Step(CHIEF, _spray_legal, _resolve_act),  # 2.2 spray, FF-5
}


def legal_actions(st: State, rules: Rules) -> list[Action]:
    """Every decision the side to move may take now (empty once the game is over)."""
    if st.phase.kind == OVER:
        return []
    return STEP_TABLE[st.phase.kind].legal(st, rules)


def hit_chance(st: State, a: Action, rules: Rules) -> float:
    """The chance a spray decision removes its token (1 for automatic, 0 if not a spray)."""
    if a.kind != "spray":
        return 1.0
    need = rules.need(abs(a.square - st.engines[st.phase.engine].square))
    if need <= 1:
        return 1.0
    return max(0, 7 - need) / 6


def outcomes(st: State, a: Action, rules: Rules) -> list[tuple[float, State]]:
    """The states a decision leads to with their chances (two for a rolled spray)."""
    step = STEP_TABLE[st.phase.kind]
    if a.kind != "spray":
        return [(1.0, step.resolve(st, a, rules, None, None))]
    p = hit_chance(st, a, rules)
    if p >= 1.0:
        return [(1.0, step.resolve(st, a, rules, True, None))]
    if p <= 0.0:
        return [(1.0, step.resolve(st, a, rules, False, None))]
    return [
        (p, step.resolve(st, a, rules, True, None)),
        (1.0 - p, step.resolve(st, a, rules, False, None)),
    ]


def apply(
    st: State, a: Action, rules: Rules, dice: DiceLike, *, check: bool = True
) -> tuple[State, list[Event]]:
    """Resolve decision ``a`` (rolling ``dice`` for a spray at a distance); the new state
    and the log events of the decision, its roll and the automatic steps it set off."""
    if check and a not in legal_actions(st, rules):
        raise IllegalAction(f"{a!r} is not legal now ({st.phase.kind}, {st.side})")
    events: list[Event] = []
    hit: bool | None = None
    if a.kind == "spray":
        i = st.phase.engine
        dist = abs(a.square - st.engines[i].square)
        need = rules.need(dist)
        dice_rolled: list[int] = []
        if need <= 1:
            hit = True
        else:
            d = dice.die()
            dice_rolled = [d]
            hit = d >= need
        events.append(
            {"step": "spray", "rule": "FF-spray", "side": CHIEF, "unit": engine_id(i),
             "square": a.square, "dice": dice_rolled, "need": need, "distance": dist,
             "success": hit}
        )  # fmt: skip
    new = STEP_TABLE[st.phase.kind].resolve(st, a, rules, hit, events)
    if new.over:
        events.append(
            {"step": "end", "rule": "FF-end", "reason": new.phase.why, "vp": new.vp,
             "result": result_band(new.vp, rules)}
        )  # fmt: skip
    return new, events


# -- result ------------------------------------------------------------------------------

TOTAL, MARGINAL, CHIEF_WIN = "fire total victory", "fire marginal victory", "chief victory"
BANDS = (TOTAL, MARGINAL, CHIEF_WIN)


def result_band(vp: int, rules: Rules) -> str:
    """Section 5: 10+ Fire total victory, 8-9 marginal, else the Chief wins."""
    if vp >= rules.vp_win:
        return TOTAL
    if vp >= rules.vp_marginal:
        return MARGINAL
    return CHIEF_WIN


def play_out(st: State, a: Action, rules: Rules, dice: DiceLike) -> State:
    """:func:`apply` without the log or the legality check (for rollouts)."""
    hit: bool | None = None
    if a.kind == "spray":
        need = rules.need(abs(a.square - st.engines[st.phase.engine].square))
        hit = True if need <= 1 else dice.die() >= need
    return STEP_TABLE[st.phase.kind].resolve(st, a, rules, hit, None)
