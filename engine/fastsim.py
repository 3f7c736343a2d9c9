"""Fire, bombs and collapse alone, for many games at once (``analyze --no-response``).

The reference engine (:mod:`.simulate`) plays one game with a logged die roll at a time;
this module plays the same rules without units for a whole batch of games as numpy arrays
shaped ``[games, locations]``. Every number comes from the scenario's :class:`Ruleset`
(house rules included). The graph's neighbour lists are used in CSR form.

Two tricks keep it fast while leaving each location's chances exactly as the rules give them:

* **One draw per threatened location.** The rules roll one die per burning neighbour until
  one succeeds (R-3). Those rolls are independent, so a location stays unlit with
  probability ``prod(1 - p_i)``; one uniform number decides it. Damp lost to failed rolls is
  then drawn from the conditional chance that a failed roll would have passed without the
  damp (each roll that did costs one damp).
* **Only where needed.** Growth, damage and spread draw only for the cells that can change
  (found with packed bit masks gathered along the CSR lists), and the rare events (bombs,
  store fires, collapse chains) run per game.

Two ways to play, the same rules:

* **The numba kernel** (:mod:`._fastkernels`, used whenever numba imports): whole games,
  one per loop iteration, spread over threads; each game has its own counter-based stream
  keyed by the seed and the game's number, so a seed gives the same games on any number of
  threads, chunks or processes. This is the fast path (:func:`run_kernel`).
* **The numpy path** (:class:`Batch`, without numba or with ``FIREGROUND_NO_NUMBA=1``):
  a batch of games at once as ``[games, locations]`` arrays, chance from a numpy
  :class:`~numpy.random.Generator` per fixed chunk of games seeded from
  ``SeedSequence(seed).spawn``, so a chunk's games are the same whatever process plays
  them (:func:`run_games_numpy`).

The two draw from different streams: for one seed they play different games with the same
chances (tests/engine/test_fastsim_speedpath.py compares them statistically).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from .graph import MapGraph, build_graph
from .ruleset import Ruleset, load_ruleset
from .scenario import AreaKind, FeatureType, Location, Material, Scenario

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
    adj_src, adj_ptr = _csr_by_dst(
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


def kernels() -> Any:
    """The numba kernels, or None (numba missing, or ``FIREGROUND_NO_NUMBA=1``)."""
    import os

    if os.environ.get("FIREGROUND_NO_NUMBA"):
        return None
    try:
        from . import _fastkernels
    except ImportError:
        return None
    return _fastkernels


# --------------------------------------------------------------------------------------
# bit masks gathered along CSR lists


def _any_in(bits: Bool, src: I64, dst_ptr: I64) -> Bool:
    """For each destination, whether any of its sources (CSR by destination) is set.

    ``bits`` is ``[games, N]``; games are packed 8 to a byte so the gather moves 1/8 of the
    data.
    """
    g, n = bits.shape
    out = np.zeros((g, n), dtype=bool)
    if len(src) == 0:
        return out
    packed = np.packbits(bits, axis=0)  # [ceil(g/8), N]
    gathered = packed[:, src]
    deg = np.diff(dst_ptr)
    has = np.flatnonzero(deg)
    red = np.bitwise_or.reduceat(gathered, dst_ptr[has], axis=1)
    out[:, has] = np.unpackbits(red, axis=0, count=g).astype(bool)
    return out


def _expand(ptr: I64, idx: I64, rows: I64) -> tuple[I64, I64]:
    """The CSR lists of ``rows`` laid end to end: (which row each entry came from, entry)."""
    counts = ptr[rows + 1] - ptr[rows]
    total = int(counts.sum())
    rep = np.repeat(np.arange(len(rows)), counts)
    if total == 0:
        return rep, np.zeros(0, dtype=np.int64)
    first = np.cumsum(counts) - counts
    pos = np.arange(total) - np.repeat(first, counts) + np.repeat(ptr[rows], counts)
    return rep, idx[pos]


def _count_in(bits: Bool, src: I64, dst_ptr: I64) -> npt.NDArray[np.int16]:
    """For each destination, how many of its sources (CSR by destination) are set."""
    g, n = bits.shape
    out = np.zeros((g, n), dtype=np.int16)
    deg = np.diff(dst_ptr)
    has = np.flatnonzero(deg)
    if len(has):
        out[:, has] = np.add.reduceat(bits[:, src].astype(np.int16), dst_ptr[has], axis=1)
    return out


def _csr_by_dst(src: I64, dst: I64, n: int) -> tuple[I64, I64]:
    order = np.argsort(dst, kind="stable")
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=n), out=ptr[1:])
    return src[order], ptr


# --------------------------------------------------------------------------------------
# one batch of games


class Batch:
    """The state of ``games`` games of one model, each array ``[games, N]`` (or ``[games]``).

    ``rng`` is the only source of chance.
    """

    def __init__(self, model: FastModel, games: int, rng: np.random.Generator) -> None:
        self.m = model
        self.p = model.params
        self.rng = rng
        g, n = games, model.n
        self.g = g
        self.fire: I8 = np.tile(model.start_fire, (g, 1))
        self.embers: Bool = np.tile(model.start_embers, (g, 1))
        self.damp: I8 = np.tile(model.start_damp, (g, 1))
        self.damage: I8 = np.tile(model.start_damage, (g, 1))
        self.rubble: Bool = np.tile(model.start_rubble, (g, 1))  # at street/open locations
        # turns a road incendiary has burned (-1: not one); a start fire on an empty road is one
        road0 = np.where(model.road & ~model.start_rubble & (model.start_fire > 0), 0, -1)
        self.road_age: I8 = np.tile(road0.astype(np.int8), (g, 1))
        self.embers &= self.fire == 0
        self.crater: Bool = np.zeros((g, len(model.area_ids)), dtype=bool)
        self.fate: I8 = np.zeros((g, n), dtype=np.int8)
        self.pending: I8 = np.zeros((g, n), dtype=np.int8)
        self.all_clear: Bool = np.full(g, model.start_all_clear)
        self.all_clear_turn: I16 = np.where(self.all_clear, 0, -1).astype(np.int16)
        self.turn = 0
        burning = self.fire > 0
        self.burned: Bool = burning.copy()
        self.first_alight: I16 = np.where(burning, 0, -1).astype(np.int16)
        # edge tables by destination, for the "has a source" masks
        nb_dst = np.repeat(np.arange(n), np.diff(model.nb_ptr))
        self._nb_src, self._nb_ptr = _csr_by_dst(model.nb_idx, nb_dst, n)
        self._jump_src, self._jump_ptr = _csr_by_dst(model.jump_src, model.jump_dst, n)
        self._deg = np.diff(model.in_ptr)
        self._wind_mod = model.in_wind.astype(np.int64)
        self._store_mod = np.array(self.p.store_mod, dtype=np.int64)[model.store.astype(np.int64)]

    # -- queries -------------------------------------------------------------------------
    def flammable(self) -> Bool:
        return self.m.building[None, :] | (self.m.road[None, :] & self.rubble)

    def result(self) -> FastResult:
        return FastResult(
            burned=self.burned,
            destroyed=self.damage >= self.p.destroyed,
            first_alight=self.first_alight,
            fire=self.fire.copy(),
            all_clear_turn=self.all_clear_turn,
            dead=((self.fate == KILLED) * self.m.occupants[None, :]).sum(axis=1),
            buried=((self.fate == BURIED) * self.m.occupants[None, :]).sum(axis=1),
            turns=self.turn,
        )

    # -- ignition ----------------------------------------------------------------------------
    def ignite_many(self, gs: I64, ls: I64, level: int) -> None:
        """Set cells alight at ``level`` (already burning cells are left alone)."""
        fresh = self.fire[gs, ls] == 0
        gs, ls = gs[fresh], ls[fresh]
        if len(gs) == 0:
            return
        self.fire[gs, ls] = level
        self.embers[gs, ls] = False
        self.damp[gs, ls] = 0
        self.pending[gs, ls] = 0
        st = self.m.store[ls]
        for k in np.flatnonzero((st == OIL) | (st == PETROL)):
            self._store_catches(int(gs[k]), int(ls[k]))

    def ignite(self, g: int, loc: int, level: int) -> None:
        self.ignite_many(np.array([g]), np.array([loc]), level)

    def _store_catches(self, g: int, loc: int) -> None:
        p, m = self.p, self.m
        if m.store[loc] == OIL:
            self.fire[g, loc] = p.oil_fire
            for nb in m.nb_idx[m.nb_ptr[loc] : m.nb_ptr[loc + 1]]:
                if self.fire[g, nb] == 0 and self._flammable_at(g, int(nb)):
                    self.ignite(g, int(nb), p.oil_spread_fire)
        else:
            self.fire[g, loc] = p.petrol_fire
            if p.petrol_explodes:
                self.he_blast(g, int(m.loc_area[loc]), keep_burning=loc)

    def _flammable_at(self, g: int, loc: int) -> bool:
        return bool(self.m.building[loc] or (self.m.road[loc] and self.rubble[g, loc]))

    # -- bombs (step 5) and collapse (step 7), per game: rare and order-sensitive -------------
    def he_blast(self, g: int, area: int, keep_burning: int = -1) -> None:
        """An HE bomb or a petrol store goes off in ``area`` (as the reference engine does)."""
        m, p = self.m, self.p
        own = m.area_locs[area]
        for loc in own:
            if self.fate[g, loc] == SAFE:
                self.fate[g, loc] = KILLED
        if m.building[own[0]]:
            self._collapse_game(g, [(area, own)])
        elif m.road[own[0]]:
            self.crater[g, area] = True
        for nb in m.he_targets[area]:
            if m.water[nb]:
                continue
            score = int(self.rng.integers(1, 7))
            result = p.destroyed if score >= p.he_destroyed_on else score
            if m.building[nb]:
                self._set_damage_game(g, int(nb), result)
            elif result >= p.destroyed:
                self.crater[g, m.loc_area[nb]] = True
        if keep_burning >= 0:
            self.fire[g, keep_burning] = p.petrol_fire

    def _set_damage_game(self, g: int, loc: int, new: int) -> None:
        p = self.p
        new = min(new, p.destroyed)
        old = int(self.damage[g, loc])
        if new <= old:
            return
        self.damage[g, loc] = new
        if new >= p.destroyed:
            self._collapse_game(g, [(int(self.m.loc_area[loc]), [loc])])
        elif new >= p.heavy and self.fate[g, loc] == SAFE:
            self.fate[g, loc] = BURIED

    def _collapse_game(self, g: int, queue: list[tuple[int, list[int]]]) -> None:
        """Collapses worked off a queue: levels above come down, rubble strikes around."""
        m, p = self.m, self.p
        while queue:
            area, locs = queue.pop(0)
            lowest = min(int(m.loc_level[k]) for k in locs)
            falling = set(locs)
            for k in m.area_locs[area]:
                if m.loc_level[k] > lowest and self.damage[g, k] < p.destroyed:
                    falling.add(k)
            for k in sorted(falling):
                self.damage[g, k] = p.destroyed
                if self.fate[g, k] == SAFE:
                    self.fate[g, k] = BURIED
            for nb in m.area_adj[area]:
                ground = int(m.area_ground[nb])
                if m.water[ground]:
                    continue
                if m.building[ground]:
                    old = int(self.damage[g, ground])
                    new = min(old + p.rubble_damage, p.destroyed)
                    if new <= old:
                        continue
                    self.damage[g, ground] = new
                    if new >= p.destroyed:
                        queue.append((nb, [ground]))
                    elif new >= p.heavy and self.fate[g, ground] == SAFE:
                        self.fate[g, ground] = BURIED
                else:
                    self.rubble[g, ground] = True

    def incendiary(self, g: int, loc: int) -> None:
        m, p = self.m, self.p
        if m.water[loc] or self.fire[g, loc] > 0:
            return
        if m.road[loc] and not self.rubble[g, loc]:
            self.fire[g, loc] = min(p.fire_start, p.road_max_fire)
            self.road_age[g, loc] = 0
            self.embers[g, loc] = False
            self.damp[g, loc] = 0
            return
        self.ignite(g, loc, p.fire_start)

    def step_bombing(self) -> None:
        m, p = self.m, self.p
        if not m.bombing:
            return
        live = np.flatnonzero(~self.all_clear)
        if len(live) == 0:
            return
        run = self.rng.integers(1, 7, size=(len(live), 2)).sum(axis=1)
        clear = live[run <= p.all_clear_max]
        self.all_clear[clear] = True
        self.all_clear_turn[clear] = self.turn
        for g in live[run >= p.stick_on]:
            he, inc = p.load[int(self.rng.integers(1, 7)) - 1]
            for bomb in ["he"] * he + ["incendiary"] * inc:
                if m.bomb_lost > 0 and self.rng.random() < m.bomb_lost:
                    continue  # missed every area too often
                area = int(np.searchsorted(m.bomb_cdf, self.rng.random(), side="right"))
                area = min(area, len(m.area_ids) - 1)
                if bomb == "he":
                    self.he_blast(int(g), area)
                else:
                    self.incendiary(int(g), int(m.area_top[area]))

    # -- step 7, for all games at once ---------------------------------------------------------
    def step_damage(self) -> None:
        m, p = self.m, self.p
        rolling = (self.fire >= p.damage_fire) & m.building[None, :] & (self.damage < p.destroyed)
        gs, ls = np.nonzero(rolling)
        if len(gs):
            hit = self.rng.random(len(gs)) < 1.0 - d6_at_most(p.damage_add_on - 1)
            gs, ls = gs[hit], ls[hit]
            self.damage[gs, ls] += 1
            crossed = self.damage[gs, ls] >= p.destroyed
            self._collapse_waves(gs[crossed], ls[crossed])
        heavy = (self.fate == SAFE) & (self.damage >= p.heavy)
        self.fate[heavy] = BURIED

    def _collapse_waves(self, gs: I64, ls: I64) -> None:
        """Collapse the cells ``(gs, ls)`` that just reached "destroyed", wave by wave.

        Within a wave each area that lost a location collapses once: everything above its
        lowest newly destroyed level falls, and rubble strikes the ground level of each
        neighbouring area (which may bring that down in the next wave).
        """
        m, p = self.m, self.p
        n, n_areas = m.n, len(m.area_ids)
        while len(gs):
            rep, above = _expand(m.above_ptr, m.above_idx, ls)
            self.damage[gs, ls] = p.destroyed
            self.damage[gs[rep], above] = p.destroyed
            key = np.unique(gs * n_areas + m.loc_area[ls])
            eg, ea = key // n_areas, key % n_areas
            rep, nb = _expand(m.adj_ptr, m.adj_src, ea)
            hg, ground = eg[rep], m.area_ground[nb]
            road = m.road[ground]
            self.rubble[hg[road], ground[road]] = True
            bld = m.building[ground]
            cells, hits = np.unique(hg[bld] * n + ground[bld], return_counts=True)
            g2, l2 = cells // n, cells % n
            old = self.damage[g2, l2].astype(np.int64)
            new = np.minimum(old + hits * p.rubble_damage, p.destroyed)
            self.damage[g2, l2] = new
            crossed = (old < p.destroyed) & (new >= p.destroyed)
            gs, ls = g2[crossed], l2[crossed]

    # -- step 1 ----------------------------------------------------------------------------
    def step_spread(self) -> None:
        m, p = self.m, self.p
        fire = self.fire
        burning = fire > 0
        target = self.flammable() & ~burning
        has = _any_in(burning, self._nb_src, self._nb_ptr)
        if len(m.climb_src):
            has[:, m.climb_dst] |= fire[:, m.climb_src] >= p.climb_min_fire
        if len(m.jump_src):
            has |= _any_in(fire >= p.jump_min_fire, self._jump_src, self._jump_ptr)
        gs, bs = np.nonzero(target & has)
        if len(gs) == 0:
            return
        damp = self.damp[gs, bs].astype(np.int64) * p.damp_per_level
        base_mod = damp + self.embers[gs, bs] * p.embers_mod + self._store_mod[bs]
        q = np.ones(len(gs))  # chance every roll fails
        qd = np.ones(len(gs))  # ... and would fail without the damp too
        start, deg = m.in_ptr[bs], self._deg[bs]
        for d in range(int(deg.max())):
            e = start + np.minimum(d, deg - 1)
            fa = fire[gs, m.in_src[e]].astype(np.int64)
            kind = m.in_kind[e]
            active = (d < deg) & (
                ((kind == SPREAD) & (fa > 0))
                | ((kind == CLIMB) & (fa >= p.climb_min_fire))
                | ((kind == JUMP) & (fa >= p.jump_min_fire))
            )
            limit = np.where(kind == JUMP, p.jump_max, fa)
            t = limit - base_mod - self._wind_mod[e]
            q *= np.where(active, 1.0 - d6_at_most(t), 1.0)
            qd *= np.where(active, 1.0 - d6_at_most(t + damp), 1.0)
        u = self.rng.random(len(gs))
        caught = u < 1.0 - q
        # damp lost: for an unlit damp target, each failed roll that only its damp stopped
        lose = np.flatnonzero(~caught & (qd < q))
        if len(lose):
            self._damp_losses(gs[lose], bs[lose], damp[lose], base_mod[lose])
        self.ignite_many(gs[caught], bs[caught], p.fire_start)

    def _damp_losses(self, gs: I64, bs: I64, damp: I64, base_mod: I64) -> None:
        m, p = self.m, self.p
        start, deg = m.in_ptr[bs], self._deg[bs]
        count = np.zeros(len(gs), dtype=np.int64)
        for d in range(int(deg.max())):
            e = start + np.minimum(d, deg - 1)
            fa = self.fire[gs, m.in_src[e]].astype(np.int64)
            kind = m.in_kind[e]
            active = (d < deg) & (
                ((kind == SPREAD) & (fa > 0))
                | ((kind == CLIMB) & (fa >= p.climb_min_fire))
                | ((kind == JUMP) & (fa >= p.jump_min_fire))
            )
            limit = np.where(kind == JUMP, p.jump_max, fa)
            raw = limit - base_mod - self._wind_mod[e]
            t = np.clip(raw, 0, 6)
            td = np.clip(raw + damp, 0, 6)
            # given that the roll failed (die > t), it would have passed without damp
            # when die <= td
            chance = np.where(active & (t < 6), (td - t) / np.maximum(6 - t, 1), 0.0)
            count += self.rng.random(len(gs)) < chance
        self.pending[gs, bs] += count.astype(np.int8)

    # -- step 2 ----------------------------------------------------------------------------
    def step_growth(self) -> None:
        m, p = self.m, self.p
        fire = self.fire
        burning = fire > 0
        road = self.road_age >= 0
        any_road = bool(road.any())
        if any_road:
            growing = burning & (fire < np.where(road, p.road_max_fire, p.fire_max))
        else:
            growing = burning & (fire < p.fire_max)
        gs, ls = np.nonzero(growing)
        if len(gs):
            nb = _any_in(burning, self._nb_src, self._nb_ptr)[gs, ls]
            mod = nb * p.growth_neighbour + (m.store[ls] == WOOD) * p.growth_wood
            chance = 1.0 - d6_at_most(p.growth_on - mod - 1)
            grow = self.rng.random(len(gs)) < chance
            fire[gs[grow], ls[grow]] += 1
        # road incendiaries age and burn out, leaving no embers
        if any_road:
            self.road_age[road] += 1
            out = road & (self.road_age >= p.road_burn_turns)
            fire[out] = 0
            self.road_age[out] = -1

    # -- step 3 ----------------------------------------------------------------------------
    def step_reignite(self) -> None:
        if not self.embers.any():
            return
        gs, ls = np.nonzero(self.embers)
        if len(gs):
            hit = self.rng.random(len(gs)) < two_d6_at_least(self.p.reignite_on)
            self.ignite_many(gs[hit], ls[hit], self.p.fire_start)

    # -- step 4 ----------------------------------------------------------------------------
    def step_damp(self) -> None:
        pend = self.pending > 0
        if pend.any():
            keep = pend & (self.fire == 0)
            loss = self.pending[keep].astype(np.int64) * self.p.damp_loss
            self.damp[keep] = np.maximum(self.damp[keep] - loss, 0)
            self.pending[:] = 0

    # -- a whole turn --------------------------------------------------------------------------
    def play_turn(self) -> None:
        """Steps 1-5 and 7 of a turn (the others need units)."""
        self.turn += 1
        self.step_spread()
        self.step_growth()
        self.step_reignite()
        self.step_damp()
        self.step_bombing()
        self.step_damage()
        burning = self.fire > 0
        new = burning & ~self.burned
        self.first_alight[new] = self.turn
        self.burned |= burning


# --------------------------------------------------------------------------------------
# many games: fixed chunks, each with its own spawned seed

CHUNK = 256  # games per chunk; fixed so that a seed gives the same games on any worker count


def chunk_sizes(games: int, chunk: int = CHUNK) -> list[int]:
    return [min(chunk, games - k) for k in range(0, games, chunk)]


def chunk_seeds(seed: int | None, n: int) -> list[np.random.SeedSequence]:
    return np.random.SeedSequence(seed).spawn(n)


def run_chunk(model: FastModel, games: int, turns: int, seed: np.random.SeedSequence) -> FastResult:
    """Play ``games`` games of ``turns`` turns with the generator of one chunk."""
    batch = Batch(model, games, np.random.Generator(np.random.Philox(seed)))
    for _ in range(turns):
        batch.play_turn()
    return batch.result()


_WORKER_MODEL: FastModel | None = None


def _worker_init(scenario: Scenario) -> None:
    global _WORKER_MODEL
    _WORKER_MODEL = build_model(scenario)


def _worker_run(job: tuple[int, int, np.random.SeedSequence]) -> FastResult:
    assert _WORKER_MODEL is not None
    games, turns, seed = job
    return run_chunk(_WORKER_MODEL, games, turns, seed)


def kernel_tables(model: FastModel) -> dict[str, Any]:
    """The model packed for :func:`._fastkernels.play_games` (cached on the model)."""
    cached = model.extra.get("kernel")
    if cached is not None:
        return cast(dict[str, Any], cached)
    from . import _fastkernels as fk

    p, m = model.params, model
    vec = np.zeros(fk.P_SIZE, dtype=np.int64)
    for pos, value in (
        (fk.P_FIRE_START, p.fire_start),
        (fk.P_FIRE_MAX, p.fire_max),
        (fk.P_DAMP_PER_LEVEL, p.damp_per_level),
        (fk.P_EMBERS_MOD, p.embers_mod),
        (fk.P_CLIMB_MIN, p.climb_min_fire),
        (fk.P_DAMP_LOSS, p.damp_loss),
        (fk.P_JUMP_MIN, p.jump_min_fire),
        (fk.P_JUMP_MAX, p.jump_max),
        (fk.P_GROWTH_ON, p.growth_on),
        (fk.P_GROWTH_NB, p.growth_neighbour),
        (fk.P_GROWTH_WOOD, p.growth_wood),
        (fk.P_REIGNITE_ON, p.reignite_on),
        (fk.P_OIL_FIRE, p.oil_fire),
        (fk.P_OIL_SPREAD_FIRE, p.oil_spread_fire),
        (fk.P_PETROL_FIRE, p.petrol_fire),
        (fk.P_PETROL_EXPLODES, int(p.petrol_explodes)),
        (fk.P_ROAD_MAX, p.road_max_fire),
        (fk.P_ROAD_TURNS, p.road_burn_turns),
        (fk.P_ALL_CLEAR_MAX, p.all_clear_max),
        (fk.P_STICK_ON, p.stick_on),
        (fk.P_REDROP, p.redrop_limit),
        (fk.P_HE_DESTROYED_ON, p.he_destroyed_on),
        (fk.P_DAMAGE_FIRE, p.damage_fire),
        (fk.P_DAMAGE_ADD_ON, p.damage_add_on),
        (fk.P_DESTROYED, p.destroyed),
        (fk.P_HEAVY, p.heavy),
        (fk.P_RUBBLE_DAMAGE, p.rubble_damage),
        (fk.P_BOMBING, int(m.bombing)),
        (fk.P_START_ALL_CLEAR, int(m.start_all_clear)),
    ):
        vec[pos] = value
    area_ptr = np.zeros(len(m.area_locs) + 1, dtype=np.int64)
    np.cumsum([len(x) for x in m.area_locs], out=area_ptr[1:])
    he_ptr = np.zeros(len(m.he_targets) + 1, dtype=np.int64)
    np.cumsum([len(x) for x in m.he_targets], out=he_ptr[1:])
    in_dst = np.repeat(np.arange(m.n, dtype=np.int64), np.diff(m.in_ptr))
    out_dst, out_ptr = _csr_by_dst(in_dst, m.in_src, m.n)  # grouped by source
    nb_row = np.repeat(np.arange(m.n, dtype=np.int64), np.diff(m.nb_ptr))
    nbr_idx, nbr_ptr = _csr_by_dst(nb_row, m.nb_idx, m.n)  # who lists each cell
    parts: dict[int, Any] = {
        fk.M_BUILDING: m.building,
        fk.M_ROAD: m.road,
        fk.M_WATER: m.water,
        fk.M_STORE: m.store,
        fk.M_NB_PTR: m.nb_ptr,
        fk.M_NB_IDX: m.nb_idx,
        fk.M_IN_PTR: m.in_ptr,
        fk.M_IN_SRC: m.in_src,
        fk.M_IN_THR: np.select(
            [m.in_kind == CLIMB, m.in_kind == JUMP], [p.climb_min_fire, p.jump_min_fire], 1
        ).astype(np.int8),
        fk.M_IN_ADD: (np.where(m.in_kind == JUMP, p.jump_max, 0) - m.in_wind).astype(np.int8),
        fk.M_IN_USE_FA: (m.in_kind != JUMP).astype(np.int8),
        fk.M_LOC_LEVEL: m.loc_level,
        fk.M_NBR_PTR: nbr_ptr,
        fk.M_NBR_IDX: nbr_idx,
        fk.M_OUT_PTR: out_ptr,
        fk.M_OUT_DST: out_dst,
        fk.M_AREA_PTR: area_ptr,
        fk.M_AREA_IDX: np.array([k for x in m.area_locs for k in x], dtype=np.int64),
        fk.M_AREA_TOP: m.area_top,
        fk.M_AREA_GROUND: m.area_ground,
        fk.M_LOC_AREA: m.loc_area,
        fk.M_ABOVE_PTR: m.above_ptr,
        fk.M_ABOVE_IDX: m.above_idx,
        fk.M_ADJ_PTR: m.adj_ptr,
        fk.M_ADJ_SRC: m.adj_src,
        fk.M_HE_PTR: he_ptr,
        fk.M_HE_IDX: np.array([k for x in m.he_targets for k in x], dtype=np.int64),
        fk.M_STORE_MOD: np.array(p.store_mod, dtype=np.int64)[m.store.astype(np.int64)],
        fk.M_WOOD: m.store == WOOD,
        fk.M_BOMB_CDF: m.bomb_cdf.astype(np.float64),
        fk.M_LOAD: np.array(p.load, dtype=np.int64).reshape(6, 2),
        fk.M_OCCUPANTS: m.occupants,
    }
    assert sorted(parts) == list(range(fk.M_SIZE))
    road0 = np.where(m.road & ~m.start_rubble & (m.start_fire > 0), 0, -1)
    start = np.stack(
        [m.start_fire, m.start_embers, m.start_damp, m.start_damage, m.start_rubble, road0]
    ).astype(np.int16)
    chances = np.zeros(fk.F_SIZE, dtype=np.float64)
    chances[fk.F_FAIL : fk.F_FAIL + 7] = 1.0 - np.arange(7) / 6.0
    for nbf in (0, 1):
        for wf in (0, 1):
            need = p.growth_on - nbf * p.growth_neighbour - wf * p.growth_wood
            chances[fk.F_GROW + 2 * nbf + wf] = 1.0 - d6_at_most(need - 1)
    chances[fk.F_DAMAGE] = 1.0 - d6_at_most(p.damage_add_on - 1)
    chances[fk.F_REIGNITE] = two_d6_at_least(p.reignite_on)
    tables: dict[str, Any] = {
        "P": vec,
        "F": chances,
        "M": tuple(np.ascontiguousarray(parts[k]) for k in range(fk.M_SIZE)),
        "start": start,
        "bomb_lost": float(m.bomb_lost),
    }
    model.extra["kernel"] = tables
    return tables


def run_key(seed: int | None) -> tuple[np.uint64, np.uint64]:
    """The two words that key every game's stream of a run (games are numbered 0, 1, ...)."""
    words = np.random.SeedSequence(seed).generate_state(2, dtype=np.uint64)
    return np.uint64(words[0]), np.uint64(words[1])


