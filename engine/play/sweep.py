"""Balance sweeps: ``fireground sweep`` (issue 18).

A sweep plays the same full autopilot games as ``analyze`` for every combination of a few
varied values (house rules such as ``growth.on``, or scenario keys such as
``forces.GA1.count``, ``start.fires``, ``wind.strong``) and reports each objective's chance
per variant, so that a designer can see which settings make each objective a fair fight.

* **Common random numbers**: every variant plays the same game seeds (``game_seeds(seed,
  games)``), so two variants differ by what was varied, not by luck.
* **Work units** are chunks of :data:`~.analysis_games.FULL_CHUNK` seeds of one variant,
  keyed by (variant, first game); a result is stored under its key, so a chunk played twice
  (a retry after a lost worker) is never counted twice, and the variants' games are joined
  in seed order: the numbers do not depend on where or in which order the chunks ran.
* **Shared preparation**: variants that differ only in their forces, start fires,
  objectives or length (the things the map-and-rules memos of :data:`.turn.SHARED_MEMOS`
  never read) share one graph, ruleset and set of memos in each worker process.

The chunks run on local processes here, or on a Dask cluster (:mod:`.sweep_cluster`).
"""

from __future__ import annotations

import itertools
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..board.graph import build_graph
from ..board.model import COMPASS, ForceUnit, LocationValue, Objective, Scenario, Start, Wind
from ..core.errors import UsageError
from ..core.ruleset import RulesetError, load_ruleset, unit_types
from ..core.yamlsafe import resolve_plain
from .montecarlo import FULL_CHUNK, Outcomes, game_seeds, join_parts, play_full
from .report import ObjectiveStat, objective_label, wilson

#: the scenario keys a sweep can vary (everything else is a house rule of the ruleset)
SCENARIO_KEYS = (
    "turns",
    "bombing",
    "mains",
    "wind.from",
    "wind.strong",
    "forces.ID.count",
    "forces.TYPE.count",
    "forces.ID.arrives",
    "start.fires",
    "start.fires.AREA.LEVEL",
    "objectives.N.at_least",
    "objectives.N.max_destroyed",
)
#: more variants than this is surely a slip (each plays every game)
MAX_VARIANTS = 1000
#: the longest game the format allows (``turns`` in model_schema)
MAX_TURNS = 500

Progress = Callable[[int], None]


# -- the varied values ---------------------------------------------------------------------
@dataclass(frozen=True)
class Vary:
    """One ``--vary KEY=V1,V2,...``: the key and the values as typed."""

    key: str
    values: tuple[str, ...]


def parse_vary(text: str) -> Vary:
    """``KEY=V1,V2,...`` -> :class:`Vary`; :class:`UsageError` for a malformed one."""
    key, eq, rest = text.partition("=")
    key = key.strip()
    if not eq or not key:
        raise UsageError(f"--vary {text}: expected KEY=V1,V2,... (e.g. --vary growth.on=5,6)")
    values = tuple(v.strip() for v in rest.split(","))
    if not rest.strip() or any(not v for v in values):
        raise UsageError(f"--vary {text}: a value is empty (give KEY=V1,V2,...)")
    dup = next((v for v in values if values.count(v) > 1), None)
    if dup is not None:
        raise UsageError(f"--vary {text}: the value {dup!r} is given twice")
    return Vary(key, values)


