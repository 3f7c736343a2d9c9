"""Hose steps between locations over the map, fire ignored: how far a line must run from a
parking street to a fire. The autopilot asks it many times a turn for groups of fires
("how near is the nearest of these fires to each street?").

On a map of up to :data:`TABLE_MAX` locations the answer comes from a table with one row
per source location (a breadth-first search from it, made the first time the location is
a source and kept for the game, or for every game sharing the map's memos); a group's
distance to a street is then the smallest of its rows at that street, taken by numpy. On
a bigger map each question is a breadth-first search from the whole group, bounded by the
limit, so the work follows the question and not the size of the map. Both give the same
numbers.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from ....board.model import Location
from ....core.turn import TurnContext
from ..memos import DRY_NEIGHBOURS, HOSE_STEPS
from .danger import neighbours, water_area_set

#: the table is used up to this many locations (it takes n * n * 2 bytes: 8 MB at most)
TABLE_MAX = 2000
#: a table entry farther than any limit asked for
FAR = 32767


def hose_reach(ctx: TurnContext, hose_left: int) -> int:
    """How far (in hose steps) a pump with ``hose_left`` lengths can fight a fire: every
    length but the branch's (at least one) laid out, then a stream's range, and never past
    the longest line the rules allow (§7, §9)."""
    per = ctx.rules.int("hose.steps_per_length")
    laid = per * max(hose_left - 1, 1) + ctx.rules.int("firefighting.max_range")
    return min(laid, per * ctx.rules.int("hose.max_lengths"))


def steps_to(
    ctx: TurnContext,
    sources: Sequence[Location],
    targets: Sequence[Location],
    limit: int,
) -> dict[Location, int]:
    """The hose steps from the nearest of ``sources`` to each of ``targets`` (over locations
    that are not water, fire ignored), for the targets within ``limit``."""
    if not sources or not targets:
        return {}
    table = _table(ctx, limit)
    if table is None:
        dist = bfs_steps(ctx, sources, limit)
        return {t: dist[t] for t in targets if t in dist and dist[t] <= limit}
    return table.nearest(ctx, sources, targets, limit)


def bfs_steps(ctx: TurnContext, sources: Sequence[Location], limit: int) -> dict[Location, int]:
    """Hose steps from the nearest source to every location up to ``limit`` away."""
    dist: dict[Location, int] = {}
    q: deque[Location] = deque()
    for s in sources:
        dist[s] = 0
        q.append(s)
    water = water_area_set(ctx)
    dry: dict[Location, tuple[Location, ...]] = ctx.cache.setdefault(DRY_NEIGHBOURS, {})
    while q:
        loc = q.popleft()
        d = dist[loc]
        if d >= limit:
            continue
        nbs = dry.get(loc)
        if nbs is None:
            nbs = dry[loc] = tuple(nb for nb in neighbours(ctx, loc) if nb[0] not in water)
        d += 1
        for nb in nbs:
            if nb not in dist:
                dist[nb] = d
                q.append(nb)
    return dist


class _Table:
    """Rows of hose steps, one per source location, all made together when first asked
    for (:meth:`_make`)."""

    def __init__(self, ctx: TurnContext, bound: int) -> None:
        import numpy as np

        self.locations = sorted(ctx.graph.locations)
        self.index = {loc: k for k, loc in enumerate(self.locations)}
        n = len(self.locations)
        self.bound = bound  # rows hold the steps up to here, FAR beyond
        self.rows = np.full((n, n), FAR, dtype=np.int16)
        self.made = False  # the rows are made (all at once)
        self.links: list[list[int]] | None = None  # the steps, by number (_links)

    def nearest(
        self,
        ctx: TurnContext,
        sources: Sequence[Location],
        targets: Sequence[Location],
        limit: int,
    ) -> dict[Location, int]:
        index = self.index
        try:
            rows = [index[s] for s in sources]
            cols = [index[t] for t in targets]
        except KeyError:  # a location off the map: answer the plain way
            dist = bfs_steps(ctx, sources, limit)
            return {t: dist[t] for t in targets if t in dist and dist[t] <= limit}
        if not self.made:
            self._make(ctx)
        # the sources' rows, then the targets' columns: two ``take`` calls cost less than
        # one fancy index by ``np.ix_`` (the same numbers)
        near = self.rows.take(rows, axis=0).take(cols, axis=1).min(axis=0).tolist()
        return {t: d for t, d in zip(targets, near, strict=True) if d <= limit}

    def _make(self, ctx: TurnContext) -> None:
        """Every row: :func:`bfs_steps` from each location, all sources at once, one
        breadth-first level at a time on bit sets (numpy words): ``reach[v]`` holds bit
        ``s`` when source ``s`` is within the steps so far of ``v``; a level ORs into
        each location the sets of the locations that step into it, and the sources new
        in ``reach[v]`` get that level's number in column ``v``. The same numbers as a
        search per row, whole-array work instead of a Python loop over every step of
        every row (the rows are wanted for almost every location in a run of games)."""
        import numpy as np

        links = self._links(ctx)
        n = len(links)
        words = (n + 63) // 64
        # who steps into each location, padded with ``n``: a row of ``reach`` kept empty
        into: list[list[int]] = [[] for _ in range(n)]
        for k, nbs in enumerate(links):
            for nb in nbs:
                into[nb].append(k)
        width = max((len(x) for x in into), default=0)
        pad = np.full((n, max(width, 1)), n, dtype=np.intp)
        for v, us in enumerate(into):
            pad[v, : len(us)] = us
        reach = np.zeros((n + 1, words), dtype="<u8")
        own = np.arange(n)
        reach[own, own // 64] = np.left_shift(np.uint64(1), (own % 64).astype(np.uint64))
        rows_t = self.rows.T  # rows_t[v, s]: the steps from s to v (a view)
        rows_t[own, own] = 0
        d = 0
        while d < self.bound:
            d += 1
            grown = np.bitwise_or.reduce(reach[pad], axis=1) | reach[:n]
            new = grown & ~reach[:n]
            if not new.any():
                break
            bits = np.unpackbits(new.view(np.uint8), axis=1, count=n, bitorder="little")
            rows_t[bits.view(bool)] = d
            reach[:n] = grown
        self.made = True

    def _links(self, ctx: TurnContext) -> list[list[int]]:
        """Each location's neighbours that are not water (:func:`bfs_steps`' steps), by number
        (a neighbour off the numbering is left out: no row holds it)."""
        if self.links is None:
            water = water_area_set(ctx)
            index = self.index
            self.links = [
                [index[nb] for nb in neighbours(ctx, loc) if nb[0] not in water and nb in index]
                for loc in self.locations
            ]
        return self.links


def _table(ctx: TurnContext, limit: int) -> _Table | None:
    """The map's table (None on a big map), made anew deeper if ``limit`` is beyond it."""
    memo: dict[str, _Table | None] = ctx.cache.setdefault(HOSE_STEPS, {})
    if "table" not in memo and len(ctx.graph.locations) > TABLE_MAX:
        memo["table"] = None
    if "table" in memo:
        table = memo["table"]
        if table is None or limit <= table.bound:
            return table
    rules = ctx.rules
    bound = max(limit, rules.int("hose.steps_per_length") * rules.int("hose.max_lengths"))
    table = memo["table"] = _Table(ctx, bound)
    return table
