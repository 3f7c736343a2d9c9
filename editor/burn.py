"""Burn chances for Analyze…, whatever the game: the record drawn by the Overlays
(:class:`BurnMap`) and the loop of the worker process that plays a game's analysis
(:func:`worker_main`). The game's own part, how its games are played and counted, is the
``burn_chances`` of its :class:`~fireground.editor.games.GamePanels` (BLITZ!'s:
:mod:`fireground.editor.games.blitz.burn`). No Qt here: the worker imports this module.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Protocol

from fireground.engine.board.model import Location, Scenario

DEFAULT_GAMES = 200


class Cancelled(Exception):
    """The user cancelled the analysis."""


class Flag(Protocol):
    """What a cancel flag offers: a ``threading.Event`` or a process' ``Event``."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class BurnMap:
    """Chance that each location burns at some time in a game, over ``games`` games."""

    chances: dict[Location, float]
    games: int
    mode: str  # "no-response" | "autopilot"
    seed: int
    scenario: Scenario
    turns: int


def workers() -> int:
    """How many threads or processes the engine may use: as the command line decides."""
    return int(os.environ.get("FIREGROUND_WORKERS", "0")) or (os.cpu_count() or 1)


def worker_main(jobs: Any, results: Any, stop: Any) -> None:
    """The worker process: play each job from ``jobs`` (None ends it) with the game's
    function in it (``job["run"]``, a module-level function, so it travels by name),
    reporting progress and then the chances (or why not) on ``results``; ``stop`` cancels
    the current job."""
    while True:
        job = jobs.get()
        if job is None:
            return
        try:
            burn = job["run"](
                job["scenario"],
                job["games"],
                seed=job["seed"],
                no_response=job["no_response"],
                turns=job["turns"],
                progress=lambda n: results.put(("progress", n)),
                cancel=stop,
            )
            results.put(("done", (burn.chances, burn.seed, burn.turns, burn.mode)))
        except Cancelled:
            results.put(("cancelled", None))
        except Exception as exc:  # the editor shows the message
            results.put(("failed", f"{type(exc).__name__}: {exc}"))
