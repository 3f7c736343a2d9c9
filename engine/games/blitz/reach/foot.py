"""Where a stand can step and the cheapest way there: foot links (areas, stairs, pitched
ladders) and the bounded Dijkstra over them (:func:`foot_search`)."""

from __future__ import annotations

import heapq
from bisect import insort
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final, cast

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..memos import (
    FOOT_LINKS,
    FOOT_NUMBERED,
    HEAT_MEMO,
    LADDER_UNITS,
    NEIGHBOURS,
    PASSABLE_NUMBERED,
    SEARCH_MEMO,
)
from ..state import GameState
from ..units import Ladder, UnitState
from .danger import area_kind, heat, neighbours

#: a foot link: (neighbour, movement cost, hose steps, laying cost, kind)
Link = tuple[Location, int, int, int, str]


# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_KIND_WATER: Final = AreaKind.WATER


# -- foot links -------------------------------------------------------------------------------
def ladder_links(
    state: GameState, ctx: TurnContext | None = None
) -> dict[Location, list[tuple[Location, int]]]:
    """Links given by pitched, ready ladders: street (at, 0) <-> (face, level), by level
    (with ``ctx``, the same dict as the last call while the ready ladders stay as they
    were: read it, do not change it)."""
    pairs, ladders, last = _ladders(state, ctx)
    # the ladders set against a face (an area id is never empty): most are not pitched;
    # Ladder.ready, inline, for the rest, the unit's own state last (compiled, a ladder's
    # fields are read in place: a plain loop beats a scan by attrgetter)
    ready: list[tuple[int, str, str, int]] = []
    for i, ld in enumerate(ladders):
        at = ld.at
        if not at:
            continue
        face = ld.face
        if face is None or ld.pitch_left != 0 or ld.height <= 0:
            continue
        if not pairs[i][0].in_play:
            continue
        ready.append((i, at, face, ld.height))
    # the links follow from the ready ladders alone (which, where and how high): the last
    # call's links while they are the same (most calls: ladders go up a few times a game)
    if last is not None and last[0] == ready:
        kept: dict[Location, list[tuple[Location, int]]] = last[1]
        return kept
    out: dict[Location, list[tuple[Location, int]]] = {}
    for _i, at, face, height in ready:
        foot = (at, 0)
        for lvl in range(1, height + 1):
            top = (face, lvl)
            out.setdefault(foot, []).append((top, lvl))
            out.setdefault(top, []).append((foot, lvl))
    if last is not None:
        last[:] = [ready, out]
    return out


#: every ladder with the unit carrying it, the ladders alone (the same order), and the
#: last ready ladders with their links (kept with the game's cache; else None)
_Ladders = tuple[list[tuple[UnitState, Ladder]], list[Ladder], list[Any] | None]


def _ladders(state: GameState, ctx: TurnContext | None) -> _Ladders:
    """Every ladder with the unit carrying it, by unit then in the unit's order (a unit's
    ladders are its own for the whole game), and the ladders alone, remembered in the
    game's cache when there is one (with a holder for :func:`ladder_links`' last answer,
    made anew with the list)."""
    if ctx is None:
        pairs = [(u, ld) for u in state.units.values() for ld in u.ladders]
        return pairs, [ld for _, ld in pairs], None
    hit = ctx.cache.get(LADDER_UNITS)
    if hit is None or hit[0] is not state.units or hit[1] != len(state.units):
        pairs = [(u, ld) for u in state.units.values() for ld in u.ladders]
        hit = (state.units, len(state.units), (pairs, [ld for _, ld in pairs], [None, None]))
        ctx.cache[LADDER_UNITS] = hit
    ladders: _Ladders = hit[2]
    return ladders


