"""The protocol every game pack meets, so that the CLI and the editor can drive any game.

A pack is found by id through the ``fireground.games`` entry points (:mod:`.packs`); it
reads its own scenario files (chosen by their top-level ``game:`` key), checks them, and
runs the commands of ``spec/cli.md`` that it supports.
"""

from __future__ import annotations

import argparse
from typing import Protocol, runtime_checkable


@runtime_checkable
class GamePack(Protocol):
    """One game: its id, version, sides and policies, and its command handlers."""

    id: str
    version: str
    title: str
    #: The sides that decide (e.g. ``("fire", "chief")``); empty for a game played by
    #: standing orders only.
    sides: tuple[str, ...]
    #: Policy names a side can be given with ``--policy SIDE=NAME``.
    policies: tuple[str, ...]

    def new_scenario(self, options: dict[str, object]) -> str:
        """The YAML text of a new scenario for this game."""
        ...

    def cli_check(self, args: argparse.Namespace) -> int: ...

    def cli_simulate(self, args: argparse.Namespace) -> int: ...

    def cli_analyze(self, args: argparse.Namespace) -> int: ...
