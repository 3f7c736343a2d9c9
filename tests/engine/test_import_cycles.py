"""The engine's import graph, imports inside functions included: no cycle of more than 3
modules, and no rule module imports a policy (the autopilot or the orders).

A late import inside a function still ties two modules together (one cannot be read or
tested without the other), so the graph counts every ``import`` statement in a module."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

import fireground.engine

ENGINE = Path(fireground.engine.__path__[0])


def _module_name(path: Path) -> str:
    parts = ["engine", *path.relative_to(ENGINE).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path = ENGINE) -> nx.DiGraph:
    """Module -> module edges of every import between modules under ``root``."""
    files = {_module_name(p): p for p in root.rglob("*.py")}
    graph = nx.DiGraph()
    for name, path in files.items():
        graph.add_node(name)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    module = ".".join(base) + (f".{node.module}" if node.module else "")
                else:
                    module = (node.module or "").removeprefix("fireground.")
                for alias in node.names:
                    sub = f"{module}.{alias.name}"
                    targets.append(sub if sub in files else module)
            elif isinstance(node, ast.Import):
                targets = [a.name.removeprefix("fireground.") for a in node.names]
            graph.add_edges_from((name, t) for t in targets if t in files and t != name)
    return graph


def test_the_graph_sees_late_imports():
    # the checker itself: a late import inside a function is an edge
    graph = import_graph()
    assert graph.number_of_nodes() > 50
    assert graph.number_of_edges() > 100


def test_no_import_cycle_of_more_than_three_modules():
    graph = import_graph()
    big = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 3]
    assert big == []


def test_no_rule_imports_a_policy():
    # the turn driver hands the policies to step 6 (TurnContext.policies): rules never import
    # the autopilot or the orders, not even late
    graph = import_graph()
    rules = [n for n in graph if ".rules." in f"{n}." and not n.endswith(".rules")]
    assert len(rules) > 10
    policies = ("autopilot", "orders")
    bad = [
        (r, t) for r in rules for t in graph.successors(r) if any(f".{p}" in t for p in policies)
    ]
    assert bad == []


def test_the_core_imports_no_game_not_even_for_types():
    # the turn driver plays any game's state: it asks a TurnState protocol, not BLITZ!'s
    # GameState (import-linter skips type-checking imports; this graph counts them)
    graph = import_graph()
    core = [n for n in graph if n.startswith("engine.core")]
    assert len(core) > 5
    bad = [(c, t) for c in core for t in graph.successors(c) if t.startswith("engine.games")]
    assert bad == []
