"""Units, hose lines and casualties in play (§7, §9, §11).

A scenario unit (``forces``) becomes one :class:`UnitState` for the unit itself (a vehicle,
a trailer/skid pump, or a personnel stand for foot units) plus one personnel stand per fire
team of its equipment, whose ``parent`` is the unit id (``E1.1``, ``E1.2``...). Rescue and
medical vehicles get foot crews the same way (``rescue.crews`` in the ruleset). Stands move,
man branches, climb ladders and tire; vehicles drive; pumps feed hoses.

>>> from fireground.engine.core.ruleset import load_ruleset
>>> from fireground.engine.board.model import ForceUnit, Scenario
>>> units = make_units(Scenario(forces=(ForceUnit("E1", "general_appliance", entry="A"),)),
...                    load_ruleset())
>>> sorted(units)
['E1', 'E1.1', 'E1.2', 'E1.3']
>>> units["E1"].pumps, units["E1"].hose_left, units["E1.1"].kind
(4, 10, 'stand')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from ...board.model import Location, Scenario
from ...core.ruleset import Ruleset

#: kinds of unit state: a vehicle, a piece of equipment (trailer or skid pump), a stand
#: (these constants are ``Final``: compiled, a final name is a C global or a literal where
#: any other module-level name is looked up in the module's dict at every use, round 23)
VEHICLE: Final = "vehicle"
EQUIPMENT: Final = "equipment"
STAND: Final = "stand"

#: statuses that take a unit out of the game for good
LOST: Final = frozenset({"dead", "casualty", "destroyed", "burned_out", "knocked_out"})

#: fatigue statuses of a stand, freshest first (§10)
FATIGUE: Final = ("ok", "tired", "exhausted")

#: tasks during which a stand does not count as active for fatigue
RESTING_TASKS: Final = frozenset({"idle", "rest", "aboard"})


@dataclass(slots=True)
class Ladder:
    """One ladder of an appliance; ``at``/``face`` set once it is pitched (or going up)."""

    rating: int
    hook: bool = False
    name: str = "ladder"
    at: str | None = None  # the street/open area it stands in
    face: str | None = None  # the building area it leans on
    height: int = 0  # highest level it reaches now (a hook ladder climbs a level a turn)
    pitch_left: int = 0  # turns until usable

    @property
    def ready(self) -> bool:
        return self.at is not None and self.pitch_left == 0 and self.height > 0

    def copy(self) -> Ladder:
        return Ladder(
            self.rating, self.hook, self.name, self.at, self.face, self.height, self.pitch_left
        )

    def to_log(self) -> dict[str, Any]:
        d: dict[str, Any] = {"rating": self.rating, "hook": self.hook}
        if self.at is not None:
            d.update(at=self.at, face=self.face, height=self.height, ready=self.ready)
        return d


@dataclass(slots=True)
class UnitState:
    id: str
    type: str
    kind: str  # VEHICLE | EQUIPMENT | STAND
    loc: Location | None = None  # None: not yet arrived
    parent: str | None = None  # the unit a fire-team or crew stand belongs to
    #: idle | aboard | move | lay | fight | damp | pitch | connect | deploy | rescue | carry |
    #: refill | rest | withdraw | drive | evacuate (a wheelbarrow pump on the move: carry)
    task: str = "idle"
    status: str = "ok"  # ok | tired | exhausted | see LOST
    arrives: int = 1
    entry: str | None = None
    active_turns: int = 0
    water: int = 0  # on-board water points left (a deployed dam: points in the dam)
    extra: dict[str, Any] = field(default_factory=dict)
    # -- equipment (from the catalogue) ------------------------------------------------------
    role: str = ""
    moves: str = "foot"  # road | foot | towed | carried
    pumps: int = 0
    hose_left: int = 0  # lengths still on the appliance
    ladders: list[Ladder] = field(default_factory=list)
    # -- what it is doing --------------------------------------------------------------------
    source: str | None = None  # a pump's water: hydrant:AREA | open:AREA | dam:UNIT | None (tank)
    deployed: bool = True  # pumps and dams need deploying before use
    deploy_left: int = 0
    towed_by: str | None = None
    hose: str | None = None  # the hose line a stand works
    target: Location | None = None  # where it is going (or what it rescues)
    order: dict[str, Any] | None = None  # a player's order in force (None: standing orders)
    heat_seen: int = 0  # heat sum at its location when last tested (re-test when it rises)
    rest_left: int = 0
    charged: bool = True  # a fire party has water and sand
    carrying: list[str] = field(default_factory=list)  # casualty ids
    rations: int = 0  # a canteen truck's stand-turns of food left

    @property
    def in_play(self) -> bool:
        return self.loc is not None and self.status not in LOST

    @property
    def fatigue(self) -> int:
        """0 fresh, 1 tired, 2 exhausted (a stand out of the game counts as fresh)."""
        return FATIGUE.index(self.status) if self.status in FATIGUE else 0

    def to_log(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "type": self.type, "kind": self.kind}
        if self.loc is not None:
            d["area"], d["level"] = self.loc
        d["task"] = self.task
        d["status"] = self.status
        if self.parent is not None:
            d["parent"] = self.parent
        if self.kind == STAND:
            d["fatigue"] = FATIGUE[self.fatigue]
            d["active_turns"] = self.active_turns
            if self.rest_left:
                d["rest_left"] = self.rest_left
        if self.water:
            d["water"] = self.water
        if self.pumps:
            d["pumps"] = self.pumps
            d["source"] = self.source or "tank"
        if self.hose_left:
            d["hose_left"] = self.hose_left
        if not self.deployed:
            d["deploy_left"] = self.deploy_left
        if self.hose is not None:
            d["hose"] = self.hose
        if self.target is not None:
            d["target"] = {"area": self.target[0], "level": self.target[1]}
        if self.carrying:
            d["carrying"] = list(self.carrying)
        if self.extra.get("carried_by") is not None:
            d["carried_by"] = self.extra["carried_by"]  # a wheelbarrow pump on the move
        if self.role == "fire_party":
            d["charged"] = self.charged
        if self.rations:
            d["rations"] = self.rations
        pitched = [ld.to_log() for ld in self.ladders if ld.at is not None]
        if pitched:
            d["ladders"] = pitched
        return d

    def copy(self) -> UnitState:
        return UnitState(
            self.id, self.type, self.kind, self.loc, self.parent, self.task, self.status,
            self.arrives, self.entry, self.active_turns, self.water, dict(self.extra),
            self.role, self.moves, self.pumps, self.hose_left,
            [ld.copy() for ld in self.ladders], self.source, self.deployed, self.deploy_left,
            self.towed_by, self.hose, self.target,
            dict(self.order) if self.order is not None else None, self.heat_seen,
            self.rest_left, self.charged, list(self.carrying), self.rations,
        )  # fmt: skip


def path_steps(a: Location, b: Location) -> int:
    """Hose steps between two consecutive path locations: 1 per area, 1 per level."""
    return (1 if a[0] != b[0] else 0) + abs(a[1] - b[1])


@dataclass(slots=True)
class HoseLine:
    """A hose line: ``path`` runs from the pump's location to the branch (the last one)."""

    id: str
    unit: str  # the appliance or pump feeding it
    path: list[Location] = field(default_factory=list)
    lengths: int = 0
    water: int = 0
    cut: bool = False
    crew: list[str] = field(default_factory=list)  # stands at the branch
    target: Location | None = None  # where the stream plays
    plan: list[Location] = field(default_factory=list)  # still to lay, in order
    progress: int = 0  # laying points carried over towards the next location
    recover_left: int = 0  # turns until the next length is taken up (0: not recovering)
    lorry: str | None = None  # a hose-laying lorry laying it
    stock: str | None = None  # the unit whose lengths it uses

    @property
    def branch(self) -> Location:
        return self.path[-1]

    @property
    def steps(self) -> int:
        return sum(path_steps(a, b) for a, b in zip(self.path, self.path[1:], strict=False))

    def to_log(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "unit": self.unit,
            "path": [{"area": a, "level": lv} for a, lv in self.path],
            "lengths": self.lengths,
            "water": self.water,
            "cut": self.cut,
            "crew": list(self.crew),
        }
        if self.target is not None:
            d["target"] = {"area": self.target[0], "level": self.target[1]}
        if self.plan:
            d["to_lay"] = len(self.plan)
        if self.recover_left:
            d["recovering"] = True
        return d

    def copy(self) -> HoseLine:
        return HoseLine(
            self.id, self.unit, list(self.path), self.lengths, self.water, self.cut,
            list(self.crew), self.target, list(self.plan), self.progress, self.recover_left,
            self.lorry, self.stock,
        )  # fmt: skip


