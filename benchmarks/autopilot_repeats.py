"""How much of the standing orders' work repeats from one turn to the next (issue 15,
speed round 11): plays N quiet games of a scenario (default the baseline Paternoster, 20
games of 60 turns, seeds ``game_seeds(1, N)``, on shared map memos as
``autopilot_outcomes`` plays them) and, for each memo the standing orders keep for one
call (catch chances, traps, ways out, the pocket forecast...), counts its entries, how
many of their keys the previous turn's call of the same game also answered, and how many
with the same answer; and for the plain foot searches of step 6 (no ``ok`` test), how
many the previous turn asked with the same start, budget, weight and goals, and how many
got the same costs back. A same answer is an upper bound on what keeping it from turn to
turn could save: knowing that it still holds costs work too.

``--parts`` instead times the parts of the standing orders in the same games (wall
seconds by ``time.perf_counter`` round each call of a public function, nested parts
counted in their callers too; shares of the whole run, which the timing itself slows a
little; on a loaded machine only the shares within one run mean anything).

Run: ``.venv/bin/python benchmarks/autopilot_repeats.py [--games N] [--turns T]
[--scenario FILE] [--parts]``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fireground.engine.board.graph import build_graph
from fireground.engine.core.ruleset import load_ruleset
from fireground.engine.games.blitz import memos
from fireground.engine.games.blitz.autopilot import driver, teams
from fireground.engine.games.blitz.reach import foot
from fireground.engine.play.montecarlo import game_seeds
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

ROOT = Path(__file__).resolve().parent.parent
#: the per-call memos looked at, by name
KEYS = {
    "catch chance": memos.AP_CATCH,
    "trapped": memos.AP_TRAP,
    "way out may pass": memos.AP_OK,
    "can burn": memos.AP_BURNS,
    "no way back": memos.AP_WAYBACK,
    "street threat": memos.AP_THREAT,
    "best_job p_in": memos.AP_P_IN,
    "fire priority": memos.AP_PRIO,
}


class Recording(dict[Any, Any]):
    """A game's memo dict that keeps what the standing orders drop at the end of a call."""

    def __init__(self, *a: Any) -> None:
        super().__init__(*a)
        self.dropped: dict[Any, Any] = {}

    def pop(self, key: Any, *default: Any) -> Any:
        out = super().pop(key, *default)
        if key in WATCHED or key is memos.AP_POCKET:
            self.dropped[key] = out
        return out


WATCHED = set(KEYS.values())


def snapshot(dropped: dict[Any, Any]) -> dict[str, dict[Any, Any]]:
    snap = {name: dict(dropped[key]) for name, key in KEYS.items() if dropped.get(key)}
    fc = dropped.get(memos.AP_POCKET)
    if fc is not None:
        snap["pocket: stays open"] = dict(fc.opened)
        snap["pocket: joined to a goal"] = dict(fc.joined)
        snap["pocket: catches"] = dict(fc.catch)
    return snap


#: (module, public name, label) of the parts timed by ``--parts``: the orders by kind and
#: the checks before them as the standing orders call them, a fire team's dear parts, and
#: the foot searches wherever they are asked (memo hits included)
PARTS: list[tuple[Any, str, str]] = [
    *((driver, n, n) for n in (
        "appliance_orders", "fire_party_orders", "pump_orders", "keep_clear", "lorry_orders",
        "orphan_orders", "priority_locations", "officer_orders",
    )),
    *((driver, n, f"checks before the orders: {n}") for n in (
        "trapped", "pocket", "collapse_zone", "get_out", "retreat",
    )),
    *((teams, n, f"in teams.py: {n}") for n in (
        "best_job", "withdraw", "choose_parking", "cut_off", "pocket", "retreat",
    )),
    (foot, "foot_search", "foot_search (everywhere)"),
    (foot, "first_goal", "first_goal (everywhere)"),
]  # fmt: skip


