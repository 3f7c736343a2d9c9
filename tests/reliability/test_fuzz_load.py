"""Fuzzing the loader and the checks (docs/reliability.md, "Fuzzing").

Two families of inputs, 2,400 cases in all per run:

* structure-aware: a valid scenario (a bundled example or one drawn by
  ``tests/engine/strategies.py``) parsed to plain data, then mutated one to four times
  (drop a key, swap a value's type, perturb coordinates with NaN / inf / huge / tiny values,
  break polygons, duplicate ids, delete referenced items, random unicode in keys and values,
  unknown keys) and written back as YAML (block or flow style) or JSON;
* raw bytes: random bytes, truncations of a valid file and byte flips / insertions in one.

For every input, ``loads_scenario`` returns a Scenario or raises ScenarioError, never
anything else, and each diagnostic names the file and a line >= 1 (the one "... and N more
problems" summary line excepted). ``check`` on every scenario that loads never raises.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from fireground.engine.board.model import Scenario
from fireground.engine.core.errors import ScenarioError
from fireground.engine.core.yamlsafe import parse
from fireground.engine.games.blitz.checks.run import check
from fireground.engine.scenario.emit import dump_scenario
from fireground.engine.scenario.envelope import blitz_examples
from fireground.engine.scenario.io import loads_scenario

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "engine"))
from strategies import scenarios  # noqa: E402

# Huge coordinates overflow numpy/GEOS arithmetic inside the checks: a warning, not an error.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

FILE = "fuzzed.fg.yaml"
EXAMPLES = {p.name: p.read_bytes() for p in blitz_examples(REPO / "examples")}
SMALLEST = min(EXAMPLES.values(), key=len)


def fuzz(n: int) -> settings:
    """n cases, no deadline (the machine is shared), no example database."""
    return settings(
        max_examples=n,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        database=None,
    )


# -- the property --------------------------------------------------------------------------


def load_and_check(data: str | bytes) -> Scenario | None:
    """The property under test: only ScenarioError, with places; check never raises."""
    try:
        s = loads_scenario(data, FILE)
    except ScenarioError as e:
        assert e.diagnostics
        for d in e.diagnostics:
            if d.line == 0 and d.message.startswith("... and "):
                continue  # the summary line after MAX_ERRORS problems
            assert d.file == FILE, d
            assert d.line >= 1 and d.col >= 1, f"diagnostic without a place: {d!r}"
            assert d.message.strip(), d
        _event("refused")
        return None
    assert isinstance(s, Scenario)
    findings = check(s)
    _event("loaded and checked")
    for f in findings:
        assert f.code.startswith("FG") and f.severity in ("error", "warning"), f
        str(f)
    return s


def _event(what: str) -> None:
    """Count outcomes for --hypothesis-show-statistics (a no-op outside hypothesis)."""
    with contextlib.suppress(InvalidArgument):
        event(what)


# -- plain data of valid scenarios -----------------------------------------------------------


def plain(node: Any) -> Any:
    """The loader's marked containers as plain dicts and lists (for yaml.dump)."""
    if isinstance(node, dict):
        return {k: plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node


BASES = {name: plain(parse(b.decode("utf-8"), name)) for name, b in EXAMPLES.items()}


def test_every_base_document_loads_unmutated() -> None:
    """The mutations start from valid files (else the fuzz would only test one refusal)."""
    for name, data in BASES.items():
        assert load_and_check(serialise(data, "block")) is not None, name


def serialise(data: Any, style: str) -> str:
    if style == "json":
        return json.dumps(data, ensure_ascii=False)
    return yaml.dump(
        data,
        Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
        allow_unicode=True,
        sort_keys=False,
        default_flow_style=(style == "flow"),
        width=100,
    )


# -- mutations -----------------------------------------------------------------------------

WEIRD_NUMBERS = [math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, 10**30, -(10**30),
                 2**63, 0, -0.0, 1e-9, 0.5, 123456789.123]  # fmt: skip
WEIRD_VALUES = [None, True, False, "", "x", "NO", "on", "~", "1e3", [], {}, [[1, 2]],
                {"a": {"b": {"c": []}}}, [None], "\u202e\u0000"[:1], "🔥" * 50]  # fmt: skip
ID_LISTS = ("areas", "buildings", "features", "forces")
MUTATIONS = ("drop_key", "swap_type", "coordinate", "polygon", "duplicate", "delete_item",
             "unicode", "add_key", "reorder")  # fmt: skip


def containers(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of every dict and list in the tree (the root included)."""
    out = [path] if isinstance(node, dict | list) else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += containers(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += containers(v, (*path, i))
    return out


def get(node: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        node = node[p]
    return node


def any_value(draw: st.DrawFn) -> Any:
    return draw(
        st.one_of(
            st.sampled_from(WEIRD_VALUES),
            st.sampled_from(WEIRD_NUMBERS),
            st.integers(),
            st.floats(allow_nan=True, allow_infinity=True),
            st.text(max_size=30),
            st.lists(st.integers(-5, 5), max_size=4),
        )
    )


def mutate_once(draw: st.DrawFn, data: Any) -> Any:
    op = draw(st.sampled_from(MUTATIONS))
    if op in ("coordinate", "polygon"):
        polys = [p for p in containers(data) if p and p[-1] == "polygon"]
        if polys:
            poly = get(data, draw(st.sampled_from(polys)))
            if isinstance(poly, list) and poly:
                i = draw(st.integers(0, len(poly) - 1))
                if op == "coordinate":
                    pt = poly[i]
                    if isinstance(pt, list) and pt:
                        j = draw(st.integers(0, len(pt) - 1))
                        pt[j] = draw(
                            st.one_of(
                                st.sampled_from(WEIRD_NUMBERS),
                                st.floats(),
                                st.integers(-(10**6), 10**6),
                                st.just("12"),
                                st.none(),
                            )
                        )
                else:
                    how = draw(st.sampled_from(["bowtie", "collapse", "truncate", "extra"]))
                    if how == "bowtie" and len(poly) >= 4:
                        poly[1], poly[2] = poly[2], poly[1]
                    elif how == "collapse":
                        poly[:] = [poly[0]] * len(poly)
                    elif how == "truncate":
                        del poly[i:]
                    else:
                        poly.insert(i, [draw(st.integers(-50, 500)), draw(st.integers(-50, 500))])
            return data
        op = "swap_type"
    if op == "duplicate":
        lists = [k for k in ID_LISTS if isinstance(data, dict) and isinstance(data.get(k), list)]
        lists = [k for k in lists if data[k]]
        if lists:
            items = data[draw(st.sampled_from(lists))]
            i = draw(st.integers(0, len(items) - 1))
            items.insert(draw(st.integers(0, len(items))), json.loads(json.dumps(items[i])))
            return data
        op = "delete_item"
    if op == "delete_item":
        lists = [p for p in containers(data) if isinstance(get(data, p), list) and get(data, p)]
        if lists:
            items = get(data, draw(st.sampled_from(lists)))
            del items[draw(st.integers(0, len(items) - 1))]
        return data
    paths = containers(data)
    path = draw(st.sampled_from(paths))
    node = get(data, path)
    if op == "reorder" and isinstance(node, list) and len(node) > 1:
        node.reverse()
        return data
    if op == "add_key" and isinstance(node, dict):
        node[draw(st.one_of(st.text(max_size=12), st.sampled_from(["typ", "ID", "polygon"])))] = (
            any_value(draw)
        )
        return data
    if not node:
        if path:
            get(data, path[:-1])[path[-1]] = any_value(draw)
        return data
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    key = draw(st.sampled_from(keys))
    if op == "drop_key":
        del node[key]
    elif op == "unicode":
        text = draw(st.text(min_size=0, max_size=40))
        if isinstance(node, dict) and draw(st.booleans()):
            node[text] = node.pop(key)  # a strange key
        else:
            node[key] = text
    else:  # swap_type
        node[key] = any_value(draw)
    return data


@st.composite
def geometry_mutations(draw: st.DrawFn) -> str:
    """Mutations the format accepts but the checks must judge: finite moved corners, bow
    ties, collapsed or stacked polygons, shuffled lists."""
    data = draw(example_data())
    polys = [p for p in containers(data) if p and p[-1] == "polygon"]
    for _ in range(draw(st.integers(1, 6))):
        poly = get(data, draw(st.sampled_from(polys)))
        how = draw(st.sampled_from(["move", "bowtie", "collapse", "stack", "sliver", "reverse"]))
        i = draw(st.integers(0, len(poly) - 1))
        if how == "move":
            poly[i] = [draw(st.floats(-1e4, 1e4)), draw(st.floats(-1e4, 1e4))]
        elif how == "bowtie" and len(poly) >= 4:
            poly[1], poly[2] = poly[2], poly[1]
        elif how == "collapse":
            poly[:] = [poly[0], poly[0], poly[0]]
        elif how == "stack":  # an exact copy of another area's outline: a total overlap
            poly[:] = json.loads(json.dumps(get(data, draw(st.sampled_from(polys)))))
        elif how == "sliver":
            x, y = poly[0]
            poly[:] = [[x, y], [x + 10, y], [x + 10, y + draw(st.sampled_from([1e-9, 1e-3, 0.5]))]]
        else:
            poly.reverse()
    return serialise(data, "block")


@st.composite
def mutated_documents(draw: st.DrawFn, base: st.SearchStrategy[Any]) -> str:
    data = draw(base)
    for _ in range(draw(st.integers(1, 4))):
        data = mutate_once(draw, data)
    return serialise(data, draw(st.sampled_from(["block", "block", "flow", "json"])))


def example_data() -> st.SearchStrategy[Any]:
    # a fresh deep copy each time: mutations work in place
    return st.sampled_from(sorted(BASES)).map(lambda n: json.loads(json.dumps(BASES[n])))


def generated_data() -> st.SearchStrategy[Any]:
    return scenarios(max_areas=6).map(lambda s: plain(parse(dump_scenario(s), "generated.fg.yaml")))


# -- the fuzz tests (2,400 cases) ------------------------------------------------------------


@fuzz(500)
@given(mutated_documents(example_data()))
def test_mutated_examples_load_or_fail_cleanly(text: str) -> None:
    load_and_check(text)


@fuzz(300)
@given(geometry_mutations())
def test_broken_geometry_loads_and_checks(text: str) -> None:
    load_and_check(text)


@fuzz(400)
@given(mutated_documents(generated_data()))
def test_mutated_generated_scenarios_load_or_fail_cleanly(text: str) -> None:
    load_and_check(text)


@fuzz(300)
@given(st.binary(max_size=3000))
def test_random_bytes_fail_cleanly(data: bytes) -> None:
    load_and_check(data)


@fuzz(300)
@given(st.sampled_from(sorted(EXAMPLES)), st.floats(0, 1))
def test_truncated_files_load_or_fail_cleanly(name: str, where: float) -> None:
    data = EXAMPLES[name]
    load_and_check(data[: int(len(data) * where)])


@fuzz(600)
@given(
    st.lists(
        st.tuples(st.integers(0, len(SMALLEST) - 1), st.integers(0, 255), st.booleans()),
        min_size=1,
        max_size=8,
    )
)
def test_flipped_bytes_load_or_fail_cleanly(flips: list[tuple[int, int, bool]]) -> None:
    data = bytearray(SMALLEST)
    for pos, value, insert in flips:
        pos = min(pos, len(data) - 1)
        if insert:
            data.insert(pos, value)
        else:
            data[pos] ^= value or 0x80
    load_and_check(bytes(data))
