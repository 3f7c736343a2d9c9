"""Words for a Forest Fire turn log: one line per turn, for the CLI and the turn report."""

from __future__ import annotations

from collections import Counter
from typing import Any


def describe_event(ev: dict[str, Any]) -> str:
    """One event in a few words."""
    step = ev["step"]
    if step == "action":
        rule = ev["rule"]
        if rule == "FF-wind":
            placed = ", ".join(map(str, ev["placed"])) or "nothing"
            return f"wind from {ev['square']} (tokens on {placed})"
        if rule == "FF-grow":
            return f"grow {ev['square']}"
        return f"intensify {ev['square']} ({ev['tokens']} tokens: {ev['to_place']} to place)"
    if step == "place":
        return f"place {ev['square']}"
    if step == "tokens_lost":
        return f"{ev['count']} tokens lost"
    if step == "burn_out":
        return f"square {ev['square']} burns out (+{ev['vp']} VP)"
    if step == "engine_lost":
        return f"{ev['unit']} destroyed on {ev['square']} (+{ev['vp']} VP)"
    if step == "load":
        return f"{ev['unit']} loads {ev['water']} (holds {ev['holds']})"
    if step == "move":
        return (
            f"{ev['unit']} {ev['from']}->{ev['to']}"
            if ev["from"] != ev["to"]
            else f"{ev['unit']} stays on {ev['to']}"
        )
    if step == "spray":
        roll = f"rolls {ev['dice'][0]}, needs {ev['need']}+" if ev["dice"] else "automatic"
        return f"{ev['unit']} sprays {ev['square']} at {ev['distance']} ({roll}): {'hit' if ev['success'] else 'miss'}"
    if step == "stop":
        return f"{ev['unit']} stops"
    if step == "end":
        return f"game over ({ev['reason']}): {ev['vp']} VP, {ev['result']}"
    return str(step)


def describe_turn(entry: dict[str, Any]) -> list[str]:
    """The events of one turn, intensify placements merged (``place 4 x2, 6``)."""
    out: list[str] = []
    places: Counter[int] = Counter()
    for ev in entry["events"]:
        if ev["step"] == "place":
            places[ev["square"]] += 1
            continue
        if places:
            out.append(
                "place "
                + ", ".join(f"{s} x{c}" if c > 1 else str(s) for s, c in sorted(places.items()))
            )
            places.clear()
        out.append(describe_event(ev))
    if places:
        out.append(
            "place "
            + ", ".join(f"{s} x{c}" if c > 1 else str(s) for s, c in sorted(places.items()))
        )
    return out


def board_line(state: dict[str, Any], squares: int) -> str:
    """The track as text: ``T`` town, ``#`` burnt, token counts, engines in brackets."""
    cells = []
    burnt = set(state["burnt"])
    here: dict[int, list[str]] = {}
    for eid, e in state["engines"].items():
        if not e["destroyed"]:
            here.setdefault(e["square"], []).append(f"{eid}:{e['water']}")
    for sq in range(1, squares + 1):
        mark = "#" if sq in burnt else str(state["tokens"].get(str(sq), "."))
        if sq == 1:
            mark = "T" + ("#" if sq in burnt else str(state["tokens"].get("1", "")))
        if sq in here:
            mark += "[" + " ".join(here[sq]) + "]"
        cells.append(mark)
    return " ".join(cells)
