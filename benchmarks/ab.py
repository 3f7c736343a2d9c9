"""A/B engine speed of source trees on a loaded machine: CPU time, interleaved, best of N;
or instruction counts under callgrind (the same count whatever the load).

Usage::

    .venv/bin/python benchmarks/ab.py game [--runs 7] [--turns 60] [--example paternoster]
        [--callgrind] NAME=TREE [NAME=TREE ...]
    .venv/bin/python benchmarks/ab.py bench [--runs 3] [--only engine,load] NAME=TREE ...
    .venv/bin/python benchmarks/ab.py autopilot [--runs 5] [--games 20] [--turns 60]
        [--scenario FILE] [--callgrind] [--per-game] NAME=TREE ...

A TREE is a checkout of fireground (e.g. ``git worktree add --detach /tmp/old <commit>``).
Each tree runs in its own process with a mirror of the installed layout (``fireground/``
with ``engine/``, ``editor/``, ``export/``... inside, as setuptools' package-dir maps them)
first on ``PYTHONPATH``, so the old engine layout (before the restructure) runs too; the
scenario is the tree's own ``examples/`` file (the BLITZ! examples are the same files in
every tree since the restructure began).

``game`` times three things per tree, in rounds (tree A, tree B, ... then again), each in a
fresh process, and keeps the least CPU time (``time.process_time``) of each: a logged game
(``new_game(...).run(turns)``), the log of that game written as JSON text, and a quiet
game (``log_events=False``, the Monte Carlo mode). ``--callgrind`` instead counts the
instructions (valgrind's ``Ir``) of a logged and a quiet game of ``--turns`` turns, minus
those of the same process stopping before the turns, once per tree.

``autopilot`` times ``autopilot_outcomes(scenario, games, turns, seed=1, workers=1)`` (the
full-autopilot part of ``bench_analysis.py``, on one process) per tree, interleaved, CPU
time, best of ``--runs``; the scenario is one file for every tree (default
``benchmarks/baseline_examples/paternoster.fg.yaml`` of the tree ab.py runs from).
``--callgrind`` instead counts the instructions of that whole process once per tree (its
bytecode compiled first, ``PYTHONHASHSEED=0``): the figure to trust on a loaded machine,
where the CPU seconds of one tree swing by half from run to run. With ``--per-game`` it
counts (or times) the process with 1 game too and prints the cost of each further game,
``(N games - 1 game) / (N - 1)``: what ``bench_analysis.py --full``'s 1,000 games in a few
worker processes come to, where start-up and the first game's one-off work (imports,
loading, lazy map caches) are paid once per worker. Instructions are steady but are not
time: dict and set look-ups that miss the caches cost many cycles for few instructions,
so a change can cut more instructions than seconds (docs/autopilot.md, "Round 15
together"); give both.

``bench`` runs each tree's own ``benchmarks/bench_*.py`` scripts (as ``make bench`` does),
interleaved, ``--runs`` times, and prints every figure line with each number's best (least
for times, most for rates) per tree and the ratio to the first tree; and each script's whole
CPU time (``getrusage`` of the children), the steadier figure when the machine is loaded.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: run first in a tree's process: without the editable install's finder, a module the tree
#: lacks is an ImportError instead of being taken from the installed tree; and without the
#: working directory on the path (a checkout's own ``fireground/`` holds only the CLI)
ONLY_TREE = (
    "import sys; sys.meta_path[:] = [f for f in sys.meta_path "
    "if '__editable__' not in getattr(f, '__module__', '')]; "
    "sys.path[:] = [p for p in sys.path if p not in ('', '.')]\n"  # -c: no cwd on the path
)

#: what one run does in the tree's process (both engine layouts: old flat, new packages)
GAME = r"""
import json, sys, time
try:
    from fireground.engine.simulate import new_game
    from fireground.engine.io import load_scenario
    from fireground.engine.graph import build_graph
except ImportError:
    from fireground.engine.play.simulate import new_game
    from fireground.engine.scenario.io import load_scenario
    from fireground.engine.board.graph import build_graph
path, turns, seed, what = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
scenario = load_scenario(path)
graph = build_graph(scenario)
out = {}
if what in ("logged", "all"):
    game = new_game(scenario, seed, graph=graph)
    t = time.process_time()
    game.run(turns)
    out["logged"] = time.process_time() - t
    t = time.process_time()
    text = json.dumps([log.to_json_obj() for log in game.logs])
    out["log JSON"] = time.process_time() - t
    out["events"] = sum(len(log.events) for log in game.logs)
    out["log bytes"] = len(text)
if what in ("quiet", "all"):
    game = new_game(scenario, seed, graph=graph, log_events=False)
    t = time.process_time()
    game.run(turns)
    out["quiet"] = time.process_time() - t
