"""Rules audit: dice tables and modifier combinations not yet checked statistically by
tests/engine/rules/test_fire_stats.py, test_fight.py or test_rescue.py.

Each check plays the real rule function ``N`` times with seeded dice and compares the count
with the exact probability worked out from blitz-rules.md (a Fraction in the test). The
tolerance is 4 standard deviations of the binomial count (false alarm ~1 in 16,000 per
check); a rule off by one pip moves p by at least 1/6, more than 14 sigma at N = 2000.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F

import pytest
from audit_world import assert_binomial, grid, hose, play, stand

from fireground.engine.board.model import ForceUnit, Wind
from fireground.engine.core.dice import Dice
from fireground.engine.games.blitz.rules import bombing, fatigue, fire, movement, rescue
from fireground.engine.games.blitz.rules import firefighting as ff
from fireground.engine.games.blitz.units import Casualty, HoseLine

N = 2000
B00, B01, B02, B03 = ("B00", 0), ("B01", 0), ("B02", 0), ("B03", 0)


def count(ctx, base, run, outcome, n=N):
    """Play ``run`` on a fresh copy of ``base`` ``n`` times; how often ``outcome`` held."""
    hits = 0
    for _ in range(n):
        st = base.copy()
        ctx.events = []
        run(ctx, st)
        hits += bool(outcome(st))
    return hits


# -- §3 spread: modifiers combined -----------------------------------------------------------
SPREAD = {
    # name: (map, world kwargs, prep, exact P(B01 catches), exact P(B01 loses a damp))
    # fire 3; damp 1 (+1), embers (-1), strong downwind (-1): modified roll <= 3 iff d6 <= 4;
    # a damp loss needs d6 - 1 > 3 (a miss) and d6 - 2 <= 3 (a hit without the damp): d6 = 5
    "damp+embers+downwind": (
        ["BB"],
        {"fires": {B00: 3}, "wind": Wind("W", True)},
        lambda s: (s.damp.update({B01: 1}), s.embers.add(B01)),
        F(4, 6),
        F(1, 6),
    ),
    # fire 3; damp 1 (+1), hose team (+1): catches on 1; damp lost on 2 (2+2 > 3, 2+1 <= 3)
    "damp+hose team": (
        ["BBS"],
        {"fires": {B00: 3}},
        lambda s: (s.damp.update({B01: 1}), stand(s, "F", B01, task="fight")),
        F(1, 6),
        F(1, 6),
    ),
    # fire 2; oil store (-1, R-4), hose team (+1): net 0, d6 <= 2
    "oil+hose team": (
        ["BBS"],
        {"fires": {B00: 2}, "stores": {B01: "oil"}},
        lambda s: stand(s, "F", B01, task="fight"),
        F(2, 6),
        F(0),
    ),
    # fire 1; petrol (-1), embers (-1), damp 2 (+2): net 0 -> d6 <= 1; loss iff d6 - 2 <= 1
    # and d6 > 1, i.e. d6 in 2..3
    "petrol+embers+damp 2": (
        ["BB"],
        {"fires": {B00: 1}, "stores": {B01: "petrol"}},
        lambda s: (s.damp.update({B01: 2}), s.embers.add(B01)),
        F(1, 6),
        F(2, 6),
    ),
}


@pytest.mark.parametrize("case", sorted(SPREAD))
def test_spread_with_modifiers_combined(case):
    rows, kw, prep, p_catch, p_loss = SPREAD[case]
    ctx, base = play(grid(rows, **kw), Dice(sorted(SPREAD).index(case) + 101))
    ctx.step = 1
    prep(base)
    caught = lost = 0
    for _ in range(N):
        st = base.copy()
        ctx.events = []
        fire.step_spread(ctx, st)
        caught += B01 in st.fire
        lost += st.pending_damp_loss.get(B01, 0) == 1
    assert_binomial(caught, N, p_catch)
    assert_binomial(lost, N, p_loss)


# -- with modifiers ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("fire_", "damp", "p"),
    [(5, 1, F(4, 6)), (4, 2, F(2, 6)), (4, 0, F(4, 6))],
)
def test_r1_climb_with_damp(fire_, damp, p):
    sc = grid(["B"], levels={"B00": 2}, fires={B00: fire_})
    ctx, base = play(sc, Dice(200 + 10 * fire_ + damp))
    if damp:
        base.damp[("B00", 1)] = damp
    k = count(ctx, base, fire.step_spread, lambda st: ("B00", 1) in st.fire)
    assert_binomial(k, N, p)


@pytest.mark.parametrize(
    ("prep", "p"),
    [
        (lambda s: s.embers.add(B02), F(2, 6)),  # modified 1 or less: d6 - 1 <= 1
        (lambda s: s.damp.update({B02: 1}), F(0)),  # d6 + 1 <= 1 never
        (lambda s: None, F(1, 6)),
    ],
)
def test_r5_jump_with_modifiers(prep, p):
    ctx, base = play(grid(["BSB"], fires={B00: 5}), Dice(311 + int(p * 6)))
    prep(base)
    k = count(ctx, base, fire.step_spread, lambda st: B02 in st.fire)
    assert_binomial(k, N, p)


# -- §3 embers put out (step 9) --------------------------------------------------------------
def test_embers_out_probability():
    # a fire team at the ember location with water in its line: a 6 on 1d6
    sc = grid(["SBB"], forces=[ForceUnit("E1", "general_appliance", area="S00")])
    ctx, base = play(sc, Dice(41))
    ctx.step = 9
    hose(base, "H1", "E1", [("S00", 0), B01], B02, ["E1.1"])
    base.embers.add(B01)
    k = count(ctx, base, ff.step_firefighting, lambda st: B01 not in st.embers)
    assert_binomial(k, N, F(1, 6))


# -- §5 HE: hose lines next to the blast -------------------------------------------------------
def test_he_cuts_a_hose_line_next_to_it_on_1_to_3():
    ctx, base = play(grid(["WSS"]), Dice(52))
    base.hoses["H1"] = HoseLine("H1", "X", [("S01", 0)], 1)
    k = count(ctx, base, lambda c, s: bombing.he_blast(c, s, "S02"), lambda st: st.hoses["H1"].cut)
    assert_binomial(k, N, F(3, 6))


def test_he_neighbour_street_crater_on_5_or_6():
    ctx, base = play(grid(["SS"]), Dice(53))
    k = count(ctx, base, lambda c, s: bombing.he_blast(c, s, "S00"), lambda st: "S01" in st.craters)
    assert_binomial(k, N, F(2, 6))


# -- R-10 forced exit through the heat test ---------------------------------------------------
def test_r10_forced_exit_probability():
    # the stand in burning B01 has one way out, B02, whose heat is B01's 1 + B03's 2 = 3:
    # it leaves on 1d6 >= 3, else it is a casualty
    ctx, base = play(grid(["BBBB"], fires={B00: 5, B01: 1, B03: 2}), Dice(61))
    stand(base, "T", B01)
    k = count(ctx, base, movement.forced_exits, lambda st: st.units["T"].loc == B02)
    assert_binomial(k, N, F(4, 6))


# -- §9 rescue: digging ---------------------------------------------------------------------------
def _site(seed, heavy=False):
    forces = [ForceUnit("RT", "heavy_rescue" if heavy else "rescue_team", area="B01")]
    ctx, st = play(grid(["SB"], forces=forces), Dice(seed))
    ctx.step = 9
    if heavy:
        st.units["RT.1"].loc = B01
        st.units["RT.1"].task = "idle"
    return ctx, st


def test_dig_out_on_a_later_six():
    # §9: "5 located, a 6 on a later 1d6 digs it out"
    ctx, base = _site(71)
    base.casualties = [Casualty("C1", B01, "located", need="dig")]
    k = count(
        ctx,
        base,
        rescue.step_rescue,
        lambda st: st.casualties[0].status not in ("buried", "located"),
    )
    assert_binomial(k, N, F(1, 6))


def test_heavy_rescue_digs_for_1d6_times_5_turns():
    # §9: "Heavy Rescue digs for 1d6x5 turns": after its first turn, 5k - 1 turns remain
    ctx, base = _site(72, heavy=True)
    base.casualties = [Casualty("C1", B01, "located", need="heavy")]
    left: Counter[int] = Counter()
    for _ in range(N):
        st = base.copy()
        ctx.events = []
        rescue.step_rescue(ctx, st)
        left[st.casualties[0].dig_left] += 1
    assert set(left) == {5 * k - 1 for k in range(1, 7)}
    for k in range(1, 7):
        assert_binomial(left[5 * k - 1], N, F(1, 6))


# -- §10 rest ------------------------------------------------------------------------------------
@pytest.mark.parametrize("canteen", [False, True])
def test_rest_length_distribution(canteen):
    # §10: rest 1d6 x 2 turns (2..12); at a canteen truck half that, rounded up (1..6)
    forces = [ForceUnit("CT", "canteen_truck", area="S00")] if canteen else []
    ctx, base = play(grid(["SB"], forces=forces), Dice(81 + canteen))
    ctx.step = 10
    stand(base, "T", ("S00", 0), task="rest", status="tired", active_turns=30)
    lengths: Counter[int] = Counter()
    for _ in range(N):
        st = base.copy()
        n = 0
        while st.units["T"].task == "rest":
            fatigue.step_fatigue(ctx, st)
            n += 1
        assert st.units["T"].status == "ok"
        lengths[n] += 1
    expected = [k for k in range(1, 7)] if canteen else [2 * k for k in range(1, 7)]
    assert set(lengths) == set(expected)
    for v in expected:
        assert_binomial(lengths[v], N, F(1, 6))
