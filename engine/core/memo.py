"""Typed memo keys: what a game keeps in ``TurnContext.cache``, and whether Monte Carlo
games may share it.

A memo that follows from the map and the rules alone (neighbours, stream range, foot
links…) may be shared by every game of one scenario with one ruleset: sharing cannot
change a result, only save the work. A memo of the game in progress (the state of a
step, the orders file, the fires as a call starts) may not. Each key says which, where it
is declared, so nothing keeps a hand list of the shareable ones.

>>> from fireground.engine.core.memo import Memo
>>> NEIGHBOURS: Memo[dict[str, list[str]]] = Memo("neighbours", shared=True)
>>> NEIGHBOURS
Memo('neighbours', shared=True)
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

T = TypeVar("T")


class Memo(Generic[T]):
    """A key of ``TurnContext.cache`` holding a ``T``; ``shared``: games of one scenario and
    ruleset may share it. Keys compare by identity (fast to hash, one object per memo)."""

    __slots__ = ("name", "shared")
    #: every key declared so far, in the order declared
    declared: ClassVar[list[Memo[Any]]] = []

    def __init__(self, name: str, *, shared: bool) -> None:
        self.name = name
        self.shared = shared
        Memo.declared.append(self)

    def __repr__(self) -> str:
        return f"Memo({self.name!r}, shared={self.shared})"


def shared_memos() -> list[Memo[Any]]:
    """The keys declared so far that games may share."""
    return [m for m in Memo.declared if m.shared]
