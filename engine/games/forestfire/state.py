"""Forest Fire's value types: the state of a game and a decision (:class:`Action`).

Both are immutable and hashable, so a search can memoise on them. Squares are numbered
1..N as on the board (square 1 is the town); ``tokens[i]`` is the count on square ``i + 1``.

>>> Action("grow", 7)
Action('grow', 7)
"""

from __future__ import annotations

from typing import NamedTuple

FIRE, CHIEF = "fire", "chief"
SIDES = (FIRE, CHIEF)

#: Phase kinds: whose decision it is and what it decides.
FIRE_ACTION = "fire"  # Fire chooses wind, grow or intensify (2.1 B)
PLACE = "place"  # Fire places one intensify token (FF-2)
LOAD = "load"  # the engine in the town takes on water (2.2 step 1)
ACT = "act"  # the engine moves or makes its first spray (2.2 step 2)
SPRAY = "spray"  # the engine sprays again or stops
OVER = "over"  # the game has ended

FIRE_PHASES = frozenset({FIRE_ACTION, PLACE})


class Engine(NamedTuple):
    """One fire engine: its square (1..N), water held and whether Fire destroyed it."""

    square: int
    water: int
    destroyed: bool = False


class Phase(NamedTuple):
    """Whose decision is next. ``engine`` is the acting engine's index (Chief's phases);
    ``left``, ``center``, ``reach``, ``low`` describe an intensify being placed (tokens
    still to place, the burnt square, the distance allowed, the lowest square the next
    token may go on, so that each split is reached in one order only); ``why`` says why
    the game ended."""

    kind: str
    engine: int = 0
    left: int = 0
    center: int = 0
    reach: int = 0
    low: int = 1
    why: str = ""


class State(NamedTuple):
    """A position of the game."""

    tokens: tuple[int, ...]
    burnt: tuple[bool, ...]
    engines: tuple[Engine, ...]
    vp: int
    round: int
    phase: Phase

    @property
    def side(self) -> str:
        """The side to decide (``fire`` or ``chief``); ``fire`` once the game is over."""
        return CHIEF if self.phase.kind in (LOAD, ACT, SPRAY) else FIRE

    @property
    def over(self) -> bool:
        return self.phase.kind == OVER

    @property
    def total_tokens(self) -> int:
        return sum(self.tokens)

    def leftmost(self) -> int:
        """The burning square nearest the town (0 when nothing burns)."""
        for i, t in enumerate(self.tokens):
            if t:
                return i + 1
        return 0

    def rightmost(self) -> int:
        """The burning square farthest from the town (0 when nothing burns)."""
        for i in range(len(self.tokens) - 1, -1, -1):
            if self.tokens[i]:
                return i + 1
        return 0


class Action(NamedTuple):
    """One decision. ``kind`` is one of ``wind``, ``grow``, ``intensify``, ``place``
    (Fire) or ``load``, ``move``, ``spray``, ``stop`` (Chief); ``square`` the square it
    concerns (the target of a spray, the goal of a move); ``amount`` the water loaded."""

    kind: str
    square: int = 0
    amount: int = 0

    def __repr__(self) -> str:
        args = [repr(self.kind)]
        if self.square or self.amount:
            args.append(str(self.square))
        if self.amount:
            args.append(str(self.amount))
        return f"Action({', '.join(args)})"

    def label(self) -> str:
        """Short words for a person: ``intensify 7``, ``load 3``, ``spray 9``."""
        if self.kind == "load":
            return f"load {self.amount}"
        if self.kind in ("wind", "stop"):
            return self.kind
        return f"{self.kind} {self.square}"
