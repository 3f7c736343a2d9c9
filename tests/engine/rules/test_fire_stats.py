"""Statistics: every dice table of steps 1-5 and 7 against its exact probability.

Each case plays one rule many times on a tiny map with seeded dice and counts how often the
outcome happens. The count is binomial(n, p) with p exact from the rules; the test allows
4 standard deviations (a false alarm about once in 16,000 cases per check), so a wrong
threshold or modifier (a shift of 1/6 at n = 3000 is more than 10 sigma) is caught.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction as F

import pytest
from test_fire_world import put_unit, setup, world

from fireground.engine.board.model import Wind
from fireground.engine.core.dice import Dice
from fireground.engine.core.turn import TurnContext
from fireground.engine.games.blitz.rules import bombing, damage, fire
from fireground.engine.games.blitz.state import GameState
from fireground.engine.games.blitz.units import STAND, VEHICLE

N = 3000
B00, B01 = ("B00", 0), ("B01", 0)


def check_binomial(k: int, n: int, p: F) -> None:
    if p in (0, 1):
        assert k == n * p
        return
    pf = float(p)
    sigma = math.sqrt(n * pf * (1 - pf))
    assert abs(k - n * pf) <= 4 * sigma, f"{k}/{n} vs p={p} ({(k - n * pf) / sigma:+.1f} sigma)"


def frequency(
    sc,
    run: Callable[[TurnContext, GameState], None],
    outcome: Callable[[GameState, TurnContext], bool],
    prep: Callable[[GameState], None] | None = None,
    n: int = N,
    seed: int = 1,
) -> int:
    ctx, base = setup(sc, Dice(seed))
    if prep:
        prep(base)
    hits = 0
    for _ in range(n):
        st = base.copy()
        ctx.events = []
        ctx.cache.clear()
        run(ctx, st)
        hits += bool(outcome(st, ctx))
    return hits


def caught(loc):
    return lambda st, ctx: loc in st.fire


SPREAD_CASES = {
    # name: (world kwargs, prep, exact probability of B01 catching)
    "plain fire 3": ({"fires": {B00: 3}}, None, F(3, 6)),
    "damp 2": ({"fires": {B00: 3}}, lambda s: s.damp.update({B01: 2}), F(1, 6)),
    "embers": ({"fires": {B00: 2}}, lambda s: s.embers.add(B01), F(3, 6)),
    "hose team": ({"fires": {B00: 3}}, lambda s: put_unit(s, "F", B01, task="fight"), F(2, 6)),
    "strong downwind": ({"fires": {B00: 2}, "wind": Wind("W", True)}, None, F(3, 6)),
    "strong upwind": ({"fires": {B00: 2}, "wind": Wind("E", True)}, None, F(2, 6)),
    "oil": ({"fires": {B00: 1}, "stores": {B01: "oil"}}, None, F(2, 6)),
    "petrol": ({"fires": {B00: 1}, "stores": {B01: "petrol"}}, None, F(2, 6)),
    "wood (normal spread)": ({"fires": {B00: 2}, "stores": {B01: "wood"}}, None, F(2, 6)),
}


@pytest.mark.parametrize("case", sorted(SPREAD_CASES))
def test_spread_probability(case):
    kw, prep, p = SPREAD_CASES[case]
    k = frequency(world(["BB"], **kw), fire.step_spread, caught(B01), prep)
    check_binomial(k, N, p)


def test_damp_loss_probability():
    # fire 3 into damp 2: loses damp when 3 < roll + 2 and roll <= 3, i.e. roll 2 or 3
    k = frequency(
        world(["BB"], fires={B00: 3}),
        fire.step_spread,
        lambda st, ctx: st.pending_damp_loss.get(B01, 0) == 1,
        lambda s: s.damp.update({B01: 2}),
    )
    check_binomial(k, N, F(2, 6))


@pytest.mark.parametrize(
    ("kw", "p"),
    [
        ({"fires": {B00: 2}}, F(1, 6)),
        ({"fires": {B00: 2, B01: 1}}, F(2, 6)),
        ({"fires": {B00: 2, B01: 1}, "stores": {B00: "wood"}}, F(3, 6)),
        ({"fires": {B00: 2}, "stores": {B00: "wood"}}, F(2, 6)),
    ],
)
def test_growth_probability(kw, p):
    k = frequency(world(["BB"], **kw), fire.step_growth, lambda st, ctx: st.fire[B00] == 3)
    check_binomial(k, N, p)


@pytest.mark.parametrize(
    ("stairs", "fire_", "p"),
    [((), 4, F(4, 6)), ((), 5, F(5, 6)), ((), 3, F(0)), (("B00",), 2, F(2, 6))],
)
def test_vertical_spread_probability(stairs, fire_, p):
    sc = world(["B"], levels={"B00": 2}, stairs=stairs, fires={B00: fire_})
    k = frequency(sc, fire.step_spread, caught(("B00", 1)))
    check_binomial(k, N, p)


def test_reignition_probability():
    k = frequency(
        world(["B"]), fire.step_reignite, caught(B00), lambda s: s.embers.add(B00), n=20000
    )
    check_binomial(k, 20000, F(1, 36))


@pytest.mark.parametrize(
    ("rows", "wind", "p"),
    [
        (["BSB"], Wind(), F(1, 6)),
        (["BSSB"], Wind("W", True), F(2, 6)),
        (["BSSB"], Wind("W", False), F(1, 6)),
        (["BSSB"], Wind("E", True), F(0)),
    ],
)
def test_jump_probability(rows, wind, p):
    target = (f"B0{len(rows[0]) - 1}", 0)
    k = frequency(world(rows, wind=wind, fires={B00: 5}), fire.step_spread, caught(target))
    check_binomial(k, N, p)


def test_collapse_roll_probability():
    k = frequency(
        world(["B"], fires={B00: 5}), damage.step_damage, lambda st, ctx: st.damage_at(B00) == 2
    )
    check_binomial(k, N, F(1, 6))


def test_bomb_run_probabilities():
    sc = world(["W"], bombing=True)
    for result, p in (("all_clear", F(3, 36)), ("stick", F(1, 36)), ("nothing", F(32, 36))):
        k = frequency(
            sc,
            bombing.step_bombing,
            lambda st, ctx, r=result: ctx.events[0]["result"] == r,
            n=20000,
        )
        check_binomial(k, 20000, p)


@pytest.mark.parametrize(("he", "p"), [(0, F(3, 6)), (1, F(1, 6)), (2, F(1, 6)), (3, F(1, 6))])
def test_bomb_load_probabilities(he, p):
    k = frequency(
        world(["W"]),
        lambda c, s: bombing.drop_stick(c, s),
        lambda st, ctx, he=he: ctx.events[0]["he"] == he,
    )
    check_binomial(k, N, p)


def test_incendiary_count_by_load():
    ctx, st = setup(world(["W"]), Dice(3))
    seen: dict[int, set[int]] = {}
    for _ in range(300):
        ctx.events = []
        he, inc = bombing.drop_stick(ctx, st)
        seen.setdefault(he, set()).add(inc)
    assert seen == {0: {2, 4, 6}, 1: {0}, 2: {0}, 3: {6}}


def test_r6_uniform_impact_point():
    # table 30 x 10: a building, a hole and a street of equal size
    sc = world(["B.S"])
    ctx, st = setup(sc, Dice(4))
    n, building, redrops = 6000, 0, 0
    for _ in range(n):
        ctx.events = []
        loc = bombing.drop_bomb(ctx, st, "none")
        building += loc == B00
        redrops += ctx.events[0]["redrops"] > 0
    check_binomial(building, n, F(1, 2))
    check_binomial(redrops, n, F(1, 3))


@pytest.mark.parametrize("score", [1, 2, 3, 4, 5])
def test_he_damage_distribution(score):
    # HE on the street S01: the building B00 next to it rolls its new damage
    p = F(2, 6) if score == 5 else F(1, 6)
    k = frequency(
        world(["BS"]),
        lambda c, s: bombing.he_blast(c, s, "S01"),
        lambda st, ctx, sc=score: st.damage_at(B00) == sc,
    )
    check_binomial(k, N, p)


def test_he_personnel_and_equipment_probabilities():
    def prep(s):
        put_unit(s, "F", ("S01", 0), STAND)
        put_unit(s, "E", ("S01", 0), VEHICLE)

    sc = world(["WSS"])
    k = frequency(
        sc, lambda c, s: bombing.he_blast(c, s, "S02"), lambda st, ctx: st.units["F"].in_play, prep
    )
    check_binomial(k, N, F(1, 6))
    k = frequency(
        sc,
        lambda c, s: bombing.he_blast(c, s, "S02"),
        lambda st, ctx: st.units["E"].status == "knocked_out",
        prep,
    )
    check_binomial(k, N, F(3, 6))


@pytest.mark.parametrize(("kind", "p"), [(STAND, F(4, 6)), (VEHICLE, F(1, 6))])
def test_escape_probability(kind, p):
    sc = world(["SS"])
    k = frequency(
        sc,
        lambda c, s: damage.escape(c, s, s.units["U"], ("S00", 0)),
        lambda st, ctx: st.units["U"].in_play,
        lambda s: put_unit(s, "U", ("S00", 0), kind),
    )
    check_binomial(k, N, p)
