"""Why civilians are not rescued (issues 15 and 18): plays N games of each example and
follows every civilian casualty from the turn it is made: what buried it (an HE blast next
door, a collapse, fire damage), whether its location was ever free of fire afterwards,
whether a rescue stand stood there while it was, and how it ended (found alive or dead,
carried off, still buried, and whether its location burns at the end).

Run: ``.venv/bin/python benchmarks/rescue_trace.py [--games N] [--only NAME ...]``
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import example_games

from fireground.engine.games.blitz.rules.rescue import rescuers_at


def play(job: tuple[Path, list[int], int]) -> Counter[str]:
    turns = job[2]
    out: Counter[str] = Counter()
    for game in example_games.games(job):
        sc = game.scenario
        st = game.state
        cause: dict[str, str] = {}
        wrecks = {(d.area, d.level) for d in sc.start.damage}
        clear: set[str] = set()  # ever free of fire after it was made
        reached: set[str] = set()  # a rescue stand stood there while it was free of fire
        for _ in range(turns):
            seen = len(st.casualties)
            log = game.step()
            he_at = {e.at for e in log.events if e.rule == "he_damage"}
            col = {e.at[0] for e in log.events if e.rule == "collapse"}
            for c in st.casualties[seen:]:
                if c.origin != "civilian":
                    continue
                if log.turn == 1 and c.loc in wrecks:
                    cause[c.id] = "start_damage"
                elif c.status == "dead":
                    cause[c.id] = "he_hit"
                elif c.loc in he_at:
                    cause[c.id] = "he_neighbour"
                elif c.loc[0] in col:
                    cause[c.id] = "collapse"
                else:
                    cause[c.id] = "fire_damage"
            for c in st.casualties:
                if c.id not in cause or c.loc in st.fire:
                    continue
                clear.add(c.id)
                if rescuers_at(st, c.loc):
                    reached.add(c.id)
        for c in st.casualties:
            if c.id not in cause:
                continue
            why = cause[c.id]
            out[f"made by {why}"] += 1
            if why == "he_hit":
                continue
            end = "carried off" if c.evacuated else c.status
            if c.status in ("buried", "located"):
                end += " (burning at end)" if c.loc in st.fire else " (no fire at end)"
            out[
                f"  {why:13s} clear={c.id in clear!s:5s} reached={c.id in reached!s:5s} -> {end}"
            ] += 1
        out["civilians never hurt"] += sum(st.occupants.values())
        out["GAMES"] += 1
    return out


def main() -> None:
    ap = example_games.parser(games=40)
    a = ap.parse_args()
    for name, sc, parts in example_games.play_examples(a, play):
        tot: Counter[str] = sum(parts, Counter())
        print(f"## {name}: {a.games} games x {sc.turns} turns, civilians per game")
        example_games.print_per_game(tot, a.games)


if __name__ == "__main__":
    main()