def _int(where: str, raw: str, low: int, high: int | None = None) -> int:
    v = resolve_plain(raw)
    if isinstance(v, bool) or not isinstance(v, int):
        raise UsageError(f"{where}: {raw!r} is not a whole number")
    if v < low or (high is not None and v > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise UsageError(f"{where}: {v} is out of range ({span})")
    return v


def _bool(where: str, raw: str) -> bool:
    v = resolve_plain(raw)
    if not isinstance(v, bool):
        raise UsageError(f"{where}: {raw!r} is not true or false")
    return v


def _forces(s: Scenario, where: str, name: str, attr: str, raw: str) -> Scenario:
    units = list(s.forces)
    by_id = [u for u in units if u.id == name]
    of_type = [u for u in units if u.type == name]
    if not by_id and name not in unit_types(s.ruleset):
        known = ", ".join(u.id for u in units) or "none"
        raise UsageError(
            f"{where}: no unit or unit type {name!r} (units: {known}; types: "
            f"{', '.join(unit_types(s.ruleset))})"
        )
    chosen = by_id or of_type
    if attr == "arrives":
        n = _int(where, raw, 1, MAX_TURNS)
        if not chosen or any(u.entry is None for u in chosen):
            raise UsageError(
                f"{where}: {name} does not arrive from an entry (it starts on the map)"
            )
        return replace(s, forces=tuple(replace(u, arrives=n) if u in chosen else u for u in units))
    if attr != "count":
        raise UsageError(f"{where}: a force's key is count or arrives, not {attr!r}")
    n = _int(where, raw, 0, 100)
    if by_id:  # copies of that unit
        keep, model, copies = (by_id if n else []), by_id[0], n - 1
    else:  # that many units of the type: the first ones, or copies of the last
        if n > len(of_type) and not of_type:
            raise UsageError(f"{where}: the scenario has no {name} to copy; add one first")
        keep, copies = of_type[:n], n - len(of_type)
        model = of_type[-1] if of_type else ForceUnit("", name)
    taken = {u.id for u in units}
    extra: list[ForceUnit] = []
    for _ in range(copies):
        k = 2
        while f"{model.id}-{k}" in taken:
            k += 1
        taken.add(f"{model.id}-{k}")
        extra.append(replace(model, id=f"{model.id}-{k}"))
    out: list[ForceUnit] = []
    for u in units:
        if u in chosen and u not in keep:
            continue
        out.append(u)
        if u == model:
            out.extend(extra)
    return replace(s, forces=tuple(out))


def _start_fires(s: Scenario, where: str, rest: list[str], raw: str) -> Scenario:
    fires = s.start.fires
    if not rest:
        n = _int(where, raw, 0, len(fires))
        return replace(s, start=replace(s.start, fires=fires[:n]))
    if len(rest) < 2:
        raise UsageError(f"{where}: give the location as start.fires.AREA.LEVEL")
    area, level_text = ".".join(rest[:-1]), rest[-1]
    if area not in s.area_by_id:
        raise UsageError(f"{where}: no area {area!r} in the scenario")
    level = _int(where, level_text, -10, 10)
    if level not in s.levels_of(area):
        raise UsageError(f"{where}: area {area} has no level {level}")
    top = int(load_ruleset(s.ruleset, dict(s.house_rules)).int("fire.max"))
    v = _int(where, raw, 0, top)
    kept = tuple(f for f in fires if f.location != (area, level))
    if v:
        new = LocationValue(area, level, v)
        placed = len(kept) < len(fires)  # already burning there: keep its place in the list
        kept = (
            tuple(new if f.location == new.location else f for f in fires)
            if placed
            else (*kept, new)
        )
    return replace(s, start=replace(s.start, fires=kept))


def _objectives(s: Scenario, where: str, rest: list[str], raw: str) -> Scenario:
    objs = list(s.objectives)
    if len(rest) != 2:
        raise UsageError(f"{where}: give objectives.N.at_least or objectives.N.max_destroyed")
    k = _int(where, rest[0], 1, max(len(objs), 1)) if objs else 0
    if not objs:
        raise UsageError(f"{where}: the scenario has no objectives")
    o: Objective = objs[k - 1]
    need = {"at_least": "rescue", "max_destroyed": "contain"}.get(rest[1])
    if need is None:
        raise UsageError(f"{where}: an objective's key is at_least or max_destroyed")
    if o.type != need:
        raise UsageError(f"{where}: objective {k} is {o.type}; {rest[1]} belongs to {need}")
    n = _int(where, raw, 0)
    objs[k - 1] = replace(o, at_least=n) if need == "rescue" else replace(o, max_destroyed=n)
    return replace(s, objectives=tuple(objs))


def apply_value(scenario: Scenario, key: str, raw: str) -> Scenario:
    """``scenario`` with ``key`` set to the value typed as ``raw``; :class:`UsageError`
    (its message starting ``--vary KEY=VALUE:``) for an unknown key or an unfit value."""
    where = f"--vary {key}={raw}"
    parts = key.split(".")
    s = scenario
    if key == "turns":
        return replace(s, turns=_int(where, raw, 0, MAX_TURNS))
    if key == "bombing":
        return replace(s, bombing=_bool(where, raw))
    if key == "mains":
        if raw not in ("working", "failed"):
            raise UsageError(f"{where}: mains is working or failed")
        return replace(s, mains=raw)
    if key == "wind.from":
        if raw.lower() in ("calm", "none"):
            return replace(s, wind=replace(s.wind, from_=None))
        if raw.upper() not in COMPASS:
            raise UsageError(f"{where}: the wind blows from one of {', '.join(COMPASS)} or calm")
        return replace(s, wind=replace(s.wind, from_=raw.upper()))
    if key == "wind.strong":
        return replace(s, wind=replace(s.wind, strong=_bool(where, raw)))
    if parts[0] == "forces":
        if len(parts) != 3:
            raise UsageError(
                f"{where}: give forces.ID.count, forces.TYPE.count or forces.ID.arrives"
            )
        return _forces(s, where, parts[1], parts[2], raw)
    if parts[:2] == ["start", "fires"]:
        return _start_fires(s, where, parts[2:], raw)
    if parts[0] == "objectives":
        return _objectives(s, where, parts[1:], raw)
    rule = key.removeprefix("house_rules.")
    rules = {**dict(s.house_rules), rule: resolve_plain(raw)}
    try:
        load_ruleset(s.ruleset, rules)
    except RulesetError as e:
        hint = (
            "" if key.startswith("house_rules.") else f"; scenario keys: {', '.join(SCENARIO_KEYS)}"
        )
        raise UsageError(f"{where}: {e}{hint}") from None
    return replace(s, house_rules=rules)


@dataclass(frozen=True)
class Variant:
    """One combination: the values as typed, in ``--vary`` order, and its scenario."""

    values: tuple[tuple[str, str], ...]
    scenario: Scenario

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.values) or "as written"


