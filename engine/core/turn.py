"""The turn driver: plays one turn by the step table a game hands it, every roll logged as
one event.

It knows no rule and no game: BLITZ!'s ten steps (§2) and its policies are handed in by
the pack (``games/blitz/steps.py``). :class:`TurnContext` carries what the rules need
(scenario, graph, ruleset, dice, policies) and makes
every roll through :meth:`TurnContext.test` or :meth:`TurnContext.roll`, which append exactly
one typed event each (:class:`~.events.Event`, the class the rule names) to ``ctx.events``.
Rules that happen without a roll (an oil tank's spread, a collapse) are logged with
:meth:`TurnContext.note`; what a roll decided is added to its event by
:meth:`TurnContext.amend`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final, Protocol

from .dice import Dice
from .events import Event
from .memo import Memo, shared_memos
from .ruleset import Ruleset

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # (the sources run without mypy installed: it only tells mypyc)

    def mypyc_attr(*attrs: Any, **kwattrs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


if TYPE_CHECKING:  # types only: the driver plays any game's state on any board
    from ..board.graph import MapGraph
    from ..board.model import Location, Scenario


class TurnState(Protocol):
    """What the driver asks of a game's state (BLITZ!'s ``games/blitz/state.GameState``):
    the turn number, to start a turn, and the state as the turn log writes it."""

    @property
    def turn(self) -> int: ...

    def begin_turn(self) -> None: ...

    def to_log(self) -> dict[str, Any]: ...


#: one step (or one policy) of a turn: it acts on the state (the game's own type, which
#: the driver does not know: ``Any``) and logs through the context
Step = Callable[["TurnContext", Any], None]


def loc_dict(loc: Location) -> dict[str, Any]:
    """A location as the turn log writes it."""
    return {"area": loc[0], "level": loc[1]}


_OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "==": operator.eq,
    ">": operator.gt,
    "<": operator.lt,
}


_NEEDS: dict[str, tuple[Callable[[int, int], bool], int]] = {}


def check_need(need: str, total: int) -> bool:
    """Whether a modified total meets a need such as ``">=6"`` or ``"<=3"``."""
    hit = _NEEDS.get(need)
    if hit is None:
        hit = _parse_need(need)
        if len(_NEEDS) < 4096:  # a pure function of the text: safe to share between games
            _NEEDS[need] = hit
    return hit[0](total, hit[1])


def _parse_need(need: str) -> tuple[Callable[[int, int], bool], int]:
    for op in (">=", "<=", "==", ">", "<"):
        if need.startswith(op):
            return _OPS[op], int(need[len(op) :])
    raise ValueError(f"bad need {need!r}")


@dataclass
class TurnLog:
    turn: int
    events: list[Event]
    state: dict[str, Any]

    def to_json_obj(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "events": [ev.to_json() for ev in self.events],
            "state": self.state,
        }


def _nobody_decides(ctx: TurnContext, state: Any) -> None:
    """The policy of a context given none: units do only what the rules make them do."""


@dataclass(frozen=True)
class Policies:
    """Who decides for the units in step 6, handed to the rules as callbacks (as freeciv's
    ``common/ai.h`` hands the server its AI): ``orders`` applies the player's orders due
    this turn, then ``standing`` gives every unit without one its standing orders. The
    rules never import a policy; the game that builds the context chooses them."""

    orders: Step = _nobody_decides
    standing: Step = _nobody_decides


#: the policies of a context given none
NO_POLICIES: Final = Policies()


@mypyc_attr(allow_interpreted_subclasses=True)  # the table's context (play/table.py)
class TurnContext:
    """What a step needs besides the state. One context serves a whole game.

    A plain class with a hand-written ``__init__`` (not a dataclass) so that this module
    compiles: a compiled class keeps its fields in its C struct, and the compiled rules
    read ``ctx.cache``, ``ctx.rules``... as loads from it, where an interpreted class costs
    a generic attribute lookup by name at every read (round 24). mypyc would hand a
    dataclass's field types to ``dataclasses`` as type objects loaded by name, and the
    board's types are imported for mypy only (core may not import the board). Interpreted
    subclasses are allowed: their overrides of the methods are called from compiled code
    through Python's own lookup."""

    __slots__ = (
        "cache",
        "dice",
        "events",
        "graph",
        "log_events",
        "policies",
        "rules",
        "scenario",
        "step",
    )

    scenario: Scenario
    graph: MapGraph
    rules: Ruleset
    dice: Dice
    events: list[Event]
    step: int
    #: memos the rules keep for the whole game (e.g. the bomb-drop index), by typed key
    cache: dict[Memo[Any], Any]
    #: False for Monte Carlo: the same dice in the same order, but no event is made
    log_events: bool
    #: the decision makers of step 6 (see :class:`Policies`)
    policies: Policies

    def __init__(
        self,
        scenario: Scenario,
        graph: MapGraph,
        rules: Ruleset,
        dice: Dice,
        events: list[Event] | None = None,
        step: int = 0,
        cache: dict[Memo[Any], Any] | None = None,
        log_events: bool = True,
        policies: Policies = NO_POLICIES,
    ) -> None:
        self.scenario = scenario
        self.graph = graph
        self.rules = rules
        self.dice = dice
        self.events = [] if events is None else events
        self.step = step
        self.cache = {} if cache is None else cache
        self.log_events = log_events
        self.policies = policies

    def reset_events(self) -> None:
        """Start a turn's events."""
        self.events = []

    # -- events ----------------------------------------------------------------------------
    def _event(
        self, kind: type[Event], step: int | None, where: dict[str, Any], **roll: Any
    ) -> Event:
        return kind(step=self.step if step is None else step, **where, **roll)

    def test(
        self,
        kind: type[Event],
        need: str,
        dice: int = 1,
        modifier: int = 0,
        step: int | None = None,
        ruling: str | None = None,
        **where: Any,
    ) -> tuple[bool, int]:
        """Roll ``dice``d6 + ``modifier`` against ``need``; log it as a ``kind`` event;
        (success, total)."""
        if not self.log_events:
            total = (self.dice.die() if dice == 1 else sum(self.dice.d6(dice))) + modifier
            return check_need(need, total), total
        rolled = self.dice.d6(dice)
        total = sum(rolled) + modifier
        ok = check_need(need, total)
        self.events.append(
            self._event(
                kind, step, where, dice=tuple(rolled), modifier=modifier, need=need,
                success=ok, ruling=ruling or None,
            )
        )  # fmt: skip
        return ok, total

    def roll(
        self,
        kind: type[Event],
        dice: int = 1,
        step: int | None = None,
        ruling: str | None = None,
        **where: Any,
    ) -> int:
        """A table roll of ``dice``d6 (need ``"table"``); log it as a ``kind`` event; the sum."""
        rolled = self.dice.d6(dice)
        if not self.log_events:
            return sum(rolled)
        self.events.append(
            self._event(kind, step, where, dice=tuple(rolled), need="table", ruling=ruling or None)
        )
        return sum(rolled)

    def note(
        self,
        kind: type[Event],
        step: int | None = None,
        ruling: str | None = None,
        need: str = "auto",
        **where: Any,
    ) -> None:
        """Log something that happens without a roll (need ``"auto"`` unless told, e.g. a
        bomb's drop point, drawn by the dice as a table point: ``"table"``)."""
        if self.log_events:
            self.events.append(self._event(kind, step, where, need=need, ruling=ruling or None))

    def amend(self, **outcome: Any) -> None:
        """Add to the last event what its roll decided (its class's ``outcome`` fields, or
        ``manual``); nothing in the quiet mode."""
        if self.log_events and self.events:
            self.events[-1] = replace(self.events[-1], **outcome)

    def loc(self, loc: Location) -> dict[str, Any]:
        return loc_dict(loc)


def share_memos(ctx: TurnContext, shared: dict[Memo[Any], Any]) -> None:
    """Let ``ctx`` use (and fill) the memos kept in ``shared`` whose keys say games may
    share them (:class:`~.memo.Memo`, ``shared=True``: they follow from the map and the
    rules alone); the caller guarantees every game sharing them plays the same scenario,
    graph and ruleset."""
    for key in shared_memos():
        ctx.cache[key] = shared.setdefault(key, {})


def play_turn(ctx: TurnContext, state: TurnState, plan: Sequence[tuple[int, Step]]) -> TurnLog:
    """Play one whole turn on ``state`` (mutated) by the step table ``plan`` (step number,
    function; in play order) and return its log (in the quiet mode, ``ctx.log_events``
    False, a log with no events and no state). The driver knows no rule: the game hands
    it its steps, as it hands the steps their policies (``ctx.policies``)."""
    ctx.reset_events()
    state.begin_turn()
    for number, fn in plan:
        ctx.step = number
        fn(ctx, state)
    ctx.step = 0
    if not ctx.log_events:
        return TurnLog(state.turn, [], {})
    return TurnLog(state.turn, ctx.events, state.to_log())
