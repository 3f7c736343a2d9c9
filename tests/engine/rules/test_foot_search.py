"""``reach.foot_search`` (a Dijkstra on location numbers, with memos for step 6) against a
plain Dijkstra on locations written here: the same costs, the same paths, the same early
stops, on real mid-game states of the examples, in and out of step 6."""

from __future__ import annotations

import heapq
import random
from pathlib import Path

import pytest

from fireground.engine.games.blitz.memos import (
    HEAT_MEMO,
    PASSABLE_NUMBERED,
    ROUTE_MEMO,
    SEARCH_MEMO,
    UNSAFE_MEMO,
)
from fireground.engine.games.blitz.reach import danger, foot
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.envelope import blitz_examples
from fireground.engine.scenario.io import load_scenario

EXAMPLES = blitz_examples(Path(__file__).resolve().parents[3] / "examples")


def plain_dijkstra(ctx, state, start, budget, weight, goal=None, goals=None):
    """The textbook search: pops (cost, location), a neighbour improves only strictly."""
    col = {1: 1, 2: 2}.get(weight, 3)
    fail = ctx.rules.int("heat.always_fail_min")
    ladders = foot.ladder_links(state)
    limit = budget if budget is not None else 1 << 60
    dist, prev, heap = {start: 0}, {}, [(0, start)]
    while heap:
        d, loc = heapq.heappop(heap)
        if d > dist[loc]:
            continue
        if loc == goal or (goals is not None and loc in goals):
            break
        for link in foot.foot_links(ctx, loc, ladders):
            nb, nd = link[0], d + link[col]
            if nd > limit or nd >= dist.get(nb, nd + 1):
                continue
            if nb in state.fire or danger.heat(ctx, state, nb) >= fail:
                continue
            dist[nb], prev[nb] = nd, loc
            heapq.heappush(heap, (nd, nb))
    return dist, prev


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
@pytest.mark.parametrize("step6", [False, True], ids=["plain", "step6-memos"])
def test_the_same_costs_and_paths_as_a_plain_dijkstra(path, step6):
    game = new_game(load_scenario(path), 4)
    game.run(9)  # fires, heat and units spread over the map
    ctx, state = game.ctx, game.state
    if step6:  # as step 6 sets them up (movement.step_movement)
        for key in (HEAT_MEMO, ROUTE_MEMO, SEARCH_MEMO, UNSAFE_MEMO):
            ctx.cache[key] = {}
        ctx.cache[PASSABLE_NUMBERED] = [None, {}]
    locs = sorted(ctx.graph.locations)
    rng = random.Random(8)
    compared = 0
    for _ in range(60):
        start = rng.choice(locs)
        budget = rng.choice([None, 2, 6, 12, 28])
        weight = rng.choice([1, 2, 3])
        goal = rng.choice([None, rng.choice(locs)])
        goals = set(rng.sample(locs, 5)) if goal is None and rng.random() < 0.3 else None
        got = foot.foot_search(ctx, state, start, budget, weight=weight, goal=goal, goals=goals)
        want = plain_dijkstra(ctx, state, start, budget, weight, goal, goals)
        if goal is not None and not step6:
            assert got == want  # whole answer, insertion order aside
            assert list(got[0]) == list(want[0])
        if goal is None:
            assert got[0] == want[0] and got[1] == want[1]
        for target in (goal,) if goal is not None else ():
            if target in want[0]:
                assert foot.path_to(got[1], start, target) == foot.path_to(want[1], start, target)
            else:
                assert target not in got[0]
        compared += len(want[0])
    assert compared > 200


def test_a_start_off_the_map_is_numbered_too():
    game = new_game(load_scenario(EXAMPLES[0]), 1)
    ctx, state = game.ctx, game.state
    assert foot.foot_search(ctx, state, ("NO-SUCH-AREA", 0), 6) == ({("NO-SUCH-AREA", 0): 0}, {})
    start = sorted(ctx.graph.locations)[0]
    assert foot.foot_search(ctx, state, start, 6) == plain_dijkstra(ctx, state, start, 6, 1)


