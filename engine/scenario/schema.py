"""The scenario file format v1 as pydantic models (see scenario-format.md).

These models mirror the YAML file key for key (``extra='forbid'``, strict types) and exist
for two jobs only: validating what the YAML parser produced, with an error path for every
problem, and generating the JSON Schema. :mod:`.model` converts them to the frozen values
of :mod:`.scenario` that the rest of the program works with.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ..board.model import COMPASS

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


class FeatureBase(_Strict):
    area: Id


class StairwellModel(FeatureBase):
    type: Literal["stairwell"]


class StoreModel(FeatureBase):
    type: Literal["store"]
    level: int = 0
    material: Literal["oil", "petrol", "wood"]


class HydrantModel(FeatureBase):
    type: Literal["hydrant"]
    pressure: int = _ranged("pressure")


class WaterModel(FeatureBase):
    type: Literal["water"]
    points: int = _ranged("points")
    name: str | None = None


class OccupantsModel(FeatureBase):
    type: Literal["occupants"]
    level: int = 0
    count: int = Field(ge=1)


class EntryModel(FeatureBase):
    type: Literal["entry"]
    name: str = Field(min_length=1)


class LabelModel(FeatureBase):
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
FEATURE_MODELS: dict[str, type[FeatureBase]] = {
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
    dam_points: Literal[10, 20] | None = Field(
        None, description="a mobile dam unit's canvas dam: 10 or 20 water points (default 20)"
    )


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
    game: Literal["blitz"] | None = Field(
        None,
        description="extension: the game the scenario is for (engine/scenario/envelope.py);"
        " no key means blitz",
    )
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
