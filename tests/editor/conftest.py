"""Shared fixtures for the editor tests: a small map and a window on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from editor_helpers import sq

from fireground.engine.board.model import Area, AreaKind, Building, Feature, FeatureType, Scenario


@pytest.fixture
def small() -> Scenario:
    """Two houses of two levels north of a street, a hydrant in the street."""
    return Scenario(
        name="small",
        buildings=(Building("house", "House", levels=2),),
        areas=(
            Area("H1", AreaKind.BUILDING, sq(0, 10), "house"),
            Area("H2", AreaKind.BUILDING, sq(10, 10), "house"),
            Area("R1", AreaKind.STREET, sq(0, 0, 20, 10)),
        ),
        features=(
            Feature(FeatureType.STAIRWELL, "H1"),
            Feature(FeatureType.HYDRANT, "R1", pressure=3),
        ),
        bombing=False,
    )


@pytest.fixture
def recovery_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "recovery"
    d.mkdir()
    monkeypatch.setenv("FIREGROUND_RECOVERY_DIR", str(d))
    return d


@pytest.fixture
def window(qtbot, small: Scenario, recovery_dir: Path) -> Iterator[object]:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QSettings

    from fireground.editor.document import Document
    from fireground.editor.main_window import MainWindow

    # Recent files go to a throw-away settings folder, not the user's.
    QSettings.setPath(QSettings.NativeFormat, QSettings.UserScope, str(recovery_dir.parent))
    win = MainWindow(Document(small))
    win.ask_unsaved = 0x00800000  # QMessageBox.Discard: never block on a dialog
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    win.view.fit_to_map()
    yield win
    win.doc.mark_saved()
