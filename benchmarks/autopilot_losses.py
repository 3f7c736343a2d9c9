"""Where the autopilot loses its units (issue 15): for each example, N full games on the
seeds of ``autopilot_table.py``, every unit lost counted by kind (vehicle or stand), by the
rule that took it and by the phase of the game (turn). Per game on average.

Run: ``.venv/bin/python benchmarks/autopilot_losses.py --dir benchmarks/baseline_examples
[--games N] [--only NAME ...]``; prints a Markdown table per example.
"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from fireground.engine.play.montecarlo import _prepare, game_seeds
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NAMES = ("stepney", "paternoster", "surrey_docks")
#: the event that took a unit, by the rule name the log writes, read as a cause
CAUSES = {
    "burn_out": "R-10 burned out",
    "trapped": "R-10 caught / no way out",
    "he_killed": "HE direct hit",
    "he_personnel": "HE blast",
    "he_equipment": "HE blast",
    "heavy_damage": "buried (heavy damage)",
    "escape": "collapse",
}


def play(job: tuple[Path, list[int], int]) -> Counter[tuple[str, str, str, str]]:
    path, seeds, turns = job
    sc = load_scenario(path)
    _, graph, rules, memos = _prepare(sc)
    out: Counter[tuple[str, str, str, str]] = Counter()
    for s in seeds:
        game = new_game(sc, s, graph=graph, rules=rules, shared_memos=memos)
        for _ in range(turns):
            before = {uid for uid, u in game.state.units.items() if u.in_play}
            log = game.step()
            game.logs.clear()
            for uid in sorted(before):
                u = game.state.units[uid]
                if u.in_play or u.status in ("evacuated", "off_map"):
                    continue
                if not u.status or u.status in ("idle",):
                    continue
                rule = "?"
                for ev in log.events:
                    if getattr(ev, "unit", None) == uid and ev.rule in CAUSES:
                        rule = ev.rule
                if rule == "?" and any(
                    ev.rule == "heavy_damage" and uid in getattr(ev, "units", ())
                    for ev in log.events
                ):
                    rule = "heavy_damage"
                kind = u.kind
                where = "?"
                if u.loc is not None:
                    where = sc.area_by_id[u.loc[0]].kind.value
                phase = (
                    f"turns {((log.turn - 1) // 10) * 10 + 1}-{((log.turn - 1) // 10) * 10 + 10}"
                )
                out[(kind, CAUSES.get(rule, f"{u.status}?"), where, phase)] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1940)
    ap.add_argument("--only", nargs="*", default=list(NAMES))
    ap.add_argument("--dir", type=Path, default=EXAMPLES)
    a = ap.parse_args()
    for name in a.only:
        path = a.dir / f"{name}.fg.yaml"
        sc = load_scenario(path)
        seeds = game_seeds(a.seed, a.games)
        chunk = 5
        jobs = [(path, seeds[k : k + chunk], sc.turns) for k in range(0, a.games, chunk)]
        total: Counter[tuple[str, str, str, str]] = Counter()
        with ProcessPoolExecutor(max_workers=a.workers) as pool:
            for part in pool.map(play, jobs):
                total.update(part)
        n = a.games
        print(
            f"\n### {name} ({n} games x {sc.turns} turns): "
            f"{sum(total.values()) / n:.2f} units lost a game\n"
        )
        by_cause: Counter[tuple[str, str]] = Counter()
        by_where: Counter[tuple[str, str, str]] = Counter()
        by_phase: Counter[tuple[str, str]] = Counter()
        for (kind, cause, where, phase), c in total.items():
            by_cause[(kind, cause)] += c
            by_where[(kind, cause, where)] += c
            by_phase[(kind, phase)] += c
        print("| unit | cause | per game |\n|---|---|---|")
        for (kind, cause), c in sorted(by_cause.items(), key=lambda kc: -kc[1]):
            print(f"| {kind} | {cause} | {c / n:.2f} |")
        print("\n| unit | cause | in a | per game |\n|---|---|---|---|")
        for (kind, cause, where), c in sorted(by_where.items(), key=lambda kc: -kc[1]):
            print(f"| {kind} | {cause} | {where} | {c / n:.2f} |")
        print("\n| unit | turns | per game |\n|---|---|---|")
        for (kind, phase), c in sorted(by_phase.items()):
            print(f"| {kind} | {phase} | {c / n:.2f} |")


if __name__ == "__main__":
    main()
