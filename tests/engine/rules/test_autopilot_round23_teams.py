"""Speed, round 23 (issue 15): the searches the teams' and the rescue units' orders no
longer make give the answers the searches gave, on real mid-game states, in and out of
step 6's memos."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from fireground.engine.games.blitz.autopilot import casualties, teams
from fireground.engine.games.blitz.memos import HEAT_MEMO, ROUTE_MEMO, SEARCH_MEMO, UNSAFE_MEMO
from fireground.engine.games.blitz.reach import danger, foot
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

PATERNOSTER = Path(__file__).resolve().parents[3] / "examples" / "paternoster.fg.yaml"


def mid_game(turns: int, step6: bool):
    game = new_game(load_scenario(PATERNOSTER), 11, log_events=False)
    game.run(turns)  # fires, heat and units spread over the map
    ctx, state = game.ctx, game.state
    if step6:  # as step 6 sets them up (movement.step_movement)
        for key in (HEAT_MEMO, ROUTE_MEMO, SEARCH_MEMO, UNSAFE_MEMO):
            ctx.cache[key] = {}
    return ctx, state


def fresh(ctx):
    """The step's search memo emptied, so the next search is made anew."""
    if SEARCH_MEMO in ctx.cache:
        ctx.cache[SEARCH_MEMO] = {}


@pytest.mark.parametrize("turns", [9, 20])
@pytest.mark.parametrize("step6", [False, True], ids=["plain", "step6-memos"])
def test_walks_to_is_whether_a_goal_search_reaches_the_goal(turns, step6):
    """``teams._walks_to`` answers without a search when the goal is a place no stand may
    step into: the same answer as the search, for goals next to the fire (many of them
    too hot) and anywhere on the map."""
    ctx, state = mid_game(turns, step6)
    rng = random.Random(turns)
    places = sorted(ctx.graph.locations)
    starts = sorted({u.loc for u in state.units.values() if u.loc is not None})
    starts += rng.sample(places, 10)
    near_fire = sorted({nb for f in state.fire for nb in danger.neighbours(ctx, f)})
    counts = {"skipped": 0, "reached": 0, "not reached": 0}
    for start in starts:
        if start in state.fire:
            continue
        hot = rng.sample(near_fire, min(12, len(near_fire)))
        for goal in [start, *hot, *rng.sample(places, 6)]:
            fresh(ctx)
            want = goal in foot.foot_search(ctx, state, start, goal=goal)[0]
            fresh(ctx)
            assert teams._walks_to(ctx, state, start, goal) is want, (start, goal)
            if goal != start and not foot.passable(ctx, state, goal):
                counts["skipped"] += 1
            else:
                counts["reached" if want else "not reached"] += 1
    assert counts["skipped"] >= 20 and counts["reached"] >= 20, counts


@pytest.mark.parametrize("turns", [9, 20])
@pytest.mark.parametrize("step6", [False, True], ids=["plain", "step6-memos"])
def test_the_nearest_site_is_the_one_the_four_turn_search_finds(turns, step6):
    """``casualties._nearest_site`` (a search that stops at the first site it settles, none
    with no site) picks what :func:`.foot.nearest` picks from the whole four-turn search."""
    ctx, state = mid_game(turns, step6)
    rng = random.Random(100 + turns)
    places = sorted(ctx.graph.locations)
    far = casualties._far(ctx)
    found = missed = 0
    for start in rng.sample(places, 40):
        if start in state.fire:
            continue
        for n in (0, 1, 3, 8):
            sites = sorted(rng.sample(places, n))
            fresh(ctx)
            want, _ = foot.nearest(foot.foot_search(ctx, state, start, far)[0], sites)
            fresh(ctx)
            assert casualties._nearest_site(ctx, state, start, sites) == want, (start, sites)
            if want is None:
                missed += 1
            else:
                found += 1
    assert found >= 20 and missed >= 20, (found, missed)
