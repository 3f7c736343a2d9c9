"""Play at the table: how long the umpire waits after "Resolve turn" on Paternoster Row.

Run: ``.venv/bin/python benchmarks/bench_play.py [TURNS]``. A game of the largest example
(489 locations) is played to mid-game (TURNS, default 12, turns of standing orders), then
the next turn is resolved as the editor's Play mode does it: the turn itself, the table
delta, and the save of the game file (atomic, fsynced). Each figure is the best and the
median of several runs of that same turn (undone between runs, by replaying the game, which
is timed too: it is what ``fireground play turn`` pays to resume a game from its file).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from fireground.engine.games.blitz.delta import table_delta
from fireground.engine.play.gamefile import load_game, save_game
from fireground.engine.play.table import start_game, undo
from fireground.engine.scenario.io import load_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RUNS = 7


def main() -> None:
    turns = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    scenario = load_scenario(EXAMPLES / "paternoster.fg.yaml")
    t0 = time.perf_counter()
    tg = start_game(scenario, 1940)
    for _ in range(turns):
        tg.play()
    t_first = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.fgame.yaml"
        save_game(tg, path, backup=False)
        resolve, play, delta, save, replays = [], [], [], [], []
        for _ in range(RUNS):
            a = time.perf_counter()
            before = tg.state_log()
            rec = tg.play()
            b = time.perf_counter()
            assert rec.log is not None
            changes = table_delta(before, rec.log.state)
            c = time.perf_counter()
            save_game(tg, path)
            d = time.perf_counter()
            resolve.append(d - a)
            play.append(b - a)
            delta.append(c - b)
            save.append(d - c)
            e = time.perf_counter()
            tg = undo(tg)
            replays.append(time.perf_counter() - e)
        t = time.perf_counter()
        load_game(path)
        t_load = time.perf_counter() - t
        size = path.stat().st_size
    burning = len(tg.game.state.fire)

    def ms(xs: list[float]) -> str:
        return f"best {min(xs) * 1000:.0f} ms, median {statistics.median(xs) * 1000:.0f} ms"

    print(f"play: Paternoster Row turn {turns + 1} ({burning} burning before it, "
          f"{len(rec.rolls)} rolls, {len(changes)} changes on the table)")  # fmt: skip
    print(f"play: resolve turn (turn + delta + save): {ms(resolve)}")
    print(f"play:   the turn {ms(play)}; the delta {ms(delta)}; the save {ms(save)}")
    print(f"play: replay of {turns} turns (undo, or resuming a game): {ms(replays)}")
    print(f"play: load of the {turns + 1}-turn game file ({size / 1024:.0f} KB, replayed and "
          f"checked): {t_load * 1000:.0f} ms; first {turns} turns played in {t_first:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
