"""The ``forestfire`` game pack: the object the ``fireground.games`` entry point names."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from . import cli
from .policies import POLICIES
from .rules import load_rules
from .state import SIDES


@dataclass(frozen=True)
class ForestFirePack:
    """Forest Fire (seed 002) for fireground's commands."""

    id: str = "forestfire"
    title: str = "Forest Fire"
    sides: tuple[str, ...] = SIDES
    policies: tuple[str, ...] = tuple(POLICIES)

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
