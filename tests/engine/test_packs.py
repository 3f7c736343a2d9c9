"""Game packs: discovery through the ``fireground.games`` entry points, the Game protocol as
BLITZ!'s pack implements it, and the scenario envelope's ``game:`` key."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib.metadata import EntryPoint, version
from pathlib import Path

import pytest

from fireground.engine.board.graph import build_graph
from fireground.engine.core import packs
from fireground.engine.core.dice import Dice
from fireground.engine.core.errors import ScenarioError
from fireground.engine.core.game import GamePack, hook
from fireground.engine.core.packs import (
    BadPackError,
    UnknownGameError,
    available_packs,
    load_pack,
)
from fireground.engine.core.turn import TurnContext, play_turn
from fireground.engine.games.blitz.orders.check import Order
from fireground.engine.games.blitz.pack import PACK
from fireground.engine.games.blitz.steps import policies
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.emit import dump_scenario
from fireground.engine.scenario.envelope import game_of, load_game_scenario
from fireground.engine.scenario.io import load_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
STEPNEY = EXAMPLES / "stepney.fg.yaml"


# -- discovery ------------------------------------------------------------------------------
def test_blitz_is_found_through_its_entry_point_with_the_distribution_version():
    assert available_packs()["blitz"] == version("fireground")


def test_listing_the_packs_imports_none_of_them():
    code = textwrap.dedent(
        """
        import sys
        from fireground.engine.core.packs import available_packs
        assert "blitz" in available_packs()
        print(sorted(m for m in sys.modules if m.startswith("fireground.engine.games")))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_load_pack_gives_the_pack_object_of_the_entry_point():
    pack = load_pack("blitz")
    assert pack is PACK
    assert isinstance(pack, GamePack)
    assert (pack.id, pack.name, pack.map_kind) == ("blitz", "BLITZ!", "polygons")
    assert pack.policies[pack.sides[0]] == ("autopilot", "orders")


def test_an_unknown_game_is_a_specific_value_error_naming_the_installed_ones():
    with pytest.raises(UnknownGameError, match=r"unknown game 'blits' \(did you mean 'blitz'\?\)"):
        load_pack("blits")
    assert issubclass(UnknownGameError, ValueError)
    with pytest.raises(UnknownGameError, match=r"installed games: .*blitz"):
        load_pack("chess")


@pytest.mark.parametrize(
    ("name", "value", "why"),
    [
        ("other", "fireground.engine.games.blitz.pack:PACK", "is the pack of 'blitz'"),
        ("odd", "os.path:join", "is not a game pack"),
        ("gone", "fireground.no_such_module:PACK", "does not load"),
    ],
)
def test_a_bad_entry_point_is_refused_with_its_reason(monkeypatch, name, value, why):
    fake = [EntryPoint(name=name, value=value, group=packs.GROUP)]
    monkeypatch.setattr(packs, "entry_points", lambda group: fake)
    with pytest.raises(BadPackError, match=why):
        load_pack(name)


def test_optional_hooks_read_as_none_and_unknown_hook_names_are_refused():
    assert hook(PACK, "documents") is None
    with pytest.raises(ValueError, match="not an optional pack hook"):
        hook(PACK, "secret")


# -- the protocol, played -------------------------------------------------------------------
def test_a_game_driven_through_the_pack_plays_the_same_turns_as_new_game():
    sc = PACK.load_scenario(str(STEPNEY))
    rules = PACK.ruleset(sc)
    ctx = TurnContext(sc, build_graph(sc), rules, Dice(1940), policies=policies())
    state = PACK.initial_state(sc, rules)
    plan = PACK.steps()
    via_pack = [play_turn(ctx, state, plan).to_json_obj() for _ in range(4)]
    game = new_game(load_scenario(STEPNEY), 1940)
    assert via_pack == [log.to_json_obj() for log in game.run(4)]
    assert PACK.outcome(sc, state, rules) == game.score()


