"""The scenario file format v1 as pydantic models, and their conversion to a Scenario.

The models (:mod:`.model_schema`) mirror the YAML file key for key and exist for two jobs
only: validating what the YAML parser produced, with an error path for every problem, and
generating the JSON Schema. The rest of the program works with the frozen values of
:mod:`.scenario`; :func:`to_scenario` converts.

Cross-references (ids that must resolve, levels that must exist) are checked by
:func:`semantic_errors` (:mod:`.model_refs`), which works on the validated model.
"""

from __future__ import annotations

from ..board.model import (
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
from .schema import (
    BackgroundModel,
    ContainModel,
    FeatureBase,
    GeoModel,
    ProtectModel,
    RescueModel,
    ScenarioModel,
)

__all__ = [
    "to_scenario",
]


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
                id=u.id,
                type=u.type,
                area=u.area,
                level=u.level,
                entry=u.entry,
                arrives=u.arrives,
                dam_points=u.dam_points,
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


def _feature(f: FeatureBase) -> Feature:
    d = f.model_dump(exclude={"type", "area"})
    t = FeatureType(getattr(f, "type"))  # noqa: B009 - every concrete model has `type`
    if "material" in d:
        d["material"] = Material(d["material"])
    return Feature(type=t, area=f.area, **d)


def _objective(o: ProtectModel | RescueModel | ContainModel) -> Objective:
    return Objective(**o.model_dump())
