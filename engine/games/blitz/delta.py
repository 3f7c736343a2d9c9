"""The table delta: every change to make on the physical table after a turn, by place.

It compares two ``state`` objects of the turn log (before and after the turn) and says what
the umpire moves, adds or takes off: ``H3 level 1: fire 2 → 3``, ``J4: new fire 1``,
``GA1.2 is a casualty (killed)``, ``ROW4: crater``. Changes the table does not show (a unit's
task, a street fire's age) are left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ...board.model import place

TABLE = "the table"  # the place of a change that belongs to no location


@dataclass(frozen=True)
class Change:
    """One change on the table; ``area`` and ``level`` say where (None: the whole table)."""

    area: str | None
    level: int | None
    kind: str  # fire, embers, damp, damage, occupants, rubble, crater, unit, hose, casualty,...
    what: str

    @property
    def place(self) -> str:
        if self.area is None:
            return TABLE
        return place((self.area, self.level or 0)) if self.level is not None else self.area


def _natural(text: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


def _place_key(c: Change) -> tuple[Any, ...]:
    if c.area is None:
        return (1, ())
    return (0, _natural(c.area), c.level if c.level is not None else -99)


def _by_loc(items: Iterable[dict[str, Any]], value: str) -> dict[tuple[str, int], Any]:
    return {(d["area"], d["level"]): d[value] for d in items}


def table_delta(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """Every change from ``before`` to ``after`` (turn-log state objects), sorted by place."""
    out: list[Change] = []

    def at(loc: tuple[str, int] | None, kind: str, what: str) -> None:
        if loc is None:
            out.append(Change(None, None, kind, what))
        else:
            out.append(Change(loc[0], loc[1], kind, what))

    f0, f1 = _by_loc(before.get("fires", []), "fire"), _by_loc(after.get("fires", []), "fire")
    for loc in f0.keys() | f1.keys():
        a, b = f0.get(loc), f1.get(loc)
        if a == b:
            continue
        if a is None:
            at(loc, "fire", f"new fire {b}")
        elif b is None:
            at(loc, "fire", f"fire out (was {a})")
        else:
            at(loc, "fire", f"fire {a} → {b}")
    e0 = {(d["area"], d["level"]) for d in before.get("embers", [])}
    e1 = {(d["area"], d["level"]) for d in after.get("embers", [])}
    for loc in e1 - e0:
        at(loc, "embers", "embers")
    for loc in e0 - e1:
        at(loc, "embers", "embers gone")
    for key, kind, base in (("damp", "damp", 0), ("damage", "damage", 1),
                            ("occupants", "count", 0)):  # fmt: skip
        m0, m1 = _by_loc(before.get(key, []), kind), _by_loc(after.get(key, []), kind)
        for loc in m0.keys() | m1.keys():
            a, b = m0.get(loc, base), m1.get(loc, base)
            if a != b:
                at(loc, key, f"{key} {a} → {b}")
    for key, word in (("rubble", "rubble"), ("craters", "crater"),
                      ("hydrants_lost", "hydrant lost")):  # fmt: skip
        for area in sorted(set(after.get(key, [])) - set(before.get(key, []))):
            out.append(Change(area, None, key, word))
    w0 = {d["area"]: d["points"] for d in before.get("water_left", [])}
    w1 = {d["area"]: d["points"] for d in after.get("water_left", [])}
    for area in w0.keys() | w1.keys():
        if w0.get(area, 0) != w1.get(area, 0):
            out.append(Change(area, None, "water", f"water {w0.get(area, 0)} → {w1.get(area, 0)}"))
    _units(before, after, out)
    _hoses(before, after, out)
    _casualties(before, after, out)
    if after.get("all_clear") and not before.get("all_clear"):
        out.append(Change(None, None, "all_clear", "the all clear sounds"))
    out.sort(key=lambda c: (*_place_key(c), c.kind, _natural(c.what)))
    return out


def _loc_of(d: dict[str, Any] | None) -> tuple[str, int] | None:
    if d is None or "area" not in d:
        return None
    return (d["area"], d["level"])


def _units(before: dict[str, Any], after: dict[str, Any], out: list[Change]) -> None:
    u0 = {u["id"]: u for u in before.get("units", [])}
    for u in after.get("units", []):
        old = u0.get(u["id"])
        a, b = _loc_of(old), _loc_of(u)
        uid = u["id"]
        where = b or a
        if a != b:
            if b is None:
                if a is not None:
                    out.append(Change(a[0], a[1], "unit", f"{uid} leaves the table"))
            elif a is None:
                out.append(Change(b[0], b[1], "unit", f"{uid} enters"))
            else:
                out.append(Change(b[0], b[1], "unit", f"{uid} from {place(a)}"))
        s0 = old.get("status") if old else "ok"
        if u.get("status") != s0 and where is not None:
            status = str(u.get("status"))
            what = f"{uid} is {status.replace('_', ' ')}"
            if status not in ("ok", "tired", "exhausted"):
                what = f"{uid} is a casualty ({status.replace('_', ' ')})"
            out.append(Change(where[0], where[1], "unit", what))
        elif old and u.get("fatigue") != old.get("fatigue") and where is not None:
            out.append(Change(where[0], where[1], "unit",
                              f"{uid} {old.get('fatigue')} → {u.get('fatigue')}"))  # fmt: skip
        if old and u.get("water", 0) != old.get("water", 0) and where is not None:
            out.append(Change(where[0], where[1], "unit",
                              f"{uid} water {old.get('water', 0)} → {u.get('water', 0)}"))  # fmt: skip


def _hoses(before: dict[str, Any], after: dict[str, Any], out: list[Change]) -> None:
    h0 = {h["id"]: h for h in before.get("hoses", [])}
    h1 = {h["id"]: h for h in after.get("hoses", [])}
    for hid, h in h1.items():
        path = [(p["area"], p["level"]) for p in h.get("path", [])]
        end = path[-1] if path else None
        old = h0.get(hid)
        old_path = [(p["area"], p["level"]) for p in old.get("path", [])] if old else []
        if end is None:
            continue
        if old is None:
            route = " → ".join(place(p) for p in path)
            out.append(Change(end[0], end[1], "hose", f"hose {hid} of {h['unit']}: {route}"))
        elif path != old_path:
            out.append(Change(end[0], end[1], "hose", f"hose {hid} now reaches here"))
        if old is not None and h.get("cut") and not old.get("cut"):
            out.append(Change(end[0], end[1], "hose", f"hose {hid} is cut"))
    for hid, h in h0.items():
        if hid not in h1:
            path = h.get("path", [])
            end = _loc_of(path[-1]) if path else None
            if end is not None:
                out.append(Change(end[0], end[1], "hose", f"hose {hid} taken up"))


def _casualties(before: dict[str, Any], after: dict[str, Any], out: list[Change]) -> None:
    c0 = {c["id"]: c for c in before.get("casualties", [])}
    for c in after.get("casualties", []):
        loc = (c["area"], c["level"])
        old = c0.get(c["id"])
        status = str(c["status"]).replace("_", " ")
        if old is None:
            out.append(Change(loc[0], loc[1], "casualty", f"casualty {c['id']} ({status})"))
            continue
        if (old["area"], old["level"]) != loc:
            out.append(Change(loc[0], loc[1], "casualty",
                              f"casualty {c['id']} from {place((old['area'], old['level']))}"))  # fmt: skip
        if old["status"] != c["status"]:
            was = str(old["status"]).replace("_", " ")
            out.append(Change(loc[0], loc[1], "casualty", f"casualty {c['id']} {was} → {status}"))


def by_place(changes: Iterable[Change]) -> list[tuple[str, list[Change]]]:
    """The changes grouped by place, in the order given (table_delta's: by place)."""
    groups: dict[str, list[Change]] = {}
    for c in changes:
        groups.setdefault(c.place, []).append(c)
    return list(groups.items())


def delta_lines(changes: Iterable[Change]) -> list[str]:
    """One line per place: ``H3 level 1: fire 2 → 3; embers gone``."""
    return [f"{p}: " + "; ".join(c.what for c in cs) for p, cs in by_place(changes)]
