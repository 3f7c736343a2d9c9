"""A clear evaluation of a Forest Fire position, for the ``greedy`` and ``search`` players.

:func:`estimate` guesses Fire's final VP from a position, as the sum of what is already
won and what is threatened, each threat weighted by how likely it is to come true:

- ``vp``, the points scored;
- each engine in play standing on a burning square: ``vp.engine`` if its turn is already
  over (Fire destroys it next), else 60% of it (it may still spray or drive off);
- the town: ``vp.town`` times its danger (all of it when a token is on the town at
  Fire's turn, since intensifying the town burns it out; 80% in the Chief's turn), the tokens on and near it (a token ``d``
  squares out counts ``0.6 ** d``, the reach of wind and intensify), over ``burn_out.at``,
  capped at 1;
- each burning forest square: ``vp.square`` times its tokens over ``burn_out.at``;
- a quarter VP for each token in play (up to 12): the fire's future growth;
- less the Chief's means: each water that can reach the fire front by next turn (an
  engine within spray range plus its movement) takes 0.35 tokens of danger off the town
  and 0.2 VP off the estimate (up to the tokens in play); water out of reach a third.

:func:`utility` maps a finished game to the objective both players share (1 for a Fire
total victory, 0.5 marginal, 0 a Chief victory; Fire maximises it, the Chief minimises
it) and an unfinished one to a smooth guess of it from :func:`estimate`.
"""

from __future__ import annotations

import math

from .rules import Rules
from .state import ACT, FIRE_ACTION, LOAD, SPRAY, State


def estimate(st: State, rules: Rules) -> float:
    """Fire's expected final VP, roughly (see the module docstring)."""
    at = max(1, rules.burn_out_at)
    tokens = st.tokens
    ph = st.phase
    chief_phase = ph.kind in (LOAD, ACT, SPRAY)
    e_vp = float(st.vp)
    front = st.leftmost()
    water = 0.0
    for i, e in enumerate(st.engines):
        if e.destroyed:
            continue
        if tokens[e.square - 1]:
            done = chief_phase and i < ph.engine
            e_vp += rules.vp_engine * (1.0 if done else 0.6)
        # water that can reach the fire front by next turn counts in full, the rest a third
        reach = rules.spray_range + max(0, rules.move - e.water)
        water += e.water if front and abs(e.square - front) <= reach else e.water / 3
    pending = ph.left if ph.kind == "place" else 0
    danger = 0.0
    w = 1.0
    for i, t in enumerate(tokens):
        if i and t:
            e_vp += rules.vp_square * min(1.0, t / at)
        danger += t * w
        w *= 0.6
    if pending:
        danger += pending * 0.6 ** max(0, ph.center - 1 - ph.reach)
    # tokens alive are the fire's future: each is worth a little, up to a dozen
    e_vp += 0.25 * min(12, sum(tokens) + pending)
    danger = max(0.0, danger - 0.35 * water)
    e_vp -= 0.2 * min(water, float(sum(tokens) + pending))
    if not st.burnt[0]:
        if tokens[0]:
            # A token on the town when Fire's turn comes is 10 VP: intensify burns it out.
            danger = max(danger, at * (1.0 if ph.kind == FIRE_ACTION else 0.8))
        e_vp += rules.vp_town * min(1.0, danger / at)
    return e_vp


def final_utility(vp: int, rules: Rules) -> float:
    """1 for a Fire total victory, 0.5 for a marginal one, 0 for a Chief victory."""
    if vp >= rules.vp_win:
        return 1.0
    if vp >= rules.vp_marginal:
        return 0.5
    return 0.0


def utility(st: State, rules: Rules) -> float:
    """The shared objective of a position: exact once over, else a logistic guess."""
    if st.over:
        return final_utility(st.vp, rules)
    x = estimate(st, rules)
    return 1.0 / (1.0 + math.exp(-(x - (rules.vp_marginal - 0.5)) / 1.5))


def search_score(st: State, rules: Rules, vp_weight: float) -> float:
    """:func:`utility` plus ``vp_weight`` times Fire's VP (scored, or :func:`estimate`d
    while the game goes on) over ``vp.win``: within a result band, fewer VP to Fire is
    better for the Chief. ``vp_weight`` 0 is :func:`utility` itself."""
    u = utility(st, rules)
    if not vp_weight:
        return u
    x = float(st.vp) if st.over else estimate(st, rules)
    return u + vp_weight * x / max(1, rules.vp_win)
