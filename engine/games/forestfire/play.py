"""Playing Forest Fire games: one game with a policy per side, its log, and many games.

:func:`play_game` asks each side's policy for every decision, rolls the seeded
:class:`~fireground.engine.core.dice.Dice` for sprays, and records the turn log of the spec
(section 7): one event per decision and roll, and the state after each turn.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any

from ...core.dice import Dice
from .policies import Policy, make_policy
from .rules import Rules
from .scenario import Setup
from .state import CHIEF, FIRE, State
from .steps import Event, apply, engine_id, initial_state, legal_actions, result_band


@dataclass
class GameRecord:
    """A finished game: the final state, the result and the turn log."""

    final: State
    result: str
    reason: str
    decisions: int
    log: list[dict[str, Any]] = field(default_factory=list)

    @property
    def vp(self) -> int:
        return self.final.vp

    @property
    def rounds(self) -> int:
        return self.final.round


def start_state(setup: Setup, rules: Rules) -> State:
    """The position before Fire's first turn, from the scenario."""
    return initial_state(
        rules,
        tokens=dict(setup.tokens),
        engines=[(e.square, e.water) for e in setup.engines],
    )


def state_view(st: State, setup: Setup) -> dict[str, Any]:
    """The state as the log shows it (spec section 7)."""
    ids = [e.id for e in setup.engines] or [engine_id(i) for i in range(len(st.engines))]
    return {
        "round": st.round,
        "side": st.side,
        "tokens": {str(i + 1): t for i, t in enumerate(st.tokens) if t},
        "burnt": [i + 1 for i, b in enumerate(st.burnt) if b],
        "engines": {
            ids[i]: {"square": e.square, "water": e.water, "destroyed": e.destroyed}
            for i, e in enumerate(st.engines)
        },
        "vp": st.vp,
    }


def policy_seed(seed: int, side: str) -> int:
    """The private seed of a side's policy in a game of ``seed`` (stable across runs)."""
    return (seed * 1_000_003 + zlib.crc32(side.encode())) & 0xFFFFFFFF


def play_game(
    setup: Setup,
    rules: Rules,
    policies: dict[str, str] | dict[str, Policy],
    seed: int,
    *,
    log: bool = False,
    state: State | None = None,
) -> GameRecord:
    """Play one game to its end. ``policies`` maps ``fire`` and ``chief`` to a policy or
    its name; ``log`` keeps the turn log (decisions, rolls, state after each turn)."""
    players: dict[str, Policy] = {}
    for side in (FIRE, CHIEF):
        p = policies[side]
        players[side] = make_policy(p, policy_seed(seed, side)) if isinstance(p, str) else p
    dice = Dice(seed)
    st = state if state is not None else start_state(setup, rules)
    entries: list[dict[str, Any]] = []
    turn: list[Event] = []
    n = 0
    if log:
        entries.append({"round": st.round, "side": "start", "events": [],
                        "state": state_view(st, setup)})  # fmt: skip
    while not st.over:
        side = st.side
        rnd = st.round
        legal = legal_actions(st, rules)
        a = players[side](st, legal, rules)
        st, events = apply(st, a, rules, dice)
        n += 1
        if log:
            turn.extend(_rename(events, setup))
            if st.over or st.side != side or st.round != rnd:
                entries.append({"round": rnd, "side": side, "events": turn,
                                "state": state_view(st, setup)})  # fmt: skip
                turn = []
    return GameRecord(st, result_band(st.vp, rules), st.phase.why, n, entries)


def _rename(events: list[Event], setup: Setup) -> list[Event]:
    """Engine ids as the scenario names them (E1, E2 by default)."""
    ids = {engine_id(i): e.id for i, e in enumerate(setup.engines)}
    if all(k == v for k, v in ids.items()):
        return events
    for ev in events:
        if "unit" in ev:
            ev["unit"] = ids.get(ev["unit"], ev["unit"])
    return events
