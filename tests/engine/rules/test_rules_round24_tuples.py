"""Round 24 (issue 15): the fires are keyed by the map's own location tuples
(:func:`danger.map_tuples`), and the quiet spread's index by target holds them too. Equal
tuples, so only speed may change: the memo maps each location to an equal one (the map's),
``ignite`` keys a fire by a location equal to the one it was given, and the index kept
through a played game is the index made afresh from the same sources."""

from __future__ import annotations

from pathlib import Path

from standing_calls import played_game
from test_units_wheelbarrow import wb_world
from test_units_world import usetup

from fireground.engine.games.blitz.memos import MAP_TUPLES, SPREAD_REVERSE
from fireground.engine.games.blitz.reach.danger import map_tuples
from fireground.engine.games.blitz.rules import spread_plan
from fireground.engine.games.blitz.rules.ignition import ignite

BASELINE = Path(__file__).resolve().parents[3] / "benchmarks" / "baseline_examples"


def _copy(loc):
    """An equal location that is another object."""
    out = tuple(list(loc))
    assert out == loc and out is not loc
    return out


def test_map_tuples_maps_each_location_to_the_maps_own_equal_tuple():
    ctx, _st = usetup(wb_world())
    locs = ctx.graph.locations
    memo = map_tuples(ctx)
    assert len(memo) == len(locs)
    for loc in locs:
        assert memo[loc] is loc
        assert memo[_copy(loc)] is loc
    assert map_tuples(ctx) is memo  # kept for the game
    # games sharing memos start from one empty dict: it is filled, not taken as the answer
    ctx.cache[MAP_TUPLES] = shared = {}
    assert map_tuples(ctx) is shared
    assert all(shared[_copy(loc)] is loc for loc in locs)


def test_ignite_keys_the_fire_by_an_equal_location():
    ctx, st = usetup(wb_world())
    locs = [loc for loc in ctx.graph.locations if loc[0].startswith("B")]
    for loc in locs:
        given = _copy(loc)
        assert ignite(ctx, st, given, 2)
        [key] = [k for k in st.fire if k == given]
        assert key is loc and st.fire[key] == 2  # the map's own tuple, the same fire
        assert given in st.caught
    off = ("B00", 9)  # a level the map lacks: kept as given
    assert ignite(ctx, st, off, 1)
    assert [k for k in st.fire if k == off] == [off]
    assert sorted(st.fire) == sorted([*locs, off])


def test_the_kept_spread_index_is_the_index_made_afresh():
    ctx = played_game(BASELINE / "paternoster.fg.yaml", 3, 40).ctx
    kept = ctx.cache[SPREAD_REVERSE]["index"]
    assert len(kept.indexed) > 100  # the spread by target was used
    fresh = spread_plan._Reverse(dict(kept.rank), {}, {}, set(), {}, set(), kept.petrol)
    assert spread_plan._index_sources(ctx, fresh, sorted(kept.indexed))
    assert fresh.indexed == kept.indexed
    assert fresh.targets == kept.targets
    assert fresh.open_targets == kept.open_targets
    assert fresh.sources == kept.sources
    assert fresh.into == kept.into
    # and its targets are the map's own tuples (what the speed-up rests on)
    memo = map_tuples(ctx)
    assert all(memo[loc] is loc for loc in kept.targets)
