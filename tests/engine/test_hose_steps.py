"""The autopilot's hose-step table answers as the bounded breadth-first search it stands
in for: for random groups of sources, streets and limits on the examples, and on a map
treated as too big for a table."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from fireground.engine.games.blitz.memos import HOSE_STEPS
from fireground.engine.games.blitz.reach import hose_steps
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.envelope import blitz_examples
from fireground.engine.scenario.io import load_scenario

EXAMPLES = blitz_examples(Path(__file__).resolve().parents[2] / "examples")


def _by_search(ctx, sources, targets, limit):
    dist = hose_steps.bfs_steps(ctx, sources, limit)
    return {t: dist[t] for t in targets if t in dist and dist[t] <= limit}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_table_gives_the_searchs_numbers(path):
    ctx = new_game(load_scenario(path), 1).ctx
    locs = sorted(ctx.graph.locations)
    rng = random.Random(5)
    checked = 0
    for _ in range(200):
        sources = rng.sample(locs, rng.choice([1, 2, 5, 30]))
        targets = rng.sample(locs, min(len(locs), 40))
        limit = rng.choice([0, 1, 3, 12, 28])
        got = hose_steps.steps_to(ctx, sources, targets, limit)
        assert got == _by_search(ctx, sources, targets, limit)
        checked += len(got)
    assert checked > 1000  # the answers are not all empty
    assert ctx.cache[HOSE_STEPS]["table"] is not None


def test_big_maps_search_instead(monkeypatch):
    monkeypatch.setattr(hose_steps, "TABLE_MAX", 10)
    ctx = new_game(load_scenario(EXAMPLES[0]), 1).ctx
    locs = sorted(ctx.graph.locations)
    got = hose_steps.steps_to(ctx, locs[:3], locs, 6)
    assert got == _by_search(ctx, locs[:3], locs, 6) and got
    assert ctx.cache[HOSE_STEPS]["table"] is None


def test_a_deeper_limit_makes_a_deeper_table():
    ctx = new_game(load_scenario(EXAMPLES[0]), 1).ctx
    locs = sorted(ctx.graph.locations)
    shallow = hose_steps.steps_to(ctx, locs[:1], locs, 4)
    deep = hose_steps.steps_to(ctx, locs[:1], locs, 500)
    assert deep == _by_search(ctx, locs[:1], locs, 500)
    assert set(shallow) <= set(deep) and ctx.cache[HOSE_STEPS]["table"].bound >= 500
