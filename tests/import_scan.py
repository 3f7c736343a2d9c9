"""What a package's shared modules import, read from their syntax trees: the tests that hold
the editor and the exporter free of any game (tests/editor/test_editor_split.py,
tests/export/test_export_split.py) both walk their package with :func:`game_imports`."""

from __future__ import annotations

import ast
from pathlib import Path


def imports(path: Path, root: Path, package: str) -> list[tuple[str, list[str]]]:
    """(absolute module, names taken from it) for each import in ``path``, a module of the
    package ``package`` (dotted) whose folder is ``root``."""
    rel = path.relative_to(root).with_suffix("").parts
    parts = [*package.split("."), *rel[:-1]]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = parts[: len(parts) - node.level + 1] if node.level else []
            mod = ".".join([*base, *([node.module] if node.module else [])])
            out.append((mod, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
    return out


def game_imports(root: Path, package: str, registry: set[str]) -> set[tuple[str, str]]:
    """(file, module) for every import of a game by a shared module of ``package`` (every
    module outside its ``games/`` folder): a game pack (``fireground.engine.games.*``), a
    game's part of the package (``<package>.games.*``), or from the registry
    ``<package>.games`` anything but the names in ``registry``."""
    found = set()
    games = f"{package}.games"
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("games/"):
            continue
        for mod, names in imports(path, root, package):
            if mod.startswith((f"{games}.", "fireground.engine.games")) or (
                mod == games and not set(names) <= registry
            ):
                found.add((rel, mod))
    return found
