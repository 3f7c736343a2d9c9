"""A game played at the table: turn by turn, with the players' orders and, optionally, the
umpire's own dice.

:class:`TableGame` wraps the engine's :class:`~..simulate.Game` with a context that names
each roll before it is made (:class:`RollRequest`), so that the umpire can roll it with real
dice (:data:`ManualSource`), and keeps each turn's record (:class:`PlayedTurn`): the orders
given, the rolls made (as turn-log events, a manual one marked ``"manual": true``) and a
digest of the state after it. The game's dice draw from the seeded stream for every roll,
manual or not, so the rolls the program makes are the same whether or not the umpire rolled
some of them, and a game played with no orders and no manual roll is, turn for turn, the
game ``simulate`` plays with the same seed.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..board.graph import build_graph
from ..board.model import Scenario, place
from ..core.dice import Dice
from ..core.events import Event
from ..core.log import dumps
from ..core.turn import TurnContext, TurnLog
from ..games.blitz.memos import ORDER_BOOK
from ..games.blitz.orders.check import Order
from ..games.blitz.orders.file import OrderBook
from .simulate import Game, turn_policies, v1_pack

#: a roll as the game file keeps it (the turn log's JSON of its event)
RollRecord = dict[str, Any]


_SYMBOL = {"<=": "≤", ">=": "≥", "==": "=", "<": "<", ">": ">"}


@dataclass(frozen=True)
class RollRequest:
    """A roll the turn needs now: the ``index``-th roll of the turn (from 0)."""

    index: int
    rule: str
    need: str  # ">=6", "<=2", ... or "table" (a roll read off a table, no pass or fail)
    dice: int
    modifier: int
    where: dict[str, Any]

    def target(self) -> tuple[str, int] | None:
        """What the raw dice must show: (operator, value), or None for a table roll."""
        for op in ("<=", ">=", "==", "<", ">"):
            if self.need.startswith(op):
                return op, int(self.need[len(op) :]) - self.modifier
        return None

    def label(self) -> str:
        """E.g. ``spread H3 level 1 → H4 level 1: 1 die, needs ≤ 2``."""
        w = self.where
        if "from" in w and "to" in w:
            what = f"{place(w['from'])} → {place(w['to'])}"
        elif "at" in w:
            what = place(w["at"])
        else:
            what = ""
        who = " ".join(str(w[k]) for k in ("unit", "casualty", "hose") if k in w)
        head = " ".join(x for x in (self.rule.replace("_", " "), what, who) if x)
        dice = "1 die" if self.dice == 1 else f"{self.dice} dice"
        t = self.target()
        if t is None:
            return f"{head}: {dice}, read the table"
        op, value = t
        lo, hi = self.dice, 6 * self.dice
        if (op in ("<=", "<") and value < lo + (op == "<")) or (
            op in (">=", ">") and value > hi - (op == ">")
        ):
            note = " (cannot succeed)"
        elif (op == "<=" and value >= hi) or (op == ">=" and value <= lo):
            note = " (cannot fail)"
        else:
            note = ""
        return f"{head}: {dice}, needs {_SYMBOL[op]} {value}{note}"


#: Asked for each roll when the umpire rolls real dice: the dice shown, or None to let the
#: program roll this one.
ManualSource = Callable[[RollRequest], list[int] | None]


class TableDice(Dice):
    """Seeded dice that can take the umpire's dice instead of their own.

    Every roll draws from the seeded stream, manual or not, so later rolls the program makes
    do not depend on which rolls were manual."""

    def __init__(self, seed: int | None = 0) -> None:
        super().__init__(seed)
        self.armed: RollRequest | None = None
        self.source: ManualSource | None = None
        self.was_manual = False

    def d6(self, n: int = 1) -> list[int]:
        rolled = super().d6(n)
        request, self.armed = self.armed, None
        self.was_manual = False
        if request is None or self.source is None:
            return rolled
        shown = self.source(request)
        if shown is None:
            return rolled
        shown = list(shown)
        if len(shown) != n or not all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in shown
        ):
            raise ValueError(f"{request.label()}: wanted {n} dice of 1 to 6, got {shown}")
        self.was_manual = True
        return shown


class TableContext(TurnContext):
    """A turn context that names every roll to its :class:`TableDice` before making it and
    marks the event of a manual roll ``"manual": true``. (Its fields are
    :class:`TurnContext`'s, a compiled class that is no dataclass: the same ``__init__``.)"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rolls_made = 0

    def reset_events(self) -> None:
        super().reset_events()
        self.rolls_made = 0

    def _arm(
        self, kind: type[Event], need: str, dice: int, modifier: int, where: dict[str, Any]
    ) -> None:
        if isinstance(self.dice, TableDice):
            shown = self._event(kind, 0, where).where_json()
            self.dice.armed = RollRequest(self.rolls_made, kind.rule, need, dice, modifier, shown)
        self.rolls_made += 1

    def _mark(self) -> None:
        if isinstance(self.dice, TableDice) and self.dice.was_manual and self.events:
            self.amend(manual=True)
            self.dice.was_manual = False

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
        self._arm(kind, need, dice, modifier, where)
        result = super().test(kind, need, dice, modifier, step, ruling, **where)
        self._mark()
        return result

    def roll(
        self,
        kind: type[Event],
        dice: int = 1,
        step: int | None = None,
        ruling: str | None = None,
        **where: Any,
    ) -> int:
        self._arm(kind, "table", dice, 0, where)
        result = super().roll(kind, dice, step, ruling, **where)
        self._mark()
        return result


def state_digest(state_log: dict[str, Any]) -> str:
    """``sha256:…`` of a turn-log state object's canonical JSON."""
    return "sha256:" + hashlib.sha256(dumps(state_log).encode("ascii")).hexdigest()


def is_roll(ev: Event) -> bool:
    """An event that records dice (a test or a table roll), or a bomb's drop point."""
    return bool(ev.dice) or getattr(ev, "point", None) is not None


@dataclass
class PlayedTurn:
    """One turn as played at the table: what the game file keeps of it, and its log."""

    turn: int
    orders: list[dict[str, Any]]
    rolls: list[RollRecord]
    digest: str
    log: TurnLog | None = None


@dataclass
class TableGame:
    """A game at the table: the engine's game and the record of every turn played."""

    game: Game
    turns: list[PlayedTurn] = field(default_factory=list)

    @property
    def scenario(self) -> Scenario:
        return self.game.scenario

    @property
    def seed(self) -> int:
        return int(self.game.seed or 0)

    @property
    def turn(self) -> int:
        return int(self.game.state.turn)

    def state_log(self) -> dict[str, Any]:
        """The current state as the turn log's ``state`` object."""
        log: dict[str, Any] = self.game.state.to_log()
        return log

    def play(
        self, orders: list[Order] | None = None, manual: ManualSource | None = None
    ) -> PlayedTurn:
        """Resolve the next turn with ``orders`` (given at its step 6, as an orders file's;
        units without orders follow standing orders) and, with ``manual``, the umpire's dice
        for each roll it answers."""
        number = self.turn + 1
        given = [_for_turn(o, number) for o in orders or []]
        g = self.game
        g.ctx.cache.pop(ORDER_BOOK, None)
        g.orders = OrderBook(given, "<table>") if given else None
        dice = g.ctx.dice
        if isinstance(dice, TableDice):
            dice.source = manual
        try:
            log = g.step()
        finally:
            if isinstance(dice, TableDice):
                dice.source = None
                dice.armed = None
        record = PlayedTurn(
            number,
            [_order_record(o) for o in given],
            [ev.to_json() for ev in log.events if is_roll(ev)],
            state_digest(log.state),
            log,
        )
        self.turns.append(record)
        return record

    def score(self) -> dict[str, Any]:
        return self.game.score()


def _for_turn(order: Order, turn: int) -> Order:
    if order.turn == turn:
        return order
    d = order.to_dict()
    d["turn"] = turn
    return Order.from_dict({**d, "where": order.where})


def _order_record(order: Order) -> dict[str, Any]:
    d = order.to_dict()
    d.pop("where", None)
    return d


def start_game(scenario: Scenario, seed: int | None = None) -> TableGame:
    """A game at turn 0 (seed: the scenario's, else 0), as :func:`~..simulate.new_game`
    makes it but with the table's context and dice."""
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else 0
    pack = v1_pack()
    rules = pack.ruleset(scenario)
    graph = build_graph(scenario)
    ctx = TableContext(scenario, graph, rules, TableDice(seed), policies=turn_policies(pack))
    game = Game(scenario, seed, ctx, pack.initial_state(scenario, rules), pack=pack)
    return TableGame(game)


class ReplayError(ValueError):
    """A recorded turn that the engine does not play back the same way; ``turn`` is its
    number and ``roll`` the index of the first roll that differs (None: the state)."""

    def __init__(self, turn: int, roll: int | None, message: str) -> None:
        self.turn = turn
        self.roll = roll
        super().__init__(message)


def replay(scenario: Scenario, seed: int, turns: list[PlayedTurn]) -> TableGame:
    """Play the recorded ``turns`` again (their orders, and their manual rolls as the
    umpire's dice) and check that every roll and every state comes out as recorded."""
    tg = start_game(scenario, seed)
    for rec in turns:
        recorded = rec.rolls

        def manual(req: RollRequest, recorded: list[RollRecord] = recorded) -> list[int] | None:
            if req.index < len(recorded) and recorded[req.index].get("manual"):
                return list(recorded[req.index]["dice"])
            return None

        orders = [Order.from_dict(o) for o in rec.orders]
        try:
            # a refused order was reported when the turn was played; not again on each load
            with contextlib.redirect_stderr(io.StringIO()):
                got = tg.play(orders, manual)
        except ValueError as exc:
            raise ReplayError(rec.turn, None, f"turn {rec.turn} does not replay: {exc}") from None
        for i, (a, b) in enumerate(zip(got.rolls, recorded, strict=False)):
            if dumps(a) != dumps(b):
                raise ReplayError(
                    rec.turn, i, f"turn {rec.turn} does not replay: roll {i + 1} comes out as "
                    f"{dumps(a).strip()}",
                )  # fmt: skip
        if len(got.rolls) != len(recorded):
            i = min(len(got.rolls), len(recorded))
            raise ReplayError(
                rec.turn, i if i < len(recorded) else None,
                f"turn {rec.turn} does not replay: {len(got.rolls)} rolls, "
                f"{len(recorded)} recorded",
            )  # fmt: skip
        if got.digest != rec.digest:
            raise ReplayError(rec.turn, None, f"turn {rec.turn} does not replay: the state differs")
    return tg


def undo(tg: TableGame) -> TableGame:
    """The game as it was before its last turn (replayed from the start)."""
    if not tg.turns:
        raise ValueError("nothing to undo: the game is at turn 0")
    return replay(tg.scenario, tg.seed, tg.turns[:-1])


_EVENT_KEYS = frozenset({"step", "rule", "dice", "modifier", "need", "success", "ruling",
                         "manual", "result", "point", "redrops"})  # fmt: skip


def request_of(ev: RollRecord, index: int) -> RollRequest:
    """The roll an event of the turn log records, as it was asked for."""
    where = {k: v for k, v in ev.items() if k not in _EVENT_KEYS}
    return RollRequest(
        index, str(ev.get("rule", "?")), str(ev.get("need", "table")),
        len(ev.get("dice") or []) or 1, int(ev.get("modifier", 0) or 0), where,
    )  # fmt: skip


def roll_text(ev: RollRecord, index: int) -> str:
    """A recorded roll for the turn sheet: what it was for, what it needed, what came up."""
    if "point" in ev and not ev.get("dice"):
        at = place(ev["at"]) if "at" in ev else "off the map"
        return f"bomb drop ({ev.get('bomb', '?')}): lands on {at}"
    req = request_of(ev, index)
    shown = "+".join(str(d) for d in ev.get("dice", []))
    if ev.get("need") in ("table", None):
        out = f"{req.label().rsplit(':', 1)[0]}: rolled {shown}"
        if "result" in ev:
            out += f" ({ev['result']})"
    else:
        out = f"{req.label()}: rolled {shown}, {'yes' if ev.get('success') else 'no'}"
    return out + (" [table dice]" if ev.get("manual") else "")
