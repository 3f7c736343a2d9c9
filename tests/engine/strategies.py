"""hypothesis strategies for valid scenarios, reusable by any test.

``scenarios()`` draws small scenarios that the loader accepts: rectangles on a grid (so
areas never overlap), every reference resolving, every level existing, numbers in range,
and awkward text (quotes, colons, YAML 1.1 words, unicode, control characters) in names.

    from strategies import scenarios   # tests/engine is on sys.path under pytest

    @given(scenarios())
    def test_something(s): ...
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from fireground.engine.board.model import (
    COMPASS,
    Area,
    AreaKind,
    Building,
    Feature,
    FeatureType,
    ForceUnit,
    LocationRef,
    LocationValue,
    Material,
    Objective,
    Scale,
    Scenario,
    Start,
    Wind,
)
from fireground.engine.core.ruleset import unit_types

#: Ids a YAML 1.1 reader would turn into booleans, numbers or null.
TRICKY_IDS = ("NO", "no", "on", "OFF", "yes", "y", "n", "true", "null", "012", "1e3", "0x1F",
              "1_000", "-1", "nan", "inf", "_", "-")  # fmt: skip
TRICKY_TEXT = ("", " ", "a: b", "#hash", "- dash", "'quote'", '"dq"', "back\\slash", "NO",
               "on", "12", "1.5", "~", "null", "line\nbreak", "end\n", "tab\there", "\x07bell",
               "\u2028sep", "\ufeffbom", "caf\xe9", "\U0001f525 fire", "[x]", "{y}", "a,b",
               "  two  ", "*star", "&amp", "!bang", "%pct", "@at", "`tick`", "|pipe", ">gt")  # fmt: skip

ids = st.one_of(st.sampled_from(TRICKY_IDS), st.from_regex(r"[A-Za-z0-9_-]{1,6}", fullmatch=True))
texts = st.one_of(st.sampled_from(TRICKY_TEXT), st.text(max_size=20))
sizes = st.sampled_from([10, 10.0, 7.5, 0.1, 12.25, 1e-3])


def _unique_ids(n: int) -> st.SearchStrategy[list[str]]:
    return st.lists(ids, min_size=n, max_size=n, unique=True)


@st.composite
def scenarios(draw: st.DrawFn, max_areas: int = 10) -> Scenario:
    """A small valid scenario (see the module docstring)."""
    n_areas = draw(st.integers(1, max_areas))
    cells = draw(
        st.lists(
            st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
            min_size=n_areas,
            max_size=n_areas,
            unique=True,
        )
    )
    size = draw(sizes)
    n_build = draw(st.integers(0, 3))
    bids = draw(_unique_ids(n_build))
    buildings = tuple(
        Building(
            id=b, name=draw(texts), levels=draw(st.integers(1, 4)), basement=draw(st.booleans())
        )
        for b in bids
    )
    area_ids = draw(_unique_ids(n_areas))
    areas = []
    for aid, (cx, cy) in zip(area_ids, cells, strict=True):
        x, y = cx * size, cy * size
        poly = ((x, y), (x + size, y), (x + size, y + size), (x, y + size))
        kinds = [AreaKind.STREET, AreaKind.OPEN, AreaKind.WATER]
        if buildings:
            kinds.append(AreaKind.BUILDING)
        kind = draw(st.sampled_from(kinds))
        b = draw(st.sampled_from(bids)) if kind is AreaKind.BUILDING else None
        name = draw(st.one_of(st.just(""), texts))
        areas.append(Area(id=aid, kind=kind, polygon=poly, building=b, name=name))
    bmap = {b.id: b for b in buildings}

    def levels(a: Area) -> range:
        return bmap[a.building].level_range if a.building is not None else range(0, 1)

    def location() -> tuple[str, int]:
        a = draw(st.sampled_from(areas))
        return a.id, draw(st.sampled_from(levels(a)))

    features = []
    entry_names: list[str] = []
    for _ in range(draw(st.integers(0, 8))):
        t = draw(st.sampled_from(list(FeatureType)))
        aid, lvl = location()
        if t is FeatureType.STORE:
            f = Feature(t, aid, level=lvl, material=draw(st.sampled_from(list(Material))))
        elif t is FeatureType.HYDRANT:
            f = Feature(t, aid, pressure=draw(st.integers(1, 20)))
        elif t is FeatureType.WATER:
            f = Feature(t, aid, points=draw(st.integers(1, 100_000)), name=draw(st.none() | texts))
        elif t is FeatureType.OCCUPANTS:
            f = Feature(t, aid, level=lvl, count=draw(st.integers(1, 9)))
        elif t is FeatureType.ENTRY:
            name = draw(texts.filter(lambda s: s != "" and s not in entry_names))
            entry_names.append(name)
            f = Feature(t, aid, name=name)
        elif t is FeatureType.LABEL:
            f = Feature(t, aid, text=draw(texts))
        else:
            f = Feature(t, aid)
        features.append(f)

    def values(lo: int, hi: int) -> tuple[LocationValue, ...]:
        out = []
        for _ in range(draw(st.integers(0, 2))):
            aid, lvl = location()
            out.append(LocationValue(aid, lvl, draw(st.integers(lo, hi))))
        return tuple(out)

    start = Start(
        fires=values(1, 5),
        embers=tuple(LocationRef(*location()) for _ in range(draw(st.integers(0, 2)))),
        damp=values(0, 5),
        damage=values(1, 5),
        rubble=tuple(draw(st.lists(st.sampled_from(area_ids), max_size=2))),
        craters=tuple(draw(st.lists(st.sampled_from(area_ids), max_size=2))),
        all_clear=draw(st.booleans()),
    )
    turns = draw(st.integers(1, 500))
    units = list(unit_types("blitz"))
    forces = []
    for uid in draw(st.lists(ids, max_size=4, unique=True)):
        if entry_names and draw(st.booleans()):
            u = ForceUnit(uid, draw(st.sampled_from(units)), entry=draw(st.sampled_from(entry_names)),
                          arrives=draw(st.integers(1, turns)))  # fmt: skip
        else:
            aid, lvl = location()
            u = ForceUnit(uid, draw(st.sampled_from(units)), area=aid, level=lvl,
                          arrives=draw(st.integers(1, turns)))  # fmt: skip
        forces.append(u)
    objectives = []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["protect", "rescue", "contain"]))
        if kind == "protect":
            if bids and draw(st.booleans()):
                objectives.append(Objective("protect", building=draw(st.sampled_from(bids))))
            else:
                objectives.append(Objective("protect", area=draw(st.sampled_from(area_ids))))
        elif kind == "rescue":
            objectives.append(Objective("rescue", at_least=draw(st.integers(0, 20))))
        else:
            objectives.append(Objective("contain", max_destroyed=draw(st.integers(0, 50))))
    house_rules: dict[str, Any] = draw(
        st.dictionaries(
            st.sampled_from(["growth.on", "hose.max_lengths", "spread.need", "name", "on"]),
            st.one_of(st.integers(-5, 50), st.booleans(), st.sampled_from(["x", "NO", "12"])),
            max_size=2,
        )
    )
    return Scenario(
        name=draw(texts),
        description=draw(texts),
        ruleset="blitz",
        house_rules=house_rules,
        scale=Scale(
            area_cm=draw(st.sampled_from([10, 7.5, 12.5])),
            figure_mm=draw(st.sampled_from([25, 15, 28.0])),
            min_contact_cm=draw(st.sampled_from([1.0, 0.5, 2])),
            overlap_tolerance_cm2=draw(st.sampled_from([0.5, 0, 1.25])),
        ),
        turns=turns,
        seed=draw(st.none() | st.integers(0, 2**40)),
        wind=Wind(from_=draw(st.none() | st.sampled_from(COMPASS)), strong=draw(st.booleans())),
        bombing=draw(st.booleans()),
        mains=draw(st.sampled_from(["working", "failed"])),
        buildings=buildings,
        areas=tuple(areas),
        features=tuple(features),
        start=start,
        forces=tuple(forces),
        objectives=tuple(objectives),
    )
