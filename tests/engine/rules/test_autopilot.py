"""Standing orders end to end, and properties of whole turns over random small maps."""

from __future__ import annotations

import hypothesis.strategies as hs
from hypothesis import given, settings
from test_units_world import uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.games.blitz.rules import water
from fireground.engine.games.blitz.steps import steps
from fireground.engine.play.simulate import new_game


def rules_in(logs, rule):
    return [e for log in logs for e in log.events if e["rule"] == rule]


def one_fire_scenario(**kw):
    return uworld(
        ["SSSSS", "BBBBB"],
        entries={"from the west": "S00"},
        hydrants=["S03"],
        fires={("B14", 0): 1},
        forces=[ForceUnit("E1", "general_appliance", entry="from the west", arrives=1)],
        **kw,
    )


def test_appliance_arrives_connects_lays_and_attacks():
    game = new_game(one_fire_scenario(), seed=3)
    logs = game.run(6)
    arrive, drive = rules_in(logs, "arrive"), rules_in(logs, "drive")
    assert arrive[0]["unit"] == "E1" and drive[0]["to"]["area"] in ("S03", "S04")
    assert rules_in(logs, "connect")[0]["source"].startswith("hydrant:")
    assert rules_in(logs, "hose_start")
    fights = rules_in(logs, "extinguish")
    assert fights and fights[0]["at"]["area"] in {"B14", "B13"} | {f"B1{i}" for i in range(5)}


def test_the_fire_is_usually_beaten():
    out = 0
    for seed in range(8):
        game = new_game(one_fire_scenario(), seed=seed)
        game.run(12)
        out += not game.state.fire
    assert out >= 5  # one small fire against a full appliance with a hydrant


def test_teams_take_their_lines_up_when_the_fire_is_out_and_another_burns():
    sc = uworld(
        ["SSSSSSSSSSS", "B.........B"],
        entries={"in": "S00"},
        hydrants=["S00", "S10"],
        fires={("B10", 0): 1, ("B110", 0): 5},
        forces=[ForceUnit("E1", "general_appliance", entry="in")],
    )
    game = new_game(sc, seed=2)
    logs = game.run(25)
    assert rules_in(logs, "hose_recovered")
    assert any(e["at"]["area"] == "B110" for e in rules_in(logs, "extinguish"))
    assert not rules_in(logs, "hose_short")  # lines planned within the lengths left


def test_fire_party_tackles_a_small_fire_and_refills():
    sc = uworld(
        ["SBB"], fires={("B02", 0): 1},
        forces=[ForceUnit("FP", "fire_party", area="B01")],
    )  # fmt: skip
    game = new_game(sc, seed=5)
    logs = game.run(3)
    assert rules_in(logs, "fire_party")


def test_same_seed_same_log():
    a = new_game(one_fire_scenario(), seed=9)
    b = new_game(one_fire_scenario(), seed=9)
    a.run(10)
    b.run(10)
    assert a.log_json() == b.log_json()


# -- properties --------------------------------------------------------------------------------
cells = hs.sampled_from("BBBSSO")


@hs.composite
def small_world(draw):
    rows = [
        "S" + "".join(draw(hs.lists(cells, min_size=3, max_size=3))),
        "".join(draw(hs.lists(cells, min_size=4, max_size=4))),
        "S" + "".join(draw(hs.lists(cells, min_size=3, max_size=3))),
    ]
    ids = [f"{ch}{r}{c}" for r, row in enumerate(rows) for c, ch in enumerate(row)]
    buildings = [a for a in ids if a[0] == "B"]
    fires = {}
    for a in draw(hs.lists(hs.sampled_from(buildings), max_size=3)) if buildings else []:
        fires[(a, 0)] = draw(hs.integers(1, 5))
    levels = {a: draw(hs.integers(1, 3)) for a in buildings}
    stairs = [a for a in buildings if draw(hs.booleans())]
    forces = [
        ForceUnit("E1", "general_appliance", entry="in"),
        ForceUnit("SP", "small_pump_team", entry="in", arrives=2),
        ForceUnit("RT", "rescue_team", entry="in", arrives=3),
    ]
    if buildings:
        forces.append(ForceUnit("FP", "fire_party", area=buildings[0]))
    sc = uworld(
        rows, levels=levels, stairs=stairs, fires=fires, entries={"in": "S00"},
        hydrants=["S20"], forces=forces, bombing=draw(hs.booleans()),
        house_rules={"hose.max_lengths": draw(hs.integers(1, 14))},
    )  # fmt: skip
    return sc, draw(hs.integers(0, 10**6))


@settings(max_examples=30)
@given(small_world())
def test_turn_properties(world_seed):
    sc, seed = world_seed
    game = new_game(sc, seed=seed)
    ctx, st = game.ctx, game.state
    max_len = ctx.rules.int("hose.max_lengths")
    for _ in range(10):
        ctx.events = []
        st.begin_turn()
        for number, fn in steps():
            ctx.step = number
            fn(ctx, st)
            if fn.__name__ == "step_movement":
                for u in st.units.values():
                    assert not (u.in_play and u.loc in st.fire), (u.id, u.loc)
        for u in st.units.values():
            assert u.water >= 0 and u.hose_left >= 0 and u.rations >= 0
        assert all(v >= 0 for v in st.water_left.values())
        for h in st.hoses.values():
            assert h.water >= 0
            if h.water > 0:
                assert water.effective_lengths(ctx, st.units[h.unit], h) <= max_len
            assert h.lengths >= 1 and h.path


def test_team_uses_a_deployed_pump_in_its_street_when_its_own_is_full_or_dry():
    from test_units_world import add_hose, usetup

    from fireground.engine.games.blitz.autopilot.jobs import feeding_pump

    sc = uworld(
        ["SSB"],
        forces=[
            ForceUnit("E1", "general_appliance", area="S00"),
            ForceUnit("HP", "heavy_pump", area="S00"),
        ],
        hydrants=["S00"],
    )
    _, st = usetup(sc)
    e1, hp = st.units["E1"], st.units["HP"]
    assert feeding_pump(st, e1) is e1
    e1.water = 0
    assert feeding_pump(st, e1) is None  # dry, and the skid pump is not unloaded yet
    hp.deployed, hp.source = True, "hydrant:S00"
    assert feeding_pump(st, e1) is hp
    e1.water = 10
    for i in range(4):
        add_hose(st, f"H{i}", "E1", [("S00", 0)], None)
    assert feeding_pump(st, e1) is hp
