"""The layered exact solver (round by round from the cap) against the memoised
expectiminimax and a plain one with no memo, on boards small enough for all three."""

from __future__ import annotations

import pytest

from fireground.engine.games.forestfire.evaluate import final_utility
from fireground.engine.games.forestfire.layered import solve_layered
from fireground.engine.games.forestfire.play import start_state
from fireground.engine.games.forestfire.policies import make_policy
from fireground.engine.games.forestfire.scenario import default_setup
from fireground.engine.games.forestfire.solve import solve
from fireground.engine.games.forestfire.state import FIRE
from fireground.engine.games.forestfire.steps import legal_actions, outcomes

#: a small game: one engine of 2 water moving 2 squares, squares burn out at 3 tokens
TINY = {"engine.count": 1, "engine.capacity": 2, "engine.move": 2, "burn_out.at": 3}


def _brute(st, rules):  # type: ignore[no-untyped-def]
    """Expectiminimax with no memo, no canonical order, no cut-off and the round kept."""
    if st.over:
        return final_utility(st.vp, rules)
    vals = [
        sum(p * _brute(n, rules) for p, n in outcomes(st, a, rules))
        for a in legal_actions(st, rules)
    ]
    return max(vals) if st.side == FIRE else min(vals)


def _start(squares: int, house: dict[str, int]):  # type: ignore[no-untyped-def]
    s = default_setup(squares=squares)
    s.house_rules = house
    r = s.rules()
    return start_state(s, r), r


@pytest.mark.parametrize(("cap", "tokens"), [(1, (1, 1, 1)), (2, None)])
def test_layered_agrees_with_brute_force_on_a_tiny_board(
    cap: int, tokens: tuple[int, ...] | None
) -> None:
    st, r = _start(3, {**TINY, "rounds.max": cap})
    if tokens:
        st = st._replace(tokens=tokens)
    sol = solve_layered(st, r)
    v = _brute(st, r)
    assert sol.value == pytest.approx(v, abs=1e-12)
    assert sol.rounds == cap
    if cap == 2:  # from the start, two rounds: a value strictly between the results
        assert 0.1 < v < 0.3


@pytest.mark.parametrize(
    ("squares", "house"),
    [(3, {**TINY, "rounds.max": 6}), (4, {**TINY, "rounds.max": 5}),
     (4, {**TINY, "rounds.max": 4, "burn_out.at": 4}), (3, {"rounds.max": 2})],
)  # fmt: skip
def test_layered_agrees_with_the_memoised_solver(squares: int, house: dict[str, int]) -> None:
    st, r = _start(squares, house)
    assert solve_layered(st, r).value == pytest.approx(solve(st, r).value, abs=1e-12)


@pytest.mark.parametrize("side", ["fire", "chief"])
def test_layered_agrees_with_the_memoised_solver_with_a_side_held_to_greedy(side: str) -> None:
    st, r = _start(4, {**TINY, "rounds.max": 4})
    fixed = {side: make_policy("greedy", 0)}
    held = solve_layered(st, r, fixed).value  # type: ignore[arg-type]
    assert held == pytest.approx(solve(st, r, fixed).value, abs=1e-12)  # type: ignore[arg-type]
    best = solve_layered(st, r).value
    assert (held <= best + 1e-12) if side == "fire" else (held >= best - 1e-12)


def test_the_value_settles_as_rounds_are_added() -> None:
    # more rounds can only help Fire here (a round-capped game is a Chief victory unless
    # Fire has won), and each value is computed from the same graph
    vals = [solve_layered(*_start(3, {**TINY, "rounds.max": k})).value for k in (1, 2, 4, 8)]
    assert vals == sorted(vals)