def timed(
    f: Callable[..., Any], label: str, spent: Counter[str], calls: Counter[str]
) -> Callable[..., Any]:
    def run(*a: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        try:
            return f(*a, **kw)
        finally:
            spent[label] += time.perf_counter() - t
            calls[label] += 1

    return run


def parts(sc: Any, games: int, turns: int, graph: Any, rules: Any) -> None:
    spent: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    for mod, name, label in PARTS:
        setattr(mod, name, timed(getattr(mod, name), label, spent, calls))
    shared: dict[object, object] = {}
    t = time.perf_counter()
    for seed in game_seeds(1, games):
        game = new_game(sc, seed, graph=graph, rules=rules, log_events=False, shared_memos=shared)
        for _ in range(turns):
            game.step()
    whole = time.perf_counter() - t
    print(f"{games} games x {turns} turns: {whole:.2f} s wall")
    print("| part | calls | s | share |")
    print("|---|---|---|---|")
    for label, s in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"| {label} | {calls[label]} | {s:.3f} | {s / whole:.1%} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--turns", type=int, default=60)
    ap.add_argument(
        "--scenario", default=str(ROOT / "benchmarks/baseline_examples/paternoster.fg.yaml")
    )
    ap.add_argument("--parts", action="store_true")
    a = ap.parse_args()
    sc = load_scenario(Path(a.scenario))
    graph = build_graph(sc)
    rules = load_ruleset(sc.ruleset, dict(sc.house_rules))
    if a.parts:
        parts(sc, a.games, a.turns, graph, rules)
        return
    shared: dict[object, object] = {}
    entries: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    same: Counter[str] = Counter()
    searches: Counter[str] = Counter()
    plain = foot.foot_search
    last: dict[Any, tuple[int, dict[Any, int]]] = {}
    turn = [0]

    def watched_search(ctx: Any, state: Any, start: Any, budget: Any = None, **kw: Any) -> Any:
        out = plain(ctx, state, start, budget, **kw)
        if kw.get("ok") is None and ctx.cache.get(memos.SEARCH_MEMO) is not None:
            goals = kw.get("goals")
            key = (start, budget, kw.get("weight", 1), kw.get("goal"),
                   None if goals is None else frozenset(goals))  # fmt: skip
            searches["calls"] += 1
            before = last.get(key)
            if before is not None and before[0] == turn[0] - 1:
                searches["asked last turn"] += 1
                searches["same costs"] += before[1] == out[0]
            if before is None or before[0] != turn[0]:
                last[key] = (turn[0], dict(out[0]))
        return out

    foot.foot_search = watched_search  # type: ignore[assignment]
    for seed in game_seeds(1, a.games):
        game = new_game(sc, seed, graph=graph, rules=rules, log_events=False, shared_memos=shared)
        rec = Recording(game.ctx.cache)
        game.ctx.cache = rec
        last.clear()
        prev: dict[str, dict[Any, Any]] | None = None
        for t in range(a.turns):
            turn[0] = t
            rec.dropped.clear()
            game.step()
            snap = snapshot(rec.dropped)
            if prev is not None:
                for name, d in snap.items():
                    o = prev.get(name, {})
                    entries[name] += len(d)
                    for k, v in d.items():
                        if k in o:
                            asked[name] += 1
                            same[name] += o[k] == v
            prev = snap
    foot.foot_search = plain  # type: ignore[assignment]
    print(f"{Path(a.scenario).name}, {a.games} games x {a.turns} turns (turns 2 on)")
    print("| per-call memo | entries | key answered last turn too | same answer |")
    print("|---|---|---|---|")
    for name in entries:
        n = entries[name]
        print(
            f"| {name} | {n} | {asked[name]} ({asked[name] / n:.0%}) "
            f"| {same[name]} ({same[name] / n:.0%}) |"
        )
    n = searches["calls"]
    print(
        f"| plain foot searches (calls) | {n} | {searches['asked last turn']} "
        f"({searches['asked last turn'] / max(1, n):.0%}) | {searches['same costs']} "
        f"({searches['same costs'] / max(1, n):.0%}) |"
    )


if __name__ == "__main__":
    main()
