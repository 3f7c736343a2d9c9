"""Migrations of scenario files from older format versions.

A migration step turns the raw data of format ``n`` (the dict the YAML parser produced)
into the raw data of format ``n + 1``. :func:`migrate` chains the steps up to the current
:data:`~.scenario.FORMAT_VERSION`; the result is validated as usual afterwards. Format 1 is
the first public version, so the registry is empty today: register a step with
:func:`step` when format 2 arrives::

    @step(1)
    def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
        data["scale"]["figure_mm"] = data["scale"].pop("figure", 25)
        return data
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..board.model import FORMAT_VERSION

Data = dict[str, Any]
Step = Callable[[Data], Data]

#: from-version -> step producing the data of from-version + 1.
STEPS: dict[int, Step] = {}


class MigrationError(ValueError):
    """A file of a format version no migration leads from."""


def step(from_version: int) -> Callable[[Step], Step]:
    """Register ``fn`` as the migration from ``from_version`` to ``from_version + 1``."""

    def register(fn: Step) -> Step:
        if from_version in STEPS:
            raise ValueError(f"a migration from format {from_version} is already registered")
        STEPS[from_version] = fn
        return fn

    return register


def migrate(data: Data, version: int, target: int = FORMAT_VERSION) -> Data:
    """The data of ``version`` brought up to ``target`` (``fireground`` key updated)."""
    if version > target:
        raise MigrationError(f"format {version} is newer than {target}")
    while version < target:
        fn = STEPS.get(version)
        if fn is None:
            raise MigrationError(
                f"format {version} cannot be read: no migration from it "
                f"(this program reads formats {min(STEPS, default=target)}..{target})"
            )
        data = fn(data)
        version += 1
        data["fireground"] = version
    return data
