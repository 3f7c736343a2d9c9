"""Speed, round 23 (the rule steps): the game's list of units carried by hand
(``wheelbarrow.carried_pump`` with the game's context) answers as the walk over every
unit, and the unit lists looked at by location (``GameState.units_at``) are the same as a
plain filter of the units."""

from __future__ import annotations

import random

from test_units_wheelbarrow import team_at, wb_world
from test_units_world import usetup

from fireground.engine.games.blitz.memos import CARRIED_UNITS
from fireground.engine.games.blitz.rules import wheelbarrow
from fireground.engine.games.blitz.units import LOST

O01, O02, S00 = ("O01", 0), ("O02", 0), ("S00", 0)


def _carried(st, s):
    """The pump ``s`` carries, by the rule itself: a unit in play it is carried by."""
    return next(
        (p for p in st.units.values() if p.extra.get("carried_by") == s.id and p.in_play), None
    )


def test_carried_pump_with_the_games_list_answers_as_the_walk_over_every_unit():
    ctx, st = usetup(wb_world())
    wb = st.units["WB"]
    stands = [u for u in st.units.values() if u.kind == "stand"]
    s = team_at(st, "E1.1", O01)
    for s2 in stands:  # nothing carried yet
        assert wheelbarrow.carried_pump(st, s2, ctx) is None is _carried(st, s2)
    assert ctx.cache[CARRIED_UNITS][2] == [wb]  # only the wheelbarrow pump is looked at
    assert wheelbarrow.pick_up(ctx, st, s, wb)
    for s2 in stands:
        assert wheelbarrow.carried_pump(st, s2, ctx) is _carried(st, s2)
    assert wheelbarrow.carried_pump(st, s, ctx) is wb
    # another state (a copy: new units in a new dict) is not answered from the first
    other = st.copy()
    assert wheelbarrow.carried_pump(other, other.units["E1.1"], ctx) is other.units["WB"]
    assert wheelbarrow.carried_pump(st, s, ctx) is wb
    # a unit replaced in the same dict is looked at afresh
    st.units["WB"] = copy = wb.copy()
    assert wheelbarrow.carried_pump(st, s, ctx) is copy
    wheelbarrow.set_down(ctx, st, copy)
    for s2 in stands:
        assert wheelbarrow.carried_pump(st, s2, ctx) is None is _carried(st, s2)


def test_units_at_is_a_filter_of_the_units_in_play_by_id():
    _ctx, st = usetup(wb_world())
    rng = random.Random(23)
    places = [O01, O02, S00, ("B00", 0), ("B01", 1), None]
    units = list(st.units.values())
    for _ in range(200):
        for u in units:
            u.loc = rng.choice(places)
            u.status = rng.choice(["ok", "tired", *sorted(LOST)])
        for loc in places[:-1]:
            want = sorted(
                (u for u in units if u.loc == loc and u.status not in LOST), key=lambda u: u.id
            )
            assert st.units_at(loc) == want


def test_unit_ids_are_the_sorted_ids_as_the_dict_changes():
    _ctx, st = usetup(wb_world())
    rng = random.Random(5)
    spare = dict(st.units)
    for _ in range(300):
        assert st.unit_ids() == tuple(sorted(st.units))
        k = rng.choice(sorted(spare))
        how = rng.randrange(3)
        if how == 0 and k in st.units:  # out, and maybe back in at the end (a new order)
            del st.units[k]
            if rng.random() < 0.5:
                st.units[k] = spare[k]
        elif how == 1:
            st.units[k] = spare[k]  # back in (or the same place)
        elif how == 2 and st.units:  # the same keys in another order
            items = list(st.units.items())
            rng.shuffle(items)
            st.units.clear()
            st.units.update(items)
    assert st.copy().unit_ids() == tuple(sorted(st.units))
