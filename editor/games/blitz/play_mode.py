"""Play mode: the umpire's console for a real game with miniatures.

Start or open a game (``*.fgame.yaml``, the game file of ``fireground play``); the map shows
the game's state on every level. Click a unit (in the list, or on the map) to list the orders
it can take now, each refused one with the rule that forbids it; click an order to give it,
or drag the unit on the map to where its miniature went. "Resolve turn" plays the turn with
the orders given (the other units on standing orders), saves the game file and lists the
table delta, place by place, to tick off while the table is brought up to date. With "Roll
dice at the table" the program names each roll it needs and the umpire types what the dice
showed. "Undo turn" takes the last turn back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFileDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...scene.items import MarkerText
from ...tools.base import AbstractTool, ToolEvent

if TYPE_CHECKING:
    # the engine's play modules load with the first game, not with the editor
    from fireground.engine.games.blitz.choices import Choice
    from fireground.engine.games.blitz.delta import Change
    from fireground.engine.games.blitz.orders.check import Order
    from fireground.engine.play.table import RollRequest, TableGame

    from ...main_window import MainWindow


def place(loc: Any) -> str:
    from fireground.engine.board.model import place as engine_place

    return engine_place(loc)


GAME_FILTER = "fireground games (*.fgame.yaml);;All files (*)"
CHOICE_ROLE = Qt.UserRole + 10
PLACE_ROLE = Qt.UserRole + 11
REFUSED = QColor("#9a9a9a")


class RollDialog(QDialog):
    """One roll at the table: what it is for and what it needs; the umpire types the dice."""

    def __init__(self, req: RollRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Roll {req.index + 1}")
        self.req = req
        self.values: list[int] | None = None
        self.rest_auto = False
        self.label = QLabel(req.label())
        self.label.setWordWrap(True)
        self.entry = QLineEdit()
        self.entry.setPlaceholderText("e.g. 4" if req.dice == 1 else "e.g. 3 5")
        self.problem = QLabel("")
        self.problem.setStyleSheet("color: #b00020")
        ok = QPushButton("OK")
        ok.setDefault(True)
        ok.clicked.connect(self._ok)
        mine = QPushButton("Program rolls this")
        mine.clicked.connect(self.reject)
        rest = QPushButton("Program rolls the rest")
        rest.clicked.connect(self._rest)
        lay = QVBoxLayout(self)
        lay.addWidget(self.label)
        lay.addWidget(self.entry)
        lay.addWidget(self.problem)
        row = QHBoxLayout()
        for b in (ok, mine, rest):
            row.addWidget(b)
        lay.addLayout(row)

    def _ok(self) -> None:
        parts = self.entry.text().replace(",", " ").split()
        if len(parts) == self.req.dice and all(len(p) == 1 and p in "123456" for p in parts):
            self.values = [int(p) for p in parts]
            self.accept()
            return
        n = self.req.dice
        self.problem.setText(f"Type {n} number{'s' * (n > 1)} from 1 to 6.")

    def _rest(self) -> None:
        self.rest_auto = True
        self.reject()


class PlayTool(AbstractTool):
    """The map in Play mode: click a unit to list its orders, drag it to move it."""

    name = "play"
    cursor = Qt.OpenHandCursor  # a shape: a QCursor needs the QApplication first

    def __init__(self, panel: PlayPanel) -> None:
        super().__init__()
        self.panel = panel
        self._held: tuple[str, tuple[float, float]] | None = None

    def unit_near(self, scene_pos: QPointF) -> str | None:
        assert self.view is not None
        for it in self.scene.items(
            scene_pos, Qt.IntersectsItemShape, Qt.DescendingOrder, self.view.transform()
        ):
            if isinstance(it, MarkerText) and getattr(it, "role", "") == "unit":
                return str(it.text())
        return None

    def mouse_pressed(self, e: ToolEvent) -> None:
        if e.button != Qt.LeftButton:
            return
        uid = self.unit_near(e.scene_pos)
        self._held = (uid, e.pos) if uid else None
        if uid:
            self.panel.select_unit(uid)

    def mouse_released(self, e: ToolEvent) -> None:
        held, self._held = self._held, None
        if held is None:
            return
        uid, start = held
        if abs(e.pos[0] - start[0]) + abs(e.pos[1] - start[1]) < 0.5:
            return  # a click: the unit is selected, its orders listed
        area = self.scene.area_at(e.pos)
        if area is None:
            self.panel.say(f"{uid} cannot go off the map", refused=True)
            return
        self.panel.drag_unit(uid, (area.id, self.doc.level))

    def status_text(self) -> str:
        return "Play: click a unit for its orders, drag it to where its miniature went"


class PlayPanel(QWidget):
    """The Play dock."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window = window
        self.tg: TableGame | None = None
        self.path: Path | None = None
        self.pending: list[Order] = []
        self.selected: str | None = None
        self.changes: list[Change] = []
        #: the dialog of a roll at the table (tests and scripts may replace it)
        self.roll_dialog: Callable[[RollRequest], RollDialog] = lambda r: RollDialog(r, self)
        self.tool = PlayTool(self)
        window.doc.levelChanged.connect(lambda *_: self._highlight())
        window.doc.scenarioChanged.connect(lambda *_: self._edited())

        self.start_btn = QPushButton("Start game…")
        self.start_btn.setToolTip("Begin a game of this scenario and choose its game file")
        self.start_btn.clicked.connect(self._start_dialog)
        self.open_btn = QPushButton("Open game…")
        self.open_btn.clicked.connect(self._open_dialog)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(window.doc.scenario.seed or 1)
        self.resolve_btn = QPushButton("Resolve turn")
        self.resolve_btn.clicked.connect(self.resolve)
        self.undo_btn = QPushButton("Undo turn")
        self.undo_btn.clicked.connect(self.undo_turn)
        self.sheet_btn = QPushButton("Turn sheet…")
        self.sheet_btn.setToolTip("Print the last turn's changes and rolls on one page (PDF)")
        self.sheet_btn.clicked.connect(self._sheet_dialog)
        self.manual = QCheckBox("Roll dice at the table")
        self.manual.setToolTip("The program names each roll it needs; type what the dice show")
        self.status = QLabel("No game: start one from this scenario, or open a game file.")
        self.status.setWordWrap(True)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.units = QListWidget()
        self.units.itemClicked.connect(lambda it: self.select_unit(it.data(Qt.UserRole)))
        self.orders_title = QLabel("Orders")
        self.choices = QListWidget()
        self.choices.itemClicked.connect(self._choice_clicked)
        self.given = QListWidget()
        self.given.setToolTip("Orders for the next turn; double-click one to take it back")
        self.given.itemDoubleClicked.connect(self._take_back)
        self.delta_title = QLabel("On the table")
        self.delta = QListWidget()
        self.delta.itemClicked.connect(self._delta_clicked)
        self.levels = QLabel("")

        top = QHBoxLayout()
        for w in (self.start_btn, self.open_btn, QLabel("Seed"), self.seed):
            top.addWidget(w)
        top.addSpacing(12)
        for w in (self.resolve_btn, self.undo_btn, self.sheet_btn, self.manual):
            top.addWidget(w)
        top.addStretch(1)
        grid = QGridLayout()
        columns = (
            (QLabel("Units on the table"), self.units, 3),
            (self.orders_title, self.choices, 3),
            (QLabel("Given for the next turn"), self.given, 2),
            (self.delta_title, self.delta, 4),
        )
        for col, (title, lst, stretch) in enumerate(columns):
            grid.addWidget(title, 0, col)
            grid.addWidget(lst, 1, col)
            grid.setColumnStretch(col, stretch)
        # in a scroll area, so the Play tab does not make the bottom docks (and so the map)
        # any taller than the Test turn does; a tall dock shows it all
        inner = QWidget()
        lay = QVBoxLayout(inner)
        lay.setContentsMargins(4, 4, 4, 4)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.NoFrame)
        scroll.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        lay.addLayout(top)
        lay.addWidget(self.status)
        lay.addWidget(self.message)
        lay.addWidget(self.levels)
        lay.addLayout(grid, 1)
        self._enable()

    # -- games ----------------------------------------------------------------------------------
    def _start_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Start a game", "game.fgame.yaml", GAME_FILTER)
        if path:
            self.start(path, self.seed.value())

    def _open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a game", "", GAME_FILTER)
        if path:
            open_game(self.window, path)

    def _sheet_dialog(self) -> None:
        if self.tg is None or not self.tg.turns:
            return
        name = f"turn{self.tg.turn}.pdf"
        path, _ = QFileDialog.getSaveFileName(self, "Turn sheet", name, "PDF (*.pdf)")
        if path:
            self.write_sheet(path)

    def write_sheet(self, path: str | Path) -> None:
        """The turn sheet of the last turn played (its delta, even after an undo's list)."""
        from fireground.engine.games.blitz.delta import table_delta
        from fireground.export.games.blitz.turn_sheet import write_turn_sheet

        assert self.tg is not None and self.tg.turns
        turns = self.tg.turns
        last = turns[-1]
        before: dict[str, Any] | None
        if len(turns) > 1:
            prev = turns[-2].log
            before = prev.state if prev is not None else None
        else:
            from fireground.engine.games.blitz.state import initial_state

            g = self.tg.game
            before = initial_state(g.scenario, g.rules).to_log()
        if last.log is None or before is None:
            return  # every turn played or replayed has its log: not reached
        try:
            write_turn_sheet(self.tg, table_delta(before, last.log.state), path)
        except OSError as exc:
            self.say(f"The turn sheet could not be written: {exc}", refused=True)
            return
        self.say(f"Turn sheet of turn {last.turn} written to {Path(path).name}.")

    def start(self, path: str | Path, seed: int) -> bool:
        """Begin a game of the scenario being edited, saved to ``path``."""
        from fireground.engine.games.blitz.checks.run import error_lines
        from fireground.engine.play.gamefile import save_game
        from fireground.engine.play.table import start_game

        scenario = self.window.doc.scenario
        errors = error_lines(scenario, str(self.window.doc.path or "scenario"))
        if errors:
            QMessageBox.warning(self, "Cannot start a game", "\n".join(errors[:10]))
            return False
        tg = start_game(scenario, seed)
        try:
            save_game(tg, path, backup=False)
        except OSError as exc:
            QMessageBox.critical(self, "Cannot save the game", str(exc))
            return False
        self.set_game(tg, Path(path))
        self.say(f"Game started: {Path(path).name}, seed {tg.seed}.")
        return True

    def set_game(self, tg: TableGame, path: Path) -> None:
        self.tg, self.path = tg, path
        self.pending = []
        self.changes = []
        self.window.view.set_tool(self.tool)
        self._refresh()

    # -- orders --------------------------------------------------------------------------------
    def select_unit(self, uid: str) -> None:
        """List the orders ``uid`` can take now (the refused ones with their rule)."""
        if self.tg is None:
            return
        self.selected = uid
        from fireground.engine.games.blitz.choices import order_choices

        g = self.tg.game
        self.orders_title.setText(f"Orders for {uid}")
        self.choices.clear()
        for c in order_choices(g.ctx, g.state, uid):
            it = QListWidgetItem(c.label if c.refused is None else f"✗ {c.label} — {c.refused}")
            it.setData(CHOICE_ROLE, c)
            if c.refused is not None:
                it.setForeground(QBrush(REFUSED))
                it.setToolTip(c.refused)
            self.choices.addItem(it)
        for i in range(self.units.count()):
            it = self.units.item(i)
            if it.data(Qt.UserRole) == uid:
                self.units.setCurrentItem(it)

    def _choice_clicked(self, item: QListWidgetItem) -> None:
        c: Choice = item.data(CHOICE_ROLE)
        if c.order.kind == "move" and c.order.to is None:
            self.say("Drag the unit on the map to where its miniature went.")
            return
        self.give(c)

    def drag_unit(self, uid: str, to: tuple[str, int]) -> None:
        if self.tg is None:
            return
        from fireground.engine.games.blitz.choices import move_choice

        g = self.tg.game
        self.give(move_choice(g.ctx, g.state, uid, to))

    def give(self, c: Choice) -> None:
        """Give an order for the next turn (one per unit: a new one replaces the last), or
        say which rule refuses it."""
        if c.refused is not None:
            self.say(f"Refused: {c.order.unit} {c.label}: {c.refused}", refused=True)
            return
        order = dataclasses.replace(c.order, where="Play mode")  # named if refused at step 6
        self.pending = [o for o in self.pending if o.unit != c.order.unit] + [order]
        self.say(f"{c.order.unit}: {c.label} (for turn {self._next()})")
        self._list_given()

    def _take_back(self, item: QListWidgetItem) -> None:
        o: Order = item.data(Qt.UserRole)
        self.pending = [p for p in self.pending if p is not o]
        self._list_given()

    def _list_given(self) -> None:
        self.given.clear()
        for o in self.pending:
            what = place(o.to) if o.to else place(o.at) if o.at else o.source or o.pump or ""
            it = QListWidgetItem(f"{o.unit}: {o.kind.replace('_', ' ')} {what}".rstrip())
            it.setData(Qt.UserRole, o)
            self.given.addItem(it)

    # -- turns ---------------------------------------------------------------------------------
    def _ask(self) -> Callable[[RollRequest], list[int] | None]:
        auto = {"on": False}

        def ask(req: RollRequest) -> list[int] | None:
            if auto["on"]:
                return None
            dlg = self.roll_dialog(req)
            dlg.exec()
            if dlg.rest_auto:
                auto["on"] = True
            return dlg.values

        return ask

    def resolve(self) -> None:
        """Play the next turn with the orders given, autosave, list the table delta."""
        if self.tg is None or self.path is None:
            return
        from fireground.engine.games.blitz.delta import table_delta
        from fireground.engine.games.blitz.events import OrderEvent
        from fireground.engine.play.gamefile import save_game

        before = self.tg.state_log()
        manual = self._ask() if self.manual.isChecked() else None
        try:
            rec = self.tg.play(self.pending, manual)
        except ValueError as exc:  # a roll typed wrongly by a script
            self.say(f"The turn was not played: {exc}", refused=True)
            return
        self.pending = []
        assert rec.log is not None
        self.changes = table_delta(before, rec.log.state)
        self._save(save_game)
        refused = [e for e in rec.log.events if isinstance(e, OrderEvent) and e.refused is not None]
        table = sum(1 for r in rec.rolls if r.get("manual"))
        self.say(
            f"Turn {rec.turn} resolved: {len(rec.rolls)} rolls ({table} at the table), "
            f"{len(self.changes)} changes on the table"
            + "".join(f"; {e.unit} refused: {e.refused}" for e in refused)
        )
        self._refresh()

    def undo_turn(self) -> None:
        if self.tg is None or not self.tg.turns:
            return
        from fireground.engine.games.blitz.delta import table_delta
        from fireground.engine.play.gamefile import save_game
        from fireground.engine.play.table import undo

        turn = self.tg.turn
        undone = self.tg.state_log()
        self.tg = undo(self.tg)
        # what to change on the table to take the turn back
        self.changes = table_delta(undone, self.tg.state_log())
        self.pending = []
        self._save(save_game)
        self.say(f"Turn {turn} taken back: put the table back as listed.")
        self._refresh(undone=turn)

    def _save(self, save_game: Any) -> None:
        assert self.tg is not None and self.path is not None
        try:
            save_game(self.tg, self.path)
        except OSError as exc:
            self.say(f"The game could not be saved: {exc}", refused=True)

    # -- showing -------------------------------------------------------------------------------
    def _next(self) -> int:
        return (self.tg.turn if self.tg else 0) + 1

    def say(self, text: str, refused: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color: #b00020" if refused else "color: #1b5e20")

    def _enable(self) -> None:
        on = self.tg is not None
        self.resolve_btn.setEnabled(on)
        self.undo_btn.setEnabled(on and bool(self.tg and self.tg.turns))
        self.sheet_btn.setEnabled(on and bool(self.tg and self.tg.turns))

    def _refresh(self, undone: int | None = None) -> None:
        self._enable()
        tg = self.tg
        if tg is None:
            return
        from fireground.engine.games.blitz.delta import by_place

        state = tg.state_log()
        scene = self.window.scene
        scene.set_state(state)
        name = self.path.name if self.path else ""
        self.status.setText(
            f"{tg.scenario.name or 'Game'}: turn {tg.turn} of {tg.scenario.turns} played, "
            f"seed {tg.seed}; saved in {name} after every turn. Next: turn {tg.turn + 1}."
        )
        per_level: dict[int, int] = {}
        for f in state["fires"]:
            per_level[f["level"]] = per_level.get(f["level"], 0) + 1
        shown = " · ".join(f"level {lv}: {n}" for lv, n in sorted(per_level.items()))
        self.levels.setText(f"Fires by level: {shown or 'none'} (PgUp/PgDown changes level)")
        self.units.clear()
        for u in state["units"]:
            if "area" not in u:
                continue
            it = QListWidgetItem(f"{u['id']} ({u['type'].replace('_', ' ')}) at {place(u)}")
            it.setData(Qt.UserRole, u["id"])
            self.units.addItem(it)
        self.choices.clear()
        self.orders_title.setText("Orders")
        self._list_given()
        self.delta.clear()
        if undone is not None:
            title = f"On the table, to take turn {undone} back"
        else:
            title = f"On the table after turn {tg.turn}" if self.changes else "On the table"
        self.delta_title.setText(title)
        for where, cs in by_place(self.changes):
            it = QListWidgetItem(f"{where}: " + "; ".join(c.what for c in cs))
            it.setFlags(it.flags() | Qt.ItemIsUserCheckable)
            it.setCheckState(Qt.Unchecked)
            it.setData(PLACE_ROLE, [(c.area, c.level or 0) for c in cs if c.area is not None])
            self.delta.addItem(it)
        self._highlight()

    def _edited(self) -> None:
        if self.tg is not None:
            self.say("The scenario was edited: the game goes on with its own copy, saved in "
                     "the game file; reopen the game to see its map again.", refused=True)  # fmt: skip

    def _highlight(self) -> None:
        """Ring the places of the delta on the level shown."""
        if self.tg is None:
            return
        lvl = self.window.doc.level
        here = {(c.area, c.level or 0) for c in self.changes if c.area is not None}
        self.window.scene.set_highlights(sorted(loc for loc in here if loc[1] == lvl))

    def _delta_clicked(self, item: QListWidgetItem) -> None:
        locs = [tuple(x) for x in item.data(PLACE_ROLE) or []]
        if locs:
            self.window.doc.set_level(int(locs[0][1]))
            self.window.scene.set_highlights(locs)


def open_game(window: MainWindow, path: str | Path) -> bool:
    """Open a game file: the editor shows the game's own scenario (embedded in the file)."""
    from fireground.engine.core.errors import ScenarioError
    from fireground.engine.play.gamefile import load_game

    from ...document import Document

    try:
        tg = load_game(path)
    except (ScenarioError, OSError) as exc:
        QMessageBox.critical(window, "Cannot open the game", str(exc))
        return False
    if not window.maybe_save():
        return False
    window.set_document(Document(tg.scenario))
    window.play.set_game(tg, Path(path))
    window.play_dock.raise_()
    window.play.say(f"Game opened at turn {tg.turn}.")
    return True
