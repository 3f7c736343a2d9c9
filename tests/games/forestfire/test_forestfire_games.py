"""Whole Forest Fire games: 60 seeded games end in the band their VP says, their logs
follow the rules, the same seed gives the same log, and the exact solver."""

from __future__ import annotations

import json
import math

import pytest

from fireground.engine.games.forestfire.evaluate import final_utility
from fireground.engine.games.forestfire.play import play_game, start_state
from fireground.engine.games.forestfire.scenario import default_setup
from fireground.engine.games.forestfire.solve import Solver, solve
from fireground.engine.games.forestfire.state import FIRE
from fireground.engine.games.forestfire.steps import legal_actions, outcomes

PAIRS = [("random", "random"), ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy")]


def band_from_table(vp: int) -> str:
    """Section 5's table, written out again here."""
    return (
        "fire total victory"
        if vp >= 10
        else "fire marginal victory"
        if vp >= 8
        else "chief victory"
    )


def test_60_seeded_games_end_in_the_band_of_their_vp() -> None:
    s = default_setup()
    r = s.rules()
    seen_bands, seen_reasons = set(), set()
    for seed in range(60):
        fire, chief = PAIRS[seed % len(PAIRS)]
        rec = play_game(s, r, {"fire": fire, "chief": chief}, seed, log=True)
        assert rec.result == band_from_table(rec.vp)
        end = rec.log[-1]["events"][-1]
        assert end["step"] == "end" and end["result"] == rec.result and end["vp"] == rec.vp
        final = rec.log[-1]["state"]
        if rec.reason == "vp":
            assert rec.vp >= 10
        elif rec.reason == "no fire":
            assert final["tokens"] == {}
        else:
            assert rec.reason == "round cap" and rec.rounds == 60
        seen_bands.add(rec.result)
        seen_reasons.add(rec.reason)
        for entry in rec.log:
            for ev in entry["events"]:
                if ev["step"] == "spray":  # 3+ at distance 1, 5+ at 2, automatic at 0
                    assert ev["need"] == {0: 0, 1: 3, 2: 5}[ev["distance"]]
                    if ev["distance"] == 0:
                        assert ev["dice"] == [] and ev["success"]
                    else:
                        assert ev["success"] == (ev["dice"][0] >= ev["need"])
    assert seen_bands == {"fire total victory", "fire marginal victory", "chief victory"}
    assert len(seen_reasons) == 3


@pytest.mark.parametrize(("fire", "chief"), [("search", "greedy"), ("random", "search")])
def test_same_seed_same_log(fire: str, chief: str) -> None:
    s = default_setup()
    r = s.rules()
    a = play_game(s, r, {"fire": fire, "chief": chief}, 11, log=True)
    b = play_game(s, r, {"fire": fire, "chief": chief}, 11, log=True)
    assert json.dumps(a.log) == json.dumps(b.log)


def test_log_state_has_the_spec_fields() -> None:
    s = default_setup()
    rec = play_game(s, s.rules(), {"fire": "greedy", "chief": "greedy"}, 2, log=True)
    st = rec.log[1]["state"]
    assert set(st) == {"tokens", "burnt", "engines", "vp", "round", "side"}
    assert set(st["engines"]) == {"E1", "E2"}
    assert set(st["engines"]["E1"]) == {"square", "water", "destroyed"}


def _naive(st, rules):  # type: ignore[no-untyped-def]
    """Expectiminimax with no memo, no canonical order and no cut-off."""
    if st.over:
        return final_utility(st.vp, rules)
    vals = [
        sum(p * _naive(n, rules) for p, n in outcomes(st, a, rules))
        for a in legal_actions(st, rules)
    ]
    return max(vals) if st.side == FIRE else min(vals)


@pytest.mark.parametrize("house", [{"rounds.max": 1}, {"rounds.max": 1, "rounds.chief_first": 1},
                                   {"rounds.max": 1, "burn_out.at": 2}])  # fmt: skip
def test_solver_agrees_with_plain_expectiminimax(house: dict[str, int]) -> None:
    s = default_setup(squares=3)
    s.house_rules = house
    r = s.rules()
    st = start_state(s, r)
    sol = solve(st, r)
    assert sol.value == pytest.approx(_naive(st, r), abs=1e-12)
    assert sol.positions > 1


def test_solver_value_of_a_position_worked_by_hand() -> None:
    # One engine on square 3 with 1 water and engine.move 1, so it cannot move; tokens on 3
    # and 5; Fire has 5 VP; two rounds in all, this is the Chief's turn of round 1.
    # - staying (or spraying 5, hit or miss) leaves a token on the engine: Fire destroys
    #   it at the start of round 2, 5 + 5 = 10 VP, a Fire total victory: value 1;
    # - spraying 3 (automatic) saves it, and in one more turn Fire can add at most 1 VP
    #   (an intensify): 6 VP when the round cap ends the game, a Chief victory: value 0.
    s = default_setup(squares=5)
    s.house_rules = {"engine.move": 1, "rounds.max": 2}
    r = s.rules()
    from fireground.engine.games.forestfire.state import ACT, Engine, Phase

    st = start_state(s, r)
    pos = st._replace(tokens=(0, 0, 1, 0, 1), engines=(Engine(3, 1),), vp=5, phase=Phase(ACT))
    values = {a.label(): v for a, v in Solver(r).best_actions(pos)}
    assert values == {"move 3": 1.0, "spray 3": 0.0, "spray 5": 1.0}


def test_solver_exact_chance_of_clearing_the_town() -> None:
    # The Chief opens the round (rounds.chief_first), one round in all. Two tokens on the
    # town, one on square 3; E1 on square 2 with 3 water. Any token left on the town lets
    # Fire intensify it (10 VP). Spraying the town from 1 square away hits on 3+ (2/3):
    # the Chief needs 2 hits in 3 tries, 20/27; so Fire's value is 7/27.
    s = default_setup(squares=3)
    s.house_rules = {"rounds.max": 1, "rounds.chief_first": 1}
    r = s.rules()
    from fireground.engine.games.forestfire.state import ACT, Engine, Phase

    st = start_state(s, r)
    pos = st._replace(tokens=(2, 0, 1), engines=(Engine(2, 3),), vp=5, phase=Phase(ACT))
    assert solve(pos, r).value == pytest.approx(7 / 27, abs=1e-12)
    assert _naive(pos, r) == pytest.approx(7 / 27, abs=1e-12)


def _sign_p(better: int, worse: int) -> float:
    """Exact two-sided binomial p-value of a sign test (ties dropped)."""
    n = better + worse
    k = min(better, worse)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n)


