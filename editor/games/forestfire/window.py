"""The Forest Fire editor window: the track, a token brush, the engines' properties and
a test turn with a policy per side, or a human seat that clicks the legal decisions."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMainWindow,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from fireground.engine.core.dice import Dice
from fireground.engine.games.forestfire.play import policy_seed, start_state
from fireground.engine.games.forestfire.policies import POLICIES, make_policy
from fireground.engine.games.forestfire.report import describe_event
from fireground.engine.games.forestfire.scenario import Setup, default_setup, load_setup
from fireground.engine.games.forestfire.state import SIDES, Action, State
from fireground.engine.games.forestfire.steps import apply, legal_actions

from .document import FFDocument, SetEngineCommand, SetTokensCommand, snapshot
from .track import TrackWidget

HUMAN = "human"
#: Forest Fire windows open now (Qt would close one whose Python object is collected).
_OPEN: list[QMainWindow] = []


class NewBoardDialog(QDialog):
    """Track length and square size of a new board."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New Forest Fire board")
        form = QFormLayout(self)
        self.squares = QSpinBox(minimum=3, maximum=40, value=11)
        self.size = QDoubleSpinBox(minimum=1.0, maximum=20.0, value=5.0, suffix=" cm")
        form.addRow("Squares", self.squares)
        form.addRow("Square size", self.size)
        bb = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        form.addRow(bb)