def run_kernel(
    model: FastModel,
    games: int,
    turns: int,
    key: tuple[np.uint64, np.uint64],
    first_game: int = 0,
    threads: int = 1,
    states: npt.NDArray[np.int16] | None = None,
) -> FastResult:
    """Games ``first_game`` .. ``first_game + games - 1`` of the run keyed ``key`` on the
    numba kernel, spread over ``threads`` threads. ``states`` (``[games, rows, N]``, see
    :func:`kernel_state`) receives each game's final state when given."""
    import numba  # type: ignore[import-not-found, unused-ignore]

    from . import _fastkernels as fk

    t = kernel_tables(model)
    n = model.n
    out = FastResult(
        burned=np.zeros((games, n), dtype=bool),
        destroyed=np.zeros((games, n), dtype=bool),
        first_alight=np.zeros((games, n), dtype=np.int16),
        fire=np.zeros((games, n), dtype=np.int8),
        all_clear_turn=np.zeros(games, dtype=np.int16),
        dead=np.zeros(games, dtype=np.int64),
        buried=np.zeros(games, dtype=np.int64),
        turns=turns,
    )
    if games == 0:
        return out
    numba.set_num_threads(max(1, min(threads, int(getattr(numba.config, "NUMBA_NUM_THREADS", 1)))))
    # small chunks of games handed out as threads come free: a thread slowed down by other
    # work on the machine does not hold the others up
    chunksize = numba.set_parallel_chunksize(8)
    try:
        fk.play_games(
            t["P"], t["F"], t["M"], t["start"], t["bomb_lost"], key[0], key[1], first_game,
            turns, out.burned, out.destroyed, out.first_alight, out.fire, out.all_clear_turn,
            out.dead, out.buried,
            states if states is not None else np.zeros((0, fk.S_ROWS, n), np.int16),
        )  # fmt: skip
    finally:
        numba.set_parallel_chunksize(chunksize)
    return out


