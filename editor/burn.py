"""Burn chances for Analyze…: the engine's no-response fast path (what ``fireground analyze
--no-response`` runs), played in a worker process. No Qt here: the worker imports this
module only.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from fireground.engine.board.model import Location, Scenario

DEFAULT_GAMES = 200


class Cancelled(Exception):
    """The user cancelled the analysis."""


class _Flag(Protocol):
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


def check_errors(s: Scenario) -> list[str]:
    """The scenario's check errors (an analysis of a broken map would mislead)."""
    from fireground.engine.games.blitz.checks.run import check

    return [f"{f.code} {f.message}" for f in check(s) if f.severity == "error"]


def workers() -> int:
    """How many threads or processes the engine may use: as the command line decides."""
    return int(os.environ.get("FIREGROUND_WORKERS", "0")) or (os.cpu_count() or 1)


def burn_chances(
    s: Scenario,
    games: int = DEFAULT_GAMES,
    *,
    seed: int | None = None,
    no_response: bool = True,
    turns: int | None = None,
    progress: Callable[[int], None] | None = None,
    cancel: threading.Event | _Flag | None = None,
) -> BurnMap:
    """Play ``games`` games in one call of :func:`fireground.engine.play.analysis.outcomes` (the
    same games, for a seed, as ``fireground analyze``) and count, per location, the games in
    which it burned within ``turns`` turns (default: the whole night). ``progress`` hears
    each finished chunk; :class:`Cancelled` is raised at the next chunk once ``cancel`` is
    set."""
    from fireground.engine.play.analysis import outcomes

    if games < 1:
        raise ValueError("play at least one game")
    turns = s.turns if turns is None else turns
    base = seed if seed is not None else (s.seed if s.seed is not None else 0)

    def step(done: int) -> None:
        if cancel is not None and cancel.is_set():
            raise Cancelled
        if progress is not None:
            progress(done)

    if cancel is not None and cancel.is_set():
        raise Cancelled
    out = outcomes(s, games, turns, base, no_response, workers(), step)
    counts = out.burned.sum(axis=0)
    chances = {loc: float(counts[k]) / games for k, loc in enumerate(out.locations)}
    mode = "no-response" if no_response else "autopilot"
    return BurnMap(chances, games, mode, base, s, turns)


def worker_main(jobs: Any, results: Any, stop: Any) -> None:
    """The worker process: play each job from ``jobs`` (None ends it), reporting progress
    and then the chances (or why not) on ``results``; ``stop`` cancels the current job."""
    while True:
        job = jobs.get()
        if job is None:
            return
        try:
            burn = burn_chances(
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
