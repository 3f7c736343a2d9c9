"""BLITZ!'s printed aids: unit cards, the reference sheet, counters (their mix measured by
autopilot games, :mod:`.countmix`), the turn report, the briefing, and the turn sheet of a
game at the table (:mod:`.turn_sheet`). The BLITZ! pack's ``export_tools`` names this
module; :mod:`fireground.export.pack` writes the pack through :data:`DOCUMENTS`,
:func:`write_document` and :func:`error_lines` (the shared plans are its own).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fireground.engine.board.model import Scenario

#: the game's documents in pack order, after the shared plans
DOCUMENTS: tuple[str, ...] = ("cards", "reference", "counters", "turns", "briefing")


def write_document(
    kind: str,
    scenario: Scenario,
    path: Path,
    paper: str,
    *,
    bleed: bool = False,
    seed: int | None = None,
    turns: int,
    counter_games: int | None = None,
) -> Path:
    """Write the document ``kind`` (one of :data:`DOCUMENTS`) of ``scenario`` to ``path``.
    ``bleed``: the cards'; ``turns`` and ``seed``: the turn report's (``seed`` also the
    counter mix's games); ``counter_games``: autopilot games played to measure the counter
    mix (default :data:`.countmix.GAMES`; 0 estimates it from the map)."""
    if kind == "cards":
        from .cards import write_cards

        return write_cards(scenario, path, paper, bleed=bleed)
    if kind == "reference":
        from .reference import write_reference

        return write_reference(scenario, path, paper)
    if kind == "counters":
        from .counters import write_counters
        from .countmix import GAMES

        games = GAMES if counter_games is None else counter_games
        return write_counters(scenario, path, paper, games=games, seed=seed)
    if kind == "turns":
        from .turn_report import write_turn_report

        return write_turn_report(scenario, path, paper, turns=turns, seed=seed)
    if kind == "briefing":
        from .briefing import write_briefing

        return write_briefing(scenario, path, paper)
    raise ValueError(f"BLITZ! prints no {kind!r}; its documents: {', '.join(DOCUMENTS)}")


def error_lines(scenario: Scenario, file: str) -> list[str]:
    """``FILE:LINE:COL: message`` for each check error of ``scenario`` (read from
    ``file``): an export of a scenario with any is refused, as a simulation is."""
    from fireground.engine.games.blitz.checks.run import error_lines as check_lines

    return check_lines(scenario, file)