def expand(scenario: Scenario, varies: Sequence[Vary]) -> list[Variant]:
    """Every combination of the varied values (the first key varies slowest), each applied
    to ``scenario`` in ``--vary`` order."""
    keys = [v.key for v in varies]
    dup = next((k for k in keys if keys.count(k) > 1), None)
    if dup is not None:
        raise UsageError(f"--vary {dup}: the key is varied twice; give its values once")
    total = 1
    for v in varies:
        total *= len(v.values)
    if total > MAX_VARIANTS:
        raise UsageError(f"--vary: {total} combinations is more than {MAX_VARIANTS}")
    for v in varies:  # each value on its own first: its error names it alone
        for raw in v.values:
            apply_value(scenario, v.key, raw)
    out: list[Variant] = []
    for combo in itertools.product(*(v.values for v in varies)):
        s = scenario
        for v, raw in zip(varies, combo, strict=True):
            s = apply_value(s, v.key, raw)
        out.append(Variant(tuple(zip(keys, combo, strict=True)), s))
    return out


def _groups(variants: Sequence[Variant], core: Callable[[Scenario], Scenario]) -> list[int]:
    cores: list[Scenario] = []
    out: list[int] = []
    for v in variants:
        c = core(v.scenario)
        k = next((i for i, other in enumerate(cores) if other == c), None)
        if k is None:
            cores.append(c)
            k = len(cores) - 1
        out.append(k)
    return out


