"""Monte Carlo balance analysis, for ``fireground analyze`` (fireground/analyze.py prints it).

Plays many games of a scenario, either in full with the autopilot of the reference engine
or, with ``--no-response``, fire, bombs and collapse alone on the vectorised core
(:mod:`.fastsim`), and reports what a designer needs to judge it:

* per location, the chance it burns, the chance it is destroyed and the mean turn it is first
  seen alight;
* the scorecard's distribution, each objective's chance with a 95% Wilson interval, and the
  chance the All Clear has sounded by each turn;
* a short verdict in words naming the places that matter;
* with ``--against``, which differences between two versions of a scenario are significant
  (two-proportion z-tests, Holm's step-down correction over the whole family).

The result is plain data (:class:`AnalysisReport`, ``to_json()``); the PDF is drawn by the
export layer from that data.
"""

from __future__ import annotations

from ..board.model import Scenario
from .montecarlo import (
    Outcomes,
    Progress,
    autopilot_outcomes,
    no_response_outcomes,
)
from .report import (
    AnalysisReport,
    summarise,
)

__all__ = [
    "analyze",
    "outcomes",
]


# -- running -----------------------------------------------------------------------------------
def outcomes(
    scenario: Scenario,
    games: int,
    turns: int,
    seed: int | None,
    no_response: bool,
    workers: int = 1,
    progress: Progress | None = None,
) -> Outcomes:
    run = no_response_outcomes if no_response else autopilot_outcomes
    return run(scenario, games, turns, seed, workers=workers, progress=progress)


def analyze(
    scenario: Scenario,
    games: int = 1000,
    turns: int | None = None,
    seed: int | None = None,
    no_response: bool = False,
    workers: int = 1,
    progress: Progress | None = None,
    file: str | None = None,
) -> tuple[AnalysisReport, Outcomes]:
    """Play ``games`` games and report on them (``seed`` defaults to the scenario's, then 0).

    Raises ValueError, with the reason, for fewer than one game, negative turns or seed,
    and a map with no locations to burn."""
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else 0
    turns = scenario.turns if turns is None else turns
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if turns < 0:
        raise ValueError(f"turns must be 0 or more, not {turns}")
    if seed < 0:
        raise ValueError(f"the seed must be 0 or more, not {seed}")
    if not any(True for _ in scenario.locations()):
        raise ValueError(f"{scenario.name or 'the scenario'} has no locations to play on")
    out = outcomes(scenario, games, turns, seed, no_response, workers, progress)
    mode = "no-response" if no_response else "autopilot"
    return summarise(scenario, out, mode, seed, file), out
