"""BLITZ!'s burn chances for Analyze…: the engine's no-response fast path (what
``fireground analyze --no-response`` runs), played in the editor's worker process
(:func:`fireground.editor.burn.worker_main`), and the check errors that stop an analysis or
an export. No Qt here: the worker imports this module.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from fireground.editor.burn import DEFAULT_GAMES, BurnMap, Cancelled, Flag, workers
from fireground.engine.board.model import Scenario


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
    cancel: threading.Event | Flag | None = None,
) -> BurnMap:
    """Play ``games`` games in one call of :func:`fireground.engine.play.analysis.outcomes` (the
    same games, for a seed, as ``fireground analyze``) and count, per location, the games in
    which it burned within ``turns`` turns (default: the whole night). ``progress`` hears
    each finished chunk; :class:`~fireground.editor.burn.Cancelled` is raised at the next
    chunk once ``cancel`` is set."""
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
