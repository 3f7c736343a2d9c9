"""Forest Fire rules, one test per rule and ruling (spec/forestfire-rules.md), scripted dice."""

from __future__ import annotations

import pytest

from fireground.engine.core.dice import ScriptedDice
from fireground.engine.games.forestfire.rules import HouseRuleError, load_rules
from fireground.engine.games.forestfire.state import (
    ACT,
    FIRE_ACTION,
    LOAD,
    PLACE,
    SPRAY,
    Action,
    Engine,
    Phase,
    State,
)
from fireground.engine.games.forestfire.steps import (
    CHIEF_WIN,
    MARGINAL,
    TOTAL,
    IllegalAction,
    apply,
    initial_state,
    legal_actions,
    result_band,
)

R = load_rules()
NO_DICE = ScriptedDice([])


def fire_state(tokens: dict[int, int], burnt: tuple[int, ...] = (), engines=((1, 0), (1, 0)),
               vp: int = 0, rules=R) -> State:  # fmt: skip
    t = [0] * rules.squares
    for s, c in tokens.items():
        t[s - 1] = c
    return State(tuple(t), tuple(i + 1 in burnt for i in range(rules.squares)),
                 tuple(Engine(s, w) for s, w in engines), vp, 1, Phase(FIRE_ACTION))  # fmt: skip


def chief_state(tokens, engines, burnt=(), engine=0, kind=ACT, rules=R) -> State:
    return fire_state(tokens, burnt, engines, rules=rules)._replace(
        phase=Phase(kind, engine=engine)
    )


def counts(st: State) -> dict[int, int]:
    return {i + 1: t for i, t in enumerate(st.tokens) if t}


def test_defaults_follow_the_spec() -> None:
    assert (R.squares, R.capacity, R.move, R.wind_squares, R.spray_range) == (11, 5, 5, 3, 2)
    assert R.spray_need == (0, 3, 5) and R.burn_out_at == 6 and R.rightmost_at_total == 0
    assert (R.vp_square, R.vp_town, R.vp_engine, R.vp_win, R.rounds_max) == (1, 10, 5, 10, 60)


def test_house_rules_replace_numbers_and_refuse_unknown_keys() -> None:
    assert load_rules({"burn_out.at": 8, "spray.need": [0, 2, 4]}).burn_out_at == 8
    with pytest.raises(HouseRuleError, match="unknown house rule"):
        load_rules({"burn_out.never": 1})
    with pytest.raises(HouseRuleError, match="whole number"):
        load_rules({"engine.move": "fast"})


def test_start_one_token_on_the_last_square_engines_in_town() -> None:
    st = initial_state(R)
    assert counts(st) == {11: 1}
    assert st.engines == (Engine(1, 0), Engine(1, 0)) and st.phase.kind == FIRE_ACTION


def test_wind_ff1_three_squares_townward_skipping_burnt() -> None:
    st = fire_state({6: 2, 9: 1}, burnt=(4,))
    st2, ev = apply(st, Action("wind"), R, NO_DICE)
    assert counts(st2) == {5: 1, 3: 1, 6: 2, 9: 1}  # 4 is burnt: no fourth square instead
    assert ev[0] == {"step": "action", "rule": "FF-wind", "side": "fire", "square": 6,
                     "placed": [5, 3]}  # fmt: skip


def test_wind_ff1_nothing_falls_off_the_board() -> None:
    st2, _ = apply(fire_state({2: 1}, engines=((5, 0),)), Action("wind"), R, NO_DICE)
    assert counts(st2) == {1: 1, 2: 1}


def test_grow_only_on_a_burning_square() -> None:
    st = fire_state({7: 3})
    assert Action("grow", 7) in legal_actions(st, R)
    assert Action("grow", 6) not in legal_actions(st, R)
    st2, _ = apply(st, Action("grow", 7), R, NO_DICE)
    assert counts(st2) == {7: 4}
    with pytest.raises(IllegalAction):
        apply(st, Action("grow", 6), R, NO_DICE)


def test_intensify_ff2_burns_first_then_places_2n_within_n() -> None:
    st = fire_state({5: 2}, burnt=(4,), engines=((10, 0),))
    st, _ev = apply(st, Action("intensify", 5), R, NO_DICE)
    assert st.burnt[4] and st.vp == 1 and st.phase.kind == PLACE and st.phase.left == 4
    assert [a.square for a in legal_actions(st, R)] == [3, 6, 7]  # not 5 (burnt), not 4
    for sq in (3, 3, 6, 7):
        assert st.phase.kind == PLACE
        st, _ = apply(st, Action("place", sq), R, NO_DICE)
    assert counts(st) == {3: 2, 6: 1, 7: 1} and st.side == "chief"