def kernel_state(
    model: FastModel, games: int, turns: int, seed: int | None = None
) -> tuple[FastResult, dict[str, npt.NDArray[np.int16]]]:
    """Play on the kernel and keep every game's final state, by name (``fire``, ``damp``,
    ``damage``, ``rubble``, ``fate``, ...; each ``[games, N]``): for tests and debugging."""
    from . import _fastkernels as fk

    states = np.zeros((games, fk.S_ROWS, model.n), dtype=np.int16)
    result = run_kernel(model, games, turns, run_key(seed), states=states)
    rows = {name[2:].lower(): getattr(fk, name) for name in dir(fk) if name.startswith("S_")}
    return result, {k: states[:, r, :] for k, r in rows.items() if k != "rows"}


KERNEL_CHUNK = 1024  # games per kernel call (progress is reported between calls)


def run_games(
    scenario: Scenario,
    games: int,
    turns: int,
    seed: int | None = None,
    workers: int = 1,
    progress: Any = None,
    model: FastModel | None = None,
) -> FastResult:
    """Play ``games`` games without any response; the same result for a seed whatever
    ``workers`` is. ``progress(done_games)`` is called as chunks finish.

    With numba the whole games run in :mod:`._fastkernels` on ``workers`` threads, each game
    on its own stream; without it, on the numpy :class:`Batch` in ``workers`` processes. The
    two paths play the same rules with different streams: statistically equal, not
    game-identical.
    """
    if kernels() is not None:
        model = model or build_model(scenario)
        key = run_key(seed)
        kparts: list[FastResult] = []
        for start in range(0, games, KERNEL_CHUNK):
            size = min(KERNEL_CHUNK, games - start)
            kparts.append(run_kernel(model, size, turns, key, start, threads=workers))
            if progress is not None:
                progress(start + size)
        if not kparts:
            return run_kernel(model, 0, turns, key)
        return kparts[0] if len(kparts) == 1 else FastResult.concat(kparts)
    return run_games_numpy(scenario, games, turns, seed, workers, progress, model)


