"""For tests that look inside a call of the standing orders: a context made anew with other
memos, and a game whose every call is checked at its start, with the call's memos open; a game
played some turns.

The driver is compiled, so its inner calls cannot be patched; the game's own policy is
wrapped instead (``ctx.policies.standing``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fireground.engine.core.turn import TurnContext
from fireground.engine.games.blitz.autopilot import driver
from fireground.engine.games.blitz.state import GameState
from fireground.engine.play.simulate import Game, new_game
from fireground.engine.scenario.io import load_scenario


def with_cache(ctx: TurnContext, cache: dict[Any, Any]) -> TurnContext:
    """``ctx`` with ``cache`` for its memos (the context is a compiled class, not a
    dataclass: made anew with the same fields)."""
    return TurnContext(
        ctx.scenario,
        ctx.graph,
        ctx.rules,
        ctx.dice,
        events=ctx.events,
        step=ctx.step,
        cache=cache,
        log_events=ctx.log_events,
        policies=ctx.policies,
    )


def without_autopilot_memos(ctx: TurnContext) -> TurnContext:
    """The context without the autopilot's memos (``ap_*``): every answer worked out anew."""
    return with_cache(ctx, {k: v for k, v in ctx.cache.items() if not k.name.startswith("ap_")})


def check_each_call(game: Game, check: Callable[[TurnContext, GameState], None]) -> None:
    """Make ``game`` run ``check`` on the state each call of its standing orders starts
    from (when a unit is in play, as the driver does), with that call's memos open."""
    orders = game.ctx.policies.standing

    def checked(ctx: TurnContext, state: GameState) -> Any:
        if any(u.in_play for u in state.units.values()):
            driver.open_call(ctx)
            try:
                check(ctx, state)
            finally:
                driver.close_call(ctx)
        return orders(ctx, state)

    game.ctx.policies = dataclasses.replace(game.ctx.policies, standing=checked)


def played_game(path: Path, seed: int, turns: int) -> Game:
    """A quiet game of the scenario at ``path`` (seed ``seed``) after ``turns`` turns."""
    game = new_game(load_scenario(path), seed, log_events=False)
    for _ in range(turns):
        game.step()
    return game
