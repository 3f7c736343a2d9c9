"""Property tests (hypothesis) of the fire, bombing and damage steps over random small maps."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from test_fire_world import setup, world

from fireground.engine.board.model import COMPASS, AreaKind, Wind
from fireground.engine.core.dice import Dice
from fireground.engine.games.blitz.rules import bombing, damage, fire

MY_STEPS = [
    (1, fire.step_spread),
    (2, fire.step_growth),
    (3, fire.step_reignite),
    (4, fire.step_damp),
    (5, bombing.step_bombing),
    (7, damage.step_damage),
]


@st.composite
def scenarios(draw):
    h = draw(st.integers(1, 3))
    w = draw(st.integers(2, 4))
    rows = ["".join(draw(st.sampled_from("BBBSOW")) for _ in range(w)) for _ in range(h)]
    ids = [f"{ch}{r}{c}" for r, row in enumerate(rows) for c, ch in enumerate(row)]
    blds = [a for a in ids if a[0] == "B"]
    levels = {a: draw(st.integers(1, 3)) for a in blds}
    stairs = [a for a in blds if draw(st.booleans())]
    locs = [(a, lv) for a in blds for lv in range(levels[a])]
    stores = {}
    if locs and draw(st.booleans()):
        loc = draw(st.sampled_from(locs))
        stores[loc] = draw(st.sampled_from(["oil", "petrol", "wood"]))
    fires = {}
    if locs:
        for loc in draw(st.lists(st.sampled_from(locs), min_size=1, max_size=4, unique=True)):
            fires[loc] = draw(st.integers(1, 5))
    wind = Wind(draw(st.sampled_from((None, *COMPASS))), draw(st.booleans()))
    sc = world(
        rows,
        levels=levels,
        stairs=stairs,
        stores=stores,
        fires=fires,
        wind=wind,
        bombing=draw(st.booleans()),
        house_rules={"bombing.stick_on": 10},
    )
    damp = {loc: draw(st.integers(1, 5)) for loc in locs if draw(st.integers(0, 3)) == 0}
    dmg = {loc: draw(st.integers(2, 5)) for loc in locs if draw(st.integers(0, 3)) == 0}
    return sc, damp, dmg


def play(sc, damp, dmg, seed, turns=8):
    ctx, state = setup(sc, Dice(seed))
    state.damp.update({k: v for k, v in damp.items() if k not in state.fire})
    state.damage.update(dmg)
    history = []
    for _ in range(turns):
        state.begin_turn()
        ctx.events = []
        for number, fn in MY_STEPS:
            ctx.step = number
            fn(ctx, state)
        history.append((json.dumps([e.to_json() for e in ctx.events]), state.copy()))
    return ctx, history


@settings(max_examples=60)
@given(scenarios(), st.integers(0, 2**32 - 1))
def test_invariants(case, seed):
    sc, damp, dmg = case
    _ctx, history = play(sc, damp, dmg, seed)
    kinds = {a.id: a.kind for a in sc.areas}
    before = dict(dmg)
    for _, s in history:
        for loc, f in s.fire.items():
            assert 1 <= f <= 5
            if loc in s.street_fire_age:
                assert f == 1
            assert kinds[loc[0]] is not AreaKind.WATER
            assert loc not in s.embers and loc not in s.damp
        assert all(1 <= d <= 5 for d in s.damp.values())
        assert all(2 <= d <= 5 for d in s.damage.values())
        for loc, d in before.items():
            assert s.damage.get(loc, 1) >= d  # damage never improves
        before = dict(s.damage)
        assert all(kinds[a] is not AreaKind.BUILDING for a in s.rubble | s.craters)


@settings(max_examples=20)
@given(scenarios(), st.integers(0, 2**32 - 1))
def test_same_seed_same_events(case, seed):
    sc, damp, dmg = case
    _, h1 = play(sc, damp, dmg, seed, turns=5)
    _, h2 = play(sc, damp, dmg, seed, turns=5)
    assert [e for e, _ in h1] == [e for e, _ in h2]
    assert [s.to_log() for _, s in h1] == [s.to_log() for _, s in h2]


@settings(max_examples=30)
@given(scenarios(), st.integers(0, 2**32 - 1))
def test_every_roll_is_one_event(case, seed):
    """Each event's dice are the dice consumed (no unlogged rolls)."""
    sc, _damp, dmg = case

    class Counting(Dice):
        used = 0

        def d6(self, n=1):
            Counting.used += n
            return super().d6(n)

    ctx, state = setup(sc, Counting(seed))
    state.damage.update(dmg)
    for _ in range(4):
        state.begin_turn()
        for number, fn in MY_STEPS:
            ctx.step = number
            fn(ctx, state)
    logged = sum(len(e["dice"]) for e in ctx.events)
    assert logged == Counting.used