def run_games_numpy(
    scenario: Scenario,
    games: int,
    turns: int,
    seed: int | None = None,
    workers: int = 1,
    progress: Any = None,
    model: FastModel | None = None,
) -> FastResult:
    """:func:`run_games` on the numpy :class:`Batch`: fixed chunks of games, each with its own
    spawned generator, played in ``workers`` processes."""
    sizes = chunk_sizes(games)
    seeds = chunk_seeds(seed, len(sizes))
    jobs = [(n, turns, s) for n, s in zip(sizes, seeds, strict=True)]
    parts: list[FastResult] = []
    done = 0
    if workers <= 1 or len(jobs) <= 1:
        model = model or build_model(scenario)
        for n, t, s in jobs:
            parts.append(run_chunk(model, n, t, s))
            done += n
            if progress is not None:
                progress(done)
    else:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        with ProcessPoolExecutor(
            max_workers=workers, mp_context=ctx, initializer=_worker_init, initargs=(scenario,)
        ) as pool:
            for part in pool.map(_worker_run, jobs):
                parts.append(part)
                done += part.games
                if progress is not None:
                    progress(done)
    if not parts:
        n = len(build_graph(scenario).locations)
        empty = Batch(model or build_model(scenario), 0, np.random.default_rng(0)).result()
        assert empty.burned.shape == (0, n)
        return empty
    return FastResult.concat(parts)
