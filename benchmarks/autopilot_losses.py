"""Where the autopilot loses units and why casualties stay (issue 15): plays N logged games
of each example and counts every unit lost by the event that took it (R-10 trapped in a
burning location, burned out, HE killed, caught in a collapse, ...), with its kind, whether
it stood in a building or the street, and the turn; and for the casualties at the end, their
status and whether their location still burns.

Run: ``.venv/bin/python benchmarks/autopilot_losses.py --dir benchmarks/baseline_examples
[--games N] [--only NAME ...]``
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import example_games

from fireground.engine.board.model import AreaKind

CAUSES = ("burn_out", "he_killed", "he_personnel", "trapped", "escape", "heat")


def play(job: tuple[Path, list[int], int]) -> tuple[Counter[str], Counter[str]]:
    turns = job[2]
    lost: Counter[str] = Counter()
    cas: Counter[str] = Counter()
    for game in example_games.games(job):
        kinds = {a.id: a.kind for a in game.scenario.areas}
        before = {uid: (u.loc, u.task, u.kind) for uid, u in game.state.units.items()}
        for _ in range(turns):
            log = game.step()
            for uid, u in game.state.units.items():
                if u.status in example_games.LOST and uid in before:
                    loc, task, kind = before.pop(uid)
                    mine = [ev for ev in log.events if getattr(ev, "unit", None) == uid]
                    why = "other"
                    for rule in CAUSES:
                        ev = next((e for e in mine if e.rule == rule), None)
                        if ev is not None:
                            why = rule + (f"/{ev.ruling}" if getattr(ev, "ruling", None) else "")
                            if rule == "trapped" and any(e.rule == "heat" for e in mine):
                                why += "+heat"
                            break
                    where = "-"
                    if loc is not None:
                        k = kinds.get(loc[0])
                        where = "building" if k is AreaKind.BUILDING else "street/open"
                        if k is AreaKind.BUILDING and loc[1] > 0:
                            where += " upper"
                    third = (
                        "early"
                        if log.turn <= turns // 3
                        else ("mid" if log.turn <= 2 * turns // 3 else "late")
                    )
                    lost[f"{kind:7s} {why:22s} {where:20s} task={task}"] += 1
                    lost[f"~{kind} {why}"] += 1
                    lost[f"@{third}"] += 1
                    lost["TOTAL"] += 1
                elif uid in before:
                    before[uid] = (u.loc, u.task, u.kind)
        for c in game.state.casualties:
            burning = c.loc in game.state.fire
            cas[f"{c.status:16s} evac={c.evacuated!s:5s} burning_now={burning}"] += 1
        cas["GAMES"] += 1
    return lost, cas


def main() -> None:
    ap = example_games.parser(games=40)
    a = ap.parse_args()
    for name, sc, parts in example_games.play_examples(a, play):
        lost: Counter[str] = sum((p[0] for p in parts), Counter())
        cas: Counter[str] = sum((p[1] for p in parts), Counter())
        n = a.games
        print(f"## {name}: {n} games x {sc.turns} turns, units lost per game")
        for k, v in sorted(lost.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {v / n:6.2f}  {k}")
        print(f"## {name}: casualties at the end, per game")
        for k, v in sorted(cas.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {v / n:6.2f}  {k}")


if __name__ == "__main__":
    main()
