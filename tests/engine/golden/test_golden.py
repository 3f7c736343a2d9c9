"""Golden turn logs, byte-for-byte determinism and the ``simulate`` command.

Each example is played 10 turns with seed 1940 and its log compared with the stored
``<example>.json`` here. A change to the rules that changes a log must be on purpose:
regenerate with ``FIREGROUND_REGEN_GOLDEN=1 pytest tests/engine/golden`` and say why in the
commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.envelope import blitz_examples
from fireground.engine.scenario.io import load_scenario

HERE = Path(__file__).resolve().parent
EXAMPLES = blitz_examples(HERE.parents[2] / "examples")
SEED, TURNS = 1940, 10
#: the smallest example, for the tests that start subprocesses
SMALL = sorted(EXAMPLES, key=lambda p: p.stat().st_size)[:1]


def example_id(p: Path) -> str:
    return p.name.removesuffix(".fg.yaml")


@pytest.mark.parametrize("path", EXAMPLES, ids=example_id)
def test_golden_log(path):
    game = new_game(load_scenario(path), SEED)
    game.run(TURNS)
    text = game.log_json()
    golden = HERE / f"{example_id(path)}.json"
    if os.environ.get("FIREGROUND_REGEN_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"no golden log {golden.name}: regenerate on purpose"
    assert text == golden.read_text(encoding="utf-8"), f"{golden.name} changed"


@pytest.mark.parametrize("path", EXAMPLES[:1], ids=example_id)
def test_log_shape(path):
    game = new_game(load_scenario(path), SEED)
    game.run(3)
    log = json.loads(game.log_json())
    assert log["fireground_log"] == 1 and log["seed"] == SEED
    assert [t["turn"] for t in log["turns"]] == [1, 2, 3]
    for t in log["turns"]:
        for ev in t["events"]:
            assert {"step", "rule", "dice", "modifier", "need", "success"} <= set(ev)
        for key in (
            "fires",
            "embers",
            "damp",
            "damage",
            "rubble",
            "craters",
            "all_clear",
            "units",
            "hoses",
            "casualties",
        ):
            assert key in t["state"]
    for key in ("destroyed", "burning", "dead", "injured", "rescued", "units_lost", "objectives"):
        assert key in log["score"]


SCRIPT = """
import hashlib, sys
from fireground.engine.scenario.io import load_scenario
from fireground.engine.play.simulate import new_game
g = new_game(load_scenario(sys.argv[1]), 7)
g.run(8)
print(hashlib.sha256(g.log_json().encode()).hexdigest())
"""


@pytest.mark.parametrize("path", SMALL, ids=example_id)
def test_same_bytes_across_hash_seeds(path):
    """The log never depends on set/dict iteration order (PYTHONHASHSEED)."""
    digests = set()
    for hs in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hs)
        out = subprocess.run([sys.executable, "-c", SCRIPT, str(path)], env=env,
                             capture_output=True, text=True, check=True)  # fmt: skip
        digests.add(out.stdout.strip())
    assert len(digests) == 1
    g = new_game(load_scenario(path), 7)
    g.run(8)
    assert digests == {hashlib.sha256(g.log_json().encode()).hexdigest()}


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fireground", "simulate", *args],
                          capture_output=True, text=True)  # fmt: skip


@pytest.mark.parametrize("path", SMALL, ids=example_id)
def test_cli_simulate(path, tmp_path):
    log = tmp_path / "log.json"
    r = run_cli(str(path), "--turns", "3", "--seed", "5", "--log", str(log))
    assert r.returncode == 0, r.stderr
    assert "turn   3" in r.stdout and "score:" in r.stdout
    data = json.loads(log.read_text())
    assert data["seed"] == 5 and len(data["turns"]) == 3
    r = run_cli(str(path), "--turns", "2", "--json")
    assert r.returncode == 0 and "destroyed" in json.loads(r.stdout)


def test_cli_refuses_scenario_with_errors(tmp_path):
    bad = tmp_path / "bad.fg.yaml"
    bad.write_text(
        "fireground: 1\nname: bad\nruleset: blitz\nareas:\n"
        "  - {id: A, kind: street, polygon: [[0, 0], [10, 0], [10, 10], [0, 10]]}\n"
        "  - {id: B, kind: street, polygon: [[0, 0], [10, 0], [10, 10], [0, 10]]}\n"
    )
    r = run_cli(str(bad), "--turns", "1")
    assert r.returncode in (1, 2)
    assert f"{bad}:" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("path", EXAMPLES, ids=example_id)
def test_quiet_mode_plays_the_same_game(path):
    """``log_events=False`` (Monte Carlo) rolls the same dice in the same order: the same
    final state, score and dice position as the logged game, turn by turn."""
    sc = load_scenario(path)
    loud, quiet = new_game(sc, 11), new_game(sc, 11, log_events=False)
    for _ in range(12):
        loud.step()
        log = quiet.step()
        assert log.events == [] and log.state == {}
        assert quiet.state.to_log() == loud.state.to_log()
        assert quiet.ctx.dice.getstate() == loud.ctx.dice.getstate()
    assert quiet.score() == loud.score()


@pytest.mark.parametrize("path", EXAMPLES, ids=example_id)
def test_quiet_mode_plays_the_same_game_when_the_fire_is_big(path):
    """Late in a game most locations burn and the quiet spread starts from the locations
    not burning (``spread_plan._by_target``) instead of walking every fire: the same
    rolls, in the same order, turn by turn, through a whole game (and the switch does
    happen)."""
    from fireground.engine.games.blitz.rules import spread_plan

    sc = load_scenario(path)
    switched = 0
    for seed in (3, 1941):
        loud, quiet = new_game(sc, seed), new_game(sc, seed, log_events=False)
        for _ in range(60):
            switched += spread_plan.by_target_pays(quiet.ctx, len(quiet.state.fire))
            loud.step()
            quiet.step()
            assert quiet.state.to_log() == loud.state.to_log()
            assert quiet.ctx.dice.getstate() == loud.ctx.dice.getstate()
        assert quiet.score() == loud.score()
    assert switched >= 10


def test_no_state_leaks_between_games_in_one_process():
    """A game's log does not depend on what else the process has played before it (no
    module-level cache keyed on a game, no shared mutable rules data)."""
    first = new_game(load_scenario(SMALL[0]), 7)
    first.run(8)
    for path in EXAMPLES:  # other maps, other seeds, house rules, the quiet mode
        sc = load_scenario(path)
        new_game(sc, 3).run(4)
        new_game(sc, 5, log_events=False).run(4)
    from fireground.engine.core.ruleset import load_ruleset

    hr = load_ruleset("blitz", {"growth.on": 5, "hose.max_lengths": 6})
    new_game(load_scenario(SMALL[0]), 7, rules=hr).run(4)
    again = new_game(load_scenario(SMALL[0]), 7)
    again.run(8)
    assert again.log_json() == first.log_json()
