"""Player orders: legal ones take effect at step 6 (R-9 timing), illegal ones are refused
with the rule they break and leave the state as it was; the orders file."""

from __future__ import annotations

import json

import pytest
from test_units_world import add_hose, events, usetup, uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.core.errors import ScenarioError
from fireground.engine.games.blitz.orders.apply import apply_due, give_order
from fireground.engine.games.blitz.orders.check import Order, OrderError
from fireground.engine.games.blitz.orders.file import apply_orders, loads_orders
from fireground.engine.games.blitz.rules import hoses
from fireground.engine.play.simulate import new_game

FORCES = [
    ForceUnit("E1", "general_appliance", area="S00"),
    ForceUnit("OFF", "officer", area="S01"),
    ForceUnit("RT", "rescue_team", area="S01"),
]


def game(forces=FORCES, **kw):
    sc = uworld(["SSSSB", "BBBB."], forces=forces, hydrants=["S00"], levels={"B04": 3}, **kw)
    ctx, st = usetup(sc)
    st.turn = 0  # orders are given between turns
    for s in ("E1.1", "E1.2", "E1.3"):
        st.units[s].task = "idle"
    return ctx, st


def refused(ctx, st, order, rule):
    before = json.dumps(st.to_log(), sort_keys=True)
    pending = list(st.extra.get("pending_orders", []))
    with pytest.raises(OrderError) as exc:
        give_order(ctx, st, order)
    assert exc.value.rule == rule, str(exc.value)
    assert json.dumps(st.to_log(), sort_keys=True) == before
    assert st.extra.get("pending_orders", []) == pending
    return str(exc.value)


def play_step6(ctx, st):
    st.turn += 1
    ctx.events = []
    apply_due(ctx, st)
    hoses.lay_hoses(ctx, st)


# -- timing (R-9) ------------------------------------------------------------------------------
def test_order_near_the_officer_takes_effect_next_step_6():
    ctx, st = game()
    assert give_order(ctx, st, Order("E1", "move", to=("S03", 0))) == 1
    assert st.units["E1"].loc == ("S00", 0)
    play_step6(ctx, st)
    assert st.units["E1"].loc == ("S03", 0)
    assert events(ctx, "order")[0]["unit"] == "E1"


def test_far_unit_needs_a_messenger():
    forces = [
        ForceUnit("E1", "general_appliance", area="S00"),
        ForceUnit("OFF", "officer", area="S03"),
    ]
    ctx, st = game(forces)
    msg = refused(ctx, st, Order("E1", "move", to=("S02", 0)), "R-9")
    assert "messenger" in msg
    ctx, st = game([*forces, ForceUnit("MB", "messenger_boy", area="S04")])
    assert give_order(ctx, st, Order("E1", "move", to=("S02", 0))) == 2
    play_step6(ctx, st)
    assert st.units["E1"].loc == ("S00", 0)
    play_step6(ctx, st)
    assert st.units["E1"].loc == ("S02", 0)


def test_order_checked_again_when_it_takes_effect():
    ctx, st = game()
    give_order(ctx, st, Order("E1", "move", to=("S03", 0)))
    st.rubble.add("S02")
    play_step6(ctx, st)
    (ev,) = events(ctx, "order")
    assert "§7" in ev["refused"] and st.units["E1"].loc == ("S00", 0)


# -- each order, legal and refused -------------------------------------------------------------
def test_unknown_unit_or_order():
    ctx, st = game()
    refused(ctx, st, Order("X9", "move", to=("S01", 0)), "orders")
    refused(ctx, st, Order("E1", "fly", to=("S01", 0)), "orders")


def test_vehicle_moves_on_clear_streets_only():
    ctx, st = game()
    refused(ctx, st, Order("E1", "move", to=("B04", 0)), "§7")
    st.craters.add("S01")
    refused(ctx, st, Order("E1", "move", to=("S03", 0)), "§7")


def test_stand_moves_on_foot_never_into_fire():
    ctx, st = game()
    st.fire[("B10", 0)] = 1
    refused(ctx, st, Order("E1.1", "move", to=("B10", 0)), "§4")
    give_order(ctx, st, Order("E1.1", "move", to=("B04", 0)))
    play_step6(ctx, st)
    assert st.units["E1.1"].loc == ("B04", 0) and st.units["E1.1"].order is None
    refused(ctx, st, Order("E1.2", "move", to=("B04", 2)), "§7")  # no stairs, no ladder


def test_lay_hose_and_stream():
    ctx, st = game()
    path = [("S00", 0), ("S01", 0), ("S02", 0), ("S03", 0)]
    st.fire[("B04", 0)] = 2
    give_order(ctx, st, Order("E1.1", "lay_hose", path=tuple(path), at=("B04", 0)))
    play_step6(ctx, st)
    h = st.hoses["H1"]
    assert h.plan == [("S03", 0)] and h.target == ("B04", 0) and st.units["E1.1"].order
    refused(ctx, st, Order("E1.1", "stream", at=("B04", 0)), "§9")  # not laid yet


