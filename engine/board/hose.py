"""Hose reach over the map graph's locations (rules §7, §8): steps, ladders, water sources.

Pure functions over node ids and the graph's CSR arrays; :class:`~.graph.MapGraph` wraps
them in its ``hose_*`` and ``water_*`` methods. Hose never crosses water: ``water`` marks
the node ids it may not enter.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from .model import Area, AreaKind, FeatureType, Location, Scenario

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
#: node -> [(node, steps)]: links beside the graph's edges, with their cost in steps.
Links = dict[int, list[tuple[int, int]]]
#: hose.steps_per_length, hose.hydrant_lengths, hose.max_lengths when no ruleset can be read
FALLBACK_NUMBERS = (2, 1, 14)
DEFAULT_MAX_HOSE_LENGTHS = FALLBACK_NUMBERS[2]
_KEYS = ("steps_per_length", "hydrant_lengths", "max_lengths")


def hose_numbers(scenario: Scenario) -> tuple[int, int, int]:
    """(steps a length covers, lengths a hydrant takes to connect, the longest line that
    still gives pressure) from the scenario's ruleset with its house rules; from the plain
    ruleset, then :data:`FALLBACK_NUMBERS`, when those cannot be read (the checks report
    a bad ruleset or house rule themselves)."""
    from ..core.ruleset import load_ruleset, ruleset_data

    section: Any = None
    try:
        section = load_ruleset(scenario.ruleset, scenario.house_rules).get("hose")
    except Exception:
        try:
            section = ruleset_data("blitz").get("hose")
        except Exception:
            section = None
    out = []
    for key, fallback in zip(_KEYS, FALLBACK_NUMBERS, strict=True):
        value = section.get(key) if isinstance(section, dict) else None
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            out.append(int(value))
        else:
            out.append(fallback)
    per = out[0] if out[0] >= 1 else FALLBACK_NUMBERS[0]
    return per, out[1], out[2]


def max_hose_lengths(scenario: Scenario) -> int:
    """The longest hose line that still gives pressure (``hose.max_lengths``, see
    :func:`hose_numbers`)."""
    return hose_numbers(scenario)[2]


@overload
def line_lengths(steps: int, per: int, connect: int = 0) -> int: ...
@overload
def line_lengths(steps: IntArray, per: int, connect: int = 0) -> IntArray: ...
def line_lengths(steps: int | IntArray, per: int, connect: int = 0) -> int | IntArray:
    """§7: the lengths a hose line of ``steps`` hose steps takes, the one place this rule is
    written. Hose comes in indivisible lengths of ``per`` steps (``hose.steps_per_length``),
    and a line takes at least one, even a branch at the pump; ``connect`` more join the
    pump to its source (``hose.hydrant_lengths`` for a hydrant; open water is drawn by
    suction, 0). Elementwise on an array of steps (>= 0)."""
    laid = -(-steps // per)  # ceil(steps / per), for ints and arrays alike
    return laid + (laid < 1) + connect


def water_sources(scenario: Scenario) -> list[tuple[Location, bool]]:
    """(location, is a hydrant) of every source giving water: hydrants while the mains
    work, and open water, in feature order."""
    out: list[tuple[Location, bool]] = []
    for f in scenario.features:
        if f.type is FeatureType.HYDRANT and scenario.mains != "failed":
            out.append(((f.area, 0), True))
        elif f.type is FeatureType.WATER:
            out.append(((f.area, 0), False))
    return out


def bfs(
    indptr: IntArray, indices: IntArray, water: BoolArray, starts: list[tuple[int, int]]
) -> tuple[IntArray, IntArray]:
    """(steps, label) per node from ``starts`` = [(node, label)], one step per edge; -1
    where nothing reaches. Ties go to the earlier start."""
    ptr, idx, wet = indptr.tolist(), indices.tolist(), water.tolist()
    dist, label = [-1] * len(wet), [-1] * len(wet)
    queue: deque[int] = deque()
    for n, k in starts:
        if dist[n] < 0:
            dist[n], label[n] = 0, k
            queue.append(n)
    while queue:
        n = queue.popleft()
        nd, lab = dist[n] + 1, label[n]
        for m in idx[ptr[n] : ptr[n + 1]]:
            if dist[m] < 0 and not wet[m]:
                dist[m], label[m] = nd, lab
                queue.append(m)
    return np.array(dist, dtype=np.int64), np.array(label, dtype=np.int64)


def dijkstra(
    indptr: IntArray,
    indices: IntArray,
    water: BoolArray,
    starts: list[tuple[int, int]],
    extra: Links,
) -> tuple[IntArray, IntArray]:
    """As :func:`bfs`, with ``extra`` links of their own cost beside the unit-cost edges."""
    ptr, idx, wet = indptr.tolist(), indices.tolist(), water.tolist()
    dist, label = [-1] * len(wet), [-1] * len(wet)
    heap = [(0, k, n) for n, k in starts]
    heapq.heapify(heap)
    while heap:
        d, k, n = heapq.heappop(heap)
        if dist[n] >= 0:
            continue
        dist[n], label[n] = d, k
        for m in idx[ptr[n] : ptr[n + 1]]:
            if dist[m] < 0 and not wet[m]:
                heapq.heappush(heap, (d + 1, k, m))
        for m, w in extra.get(n, ()):
            if dist[m] < 0 and not wet[m]:
                heapq.heappush(heap, (d + w, k, m))
    return np.array(dist, dtype=np.int64), np.array(label, dtype=np.int64)


def ladder_hose_links(
    areas: Sequence[Area],
    adjacency: dict[int, dict[int, float]],
    levels: tuple[IntArray, IntArray],
    first_node: IntArray,
    rating: int,
) -> Links:
    """From a street/open area's level 0 up a ladder of ``rating`` into the levels
    1..rating of each adjacent building area (1 step in and 1 per level), and back.

    These are *hose steps* up a ladder that could be pitched, for the map's hose reach (the
    checks): a line climbing to level n runs 1 step into the building and n up. Not the
    same cost as ``games/blitz/reach/foot.py``'s ``ladder_links``, which are *movement
    points* for a stand climbing a ladder actually pitched (n to reach level n).

    ``levels`` is (lowest, highest) level by area index, ``first_node`` the node id of each
    area's lowest level.
    """
    lo, hi = levels
    links: Links = {}
    for i, a in enumerate(areas):
        if a.kind is not AreaKind.BUILDING or hi[i] < 1:
            continue
        for j in adjacency.get(i, {}):
            if areas[j].kind not in (AreaKind.STREET, AreaKind.OPEN):
                continue
            foot = int(first_node[j])
            for lvl in range(1, min(int(hi[i]), rating) + 1):
                up = int(first_node[i] - lo[i] + lvl)
                links.setdefault(foot, []).append((up, 1 + lvl))
                links.setdefault(up, []).append((foot, 1 + lvl))
    return links


def sources_reach(
    sources: list[tuple[Location, bool]],
    search: Callable[[list[Location]], tuple[IntArray, IntArray]],
    water: BoolArray,
    per: int,
    hyd: int,
) -> tuple[IntArray, IntArray]:
    """(lengths, source) per node: hose lengths (:func:`line_lengths`: ``per`` steps a
    length, ``hyd`` more to connect a hydrant) from the best of ``sources`` (see :func:`water_sources`) and its
    index there; -1 where none reaches, and on water.

    ``search(locations)`` gives (steps, index into locations) per node, as
    :meth:`~.graph.MapGraph.hose_search` does. A hydrant's appliance stands in the
    hydrant's area; an open-water pump stands on a bank, so a bank needs no length.
    """
    n = len(water)
    best, best_src = np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64)
    for hydrant in (True, False):
        picked = [k for k, (_, h) in enumerate(sources) if h == hydrant]
        if not picked:
            continue
        steps, lab = search([sources[k][0] for k in picked])
        ok = steps >= 0
        if not hydrant:  # a pump on a bank: the bank is step 0
            ok &= steps >= 1
            steps = steps - 1
        lengths = np.where(ok, line_lengths(steps, per, hyd if hydrant else 0), -1)
        better = ok & ((best < 0) | (lengths < best))
        best[better] = lengths[better]
        best_src[better] = np.array(picked, dtype=np.int64)[lab[better]]
    best[water] = -1
    best_src[water] = -1
    return best, best_src
