"""The mutable state of one game between and during turns.

Values live in plain dicts and sets keyed by :data:`Location` so that every rule touches only
the locations that burn or hold something: the map itself stays in the scenario and graph.
:meth:`GameState.to_log` gives the ``state`` object of the turn log (sorted, so the JSON is
byte-for-byte reproducible).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from ...board.model import AreaKind, FeatureType, Location, Material, Scenario
from ...core.ruleset import Ruleset
from ...core.turn import loc_dict
from .units import VEHICLE, Casualty, HoseLine, UnitState, make_units

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_FEATURE_HYDRANT: Final = FeatureType.HYDRANT
_FEATURE_OCCUPANTS: Final = FeatureType.OCCUPANTS
_FEATURE_STORE: Final = FeatureType.STORE
_FEATURE_WATER: Final = FeatureType.WATER
_KIND_OPEN: Final = AreaKind.OPEN
_KIND_STREET: Final = AreaKind.STREET


def _unit_id(u: UnitState) -> str:
    return u.id


@dataclass
class GameState:
    turn: int = 0
    fire: dict[Location, int] = field(default_factory=dict)  # burning locations only
    embers: set[Location] = field(default_factory=set)
    damp: dict[Location, int] = field(default_factory=dict)  # damp >= 1 only
    damage: dict[Location, int] = field(default_factory=dict)  # damage >= 2 only
    rubble: set[str] = field(default_factory=set)  # street/open areas
    craters: set[str] = field(default_factory=set)
    #: turns an incendiary has burned on an empty street/open location (§3 Roads)
    street_fire_age: dict[Location, int] = field(default_factory=dict)
    all_clear: bool = False
    #: damp lost by failed spreads this turn: recorded in step 1, applied in step 4
    #: (a count, since each failed roll costs one damp)
    pending_damp_loss: dict[Location, int] = field(default_factory=dict)
    hydrants_lost: set[str] = field(default_factory=set)
    #: points left in open-water sources and dams, by area
    water_left: dict[str, int] = field(default_factory=dict)
    #: civilians still at risk, by location (from the scenario's occupants features)
    occupants: dict[Location, int] = field(default_factory=dict)
    units: dict[str, UnitState] = field(default_factory=dict)
    hoses: dict[str, HoseLine] = field(default_factory=dict)
    casualties: list[Casualty] = field(default_factory=list)
    #: locations that caught fire this turn (R-10 bookkeeping for step 6); reset each turn
    caught: set[Location] = field(default_factory=set)
    #: fire at the start of the turn (heat re-tests compare with it); reset each turn
    fire_at_start: dict[Location, int] = field(default_factory=dict)
    #: free-form per-game data other steps may keep (must stay JSON-like and copyable)
    extra: dict[str, Any] = field(default_factory=dict)
    #: :meth:`unit_ids`' last answer: the dict's keys as they were, and those keys sorted
    _ids: tuple[list[str], tuple[str, ...]] | None = field(default=None, repr=False, compare=False)

    # -- queries ---------------------------------------------------------------------------
    def unit_ids(self) -> tuple[str, ...]:
        """The units' ids sorted (``sorted(self.units)``: the order the steps walk the units
        in). Round 23: kept from one call to the next while the dict holds the same keys in
        the same order, which listing and comparing them tells far more cheaply than a sort
        (a dozen steps a turn walk the units by id)."""
        keys = list(self.units)
        memo = self._ids
        if memo is None or memo[0] != keys:
            memo = self._ids = (keys, tuple(sorted(keys)))
        return memo[1]

    def units_at(self, loc: Location) -> list[UnitState]:
        """Units in play at a location, by id."""
        # (round 23: a plain loop, the location typed Any: compiled, ``map`` with an
        # ``attrgetter`` asks each unit for its location through the generic attribute
        # lookup, and a location typed as a tuple is made afresh for every comparison)
        here: Any = loc
        out = []
        for u in list(self.units.values()):  # (compiled: a list is walked by index)
            if u.loc == here and u.in_play:
                out.append(u)
        if len(out) > 1:
            out.sort(key=_unit_id)
        return out

    def units_in_area(self, area: str) -> list[UnitState]:
        return sorted(
            (
                u
                for u in self.units.values()
                if u.loc is not None and u.loc[0] == area and u.in_play
            ),
            key=lambda u: u.id,
        )

    def has_vehicle(self, area: str) -> bool:
        """A vehicle (or its burned-out wreck) stands in this street/open area."""
        return any(
            u.kind == VEHICLE and u.loc is not None and u.loc[0] == area
            and (u.in_play or u.status == "burned_out")
            for u in self.units.values()
        )  # fmt: skip

    def damage_at(self, loc: Location) -> int:
        return self.damage.get(loc, 1)

    def add_casualty(self, loc: Location, status: str = "buried", origin: str = "civilian") -> None:
        self.casualties.append(Casualty(f"C{len(self.casualties) + 1}", loc, status, origin))

    # -- snapshots ---------------------------------------------------------------------------
    def copy(self) -> GameState:
        return GameState(
            turn=self.turn,
            fire=dict(self.fire),
            embers=set(self.embers),
            damp=dict(self.damp),
            damage=dict(self.damage),
            rubble=set(self.rubble),
            craters=set(self.craters),
            street_fire_age=dict(self.street_fire_age),
            all_clear=self.all_clear,
            pending_damp_loss=dict(self.pending_damp_loss),
            hydrants_lost=set(self.hydrants_lost),
            water_left=dict(self.water_left),
            occupants=dict(self.occupants),
            units={k: u.copy() for k, u in self.units.items()},
            hoses={k: h.copy() for k, h in self.hoses.items()},
            casualties=[c.copy() for c in self.casualties],
            caught=set(self.caught),
            fire_at_start=dict(self.fire_at_start),
            extra=_deep_copy(self.extra),
        )

    def begin_turn(self) -> None:
        """Advance the turn counter and reset the per-turn bookkeeping."""
        self.turn += 1
        self.caught = set()
        self.pending_damp_loss = {}
        self.fire_at_start = dict(self.fire)

    def to_log(self) -> dict[str, Any]:
        """The ``state`` object of the turn log: every list sorted."""

        def vals(d: dict[Location, int], name: str) -> list[dict[str, Any]]:
            return [{"area": a, "level": lv, name: v} for (a, lv), v in sorted(d.items())]

        return {
            "fires": vals(self.fire, "fire"),
            "embers": [loc_dict(loc) for loc in sorted(self.embers)],
            "damp": vals(self.damp, "damp"),
            "damage": vals(self.damage, "damage"),
            "rubble": sorted(self.rubble),
            "craters": sorted(self.craters),
            "all_clear": self.all_clear,
            "units": [self.units[k].to_log() for k in sorted(self.units)],
            "hoses": [self.hoses[k].to_log() for k in sorted(self.hoses)],
            "casualties": [c.to_log() for c in sorted(self.casualties, key=lambda c: c.id)],
            "occupants": vals(self.occupants, "count"),
            "street_fires": vals(self.street_fire_age, "age"),
            "hydrants_lost": sorted(self.hydrants_lost),
            "water_left": [{"area": a, "points": p} for a, p in sorted(self.water_left.items())],
        }


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    if isinstance(value, set):
        return {_deep_copy(v) for v in value}
    return value


def initial_state(scenario: Scenario, rules: Ruleset) -> GameState:
    """The state before turn 1: the scenario's ``start``, occupants, water and units."""
    st = scenario.start
    s = GameState(all_clear=st.all_clear)
    for fv in st.fires:
        s.fire[fv.location] = fv.value
        kind = scenario.area_by_id[fv.area].kind if fv.area in scenario.area_by_id else None
        if kind in (_KIND_STREET, _KIND_OPEN) and fv.area not in st.rubble:
            s.street_fire_age[fv.location] = 0
    s.embers = {e.location for e in st.embers} - set(s.fire)
    s.damp = {d.location: d.value for d in st.damp if d.value > 0}
    s.damage = {d.location: d.value for d in st.damage if d.value > 1}
    s.rubble = set(st.rubble)
    s.craters = set(st.craters)
    for f in scenario.features:
        if f.type is _FEATURE_OCCUPANTS and f.count:
            loc = (f.area, f.level or 0)
            s.occupants[loc] = s.occupants.get(loc, 0) + f.count
        elif f.type is _FEATURE_WATER and f.points:
            s.water_left[f.area] = s.water_left.get(f.area, 0) + f.points
    if scenario.mains == "failed":
        s.hydrants_lost = {f.area for f in scenario.features if f.type is _FEATURE_HYDRANT}
    s.units = make_units(scenario, rules)
    return s


def store_at(scenario: Scenario, loc: Location) -> Material | None:
    """The store material at a location (at most one per location), if any."""
    return _stores(scenario).get(loc)


_STORE_CACHE: dict[int, tuple[Scenario, dict[Location, Material]]] = {}


def _stores(scenario: Scenario) -> dict[Location, Material]:
    hit = _STORE_CACHE.get(id(scenario))
    if hit is not None and hit[0] is scenario:
        return hit[1]
    out: dict[Location, Material] = {}
    for f in scenario.features:
        if f.type is _FEATURE_STORE and f.material is not None:
            out[(f.area, f.level if f.level is not None else 0)] = f.material
    if len(_STORE_CACHE) > 64:
        _STORE_CACHE.clear()
    _STORE_CACHE[id(scenario)] = (scenario, out)
    return out


def pump_of(state: GameState, u: UnitState) -> UnitState:
    """The pump an appliance's teams use: itself, or its trailer when it has no pumps."""
    if u.pumps > 0:
        return u
    for p in sorted(state.units.values(), key=lambda x: x.id):
        if p.in_play and (p.towed_by == u.id or p.extra.get("tow") == u.id) and p.pumps:
            return p
    return u
