"""What a new user's session found wrong (issue 13, items 3-8), driven with real keys and
clicks. Each test failed before its fix."""

from __future__ import annotations

from editor_helpers import click
from PySide6.QtCore import Qt

from fireground.editor.scene.items import FeatureItem
from fireground.engine.scenario import FeatureType, Material


# -- 3. the Store tool places what its box shows; stores and open water look different -----
def test_the_store_tool_places_the_material_its_box_shows(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    qtbot.keyClick(win.view, Qt.Key_O)
    box = win.options.material
    qtbot.waitUntil(box.isVisible)
    assert box.currentText() == "wood"
    click(qtbot, win, 5, 15)  # H1
    assert win.doc.scenario.features[-1].material is Material.WOOD
    box.setFocus(Qt.TabFocusReason)
    qtbot.keyClick(box, Qt.Key_Home)  # the first material
    assert box.currentText() == "oil"
    click(qtbot, win, 15, 15)  # H2
    assert win.doc.scenario.features[-1].material is Material.OIL
    # The tool remembers: back to it later, the box still shows oil.
    qtbot.keyClick(win.view, Qt.Key_V)
    qtbot.keyClick(win.view, Qt.Key_O)
    assert box.currentText() == "oil"


def test_a_wood_store_and_open_water_have_different_badges(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    qtbot.keyClick(win.view, Qt.Key_O)
    click(qtbot, win, 5, 15)  # a wood store in H1
    qtbot.keyClick(win.view, Qt.Key_W)
    click(qtbot, win, 5, 5)  # open water in the street
    items = {f.feature.type: f for f in win.scene.feature_items if isinstance(f, FeatureItem)}
    store, water = items[FeatureType.STORE], items[FeatureType.WATER]
    assert (store.glyph, store.filled) != (water.glyph, water.filled)
    assert store.glyph != water.glyph
