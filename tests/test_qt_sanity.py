"""Guard against the PySide6 6.12.0 bug that drops a reference to None on every void call.

With the bug, 10,000 calls such as ``setPos`` lower ``sys.getrefcount(None)`` by 10,000 and
the interpreter eventually aborts in ``none_dealloc``. pyproject pins PySide6 below 6.12.
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QGraphicsRectItem


def test_void_qt_calls_keep_none_refcount(qapp: object) -> None:
    item = QGraphicsRectItem(0, 0, 10, 10)
    brush = QBrush(QColor("red"))
    item.setBrush(brush)
    item.setPos(0, 0)  # warm up any caches first
    before = sys.getrefcount(None)
    for i in range(5_000):
        item.setPos(i, i)
        item.setBrush(brush)
    after = sys.getrefcount(None)
    # Unrelated code may take or drop a handful of references; the bug drops 10,000.
    assert abs(after - before) < 100, (before, after)