@pytest.mark.parametrize(
    ("path", "rule"),
    [
        ([("S01", 0), ("S02", 0)], "§7"),  # does not start at the pump
        ([("S00", 0), ("S02", 0)], "§7"),  # not neighbours
        ([("S00", 0), ("B10", 0)], "§4"),  # through fire
    ],
)
def test_lay_hose_refusals(path, rule):
    ctx, st = game()
    st.fire[("B10", 0)] = 1
    refused(ctx, st, Order("E1.1", "lay_hose", path=tuple(path)), rule)


def test_lay_hose_needs_lengths_and_a_free_pump():
    ctx, st = game()
    st.units["E1"].hose_left = 1
    refused(
        ctx,
        st,
        Order("E1.1", "lay_hose", path=(("S00", 0), ("S01", 0), ("S02", 0), ("S03", 0))),
        "§11",
    )
    ctx, st = game()
    for i in range(4):
        add_hose(st, f"H{i}", "E1", [("S00", 0)], None)
    refused(ctx, st, Order("E1.1", "lay_hose", path=(("S00", 0),)), "§8")


def test_stream_and_damp_down_on_a_laid_line():
    ctx, st = game()
    add_hose(st, "H1", "E1", [("S00", 0), ("S01", 0), ("S02", 0)], None, ["E1.1"])
    st.fire[("S03", 0)] = 1
    st.fire[("B10", 0)] = 2
    refused(ctx, st, Order("E1.1", "stream", at=("B04", 0)), "§9")  # nothing burns there
    refused(ctx, st, Order("E1.1", "damp_down", at=("B10", 0)), "§4")
    refused(ctx, st, Order("E1.1", "stream", at=("B04", 2)), "§9")  # range 4
    give_order(ctx, st, Order("E1.1", "stream", at=("B10", 0)))
    play_step6(ctx, st)
    assert st.hoses["H1"].target == ("B10", 0) and st.units["E1.1"].task == "fight"
    give_order(ctx, st, Order("E1.1", "damp_down", at=("B04", 1)))
    play_step6(ctx, st)
    assert st.hoses["H1"].target == ("B04", 1) and st.units["E1.1"].task == "damp"


def test_stream_targets_the_branch_location_only_to_damp_it():
    # the branch's own location is in range (as range 1): damping it is an order, but a
    # crew cannot play on a fire it stands in, and water is never a target
    sc = uworld(["SSSW"], forces=FORCES[:2], hydrants=["S00"])
    ctx, st = usetup(sc)
    st.turn = 0
    add_hose(st, "H1", "E1", [("S00", 0), ("S01", 0)], None, ["E1.1"])
    refused(ctx, st, Order("E1.1", "damp_down", at=("W03", 0)), "§4")
    give_order(ctx, st, Order("E1.1", "damp_down", at=("S01", 0)))
    play_step6(ctx, st)
    assert st.hoses["H1"].target == ("S01", 0) and st.units["E1.1"].task == "damp"
    st.fire[("S01", 0)] = 1  # it caught under the crew (R-10 sends them out in step 6)
    refused(ctx, st, Order("E1.1", "stream", at=("S01", 0)), "§4")
    st.units["E1.2"].loc = ("S00", 0)
    refused(ctx, st, Order("E1.2", "lay_hose", path=(("S00", 0),), at=("W03", 0)), "§4")


def test_connect():
    ctx, st = game()
    give_order(ctx, st, Order("E1", "connect", source="hydrant"))
    play_step6(ctx, st)
    assert st.units["E1"].source == "hydrant:S00" and st.units["E1"].order is None
    ctx, st = game()
    refused(ctx, st, Order("E1", "connect", source="hydrant:S02"), "§8")
    refused(ctx, st, Order("E1.1", "connect", source="tank"), "§8")
    # every refusal names its rule once, then says why (was "unknown water source 'x': ..."
    # twice, the message having no rule to split off)
    with pytest.raises(OrderError) as exc:
        give_order(ctx, st, Order("E1", "connect", source="weird"))
    assert exc.value.rule == "§8" and str(exc.value).count("unknown water source") == 1


def test_pitch_ladder():
    ctx, st = game()
    refused(ctx, st, Order("E1", "pitch_ladder", face="B04"), "§7")  # not next to S00
    give_order(ctx, st, Order("E1", "pitch_ladder", face="B10"))
    play_step6(ctx, st)
    assert st.units["E1"].ladders[0].face == "B10"


