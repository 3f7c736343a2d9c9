"""Round 24 (parking): ``fire_sources`` hands out its fires unsorted, which must not move a
parking street (``choose_parking`` asks only how near the nearest fire of a group is);
``dry_penalty``'s fire total is added up once a call; the hot areas that ``_closing`` and
``_entry_side`` ask of the fire are found in one walk a call. Checked at the start of each call
of the standing orders in played games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from standing_calls import check_each_call, with_cache

from fireground.engine.board.model import AreaKind
from fireground.engine.core.turn import TurnContext
from fireground.engine.games.blitz.autopilot import parking, priorities
from fireground.engine.games.blitz.memos import AP_SOURCES
from fireground.engine.games.blitz.reach import danger
from fireground.engine.games.blitz.reach.hose_steps import steps_to
from fireground.engine.games.blitz.rules import movement as mv
from fireground.engine.games.blitz.rules import reach
from fireground.engine.games.blitz.state import GameState
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def _sources_sorted(
    ctx: TurnContext, state: GameState, pri: set[Any]
) -> tuple[list[Any], list[Any]]:
    """``fire_sources`` as it was before round 24: sorted, each fire asked on its own."""
    cov = priorities.coverage(state)
    two = {f for f, n in cov.items() if n >= 2}
    fires = sorted(state.fire)
    lost = priorities.lost_causes(ctx, state)
    live = [f for f in fires if f not in lost] or fires
    top = [f for f in live if f in pri or not pri.isdisjoint(danger.neighbours(ctx, f))]
    open_fires = [f for f in live if f not in two]
    if not open_fires:
        return top, live
    return [f for f in top if f not in two], open_fires


def _hot_by_fire(ctx: TurnContext, state: GameState, worn: int) -> set[str]:
    """The areas with a location burning at ``damage.fire_for_roll`` with damage ``worn``
    or more (an undamaged location counts 1), fire by fire."""
    hot = ctx.rules.int("damage.fire_for_roll")
    return {
        loc[0] for loc, f in state.fire.items() if f >= hot and state.damage.get(loc, 1) >= worn
    }


def _entry_side_by_fire(ctx: TurnContext, state: GameState) -> set[str]:
    """``parking._entry_side`` as it was before round 24 (its own walk over the fires)."""
    entries = mv.entry_areas(ctx)
    if not entries:
        return set()
    worn = int(priorities.policy(ctx, "closing_damage"))
    closing = set(reach.road_blocked(ctx, state))
    for a in _hot_by_fire(ctx, state, worn):
        closing.update(danger.area_neighbours(ctx, a))
    side: set[str] = set()
    for e in entries:
        if e not in side and e not in closing:
            side |= reach.road_reach(ctx, e, closing)
    return side


def _check(ctx: TurnContext, state: GameState, seen: dict[str, int]) -> None:
    # the call's fire total, twice (the second from the memo); a total kept from an
    # earlier call would be another turn's fire
    for _ in range(2):
        assert parking.fire_total(ctx, state) == sum(state.fire.values())
    if not state.fire:
        return
    # the hot areas, from the call's memo (asked twice) and worked out afresh, at every damage
    bare = {k: v for k, v in ctx.cache.items() if not k.name.startswith("ap_")}
    fresh = with_cache(ctx, dict(bare))
    for _ in range(2):
        kept = parking.hot_areas(ctx, state)
        for worn in (0, 1, 2, 3, 4):
            want_hot = _hot_by_fire(ctx, state, worn)
            assert {a for a, d in kept.items() if d >= worn} == want_hot
            seen["hot"] += bool(want_hot)
    assert parking._entry_side(fresh, state) == _entry_side_by_fire(fresh, state)
    for worn in (1, 2, 3):
        want_cut = {
            a
            for a in _hot_by_fire(ctx, state, worn)
            if danger.area_kind(ctx, a) is AreaKind.BUILDING
        }
        assert parking._closing(fresh, state, worn) == frozenset(
            nb for a in want_cut for nb in danger.area_neighbours(ctx, a)
        )
    pri = priorities.priority_locations(ctx, state)
    # the autopilot's own memos left out, but for a call's memo of the open fires: asked
    # twice, the second answer is the memo's (and the game's own call is not disturbed)
    mine = with_cache(ctx, {**bare, AP_SOURCES: {}})
    want = _sources_sorted(fresh, state, pri)
    spots = [(a, 0) for a in sorted(danger.area_kinds(ctx)) if (a, 0) in ctx.graph.index]
    for _ in range(2):
        got = priorities.fire_sources(mine, state, pri)
        assert [sorted(g) for g in got] == [sorted(w) for w in want]
        for g, w in zip(got, want, strict=True):
            # the nearest of the group, in the order given and in sorted order
            for limit in (4, 12):
                assert steps_to(ctx, g, spots, limit) == steps_to(ctx, w, spots, limit)
    seen["calls"] += 1
    seen["two_lines"] += any(n >= 2 for n in priorities.coverage(state).values())
    seen["unsorted"] += got[1] != sorted(got[1])


@pytest.mark.parametrize("seed", [2, 9])
def test_unsorted_fire_sources_and_the_fire_total_answer_as_before(seed):
    sc = load_scenario(ROOT / "examples" / "paternoster.fg.yaml")
    seen = dict.fromkeys(("calls", "two_lines", "unsorted", "hot"), 0)
    game = new_game(sc, seed, log_events=False)
    check_each_call(game, lambda ctx, state: _check(ctx, state, seen))
    for _ in range(40):
        game.step()
    # the states asked about had hot areas, fires with two lines on them, and groups out
    # of order
    assert seen["calls"] and seen["hot"] and seen["two_lines"] and seen["unsorted"]