def test_intensify_ff2_town_is_legal_and_each_split_has_one_order() -> None:
    st = fire_state({2: 1}, engines=((9, 0),))
    st, _ = apply(st, Action("intensify", 2), R, NO_DICE)
    assert [a.square for a in legal_actions(st, R)] == [1, 3]
    st, _ = apply(st, Action("place", 3), R, NO_DICE)
    assert [a.square for a in legal_actions(st, R)] == [3]  # no going back to 1 after 3


def test_intensify_tokens_with_no_legal_square_are_lost() -> None:
    st = fire_state({5: 1}, burnt=(4, 6), engines=((10, 0),))
    st, ev = apply(st, Action("intensify", 5), R, NO_DICE)
    assert counts(st) == {} and st.over and st.phase.why == "no fire"
    assert any(e["step"] == "tokens_lost" and e["count"] == 2 for e in ev)


def test_burn_out_ff3_only_at_the_end_of_the_fire_turn() -> None:
    st = fire_state({5: 3}, engines=((10, 0),))
    st, _ = apply(st, Action("intensify", 5), R, NO_DICE)  # 6 tokens to place within 3
    for _ in range(5):
        st, _ = apply(st, Action("place", 8), R, NO_DICE)
        assert not st.burnt[7]  # 5 tokens, not yet burning out mid-turn
    st, _ev = apply(st, Action("place", 8), R, NO_DICE)
    assert st.burnt[7] and st.tokens[7] == 0 and st.vp == 2
    st2, _ = apply(fire_state({7: 5}, engines=((10, 0),)), Action("grow", 7), R, NO_DICE)
    assert st2.burnt[6] and st2.vp == 1


def test_burn_out_at_is_a_house_rule() -> None:
    r8 = load_rules({"burn_out.at": 8})
    st, _ = apply(fire_state({7: 5}, engines=((10, 0),), rules=r8), Action("grow", 7), r8, NO_DICE)
    assert not st.burnt[6] and st.tokens[6] == 6


def test_ff3_rightmost_variant_burns_the_rightmost_at_8_on_the_board() -> None:
    rv = load_rules({"burn_out.rightmost_at_total": 8})
    st = fire_state({3: 2, 5: 3, 9: 2}, engines=((11, 0),), rules=rv)
    st2, _ev = apply(st, Action("grow", 5), rv, NO_DICE)  # 8 tokens on the board
    assert counts(st2) == {3: 2, 5: 4} and st2.burnt[8] and st2.vp == 1
    st3, _ = apply(st, Action("grow", 5), R, NO_DICE)  # off by default
    assert counts(st3) == {3: 2, 5: 4, 9: 2}


def test_town_burns_ff4_for_10_vp_and_the_game_ends() -> None:
    st, ev = apply(fire_state({1: 5, 3: 1}, engines=((9, 0),)), Action("grow", 1), R, NO_DICE)
    assert st.over and st.vp == 10 and st.phase.why == "vp"
    assert ev[-1]["result"] == TOTAL


def test_engines_on_fire_are_lost_at_the_start_of_the_fire_turn() -> None:
    # The Chief's last engine ends its turn on a burning square: Fire destroys it.
    st = chief_state({4: 1, 8: 2}, engines=((4, 0), (11, 0)), engine=1)
    st, ev = apply(st, Action("move", 10), R, NO_DICE)
    assert st.engines[0].destroyed and not st.engines[1].destroyed and st.vp == 5
    assert [e["step"] for e in ev] == ["move", "engine_lost"] and st.round == 2


def test_two_engines_lost_reach_10_vp_and_end_the_game() -> None:
    st = chief_state({4: 1, 8: 2}, engines=((4, 0), (8, 0)), engine=1)
    st, _ = apply(st, Action("move", 8), R, NO_DICE)
    assert st.over and st.vp == 10 and result_band(st.vp, R) == TOTAL


def test_engine_is_safe_on_a_burnt_square() -> None:
    st = chief_state({9: 1}, engines=((5, 0), (11, 0)), burnt=(5,), engine=1)
    st, _ = apply(st, Action("move", 11), R, NO_DICE)
    assert not st.engines[0].destroyed and st.vp == 0


