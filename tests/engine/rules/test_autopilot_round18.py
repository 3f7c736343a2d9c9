"""Speed, round 18 (issue 15): the safety checks' shortcuts give the answers of the full
checks (docs/autopilot.md, "Speed, round 18: the safety checks")."""

from __future__ import annotations

from pathlib import Path

import pytest

from fireground.engine.board.model import AreaKind
from fireground.engine.games.blitz.autopilot import safety
from fireground.engine.games.blitz.reach import danger, foot
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

BASELINE = Path(__file__).resolve().parents[3] / "benchmarks" / "baseline_examples"


def test_the_exit_bound_never_exceeds_a_walk_out():
    """Each location's bound is 0 on ground that is not a building, at most a ladder's
    cost down from a building's level, and at most one link more than the bound where
    that link leads: so it is never more than any walk (ladders included) to a street."""
    sc = load_scenario(BASELINE / "paternoster.fg.yaml")
    game = new_game(sc, 1, log_events=False)
    ctx = game.ctx
    bound = safety._exit_bound(ctx, {})
    kinds = danger.area_kinds(ctx)
    per_level = ctx.rules.int("movement.ladder")
    upper = 0
    for loc in ctx.graph.locations:
        b = bound.get(loc, 0)
        if kinds[loc[0]] is not AreaKind.BUILDING:
            assert b == 0
        elif loc[1] >= 1:
            assert b <= per_level * loc[1]
        for to, cost, _s, _l, _k in foot.foot_links(ctx, loc, {}):
            assert b <= cost + bound.get(to, 0)
        upper += b > 6
    assert upper > 0  # some places are too far in for a turn's walk out


def test_a_ladder_standing_in_a_building_turns_the_bound_off():
    sc = load_scenario(BASELINE / "paternoster.fg.yaml")
    ctx = new_game(sc, 1, log_events=False).ctx
    kinds = danger.area_kinds(ctx)
    house = next(a for a, k in sorted(kinds.items()) if k is AreaKind.BUILDING)
    assert safety._exit_bound(ctx, {(house, 0): [((house, 2), 2)]}) == {}
    assert safety._exit_bound(ctx, {})


@pytest.mark.parametrize("seed", [2, 4])  # games whose ladders stand at turns the test asks
def test_the_way_out_with_the_bound_is_the_full_search_through_a_game(seed, monkeypatch):
    """:func:`safety._way_out` skips places with no walk out left in the budget: at every
    turn of a 40-turn game, every location gets the answer of the search without it."""
    sc = load_scenario(BASELINE / "paternoster.fg.yaml")
    game = new_game(sc, seed, log_events=False)
    ctx, st = game.ctx, game.state
    full = {}
    trapped = ladders = 0
    for _ in range(40):
        game.step()
        locs = ctx.graph.locations
        ladders += bool(foot.ladder_links(st, ctx))
        with monkeypatch.context() as m:
            m.setattr(safety, "_exit_bound", lambda ctx, ladders: {})
            full = {x: safety._way_out(ctx, st, x) for x in locs}
        fast = {x: safety._way_out(ctx, st, x) for x in locs}
        assert fast == full
        trapped += sum(not v for v in full.values())
    assert trapped > 0 and ladders > 0  # both answers were asked, with ladders pitched


def _fresh_pocket(ctx, st, loc):
    """:func:`safety.pocket` by a plain search of its own, nothing remembered: whether a
    way through places that stay open (:func:`safety._stays_open`) leads to a goal."""
    fc = safety._forecast(ctx, st)
    if not st.fire or fc is None or loc in fc.goal_set:
        return False
    ladders = foot.ladder_links(st, ctx)

    def joined(start):
        seen, todo = {start}, [start]
        while todo:
            x = todo.pop()
            if x in fc.goal_set:
                return True
            for link in foot.foot_links(ctx, x, ladders):
                nb = link[0]
                if nb not in seen and safety._stays_open(ctx, st, nb, fc):
                    seen.add(nb)
                    todo.append(nb)
        return False

    if safety._stays_open(ctx, st, loc, fc):
        return not joined(loc)
    links = foot.foot_links(ctx, loc, ladders)
    return not any(safety._stays_open(ctx, st, x[0], fc) and joined(x[0]) for x in links)


def test_the_pocket_search_answers_as_a_search_of_its_own(monkeypatch):
    """The pocket search's shortcut for a quiet place closes the ground a collapse's rubble
    may strike, as :func:`safety._stays_open` does (round 18): without it, whether such a
    place counted as open depended on which search reached it first (examples/paternoster,
    the fourth game of the fingerprint's seeds, turn 21)."""
    import dataclasses

    from fireground.engine.games.blitz.autopilot import driver, teams
    from fireground.engine.play.montecarlo import game_seeds

    asked = []
    real = safety.pocket

    def pocket(ctx, st, loc):
        out = real(ctx, st, loc)
        asked.append((st.turn, loc, out, _fresh_pocket(ctx, st, loc)))
        return out

    # the calls the standing orders make (run from the sources: compiled, a module's calls
    # of its own functions and of other compiled modules' cannot be patched)
    for mod in (safety, driver, teams):
        monkeypatch.setattr(mod, "pocket", pocket)
    sc = load_scenario(Path(__file__).resolve().parents[3] / "examples" / "paternoster.fg.yaml")
    game = new_game(sc, game_seeds(1, 4)[3], log_events=False)
    orders = game.ctx.policies.standing

    def asking(ctx, st):
        # and, compiled or not, the stands' places as each call of the standing orders
        # starts, in the order of the units (a call's memos of their own)
        if st.fire:
            driver.open_call(ctx)
            try:
                stands = [st.units[uid] for uid in st.unit_ids()]
                for loc in dict.fromkeys(
                    u.loc for u in stands if u.kind == "stand" and u.in_play and u.loc
                ):
                    pocket(ctx, st, loc)
            finally:
                driver.close_call(ctx)
        orders(ctx, st)

    game.ctx.policies = dataclasses.replace(game.ctx.policies, standing=asking)
    for _ in range(24):
        game.step()
    assert [a for a in asked if a[2] != a[3]] == []
    assert any(a[2] for a in asked) and any(a[0] >= 21 for a in asked)


@pytest.mark.parametrize("seed", [2, 4])  # games whose ladders stand at turns the test asks
def test_the_way_back_search_answers_as_the_foot_search_through_a_game(seed):
    """:func:`safety._reaches` (the way back to a haven, :func:`safety.cut_off`) skips
    places with no walk to a haven left in the budget: at every turn of a 40-turn game,
    from every location, it answers as :func:`.foot.foot_search` for the havens does."""
    sc = load_scenario(BASELINE / "paternoster.fg.yaml")
    game = new_game(sc, seed, log_events=False)
    ctx, st = game.ctx, game.state
    asked = reached = ladders = 0
    for turn in range(40):
        game.step()
        havens = safety.shelters(ctx, st)
        limit = 2 + turn % 4  # the test's own heat limits, to vary the ways open

        def sure(x, limit=limit):
            return x not in st.fire and danger.heat(ctx, st, x) <= limit

        if turn % 3:
            continue  # (every third turn: the searches are dear)
        ladders += bool(foot.ladder_links(st, ctx))
        for x in ctx.graph.locations:
            if x in havens:
                continue
            for budget in (6, 12):
                dist, _ = foot.foot_search(ctx, st, x, budget, ok=sure, goals=havens)
                want = foot.nearest(dist, havens)[0] is not None
                assert safety._reaches(ctx, st, x, budget, sure, frozenset(havens)) == want
                asked += 1
                reached += want
    assert 0 < reached < asked and ladders > 0
