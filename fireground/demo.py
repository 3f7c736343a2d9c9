"""`fireground demo`: the main job, headless, on the bundled Paternoster Row example.

Checks the scenario, plays a sample of turns with the standing-orders autopilot (writing
the turn log), and exports the whole play-aid pack; prints the path of every file written.
"""

from __future__ import annotations

import argparse
import time
from importlib import resources
from pathlib import Path

DEMO_EXAMPLE = "paternoster.fg.yaml"
DEMO_TURNS = 10


def cmd_demo(args: argparse.Namespace) -> int:
    from fireground.engine.games.blitz.checks.run import check
    from fireground.engine.play.simulate import new_game
    from fireground.engine.scenario.io import load_scenario
    from fireground.export.pack import export_pack

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with resources.as_file(resources.files("fireground.examples") / DEMO_EXAMPLE) as path:
        scenario = load_scenario(path)

    findings = check(scenario)
    errors = [f for f in findings if f.severity == "error"]
    n_locations = sum(1 for _ in scenario.locations())
    print(f"scenario: {scenario.name}")
    print(
        f"  {len(scenario.areas)} areas, {len(scenario.buildings)} buildings, "
        f"{n_locations} locations, {len(scenario.forces)} units, {scenario.turns} turns"
    )
    print(f"  check: {len(errors)} errors, {len(findings) - len(errors)} warnings")
    for f in findings:
        print(f"    {f.code} {f.severity}: {f.message}")
    if errors:
        return 1

    seed = scenario.seed if scenario.seed is not None else 1940
    game = new_game(scenario, seed)
    game.run(DEMO_TURNS)
    score = game.score()
    log_path = out / "turnlog.json"
    log_path.write_text(game.log_json(), encoding="utf-8")
    print(
        f"  simulated {DEMO_TURNS} turns (seed {seed}): {score['burning']} locations burning, "
        f"{score['destroyed']} destroyed, {score['rescued']} rescued, {score['dead']} dead"
    )

    paths = export_pack(scenario, out, turns=DEMO_TURNS, seed=seed)
    print("files:")
    for p in [log_path, *paths]:
        print(f"  {p}")
    print(f"done in {time.perf_counter() - started:.1f} s")
    return 0