def test_links_that_cost_nothing_keep_the_order():
    """A house rule can make stairs free: zero-cost links join the list of the cost being
    settled, still in (cost, location) order, as in the textbook search."""
    from fireground.engine.core.ruleset import load_ruleset

    rules = load_ruleset("blitz", {"movement.stairs": 0, "hose.lay_stairs": 0})
    path = max(EXAMPLES, key=lambda p: p.stat().st_size)
    game = new_game(load_scenario(path), 4, rules=rules)
    game.run(6)
    ctx, state = game.ctx, game.state
    locs = sorted(ctx.graph.locations)
    rng = random.Random(3)
    for _ in range(40):
        start = rng.choice(locs)
        weight = rng.choice([1, 3])
        goal = rng.choice([None, rng.choice(locs)])
        got = foot.foot_search(ctx, state, start, 12, weight=weight, goal=goal)
        want = plain_dijkstra(ctx, state, start, 12, weight, goal)
        assert got == want and list(got[0]) == list(want[0])


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_searches_without_ladders_keep_the_textbook_order(path):
    """With no ladder pitched every link costs 1 at each weight (movement points, hose steps,
    laying points), and the search goes level by level: the costs, the order first reached,
    the previous locations (in the order they were set) and the early stops are still the
    textbook search's."""
    game = new_game(load_scenario(path), 4)
    game.run(9)
    ctx, state = game.ctx, game.state
    for u in state.units.values():
        for ld in u.ladders:
            ld.at = ld.face = None
    assert foot.ladder_links(state) == {}
    locs = sorted(ctx.graph.locations)
    rng = random.Random(5)
    stopped = 0
    for _ in range(120):
        start = rng.choice(locs)
        budget = rng.choice([None, 0, 1, 3, 6, 12])
        weight = rng.choice([1, 2, 3])
        goal = rng.choice([None, rng.choice(locs)])
        goals = set(rng.sample(locs, 8)) if goal is None and rng.random() < 0.5 else None
        got = foot.foot_search(ctx, state, start, budget, weight=weight, goal=goal, goals=goals)
        want = plain_dijkstra(ctx, state, start, budget, weight, goal, goals)
        assert list(got[0].items()) == list(want[0].items())
        assert list(got[1].items()) == list(want[1].items())
        stopped += goal in want[0] or bool(goals and goals & want[0].keys())
    assert stopped > 5


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_first_goal_is_the_nearest_goal_accepted(path):
    """``first_goal`` asks ``accept`` only of goals the search settles, and picks what
    ``nearest`` picks from a whole search among the goals ``accept`` takes."""
    game = new_game(load_scenario(path), 4)
    game.run(9)
    ctx, state = game.ctx, game.state
    locs = sorted(ctx.graph.locations)
    rng = random.Random(6)
    found = 0
    for _ in range(60):
        start = rng.choice(locs)
        goals = frozenset(rng.sample(locs, len(locs) // 3))
        refused = set(rng.sample(sorted(goals), len(goals) // 2))
        asked: list = []

        def accept(x, asked=asked, refused=refused):
            asked.append(x)
            return x not in refused

        got = foot.first_goal(ctx, state, start, 12, goals, accept)
        dist, _ = foot.foot_search(ctx, state, start, 12)
        want, _cost = foot.nearest(dist, [x for x in goals if x not in refused])
        assert got == want
        assert set(asked) <= {x for x in goals if x in dist}
        assert asked == sorted(asked, key=lambda x: (dist[x], x))
        found += got is not None
    assert found > 5


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_a_named_test_is_asked_once_a_place_in_step_6(path):
    """In step 6 a search with a named test (``ok_key``) keeps the test's answers by place
    for the step: searches from other places ask each place at most once in all, and find
    what a search with no memo (asking every place it meets) finds."""
    game = new_game(load_scenario(path), 4)
    game.run(9)
    ctx, state = game.ctx, game.state
    fail = ctx.rules.int("heat.always_fail_min")
    asked: list = []

    def cool(loc):
        asked.append(loc)
        return loc not in state.fire and danger.heat(ctx, state, loc) < fail - 2

    locs = sorted(ctx.graph.locations)
    rng = random.Random(9)
    starts = rng.sample(locs, 12)
    goals = rng.sample(locs, 6)
    want = [foot.foot_search(ctx, state, s, None, ok=cool, goals=goals) for s in starts]
    asked_alone = len(asked)
    for key in (HEAT_MEMO, ROUTE_MEMO, SEARCH_MEMO, UNSAFE_MEMO):
        ctx.cache[key] = {}
    ctx.cache[PASSABLE_NUMBERED] = [None, {}]
    asked.clear()
    got = [
        foot.foot_search(ctx, state, s, None, ok=cool, goals=goals, ok_key=("cool", fail - 2))
        for s in starts
    ]
    assert [dict(d) for d, _ in got] == [dict(d) for d, _ in want]
    for (_, p1), (_, p2) in zip(got, want, strict=True):
        assert dict(p1) == dict(p2)
    assert len(asked) == len(set(asked)) < asked_alone
