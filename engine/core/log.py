"""The turn log of a game (scenario-format.md, "Turn log"), written byte-for-byte the same
for the same scenario and seed: every list in it is built in a fixed order and the JSON is
written with fixed separators."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .turn import TurnLog

LOG_VERSION = 1


def log_object(
    scenario_name: str, seed: int | None, turns: Iterable[TurnLog], score: dict[str, Any] | None
) -> dict[str, Any]:
    """The turn log as a JSON-ready dict."""
    out: dict[str, Any] = {
        "fireground_log": LOG_VERSION,
        "scenario": scenario_name,
        "seed": seed,
        "turns": [t.to_json_obj() for t in turns],
    }
    if score is not None:
        out["score"] = score
    return out


def dumps(obj: dict[str, Any]) -> str:
    """Deterministic JSON text (ASCII, fixed separators, trailing newline)."""
    return json.dumps(obj, ensure_ascii=True, separators=(",", ":"), allow_nan=False) + "\n"


def load_log(text: str) -> dict[str, Any]:
    """Read a turn log back (raises ValueError when it is not one)."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("fireground_log") != LOG_VERSION:
        raise ValueError("not a fireground turn log (version 1)")
    return data
