"""GameState: start situation, copies, and the logged state."""

from __future__ import annotations

from test_fire_world import put_unit, setup, world

from fireground.engine.board.model import LocationRef, LocationValue, Start
from fireground.engine.games.blitz.units import Casualty


def test_initial_state_from_start():
    sc = world(["BBS"], occupants={("B00", 0): 3})
    from dataclasses import replace

    sc = replace(sc, start=Start(
        fires=(LocationValue("B01", 0, 2),), embers=(LocationRef("B00", 0),),
        damp=(LocationValue("B00", 0, 2),), damage=(LocationValue("B01", 0, 3),),
        rubble=("S02",), all_clear=True))  # fmt: skip
    _, st = setup(sc)
    assert st.fire == {("B01", 0): 2} and st.embers == {("B00", 0)}
    assert st.damp == {("B00", 0): 2} and st.damage == {("B01", 0): 3}
    assert st.rubble == {"S02"} and st.all_clear and st.occupants == {("B00", 0): 3}


def test_copy_is_independent():
    _, st = setup(world(["BB"], fires={("B00", 0): 1}))
    put_unit(st, "F1", ("B01", 0))
    c = st.copy()
    c.fire[("B01", 0)] = 3
    c.units["F1"].loc = ("B00", 0)
    c.casualties.append(Casualty("C1", ("B00", 0)))
    assert st.fire == {("B00", 0): 1} and st.units["F1"].loc == ("B01", 0)
    assert not st.casualties
    assert c.to_log() != st.to_log()
    assert st.copy().to_log() == st.to_log()


def test_to_log_is_sorted():
    _, st = setup(world(["BBB"]))
    st.fire = {("B02", 0): 1, ("B00", 0): 3}
    st.damage = {("B01", 0): 2, ("B00", 0): 4}
    st.rubble = {"Z", "A"}
    log = st.to_log()
    assert [f["area"] for f in log["fires"]] == ["B00", "B02"]
    assert log["fires"][0] == {"area": "B00", "level": 0, "fire": 3}
    assert [d["area"] for d in log["damage"]] == ["B00", "B01"]
    assert log["rubble"] == ["A", "Z"]
    for key in (
        "fires",
        "embers",
        "damp",
        "damage",
        "rubble",
        "craters",
        "all_clear",
        "units",
        "hoses",
        "casualties",
    ):
        assert key in log
