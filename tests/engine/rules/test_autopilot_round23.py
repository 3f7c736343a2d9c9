"""Speed, round 23 (issue 15): the safety checks' work done once a call of the standing
orders instead of once a stand (docs/autopilot.md, "Speed, round 23: the safety checks").

* :func:`safety.retreat` asks where a stand walks to once per place a call (memo
  ``ap_retreat``): the answer must not depend on which stand asks, nor on the walks of
  the stands that asked before it.
* :func:`safety._collapse_areas` makes one walk a call for the least damage its checks
  ask (``ap_falling``): with ``policy.refuge_damage`` 1 a walk of the fires that serves
  the collapse zone too; every zone asked in a call, in any order, is the rules' zone.
"""

from __future__ import annotations

from pathlib import Path

from test_autopilot_round19 import _zone_by_the_rules  # (the rules written out plainly)

from fireground.engine.games.blitz.autopilot import safety
from fireground.engine.games.blitz.autopilot.priorities import policy
from fireground.engine.games.blitz.memos import AP_FALLING
from fireground.engine.games.blitz.rules import acting
from fireground.engine.games.blitz.units import STAND
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

BASELINE = Path(__file__).resolve().parents[3] / "benchmarks" / "baseline_examples"


def test_a_stand_walking_out_moves_no_other_place_s_retreat_goal():
    """At every fourth turn of a 40-turn baseline Paternoster Row game, where a stand would
    retreat to from every third place (:func:`safety._retreat_goal`) is the same before
    and after a stand retreats (walks, and is marked as having acted): what the memo
    keeps for a place holds for every stand that asks there later in the call."""
    sc = load_scenario(BASELINE / "paternoster.fg.yaml")
    game = new_game(sc, 1, log_events=False)
    ctx, st = game.ctx, game.state
    walked = compared = 0
    for turn in range(40):
        game.step()
        if turn % 4 or not st.fire:
            continue
        havens = safety.shelters(ctx, st)
        places = [x for x in ctx.graph.locations if x not in havens][::3]
        before = {x: safety._retreat_goal(ctx, st, x, havens) for x in places}
        for uid in sorted(st.units):
            u = st.units[uid]
            if u.kind != STAND or not u.in_play or u.loc is None or acting.acted(st, u):
                continue
            start = u.loc
            if safety.retreat(ctx, st, u):
                assert u.loc != start
                walked += 1
                break
        after = {x: safety._retreat_goal(ctx, st, x, havens) for x in places}
        assert after == before
        compared += sum(g is not None for g in before.values())
    assert walked >= 5 and compared > 100


def test_the_collapse_zones_of_a_call_are_the_rules_zones_in_any_order():
    """At every turn of a 40-turn baseline Paternoster Row game (``policy.refuge_damage``
    1), the zones asked in one call of the standing orders (the call's memo of the
    damaged locations set), for damage 1 to 4 in several orders, alone and with the
    answer for one more damage handed in, are those of the rules written out plainly."""
    sc = load_scenario(BASELINE / "paternoster.fg.yaml")
    game = new_game(sc, 1, log_events=False)
    ctx, st = game.ctx, game.state
    assert policy(ctx, "refuge_damage") == 1  # (the walk of the fires is what is tested)
    falling = 0
    try:
        for _ in range(40):
            game.step()
            want = {worn: _zone_by_the_rules(ctx, st, worn) for worn in (1, 2, 3, 4, 5)}
            for order in ((4, 1), (1, 4), (3, 2, 1), (2, 4, 1, 3), (4,), (1,)):
                ctx.cache[AP_FALLING] = None  # as a call of the standing orders starts
                for worn in order:
                    assert safety._collapse_areas(ctx, st, worn) == want[worn]
                    tight = safety._collapse_areas(ctx, st, worn + 1)
                    assert tight == want[worn + 1]
                    assert safety._collapse_areas(ctx, st, worn, tight) == want[worn]
            falling += len(want[4][0]) > 0
    finally:
        ctx.cache.pop(AP_FALLING, None)
    assert falling > 5
