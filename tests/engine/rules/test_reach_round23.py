"""Round 23's fast paths in ``reach`` against the plain rules they stand for, on played-out
states of the examples: the ladders' links read by a plain loop, heat and R-7's danger
summed by typed loops."""

from __future__ import annotations

from pathlib import Path

import pytest

from fireground.engine.games.blitz.memos import HEAT_MEMO, UNSAFE_MEMO
from fireground.engine.games.blitz.reach import danger, foot
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.envelope import blitz_examples
from fireground.engine.scenario.io import load_scenario

EXAMPLES = blitz_examples(Path(__file__).resolve().parents[3] / "examples")


def played(path, seed=4, stops=(3, 9, 18, 30)):
    """The game at several turns: fires, heat, damage and pitched ladders over the map."""
    game = new_game(load_scenario(path), seed)
    done = 0
    for turn in stops:
        game.run(turn - done)
        done = turn
        yield game.ctx, game.state


def want_heat(ctx, state, loc):
    return sum(state.fire.get(nb, 0) for nb in ctx.graph.neighbours(loc))


def want_ladders(state):
    out: dict = {}
    for u in state.units.values():
        for ld in u.ladders:
            if not (ld.ready and ld.at and ld.face is not None and u.in_play):
                continue
            for lvl in range(1, ld.height + 1):
                out.setdefault((ld.at, 0), []).append(((ld.face, lvl), lvl))
                out.setdefault((ld.face, lvl), []).append(((ld.at, 0), lvl))
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_ladder_links_are_the_ready_ladders(path):
    """``ladder_links`` links the foot and each level of every ready ladder of a unit in
    play, in the units' and ladders' order (with the game's memo and without)."""
    pitched = 0
    for seed in (4, 5):
        for ctx, state in played(path, seed):
            want = want_ladders(state)
            for got in (foot.ladder_links(state, ctx), foot.ladder_links(state)):
                assert list(got.items()) == list(want.items())
            pitched += bool(want)
    if "paternoster" in path.name:
        assert pitched  # ladders were pitched: the test met some


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_heat_and_unsafe_are_the_rules(path):
    """``heat`` is the sum of the fires next to a place, and ``unsafe`` R-7's test, with
    the step's memos and without."""
    unsafe_seen = 0
    for ctx, state in played(path):
        worst = ctx.rules.int("movement.withdraw_damage")
        hot = ctx.rules.int("movement.withdraw_fire")
        bad = ctx.rules.int("movement.withdraw_fire_damage")
        for memo in (False, True):
            if memo:
                ctx.cache[HEAT_MEMO] = {}
                ctx.cache[UNSAFE_MEMO] = {}
            for loc in sorted(ctx.graph.locations):
                assert danger.heat(ctx, state, loc) == want_heat(ctx, state, loc)
                want = state.damage_at(loc) >= worst or any(
                    state.fire.get(nb, 0) >= hot and state.damage_at(nb) >= bad
                    for nb in ctx.graph.neighbours(loc)
                )
                assert danger.unsafe(ctx, state, loc) == want
                unsafe_seen += want
        ctx.cache.pop(HEAT_MEMO, None)
        ctx.cache.pop(UNSAFE_MEMO, None)
    assert unsafe_seen
