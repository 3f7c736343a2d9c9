"""Fuzzing the loader: whatever the bytes, it returns a Scenario or raises ScenarioError.

Structure-aware cases mutate valid scenarios (drop keys, swap types, perturb coordinates,
duplicate ids) and write them back as YAML; raw cases feed arbitrary bytes and text. About
2,400 cases in all.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import scenarios

from fireground.engine.board.model import Scenario
from fireground.engine.core.errors import ScenarioError
from fireground.engine.core.yamlsafe import parse
from fireground.engine.scenario.emit import dump_scenario
from fireground.engine.scenario.io import loads_scenario

POSITION = re.compile(r"^<string>(:\d+:\d+)?: \S")


def _load(data: str | bytes) -> Scenario | None:
    try:
        return loads_scenario(data)
    except ScenarioError as e:
        for d in e.diagnostics:
            assert POSITION.match(str(d)), str(d)
            assert d.line >= 0 and d.col >= 0
        return None


ODD_VALUES = [None, True, 0, -1, 10**30, 1.5, -0.0, "", "x", "NO", [], [1], {}, {"a": 1}, [[0, 0]]]


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path[:-1]:
        data = data[p]
    return data


REPO = Path(__file__).resolve().parents[2]
#: Valid files to mutate: parsed once, so each case costs only the mutation and a load.
BASES = [
    json.dumps(parse(p.read_text(encoding="utf-8"), p.name))
    for p in [
        *sorted((REPO / "templates").glob("*.fg.yaml")),
        REPO / "examples" / "stepney.fg.yaml",
    ]
    if p.exists()
]


def _mutate(draw: st.DrawFn, data: Any) -> str:
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = _parent(data, path)
        op = draw(st.sampled_from(["drop", "swap", "perturb", "duplicate", "rename"]))
        key = path[-1]
        if op == "drop":
            del parent[key]
        elif op == "swap":
            parent[key] = json.loads(json.dumps(draw(st.sampled_from(ODD_VALUES))))  # a copy
        elif op == "perturb" and isinstance(parent[key], int | float):
            parent[key] = parent[key] + draw(st.sampled_from([-1, 1, 0.5, 1e9, -1e9]))
        elif op == "duplicate" and isinstance(parent, list):
            parent.append(json.loads(json.dumps(parent[key])))
        elif op == "rename" and isinstance(parent, dict):
            parent[str(key) + draw(st.sampled_from(["_", "s", "x"]))] = parent.pop(key)
    return json.dumps(data)  # JSON is YAML too, and keeps the mutation exact


@st.composite
def mutated_files(draw: st.DrawFn) -> str:
    return _mutate(draw, json.loads(draw(st.sampled_from(BASES))))


@st.composite
def mutated_generated(draw: st.DrawFn) -> str:
    s = draw(scenarios(max_areas=4))
    return _mutate(draw, json.loads(json.dumps(parse(dump_scenario(s), "x"))))


@settings(max_examples=500)
@given(mutated_files())
def test_mutated_files_load_or_fail_cleanly(text: str) -> None:
    s = _load(text)
    if s is not None:  # whatever loads must also save and load back unchanged
        assert loads_scenario(dump_scenario(s)) == s


@settings(max_examples=100)
@given(mutated_generated())
def test_mutated_generated_scenarios_load_or_fail_cleanly(text: str) -> None:
    s = _load(text)
    if s is not None:
        assert loads_scenario(dump_scenario(s)) == s


@settings(max_examples=700)
@given(st.binary(max_size=300))
def test_random_bytes_fail_cleanly(data: bytes) -> None:
    _load(data)


YAMLISH = st.text(alphabet=list("fireground: 1\nruleset blitz[]{},-&*!?|>'\"#%@`\t.~0123456789"),
                  max_size=120)  # fmt: skip


@settings(max_examples=800)
@given(YAMLISH)
def test_random_yaml_like_text_fails_cleanly(text: str) -> None:
    _load("fireground: 1\nruleset: blitz\n" + text)
    _load(text)
