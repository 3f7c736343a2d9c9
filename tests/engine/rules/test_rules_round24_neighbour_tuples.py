"""Round 24 (issue 15): the game's neighbour lists (:func:`danger.neighbours`), the quiet
growth's plans and step 7's standing buildings hold the map's own location tuples (those
of :func:`danger.map_tuples`), as the fires' keys do, so that a look-up in the fires
matches by identity. Equal tuples, so the answers are the map's: checked here, with the
objects."""

from __future__ import annotations

from pathlib import Path

from standing_calls import played_game
from test_units_wheelbarrow import wb_world
from test_units_world import usetup

from fireground.engine.games.blitz.memos import (
    DAMAGE_STANDING,
    GROWTH_PLAN,
    NEIGHBOURS,
    NEIGHBOURS_OF,
)
from fireground.engine.games.blitz.reach.danger import map_tuples, neighbours, neighbours_of

BASELINE = Path(__file__).resolve().parents[3] / "benchmarks" / "baseline_examples"


def _copy(loc):
    """An equal location that is another object."""
    out = tuple(list(loc))
    assert out == loc and out is not loc
    return out


def _is_map_tuple(ctx, loc):
    return map_tuples(ctx)[loc] is loc


def test_the_neighbour_lists_are_the_maps_answers_made_of_the_maps_tuples():
    ctx, _st = usetup(wb_world())
    for loc in ctx.graph.locations:
        got = neighbours(ctx, _copy(loc))  # asked by a copy: the same answer
        assert got == ctx.graph.neighbours(loc)
        assert all(_is_map_tuple(ctx, nb) for nb in got)
        assert neighbours(ctx, loc) is got  # kept for the game
    memo = ctx.cache[NEIGHBOURS]
    assert all(_is_map_tuple(ctx, key) for key in memo)
    backwards = neighbours_of(ctx)
    assert ctx.cache[NEIGHBOURS_OF] is backwards
    for loc, near in backwards.items():
        assert _is_map_tuple(ctx, loc)
        assert all(_is_map_tuple(ctx, f) and loc in ctx.graph.neighbours(f) for f in near)


def test_a_played_games_plans_and_standing_list_hold_the_maps_tuples():
    ctx = played_game(BASELINE / "paternoster.fg.yaml", 3, 40).ctx
    plans = ctx.cache[GROWTH_PLAN]
    assert len(plans) > 50  # the quiet growth was used
    for loc, nbs, *_numbers in plans.values():
        assert _is_map_tuple(ctx, loc)
        assert list(nbs) == ctx.graph.neighbours(loc)
        assert all(_is_map_tuple(ctx, nb) for nb in nbs)
    _state, standing = ctx.cache[DAMAGE_STANDING]
    assert standing
    assert standing == sorted(standing)
    assert all(_is_map_tuple(ctx, loc) for loc in standing)