def test_rescue_rest_withdraw():
    ctx, st = game()
    refused(ctx, st, Order("RT", "rescue", at=("B11", 0)), "§9")  # nobody buried there
    st.add_casualty(("B11", 0))
    st.fire[("B11", 0)] = 1
    refused(ctx, st, Order("RT", "rescue", at=("B11", 0)), "§9")
    del st.fire[("B11", 0)]
    refused(ctx, st, Order("E1.1", "rescue", at=("B11", 0)), "§9")  # not a rescue team
    give_order(ctx, st, Order("RT", "rescue", at=("B11", 0)))
    play_step6(ctx, st)
    assert st.units["RT"].loc == ("B11", 0) and st.units["RT"].task == "rescue"
    refused(ctx, st, Order("E1", "rest"), "§10")
    give_order(ctx, st, Order("E1.2", "rest"))
    play_step6(ctx, st)
    assert st.units["E1.2"].task == "rest"
    add_hose(st, "H1", "E1", [("S00", 0)], None)
    refused(ctx, st, Order("E1", "withdraw", to=("S03", 0)), "§7")


# -- the file ----------------------------------------------------------------------------------
def test_orders_file_parses_locations():
    book = loads_orders(
        "orders:\n"
        "  - {turn: 1, unit: E1, order: move, to: S03}\n"
        "  - {turn: 2, unit: E1.1, order: lay_hose, path: [S00, [S01, 0]], at: {area: B04, level: 1}}\n"
    )
    a, b = book.orders
    assert a == Order("E1", "move", 1, to=("S03", 0))
    assert b.path == (("S00", 0), ("S01", 0)) and b.at == ("B04", 1)
    assert b.where == "<orders>:3:5" and book.for_turn(2) == [b]


def test_orders_file_is_json_too():
    book = loads_orders(json.dumps({"orders": [{"turn": 3, "unit": "E1", "order": "rest"}]}))
    assert book.orders[0].kind == "rest"


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("orders:\n  - {turn: 1, unit: E1, order: fly}\n", ":2:", "unknown order"),
        ("orders:\n  - {turn: 0, unit: E1, order: rest}\n", ":2:", "turn"),
        ("orders:\n  - {turn: 1, unit: E1, order: move, to: [1, 2, 3]}\n", ":2:", "location"),
        ("orders:\n  - {turn: 1, unit: E1, order: move, to: [JS3, true]}\n", ":2:", "location"),
        (
            "orders:\n  - {turn: 1, unit: E1, order: move, to: {area: JS3, level: true}}\n",
            ":2:",
            "location",
        ),
        ("orders:\n  - {turn: 1, unit: E1, order: rest, speed: 3}\n", ":2:", "unknown key"),
        ("orders:\n  - {turn: 1, order: rest}\n", ":2:", "needs 'unit'"),
        ("plans: []\n", ":1:", "unknown key"),
        ("orders: [\n", ":2:1:", "YAML syntax error"),
        ("a: &x [1]\norders: *x\n", ":1:4:", "anchors"),
        ("orders:\n  - !!python/object:os.system {turn: 1}\n", ":2:", "tag"),
    ],
)
def test_orders_file_errors(text, where, words):
    # the orders file is read by the scenario loader's defensive reader (aliases, tags refused)
    with pytest.raises(ScenarioError) as exc:
        loads_orders(text, "o.yaml")
    msg = str(exc.value)
    assert msg.startswith("o.yaml" + where) and words in msg


def test_simulate_applies_file_orders_and_logs_refusals(capsys):
    sc = uworld(["SSSSB"], forces=FORCES[:2], hydrants=["S00"])
    game_ = new_game(sc, seed=1)
    book = loads_orders(
        "orders:\n"
        "  - {turn: 1, unit: E1, order: move, to: S02}\n"
        "  - {turn: 1, unit: E1, order: move, to: B04}\n",
        "o.yaml",
    )
    game_.orders = book
    log = game_.step()
    assert game_.state.units["E1"].loc == ("S02", 0)
    orders = [e for e in log.events if e["rule"] == "order"]
    assert any("refused" in e and "§7" in e["refused"] for e in orders)
    assert "o.yaml:3:5: order refused" in capsys.readouterr().err
    assert apply_orders  # the hook simulate calls


def test_file_orders_reach_units_arriving_that_turn_and_hold_them():
    sc = uworld(
        ["SSSSB"],
        entries={"in": "S00"},
        hydrants=["S03"],
        fires={("B04", 0): 1},
        forces=[
            ForceUnit("E1", "general_appliance", entry="in"),
            ForceUnit("OFF", "officer", entry="in"),
        ],
    )
    game_ = new_game(sc, seed=4)
    game_.orders = loads_orders("orders:\n  - {turn: 1, unit: E1, order: move, to: S02}\n")
    log = game_.step()
    assert [e.get("refused") for e in log.events if e["rule"] == "order"] == [None]
    assert game_.state.units["E1"].loc == ("S02", 0)  # not re-parked at the hydrant
    game_.step()
    assert game_.state.units["E1"].loc == ("S02", 0)  # work in reach: it stays


def test_bare_yaml_1_1_words_stay_text_in_orders() -> None:
    # YAML 1.1 would read a bare OFF as false; the defensive reader keeps it as the unit id
    book = loads_orders("orders:\n  - {turn: 1, unit: OFF, order: rest}\n", "o.yaml")
    assert [o.unit for o in book.orders] == ["OFF"]