class ForestFireWindow(QMainWindow):
    """One Forest Fire board being edited."""

    def __init__(self, setup: Setup, path: Path | None = None) -> None:
        super().__init__()
        self.doc = FFDocument(setup, path)
        self.setWindowTitle(f"Forest Fire - {path.name if path else 'new board'}")
        central = QWidget()
        lay = QVBoxLayout(central)
        self.track = TrackWidget(self.doc)
        self.track.paint_square.connect(self._paint)
        lay.addWidget(self.track)

        # the board: the token brush and each engine's start (every edit undoable)
        board = QGroupBox("Board")
        props = QFormLayout(board)
        brush_row = QHBoxLayout()
        self.brush = QSpinBox(minimum=1, maximum=99, value=1)  # no 1-5 cap here
        self.brush.setToolTip("Fire tokens a left click puts on a square (any count)")
        brush_row.addWidget(self.brush)
        brush_row.addWidget(QLabel("tokens (left click paints a square, right click clears it)"))
        brush_row.addStretch(1)
        props.addRow("Token brush", brush_row)
        self.engine_spins: list[tuple[QSpinBox, QSpinBox]] = []
        cap = setup.rules().capacity
        for i, e in enumerate(setup.engines):
            sq = QSpinBox(minimum=1, maximum=setup.squares, value=e.square)
            water = QSpinBox(minimum=0, maximum=cap, value=e.water)
            sq.valueChanged.connect(lambda v, i=i: self._engine(i, "square", v))
            water.valueChanged.connect(lambda v, i=i: self._engine(i, "water", v))
            h = QHBoxLayout()
            h.addWidget(QLabel("on square"))
            h.addWidget(sq)
            h.addSpacing(16)
            h.addWidget(QLabel(f"water (0-{cap})"))
            h.addWidget(water)
            h.addStretch(1)
            props.addRow(f"Engine {e.id}", h)
            self.engine_spins.append((sq, water))
        lay.addWidget(board)

        # the test turn: a policy (or a human) per side
        test = QGroupBox("Test turn")
        tlay = QVBoxLayout(test)
        turn = QHBoxLayout()
        self.side_policy: dict[str, QComboBox] = {}
        for side in SIDES:
            cb = QComboBox()
            cb.addItems([*POLICIES, HUMAN])
            cb.setCurrentText("greedy")
            cb.setToolTip(f"Who decides for {side}: a policy, or you ({HUMAN})")
            turn.addWidget(QLabel(side.capitalize()))
            turn.addWidget(cb)
            turn.addSpacing(16)
            self.side_policy[side] = cb
        turn.addStretch(1)
        self.play_button = QPushButton("Play a turn")
        self.play_button.clicked.connect(self.play_turn)
        self.reset_button = QPushButton("Reset game")
        self.reset_button.clicked.connect(self.reset_game)
        turn.addWidget(self.play_button)
        turn.addWidget(self.reset_button)
        tlay.addLayout(turn)
        self.status = QLabel("")
        tlay.addWidget(self.status)
        self.choices = QListWidget()
        self.choices.itemDoubleClicked.connect(lambda _it: self.do_choice())
        self.do_button = QPushButton("Do the chosen decision")
        self.do_button.clicked.connect(self.do_choice)
        self.log = QListWidget()
        panes = QHBoxLayout()
        left = QVBoxLayout()
        left.addWidget(QLabel("Your legal decisions (human seat; double click does one):"))
        left.addWidget(self.choices)
        left.addWidget(self.do_button)
        right = QVBoxLayout()
        right.addWidget(QLabel("Turn log"))
        right.addWidget(self.log)
        panes.addLayout(left, 1)
        panes.addLayout(right, 1)
        tlay.addLayout(panes, 1)
        lay.addWidget(test, 1)
        self.setCentralWidget(central)
        self.state: State | None = None
        self._legal: list[Action] = []
        self.seed = 0
        self.doc.changed.connect(self._sync)
        self._build_menu()

    # -- editing (every change goes through the undo stack) ----------------------------
    def _paint(self, square: int, clear: bool) -> None:
        self.doc.undo.push(SetTokensCommand(self.doc, square, 0 if clear else self.brush.value()))

    def _engine(self, index: int, field: str, value: int) -> None:
        if getattr(self.doc.setup.engines[index], field) != value:
            self.doc.undo.push(SetEngineCommand(self.doc, index, field, value))

    def _sync(self) -> None:
        """Model -> widgets (after an undo), guarded against feedback."""
        for e, (sq, water) in zip(self.doc.setup.engines, self.engine_spins, strict=True):
            for spin, v in ((sq, e.square), (water, e.water)):
                if spin.value() != v:
                    spin.blockSignals(True)
                    spin.setValue(v)
                    spin.blockSignals(False)
        self.track.update()

    def _build_menu(self) -> None:
        m = self.menuBar().addMenu("&File")
        m.addAction("&Save", self.save_dialog)
        e = self.menuBar().addMenu("&Edit")
        e.addAction(self.doc.undo.createUndoAction(self))
        e.addAction(self.doc.undo.createRedoAction(self))

    def save_dialog(self) -> None:
        path = self.doc.path
        if path is None:
            name, _ = QFileDialog.getSaveFileName(
                self, "Save Forest Fire board", "", "Scenario (*.fg.yaml)"
            )
            if not name:
                return
            path = Path(name)
        self.doc.save(path)

    # -- the test game -----------------------------------------------------------------
    def reset_game(self) -> None:
        self.state = None
        self.track.game_state = None
        self.choices.clear()
        self.log.clear()
        self.status.setText("")
        self.track.update()

    def _start(self) -> None:
        s = snapshot(self.doc.setup)
        self.rules = s.rules()
        self.game_setup = s
        self.state = start_state(s, self.rules)
        self.dice = Dice(self.seed)
        self.players = {
            side: make_policy(cb.currentText(), policy_seed(self.seed, side))
            for side, cb in self.side_policy.items()
            if cb.currentText() != HUMAN
        }

    def play_turn(self) -> None:
        """Play the side to move's whole turn; a human side waits for its clicks."""
        if self.state is None or self.state.over:
            self._start()
        assert self.state is not None
        side, rnd = self.state.side, self.state.round
        if side not in self.players:
            self._offer()
            return
        # a searching player takes up to a second or so a turn: say the window is busy
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            while not self.state.over and self.state.side == side and self.state.round == rnd:
                legal = legal_actions(self.state, self.rules)
                self._apply(self.players[side](self.state, legal, self.rules))
        finally:
            QApplication.restoreOverrideCursor()
        self._offer()

    def _apply(self, a: Action) -> None:
        assert self.state is not None
        self.state, events = apply(self.state, a, self.rules, self.dice)
        for ev in events:
            self.log.addItem(describe_event(ev))
        self.log.scrollToBottom()
        self.track.game_state = self.state
        self.track.update()

    def _offer(self) -> None:
        """List the human side's legal decisions (or say whose turn it is)."""
        self.choices.clear()
        self._legal = []
        st = self.state
        if st is None:
            return
        if st.over:
            self.status.setText(f"Game over: {st.vp} VP ({st.phase.why})")
            return
        self.status.setText(f"Round {st.round}: {st.side} to decide ({st.phase.kind}), VP {st.vp}")
        if st.side not in self.players:
            self._legal = legal_actions(st, self.rules)
            self.choices.addItems([a.label() for a in self._legal])
            self.choices.setCurrentRow(0)

    def do_choice(self) -> None:
        row = self.choices.currentRow()
        if self.state is None or not 0 <= row < len(self._legal):
            return
        side, rnd = self.state.side, self.state.round
        self._apply(self._legal[row])
        turn_over = self.state.side != side or self.state.round != rnd
        if not self.state.over and turn_over and self.state.side in self.players:
            # the human's turn is over: the program plays the other side's turn at once
            self.play_turn()
            return
        self._offer()


def open_new_board(parent: QWidget | None = None) -> ForestFireWindow | None:
    """File > New Forest Fire board: ask for the track, open a window on it."""
    dlg = NewBoardDialog(parent)
    if dlg.exec() != QDialog.DialogCode.Accepted:
        return None
    w = ForestFireWindow(default_setup(dlg.squares.value(), dlg.size.value()))
    w.show()
    _OPEN.append(w)  # keep a Python reference while the window is open
    return w


def open_board(path: str) -> ForestFireWindow:
    w = ForestFireWindow(load_setup(path), Path(path))
    w.show()
    _OPEN.append(w)
    return w


def cli_edit(args: argparse.Namespace) -> int:
    """``fireground edit FILE`` for a Forest Fire scenario (``--screenshot PNG`` too)."""
    from fireground.engine.core.errors import ScenarioError

    app = QApplication.instance() or QApplication(sys.argv[:1])
    try:
        w = open_board(args.file)
    except ScenarioError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    shot = getattr(args, "screenshot", None)
    if shot:
        w.resize(1000, 650)
        app.processEvents()
        return 0 if w.grab().save(shot) else 1
    return int(app.exec())