print(json.dumps(out))
"""

#: one autopilot run in the tree's process (both engine layouts)
AUTOPILOT = r"""
import json, sys, time
try:
    from fireground.engine.analysis_games import autopilot_outcomes
    from fireground.engine.io import load_scenario
except ImportError:
    from fireground.engine.play.montecarlo import autopilot_outcomes
    from fireground.engine.scenario.io import load_scenario
path, games, turns = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
scenario = load_scenario(path)
t = time.process_time()
autopilot_outcomes(scenario, games, turns, seed=1, workers=1)
print(json.dumps({"autopilot": time.process_time() - t}))
"""

#: a bench script run as ``python SCRIPT ARGS`` would run it
RUN_SCRIPT = (
    "import runpy; sys.argv = sys.argv[1:]; sys.path.insert(0, sys.argv[0].rpartition('/')[0]); "
    "runpy.run_path(sys.argv[0], run_name='__main__')"
)

PACKAGE_DIRS = ("engine", "editor", "export", "templates", "examples")


def mirror(tree: Path, into: Path) -> Path:
    """A folder to put first on PYTHONPATH so ``import fireground`` finds ``tree``."""
    pkg = into / "fireground"
    pkg.mkdir(parents=True)
    for f in (tree / "fireground").iterdir():
        (pkg / f.name).symlink_to(f)
    for d in PACKAGE_DIRS:
        if (tree / d).is_dir():
            (pkg / d).symlink_to(tree / d)
    return into


def env_for(path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(path)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    return env


def parse_trees(specs: list[str], tmp: Path) -> list[tuple[str, Path, Path]]:
    trees = []
    for spec in specs:
        name, _, where = spec.partition("=")
        tree = Path(where or name).resolve()
        if not (tree / "engine").is_dir():
            raise SystemExit(f"ab.py: {tree}: not a fireground tree")
        trees.append((name, tree, mirror(tree, tmp / name)))
    return trees


def example(tree: Path, name: str) -> Path:
    return tree / "examples" / f"{name}.fg.yaml"


def cmd_game(a: argparse.Namespace, trees: list[tuple[str, Path, Path]]) -> None:
    best: dict[str, dict[str, float]] = {n: {} for n, _, _ in trees}
    facts: dict[str, dict[str, float]] = {n: {} for n, _, _ in trees}
    for r in range(a.runs):
        for name, tree, pp in trees:
            argv = [str(example(tree, a.example)), str(a.turns), str(a.seed), "all"]
            res = subprocess.run(
                [sys.executable, "-c", ONLY_TREE + GAME, *argv],
                env=env_for(pp), capture_output=True, text=True, check=True,
            )  # fmt: skip
            got = json.loads(res.stdout.splitlines()[-1])
            for k, v in got.items():
                if k in ("events", "log bytes"):
                    facts[name][k] = v
                else:
                    best[name][k] = min(best[name].get(k, v), v)
            print(f"  run {r + 1} {name}: " + ", ".join(f"{k} {v:.4g}" for k, v in got.items()))
    first = trees[0][0]
    print(
        f"\nbest CPU time of {a.runs} interleaved runs, {a.example}, {a.turns} turns, "
        f"seed {a.seed}:"
    )
    for name, _, _ in trees:
        cells = []
        for k, v in best[name].items():
            base = best[first].get(k)
            rel = f" ({(v / base - 1) * 100:+.1f}%)" if base and name != first else ""
            cells.append(f"{k} {v * 1000:.1f} ms{rel}")
        extra = ", ".join(f"{k} {int(v)}" for k, v in facts[name].items())
        print(f"  {name}: {'; '.join(cells)}; {extra}")


def cmd_autopilot(a: argparse.Namespace, trees: list[tuple[str, Path, Path]]) -> None:
    if a.per_game and a.games < 2:
        raise SystemExit("ab.py: --per-game needs --games 2 or more")
    counts = [1, a.games] if a.per_game else [a.games]
    runs: dict[tuple[str, int], list[float]] = {(n, g): [] for n, _, _ in trees for g in counts}
    for r in range(a.runs):
        for name, _tree, pp in trees:
            for games in counts:
                argv = [str(Path(a.scenario).resolve()), str(games), str(a.turns)]
                res = subprocess.run(
                    [sys.executable, "-c", ONLY_TREE + AUTOPILOT, *argv],
                    env=env_for(pp), capture_output=True, text=True, check=True,
                )  # fmt: skip
                t = json.loads(res.stdout.splitlines()[-1])["autopilot"]
                runs[name, games].append(t)
                print(f"  run {r + 1} {name}, {games} games: {t:.3f} s", flush=True)
    what = f"autopilot_outcomes({Path(a.scenario).name}, {{}} games, {a.turns} turns, seed 1, 1 worker)"
    for games in counts:
        print(f"\n{what.format(games)}, CPU s, {a.runs} interleaved runs:")
        first = min(runs[trees[0][0], games])
        for name, _, _ in trees:
            best = min(runs[name, games])
            rel = f" ({(best / first - 1) * 100:+.1f}%)" if name != trees[0][0] else ""
            cells = ", ".join(f"{t:.2f}" for t in runs[name, games])
            print(f"  {name}: best {best:.2f} s{rel}; runs {cells}")
    if a.per_game:
        # what one more game costs a worker that already played one: the difference of the
        # two bests, so start-up and the first game's one-off work are left out
        print(
            f"\nCPU time of each game after the first: (best of {a.games} games - best of 1) / {a.games - 1}:"
        )
        per = {
            name: (min(runs[name, a.games]) - min(runs[name, 1])) / (a.games - 1)
            for name, _, _ in trees
        }
        base = per[trees[0][0]]
        for name, _, _ in trees:
            rel = f" ({(per[name] / base - 1) * 100:+.1f}%)" if name != trees[0][0] else ""
            print(f"  {name}: {per[name] * 1000:.1f} ms a game{rel}")


def callgrind_ir(pp: Path, argv: list[str], tmp: Path, script: str = GAME) -> int:
    out = tmp / "cg.out"
    env = env_for(pp)
    env["PYTHONHASHSEED"] = "0"  # the same set and dict orders, so the same count
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
         "-c", ONLY_TREE + script, *argv],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    for line in out.read_text().splitlines():
        if line.startswith("summary:") or line.startswith("totals:"):
            return int(line.split()[1])
    raise RuntimeError("no totals in callgrind output")


def cmd_callgrind(a: argparse.Namespace, trees: list[tuple[str, Path, Path]], tmp: Path) -> None:
    rows = []
    for name, tree, pp in trees:
        path = str(example(tree, a.example))
        base = callgrind_ir(pp, [path, "0", str(a.seed), "quiet"], tmp)
        logged = callgrind_ir(pp, [path, str(a.turns), str(a.seed), "logged"], tmp)
        quiet = callgrind_ir(pp, [path, str(a.turns), str(a.seed), "quiet"], tmp)
        rows.append((name, logged - base, quiet - base))
        print(f"  {name}: start-up {base / 1e6:.0f} M instructions", flush=True)
    print(
        f"\ninstructions (callgrind Ir) of {a.turns} turns of {a.example}, seed {a.seed}, "
        "minus the same process with 0 turns (a logged game includes writing its log as JSON):"
    )
    first = rows[0]
    for name, logged, quiet in rows:
        rl = f" ({(logged / first[1] - 1) * 100:+.1f}%)" if name != first[0] else ""
        rq = f" ({(quiet / first[2] - 1) * 100:+.1f}%)" if name != first[0] else ""
        print(f"  {name}: logged {logged / 1e6:.1f} M{rl}; quiet {quiet / 1e6:.1f} M{rq}")


def cmd_autopilot_callgrind(
    a: argparse.Namespace, trees: list[tuple[str, Path, Path]], tmp: Path
) -> None:
    scenario = str(Path(a.scenario).resolve())
    if a.per_game and a.games < 2:
        raise SystemExit("ab.py: --per-game needs --games 2 or more")
    rows = []
    for name, tree, pp in trees:
        # compiled first, so that no tree counts the compiling of its modules
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], capture_output=True)
        ir = callgrind_ir(pp, [scenario, str(a.games), str(a.turns)], tmp, AUTOPILOT)
        if a.per_game:
            # the same process with one game: start-up and the first game's one-off work
            # (imports, loading, lazy map caches) are left out of the difference
            first = callgrind_ir(pp, [scenario, "1", str(a.turns)], tmp, AUTOPILOT)
            ir = round((ir - first) / (a.games - 1))
            print(f"  {name}: {ir / 1e6:.1f} M a game ({first / 1e6:.1f} M with 1 game)")
        else:
            print(f"  {name}: {ir / 1e6:.1f} M", flush=True)
        rows.append((name, ir))
    what = (
        f"each game after the first of autopilot_outcomes({Path(a.scenario).name}, "
        f"{a.games} games, {a.turns} turns, seed 1, 1 worker): (whole process with "
        f"{a.games} games - with 1 game) / {a.games - 1}"
        if a.per_game
        else f"the whole process of autopilot_outcomes({Path(a.scenario).name}, {a.games} "
        f"games, {a.turns} turns, seed 1, 1 worker)"
    )
    print(f"\ninstructions (callgrind Ir) of {what}:")
    for name, ir in rows:
        rel = f" ({(ir / rows[0][1] - 1) * 100:+.1f}%)" if name != rows[0][0] else ""
        print(f"  {name}: {ir / 1e6:.1f} M{rel}")


NUMBER = re.compile(r"(\d[\d,]*\.?\d*)\s*(ms|s|µs|us|location-turns/s|/s|x)?\b")


def line_key(line: str) -> str:
    return re.sub(r"\d[\d,]*\.?\d*", "#", line)


def cmd_bench(a: argparse.Namespace, trees: list[tuple[str, Path, Path]]) -> None:
    only = {s for s in a.only.split(",") if s}
    # figures[key][tree] -> list of best values (one per number in the line)
    figures: dict[str, dict[str, list[float]]] = {}
    units: dict[str, list[str]] = {}
    order: list[str] = []
    for r in range(a.runs):
        for name, tree, pp in trees:
            for script in sorted((tree / "benchmarks").glob("bench_*.py")):
                bench = script.stem.removeprefix("bench_")
                if only and bench not in only:
                    continue
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                res = subprocess.run(
                    [sys.executable, "-c", ONLY_TREE + RUN_SCRIPT, str(script),
                     *a.args.get(bench, [])],
                    env=env_for(pp), capture_output=True, text=True, cwd=tree,
                )  # fmt: skip
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if res.returncode:  # e.g. a figure over its target: still a figure
                    print(f"  {name} {script.name}: exit {res.returncode} {res.stderr[-500:]}")
                cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
                # the script's whole CPU time (its worker processes included once reaped):
                # steadier than its own wall-clock figures when the machine is loaded
                lines = [f"CPU time of the whole script {cpu:.3f} s", *res.stdout.splitlines()]
                for line in lines:
                    nums = NUMBER.findall(line)
                    if not nums:
                        continue
                    key = f"{bench}: {line_key(line).strip()}"
                    if key not in figures:
                        figures[key] = {}
                        order.append(key)
                        units[key] = [u for _, u in nums]
                    vals = [float(n.replace(",", "")) for n, _ in nums]
                    old = figures[key].get(name)
                    if old is None or len(old) != len(vals):
                        figures[key][name] = vals
                    else:
                        figures[key][name] = [
                            (max if u.endswith("/s") else min)(o, v)
                            for o, v, u in zip(old, vals, units[key], strict=False)
                        ]
            print(f"  run {r + 1} {name} done", flush=True)
    first = trees[0][0]
    for key in order:
        print(f"\n{key}")
        for name, _, _ in trees:
            vals = figures[key].get(name)
            if vals is None:
                print(f"  {name}: (no such line)")
                continue
            base = figures[key].get(first)
            cells = []
            for i, (v, u) in enumerate(zip(vals, units[key], strict=False)):
                rel = ""
                if base and name != first and len(base) == len(vals) and base[i]:
                    rel = f" ({(v / base[i] - 1) * 100:+.1f}%)"
                cells.append(f"{v:g}{u and ' ' + u}{rel}")
            print(f"  {name}: " + "; ".join(cells))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=("game", "bench", "autopilot"))
    p.add_argument("trees", nargs="+", help="NAME=TREE (the first is the reference)")
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--turns", type=int, default=60)
    p.add_argument("--seed", type=int, default=1940)
    p.add_argument("--games", type=int, default=20, help="autopilot: games per run")
    p.add_argument(
        "--scenario", default=str(HERE / "baseline_examples" / "paternoster.fg.yaml"),
        help="autopilot: the scenario file (the same for every tree)",
    )  # fmt: skip
    p.add_argument("--example", default="paternoster")
    p.add_argument("--callgrind", action="store_true")
    p.add_argument(
        "--per-game",
        action="store_true",
        help="autopilot: the cost of one more game (N games minus 1 game, / N-1)",
    )
    p.add_argument("--only", default="", help="bench names, comma separated (default all)")
    p.add_argument(
        "--bench-args", action="append", default=[],
        help="NAME:ARGS, e.g. engine:20 (extra argv for one bench script)",
    )  # fmt: skip
    a = p.parse_args()
    a.args = {}
    for spec in a.bench_args:
        n, _, rest = spec.partition(":")
        a.args[n] = rest.split()
    with tempfile.TemporaryDirectory(prefix="fireground-ab-") as d:
        tmp = Path(d)
        trees = parse_trees(a.trees, tmp)
        if a.what == "game" and a.callgrind:
            cmd_callgrind(a, trees, tmp)
        elif a.what == "game":
            cmd_game(a, trees)
        elif a.what == "autopilot" and a.callgrind:
            cmd_autopilot_callgrind(a, trees, tmp)
        elif a.what == "autopilot":
            cmd_autopilot(a, trees)
        else:
            cmd_bench(a, trees)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
