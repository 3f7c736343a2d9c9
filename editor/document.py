"""The editor's document: one scenario, its file, undo stack and selection.

Nothing but an undo command assigns ``scenario`` (through :meth:`Document.apply`), so
every edit can be undone. Views listen to the typed signals.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from fireground.engine.board.model import Scenario
from fireground.engine.core.packs import DEFAULT_GAME

from .geometry import SnapIndex


@dataclass(frozen=True, slots=True)
class Selection:
    """What is selected: areas by id, features by index, units by id, one building."""

    areas: tuple[str, ...] = ()
    features: tuple[int, ...] = ()
    units: tuple[str, ...] = ()
    building: str | None = None

    def __bool__(self) -> bool:
        return bool(self.areas or self.features or self.units or self.building)


class Document(QObject):
    #: (old scenario, new scenario) after every change, undo and redo included.
    scenarioChanged = Signal(object, object)
    selectionChanged = Signal(object)
    modifiedChanged = Signal(bool)
    fileNameChanged = Signal(str)
    levelChanged = Signal(int)
    #: the game the scenario is for: a polygon map of format v1 has no ``game:`` key, so
    #: the default game; its pack names the editor's panels for it (editor/games/)
    game = DEFAULT_GAME

    def __init__(self, scenario: Scenario | None = None, path: str | Path | None = None) -> None:
        super().__init__()
        from .background import on_open

        # The background image path is kept absolute while the file is open.
        self._scenario = on_open(scenario, path) if scenario is not None else default_scenario()
        self._path: Path | None = Path(path) if path else None
        self._selection = Selection()
        self._level = 0
        self._snap_index: SnapIndex | None = None
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

    def _on_clean_changed(self, clean: bool) -> None:
        self.modifiedChanged.emit(not clean)

    # -- scenario ---------------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self._scenario

    def apply(self, new: Scenario) -> None:
        """Replace the scenario. Only undo commands call this."""
        old = self._scenario
        if new is old:
            return
        self._scenario = new
        if new.areas is not old.areas and self._snap_index is not None:
            self._snap_index = self._snap_index.updated(new.areas)
        sel = self._selection
        valid = Selection(
            areas=tuple(a for a in sel.areas if a in new.area_by_id),
            features=tuple(i for i in sel.features if i < len(new.features)),
            units=tuple(u for u in sel.units if any(f.id == u for f in new.forces)),
            building=sel.building if sel.building in new.building_by_id else None,
        )
        self.scenarioChanged.emit(old, new)
        if valid != sel:
            self.set_selection(valid)

    def push(self, command: object) -> None:
        """Push an undo command (it applies itself at once)."""
        self.undo_stack.push(command)  # type: ignore[arg-type]

    def snap_index(self) -> SnapIndex:
        if self._snap_index is None:
            self._snap_index = SnapIndex(self._scenario.areas)
        return self._snap_index

    # -- file -------------------------------------------------------------------------------
    @property
    def path(self) -> Path | None:
        return self._path

    def set_path(self, path: str | Path | None) -> None:
        self._path = Path(path) if path else None
        self.fileNameChanged.emit(str(self._path or ""))

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    def mark_saved(self) -> None:
        self.undo_stack.setClean()

    # -- selection and level ----------------------------------------------------------------
    @property
    def selection(self) -> Selection:
        return self._selection

    def set_selection(self, sel: Selection) -> None:
        if sel != self._selection:
            self._selection = sel
            self.selectionChanged.emit(sel)

    def select_areas(self, ids: tuple[str, ...] | list[str]) -> None:
        self.set_selection(Selection(areas=tuple(ids)))

    @property
    def level(self) -> int:
        return self._level

    def set_level(self, level: int) -> None:
        if level != self._level:
            self._level = level
            self.levelChanged.emit(level)

    def level_range(self) -> range:
        """Every level any building of the scenario has (at least level 0)."""
        s = self._scenario
        lo = min((b.level_range.start for b in s.buildings), default=0)
        hi = max((b.levels for b in s.buildings), default=1)
        return range(min(lo, 0), max(hi, 1))


def default_scenario() -> Scenario:
    """An empty scenario for File > New."""
    return Scenario(name="Untitled scenario")