def share_groups(variants: Sequence[Variant]) -> list[int]:
    """Per variant, the group of variants that may share a ruleset and the map-and-rules
    memos (:data:`.turn.SHARED_MEMOS`): those equal apart from forces, start fires,
    objectives and length, which no memo reads."""
    return _groups(
        variants,
        lambda s: replace(
            s, forces=(), start=replace(s.start, fires=()), objectives=(), turns=0, seed=None
        ),
    )


def graph_groups(variants: Sequence[Variant]) -> list[int]:
    """Per variant, the group of variants that may share a map graph: the graph reads the
    map, the mains and the ``hose`` rules (:func:`.hose.hose_numbers`), nothing else."""

    def core(s: Scenario) -> Scenario:
        hose = {k: v for k, v in s.house_rules.items() if k == "hose" or k.startswith("hose.")}
        return replace(
            s,
            house_rules=hose,
            wind=Wind(),
            bombing=True,
            forces=(),
            start=Start(),
            objectives=(),
            turns=0,
            seed=None,
        )

    return _groups(variants, core)


# -- the games ------------------------------------------------------------------------------
#: in a thread that plays chunks: the latest few graphs (by graph token) and rulesets with
#: their memos (by share token); per thread, as a Dask worker may run several chunks at
#: once and memos fill as games run
_PREPARED = threading.local()
_KEEP_PREPARED = 2


def _latest(name: str, key: str, make: Callable[[], Any]) -> Any:
    cache: OrderedDict[str, Any] | None = getattr(_PREPARED, name, None)
    if cache is None:
        cache = OrderedDict()
        setattr(_PREPARED, name, cache)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = make()
        while len(cache) > _KEEP_PREPARED:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return hit


def play_chunk(scenario: Scenario, token: str, seeds: list[int], turns: int) -> dict[str, Any]:
    """Play the games of ``seeds`` of one variant (the work unit, local or on a Dask
    worker). ``token`` (``RUN-gG-mM``, from :func:`plan`) names its graph group ``RUN-gG``
    and its share group: chunks with the same names reuse the graph, ruleset and memos this
    thread made for the first of them."""
    graph = _latest("graphs", token.rsplit("-m", 1)[0], lambda: build_graph(scenario))
    rules, memos = _latest(
        "memos",
        token,
        lambda: (load_ruleset(scenario.ruleset, dict(scenario.house_rules)), {}),
    )
    return play_full(scenario, seeds, turns, (scenario, graph, rules, memos))


@dataclass(frozen=True)
class Chunk:
    """One work unit: games ``start`` to ``stop`` (exclusive) of variant ``variant``."""

    variant: int
    start: int
    stop: int

    @property
    def key(self) -> tuple[int, int]:
        return (self.variant, self.start)


@dataclass
class Plan:
    """What a sweep plays: the variants, their share tokens, the seeds and the chunks."""

    variants: list[Variant]
    tokens: list[str]
    seeds: list[int]
    chunks: list[Chunk]
    turns: list[int]

    def args(self, c: Chunk) -> tuple[Scenario, str, list[int], int]:
        """The arguments of :func:`play_chunk` for chunk ``c`` (its scenario without the
        file's source positions, which games never read)."""
        s = self.variants[c.variant].scenario
        return (
            replace(s, source={}),
            self.tokens[c.variant],
            self.seeds[c.start : c.stop],
            self.turns[c.variant],
        )


def plan(
    variants: list[Variant], games: int, seed: int, turns: int | None, chunk: int = FULL_CHUNK
) -> Plan:
    """Chunks in variant order, then seed order (a worker stays on one variant for long);
    ``turns`` (``--turns``) replaces each variant's length unless ``turns`` is varied."""
    run = uuid.uuid4().hex[:12]  # names the share groups of this run only (never a roll)
    groups = zip(graph_groups(variants), share_groups(variants), strict=True)
    tokens = [f"{run}-g{g}-m{m}" for g, m in groups]
    chunks = [
        Chunk(v, k, min(k + chunk, games))
        for v in range(len(variants))
        for k in range(0, games, chunk)
    ]
    varied = any(k == "turns" for v in variants for k, _ in v.values)  # then it wins
    lengths = [v.scenario.turns if turns is None or varied else turns for v in variants]
    return Plan(variants, tokens, game_seeds(seed, games), chunks, lengths)


