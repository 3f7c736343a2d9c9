"""Step 9 rescue: search table, digging, Heavy Rescue, casualty status, carrying out."""

from __future__ import annotations

import math

import pytest
from test_units_world import events, usetup, uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.core.dice import Dice
from fireground.engine.games.blitz.rules import rescue
from fireground.engine.games.blitz.units import Casualty

L = ("B01", 0)
N = 2000


def within_4_sigma(hits: int, n: int, p: float) -> bool:
    return abs(hits / n - p) <= 4 * math.sqrt(p * (1 - p) / n)


def site(dice=(), buried=1, teams=("RT1",), heavy=False, doctor=False):
    forces = [ForceUnit(t, "rescue_team", area="B01") for t in teams]
    if heavy:
        forces.append(ForceUnit("HR", "heavy_rescue", area="S00"))
    if doctor:
        forces.append(ForceUnit("DOC", "doctor", area="B01", level=0))
    ctx, st = usetup(uworld(["SBB"], forces=forces), dice)
    ctx.step = 9
    if heavy:
        st.units["HR.1"].loc = L
        st.units["HR.1"].task = "idle"
    for _i in range(buried):
        st.add_casualty(L, "buried")
    return ctx, st


@pytest.mark.parametrize(
    ("roll", "status", "need"),
    [(1, "buried", ""), (3, "buried", ""), (4, "located", "heavy"), (5, "located", "dig")],
)
def test_search_table(roll, status, need):
    ctx, st = site([roll])
    rescue.step_rescue(ctx, st)
    c = st.casualties[0]
    assert (c.status, c.need) == (status, need)
    assert events(ctx, "rescue")[0]["dice"] == [roll]


def test_search_six_finds_and_rolls_status():
    ctx, st = site([6, 5])
    rescue.step_rescue(ctx, st)
    assert st.casualties[0].status == "badly_injured"
    ev = events(ctx, "casualty_status")[0]
    assert ev["modifier"] == 0 and ev["dice"] == [5]


def test_one_roll_per_team_per_turn():
    ctx, st = site([1, 2], buried=3, teams=("RT1", "RT2"))
    rescue.step_rescue(ctx, st)
    assert len(events(ctx, "rescue")) == 2


@pytest.mark.parametrize(("roll", "found"), [(6, True), (5, False)])
def test_dig_out_on_a_later_six(roll, found):
    ctx, st = site([5, roll, 1])
    rescue.step_rescue(ctx, st)
    assert st.casualties[0].need == "dig"
    rescue.step_rescue(ctx, st)
    assert (st.casualties[0].status != "located") is found
    assert events(ctx, "dig_out")[0]["need"] == ">=6"


def test_no_rescue_while_the_location_burns():
    ctx, st = site([6])
    st.fire[L] = 1
    rescue.step_rescue(ctx, st)
    assert not ctx.events and st.casualties[0].status == "buried"


def test_heavy_rescue_digs_1d6_x_5_turns():
    ctx, st = site([4, 2, 6], heavy=True, teams=("RT1",))
    # turn 1: the rescue team searches (4: needs Heavy Rescue); Heavy Rescue had nothing yet
    st.units["HR.1"].loc = ("B02", 0)
    rescue.step_rescue(ctx, st)
    c = st.casualties[0]
    assert (c.status, c.need) == ("located", "heavy")
    st.units["HR.1"].loc = L
    st.units["RT1"].loc = ("B02", 0)
    rescue.step_rescue(ctx, st)  # rolls 2: ten turns of digging, one done
    assert events(ctx, "dig_out")[0]["dice"] == [2] and c.dig_left == 9
    for _ in range(8):
        rescue.step_rescue(ctx, st)
    assert c.status == "located" and c.dig_left == 1
    rescue.step_rescue(ctx, st)  # found: status roll 6
    assert c.status == "lightly_injured"


@pytest.mark.parametrize(
    ("roll", "doctor", "status"),
    [(4, False, "dead"), (5, False, "badly_injured"), (6, False, "lightly_injured"),
     (4, True, "badly_injured"), (3, True, "dead"), (5, True, "lightly_injured")],
)  # fmt: skip
def test_casualty_status(roll, doctor, status):
    ctx, st = site([roll], buried=0, doctor=doctor)
    c = Casualty("C1", L, "found")
    st.casualties.append(c)
    rescue.step_rescue(ctx, st)
    assert c.status == status
    assert events(ctx, "casualty_status")[0]["modifier"] == (1 if doctor else 0)


