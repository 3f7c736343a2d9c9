"""export/ is split as the editor is: the shared exporter (plans, map drawing, layouts,
flowing text, the pack's driver) names no game; each game's printed aids live in
export/games/<id>/, found through the game's pack (its ``export_tools`` hook)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fireground.engine.core.game import hook
from fireground.engine.core.packs import load_pack
from fireground.export.games import export_module
from fireground.export.pack import KINDS

EXPORT = Path(__file__).resolve().parents[2] / "export"


#: what the shared exporter may take from the registry itself
REGISTRY = {"export_module"}


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(absolute module, names taken from it) for each import in ``path``."""
    rel = path.relative_to(EXPORT).with_suffix("").parts
    package = ["fireground", "export", *rel[:-1]]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            mod = ".".join([*base, *([node.module] if node.module else [])])
            out.append((mod, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
    return out


def test_the_shared_exporter_imports_no_game() -> None:
    found = set()
    for path in EXPORT.rglob("*.py"):
        rel = path.relative_to(EXPORT).as_posix()
        if rel.startswith("games/"):
            continue
        for mod, names in _imports(path):
            if mod.startswith(("fireground.export.games.", "fireground.engine.games")) or (
                mod == "fireground.export.games" and not set(names) <= REGISTRY
            ):
                found.add((rel, mod))
    assert found == set()


def test_the_pack_names_its_export_module() -> None:
    assert hook(load_pack("blitz"), "export_tools") == "fireground.export.games.blitz"
    blitz = export_module("blitz")
    assert blitz.__name__ == "fireground.export.games.blitz"
    assert ("plans", *blitz.DOCUMENTS) == KINDS
    assert KINDS == ("plans", "cards", "reference", "counters", "turns", "briefing")


def test_a_document_the_game_does_not_print_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="prints no 'maps'"):
        export_module("blitz").write_document("maps", None, tmp_path / "x.pdf", "a4", turns=1)