@dataclass(slots=True)
class Casualty:
    """A person hurt.

    ``status``: buried | located | found | dead | badly_injured | lightly_injured. A
    ``located`` one still needs digging (``need`` 'dig' or 'heavy'); the rescue step rolls
    ``casualty_status`` for each ``found`` one. ``evacuated`` once carried off the map.
    """

    id: str
    loc: Location
    status: str = "buried"
    origin: str = "civilian"  # 'civilian' or the id of the unit stand
    need: str = ""  # dig | heavy while located
    dig_left: int = 0  # Heavy Rescue turns still to dig
    carried_by: str | None = None
    evacuated: bool = False

    def to_log(self) -> dict[str, Any]:
        area, level = self.loc
        d: dict[str, Any] = {
            "id": self.id,
            "area": area,
            "level": level,
            "status": self.status,
            "origin": self.origin,
        }
        if self.need:
            d["need"] = self.need
        if self.dig_left:
            d["dig_left"] = self.dig_left
        if self.carried_by is not None:
            d["carried_by"] = self.carried_by
        if self.evacuated:
            d["evacuated"] = True
        return d

    def copy(self) -> Casualty:
        return Casualty(
            self.id, self.loc, self.status, self.origin, self.need, self.dig_left,
            self.carried_by, self.evacuated,
        )  # fmt: skip


