"""Cross-references of a validated scenario model: unique ids, references that resolve,
levels that exist (scenario-format.md). The loader reports each problem at its place in
the file; the rules-aware checks of :mod:`.checks` come later, on the scenario value."""

from __future__ import annotations

from collections.abc import Iterator

from .schema import EntryModel, OccupantsModel, ProtectModel, ScenarioModel, StoreModel

Path = tuple[str | int, ...]
#: One semantic problem: where (a path into the file's data) and what; ``near`` is the
#: value to suggest a correction for and ``among`` the candidates.
Problem = tuple[Path, str, str | None, tuple[str, ...]]


def semantic_errors(
    m: ScenarioModel, rulesets: tuple[str, ...], unit_types: tuple[str, ...]
) -> Iterator[Problem]:
    """Unique ids, references that resolve, levels that exist, per scenario-format.md.

    ``rulesets`` are the known ruleset names and ``unit_types`` the unit ids of the
    scenario's ruleset (empty when the ruleset is unknown: then units are not checked).
    """
    if m.ruleset not in rulesets:
        yield ("ruleset",), f"unknown ruleset '{m.ruleset}'", m.ruleset, rulesets
    yield from _unique(m)
    buildings = {b.id: b for b in m.buildings}
    area_kind = {a.id: a for a in m.areas}
    bnames = tuple(buildings)
    anames = tuple(area_kind)

    def levels(area_id: str) -> range:
        a = area_kind.get(area_id)
        b = None
        if a is not None and a.kind == "building" and a.building is not None:
            b = buildings.get(a.building)
        if b is None:
            return range(0, 1)
        return range(-1 if b.basement else 0, b.levels)

    def area_ref(path: Path, area_id: str) -> Iterator[Problem]:
        if area_id not in area_kind:
            yield path, f"unknown area '{area_id}'", area_id, anames

    def level_ok(path: Path, area_id: str, level: int) -> Iterator[Problem]:
        if area_id in area_kind and level not in levels(area_id):
            lv = levels(area_id)
            yield (
                path,
                f"level {level} does not exist in area '{area_id}' (levels {lv[0]}..{lv[-1]})",
                None,
                (),
            )

    for i, a in enumerate(m.areas):
        if a.kind == "building":
            if a.building is None:
                yield ("areas", i), f"building area '{a.id}' needs a 'building' key", None, ()
            elif a.building not in buildings:
                yield (
                    ("areas", i, "building"),
                    f"unknown building '{a.building}'",
                    a.building,
                    bnames,
                )
        elif a.building is not None:
            yield ("areas", i, "building"), f"a {a.kind} area has no building", None, ()

    entries: set[str] = set()
    for i, f in enumerate(m.features):
        yield from area_ref(("features", i, "area"), f.area)
        if isinstance(f, StoreModel | OccupantsModel):
            yield from level_ok(("features", i, "level"), f.area, f.level)
        if isinstance(f, EntryModel):
            entries.add(f.name)

    st = m.start
    for key in ("fires", "embers", "damp", "damage"):
        for i, loc in enumerate(getattr(st, key)):
            yield from area_ref(("start", key, i, "area"), loc.area)
            yield from level_ok(("start", key, i, "level"), loc.area, loc.level)
    for key in ("rubble", "craters"):
        for i, aid in enumerate(getattr(st, key)):
            yield from area_ref(("start", key, i), aid)

    known_units = set(unit_types)
    for i, u in enumerate(m.forces):
        if known_units and u.type not in known_units:
            yield ("forces", i, "type"), f"unknown unit type '{u.type}'", u.type, unit_types
        if u.area is not None and u.entry is not None:
            yield ("forces", i), f"unit '{u.id}' has both 'area' and 'entry': give one", None, ()
        elif u.area is None and u.entry is None:
            msg = f"unit '{u.id}' needs 'area' (where it starts) or 'entry' (where it arrives)"
            yield ("forces", i), msg, None, ()
        if u.area is not None:
            yield from area_ref(("forces", i, "area"), u.area)
            yield from level_ok(("forces", i, "level"), u.area, u.level)
        elif u.level != 0:
            yield (
                ("forces", i, "level"),
                "'level' applies only to a unit placed in an area",
                None,
                (),
            )
        if u.entry is not None and u.entry not in entries:
            yield (
                ("forces", i, "entry"),
                f"no entry feature named '{u.entry}'",
                u.entry,
                tuple(sorted(entries)),
            )
        if u.dam_points is not None and u.type != "mobile_dam_unit":
            yield (
                ("forces", i, "dam_points"),
                "'dam_points' applies only to a mobile_dam_unit",
                None,
                (),
            )
        if u.arrives > m.turns:
            yield (
                ("forces", i, "arrives"),
                f"arrives on turn {u.arrives}, after the last turn ({m.turns})",
                None,
                (),
            )

    for i, o in enumerate(m.objectives):
        if isinstance(o, ProtectModel):
            if (o.building is None) == (o.area is None):
                yield ("objectives", i), "protect needs either 'building' or 'area'", None, ()
            if o.building is not None and o.building not in buildings:
                yield (
                    ("objectives", i, "building"),
                    f"unknown building '{o.building}'",
                    o.building,
                    bnames,
                )
            if o.area is not None:
                yield from area_ref(("objectives", i, "area"), o.area)


def _unique(m: ScenarioModel) -> Iterator[Problem]:
    lists: list[tuple[str, list[str], str]] = [
        ("buildings", [b.id for b in m.buildings], "building id"),
        ("areas", [a.id for a in m.areas], "area id"),
        ("forces", [u.id for u in m.forces], "unit id"),
    ]
    entry_names = [(i, f.name) for i, f in enumerate(m.features) if isinstance(f, EntryModel)]
    for key, ids, what in lists:
        first: dict[str, int] = {}
        for i, v in enumerate(ids):
            if v in first:
                yield (
                    (key, i, "id"),
                    f"duplicate {what} '{v}' (first in item {first[v] + 1})",
                    None,
                    (),
                )
            else:
                first[v] = i
    seen: dict[str, int] = {}
    for i, name in entry_names:
        if name in seen:
            yield ("features", i, "name"), f"duplicate entry name '{name}'", None, ()
        seen.setdefault(name, i)
