"""A name shared across modules is public: no module of engine/, export/, editor/ or
fireground/, and no script of benchmarks/, imports another module's ``_private`` name
(``from x import _name``) or reaches it as ``module._name``. Found by walking each file's
syntax tree, imports inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: source folder -> the package it installs as (pyproject's package-dir)
PACKAGES = {
    "engine": "fireground.engine",
    "export": "fireground.export",
    "editor": "fireground.editor",
    "fireground": "fireground",
}
#: folders of scripts run by path (top-level modules, outside the installed package)
SCRIPTS = ("benchmarks",)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_of(path: Path) -> tuple[str, bool]:
    """(dotted module name, is a package's __init__) of a source file."""
    rel = path.relative_to(ROOT)
    parts = list(rel.with_suffix("").parts)
    if parts[0] in SCRIPTS:
        return parts[-1], False
    is_pkg = parts[-1] == "__init__"
    if is_pkg:
        parts = parts[:-1]
    return ".".join([PACKAGES[parts[0]], *parts[1:]]), is_pkg


def _absolute(node: ast.ImportFrom, module: str, is_pkg: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def private_uses(text: str, module: str, is_pkg: bool = False) -> list[tuple[int, str, str]]:
    """(line, module, private name) for every private name of another fireground module
    that the source ``text`` of ``module`` imports or reaches through a module it imported."""
    tree = ast.parse(text)
    bound: dict[str, str] = {}  # local name -> the fireground module or name it stands for
    out: list[tuple[int, str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            src = _absolute(node, module, is_pkg)
            for a in node.names:
                if _private(a.name) and src.startswith("fireground"):
                    out.append((node.lineno, src, a.name))
                bound[a.asname or a.name] = f"{src}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    bound[a.asname] = a.name
                else:
                    bound[a.name.split(".")[0]] = a.name.split(".")[0]
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and _private(node.attr)
            and bound.get(node.value.id, "").startswith("fireground")
            and bound[node.value.id] != module
        ):
            out.append((node.lineno, bound[node.value.id], node.attr))
    return out


def _sources() -> list[Path]:
    return sorted(p for folder in (*PACKAGES, *SCRIPTS) for p in (ROOT / folder).rglob("*.py"))


def test_no_private_name_is_imported_across_modules() -> None:
    found = []
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        for line, src, name in private_uses(text, *_module_of(path)):
            found.append(f"{rel}:{line}: {src}.{name}")
    assert found == [], "make these names public, or move the code that shares them"


def test_the_walk_sees_both_forms() -> None:
    """The checker itself: it finds a relative ``from`` import of a private name, one
    inside a function, and ``module._name`` through an imported module; it lets a public
    name and a private one of the module's own pass."""
    text = (
        "from . import hose\n"
        "from .shapes import area_of, _hidden\n"
        "import fireground.engine.core.log as log\n"
        "def f():\n"
        "    from ..core.dice import _seed\n"
        "    return hose._KEYS, hose.line_lengths, log._write, _own\n"
        "_own = 1\n"
    )
    uses = private_uses(text, "fireground.engine.board.probe")
    assert _module_of(ROOT / "engine" / "board" / "__init__.py") == (
        "fireground.engine.board",
        True,
    )
    assert sorted(uses) == [
        (2, "fireground.engine.board.shapes", "_hidden"),
        (5, "fireground.engine.core.dice", "_seed"),
        (6, "fireground.engine.board.hose", "_KEYS"),
        (6, "fireground.engine.core.log", "_write"),
    ]