def test_checks_of_the_pack_are_the_blitz_findings():
    sc = PACK.load_scenario(str(STEPNEY))
    found = PACK.checks(sc)
    assert all(f.code.startswith(PACK.check_prefix) for f in found)
    assert not [f for f in found if f.severity == "error"]


def test_legal_actions_are_the_orders_the_rules_allow_now():
    game = new_game(load_scenario(STEPNEY), 1940)
    game.run(2)
    ctx, state = game.ctx, game.state
    stands = [u for u in state.units.values() if u.in_play and u.kind == "stand" and u.loc]
    assert stands
    u = stands[0]
    acts = PACK.legal_actions(ctx, state, u.id)
    assert Order(u.id, "rest") in acts
    moves = [a.to for a in acts if a.kind == "move"]
    assert moves and not any(m in state.fire for m in moves)  # §4: never into a fire
    vehicles = [v for v in state.units.values() if v.in_play and v.kind == "vehicle" and v.loc]
    for v in vehicles:
        kinds = {a.kind for a in PACK.legal_actions(ctx, state, v.id)}
        assert "rest" not in kinds  # §10: only personnel stands rest
    assert PACK.legal_actions(ctx, state, "no such unit") == []


# -- the envelope ---------------------------------------------------------------------------
def test_no_game_key_means_blitz_and_the_file_loads_as_before():
    assert game_of(STEPNEY.read_bytes()) == "blitz"
    pack, sc = load_game_scenario(STEPNEY)
    assert pack is PACK
    assert dump_scenario(sc) == dump_scenario(load_scenario(STEPNEY))


def test_a_game_blitz_key_reads_the_same_scenario(tmp_path):
    text = STEPNEY.read_text(encoding="utf-8")
    head, rest = text.split("\n", 1)
    path = tmp_path / "keyed.fg.yaml"
    path.write_text(f"{head}\ngame: blitz\n{rest}", encoding="utf-8")
    assert game_of(path.read_bytes()) == "blitz"
    pack, sc = load_game_scenario(path)
    assert pack is PACK
    assert dump_scenario(sc) == dump_scenario(load_scenario(STEPNEY))


def test_the_game_key_names_a_pack(tmp_path):
    assert game_of(b"fireground: 1\ngame: forestfire\n") == "forestfire"
    assert game_of(b"fireground: 1\ndescription: |\n  game: none\n") == "blitz"
    path = tmp_path / "odd.fg.yaml"
    path.write_text("fireground: 1\ngame: nosuch\nruleset: blitz\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_game_scenario(path)
    assert str(err.value) == (
        f"{path}:2:7: game: unknown game 'nosuch'; installed games: "
        + ", ".join(sorted(available_packs()))
    )
    with pytest.raises(ScenarioError, match=r":2:7: game: must be the id of a game"):
        game_of(b"fireground: 1\ngame: 3\n", "x.fg.yaml")


def test_new_game_plays_the_pack_it_is_given() -> None:
    """play/ builds a game through its pack: the step table, the policies and the outcome
    are the pack's (the default is the v1 game's pack, BLITZ!, found by its entry point)."""
    from fireground.engine.board.model import Scenario
    from fireground.engine.games.blitz.pack import BlitzPack
    from fireground.engine.play.simulate import new_game, v1_pack

    seen: list[int] = []

    class OneStep(BlitzPack):
        def steps(self):  # type: ignore[no-untyped-def]
            return [(1, lambda ctx, state: seen.append(state.turn))]

        def outcome(self, scenario, state, rules):  # type: ignore[no-untyped-def]
            return {"turns": state.turn}

    pack = OneStep()
    game = new_game(Scenario(name="empty", bombing=False), 1, pack=pack)
    game.run(2)
    assert seen == [1, 2] and game.score() == {"turns": 2}
    assert game.pack is pack and game.ctx.policies == pack.turn_policies()
    plain = new_game(Scenario(name="empty", bombing=False), 1)
    assert plain.pack is v1_pack() and plain.pack.id == "blitz"
    assert [n for n, _ in plain.plan] == [n for n, _ in v1_pack().steps()]
