"""Step 9 firefighting with scripted dice, and statistics against the exact probabilities.

Statistical tests play the real rule N times with a seeded die and accept an observed
frequency within 4 standard deviations of the exact probability (a false alarm about once in
16,000 comparisons; seeds are fixed, so a run is reproducible anyway).
"""

from __future__ import annotations

import math

import pytest
from test_units_world import add_hose, events, usetup, uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.core.dice import Dice
from fireground.engine.games.blitz.reach import danger
from fireground.engine.games.blitz.rules import firefighting as ff
from fireground.engine.games.blitz.rules import movement as mv
from fireground.engine.games.blitz.rules import reach
from fireground.engine.games.blitz.units import STAND, UnitState

N = 2000


def within_4_sigma(hits: int, n: int, p: float) -> bool:
    if p in (0.0, 1.0):
        return hits == round(p * n)
    return abs(hits / n - p) <= 4 * math.sqrt(p * (1 - p) / n)


def setting(branch_area: str, *, crew: int = 1, status: str = "ok", fire: int = 3, dice=()):
    """A row S00 S01 B02 B03 B04 B05; appliance at S00, hose branch at ``branch_area``."""
    sc = uworld(["SSBBBB"], forces=[ForceUnit("E1", "general_appliance", area="S00")])
    ctx, st = usetup(sc, dice)
    ctx.step = 9
    for s in ("E1.1", "E1.2", "E1.3"):
        st.units[s].task = "idle"
        st.units[s].status = status
    target = ("B05", 0)
    st.fire[target] = fire
    crew_ids = [f"E1.{i}" for i in range(1, crew + 1)]
    h = add_hose(st, "H1", "E1", [("S00", 0), (branch_area, 0)], target, crew_ids)
    h.water = 1
    return ctx, st, h, target


# -- scripted ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "out"), [(3, True), (2, False)])
def test_stream_lowers_fire_on_roll_at_least_fire(roll, out):
    ctx, st, _h, t = setting("B03", dice=[roll])  # range 2: no modifier
    ff.step_firefighting(ctx, st)
    (ev,) = events(ctx, "extinguish")
    assert ev["need"] == ">=3" and ev["modifier"] == 0 and ev["range"] == 2
    assert st.fire[t] == (2 if out else 3)


@pytest.mark.parametrize(
    ("branch", "crew", "status", "mod"),
    [
        ("B04", 1, "ok", 1),  # range 1
        ("B03", 1, "ok", 0),  # range 2
        ("B02", 1, "ok", -1),  # range 3
        ("B03", 1, "tired", -1),
        ("B03", 1, "exhausted", -2),
        ("B03", 2, "ok", 1),  # two crews on the hose
        ("B03", 0, "ok", -2),  # unmanned branch
        ("B04", 2, "tired", 1),
    ],
)
def test_stream_modifiers(branch, crew, status, mod):
    ctx, st, _h, _t = setting(branch, crew=crew, status=status, dice=[6])
    ff.step_firefighting(ctx, st)
    (ev,) = events(ctx, "extinguish")
    assert ev["modifier"] == mod


def test_beyond_range_three_no_effect():
    ctx, st, _h, t = setting("S01")  # 4 areas away
    assert reach.stream_range(ctx, ("S01", 0), t) is None
    ff.step_firefighting(ctx, st)
    assert not ctx.events and st.fire[t] == 3


def test_range_counts_levels():
    sc = uworld(["SB"], levels={"B01": 4})
    ctx, _ = usetup(sc)
    assert reach.stream_range(ctx, ("S00", 0), ("B01", 2)) == 3
    assert reach.stream_range(ctx, ("S00", 0), ("B01", 3)) is None


def test_streams_roll_in_turn_and_beat_a_fire_down():
    ctx, st, _h, t = setting("B04", fire=2, dice=[2, 1, 5])
    h2 = add_hose(st, "H2", "E1", [("S00", 0), ("B04", 0)], t, ["E1.2"])
    h3 = add_hose(st, "H3", "E1", [("S00", 0), ("B04", 0)], t, ["E1.3"])
    h2.water = h3.water = 1
    ff.step_firefighting(ctx, st)
    evs = events(ctx, "extinguish")
    assert [e["need"] for e in evs] == [">=2", ">=1"]  # the second faces the lowered fire
    assert t not in st.fire and t in st.embers
    assert events(ctx, "damp_down")[0]["hose"] == "H3"  # the third damps the embers
    assert st.damp[t] == 1


def test_range_0_counts_as_range_1():
    # fireground reading (blitz.yaml firefighting.range.0): a stream on the branch's own
    # location is as close as a stream can be. Here the crew has gone, so -2 too.
    ctx, st, h, _t = setting("B04", dice=[4])
    h.target = ("B04", 0)
    st.fire[("B04", 0)] = 3
    for s in h.crew:
        st.units[s].loc = ("B03", 0)
    ff.step_firefighting(ctx, st)
    (ev,) = events(ctx, "extinguish")
    assert ev["range"] == 0 and ev["modifier"] == 1 - 2
    assert ctx.rules.int("firefighting.range.0") == ctx.rules.int("firefighting.range.1")
    assert st.fire[("B04", 0)] == 2  # 4 - 1 = 3 >= 3 lowers it


def test_no_water_no_roll():
    ctx, st, h, _t = setting("B04")
    h.water = 0
    ff.step_firefighting(ctx, st)
    assert not ctx.events


def test_damping_adds_one_up_to_five():
    ctx, st, _h, t = setting("B04")
    del st.fire[t]
    st.damp[t] = 4
    ff.step_firefighting(ctx, st)
    assert st.damp[t] == 5
    ff.step_firefighting(ctx, st)
    assert st.damp[t] == 5