#: in a local worker process: the plan (set before the fork, or by the initializer)
_LOCAL: list[Plan] = []


def _init_local(p: Plan) -> None:
    _LOCAL[:] = [p]


def _local_job(c: Chunk) -> tuple[tuple[int, int], dict[str, Any]]:
    return c.key, play_chunk(*_LOCAL[0].args(c))


Results = dict[tuple[int, int], dict[str, Any]]


def run_local(p: Plan, workers: int, progress: Progress | None = None) -> Results:
    """Play every chunk on ``workers`` local processes (in this one when 1)."""
    results: Results = {}
    done = 0

    def take(key: tuple[int, int], part: dict[str, Any]) -> None:
        nonlocal done
        if key in results:
            return
        results[key] = part
        done += len(part["clear"])
        if progress is not None:
            progress(done)

    if workers <= 1 or len(p.chunks) <= 1:
        for c in p.chunks:
            take(c.key, play_chunk(*p.args(c)))
        return results
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    fork = "fork" in mp.get_all_start_methods()
    ctx = mp.get_context("fork" if fork else "spawn")
    _LOCAL[:] = [p]
    try:
        with ProcessPoolExecutor(
            max_workers=workers, mp_context=ctx, initializer=_init_local, initargs=(p,)
        ) as pool:
            for key, part in pool.map(_local_job, p.chunks):
                take(key, part)
    finally:
        _LOCAL.clear()
    return results


def gather(p: Plan, results: Results) -> list[Outcomes]:
    """Each variant's :class:`Outcomes`, its chunks joined in seed order; ValueError if a
    chunk is missing (nothing is guessed)."""
    missing = [c for c in p.chunks if c.key not in results]
    if missing:
        raise ValueError(f"{len(missing)} chunks of games never came back")
    locs_by_token: dict[str, list[Any]] = {}
    out: list[Outcomes] = []
    for i, v in enumerate(p.variants):
        token = p.tokens[i].rsplit("-m", 1)[0]  # the map's locations: one graph per group
        if token not in locs_by_token:
            locs_by_token[token] = list(build_graph(v.scenario).locations)
        parts = [results[c.key] for c in p.chunks if c.variant == i]
        out.append(join_parts(v.scenario, locs_by_token[token], parts, p.turns[i]))
    return out


# -- the report -----------------------------------------------------------------------------
@dataclass
class VariantStat:
    values: tuple[tuple[str, str], ...]
    turns: int
    objectives: list[ObjectiveStat]

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.values) or "as written"


@dataclass
class SweepReport:
    """Everything ``fireground sweep`` reports, as plain data."""

    scenario: str
    file: str | None
    games: int
    seed: int
    keys: list[str]
    objectives: list[str]  # the labels (several joined by " / " when a threshold varies)
    variants: list[VariantStat]
    where: str = "local"
    extra: dict[str, Any] = field(default_factory=dict)

    def closest(self, k: int, n: int = 3) -> list[VariantStat]:
        """The ``n`` variants whose chance of objective ``k`` is nearest 50%."""
        order = sorted(
            range(len(self.variants)),
            key=lambda i: (abs(self.variants[i].objectives[k].chance - 0.5), i),
        )
        return [self.variants[i] for i in order[:n]]

    def most_balanced(self, n: int = 3) -> list[VariantStat]:
        """The ``n`` variants whose objective furthest from 50% is nearest it."""

        def worst(i: int) -> float:
            objs = self.variants[i].objectives
            return max((abs(o.chance - 0.5) for o in objs), default=0.0)

        order = sorted(range(len(self.variants)), key=lambda i: (worst(i), i))
        return [self.variants[i] for i in order[:n]]

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(float(x), 6)

        def variant(v: VariantStat) -> dict[str, Any]:
            return {
                "values": dict(v.values),
                "turns": v.turns,
                "objectives": [
                    {
                        "label": o.label,
                        "type": o.type,
                        "met": o.met,
                        "games": o.games,
                        "chance": r(o.chance),
                        "low": r(o.low),
                        "high": r(o.high),
                        "mean": r(o.mean),
                        "measure": o.measure,
                    }
                    for o in v.objectives
                ],
            }

        return {
            "scenario": self.scenario,
            "file": self.file,
            "games": self.games,
            "seed": self.seed,
            "vary": self.keys,
            "objectives": self.objectives,
            "variants": [variant(v) for v in self.variants],
            "closest_to_half": [
                {"objective": label, "variants": [dict(v.values) for v in self.closest(k)]}
                for k, label in enumerate(self.objectives)
            ],
            "most_balanced": [dict(v.values) for v in self.most_balanced()],
        }


