"""The numbers Forest Fire plays by: ``forestfire.yaml`` with a scenario's house rules.

Every number of the spec is a dotted key (``burn_out.at``, ``spray.need``); a house rule
replaces one. :func:`load_rules` refuses an unknown key or a value of the wrong kind with
:class:`HouseRuleError`, which the scenario reader turns into ``FILE:LINE:COL`` errors.

>>> load_rules({"burn_out.at": 8}).burn_out_at
8
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

#: Keys whose value is a list of whole numbers; every other key is one whole number,
#: except ``board.square_cm`` (a positive number).
_LIST_KEYS = frozenset({"spray.need"})
_FLOAT_KEYS = frozenset({"board.square_cm"})


class HouseRuleError(ValueError):
    """A house rule names no number of the ruleset, or gives it an unusable value."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        super().__init__(message)


@cache
def _defaults() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("forestfire.yaml").read_text("utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def default_keys() -> dict[str, Any]:
    """Every house-rule key with its default value (dotted key -> value)."""
    out: dict[str, Any] = {}
    for section, values in _defaults().items():
        if isinstance(values, dict):
            for k, v in values.items():
                out[f"{section}.{k}"] = v
    return out


@dataclass(frozen=True, slots=True)
class Rules:
    """The ruleset in force (defaults of ``forestfire.yaml`` with house rules)."""

    squares: int
    square_cm: float
    fire_square: int
    fire_tokens: int
    engine_count: int
    capacity: int
    move: int
    wind_squares: int
    spray_range: int
    spray_need: tuple[int, ...]
    burn_out_at: int
    rightmost_at_total: int
    vp_square: int
    vp_town: int
    vp_engine: int
    vp_win: int
    vp_marginal: int
    rounds_max: int
    chief_first: bool = False
    version: str = "1.0"

    def need(self, distance: int) -> int:
        """The die a spray at ``distance`` needs: 0 = automatic, 7 = cannot hit."""
        if distance < len(self.spray_need):
            return self.spray_need[distance]
        return 7


def _check_value(key: str, value: Any, default: Any) -> Any:
    if key in _LIST_KEYS:
        if not isinstance(value, list) or not value:
            raise HouseRuleError(key, f"house rule {key}: expected a list of dice, e.g. [0, 3, 5]")
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 7:
                raise HouseRuleError(key, f"house rule {key}: each need is 0..7, got {v!r}")
        return tuple(value)
    if key in _FLOAT_KEYS:
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0.5 <= value <= 100:
            raise HouseRuleError(
                key, f"house rule {key}: expected a size in cm (0.5-100), got {value!r}"
            )
        return float(value)
    if isinstance(default, str):
        return str(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise HouseRuleError(key, f"house rule {key}: expected a whole number, got {value!r}")
    if value < 0 or value > 10_000:
        raise HouseRuleError(key, f"house rule {key}: {value} is out of range (0-10000)")
    return value


def load_rules(house_rules: Mapping[str, Any] | None = None) -> Rules:
    """The default ruleset with ``house_rules`` (dotted key -> value) applied."""
    values = default_keys()
    for key, value in (house_rules or {}).items():
        if key not in values:
            known = ", ".join(sorted(k for k in values if "." in k))
            raise HouseRuleError(key, f"unknown house rule {key!r} (known: {known})")
        values[key] = _check_value(key, value, values[key])
    need = values["spray.need"]
    return Rules(
        squares=values["board.squares"],
        square_cm=float(values["board.square_cm"]),
        fire_square=values["start.fire_square"],
        fire_tokens=values["start.fire_tokens"],
        engine_count=values["engine.count"],
        capacity=values["engine.capacity"],
        move=values["engine.move"],
        wind_squares=values["wind.squares"],
        spray_range=values["spray.range"],
        spray_need=tuple(need),
        burn_out_at=values["burn_out.at"],
        rightmost_at_total=values["burn_out.rightmost_at_total"],
        vp_square=values["vp.square"],
        vp_town=values["vp.town"],
        vp_engine=values["vp.engine"],
        vp_win=values["vp.win"],
        vp_marginal=values["vp.marginal"],
        rounds_max=values["rounds.max"],
        chief_first=bool(values["rounds.chief_first"]),
        version=str(_defaults().get("version", "1.0")),
    )