@pytest.mark.parametrize(("roll", "out"), [(6, True), (5, False)])
def test_embers_out_on_six_with_water(roll, out):
    # §3: the team at the branch (B04) has water in its own location, whatever it aims at
    ctx, st, _h, _t = setting("B04", dice=[3, roll])
    here = ("B04", 0)
    st.embers.add(here)
    ff.step_firefighting(ctx, st)
    assert (here not in st.embers) is out
    assert events(ctx, "embers_out")[0]["need"] == ">=6"


def test_embers_at_the_target_only_take_damp():
    # the stream reaches the embers at B05, but no fire team stands there: damped, not put out
    ctx, st, _h, t = setting("B04")
    del st.fire[t]
    st.embers.add(t)
    ff.step_firefighting(ctx, st)
    assert t in st.embers and st.damp[t] == 1 and not events(ctx, "embers_out")


def test_embers_stay_without_water():
    ctx, st, h, t = setting("B04")
    del st.fire[t]
    st.embers.add(("B04", 0))
    h.water = 0
    ff.step_firefighting(ctx, st)
    assert ("B04", 0) in st.embers and not ctx.events


# -- fire parties ---------------------------------------------------------------------------
def party(fire_at, level=1, dice=()):
    ctx, st = usetup(uworld(["SBBB"], hydrants=["S00"]), dice)
    st.units["FP"] = u = UnitState("FP", "fire_party", STAND, ("B01", 0), role="fire_party")
    st.fire[fire_at] = level
    return ctx, st, u


@pytest.mark.parametrize(("roll", "out"), [(4, True), (3, False)])
def test_fire_party_on_a_fire_1_next_to_it(roll, out):
    ctx, st, u = party(("B02", 0), dice=[roll])
    ff.fire_parties(ctx, st)
    assert (("B02", 0) in st.embers) is out and (("B02", 0) in st.fire) is not out
    assert not u.charged and u.task == "refill"


def test_fire_party_cannot_tackle_a_bigger_or_farther_fire():
    ctx, st, u = party(("B02", 0), level=2)
    ff.fire_parties(ctx, st)
    ctx2, st2, u2 = party(("B03", 0))
    ff.fire_parties(ctx2, st2)
    assert not ctx.events and not ctx2.events and u.charged and u2.charged


def test_fire_party_refills_in_a_turn_at_ground_level_or_a_hydrant():
    ctx, st, u = party(("B02", 0), dice=[1])
    ff.fire_parties(ctx, st)
    st.turn += 1
    ff.fire_parties(ctx, st)  # a turn at a building's ground level
    assert u.charged
    u.charged = False
    u.loc = ("B01", 1)
    assert not ff.refill_point(ctx, st, u.loc) and ff.refill_point(ctx, st, ("S00", 0))


# -- statistics -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("branch", "crew", "status", "fire", "mod"),
    [
        ("B04", 1, "ok", 3, 1),
        ("B03", 1, "ok", 3, 0),
        ("B02", 1, "ok", 3, -1),
        ("B03", 1, "tired", 3, -1),
        ("B03", 1, "exhausted", 2, -2),
        ("B03", 2, "ok", 4, 1),
        ("B03", 0, "ok", 2, -2),
    ],
)
def test_extinguish_frequency(branch, crew, status, fire, mod):
    ctx, st, _h, t = setting(branch, crew=crew, status=status, fire=fire)
    ctx.dice = Dice(1000 + fire * 10 + mod)
    hits = 0
    for _ in range(N):
        st.fire[t] = fire
        ctx.events = []
        ff.step_firefighting(ctx, st)
        hits += st.fire.get(t, 0) < fire
        st.embers.discard(t)
    p = max(0, min(6, 7 - fire + mod)) / 6
    assert within_4_sigma(hits, N, p), (hits / N, p)


def test_fire_party_frequency():
    ctx, st, u = party(("B02", 0))
    ctx.dice = Dice(77)
    hits = 0
    for _ in range(N):
        st.fire[("B02", 0)] = 1
        st.embers.clear()
        u.charged = True
        ff.fire_parties(ctx, st)
        hits += ("B02", 0) not in st.fire
    assert within_4_sigma(hits, N, 0.5)


@pytest.mark.parametrize("h", [2, 3, 4, 5, 6])
def test_heat_frequency(h):
    fires = {("B00", 0): h - 1, ("B02", 0): 1}
    ctx, st = usetup(uworld(["BBB"], fires=fires))
    ctx.dice = Dice(500 + h)
    u = UnitState("T", "fire_team", STAND, ("B01", 0))
    hits = sum(danger.heat_test(ctx, st, u, ("B01", 0)) for _ in range(N))
    assert within_4_sigma(hits, N, (7 - h) / 6)


def test_stand_stepping_back_takes_its_branch_along():
    ctx, st, h, _t = setting("B04", crew=1)
    h.path = [("S00", 0), ("S01", 0), ("B02", 0), ("B03", 0), ("B04", 0)]
    h.lengths = 2
    mv.relocate(ctx, st, st.units["E1.1"], ("B03", 0))
    assert h.branch == ("B03", 0) and h.crew == ["E1.1"] and h.lengths == 2
    mv.relocate(ctx, st, st.units["E1.1"], ("B05", 0))  # not along the hose: leaves it
    assert h.crew == [] and st.units["E1.1"].hose is None
    assert [e["modifier"] for e in _one_stream(ctx, st)] == [-2 + 0]  # unmanned, range 2


def _one_stream(ctx, st):
    ctx.dice = Dice(1)
    ctx.events = []
    ff.step_firefighting(ctx, st)
    return events(ctx, "extinguish")
