"""Exact instruction counts (valgrind's callgrind) of one more autopilot game, and of each
rule step alone, without the start-up and the first game.

Usage (from a checkout with ``.venv``; needs valgrind, its headers and a C compiler)::

    .venv/bin/python benchmarks/steps_callgrind.py game [--games 2]
    .venv/bin/python benchmarks/steps_callgrind.py steps [--games 2]
    .venv/bin/python benchmarks/steps_callgrind.py steps --only step_spread \\
        --wrap fireground.engine.games.blitz.rules.spread_plan:_by_target

The process runs under ``valgrind --tool=callgrind --instr-atstart=no``: nothing is counted
while it loads the scenario and plays a first game of baseline Paternoster Row (seed set
``game_seeds(1, games + 1)``, 60 turns) that fills the map's shared memos. ``game`` then
counts the next ``--games`` games whole (what one more game of ``bench_analysis.py --full``
costs). ``steps`` plays them uncounted, keeping a copy of the state and the dice before each
rule step (all but movement, which holds the standing orders, and bombing), and counts each
step replayed alone on those copies, in order; it prints each step's number of calls and a
hash of the states and dice after them (the same hash on two trees: the same results).
``--wrap MODULE:FUNCTION`` counts only inside that function (it must not call itself),
within the replays of ``--only`` (``steps``) or the whole games (``game``); each call adds
a few thousand instructions of its own (the switch is a C call made through ctypes).

The counts are switched on and off by callgrind's client requests, in a small C library
compiled on the first run (``valgrind/callgrind.h``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

C_SOURCE = r"""
#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void cg_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void cg_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
void cg_zero(void) { CALLGRIND_ZERO_STATS; }
void cg_dump(const char *s) { CALLGRIND_DUMP_STATS_AT(s); }
"""

#: what runs under valgrind: argv = library, mode, games, only, wrap
INNER = r"""
import ctypes, functools, hashlib, importlib, pickle, sys
lib, mode, n, only, wrap = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
cg = ctypes.CDLL(lib)
cg.cg_dump.argtypes = [ctypes.c_char_p]
from fireground.engine.play.montecarlo import prepare, play_full, game_seeds
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario
import fireground.engine.games.blitz.steps as S

sc = load_scenario(sys.argv[6])
seeds = game_seeds(1, n + 1)
prep = prepare(sc)
play_full(sc, seeds[:1], 60, prep)
_, graph, rules, memos = prep
if wrap:
    modname, fname = wrap.split(":")
    mod = importlib.import_module(modname)
    orig = getattr(mod, fname)

    @functools.wraps(orig)
    def wrapped(*a, **k):
        cg.cg_toggle()
        try:
            return orig(*a, **k)
        finally:
            cg.cg_toggle()

    for m in list(sys.modules.values()):
        if getattr(m, "__name__", "").startswith("fireground.engine"):
            if getattr(m, fname, None) is orig:
                setattr(m, fname, wrapped)
if mode == "game":
    cg.cg_start(); cg.cg_zero()
    play_full(sc, seeds[1:], 60, prep)
    cg.cg_dump(b"games")
    cg.cg_stop()
    sys.exit()
want = {fn.__name__ for _, fn in S.steps()} - {"step_movement", "step_bombing"}
caps = {}
for s in seeds[1:]:
    game = new_game(sc, s, graph=graph, rules=rules, log_events=False, shared_memos=memos)
    plan = []
    for k, fn in game.plan:
        if fn.__name__ in want:
            def keep(c, st, fn=fn):
                caps.setdefault(fn.__name__, []).append((c, st.copy(), c.dice.getstate()))
                fn(c, st)
            plan.append((k, keep))
        else:
            plan.append((k, fn))
    game.plan = plan
    for _ in range(60):
        game.step()
fns = {fn.__name__: fn for _, fn in S.steps()}

def sig(st, ctx):
    return (sorted(st.fire.items()), sorted(st.embers), sorted(st.damp.items()),
            sorted(st.damage.items()), sorted(st.pending_damp_loss.items()), sorted(st.rubble),
            sorted(st.caught), sorted(st.occupants.items()),
            [st.units[k].to_log() for k in sorted(st.units)],
            [c.to_log() for c in st.casualties], sorted(st.street_fire_age.items()),
            ctx.dice.getstate())

for name in sorted(caps):
    if only and name != only:
        continue
    copies = [(c, st.copy(), ds) for c, st, ds in caps[name]]
    cg.cg_start(); cg.cg_zero()
    for c, st, ds in copies:
        c.dice.setstate(ds)
        fns[name](c, st)
    cg.cg_dump(name.encode())
    cg.cg_stop()
    h = hashlib.sha256()
    for c, st, _ds in copies:
        h.update(pickle.dumps(sig(st, c)))
    print(name, len(copies), h.hexdigest()[:16], flush=True)
"""


def library(tmp: Path) -> Path:
    src, lib = tmp / "cgt.c", tmp / "cgt.so"
    src.write_text(C_SOURCE)
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    return lib


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["game", "steps"])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--only", default="", help="steps: count only this step (e.g. step_spread)")
    ap.add_argument("--wrap", default="", help="MODULE:FUNCTION: count only inside it")
    ap.add_argument("--scenario", default=str(HERE / "baseline_examples" / "paternoster.fg.yaml"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        lib = library(tmp)
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
        if a.wrap:
            cmd.append("--collect-atstart=no")
        cmd += [f"--callgrind-out-file={tmp}/cg.%p", sys.executable, "-c", INNER]
        cmd += [str(lib), a.mode, str(a.games), a.only, a.wrap, a.scenario]
        env = dict(os.environ, PYTHONHASHSEED="0")
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd=ROOT)
        hashes = {ln.split()[0]: ln.split()[1:] for ln in out.stdout.splitlines() if ln.strip()}
        rows = []
        for f in sorted(tmp.glob("cg.*")):
            text = f.read_text(errors="replace")
            part = re.search(r"^desc: Trigger: Client Request: (\S+)", text, re.M)
            total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
            if part and total:
                rows.append((part.group(1), int(total.group(1))))
    what = f"{a.games} games after a warm one" + (f", inside {a.wrap} only" if a.wrap else "")
    print(f"callgrind instructions ({what}):")
    for part, ir in sorted(rows):
        calls, digest = hashes.get(part, ["", ""])
        extra = f"  ({calls} calls, results {digest})" if calls else ""
        print(f"  {part:20s} {ir / 1e6:10.1f} M{extra}")


if __name__ == "__main__":
    main()
