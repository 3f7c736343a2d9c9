"""Test turn (umpire): play turns on a copy and draw the state; the scenario is changed
only by "Use this state as the start"."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ....commands import UseStateAsStartCommand
from ....document import Document
from ....scene.map_scene import MapScene
from .events import describe_event, event_locations

#: A turn heading's own text (without the fold mark), and whether its rolls show.
HEADING_ROLE = Qt.UserRole + 1
EXPANDED_ROLE = Qt.UserRole + 2
RUN_TIP = "Play this many turns (up to the scenario's last) and list all their rolls"
#: The roll list shows at least this many rows.
LIST_ROWS = 8


class TestTurnPanel(QWidget):
    __test__ = False  # not a pytest class

    def __init__(self, doc: Document, scene: MapScene) -> None:
        super().__init__()
        self.doc = doc
        self.scene = scene
        self.game: Any = None
        self.last_state: dict[str, Any] | None = None
        #: Each turn's heading row and its roll rows, in the events list.
        self._turns: list[tuple[QListWidgetItem, list[QListWidgetItem]]] = []
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(doc.scenario.seed or 1)
        self.step_btn = QPushButton("Step")
        self.step_btn.clicked.connect(lambda: self.run(1))
        self.n = QSpinBox()
        self.n.setRange(1, 500)
        self.n.setValue(5)
        self.run_btn = QPushButton()
        self.run_btn.setToolTip(RUN_TIP)
        self.run_btn.clicked.connect(lambda: self.run(self.n.value()))
        self.n.valueChanged.connect(self._run_label)
        self._run_label(self.n.value())
        self.step_btn.setToolTip("Play one turn and list its rolls")
        self.reset_btn = QPushButton("Reset")
        self.reset_btn.clicked.connect(self.reset)
        self.use_btn = QPushButton("Use this state as the start")
        self.use_btn.clicked.connect(self.use_state)
        self.use_btn.setEnabled(False)
        self.status = QLabel("Turn 0: the start as drawn.")
        self.events = QListWidget()
        self.events.itemClicked.connect(self._clicked)
        self.events.setMinimumHeight(LIST_ROWS * (self.events.fontMetrics().height() + 2) + 6)
        row1 = QHBoxLayout()
        row1.addWidget(QLabel("Seed"))
        row1.addWidget(self.seed)
        row1.addSpacing(12)
        row1.addWidget(self.step_btn)
        row1.addWidget(self.run_btn)
        row1.addWidget(QLabel("turns:"))
        row1.addWidget(self.n)
        row1.addWidget(self.reset_btn)
        row1.addStretch(1)
        row1.addWidget(self.use_btn)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.setSpacing(2)
        lay.addLayout(row1)
        lay.addWidget(self.status)
        lay.addWidget(self.events, 1)
        # An edit to the scenario makes the test game stale.
        doc.scenarioChanged.connect(lambda *_: self.reset())

    def run(self, turns: int) -> None:
        try:
            from fireground.engine.play.simulate import new_game
        except ImportError:
            self.status.setText("The rules engine is not available.")
            return
        self.scene.set_highlights([])  # the rings of the last run's rolls are old news
        last = self.doc.scenario.turns
        try:
            if self.game is None:
                self.game = new_game(self.doc.scenario, self.seed.value())
            played = self.game.state.turn
            if played >= last:
                self.status.setText(
                    f"Turn {played} was the scenario's last turn ({last}): the game is over. "
                    "Reset to play it again."
                )
                self._at_end(True)
                return
            logs = [self.game.step() for _ in range(min(turns, last - played))]
        except Exception as exc:  # a broken scenario: say so instead of crashing the editor
            self.status.setText(f"Cannot play this scenario yet: {exc}")
            self.game = None
            return
        log = logs[-1]
        self.last_state = log.state
        self.scene.set_state(log.state)
        self.events.clear()
        self._turns = []
        for turn in logs:
            # Every turn played is listed, each under its heading, so Run N loses no roll.
            head = QListWidgetItem()
            font = head.font()
            font.setBold(True)
            head.setFont(font)
            head.setData(Qt.UserRole, [])
            head.setData(HEADING_ROLE, f"Turn {turn.turn}: {len(turn.events)} roll(s)")
            head.setToolTip("Click to show or hide this turn's rolls")
            self.events.addItem(head)
            rows = []
            for ev in turn.events:
                logged = ev.to_json()  # the helpers read the log's JSON (saved logs too)
                it = QListWidgetItem("    " + describe_event(logged))
                it.setData(Qt.UserRole, event_locations(logged))
                self.events.addItem(it)
                rows.append(it)
            self._turns.append((head, rows))
        # The umpire wants the turn just played: earlier turns fold to their headings.
        for i, (head, _rows) in enumerate(self._turns):
            self._expand(head, i == len(self._turns) - 1)
        last_head = self._turns[-1][0]
        self.events.setCurrentItem(last_head)
        self.events.scrollToItem(last_head, QAbstractItemView.PositionAtTop)
        fires = len(log.state.get("fires", []))
        rolls = sum(len(t.events) for t in logs)
        played = f"turns {logs[0].turn}-{log.turn}" if len(logs) > 1 else f"turn {log.turn}"
        end = log.turn >= last
        self.status.setText(
            f"Turn {log.turn}: {fires} location(s) burning; {rolls} roll(s) in {played}."
            + (f" That was the scenario's last turn ({last}): the game is over." if end else "")
        )
        self._at_end(end)
        self.use_btn.setEnabled(True)

    def _at_end(self, end: bool) -> None:
        """After the last turn, Step and Run have nothing left to play."""
        for b in (self.step_btn, self.run_btn):
            b.setEnabled(not end)
            b.setToolTip(
                "The game is over: Reset to play it again"
                if end
                else ("Play one turn and list its rolls" if b is self.step_btn else RUN_TIP)
            )

    def _expand(self, head: QListWidgetItem, expanded: bool) -> None:
        """Show or hide one turn's rolls under its heading."""
        for h, rows in self._turns:
            if h is head:
                for it in rows:
                    it.setHidden(not expanded)
                mark = "▾" if expanded else "▸"
                head.setText(f"{head.data(HEADING_ROLE)} {mark}")
                head.setData(EXPANDED_ROLE, expanded)

    def _run_label(self, n: int) -> None:
        self.run_btn.setText(f"Run {n} turns" if n != 1 else "Run 1 turn")

    def reset(self) -> None:
        if self.game is None and self.last_state is None:
            return
        self.game = None
        self.last_state = None
        self.events.clear()
        self._turns = []
        self.scene.set_state(None)
        self.scene.set_highlights([])
        self.status.setText("Turn 0: the start as drawn.")
        self.use_btn.setEnabled(False)
        self._at_end(False)

    def use_state(self) -> None:
        if self.last_state is None or self.game is None:
            return
        state, turn = self.last_state, self.game.state.turn
        self.doc.push(UseStateAsStartCommand(self.doc, state, turn))

    def _clicked(self, item: QListWidgetItem) -> None:
        if item.data(HEADING_ROLE):
            self._expand(item, not item.data(EXPANDED_ROLE))
        locs = item.data(Qt.UserRole) or []
        locs = [tuple(x) for x in locs]
        if locs:
            self.doc.set_level(int(locs[0][1]))
        self.scene.set_highlights(locs)
