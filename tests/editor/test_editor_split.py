"""The editor is split like export/: shared machinery in editor/, each game's parts in
editor/games/<id>/, found through the game's pack (its ``editor_tools`` hook)."""

from __future__ import annotations

from pathlib import Path

from import_scan import game_imports

from fireground.editor.games import editor_module, new_board_actions
from fireground.engine.core.game import hook
from fireground.engine.core.packs import load_pack

EDITOR = Path(__file__).resolve().parents[2] / "editor"


#: what the shared editor may take from the registry itself
REGISTRY = {"GamePanels", "editor_module", "new_board_actions"}


def test_the_shared_editor_imports_no_game() -> None:
    found = game_imports(EDITOR, "fireground.editor", REGISTRY)
    assert found == set()


def test_each_pack_names_its_editor_parts() -> None:
    blitz, forestfire = editor_module("blitz"), editor_module("forestfire")
    assert hook(load_pack("blitz"), "editor_tools") == "fireground.editor.games.blitz"
    assert blitz.__name__ == "fireground.editor.games.blitz"
    assert callable(blitz.make_panels)
    assert forestfire.__name__ == "fireground.editor.games.forestfire"
    assert callable(forestfire.cli_edit)
    texts = [text for text, _ in new_board_actions()]
    assert texts == ["New &Forest Fire board…"]  # BLITZ! edits in the polygon window itself


def test_the_game_adds_its_edit_action_and_it_drops_bombs(window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """BLITZ!'s Edit > Drop bombs on the start comes from its editor module and still
    drops the sticks asked for (one undo step)."""
    from PySide6.QtWidgets import QInputDialog

    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    texts = [a.text() for a in edit.actions() if a.text()]
    assert texts.index("Drop &bombs on the start…") == texts.index("S&plit selected into cells") + 1
    answers = iter([(4, True), (11, True)])
    monkeypatch.setattr(QInputDialog, "getInt", lambda *a, **k: next(answers))
    before = window.doc.scenario.start
    next(a for a in edit.actions() if a.text() == "Drop &bombs on the start…").trigger()
    assert window.doc.undo_stack.count() == 1
    assert window.doc.undo_stack.text(0) == "Drop 4 stick(s) of bombs"
    assert window.doc.scenario.start != before
