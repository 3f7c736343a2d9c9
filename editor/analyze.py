"""Analyze…: per-location burn chances from the engine's analysis, off the UI thread.

The games are played in slices so progress is real and Cancel takes effect between slices.
The no-response mode (fire, bombs and collapse alone) is the default: it is the threat
map, and fast enough to redo after each edit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, Qt, Signal

from fireground.engine.board.model import Location, Scenario

#: Games per slice: one progress step, and how soon Cancel is noticed.
SLICE = 25
DEFAULT_GAMES = 200


class Cancelled(Exception):
    """The user cancelled the analysis."""


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


def burn_chances(
    s: Scenario,
    games: int = DEFAULT_GAMES,
    *,
    seed: int | None = None,
    no_response: bool = True,
    turns: int | None = None,
    progress: Callable[[int], None] | None = None,
    cancel: threading.Event | None = None,
) -> BurnMap:
    """Play ``games`` games with :func:`fireground.engine.play.analysis.outcomes` and count, per
    location, the games in which it burned within ``turns`` turns (default: the whole
    night). Raises :class:`Cancelled` when ``cancel`` is set.
    """
    from fireground.engine.play.analysis import outcomes
    from fireground.engine.play.montecarlo import game_seeds

    if games < 1:
        raise ValueError("play at least one game")
    turns = s.turns if turns is None else turns
    base = seed if seed is not None else (s.seed if s.seed is not None else 0)
    sizes = [min(SLICE, games - k) for k in range(0, games, SLICE)]
    seeds = game_seeds(base, len(sizes))
    burned: np.ndarray | None = None
    locations: list[Location] = []
    done = 0
    for n, sd in zip(sizes, seeds, strict=True):
        if cancel is not None and cancel.is_set():
            raise Cancelled
        out = outcomes(s, n, turns, sd % 2**63, no_response)
        counts = out.burned.sum(axis=0)
        burned = counts if burned is None else burned + counts
        locations = out.locations
        done += n
        if progress is not None:
            progress(done)
    assert burned is not None
    chances = {loc: float(burned[k]) / games for k, loc in enumerate(locations)}
    mode = "no-response" if no_response else "autopilot"
    return BurnMap(chances, games, mode, base, s, turns)


class AnalysisRunner(QObject):
    """Runs :func:`burn_chances` on a worker thread; results come back as queued signals."""

    progressed = Signal(int)
    finished = Signal(object)  # BurnMap
    failed = Signal(str)
    cancelled = Signal()
    #: (what, value) from the worker thread, delivered on the UI thread.
    _relay = Signal(str, object)

    def __init__(self) -> None:
        super().__init__()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="fireground-analyze")
        self._cancel = threading.Event()
        self._future: Future[BurnMap] | None = None
        self._relay.connect(self._deliver, Qt.QueuedConnection)

    @property
    def running(self) -> bool:
        return self._future is not None and not self._future.done()

    def start(
        self, s: Scenario, games: int, *, no_response: bool = True, turns: int | None = None
    ) -> None:
        if self.running:
            raise RuntimeError("an analysis is already running")
        self._cancel = threading.Event()
        cancel = self._cancel

        def job() -> BurnMap:
            return burn_chances(
                s,
                games,
                no_response=no_response,
                turns=turns,
                progress=lambda n: self._relay.emit("progress", n),
                cancel=cancel,
            )

        fut = self._pool.submit(job)
        self._future = fut
        fut.add_done_callback(self._done)

    def _done(self, fut: Future[BurnMap]) -> None:  # on the worker thread
        exc = fut.exception()
        if isinstance(exc, Cancelled):
            self._relay.emit("cancelled", None)
        elif exc is not None:
            self._relay.emit("failed", f"{type(exc).__name__}: {exc}")
        else:
            self._relay.emit("finished", fut.result())

    def _deliver(self, what: str, value: object) -> None:  # on the UI thread
        if what == "progress":
            self.progressed.emit(value)
        elif what == "finished":
            self.finished.emit(value)
        elif what == "failed":
            self.failed.emit(value)
        else:
            self.cancelled.emit()

    def cancel(self) -> None:
        self._cancel.set()

    def shutdown(self) -> None:
        self._cancel.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
