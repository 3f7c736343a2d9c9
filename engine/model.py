"""The scenario file format v1 as pydantic models (see scenario-format.md).

These models mirror the YAML file key for key (``extra='forbid'``, strict types) and exist
for two jobs only: validating what the YAML parser produced, with an error path for every
problem, and generating the JSON Schema. The rest of the program works with the frozen
values of :mod:`.scenario`; :func:`to_scenario` converts.

Cross-references (ids that must resolve, levels that must exist) are checked by
:func:`semantic_errors`, which works on the validated model.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from .scenario import (
    COMPASS,
    FORMAT_VERSION,
    Area,
    AreaKind,
    Background,
    Building,
    Feature,
    FeatureType,
    ForceUnit,
    Geo,
    LocationRef,
    LocationValue,
    Material,
    Objective,
    Scale,
    Scenario,
    Start,
    Wind,
)

#: Inclusive ranges of the numbers the format limits (scenario-format.md).
RANGES: dict[str, tuple[int, int]] = {
    "fire": (1, 5),
    "damp": (0, 5),
    "damage": (1, 5),
    "pressure": (1, 20),
    "points": (1, 100_000),
    "levels": (1, 20),
    "turns": (1, 500),
}

ID_PATTERN = r"^[A-Za-z0-9_-]+$"
Id = Annotated[str, StringConstraints(pattern=ID_PATTERN, min_length=1)]
Number = Annotated[float, Field(allow_inf_nan=False)]
PointModel = Annotated[list[Number], Field(min_length=2, max_length=2)]
Compass = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
assert COMPASS == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def _ranged(name: str, **kw: Any) -> Any:
    lo, hi = RANGES[name]
    return Field(ge=lo, le=hi, **kw)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ScaleModel(_Strict):
    area_cm: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 10.0
    figure_mm: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 25.0
    min_contact_cm: Annotated[float, Field(ge=0, allow_inf_nan=False)] = Field(
        1.0, description="extension: shortest shared edge that makes two areas adjacent"
    )
    overlap_tolerance_cm2: Annotated[float, Field(ge=0, allow_inf_nan=False)] = Field(
        0.5, description="extension: overlap between areas tolerated as a drawing slip"
    )


class WindModel(_Strict):
    from_: Compass | None = Field(None, alias="from", description="direction it blows from")
    strong: bool = False


class BuildingModel(_Strict):
    id: Id
    name: str = ""
    levels: int = _ranged("levels", default=1)
    basement: bool = False


class AreaModel(_Strict):
    id: Id
    kind: Literal["building", "street", "open", "water"]
    building: Id | None = None
    name: str = Field("", description="extension: a name printed on plans")
    polygon: list[PointModel] = Field(min_length=3, description="table cm, x east, y north")


class _FeatureBase(_Strict):
    area: Id


class StairwellModel(_FeatureBase):
    type: Literal["stairwell"]


class StoreModel(_FeatureBase):
    type: Literal["store"]
    level: int = 0
    material: Literal["oil", "petrol", "wood"]


class HydrantModel(_FeatureBase):
    type: Literal["hydrant"]
    pressure: int = _ranged("pressure")


class WaterModel(_FeatureBase):
    type: Literal["water"]
    points: int = _ranged("points")
    name: str | None = None


class OccupantsModel(_FeatureBase):
    type: Literal["occupants"]
    level: int = 0
    count: int = Field(ge=1)


class EntryModel(_FeatureBase):
    type: Literal["entry"]
    name: str = Field(min_length=1)


class LabelModel(_FeatureBase):
    type: Literal["label"]
    text: str


FeatureModel = Annotated[
    StairwellModel
    | StoreModel
    | HydrantModel
    | WaterModel
    | OccupantsModel
    | EntryModel
    | LabelModel,
    Field(discriminator="type"),
]
FEATURE_MODELS: dict[str, type[_FeatureBase]] = {
    "stairwell": StairwellModel,
    "store": StoreModel,
    "hydrant": HydrantModel,
    "water": WaterModel,
    "occupants": OccupantsModel,
    "entry": EntryModel,
    "label": LabelModel,
}


class FireModel(_Strict):
    area: Id
    level: int = 0
    fire: int = _ranged("fire")


class DampModel(_Strict):
    area: Id
    level: int = 0
    damp: int = _ranged("damp")


class DamageModel(_Strict):
    area: Id
    level: int = 0
    damage: int = _ranged("damage")


class EmberModel(_Strict):
    area: Id
    level: int = 0


class StartModel(_Strict):
    fires: list[FireModel] = []
    embers: list[EmberModel] = []
    damp: list[DampModel] = []
    damage: list[DamageModel] = []
    rubble: list[Id] = []
    craters: list[Id] = []
    all_clear: bool = False


class ForceModel(_Strict):
    id: Id
    type: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+$")]
    area: Id | None = None
    level: int = 0
    entry: str | None = Field(None, description="name of an entry feature where it arrives")
    arrives: int = Field(1, ge=1, description="turn of arrival")


class ProtectModel(_Strict):
    type: Literal["protect"]
    building: Id | None = None
    area: Id | None = Field(None, description="extension: protect one area")


class RescueModel(_Strict):
    type: Literal["rescue"]
    at_least: int = Field(ge=0)


class ContainModel(_Strict):
    type: Literal["contain"]
    max_destroyed: int = Field(ge=0)


ObjectiveModel = Annotated[ProtectModel | RescueModel | ContainModel, Field(discriminator="type")]
OBJECTIVE_MODELS: dict[str, type[_Strict]] = {
    "protect": ProtectModel,
    "rescue": RescueModel,
    "contain": ContainModel,
}


class BackgroundModel(_Strict):
    """Extension: a scanned plan shown under the map in the editor, for tracing."""

    image: str = Field(
        min_length=1, description="image file (PNG or JPEG), relative to the scenario file"
    )
    origin: PointModel = Field(
        [0.0, 0.0], description="table cm of the image's top-left corner (x east, y north)"
    )
    cm_per_px: Annotated[float, Field(gt=0, allow_inf_nan=False)] = Field(
        1.0, description="table cm per image pixel"
    )
    opacity: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)] = 0.5
    locked: bool = Field(True, description="the editor will not move it while locked")


class GeoModel(_Strict):
    """Extension: where the map lies in the world (written by GeoJSON import)."""

    origin: PointModel = Field(
        [0.0, 0.0],
        description="map coordinates of table (0, 0): metres, or degrees for longitude/latitude",
    )
    metres_per_cm: Annotated[float, Field(gt=0, allow_inf_nan=False)] = Field(
        0.5, description="metres of map per table cm"
    )
    crs: str | None = Field(
        None, min_length=1, description="coordinate reference system, e.g. EPSG:27700"
    )


class ScenarioModel(_Strict):
    """A BLITZ! scenario for fireground (format v1)."""

    model_config = ConfigDict(title="fireground scenario")

    fireground: Literal[1] = Field(description="format version")
    name: str = ""
    description: str = ""
    ruleset: Annotated[str, Field(description="rules to play, e.g. blitz")]
    house_rules: dict[str, Any] = Field({}, description="ruleset constants by dotted key")
    scale: ScaleModel = Field(default_factory=lambda: ScaleModel.model_validate({}))
    turns: int = _ranged("turns", default=40)
    seed: int | None = None
    wind: WindModel = Field(default_factory=lambda: WindModel.model_validate({}))
    bombing: bool = True
    mains: Literal["working", "failed"] = "working"
    buildings: list[BuildingModel] = []
    areas: list[AreaModel] = []
    features: list[FeatureModel] = []
    start: StartModel = Field(default_factory=StartModel)
    forces: list[ForceModel] = []
    objectives: list[ObjectiveModel] = []
    background: BackgroundModel | None = Field(
        None, description="extension: a tracing image shown under the map in the editor"
    )
    geo: GeoModel | None = Field(
        None, description="extension: the map's place in the world, for GeoJSON export"
    )


#: Which model a mapping at a (tag-free) path belongs to, for "did you mean" on keys.
def model_at(path: tuple[str | int, ...], data_type: str | None) -> type[BaseModel] | None:
    """The model class for the mapping at ``path`` (list indexes as ints).

    ``data_type`` is the mapping's ``type`` value, which picks the feature/objective model.
    """
    keys = tuple(p for p in path if isinstance(p, str))
    simple: dict[tuple[str, ...], type[BaseModel]] = {
        (): ScenarioModel,
        ("scale",): ScaleModel,
        ("wind",): WindModel,
        ("buildings",): BuildingModel,
        ("areas",): AreaModel,
        ("start",): StartModel,
        ("start", "fires"): FireModel,
        ("start", "embers"): EmberModel,
        ("start", "damp"): DampModel,
        ("start", "damage"): DamageModel,
        ("forces",): ForceModel,
        ("background",): BackgroundModel,
        ("geo",): GeoModel,
    }
    if keys in simple:
        return simple[keys]
    if keys == ("features",) and data_type in FEATURE_MODELS:
        return FEATURE_MODELS[data_type]
    if keys == ("objectives",) and data_type in OBJECTIVE_MODELS:
        return OBJECTIVE_MODELS[data_type]
    return None


def field_names(model: type[BaseModel]) -> list[str]:
    """The keys a mapping of this model may hold, as written in the file."""
    return [f.alias or name for name, f in model.model_fields.items()]


# -- semantic checks ---------------------------------------------------------------------

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


# -- conversion --------------------------------------------------------------------------


def to_scenario(m: ScenarioModel) -> Scenario:
    """The frozen scenario value for a validated model."""
    st = m.start
    return Scenario(
        name=m.name,
        description=m.description,
        ruleset=m.ruleset,
        house_rules=dict(m.house_rules),
        scale=Scale(
            area_cm=m.scale.area_cm,
            figure_mm=m.scale.figure_mm,
            min_contact_cm=m.scale.min_contact_cm,
            overlap_tolerance_cm2=m.scale.overlap_tolerance_cm2,
        ),
        turns=m.turns,
        seed=m.seed,
        wind=Wind(from_=m.wind.from_, strong=m.wind.strong),
        bombing=m.bombing,
        mains=m.mains,
        buildings=tuple(
            Building(id=b.id, name=b.name, levels=b.levels, basement=b.basement)
            for b in m.buildings
        ),
        areas=tuple(
            Area(
                id=a.id,
                kind=AreaKind(a.kind),
                polygon=tuple((p[0], p[1]) for p in a.polygon),
                building=a.building,
                name=a.name,
            )
            for a in m.areas
        ),
        features=tuple(_feature(f) for f in m.features),
        start=Start(
            fires=tuple(LocationValue(f.area, f.level, f.fire) for f in st.fires),
            embers=tuple(LocationRef(e.area, e.level) for e in st.embers),
            damp=tuple(LocationValue(d.area, d.level, d.damp) for d in st.damp),
            damage=tuple(LocationValue(d.area, d.level, d.damage) for d in st.damage),
            rubble=tuple(st.rubble),
            craters=tuple(st.craters),
            all_clear=st.all_clear,
        ),
        forces=tuple(
            ForceUnit(
                id=u.id, type=u.type, area=u.area, level=u.level, entry=u.entry, arrives=u.arrives
            )
            for u in m.forces
        ),
        objectives=tuple(_objective(o) for o in m.objectives),
        version=FORMAT_VERSION,
        background=_background(m.background),
        geo=_geo(m.geo),
    )


def _background(b: BackgroundModel | None) -> Background | None:
    if b is None:
        return None
    return Background(
        image=b.image,
        origin=(b.origin[0], b.origin[1]),
        cm_per_px=b.cm_per_px,
        opacity=b.opacity,
        locked=b.locked,
    )


def _geo(g: GeoModel | None) -> Geo | None:
    if g is None:
        return None
    return Geo(origin=(g.origin[0], g.origin[1]), metres_per_cm=g.metres_per_cm, crs=g.crs)


def _feature(f: _FeatureBase) -> Feature:
    d = f.model_dump(exclude={"type", "area"})
    t = FeatureType(getattr(f, "type"))  # noqa: B009 - every concrete model has `type`
    if "material" in d:
        d["material"] = Material(d["material"])
    return Feature(type=t, area=f.area, **d)


def _objective(o: ProtectModel | RescueModel | ContainModel) -> Objective:
    return Objective(**o.model_dump())
