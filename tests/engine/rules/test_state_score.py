"""The scorecard (§12) and the scenario objectives."""

from __future__ import annotations

from dataclasses import replace

from test_fire_world import put_unit, setup, world

from fireground.engine.board.model import Objective
from fireground.engine.core.ruleset import load_ruleset
from fireground.engine.games.blitz.score import scorecard


def score_of(objectives, prep):
    sc = replace(world(["BB", "BS"]), objectives=tuple(objectives))
    _, st = setup(sc)
    prep(st)
    return scorecard(sc, st, load_ruleset())


def test_counts():
    def prep(st):
        st.fire = {("B00", 0): 2, ("B01", 0): 5}
        st.damage = {("B00", 0): 5, ("B01", 0): 4}
        st.add_casualty(("B00", 0), "dead")
        st.add_casualty(("B00", 0), "badly_injured")
        st.add_casualty(("B00", 0), "lightly_injured")
        st.add_casualty(("B00", 0), "buried")
        put_unit(st, "F1", ("S11", 0)).status = "casualty"
        put_unit(st, "F2", ("S11", 0))

    s = score_of([], prep)
    assert (s["destroyed"], s["burning"], s["dead"], s["injured"], s["rescued"]) == (1, 2, 1, 2, 2)
    assert s["buried"] == 1 and s["units_lost"] == 1 and s["objectives"] == []


def test_objectives_met_and_failed():
    objs = [
        Objective("protect", building="bB00"),
        Objective("protect", building="bB01"),
        Objective("protect", area="B10"),
        Objective("rescue", at_least=1),
        Objective("rescue", at_least=2),
        Objective("contain", max_destroyed=1),
        Objective("contain", max_destroyed=0),
    ]

    def prep(st):
        st.damage = {("B00", 0): 5}
        st.add_casualty(("B01", 0), "lightly_injured")
        st.add_casualty(("B01", 0), "lightly_injured", origin="E1.1")  # a fireman: not a rescue

    s = score_of(objs, prep)
    assert [o["met"] for o in s["objectives"]] == [False, True, True, True, False, True, False]
