"""How many counters of each kind a scenario needs, measured by playing it.

The autopilot plays the scenario ``games`` times (seeded: the same scenario and seed give
the same mix); in each game every counter kind's peak number in play is recorded, and the
sheet prints the 90th percentile of those peaks (so nine games in ten never run short).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from fireground.engine.board.model import Scenario

#: Games played to measure the mix, and the share of games the counters must suffice for.
GAMES = 20
QUANTILE = 90.0

Key = tuple[str, Any]


@dataclass(frozen=True)
class Mix:
    """The measured need of each counter kind: (kind, value) -> counters."""

    need: Mapping[Key, int]
    games: int
    turns: int


def in_play(state: Any) -> Counter[Key]:
    """The counters one game state puts on the table, by (kind, value)."""
    n: Counter[Key] = Counter()
    for v in state.fire.values():
        n[("fire", int(v))] += 1
    for v in state.damp.values():
        n[("damp", min(5, int(v)))] += 1
    for v in state.damage.values():
        n[("damage", min(5, int(v)))] += 1
    n[("embers", "")] = len(state.embers)
    n[("rubble", "")] = len(state.rubble)
    n[("crater", "")] = len(state.craters)
    n[("casualty", "")] = sum(1 for k in state.casualties if k.status in ("buried", "located"))
    for u in state.units.values():
        if u.in_play and u.fatigue == 1:
            n[("tired", "")] += 1
        elif u.in_play and u.fatigue == 2:
            n[("exhausted", "")] += 1
    return n


def _peaks(
    scenario: Scenario, seed: int, turns: int, prepared: tuple[Any, Any, dict[str, Any]]
) -> Counter[Key]:
    from fireground.engine.play.simulate import new_game

    graph, rules, memos = prepared
    game = new_game(scenario, seed, graph=graph, rules=rules, log_events=False, shared_memos=memos)
    peak = in_play(game.state)
    for _ in range(turns):
        game.step()
        now = in_play(game.state)
        for k, v in now.items():
            if v > peak[k]:
                peak[k] = v
    return peak


def game_seeds(scenario: Scenario, seed: int | None, games: int) -> Iterator[int]:
    base = seed if seed is not None else (scenario.seed if scenario.seed is not None else 0)
    rng = np.random.default_rng(base)
    for _ in range(games):
        yield int(rng.integers(0, 2**31 - 1))


def measure(
    scenario: Scenario, games: int = GAMES, seed: int | None = None, turns: int | None = None
) -> Mix:
    """Play ``games`` autopilot games of ``turns`` (default: the scenario's length) and keep
    each kind's 90th-percentile peak."""
    from fireground.engine.board.graph import build_graph
    from fireground.engine.core.ruleset import load_ruleset

    n_turns = scenario.turns if turns is None else turns
    prepared = (
        build_graph(scenario),
        load_ruleset(scenario.ruleset, dict(scenario.house_rules)),
        {},
    )
    peaks = [_peaks(scenario, s, n_turns, prepared) for s in game_seeds(scenario, seed, games)]
    kinds = set().union(*peaks) if peaks else set()
    need = {k: int(np.percentile([p[k] for p in peaks], QUANTILE, method="higher")) for k in kinds}
    return Mix(need, games, n_turns)
