"""Turn-log events in plain words for the umpire's list (no Qt)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fireground.engine.board.model import Location

_WORDS = {
    "spread": ("spread", "caught", "did not catch"),
    "jump": ("jump", "jumped", "did not jump"),
    "growth": ("growth", "grew", "no growth"),
    "reignite": ("embers", "re-ignited", "stayed embers"),
    "collapse_roll": ("damage roll", "damaged", "held"),
    "escape": ("escape", "escaped", "caught"),
    "heat": ("heat test", "passed", "failed"),
    "extinguish": ("firefighting", "knocked down", "no effect"),
    "damp_down": ("damping", "damped", "no effect"),
    "embers_out": ("embers out", "put out", "still smoulder"),
    "rescue": ("rescue", "rescued", "not yet"),
    "dig_out": ("dig out", "dug out", "not yet"),
}


def _loc(d: Any) -> str:
    if isinstance(d, Mapping):
        return f"{d.get('area')} level {d.get('level', 0)}"
    return str(d)


def event_locations(ev: Mapping[str, Any]) -> list[Location]:
    """Every location an event names (at, from, to)."""
    out: list[Location] = []
    for k in ("from", "to", "at"):
        d = ev.get(k)
        if isinstance(d, Mapping) and "area" in d:
            out.append((str(d["area"]), int(d.get("level", 0))))
    return out


def describe_event(ev: Mapping[str, Any]) -> str:
    """E.g. ``spread S1 level 3 → S2 level 3: rolled 2 -1 = 1, needed <=2 — caught``."""
    rule = str(ev.get("rule", "?"))
    title, yes, no = _WORDS.get(rule, (rule.replace("_", " "), "success", "failure"))
    where = ""
    if "from" in ev and "to" in ev:
        where = f" {_loc(ev['from'])} → {_loc(ev['to'])}"
    elif "at" in ev:
        where = f" {_loc(ev['at'])}"
    dice = list(ev.get("dice") or [])
    mod = int(ev.get("modifier") or 0)
    rolled = "+".join(str(d) for d in dice) if dice else ""
    total = sum(dice) + mod
    if rolled and mod:
        rolled = f"rolled {rolled} {mod:+d} = {total}"
    elif rolled:
        rolled = f"rolled {rolled}" if len(dice) == 1 else f"rolled {rolled} = {total}"
    need = str(ev.get("need", ""))
    extra = ""
    if "fire" in ev:
        extra = f", fire {ev['fire']}"
    if need == "table":
        result = ev.get("result")
        bits = [k for k in ("he", "incendiary") if k in ev]
        res = f" → {result}" if result is not None else ""
        if bits:
            res += " (" + ", ".join(f"{ev[k]} {k}" for k in bits) + ")"
        return f"{title}{where}{extra}: {rolled}{res}".rstrip(": ")
    need_txt = need.replace("<=", "≤ ").replace(">=", "≥ ")
    outcome = yes if ev.get("success") else no
    ruling = f" [{ev['ruling']}]" if ev.get("ruling") else ""
    parts = [p for p in (rolled, f"needed {need_txt}" if need else "") if p]
    return f"{title}{where}{extra}: {', '.join(parts)} — {outcome}{ruling}"
