"""The ``forestfire`` game pack: the object the ``fireground.games`` entry point names."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import cli, steps
from .checks import check_setup
from .play import start_state
from .policies import POLICIES
from .rules import Rules, load_rules
from .scenario import Setup, load_setup
from .state import SIDES, Action, State


@dataclass(frozen=True)
class ForestFirePack:
    """Forest Fire (seed 002): the game pack (``core.game.GamePack``) and its commands.

    Its turns are decisions, not a fixed sequence for the core's turn driver: the table of
    phases in :mod:`.steps` says who decides at each and how it resolves, and
    :mod:`.play` drives a game through it."""

    id: str = "forestfire"
    name: str = "Forest Fire"
    title: str = "Forest Fire"
    sides: tuple[str, ...] = SIDES
    policies: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: {side: tuple(POLICIES) for side in SIDES}
    )
    map_kind: str = "track"
    #: its editor (a board window of its own): a module the editor imports
    editor_tools: str = "fireground.editor.games.forestfire"
    #: its printed aids (a board strip of its own, not the polygon plans): the module whose
    #: ``cli_export`` writes them
    export_tools: str = "fireground.export.games.forestfire.pack"

    def load_scenario(self, path: str) -> Setup:
        return load_setup(path)

    def ruleset(self, scenario: Setup) -> Rules:
        return scenario.rules()

    def initial_state(self, scenario: Setup, rules: Rules) -> State:
        return start_state(scenario, rules)

    def steps(self) -> Sequence[tuple[int, Any]]:
        """The phases (numbered in play order) with who decides and how each resolves."""
        return list(enumerate(steps.STEP_TABLE.values(), start=1))

    def legal_actions(self, ctx: Any, state: State, who: str) -> Sequence[Action]:
        return steps.legal_actions(state, ctx) if state.side == who else []  # ctx: the Rules

    def outcome(self, scenario: Setup, state: State, rules: Rules) -> Mapping[str, Any]:
        return {"vp": state.vp, "band": steps.result_band(state.vp, rules)}

    def checks(self, scenario: Setup) -> Sequence[Any]:
        return check_setup(scenario)

    @property
    def version(self) -> str:
        return load_rules().version

    def new_scenario(self, options: dict[str, object]) -> str:
        return cli.new_text(options)

    def cli_check(self, args: argparse.Namespace) -> int:
        return cli.cli_check(args)

    def cli_simulate(self, args: argparse.Namespace) -> int:
        return cli.cli_simulate(args)

    def cli_analyze(self, args: argparse.Namespace) -> int:
        return cli.cli_analyze(args)


PACK = ForestFirePack()