def foot_links(
    ctx: TurnContext,
    loc: Location,
    ladders: dict[Location, list[tuple[Location, int]]],
) -> list[Link]:
    """Where a stand can step from ``loc`` (never into water), with its costs."""
    r = ctx.rules
    static: dict[Location, list[Link]] | None = ctx.cache.get(FOOT_LINKS)
    if static is None:
        static = ctx.cache[FOOT_LINKS] = {}
    out = static.get(loc)
    if out is None:
        out = static[loc] = _static_links(ctx, loc)
    extra = ladders.get(loc)
    if not extra:
        return out
    out = list(out)
    ladder_pts = r.int("movement.ladder")
    lay_area, lay_ladder = r.int("hose.lay_area"), r.int("hose.lay_ladder")
    for nb, lvl in extra:
        # on foot 2 points a level, the step into the area included (level 3 in a turn)
        out.append((nb, ladder_pts * lvl, 1 + lvl, lay_area + lay_ladder * lvl, "ladder"))
    return out


def _static_links(ctx: TurnContext, loc: Location) -> list[Link]:
    """Links of the map itself (areas and stairs), kept for the whole game."""
    r, g = ctx.rules, ctx.graph
    area_pts, stair_pts = r.int("movement.area"), r.int("movement.stairs")
    lay_area, lay_stairs = r.int("hose.lay_area"), r.int("hose.lay_stairs")
    out: list[Link] = []
    for nb in g.horizontal(loc):
        if area_kind(ctx, nb[0]) is not _KIND_WATER:
            out.append((nb, area_pts, 1, lay_area, "area"))
    for nb in g.vertical(loc):
        out.append((nb, stair_pts, 1, lay_stairs, "stairs"))
    return out