def test_load_only_in_town_up_to_capacity_then_move_less_the_water() -> None:
    st = chief_state({9: 1}, engines=((1, 2), (3, 0)), kind=LOAD)
    assert [a.amount for a in legal_actions(st, R)] == [0, 1, 2, 3]
    st, _ = apply(st, Action("load", amount=3), R, NO_DICE)
    assert st.engines[0].water == 5 and st.phase.kind == ACT
    assert [a.square for a in legal_actions(st, R) if a.kind == "move"] == [1]  # 5 - 5 = 0
    st, _ = apply(st, Action("move", 1), R, NO_DICE)
    # E2 is not in the town: no load step, moves up to 5 squares
    assert st.phase.kind == ACT and st.phase.engine == 1
    assert [a.square for a in legal_actions(st, R) if a.kind == "move"] == list(range(1, 9))


def test_spray_needs_by_distance_with_scripted_dice() -> None:
    st = chief_state({5: 3, 6: 2, 7: 1}, engines=((5, 5), (1, 0)))
    # distance 2 needs 5: a 4 misses and still costs one water (FF-5)
    st, ev = apply(st, Action("spray", 7), R, ScriptedDice([4]))
    assert ev[0]["dice"] == [4] and ev[0]["need"] == 5 and ev[0]["distance"] == 2
    assert not ev[0]["success"] and counts(st)[7] == 1 and st.engines[0].water == 4
    assert st.phase.kind == SPRAY
    st, ev = apply(st, Action("spray", 7), R, ScriptedDice([5]))
    assert ev[0]["success"] and 7 not in counts(st)
    # distance 1 needs 3: a 2 misses, a 3 hits
    st, ev = apply(st, Action("spray", 6), R, ScriptedDice([2]))
    assert not ev[0]["success"] and counts(st)[6] == 2
    st, ev = apply(st, Action("spray", 6), R, ScriptedDice([3]))
    assert ev[0]["success"] and counts(st)[6] == 1
    # distance 0 is automatic: no die rolled
    dice = ScriptedDice([])
    st, ev = apply(st, Action("spray", 5), R, dice)
    assert ev[0]["dice"] == [] and ev[0]["success"] and counts(st)[5] == 2
    assert st.engines[0].water == 0 and st.phase.engine == 1  # empty: E2 acts next


def test_spray_ff5_not_beyond_range_and_stop_ends_the_engine() -> None:
    st = chief_state({8: 1, 9: 1}, engines=((5, 3), (1, 0)))
    assert [a.square for a in legal_actions(st, R) if a.kind == "spray"] == []
    st = chief_state({7: 1, 9: 1}, engines=((5, 3), (1, 0)))
    assert [a.square for a in legal_actions(st, R) if a.kind == "spray"] == [7]
    st, _ = apply(st, Action("spray", 7), R, ScriptedDice([1]))
    assert Action("stop") in legal_actions(st, R)
    st, _ = apply(st, Action("stop"), R, NO_DICE)
    assert st.phase.engine == 1 and st.engines[0].water == 2


def test_no_fire_left_ends_the_game_with_its_vp() -> None:
    st = chief_state({5: 1}, engines=((5, 1), (1, 0)))._replace(vp=8)
    st, ev = apply(st, Action("spray", 5), R, NO_DICE)
    assert st.over and st.phase.why == "no fire" and ev[-1]["result"] == MARGINAL


def test_round_cap_ff6_ends_the_game_as_it_stands() -> None:
    r2 = load_rules({"rounds.max": 2})
    st = initial_state(r2, tokens={11: 1}, engines=[(1, 0)])
    for _ in range(2):
        st, _ = apply(st, Action("grow", 11), r2, NO_DICE)
        st, _ = apply(st, Action("load", amount=0), r2, NO_DICE)
        st, _ = apply(st, Action("move", 1), r2, NO_DICE)
    assert st.over and st.phase.why == "round cap" and st.round == 2
    assert result_band(st.vp, r2) == CHIEF_WIN


def test_ff7_tokens_are_unlimited() -> None:
    st = fire_state({9: 5, 10: 5, 11: 5, 8: 5, 7: 5}, engines=((1, 0),))
    st, _ = apply(st, Action("intensify", 11), R, NO_DICE)
    while st.phase.kind == PLACE:
        st, _ = apply(st, Action("place", 6), R, NO_DICE)
    assert st.burnt[5] and sum(st.tokens) == 20  # 10 went on square 6, which burnt out


@pytest.mark.parametrize(("vp", "band"), [(0, CHIEF_WIN), (7, CHIEF_WIN), (8, MARGINAL),
                                          (9, MARGINAL), (10, TOTAL), (15, TOTAL)])  # fmt: skip
def test_result_bands(vp: int, band: str) -> None:
    assert result_band(vp, R) == band
