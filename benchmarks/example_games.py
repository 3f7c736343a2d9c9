"""What the autopilot trace scripts share (``autopilot_losses.py``, ``rescue_trace.py``,
``vehicle_escapes.py``, ``autopilot_stand_trace.py``, ``autopilot_street_probe.py``): their
command line (``--games``,
``--workers``, ``--seed``, ``--only``, ``--dir``) and playing each example's seeds, five
games to a job, in a pool of processes; for the stand traces, each stand lost with what
its last step 6s looked like."""

from __future__ import annotations

import argparse
import os
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from fireground.engine.board.model import Scenario
from fireground.engine.core.events import Event
from fireground.engine.core.turn import TurnContext, TurnLog
from fireground.engine.games.blitz.rules import movement
from fireground.engine.games.blitz.state import GameState
from fireground.engine.games.blitz.units import STAND
from fireground.engine.play.montecarlo import game_seeds, prepare
from fireground.engine.play.simulate import Game, new_game
from fireground.engine.scenario.io import load_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NAMES = ("stepney", "paternoster", "surrey_docks")

#: one job: the scenario file, its seeds, its turns
Job = tuple[Path, list[int], int]
T = TypeVar("T")
#: a unit with one of these statuses is lost
LOST = frozenset({"dead", "casualty", "destroyed", "burned_out", "knocked_out"})
#: what a stand trace keeps of each stand at the end of a step 6, by unit id
Snapshot = dict[str, dict[str, Any]]


def parser(games: int = 40, workers: int | None = None) -> argparse.ArgumentParser:
    """The trace scripts' common options, with their defaults."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=games)
    ap.add_argument("--workers", type=int, default=workers or os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1940)
    ap.add_argument("--only", nargs="*", default=list(NAMES))
    ap.add_argument("--dir", type=Path, default=EXAMPLES)
    return ap


def play_examples(
    a: argparse.Namespace, play: Callable[[Job], T]
) -> Iterator[tuple[str, Scenario, list[T]]]:
    """For each example asked for: its name, its scenario and what ``play`` gave for each
    job of five seeds (``game_seeds(--seed, --games)``, in order)."""
    for name in a.only:
        path = a.dir / f"{name}.fg.yaml"
        sc = load_scenario(path)
        seeds = game_seeds(a.seed, a.games)
        jobs = [(path, seeds[k : k + 5], sc.turns) for k in range(0, a.games, 5)]
        with ProcessPoolExecutor(max_workers=a.workers) as pool:
            parts = list(pool.map(play, jobs))
        yield name, sc, parts


def games(job: Job) -> Iterator[Game]:
    """The games of one job, new (not played yet; ``game.scenario`` is the job's): the
    map's graph, the ruleset and the map's memos made once and shared, as the Monte Carlo
    runs do."""
    path, seeds, _turns = job
    sc = load_scenario(path)
    _, graph, rules, memos = prepare(sc)
    for s in seeds:
        yield new_game(sc, s, graph=graph, rules=rules, shared_memos=memos)


class StandLost(NamedTuple):
    """A stand lost in a traced game (:func:`stands_lost`)."""

    game: Game
    log: TurnLog  # the turn it was lost in
    uid: str
    event: Event | None  # what took it: ``trapped`` or ``escape``; None for another cause
    events: list[Event]  # all its events of that turn
    snaps: list[Snapshot]  # the game's step-6 snapshots so far


def stands_lost(
    job: Job, snapshot: Callable[[TurnContext, GameState], Snapshot]
) -> Iterator[StandLost]:
    """Plays the job's games, ``snapshot`` taken at the end of every step 6 (after the
    standing orders' moves), and gives each stand as it is lost (the last snapshot is this
    turn's step 6 when the loss came after it)."""
    turns = job[2]
    for game in games(job):
        snaps: list[Snapshot] = []

        def six(ctx: TurnContext, state: GameState, snaps: list[Snapshot] = snaps) -> None:
            movement.step_movement(ctx, state)
            snaps.append(snapshot(ctx, state))

        game.plan = [(n, six if n == 6 else fn) for n, fn in game.plan]
        alive = {uid for uid, u in game.state.units.items() if u.kind == STAND}
        for _ in range(turns):
            log = game.step()
            for uid in sorted(alive):
                if game.state.units[uid].status not in LOST:
                    continue
                alive.discard(uid)
                mine = [e for e in log.events if getattr(e, "unit", None) == uid]
                ev = next((e for e in mine if e.rule in ("trapped", "escape")), None)
                yield StandLost(game, log, uid, ev, mine, snaps)


def print_per_game(
    counts: Counter[str], games: int, key: Callable[[tuple[str, int]], Any] | None = None
) -> None:
    """Each count but ``GAMES`` as a figure per game, in ``key``'s order (default: by
    name)."""
    for k, v in sorted(counts.items(), key=key):
        if k != "GAMES":
            print(f"  {v / games:6.2f}  {k}")
