"""One batch of games played as numpy arrays shaped ``[games, locations]`` (the numpy path of
the fast core), with the bit-mask helpers it gathers along the CSR lists."""

from __future__ import annotations

import numpy as np

from .model import (
    BURIED,
    CLIMB,
    I8,
    I16,
    I64,
    JUMP,
    KILLED,
    OIL,
    PETROL,
    SAFE,
    SPREAD,
    WOOD,
    Bool,
    FastModel,
    FastResult,
    csr_by_dst,
    d6_at_most,
    two_d6_at_least,
)

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
        self._nb_src, self._nb_ptr = csr_by_dst(model.nb_idx, nb_dst, n)
        self._jump_src, self._jump_ptr = csr_by_dst(model.jump_src, model.jump_dst, n)
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