def test_search_frequencies():
    ctx, st = site()
    ctx.dice = Dice(11)
    counts: dict[str, int] = {}
    for _ in range(N):
        st.casualties = [Casualty("C1", L)]
        ctx.events = []
        rescue.step_rescue(ctx, st)
        c = st.casualties[0]
        key = "free" if c.status not in ("buried", "located") else c.need or "not_found"
        counts[key] = counts.get(key, 0) + 1
    for key, p in (("not_found", 0.5), ("heavy", 1 / 6), ("dig", 1 / 6), ("free", 1 / 6)):
        assert within_4_sigma(counts.get(key, 0), N, p), (key, counts)


@pytest.mark.parametrize(
    ("doctor", "probs"),
    [(False, {"dead": 4 / 6, "badly_injured": 1 / 6, "lightly_injured": 1 / 6}),
     (True, {"dead": 3 / 6, "badly_injured": 1 / 6, "lightly_injured": 2 / 6})],
)  # fmt: skip
def test_casualty_status_frequencies(doctor, probs):
    ctx, st = site(buried=0, doctor=doctor)
    ctx.dice = Dice(21 + doctor)
    counts: dict[str, int] = {}
    for _ in range(N):
        st.casualties = [Casualty("C1", L, "found")]
        rescue.step_rescue(ctx, st)
        s = st.casualties[0].status
        counts[s] = counts.get(s, 0) + 1
    for key, p in probs.items():
        assert within_4_sigma(counts.get(key, 0), N, p), (key, counts)


def test_ambulance_carries_the_injured_out_through_an_entry():
    from fireground.engine.games.blitz.autopilot.driver import standing_orders
    from fireground.engine.games.blitz.rules import movement as mv

    sc = uworld(
        ["SSSB"], entries={"in": "S00"},
        forces=[ForceUnit("A1", "ambulance", entry="in")],
    )  # fmt: skip
    ctx, st = usetup(sc)
    st.casualties.append(Casualty("C1", ("B03", 0), "badly_injured"))
    for turn in range(1, 9):
        st.turn = turn
        mv.arrivals(ctx, st)
        standing_orders(ctx, st)
        if st.casualties[0].evacuated:
            break
    assert st.casualties[0].evacuated and st.units["A1"].carrying == []
    assert events(ctx, "evacuated")[0]["casualty"] == "C1"


def test_ambulance_crew_walks_to_the_injured_beyond_four_turns_when_the_road_is_cut():
    """Rubble blocks the road two areas from the entry: the ambulance cannot park within
    two turns' walk of the casualty 28 areas away, so its crew walks there (more than the
    four turns' walk it looks for work nearby) and carries it back (issue 15: before, the
    casualty lay there to the end of the game)."""
    from fireground.engine.games.blitz.autopilot.driver import standing_orders
    from fireground.engine.games.blitz.rules import movement as mv

    sc = uworld(
        ["S" * 30], entries={"in": "S00"},
        forces=[ForceUnit("A1", "ambulance", entry="in")],
    )  # fmt: skip
    ctx, st = usetup(sc)
    st.rubble.add("S02")
    st.casualties.append(Casualty("C1", ("S029", 0), "lightly_injured"))
    for turn in range(1, 41):
        st.turn = turn
        mv.arrivals(ctx, st)
        standing_orders(ctx, st)
        if st.casualties[0].evacuated:
            break
    assert st.casualties[0].evacuated, (st.casualties[0], st.units)


def test_ambulance_parks_where_it_can_stay_and_its_crew_gets_out():
    """A fire two spreads from the casualty's street: the ambulance used to park there,
    the standing order that keeps vehicles clear of fire drove it off next turn, and it
    drove back the turn after, its crew aboard for ever (issue 15, seen in Surrey Docks).
    Now it parks where it may stay, and the crew carries the casualty to it."""
    from fireground.engine.games.blitz.autopilot.driver import standing_orders
    from fireground.engine.games.blitz.rules import movement as mv

    sc = uworld(
        ["SSSSSSSSSSBB"], entries={"in": "S00"},
        forces=[ForceUnit("A1", "ambulance", entry="in")],
    )  # fmt: skip
    ctx, st = usetup(sc)
    st.fire[("B011", 0)] = 3
    st.casualties.append(Casualty("C1", ("S09", 0), "lightly_injured"))
    for turn in range(1, 21):
        st.turn = turn
        mv.arrivals(ctx, st)
        standing_orders(ctx, st)
        if st.casualties[0].evacuated:
            break
    assert st.casualties[0].evacuated, (st.casualties[0], st.units)