def passable(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """A stand may plan to step here: not burning, not sure to fail the heat test."""
    return loc not in state.fire and heat(ctx, state, loc) < ctx.rules.int("heat.always_fail_min")


def foot_search(
    ctx: TurnContext,
    state: GameState,
    start: Location,
    budget: int | None = None,
    *,
    weight: int = 1,
    ok: Callable[[Location], bool] | None = None,
    ladders: dict[Location, list[tuple[Location, int]]] | None = None,
    goal: Location | None = None,
    goals: Collection[Location] | None = None,
    ok_key: Hashable | None = None,
) -> tuple[dict[Location, int], Mapping[Location, Location]]:
    """Cheapest foot costs from ``start`` (weight 1: movement points, 2: hose steps,
    3: laying points) within ``budget``, stopping early once ``goal`` (or the first of
    ``goals``, which is then the one :func:`nearest` picks) is settled; returns (cost,
    previous location). ``ok_key`` names the test ``ok`` makes (one name, one test, as
    long as fire and heat stay as they are): a search with a named test is remembered in
    step 6 like a plain one.

    After an early stop only the locations settled before it have final costs. In step 6
    a goal search may hand back an earlier search from the same place that settled the
    goal (it reaches further): ask a goal search only whether the goal was reached, and
    by which path (:func:`path_to`)."""
    memo: dict[Any, Any] | None = None
    key: Any = None
    if ladders is None:
        ladders = ladder_links(state, ctx)
        memo = ctx.cache.get(SEARCH_MEMO) if ok is None or ok_key is not None else None
        if memo is not None:
            # step 6 (fire fixed): the same search on the same ladders gives the same answer
            # (mostly the very same links: :func:`ladder_links` keeps its last answer)
            known = memo.get("ladders")
            if known is not ladders and known != ladders:
                memo.clear()
                memo["ladders"] = ladders
            key = (start, budget, weight, goal, None if goals is None else frozenset(goals))
            if ok is not None:
                key = (*key, ok_key)
            hit = memo.get(key)
            if hit is not None:
                return hit  # type: ignore[no-any-return]
            if ok is not None:
                pass  # only a plain search is reused for another question
            elif goal is not None and goals is None:
                # an earlier search from here that settled ``goal``: the path to it is the
                # one this search would find (both settle in the same (cost, id) order up
                # to it); callers of a goal search only ask whether it is reached, and how
                for done in memo.get(("from", start, weight), ()):
                    if _settled(done, goal) and (budget is None or done[0][goal] <= budget):
                        memo[key] = out = (done[0], done[1])
                        return out
            if weight == 2 and budget is not None and goal is None and goals is None:
                # a wider search from here: its costs within this budget are this search's
                # (costs are positive, so they were settled in the same order; only the
                # dict's order may differ, and hose searches are only looked up)
                wider = memo.get(("wider", start))
                if wider is not None and wider[0] >= budget:
                    out = ({x: c for x, c in wider[1].items() if c <= budget}, wider[2])
                    memo[key] = out
                    return out
    # (in step 6 the search tests passability inline, with the step's memos)
    can: Callable[[Location], bool] = ok if ok is not None else partial(passable, ctx, state)
    col = weight if weight in (1, 2) else 3  # the link's cost field for this weight
    limit = budget if budget is not None else 1 << 60
    # a named test's answers by location number, kept for the step like passing's: one
    # name, one test, while fire and heat stay as they are
    answers: list[Any] | None = None
    if memo is not None and ok is not None:
        answers = memo.setdefault(("answers", ok_key), [None, None])
    dist, prev, stop = _search(
        ctx, state, start, limit, col, can, ok is None, ladders, goal, goals, None, answers
    )
    if memo is not None:
        memo[key] = (dist, prev)  # callers only read the answer
        if ok is not None:
            return dist, prev
        memo.setdefault(("from", start, weight), []).append((dist, prev, stop))
        if weight == 2 and budget is not None and goal is None and goals is None:
            wider = memo.get(("wider", start))
            if wider is None or wider[0] < budget:
                memo[("wider", start)] = (budget, dist, prev)
    return dist, prev


def first_goal(
    ctx: TurnContext,
    state: GameState,
    start: Location,
    budget: int,
    goals: Collection[Location],
    accept: Callable[[Location], bool],
) -> Location | None:
    """The nearest of ``goals`` within ``budget`` movement points (ties by location) that
    ``accept`` takes: what :func:`nearest` picks from a :func:`foot_search` for the goals
    ``accept`` takes, with ``accept`` asked only of the goals the search settles before it
    stops (the question is the dear part, and most goals are never the nearest)."""
    ladders = ladder_links(state, ctx)
    can = partial(passable, ctx, state)
    found = _search(ctx, state, start, budget, 1, can, True, ladders, None, goals, accept)
    memo: dict[Any, Any] | None = ctx.cache.get(SEARCH_MEMO)
    if memo is not None:
        # a plain search up to where it stopped: a walk to what it settled reuses it
        known = memo.get("ladders")
        if known is not ladders and known != ladders:
            memo.clear()
            memo["ladders"] = ladders
        memo.setdefault(("from", start, 1), []).append(found)
    return found[2]


_Found = tuple[dict[Location, int], Mapping[Location, Location], Location | None]


@dataclass
class _Numbered:
    """The map's locations numbered in sorted order (so that (cost, number) pops in the
    same order as (cost, location)), with the foot links between numbers by weight."""

    ids: dict[Location, int]
    locs: list[Location]
    #: by the link's cost field: each number's links as (neighbour, cost) pairs in one flat
    #: list (made when first asked)
    links: dict[int, list[list[int] | None]]
    #: frozen goal sets seen, numbered
    goal_sets: dict[frozenset[Location], frozenset[int]] = field(default_factory=dict)
    #: by the link's cost field: each number's neighbours by the map's own links when every
    #: one of them costs 1 (a search without ladders is then breadth-first), else None
    steps: dict[int, list[list[int]] | None] = field(default_factory=dict)
    #: lists of False by number, for :func:`_breadth_first`'s "reached" (each handed back
    #: all False again; a search inside another one's test takes another)
    unreached: list[list[bool]] = field(default_factory=list)


def _numbered(ctx: TurnContext, more: Iterable[Location] = ()) -> _Numbered:
    """The map's numbering, made anew (still in sorted order) when ``more`` holds a
    location it lacks (a start or ladder top off the map: only odd hand-made states)."""
    memo: dict[str, _Numbered] = ctx.cache.setdefault(FOOT_NUMBERED, {})
    hit = memo.get("map")
    missing = [x for x in more if hit is None or x not in hit.ids]
    if hit is None or missing:
        known = hit.locs if hit is not None else ctx.graph.locations
        locs = sorted({*known, *missing})
        hit = memo["map"] = _Numbered({loc: k for k, loc in enumerate(locs)}, locs, {})
    return hit


def _search(
    ctx: TurnContext,
    state: GameState,
    start: Location,
    limit: int,
    col: int,
    can: Callable[[Boxed], bool],
    plain: bool,
    ladders: dict[Location, list[tuple[Location, int]]],
    goal: Location | None,
    goals: Collection[Location] | None,
    accept: Callable[[Boxed], bool] | None = None,
    answers: list[Any] | None = None,
) -> _Found:
    """:func:`foot_search`'s Dijkstra, on location numbers: they sort as the locations do,
    so (cost, number) settles locations in (cost, location) order, with cheaper keys; the
    answer in locations. Without ladders on a map whose links all cost 1 at this weight
    (all three weights on the standard rules) it is :func:`_breadth_first`. ``answers``:
    a holder (numbering, answers by number) of ``can``'s answers kept by the caller (a
    named test in step 6), for a search that is not ``plain``."""
    hit: dict[str, _Numbered] | None = ctx.cache.get(FOOT_NUMBERED)
    numbered = None if hit is None else hit.get("map")
    if numbered is None or start not in numbered.ids or not numbered.ids.keys() >= ladders.keys():
        numbered = _numbered(ctx, [start, *ladders])
    # locations read as objects (:data:`Boxed`): no tuple is made anew at each look-up
    ids: dict[Boxed, int] = numbered.ids
    locs: list[Boxed] = numbered.locs
    fire: dict[Boxed, int] = state.fire
    heats: dict[Boxed, int] | None = ctx.cache.get(HEAT_MEMO)
    inline = plain and heats is not None
    # passable by number (None: not asked yet), a list read by index
    checked: list[bool | None]
    holder: list[Any] | None = ctx.cache.get(PASSABLE_NUMBERED) if inline else None
    if not plain:
        holder = answers
    if holder is not None:  # step 6: kept for the step, for this numbering
        if holder[0] is not numbered:
            holder[:] = [numbered, [None] * len(locs)]
        checked = holder[1]
    else:
        checked = [None] * len(locs)
    s = ids[start]
    g = -1 if goal is None else ids.get(goal, -1)
    gs: Collection[int] | None = None
    if isinstance(goals, frozenset):  # the map's own sets (refill points): numbered once
        gs = numbered.goal_sets.get(goals)
        if gs is None:
            gs = numbered.goal_sets[goals] = frozenset(ids[x] for x in goals if x in ids)
    elif goals is not None:
        boxed: Collection[Boxed] = goals
        gs = {ids[x] for x in boxed if x in ids}
    # (in step 6 passing is read off the step's heat memo by :func:`_passes`, not asked
    # of ``can``: ``heats`` None asks ``can``)
    test = can
    if not inline:
        heats = None
    nbs: dict[Boxed, list[Boxed]] | None = ctx.cache.get(NEIGHBOURS) if inline else None
    fail = ctx.rules.int("heat.always_fail_min")
    if not ladders:
        steps = _steps(ctx, numbered, col)
        if steps is not None:
            return _breadth_first(
                ctx, numbered, steps, s, limit, checked, test, g, gs, accept, fire, heats, nbs, fail
            )
    table = numbered.links.get(col)
    if table is None:
        table = numbered.links[col] = [None] * len(locs)
    lad = {ids[x] for x in ladders}
    # costs by number in a list (a cost above ``limit``: not reached), and the numbers in
    # the order they were first reached (the answer's order, as a dict filled here had)
    far = limit + 1
    dist: list[int] = [far] * len(locs)
    dist[s] = 0
    order = [s]
    prev: dict[int, int] = {}
    # Dial's bucket queue: costs are small whole numbers, so the locations to settle wait
    # in one list per cost, and each list is settled in number order when its turn comes:
    # the (cost, number) order of a heap, without a heap entry per step
    buckets: dict[int, list[int]] = {0: [s]}
    costs: list[int] = [0]
    stop = -1
    # (every value below is typed: compiled, a value read off a list of unknown type, or
    # a variable that may be None, is worked on through the generic object protocol)
    while costs and stop < 0:
        d: int = heapq.heappop(costs)
        bucket = buckets.pop(d)
        bucket.sort()
        i = 0
        while i < len(bucket):  # (by index: a link that costs nothing adds to it)
            k = bucket[i]
            i += 1
            if d > dist[k]:
                continue
            if k == g or (gs is not None and k in gs and (accept is None or accept(locs[k]))):
                stop = k
                break
            row: list[int]
            if lad and k in lad:
                row = _row(ids, foot_links(ctx, locs[k], ladders), col)
            else:
                known = table[k]
                if known is None:
                    known = table[k] = _row(ids, foot_links(ctx, locs[k], {}), col)
                row = known
            j = 0
            while j < len(row):  # (neighbour, cost) pairs, flat
                nb = row[j]
                nd = d + row[j + 1]
                j += 2
                if nd < dist[nb]:  # (never above ``limit``: an unreached cost is limit + 1)
                    good = checked[nb]
                    if good is None:
                        x = locs[nb]
                        good = checked[nb] = (
                            test(x) if heats is None else _passes(ctx, fire, heats, nbs, fail, x)
                        )
                    if good:
                        if dist[nb] == far:
                            order.append(nb)
                        dist[nb] = nd
                        prev[nb] = k
                        if nd == d:
                            # a link that costs nothing (a house rule) adds to the list being
                            # walked, after the current place in number order (``i``: the
                            # place after ``k``, the only entry for it in the list)
                            insort(bucket, nb, lo=i)
                            continue
                        later = buckets.get(nd)
                        if later is None:
                            buckets[nd] = [nb]
                            heapq.heappush(costs, nd)
                        else:
                            later.append(nb)
    out: dict[Boxed, int] = {locs[k]: dist[k] for k in order}
    return out, _Previous(prev, ids, locs), None if stop < 0 else locs[stop]


#: a location kept as the object it is (a ``Location`` tuple), for the searches' inner
#: loops: compiled (mypyc), a value typed ``tuple[str, int]`` is unpacked into its two
#: fields, and each dict or set look-up, call or store then makes a new tuple of them
Boxed = Any


def _passes(
    ctx: TurnContext,
    fire: dict[Boxed, int],
    heats: dict[Boxed, int],
    nbs: dict[Boxed, list[Boxed]] | None,
    fail: int,
    loc: Boxed,
) -> bool:
    """:func:`passable` in step 6, on the step's heat memo (fire does not change in it):
    :func:`.danger.heat`, inline, the neighbours read off their memo (``nbs``) when it
    holds them."""
    if loc in fire:
        return False
    h = heats.get(loc)
    if h is None:
        near: list[Boxed] | None = nbs.get(loc) if nbs is not None else None
        if near is None:
            near = neighbours(ctx, loc)
        h = 0
        for nb in near:
            f = fire.get(nb)
            if f is not None:
                h += f
        heats[loc] = h
    return h < fail


def _steps(ctx: TurnContext, numbered: _Numbered, col: int) -> list[list[int]] | None:
    """Each number's neighbours by the map's own links, when all of them cost 1 at the
    cost field ``col`` (else None), made once per numbering and field."""
    if col in numbered.steps:
        return numbered.steps[col]
    ids = numbered.ids
    rows = [_with_costs(foot_links(ctx, loc, {}), col) for loc in numbered.locs]
    unit = all(c == 1 for row in rows for _, c in row)
    out = numbered.steps[col] = [[ids[x] for x, _ in row] for row in rows] if unit else None
    return out


def _breadth_first(
    ctx: TurnContext,
    numbered: _Numbered,
    steps: list[list[int]],
    s: int,
    limit: int,
    checked: list[bool | None],
    test: Callable[[Boxed], bool],
    g: int,
    gs: Collection[int] | None,
    accept: Callable[[Boxed], bool] | None,
    fire: dict[Boxed, int],
    heats: dict[Boxed, int] | None,
    nbs: dict[Boxed, list[Boxed]] | None,
    fail: int,
) -> _Found:
    """:func:`_search` when every link costs 1: one level at a time, each level in number
    order. A location is first reached at its least cost, from the first location of the
    level before (in number order) that reaches it, so the costs, the order first reached,
    the previous locations and where it stops are the Dijkstra's. Passing is asked of
    ``test``, or with ``heats`` of :func:`_passes`."""
    locs: list[Boxed] = numbered.locs
    spare = numbered.unreached
    seen = spare.pop() if spare else [False] * len(locs)
    seen[s] = True
    out: dict[Boxed, int] = {locs[s]: 0}
    prev: dict[int, int] = {}
    level = [s]
    d = 0
    stop = -1
    look = g >= 0 or gs is not None
    while level:
        level.sort()
        d += 1  # the next level's cost
        grow = d <= limit
        if not (grow or look):
            break
        nxt: list[int] = []
        for k in level:
            if look and (
                k == g or (gs is not None and k in gs and (accept is None or accept(locs[k])))
            ):
                stop = k
                break
            if grow:
                for nb in steps[k]:
                    if not seen[nb]:
                        good = checked[nb]
                        if good is None:
                            x = locs[nb]
                            good = checked[nb] = (
                                test(x)
                                if heats is None
                                else _passes(ctx, fire, heats, nbs, fail, x)
                            )
                        if good:
                            seen[nb] = True
                            out[locs[nb]] = d
                            prev[nb] = k
                            nxt.append(nb)
        if stop >= 0 or not grow:
            break
        level = nxt
    seen[s] = False
    for k in prev:
        seen[k] = False
    spare.append(seen)
    return out, _Previous(prev, numbered.ids, locs), None if stop < 0 else locs[stop]


class _Previous(Mapping[Location, Location]):
    """A search's previous-location map, read in locations off the numbers the search
    kept (most searches are asked only their costs: no dict of locations is made)."""

    __slots__ = ("_ids", "_locs", "_prev")

    def __init__(self, prev: dict[int, int], ids: dict[Location, int], locs: list[Location]):
        self._prev, self._ids, self._locs = prev, ids, locs

    def __getitem__(self, loc: Location) -> Location:
        k = self._ids.get(loc)
        if k is None or k not in self._prev:
            raise KeyError(loc)
        return self._locs[self._prev[k]]

    def __iter__(self) -> Iterator[Location]:
        locs = self._locs
        return (locs[k] for k in self._prev)

    def __len__(self) -> int:
        return len(self._prev)


def _settled(done: _Found, goal: Location) -> bool:
    """Whether a finished search (cost, previous, where it stopped early or None) settled
    ``goal``: all it reached if it ran out, else what it popped before stopping."""
    dist, _prev, stop = done
    d = dist.get(goal)
    if d is None:
        return False
    return stop is None or (d, goal) <= (dist[stop], stop)


def _row(ids: dict[Location, int], links: list[Link], col: int) -> list[int]:
    """:func:`_with_costs` on numbers, flat: neighbour, cost, neighbour, cost..."""
    out: list[int] = []
    for x, c in _with_costs(links, col):
        out.append(ids[x])
        out.append(c)
    return out


def _with_costs(links: list[Link], col: int) -> list[tuple[Location, int]]:
    """(neighbour, cost) of each link, the cost from field ``col`` (1 movement points,
    2 hose steps, 3 laying points)."""
    return [(link[0], cast(int, link[col])) for link in links]


def path_to(prev: Mapping[Location, Location], start: Location, goal: Location) -> list[Location]:
    """The path start..goal (inclusive) from a search's previous-location map."""
    out = [goal]
    while out[-1] != start:
        out.append(prev[out[-1]])
    out.reverse()
    return out


def link_between(ctx: TurnContext, state: GameState, a: Location, b: Location) -> Link | None:
    """The foot link from ``a`` to ``b`` if they are next to each other."""
    for link in foot_links(ctx, a, ladder_links(state, ctx)):
        if link[0] == b:
            return link
    return None


def nearest(dist: dict[Location, int], goals: Iterable[Location]) -> tuple[Location | None, int]:
    """The goal with the least cost (ties by location id)."""
    best: tuple[int, Location] | None = None
    for g in goals:
        d = dist.get(g)
        if d is not None and (best is None or (d, g) < best):
            best = (d, g)
    return (None, -1) if best is None else (best[1], best[0])
