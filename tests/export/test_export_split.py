"""export/ is split as the editor is: the shared exporter (plans, map drawing, layouts,
flowing text, the pack's driver) names no game; each game's printed aids live in
export/games/<id>/, found through the game's pack (its ``export_tools`` hook)."""

from __future__ import annotations

from pathlib import Path

import pytest
from import_scan import game_imports

from fireground.engine.core.game import hook
from fireground.engine.core.packs import load_pack
from fireground.export.games import export_module
from fireground.export.pack import KINDS

EXPORT = Path(__file__).resolve().parents[2] / "export"


#: what the shared exporter may take from the registry itself
REGISTRY = {"export_module"}


def test_the_shared_exporter_imports_no_game() -> None:
    found = game_imports(EXPORT, "fireground.export", REGISTRY)
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
