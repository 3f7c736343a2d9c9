"""Play a scenario turn by turn: :func:`new_game` (``fireground simulate`` prints it, in
fireground/simulate.py).

>>> from fireground.engine.board.model import Scenario
>>> game = new_game(Scenario(name="empty", bombing=False), seed=1)
>>> game.run(2)[-1].turn
2
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from ..board.graph import MapGraph, build_graph
from ..board.model import Scenario
from ..core.dice import Dice
from ..core.game import GamePack, hook
from ..core.log import dumps, log_object
from ..core.memo import Memo
from ..core.packs import default_pack
from ..core.ruleset import Ruleset
from ..core.turn import Policies, Step, TurnContext, TurnLog, play_turn, share_memos


@functools.cache
def v1_pack() -> GamePack:
    """The pack that plays a scenario of format v1 (a file without ``game:``: BLITZ!),
    found through its entry point as any pack is (once a process: see
    :func:`~..core.packs.default_pack`)."""
    return default_pack()


def turn_policies(pack: GamePack) -> Policies:
    """The decision makers the pack hands the turn driver (its ``turn_policies`` hook);
    nobody decides for a pack without one."""
    make = hook(pack, "turn_policies")
    return make() if make is not None else Policies()


@dataclass
class Game:
    """One game in progress: the state after the last turn played, and every turn's log."""

    scenario: Scenario
    seed: int | None
    ctx: TurnContext
    #: the game's state (the pack's own type)
    state: Any
    logs: list[TurnLog] = field(default_factory=list)
    orders: Any = None
    #: the step table the turn driver plays (the pack's: BLITZ!'s ten steps); empty: the
    #: pack's own
    plan: list[tuple[int, Step]] = field(default_factory=list)
    #: the game's pack
    pack: GamePack = field(default_factory=v1_pack)

    def __post_init__(self) -> None:
        if not self.plan:
            self.plan = list(self.pack.steps())

    @property
    def rules(self) -> Ruleset:
        return self.ctx.rules

    @property
    def graph(self) -> MapGraph:
        return self.ctx.graph

    def step(self) -> TurnLog:
        """Play the next turn."""
        if self.orders is not None:
            _apply_orders(self)
        log = play_turn(self.ctx, self.state, self.plan)
        self.logs.append(log)
        return log

    def run(self, turns: int) -> list[TurnLog]:
        """Play ``turns`` more turns; the logs of those turns."""
        return [self.step() for _ in range(turns)]

    def score(self) -> dict[str, Any]:
        return dict(self.pack.outcome(self.scenario, self.state, self.ctx.rules))

    def log_obj(self) -> dict[str, Any]:
        return log_object(self.scenario.name, self.seed, self.logs, self.score())

    def log_json(self) -> str:
        """The turn log as JSON text, byte-for-byte reproducible."""
        return dumps(self.log_obj())


def new_game(
    scenario: Scenario,
    seed: int | None = None,
    *,
    graph: MapGraph | None = None,
    dice: Dice | None = None,
    rules: Ruleset | None = None,
    log_events: bool = True,
    shared_memos: dict[Memo[Any], Any] | None = None,
    pack: GamePack | None = None,
) -> Game:
    """A game at turn 0 of ``scenario`` (seed defaults to the scenario's, then 0).

    ``log_events=False`` is for Monte Carlo: the game rolls the same dice in the same order
    and ends in the same state as the logged one, but keeps no events and no per-turn state
    (its turn logs are empty). ``shared_memos``: a dict kept across games of the same
    scenario, graph and ruleset, for the memos that follow from the map alone (see
    :func:`share_memos`). ``pack``: the game's pack (default: :func:`v1_pack`); the game
    takes its ruleset, initial state, step table, policies and outcome from it.
    """
    pack = pack or v1_pack()
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else 0
    rules = rules or pack.ruleset(scenario)
    graph = graph or build_graph(scenario)
    ctx = TurnContext(
        scenario,
        graph,
        rules,
        dice or Dice(seed),
        log_events=log_events,
        policies=turn_policies(pack),
    )
    if shared_memos is not None:
        share_memos(ctx, shared_memos)
    return Game(scenario, seed, ctx, pack.initial_state(scenario, rules), pack=pack)


def _apply_orders(game: Game) -> None:
    from ..games.blitz.orders.file import apply_orders

    apply_orders(game, game.orders)
