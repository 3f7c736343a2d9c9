"""What an edit changed, found cheaply: unchanged areas are the very same objects."""

from __future__ import annotations

from dataclasses import dataclass

from fireground.engine.board.model import Scenario


@dataclass(frozen=True, slots=True)
class AreaDiff:
    changed: frozenset[str]  # same id, new value
    added: frozenset[str]
    removed: frozenset[str]

    @property
    def all(self) -> frozenset[str]:
        return self.changed | self.added | self.removed


_EMPTY = AreaDiff(frozenset(), frozenset(), frozenset())


def area_diff(old: Scenario, new: Scenario) -> AreaDiff:
    oa, na = old.areas, new.areas
    if oa is na:
        return _EMPTY
    if len(oa) == len(na):
        # The common edit: a few areas replaced in place (one pass, identity checks only).
        changed, added, removed = set(), set(), set()
        for a, b in zip(oa, na, strict=True):
            if a is not b:
                if a.id == b.id:
                    changed.add(b.id)
                else:
                    removed.add(a.id)
                    added.add(b.id)
        both = added & removed  # reordered, not really added or removed
        return AreaDiff(
            frozenset(changed | both), frozenset(added - both), frozenset(removed - both)
        )
    ob, nb = old.area_by_id, new.area_by_id
    return AreaDiff(
        frozenset(a.id for a in na if a.id in ob and ob[a.id] is not a),
        frozenset(nb.keys() - ob.keys()),
        frozenset(ob.keys() - nb.keys()),
    )
