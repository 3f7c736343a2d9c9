"""Split (into ~area_cm cells, or along a drawn line), merge and delete tools."""

from __future__ import annotations

import enum

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainterPath
from PySide6.QtWidgets import QGraphicsPathItem

from ..commands import (
    MergeAreasCommand,
    RemoveAreasCommand,
    RemoveFeaturesCommand,
    SplitAreaCommand,
)
from ..document import Selection
from ..scene import style
from ..scene.coords import to_scene
from .base import AbstractTool, ToolEvent


class SplitMode(enum.Enum):
    CELLS = "cells"
    LINE = "line"


class SplitState(enum.Enum):
    IDLE = "idle"
    DRAWING_LINE = "drawing line"


class SplitTool(AbstractTool):
    """Cells mode: click a footprint to divide it into areas of about ``area_cm``.
    Line mode: click points of a cutting line across one area; Enter or double-click cuts."""

    name = "Split"
    shortcut = "S"
    cursor = Qt.CrossCursor
    snaps = True

    def __init__(self, mode: SplitMode = SplitMode.CELLS) -> None:
        super().__init__()
        self.mode = mode
        self.cell_cm: float | None = None
        self.state = SplitState.IDLE
        self.line: list[tuple[float, float]] = []
        self._preview: QGraphicsPathItem | None = None

    def mouse_pressed(self, e: ToolEvent) -> None:
        assert self.view is not None
        if e.button != Qt.LeftButton:
            return
        if self.mode is SplitMode.CELLS:
            a = self.scene.area_at(e.pos)
            if a is None:
                self.fail("Click inside the area to split.")
                return
            try:
                cmd = SplitAreaCommand(self.doc, a.id, cell_cm=self.cell_cm)
            except ValueError as exc:
                self.fail(str(exc))
                return
            if not cmd.new_ids:
                self.fail(f"{a.id} is already about one cell.")
                return
            self.doc.push(cmd)
            self.doc.select_areas([a.id, *cmd.new_ids])
            self.message = f"Split {a.id} into {len(cmd.new_ids) + 1} areas."
            return
        p = self.view.snap(e.pos).point
        if self.state is SplitState.IDLE:
            self.state = SplitState.DRAWING_LINE
            self.line = []
            self._preview = QGraphicsPathItem()
            self._preview.setPen(style.cosmetic("#d01060", 2, Qt.DashLine))
            self._preview.setZValue(30)
            self.scene.addItem(self._preview)
        self.line.append(p)
        self._update(None)

    def mouse_moved(self, e: ToolEvent) -> None:
        assert self.view is not None
        p = self.view.snap(e.pos).point
        if self.state is SplitState.DRAWING_LINE:
            self._update(p)

    def mouse_double_clicked(self, e: ToolEvent) -> None:
        if self.state is SplitState.DRAWING_LINE:
            self.finish()

    def _update(self, hover: tuple[float, float] | None) -> None:
        if self._preview is None:
            return
        pts = self.line + ([hover] if hover else [])
        path = QPainterPath()
        if pts:
            path.moveTo(to_scene(pts[0]))
            for q in pts[1:]:
                path.lineTo(to_scene(q))
        self._preview.setPath(path)

    def finish(self) -> None:
        line = list(self.line)
        self.cancel()
        if len(line) < 2:
            return
        # Cut every area the line crosses.
        from shapely.geometry import LineString

        ls = LineString(line)
        cut = []
        for a in self.doc.scenario.areas:
            if a.shape.intersects(ls) and not ls.within(a.shape.boundary):
                try:
                    cmd = SplitAreaCommand(self.doc, a.id, line=line)
                except ValueError:
                    continue
                self.doc.push(cmd)
                cut.append(a.id)
                cut.extend(cmd.new_ids)
        if cut:
            self.doc.select_areas(cut)
            self.message = f"Cut into {len(cut)} areas."
        else:
            self.fail("The line must cross an area from edge to edge.")

    def cancel(self) -> None:
        if self._preview is not None:
            self.scene.removeItem(self._preview)
            self._preview = None
        self.line = []
        self.state = SplitState.IDLE

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if self.state is not SplitState.DRAWING_LINE:
            return False
        if key in (Qt.Key_Return, Qt.Key_Enter):
            self.finish()
        elif key == Qt.Key_Escape:
            self.cancel()
        elif key == Qt.Key_Backspace and self.line:
            self.line.pop()
            self._update(None)
        else:
            return False
        return True

    def state_detail(self) -> str:
        if self.state is SplitState.DRAWING_LINE:
            return f"drawing a cutting line, {len(self.line)} point(s)"
        return ""

    def status_text(self) -> str:
        if self.message:
            return self.message
        if self.mode is SplitMode.CELLS:
            return "Click a footprint to divide it into areas of about the area size."
        return "Click points of a line across an area; Enter or double-click cuts."


class MergeState(enum.Enum):
    IDLE = "idle"
    PICKING = "picking"


class MergeTool(AbstractTool):
    """Click areas to pick them (they highlight); Enter or double-click merges them."""

    name = "Merge"
    shortcut = "M"

    def __init__(self) -> None:
        super().__init__()
        self.state = MergeState.IDLE

    def mouse_pressed(self, e: ToolEvent) -> None:
        if e.button != Qt.LeftButton:
            return
        a = self.scene.area_at(e.pos)
        if a is None:
            return
        picked = list(self.doc.selection.areas) if self.state is MergeState.PICKING else []
        if a.id in picked:
            picked.remove(a.id)
        else:
            picked.append(a.id)
        self.doc.select_areas(picked)
        self.state = MergeState.PICKING if picked else MergeState.IDLE

    def mouse_double_clicked(self, e: ToolEvent) -> None:
        self.merge()

    def merge(self) -> None:
        ids = list(self.doc.selection.areas)
        try:
            self.doc.push(MergeAreasCommand(self.doc, ids))
        except ValueError as exc:
            self.fail(str(exc))
            return
        self.doc.select_areas(ids[:1])
        self.state = MergeState.IDLE
        self.message = f"Merged into {ids[0]}."

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if key in (Qt.Key_Return, Qt.Key_Enter):
            self.merge()
            return True
        if key == Qt.Key_Escape:
            self.state = MergeState.IDLE
            self.doc.set_selection(Selection())
            return True
        return False

    def status_text(self) -> str:
        if self.message:
            return self.message
        return "Click the areas to merge (the first keeps its id); Enter merges."

    def state_detail(self) -> str:
        if self.state is MergeState.PICKING and self.view is not None:
            return f"picking, {len(self.doc.selection.areas)} area(s)"
        return ""


class DeleteTool(AbstractTool):
    """Click a feature or an area to delete it."""

    name = "Delete"
    shortcut = "D"

    def mouse_pressed(self, e: ToolEvent) -> None:
        assert self.view is not None
        if e.button != Qt.LeftButton:
            return
        feat = self.scene.feature_at(e.scene_pos, self.view.transform())
        if feat is not None:
            self.doc.push(RemoveFeaturesCommand(self.doc, [feat.index]))
            return
        a = self.scene.area_at(e.pos)
        if a is not None:
            self.doc.push(RemoveAreasCommand(self.doc, [a.id]))

    def status_text(self) -> str:
        return "Click a feature or an area to delete it (Ctrl+Z brings it back)."
