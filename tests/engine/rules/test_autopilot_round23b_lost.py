"""Round 23b (issue 15): :func:`priorities.lost_causes` with many fires (the map read
backwards, the fires off the map found by a set difference against the map's index).
Asked of states that jump about (fires started and put out, places destroyed and mended,
rubble and vehicles come and gone, a fire off the map, and a second state in between), it
must give the fire-by-fire answer every time."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from test_autopilot_fireplan import lost_one_by_one

from fireground.engine.board.model import AreaKind
from fireground.engine.games.blitz.autopilot import priorities
from fireground.engine.games.blitz.reach import danger
from fireground.engine.games.blitz.units import VEHICLE
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

BASELINE = Path(__file__).resolve().parents[3] / "benchmarks" / "baseline_examples"


def _shake(rng, ctx, st, places, grounds, vehicles):
    """Change a few places at random: fires, damage, rubble and a vehicle's street."""
    gone = ctx.rules.int("damage.destroyed")
    for _ in range(rng.randint(0, 6)):
        loc = rng.choice(places)
        if loc in st.fire and rng.random() < 0.6:
            del st.fire[loc]
        else:
            st.fire[loc] = rng.randint(1, 4)
    for _ in range(rng.randint(0, 6)):
        loc = rng.choice(places)
        st.damage[loc] = rng.choice([0, gone - 1, gone, gone + 1])
    for _ in range(rng.randint(0, 2)):
        st.rubble ^= {rng.choice(grounds)}
    if vehicles and rng.random() < 0.3:
        rng.choice(vehicles).loc = (rng.choice(grounds), 0)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_kept_places_follow_every_change(seed):
    sc = load_scenario(BASELINE / "paternoster.fg.yaml")
    sc = replace(sc, house_rules={**sc.house_rules, "policy.hold_back_fire": 1})
    game = new_game(sc, seed, log_events=False)
    ctx, st = game.ctx, game.state
    for _ in range(25):
        game.step()
    near = danger.neighbours_of(ctx)
    places = sorted(near)
    grounds = sorted(a.id for a in ctx.scenario.areas if a.kind in (AreaKind.STREET, AreaKind.OPEN))
    rng = random.Random(seed)
    other = st.copy()
    many = 0
    for i in range(120):
        here = other if i % 7 == 6 else st  # now and then another state entirely
        vehicles = [u for u in here.units.values() if u.kind == VEHICLE and u.loc is not None]
        _shake(rng, ctx, here, places, grounds, vehicles)
        if i % 3 == 0:  # and many fires, so the many-fires way is asked
            for loc in rng.sample(places, 40):
                here.fire.setdefault(loc, rng.randint(1, 4))
        if i % 11 == 5:  # a fire at a level the map does not have
            here.fire[(rng.choice(grounds), 7)] = rng.randint(1, 4)
        got = set(priorities.lost_causes(ctx, here))
        assert got == lost_one_by_one(ctx, here, 1)
        if 4 * len(here.fire) > len(near) - len(here.fire):
            many += 1
    assert many >= 60  # the many-fires way was asked