def _kind(spec: dict[str, Any]) -> str:
    if spec.get("vehicle"):
        return VEHICLE
    if spec.get("role") == "pump":
        return EQUIPMENT
    return STAND


def make_units(scenario: Scenario, rules: Ruleset) -> dict[str, UnitState]:
    """The unit states at the start of a game: each force plus its fire-team stands.

    A unit with an ``area`` that arrives on turn 1 starts on the map; the others wait for
    their turn (step 6 places them at their entry or area). Towed pumps are hitched to a
    towing vehicle arriving at the same place and turn, when there is one.
    """
    out: dict[str, UnitState] = {}
    crews: dict[str, Any] = rules.get("rescue.crews", {}) or {}
    for f in scenario.forces:
        spec = rules.units.get(f.type, {})
        kind = _kind(spec)
        loc = (f.area, f.level) if f.area is not None and f.arrives <= 1 else None
        deploy = int(spec.get("deploy_turns", 0) or 0)
        u = UnitState(
            f.id, f.type, kind, loc, arrives=f.arrives, entry=f.entry,
            water=int(spec.get("water", 0) or 0),
            role=str(spec.get("role", "")), moves=str(spec.get("moves", "foot")),
            pumps=int(spec.get("pumps", 0) or 0),
            hose_left=int(spec.get("hose_lengths", 0) or 0),
            ladders=[
                Ladder(int(ld["rating"]), bool(ld.get("hook", False)), str(ld.get("name", "")))
                for ld in spec.get("ladders", []) or []
            ],
            deployed=deploy == 0, deploy_left=deploy,
            rations=int(spec.get("rations", 0) or 0),
        )  # fmt: skip
        if u.role == "support" and "dam_points" in spec:
            u.water = 0  # the dam is filled when deployed
            if f.dam_points is not None:
                u.extra["dam_points"] = f.dam_points  # the scenario's 10 or 20
        out[f.id] = u
        n_stands = int(spec.get("fire_teams", 0) or 0) + int(crews.get(f.type, 0) or 0)
        stand_type = "fire_team" if spec.get("fire_teams") else f"{f.type}_crew"
        for i in range(1, n_stands + 1):
            sid = f"{f.id}.{i}"
            out[sid] = UnitState(
                sid, stand_type, STAND, loc, parent=f.id, arrives=f.arrives, entry=f.entry,
                task="aboard" if kind == VEHICLE else "idle", role="crew",
            )  # fmt: skip
    _hitch_trailers(scenario, out)
    return out


def _hitch_trailers(scenario: Scenario, units: dict[str, UnitState]) -> None:
    """Give each towed pump a towing vehicle that arrives with it (first come, first served).

    The small pump team tows its own pump (R-8: its pumps are part of the unit).
    """
    tows = [
        u for u in units.values() if u.kind == VEHICLE and u.role == "appliance" and u.id in
        {f.id for f in scenario.forces}
    ]  # fmt: skip
    taken: set[str] = set()
    for u in sorted(units.values(), key=lambda x: x.id):
        if u.moves != "towed":
            continue
        for t in sorted(tows, key=lambda x: (x.pumps > 0, x.id)):
            if t.id in taken:
                continue
            if (t.entry, t.arrives, t.loc) == (u.entry, u.arrives, u.loc):
                u.towed_by = t.id
                taken.add(t.id)
                break


def crew_of(units: dict[str, UnitState], parent: str) -> list[UnitState]:
    """The stands of a unit still in play, by id."""
    return sorted(
        (u for u in units.values() if u.parent == parent and u.in_play), key=lambda u: u.id
    )