@pytest.mark.slow
@pytest.mark.timeout(900)  # 20 games with search Fire, about 2 minutes on a loaded machine
def test_search_chief_holds_the_strongest_fire_longer_than_greedy() -> None:
    """Against ``search`` Fire (which beats both Chiefs on the standard board) the
    ``search`` Chief keeps the game going longer and concedes fewer VP than the ``greedy``
    Chief, paired on the same seeds (same dice, same Fire), on 10 consecutive seeds with
    the round cap at 20 to keep the test short: a sign test over the seeds where the two
    differ in length must reject "no difference" at the 5% level (9 longer and 1 shorter
    of 10 gives p = 0.021; the 20-game study in docs/forestfire.md has the intervals),
    and Fire's mean VP must be lower (14.4 against 11.0 when this was written)."""
    s = default_setup()
    s.house_rules = {"rounds.max": 20}
    r = s.rules()
    longer = shorter = 0
    vp = {"greedy": 0, "search": 0}
    for seed in range(1000, 1010):
        g = play_game(s, r, {"fire": "search", "chief": "greedy"}, seed)
        sr = play_game(s, r, {"fire": "search", "chief": "search"}, seed)
        longer += sr.rounds > g.rounds
        shorter += sr.rounds < g.rounds
        vp["greedy"] += g.vp
        vp["search"] += sr.vp
    p = _sign_p(longer, shorter)
    assert longer > shorter and p < 0.05, (longer, shorter, p)
    assert vp["search"] < vp["greedy"], vp


@pytest.mark.slow
@pytest.mark.timeout(900)  # 6 games of 10 rounds, about a minute on a loaded machine
def test_search_chief_gives_greedy_fire_no_more_than_greedy_does() -> None:
    """Against ``greedy`` Fire the ``greedy`` Chief holds the fire to 1 VP until the
    round cap (every seed of the study). The ``search`` Chief must do no worse on any
    seed: the earlier ``search`` Chief, which scored the result band alone, let greedy
    Fire burn five squares by round 6 (a Chief victory at 5 VP, but 4 VP worse). Round
    cap 10 to keep it short; the earlier Chief's games were already over by then."""
    s = default_setup()
    s.house_rules = {"rounds.max": 10}
    r = s.rules()
    for seed in range(1000, 1003):
        g = play_game(s, r, {"fire": "greedy", "chief": "greedy"}, seed)
        sr = play_game(s, r, {"fire": "greedy", "chief": "search"}, seed)
        assert g.result == sr.result == "chief victory", (seed, g.result, sr.result)
        assert sr.vp <= g.vp, (seed, sr.vp, g.vp)
