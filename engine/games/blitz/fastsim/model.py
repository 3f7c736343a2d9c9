"""The fast core's model of a scenario: its numbers from the ruleset and the map packed as
arrays (neighbour lists in CSR form), and what a batch of games leaves behind."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ....board.graph import MapGraph, build_graph
from ....board.model import AreaKind, FeatureType, Location, Material, Scenario
from ....core.ruleset import Ruleset, load_ruleset

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Bool = npt.NDArray[np.bool_]

# store codes per location
NO_STORE, OIL, PETROL, WOOD = 0, 1, 2, 3
# what became of a location's occupants
SAFE, BURIED, KILLED = 0, 1, 2
# spread edge kinds
SPREAD, CLIMB, JUMP = 0, 1, 2


def d6_at_most(t: int | npt.NDArray[Any]) -> Any:
    """P(1d6 <= t) for integer ``t`` (scalar or array)."""
    return np.clip(t, 0, 6) / 6.0


def two_d6_at_least(t: int) -> float:
    """P(2d6 >= t)."""
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= t) / 36.0


@dataclass(frozen=True)
class FastParams:
    """The numbers of the fire, bombing and collapse rules, read from a ruleset."""

    fire_start: int
    fire_max: int
    damp_per_level: int
    embers_mod: int
    strong_downwind: int
    store_mod: tuple[int, int, int, int]  # by store code: R-4 oil/petrol modifiers
    climb_min_fire: int
    damp_loss: int
    jump_min_fire: int
    jump_max: int
    jump_gap: int
    jump_gap_downwind: int
    growth_on: int
    growth_neighbour: int
    growth_wood: int
    reignite_on: int
    oil_fire: int
    oil_spread_fire: int
    petrol_fire: int
    petrol_explodes: bool
    road_max_fire: int
    road_burn_turns: int
    all_clear_max: int
    stick_on: int
    load: tuple[tuple[int, int], ...]  # (he, incendiary) for a stick die of 1..6
    redrop_limit: int
    he_destroyed_on: int
    damage_fire: int
    damage_add_on: int
    destroyed: int
    heavy: int
    rubble_damage: int

    @classmethod
    def from_rules(cls, rules: Ruleset) -> FastParams:
        i = rules.int
        load = tuple(
            (i(f"bombing.load.{k}.he"), i(f"bombing.load.{k}.incendiary")) for k in range(1, 7)
        )
        return cls(
            fire_start=i("fire.start"),
            fire_max=i("fire.max"),
            damp_per_level=i("spread.damp_per_level"),
            embers_mod=i("spread.embers"),
            strong_downwind=i("spread.strong_downwind"),
            store_mod=(0, i("spread.oil_store"), i("spread.petrol_store"), 0),
            climb_min_fire=i("spread.climb_min_fire"),
            damp_loss=i("spread.damp_loss"),
            jump_min_fire=i("jump.min_fire"),
            jump_max=i("jump.max"),
            jump_gap=i("jump.gap"),
            jump_gap_downwind=i("jump.gap_downwind"),
            growth_on=i("growth.on"),
            growth_neighbour=i("growth.neighbour_burning"),
            growth_wood=i("growth.wood_store"),
            reignite_on=i("embers.reignite_on"),
            oil_fire=i("stores.oil.fire"),
            oil_spread_fire=i("stores.oil.spread_fire"),
            petrol_fire=i("stores.petrol.fire"),
            petrol_explodes=bool(rules["stores.petrol.explodes"]),
            road_max_fire=i("roads.max_fire"),
            road_burn_turns=i("roads.burn_turns"),
            all_clear_max=i("bombing.all_clear_max"),
            stick_on=i("bombing.stick_on"),
            load=load,
            redrop_limit=i("bombing.redrop_limit"),
            he_destroyed_on=i("he.destroyed_on"),
            damage_fire=i("damage.fire_for_roll"),
            damage_add_on=i("damage.add_on"),
            destroyed=i("damage.destroyed"),
            heavy=i("damage.casualties_from"),
            rubble_damage=i("collapse.rubble_damage"),
        )


@dataclass
class FastModel:
    """The static tables of one scenario: locations, CSR neighbour lists, spread edges."""

    scenario: Scenario
    params: FastParams
    locations: list[Location]
    area_ids: list[str]
    loc_area: I64  # [N] area index of each location
    loc_level: I64
    building: Bool  # [N] building location
    road: Bool  # [N] street/open location (flammable only with rubble)
    water: Bool  # [N] water location
    occupants: I64  # [N] civilians at each location at the start
    store: I8  # [N] store code
    nb_ptr: I64  # CSR of horizontal + vertical neighbours (growth: any neighbour burning)
    nb_idx: I64
    # spread edges into each location, CSR by destination
    in_ptr: I64
    in_src: I64
    in_kind: I8
    in_wind: I8  # the strong-downwind modifier of the edge (0 when not downwind / not strong)
    climb_src: I64  # R-1 edges, for the "has a source" test
    climb_dst: I64
    jump_src: I64
    jump_dst: I64
    up: I64  # [N] (a, l+1) of each location or -1
    level_rank: list[I64]  # locations grouped by ascending level (collapse goes upwards)
    area_locs: list[list[int]]  # [A] location ids by ascending level
    area_top: I64  # [A] location id of the top level
    area_ground: I64  # [A] location id of level 0
    area_adj: list[list[int]]  # [A] adjacent areas
    above_ptr: I64  # CSR: the locations above each location in its area
    above_idx: I64
    adj_src: I64  # area adjacency as CSR (symmetric)
    adj_ptr: I64
    area_start: I64  # locations are sorted by area: where each area's run starts
    area_run: I64  # [A] the run of each area
    he_targets: list[list[int]]  # [A] horizontally adjacent locations at every level
    bomb_cdf: F64  # [A] cumulative chance that a bomb lands in each area
    bomb_lost: float  # chance a bomb misses every area redrop_limit times
    bombing: bool
    # the start of every game
    start_fire: I8
    start_embers: Bool
    start_damp: I8
    start_damage: I8
    start_rubble: Bool  # [N] at street/open ground locations
    start_all_clear: bool
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.locations)


def build_model(
    scenario: Scenario, rules: Ruleset | None = None, graph: MapGraph | None = None
) -> FastModel:
    """The fast model of a scenario (rules default to its ruleset with its house rules)."""
    rules = rules or load_ruleset(scenario.ruleset, dict(scenario.house_rules))
    graph = graph or build_graph(scenario)
    p = FastParams.from_rules(rules)
    locs = list(graph.locations)
    index = {loc: k for k, loc in enumerate(locs)}
    n = len(locs)
    area_ids = [a.id for a in scenario.areas]
    apos = {a: k for k, a in enumerate(area_ids)}
    kinds = {a.id: a.kind for a in scenario.areas}
    loc_area = np.array([apos[a] for a, _ in locs], dtype=np.int64)
    loc_level = np.array([lv for _, lv in locs], dtype=np.int64)
    building = np.array([kinds[a] is AreaKind.BUILDING for a, _ in locs], dtype=bool)
    road = np.array([kinds[a] in (AreaKind.STREET, AreaKind.OPEN) for a, _ in locs], dtype=bool)
    water = np.array([kinds[a] is AreaKind.WATER for a, _ in locs], dtype=bool)
    occupants = np.zeros(n, dtype=np.int64)
    for f in scenario.features_of(FeatureType.OCCUPANTS):
        loc = (f.area, f.level or 0)
        if loc in index and f.count:
            occupants[index[loc]] += f.count

    store = np.zeros(n, dtype=np.int8)
    codes = {Material.OIL: OIL, Material.PETROL: PETROL, Material.WOOD: WOOD}
    for f in scenario.features_of(FeatureType.STORE):
        loc = (f.area, f.level if f.level is not None else 0)
        if loc in index and f.material is not None:
            store[index[loc]] = codes[f.material]

    wind = scenario.wind
    strong = bool(wind.strong)
    edges: list[tuple[int, int, int, int]] = []  # (dst, src, kind, wind modifier)
    climb: list[tuple[int, int]] = []
    jumps: list[tuple[int, int]] = []

    def wmod(a: Location, b: Location) -> int:
        return p.strong_downwind if strong and graph.is_downwind(a[0], b[0], wind) else 0

    for loc in locs:
        s = index[loc]
        for nb in graph.neighbours(loc):
            edges.append((index[nb], s, SPREAD, wmod(loc, nb)))
        for above in graph.climb_targets(loc):
            edges.append((index[above], s, CLIMB, 0))
            climb.append((s, index[above]))
        for tgt, gaps in graph.jump_targets(loc, wind):
            down = graph.is_downwind(loc[0], tgt[0], wind)
            if tgt in index and gaps <= (p.jump_gap_downwind if down else p.jump_gap):
                edges.append((index[tgt], s, JUMP, wmod(loc, tgt)))
                jumps.append((s, index[tgt]))
    edges.sort()
    e = np.array(edges, dtype=np.int64).reshape(-1, 4)
    in_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(e[:, 0], minlength=n), out=in_ptr[1:])

    area_locs: list[list[int]] = [[] for _ in area_ids]
    for k, (a, _lv) in enumerate(locs):
        area_locs[apos[a]].append(k)
    for lst in area_locs:
        lst.sort(key=lambda k: locs[k][1])
    up = np.full(n, -1, dtype=np.int64)
    for lst in area_locs:
        for lo, hi in itertools.pairwise(lst):
            up[lo] = hi
    levels = sorted(set(loc_level.tolist()))
    level_rank = [np.flatnonzero(loc_level == lv) for lv in levels]
    area_top = np.array([lst[-1] for lst in area_locs], dtype=np.int64)
    area_ground = np.array(
        [index.get((a, 0), lst[0]) for a, lst in zip(area_ids, area_locs, strict=True)],
        dtype=np.int64,
    )
    area_adj = [[apos[b] for b in graph.area_neighbours(a)] for a in area_ids]
    over = [[k for k in area_locs[loc_area[i]] if loc_level[k] > loc_level[i]] for i in range(n)]
    above_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([len(x) for x in over], out=above_ptr[1:])
    above_idx = np.array([k for x in over for k in x], dtype=np.int64)
    pairs = [(b, a) for a, nbs in enumerate(area_adj) for b in nbs]
    adj_src, adj_ptr = csr_by_dst(
        np.array([q[0] for q in pairs], dtype=np.int64),
        np.array([q[1] for q in pairs], dtype=np.int64),
        len(area_ids),
    )
    runs = np.flatnonzero(np.r_[True, loc_area[1:] != loc_area[:-1]]) if n else np.zeros(0)
    area_start = runs.astype(np.int64)
    area_run = np.zeros(len(area_ids), dtype=np.int64)
    area_run[loc_area[area_start]] = np.arange(len(area_start))
    he_targets: list[list[int]] = []
    for a, lst in zip(area_ids, area_locs, strict=True):
        tg = sorted({index[h] for k in lst for h in graph.horizontal(locs[k]) if h[0] != a})
        he_targets.append(tg)

    # a uniform point of the table, dropped again when it hits no area
    sizes = np.array([max(a.shape.area, 0.0) for a in scenario.areas], dtype=np.float64)
    minx, miny, maxx, maxy = scenario.bounds()
    table = max((maxx - minx) * (maxy - miny), 1e-12)
    cover = min(float(sizes.sum()) / table, 1.0)
    bomb_lost = (1.0 - cover) ** p.redrop_limit if cover > 0 else 1.0
    bomb_cdf = np.cumsum(sizes) / max(float(sizes.sum()), 1e-12)

    st = scenario.start
    start_fire = np.zeros(n, dtype=np.int8)
    for fv in st.fires:
        if fv.location in index:
            start_fire[index[fv.location]] = fv.value
    start_embers = np.zeros(n, dtype=bool)
    for ref in st.embers:
        if ref.location in index:
            start_embers[index[ref.location]] = True
    start_damp = np.zeros(n, dtype=np.int8)
    for fv in st.damp:
        if fv.location in index:
            start_damp[index[fv.location]] = fv.value
    start_damage = np.ones(n, dtype=np.int8)
    for fv in st.damage:
        if fv.location in index:
            start_damage[index[fv.location]] = fv.value
    start_rubble = np.zeros(n, dtype=bool)
    for a in st.rubble:
        if a in apos:
            start_rubble[area_ground[apos[a]]] = True

    return FastModel(
        scenario=scenario,
        params=p,
        locations=locs,
        area_ids=area_ids,
        loc_area=loc_area,
        loc_level=loc_level,
        building=building,
        road=road,
        water=water,
        occupants=occupants,
        store=store,
        nb_ptr=np.asarray(graph.csr_indptr, dtype=np.int64),
        nb_idx=np.asarray(graph.csr_indices, dtype=np.int64),
        in_ptr=in_ptr,
        in_src=e[:, 1].copy(),
        in_kind=e[:, 2].astype(np.int8),
        in_wind=e[:, 3].astype(np.int8),
        climb_src=np.array([c[0] for c in climb], dtype=np.int64),
        climb_dst=np.array([c[1] for c in climb], dtype=np.int64),
        jump_src=np.array([j[0] for j in jumps], dtype=np.int64),
        jump_dst=np.array([j[1] for j in jumps], dtype=np.int64),
        up=up,
        level_rank=level_rank,
        area_locs=area_locs,
        area_top=area_top,
        area_ground=area_ground,
        area_adj=area_adj,
        above_ptr=above_ptr,
        above_idx=above_idx,
        adj_src=adj_src,
        adj_ptr=adj_ptr,
        area_start=area_start,
        area_run=area_run,
        he_targets=he_targets,
        bomb_cdf=bomb_cdf,
        bomb_lost=bomb_lost,
        bombing=bool(scenario.bombing),
        start_fire=start_fire,
        start_embers=start_embers,
        start_damp=start_damp,
        start_damage=start_damage,
        start_rubble=start_rubble,
        start_all_clear=bool(st.all_clear),
    )


@dataclass
class FastResult:
    """What a batch of games left behind, arrays shaped ``[games, locations]``."""

    burned: Bool  # burned at some point (start fires included)
    destroyed: Bool  # damage at "destroyed" at the end
    first_alight: I16  # turn it was first burning at the end of (0: at the start; -1: never)
    fire: I8  # fire at the end
    all_clear_turn: I16  # [games] turn the All Clear sounded (0: at the start; -1: never)
    dead: I64  # [games] civilians killed by HE
    buried: I64  # [games] civilians buried by heavy damage or collapse (nobody digs)
    turns: int

    @property
    def games(self) -> int:
        return int(self.burned.shape[0])

    @staticmethod
    def concat(parts: list[FastResult]) -> FastResult:
        return FastResult(
            burned=np.concatenate([r.burned for r in parts]),
            destroyed=np.concatenate([r.destroyed for r in parts]),
            first_alight=np.concatenate([r.first_alight for r in parts]),
            fire=np.concatenate([r.fire for r in parts]),
            all_clear_turn=np.concatenate([r.all_clear_turn for r in parts]),
            dead=np.concatenate([r.dead for r in parts]),
            buried=np.concatenate([r.buried for r in parts]),
            turns=parts[0].turns if parts else 0,
        )


def csr_by_dst(src: I64, dst: I64, n: int) -> tuple[I64, I64]:
    order = np.argsort(dst, kind="stable")
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=n), out=ptr[1:])
    return src[order], ptr
