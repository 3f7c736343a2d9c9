"""The parking answers kept for a call of the standing orders (round 23): the closing
streets, ``cut_soon`` by street and ``shelter``'s street by (street, avoid) are what a
context with none of the call's memos works out afresh, on the states of played games."""

from __future__ import annotations

from pathlib import Path

import pytest
from standing_calls import check_each_call, without_autopilot_memos

from fireground.engine.board.model import AreaKind
from fireground.engine.core.turn import TurnContext
from fireground.engine.games.blitz.autopilot import parking
from fireground.engine.games.blitz.reach import danger
from fireground.engine.games.blitz.state import GameState
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def _closing_by_fire(ctx: TurnContext, state: GameState, worn: int) -> frozenset[str]:
    """``parking._closing`` as it was before round 23: every fire walked, by location."""
    hot = ctx.rules.int("damage.fire_for_roll")
    out: set[str] = set()
    for loc, f in state.fire.items():
        if (
            f >= hot
            and state.damage.get(loc, 1) >= worn
            and danger.area_kind(ctx, loc[0]) is AreaKind.BUILDING
        ):
            out.update(danger.area_neighbours(ctx, loc[0]))
    return frozenset(out)


def _check(ctx: TurnContext, state: GameState, seen: dict[str, int]) -> None:
    fresh = without_autopilot_memos(ctx)
    for worn in (1, 2, 3):
        want = _closing_by_fire(ctx, state, worn)
        assert parking._closing(fresh, state, worn) == want
        seen["closing"] += bool(want)
    units = [u for _, u in sorted(state.units.items()) if u.in_play and u.loc is not None]
    # twice over, so the second round reads the call's memo
    for _ in range(2):
        for u in units:
            if u.role == "appliance":
                got = parking.cut_soon(ctx, state, u)
                assert got == parking.cut_soon(fresh, state, u)
                seen["cut"] += 1
                seen["cut_far"] += bool(got)
            here = u.loc[0]
            # (a vehicle shelters avoiding the streets where stands wait: any will do)
            for avoid in (
                frozenset(),
                frozenset({here}),
                frozenset(sorted(parking.exposures(ctx))[::3]),
            ):
                got_to = parking.shelter_street(ctx, state, here, avoid)
                assert got_to == parking.shelter_street(fresh, state, here, avoid)
                seen["shelter"] += 1
                seen["shelter_moves"] += got_to is not None


@pytest.mark.parametrize("seed", [3, 11])
def test_the_calls_parking_memos_answer_as_a_fresh_context_does(seed):
    sc = load_scenario(ROOT / "examples" / "paternoster.fg.yaml")
    seen = dict.fromkeys(("closing", "cut", "cut_far", "shelter", "shelter_moves"), 0)
    game = new_game(sc, seed, log_events=False)
    check_each_call(game, lambda ctx, state: _check(ctx, state, seen))
    for _ in range(40):
        game.step()
    # the states asked about held what the memos keep: closing streets, far streets to
    # pull back to and streets to shelter in
    assert seen["closing"] and seen["cut"] and seen["shelter"] and seen["shelter_moves"]
