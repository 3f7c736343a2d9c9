"""Ruleset data: every number of the rules lives in a YAML file in ``rulesets/``.

This module only loads the data; the engine helper extends it with typed access and
house-rule overrides.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml

KNOWN_RULESETS: tuple[str, ...] = ("blitz",)


class RulesetError(ValueError):
    """An unknown ruleset, or a house rule that does not fit it."""


@cache
def ruleset_data(name: str) -> dict[str, Any]:
    """The raw data of a bundled ruleset (cached; do not mutate)."""
    if name not in KNOWN_RULESETS:
        raise RulesetError(f"unknown ruleset {name!r}")
    text = resources.files("fireground.engine.rulesets").joinpath(f"{name}.yaml").read_text("utf-8")
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


def unit_types(name: str = "blitz") -> tuple[str, ...]:
    """Unit type ids the ruleset knows, in catalogue order."""
    units = ruleset_data(name).get("units", {})
    return tuple(units)
