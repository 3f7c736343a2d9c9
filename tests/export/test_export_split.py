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


def test_a_game_on_a_board_of_its_own_exports_through_its_hook() -> None:
    """Forest Fire's track is not a polygon map: its pack names a module with its own
    ``cli_export``, and ``fireground export`` finds it through the hook, not by a path."""
    assert hook(load_pack("forestfire"), "export_tools") == (
        "fireground.export.games.forestfire.pack"
    )
    own = export_module("forestfire")
    assert callable(own.cli_export)
    assert not hasattr(export_module("blitz"), "cli_export")  # the shared exporter's


def test_export_routes_by_the_hook(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The CLI calls whatever module the pack names: swap the hook, and the export follows."""
    import argparse
    import types

    from fireground import cli

    called: list[str] = []
    fake = types.ModuleType("fake_export")
    fake.cli_export = lambda args: called.append(args.file) or 0  # type: ignore[attr-defined]
    monkeypatch.setattr(cli, "_peek_game", lambda _file: "forestfire")
    monkeypatch.setattr("fireground.export.games.export_module", lambda game: fake)
    assert cli._routed_export(argparse.Namespace(file="x.fg.yaml")) == 0
    assert called == ["x.fg.yaml"]


def test_a_pack_without_printed_aids_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from fireground import cli
    from fireground.engine.core.errors import UsageError

    def none(game: str) -> object:
        raise LookupError(f"{game}: the game offers no printed aids")

    monkeypatch.setattr(cli, "_peek_game", lambda _file: "forestfire")
    monkeypatch.setattr("fireground.export.games.export_module", none)
    with pytest.raises(UsageError, match="offers no printed aids"):
        cli._routed_export(argparse.Namespace(file="x.fg.yaml"))