def objective_stats(scenario: Scenario, out: Outcomes) -> list[ObjectiveStat]:
    """Each objective's chance met with its 95% Wilson interval, and the mean figure it is
    judged on (as ``analyze`` reports them)."""
    stats: list[ObjectiveStat] = []
    g = max(out.games, 1)
    for k, o in enumerate(scenario.objectives):
        met = int(out.objectives[:, k].sum())
        lo, hi = wilson(met, out.games)
        mean = None if out.figures is None else float(out.figures[:, k].mean())
        measure = "rescued" if o.type == "rescue" else "destroyed"
        stats.append(
            ObjectiveStat(
                objective_label(scenario, k), o.type, met, out.games, met / g, lo, hi, mean, measure
            )
        )
    return stats


def _label(scenario: Scenario, stats: list[VariantStat], k: int) -> str:
    """Objective ``k``'s label, or its variants' labels when its threshold was varied."""
    labels: list[str] = []
    for v in stats:
        if v.objectives[k].label not in labels:
            labels.append(v.objectives[k].label)
    return " / ".join(labels) if len(labels) > 1 else objective_label(scenario, k)


def report(
    scenario: Scenario,
    p: Plan,
    outcomes: Iterable[Outcomes],
    keys: list[str],
    file: str | None = None,
    seed: int = 0,
) -> SweepReport:
    stats = [
        VariantStat(v.values, p.turns[i], objective_stats(v.scenario, out))
        for i, (v, out) in enumerate(zip(p.variants, outcomes, strict=True))
    ]
    return SweepReport(
        scenario=scenario.name,
        file=file,
        games=len(p.seeds),
        seed=seed,
        keys=keys,
        objectives=[_label(scenario, stats, k) for k in range(len(scenario.objectives))],
        variants=stats,
    )


def sweep(
    scenario: Scenario,
    varies: Sequence[Vary],
    games: int,
    seed: int | None = None,
    turns: int | None = None,
    workers: int = 1,
    progress: Progress | None = None,
    scheduler: str | None = None,
    file: str | None = None,
) -> tuple[SweepReport, list[Outcomes]]:
    """Play ``games`` games of every variant (the same seeds for each) and report.

    ``scheduler``: the address of a Dask scheduler to run the chunks on instead of local
    processes (``tcp://HOST:PORT``)."""
    if games < 1:
        raise UsageError(f"--games must be at least 1, not {games}")
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else 0
    if seed < 0:
        raise UsageError(f"--seed must be 0 or more, not {seed}")
    variants = expand(scenario, varies)
    p = plan(variants, games, seed, turns)
    if scheduler:
        from .sweep_cluster import run_on_cluster

        results = run_on_cluster(scheduler, p, progress)
    else:
        results = run_local(p, workers, progress)
    outs = gather(p, results)
    rep = report(scenario, p, outs, [v.key for v in varies], file, seed)
    rep.where = scheduler or "local"
    return rep, outs
