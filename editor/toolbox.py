"""The tool bar: every tool as a checkable action. The options bar beside it lives in
options_bar.py and is re-exported here."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QLabel, QToolBar

from fireground.engine.board.model import FeatureType

from .document import Document
from .options_bar import OptionsBar, TypedEntry
from .scene.map_view import MapView
from .tools.background import MoveBackgroundTool, ScaleBackgroundTool
from .tools.base import AbstractTool
from .tools.draw import DrawPolygonTool, NewAreaSettings, RectangleTool
from .tools.place import PlaceFeatureTool, StartBrushTool
from .tools.select import SelectTool
from .tools.split import DeleteTool, MergeTool, SplitMode, SplitTool
from .tools.vertices import EditVerticesTool

__all__ = [
    "BRUSH_KEYS",
    "PLACE_KEYS",
    "SECTIONS",
    "OptionsBar",
    "Toolbox",
    "TypedEntry",
    "tool_tip",
]

#: Single-key shortcuts of the placement tools and start-state brushes.
PLACE_KEYS = {
    FeatureType.STAIRWELL: "T",
    FeatureType.STORE: "O",
    FeatureType.HYDRANT: "H",
    FeatureType.WATER: "W",
    FeatureType.OCCUPANTS: "U",
    FeatureType.ENTRY: "N",
    FeatureType.LABEL: "L",
}
#: The tool bar's section headings, by the first tool of each section.
SECTIONS = {"Select": "Shapes", "Stairwell": "Place", "Fire": "Start"}
BRUSH_KEYS = {"fire": "F", "embers": "I", "damp": "A", "damage": "G", "rubble": "B", "craters": "K"}


def tool_tip(tool: AbstractTool, key: str) -> str:
    """The tool-bar tooltip: what the tool does and its key."""
    text = f"{tool.name} ({key})" if key else tool.name
    if isinstance(tool, SplitTool) and tool.mode is SplitMode.CELLS:
        text += ": click a footprint to divide it into areas of about the cell size"
    elif isinstance(tool, DeleteTool):
        text += ": click a feature or an area; Del deletes the selection"
    return text


class Toolbox:
    """Creates the tools once and switches the view between them."""

    def __init__(self, doc: Document, view: MapView) -> None:
        self.doc = doc
        self.view = view
        self.settings = NewAreaSettings()
        self.select = SelectTool()
        self.polygon = DrawPolygonTool(self.settings)
        self.rectangle = RectangleTool(self.settings)
        self.vertices = EditVerticesTool()
        self.split_cells = SplitTool(SplitMode.CELLS)
        self.split_line = SplitTool(SplitMode.LINE)
        self.split_line.name = "Split along a line"
        self.split_cells.name = "Split into cells"
        self.merge = MergeTool()
        self.delete = DeleteTool()
        self.place = {t: PlaceFeatureTool(t) for t in FeatureType}
        self.brushes = {
            layer: StartBrushTool(layer, 1)
            for layer in ("fire", "embers", "damp", "damage", "rubble", "craters")
        }
        #: Tracing tools, worked from the Background panel rather than the tool bar.
        self.bg_scale = ScaleBackgroundTool()
        self.bg_move = MoveBackgroundTool()
        self.actions: dict[str, QAction] = {}
        self.group = QActionGroup(view)
        self.group.setExclusionPolicy(QActionGroup.ExclusionPolicy.ExclusiveOptional)

    def all_tools(self) -> list[tuple[str, AbstractTool, str]]:
        """(tool-bar label, tool, single-key shortcut) for every tool-bar tool."""
        out: list[tuple[str, AbstractTool, str]] = [
            ("Select", self.select, "V"),
            ("Polygon", self.polygon, "P"),
            ("Rectangle", self.rectangle, "R"),
            ("Vertices", self.vertices, "E"),
            ("Split", self.split_cells, "S"),
            ("Cut", self.split_line, "C"),
            ("Merge", self.merge, "M"),
            ("Delete", self.delete, "D"),
        ]
        for t, tool in self.place.items():
            out.append((t.value.capitalize(), tool, PLACE_KEYS[t]))
        for layer, tool in self.brushes.items():
            out.append((layer.capitalize(), tool, BRUSH_KEYS[layer]))
        for _label, tool, key in out:
            tool.shortcut = key
        return out

    def build_toolbar(self, bar: QToolBar, on_change: Callable[[], None]) -> None:
        """Fill ``bar`` with one button per tool, under the section headings."""
        for i, (label, tool, key) in enumerate(self.all_tools()):
            if label in SECTIONS:
                if i:
                    bar.addSeparator()
                head = QLabel(SECTIONS[label])
                head.setAlignment(Qt.AlignCenter)
                head.setStyleSheet("QLabel { color: #666; font-size: 8pt; }")
                bar.addWidget(head)
            act = QAction(label, bar)
            act.setCheckable(True)
            if key:
                act.setShortcut(key)
            act.setToolTip(tool_tip(tool, key))
            act.triggered.connect(lambda _=False, t=tool: (self.use(t), on_change()))
            self.group.addAction(act)
            bar.addAction(act)
            self.actions[label] = act
            if i == 0:
                act.setChecked(True)
        # One width for all buttons, so the column reads as a list.
        buttons = [b for a in self.actions.values() if (b := bar.widgetForAction(a))]
        width = max(b.sizeHint().width() for b in buttons)
        for b in buttons:
            b.setMinimumWidth(width)

    def use(self, tool: AbstractTool) -> None:
        self.view.set_tool(tool)
        for act_label, t, _k in self.all_tools():
            if t is tool:
                self.actions[act_label].setChecked(True)
                return
        checked = self.group.checkedAction()
        if checked is not None:  # a tool without a tool-bar button
            checked.setChecked(False)
