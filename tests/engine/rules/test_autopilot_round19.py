"""Speed, round 19 (issue 15): the collapse zones (:func:`safety._collapse_areas`, the
refuge zone of ``policy.refuge_damage`` 1 among them) are what the rules say they are
(docs/autopilot.md, "Speed, round 19: the refuge zone")."""

from __future__ import annotations

from pathlib import Path

from fireground.engine.board.model import AreaKind
from fireground.engine.games.blitz.autopilot import safety
from fireground.engine.games.blitz.reach import danger
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

BASELINE = Path(__file__).resolve().parents[3] / "benchmarks" / "baseline_examples"


def _zone_by_the_rules(ctx, st, worn):
    """The building areas with a location burning hard enough to roll for damage (step 7)
    damaged ``worn`` or more and not destroyed, with every building area next to a falling
    one whose ground level the rubble would destroy (§6), again and again; and the areas
    next to a falling one (where the rubble strikes). Written out plainly, nothing kept."""
    r = ctx.rules
    hot = r.int("damage.fire_for_roll")
    destroyed = r.int("damage.destroyed")
    weak = destroyed - r.int("collapse.rubble_damage")
    kinds = danger.area_kinds(ctx)
    building = AreaKind.BUILDING
    falling = {
        loc[0]
        for loc, f in st.fire.items()
        if f >= hot and worn <= st.damage.get(loc, 1) < destroyed and kinds[loc[0]] is building
    }
    while True:
        more = {
            nb
            for a in falling
            for nb in ctx.graph.area_neighbours(a)
            if nb not in falling
            and kinds.get(nb) is building
            and destroyed > st.damage.get((nb, 0), 1) >= weak
        }
        if not more:
            break
        falling |= more
    struck = {nb for a in falling for nb in ctx.graph.area_neighbours(a)}
    return frozenset(falling), frozenset(struck)


def test_the_collapse_zones_are_the_rules_zones_through_a_game():
    """At every turn of a 40-turn baseline Paternoster Row game, for damage 1 to 4, alone
    and with the answer for one more damage handed in (as the refuge zone is worked out
    from the collapse zone), the zones are those of the rules written out plainly."""
    sc = load_scenario(BASELINE / "paternoster.fg.yaml")
    game = new_game(sc, 1, log_events=False)
    ctx, st = game.ctx, game.state
    wider = spread = 0
    for _ in range(40):
        game.step()
        for worn in (1, 2, 3, 4):
            want = _zone_by_the_rules(ctx, st, worn)
            assert safety._collapse_areas(ctx, st, worn) == want
            tight = safety._collapse_areas(ctx, st, worn + 1)
            assert safety._collapse_areas(ctx, st, worn, tight) == want
        one, three = _zone_by_the_rules(ctx, st, 1), _zone_by_the_rules(ctx, st, 3)
        wider += one != three
        spread += len(one[0]) > len(three[0]) + 5
    assert wider > 10 and spread > 0  # refuge_damage 1's zone is wider most turns
