"""The bulk solver's kernels (a second statement of the rules) against the engine: the same
graph as the layered solver builds with the engine's own step functions, position by
position, decision by decision, outcome by outcome, with the same chances and value."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

pytest.importorskip("numba")

from fireground.engine.games.forestfire.bulk import (
    BulkGraph,
    UnsupportedRules,
    solve_bulk,
)
from fireground.engine.games.forestfire.layered import SCORES, Graph, solve_layered
from fireground.engine.games.forestfire.play import start_state
from fireground.engine.games.forestfire.policies import make_policy
from fireground.engine.games.forestfire.scenario import EngineSetup, default_setup
from fireground.engine.games.forestfire.state import FIRE

#: a reduced ruleset: two small engines, a short wind, burn-out at 4, the 8 July variant,
#: a spray table of its own and other VP (the engines' loss alone cannot end the game)
REDUCED = {
    "engine.capacity": 2, "engine.move": 3, "wind.squares": 2, "burn_out.at": 4,
    "burn_out.rightmost_at_total": 7, "spray.need": [0, 4], "spray.range": 1,
    "vp.engine": 4, "vp.town": 9, "vp.win": 9, "vp.marginal": 5, "rounds.max": 7,
}  # fmt: skip


def _start(squares: int, house: dict[str, Any]) -> Any:
    s = default_setup(squares=squares)
    s.house_rules = house
    s.engines = [EngineSetup(f"E{i + 1}", 1) for i in range(house.get("engine.count", 2))]
    r = s.rules()
    return start_state(s, r), r


def _layered_rows(g: Graph) -> dict[Any, Any]:
    """Per position (as :func:`.layered._key` has it), its decisions as outcome rows."""
    n = g.n

    def desc(ref: int) -> tuple[str, Any]:
        if ref < n:
            return ("n", g.states[ref])
        if ref < 2 * n:
            return ("p", g.states[ref - n])
        return ("s", SCORES[ref - 2 * n])

    out: dict[Any, Any] = {}
    for v in range(n):
        rows = []
        for d in range(int(g.first_act[v]), int(g.first_act[v + 1])):
            rows.append((float(g.p1[d]), desc(int(g.o1[d])), desc(int(g.o1_cap[d])),
                         float(g.p2[d]), desc(int(g.o2[d])), desc(int(g.o2_cap[d]))))  # fmt: skip
        out[g.states[v]] = rows
    return out


def _bulk_rows(g: BulkGraph) -> dict[Any, Any]:
    states = [g.state(v) for v in range(g.n)]

    def desc(ref: int, cap: int) -> tuple[tuple[str, Any], tuple[str, Any]]:
        if ref < 0:
            d: tuple[str, Any] = ("s", SCORES[-1 - ref])
        else:
            d = ("p" if ref & 1 else "n", states[ref >> 1])
        return d, (("s", SCORES[cap]) if cap >= 0 else d)

    out: dict[Any, Any] = {}
    for v in range(g.n):
        rows = []
        for d in range(int(g.first[v]), int(g.first[v + 1])):
            a, ac = desc(int(g.out1[d]), int(g.cap1[d]))
            if g.pcode[d]:
                p = (7 - int(g.pcode[d])) / 6.0
                b, bc = desc(int(g.out2[d]), int(g.cap2[d]))
                rows.append((p, a, ac, 1.0 - p, b, bc))
            else:
                rows.append((1.0, a, ac, 0.0, ("s", 0.0), ("s", 0.0)))
        out[states[v]] = rows
    return out


#: one engine (the layered tests' small game)
ONE_ENGINE = {"engine.count": 1, "engine.capacity": 2, "engine.move": 2, "burn_out.at": 3}


@pytest.mark.parametrize(("squares", "house"), [(3, {}), (3, REDUCED), (4, ONE_ENGINE)])
def test_the_kernels_list_the_engines_graph(squares: int, house: dict[str, Any]) -> None:
    st, r = _start(squares, house)
    py_graph = Graph(st, r)
    py = _layered_rows(py_graph)
    bulk_graph = BulkGraph(st, r)
    bulk = _bulk_rows(bulk_graph)
    assert set(bulk) == set(py)  # the same positions
    for state, rows in py.items():
        mine = bulk[state]
        if state.side == FIRE:
            # Fire's turn is one choice among its ends; the layered builder keeps two
            # finished games apart when their states differ, the kernels when their
            # scores do: the same set of choices
            assert set(mine) == set(rows), state
            assert len(mine) == len(set(mine)), state
        else:  # the Chief's decisions one for one, with their chances
            assert Counter(mine) == Counter(rows), state
    for rounds in (1, 2, r.rounds_max):  # the same value, to the last bit
        want = py_graph.evaluate(rounds)[py_graph.start]
        assert bulk_graph.evaluate(rounds)[bulk_graph.start] == want


def test_the_value_on_four_squares_at_the_full_cap() -> None:
    # 0.319616 is the layered solver's figure with the engine's own step functions
    # (docs/forestfire.md, "Exact values under best play", measured 25 Nov 2026)
    st, r = _start(4, {})
    sol = solve_bulk(st, r)
    assert sol.rounds == 60
    assert sol.positions == 1_177_190  # the layered solver's count of positions
    assert sol.value == pytest.approx(0.319616, abs=5e-7)


@pytest.mark.parametrize("side", ["fire", "chief"])
def test_a_side_held_to_greedy_as_in_the_layered_solver(side: str) -> None:
    st, r = _start(3, {"rounds.max": 8})
    fixed = {side: make_policy("greedy", 0)}
    held = solve_bulk(st, r, fixed).value  # type: ignore[arg-type]
    assert held == pytest.approx(solve_layered(st, r, fixed).value, abs=1e-12)  # type: ignore[arg-type]
    best = solve_bulk(st, r).value
    assert (held <= best + 1e-12) if side == "fire" else (held >= best - 1e-12)


def test_engine_order_does_not_change_the_value() -> None:
    # the canonical order of the engines at Fire's turn (E1 and E2 are alike) is exact:
    # the graph without it is larger and has the same value
    st, r = _start(3, {})
    sorted_graph = solve_bulk(st, r)
    plain = solve_bulk(st, r, sort=False)
    assert plain.positions > sorted_graph.positions
    assert plain.value == pytest.approx(sorted_graph.value, abs=1e-12)


@pytest.mark.parametrize(
    ("house", "words"),
    [({"rounds.chief_first": 1}, "chief_first"), ({"burn_out.at": 16}, "burn_out.at"),
     ({"engine.capacity": 16}, "engine.capacity"), ({"engine.count": 4}, "1-3 engines")],
)  # fmt: skip
def test_unsupported_house_rules_are_refused(house: dict[str, int], words: str) -> None:
    st, r = _start(4, house)
    with pytest.raises(UnsupportedRules, match=words):
        solve_bulk(st, r)
