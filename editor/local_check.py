"""Quick findings after a small edit: check only the edited areas' neighbourhood.

A full check of a 5,000-area city takes about a second. After an edit that touches a few
areas, the editor checks a small scenario made of those areas and two rings of neighbours,
and replaces the findings of the edited areas and their first ring; everything else keeps
its findings from the last full check, which runs again in the background and has the last
word.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from fireground.engine.board.model import Area, Scenario

from .diff import AreaDiff, area_diff

#: An edit touching more areas than this gets a full check straight away.
MAX_LOCAL = 64
#: Areas closer than this count as neighbours here (wider than any near-miss warning).
MARGIN_CM = 2.0

_SETTINGS = (
    "name",
    "description",
    "ruleset",
    "house_rules",
    "scale",
    "turns",
    "seed",
    "wind",
    "bombing",
    "mains",
    "buildings",
    "objectives",
    "version",
)


class LocalChecker:
    """Keeps area bounding boxes between edits so finding neighbours stays cheap."""

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._pos: dict[str, int] = {}
        self._arr = np.zeros((0, 4))
        #: The areas the boxes describe; the cheap update applies only on top of them.
        self._seen: tuple[Area, ...] | None = None

    def _bounds(self, old: Scenario, s: Scenario, diff: AreaDiff) -> tuple[list[str], np.ndarray]:
        fast = old.areas is self._seen and not diff.added and not diff.removed
        self._seen = s.areas
        if fast:
            by_id = s.area_by_id
            for aid in diff.changed:
                self._arr[self._pos[aid]] = _box(by_id[aid])
            return self._ids, self._arr
        self._ids = [a.id for a in s.areas]
        self._pos = {a: i for i, a in enumerate(self._ids)}
        self._arr = np.asarray([_box(a) for a in s.areas], dtype=float).reshape(-1, 4)
        return self._ids, self._arr

    def findings(
        self,
        old: Scenario,
        new: Scenario,
        previous: Sequence[Any],
        check: Callable[[Scenario], Iterable[Any]],
    ) -> list[Any] | None:
        """The previous findings with those near the edit refreshed; None when the edit
        is not local (settings, buildings or many areas changed)."""
        for k in _SETTINGS:
            if getattr(old, k) is not getattr(new, k) and getattr(old, k) != getattr(new, k):
                return None
        diff = area_diff(old, new)
        dirty = _dirty_areas(old, new, diff)
        if dirty is None:
            return None
        if not dirty:
            return list(previous) if new.features is old.features else None
        if len(dirty) > MAX_LOCAL:
            return None
        ids, boxes = self._bounds(old, new, diff)
        pos = self._pos
        ring1 = _near(boxes, [pos[a] for a in dirty if a in pos]) | {
            pos[a] for a in dirty if a in pos
        }
        ring2 = _near(boxes, sorted(ring1)) | ring1
        refreshed = {ids[i] for i in ring1} | dirty
        keep = {ids[i] for i in ring2}
        sub = _sub_scenario(new, keep)
        fresh = [f for f in check(sub) if getattr(f, "area", None) in refreshed]
        kept = [f for f in previous if getattr(f, "area", None) not in refreshed]
        return kept + fresh


def _box(a: Area) -> tuple[float, float, float, float]:
    xs = [p[0] for p in a.polygon] or [0.0]
    ys = [p[1] for p in a.polygon] or [0.0]
    return (min(xs), min(ys), max(xs), max(ys))


def _dirty_areas(old: Scenario, new: Scenario, diff: AreaDiff) -> set[str] | None:
    dirty: set[str] = set(diff.all)
    if new.features is not old.features:
        dirty |= {f.area for f in set(old.features) ^ set(new.features)}
    if new.start is not old.start:
        so, sn = old.start, new.start
        for key in ("fires", "embers", "damp", "damage"):
            dirty |= {v.area for v in set(getattr(so, key)) ^ set(getattr(sn, key))}
        dirty |= set(so.rubble) ^ set(sn.rubble)
        dirty |= set(so.craters) ^ set(sn.craters)
    if new.forces is not old.forces:
        changed = set(old.forces) ^ set(new.forces)
        dirty |= {u.area for u in changed if u.area}
        if any(u.area is None for u in changed):
            return None  # a unit arriving at an entry: not tied to one place
    return dirty


def _near(boxes: np.ndarray, rows: Sequence[int]) -> set[int]:
    if not len(rows) or not len(boxes):
        return set()
    sel = boxes[list(rows)]
    lo = sel[:, :2].min(axis=0) - MARGIN_CM
    hi = sel[:, 2:].max(axis=0) + MARGIN_CM
    # Candidates in the joint box, then each against each edited box.
    cand = np.nonzero(
        (boxes[:, 0] <= hi[0])
        & (boxes[:, 2] >= lo[0])
        & (boxes[:, 1] <= hi[1])
        & (boxes[:, 3] >= lo[1])
    )[0]
    out: set[int] = set()
    for r in sel:
        c = boxes[cand]
        ok = (
            (c[:, 0] <= r[2] + MARGIN_CM)
            & (c[:, 2] >= r[0] - MARGIN_CM)
            & (c[:, 1] <= r[3] + MARGIN_CM)
            & (c[:, 3] >= r[1] - MARGIN_CM)
        )
        out.update(int(i) for i in cand[ok])
    return out


def _sub_scenario(s: Scenario, keep: set[str]) -> Scenario:
    areas = tuple(a for a in s.areas if a.id in keep)
    used = {a.building for a in areas if a.building}
    st = s.start
    return replace(
        s,
        buildings=tuple(b for b in s.buildings if b.id in used),
        areas=areas,
        features=tuple(f for f in s.features if f.area in keep),
        start=replace(
            st,
            fires=tuple(v for v in st.fires if v.area in keep),
            embers=tuple(v for v in st.embers if v.area in keep),
            damp=tuple(v for v in st.damp if v.area in keep),
            damage=tuple(v for v in st.damage if v.area in keep),
            rubble=tuple(a for a in st.rubble if a in keep),
            craters=tuple(a for a in st.craters if a in keep),
        ),
        forces=tuple(u for u in s.forces if u.area in keep),
        objectives=(),
        source={},
    )
