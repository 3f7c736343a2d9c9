"""Editor speed on synthetic cities (headless, QT_QPA_PLATFORM=offscreen).

    .venv/bin/python benchmarks/bench_editor.py [--sizes 5000,20000] [--repeat 5]

Figures: open (load the file, build the window and paint it once), a full-view repaint
(whole map in view, labels hidden by the level of detail), a repaint zoomed in with labels,
and one edit (a vertex moved) plus the issues refresh. Targets from the editor issue:
open <= 3 s, repaint <= 20 ms at 5,000 areas and <= 60 ms at 20,000, edit+issues <= 300 ms.
Then Analyze… in the editor (its worker process, from start to heat map) against the same
games in this process as ``fireground analyze --no-response`` plays them (issue 13: they
should take about as long; they took 6x as long).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from fireground.editor.commands import ChangePolygonCommand
from fireground.editor.document import Document
from fireground.editor.main_window import MainWindow
from fireground.engine.scenario.io import load_scenario
from fireground.engine.scenario.synthetic import write_synthetic_city

TARGET_REPAINT_MS = {5_000: 20.0, 20_000: 60.0}


def repaint_ms(win: MainWindow, repeat: int) -> float:
    vp = win.view.viewport()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        vp.repaint()
        times.append((time.perf_counter() - t) * 1000)
    # The best run: this machine is shared, and the others measure the neighbours.
    return min(times)


def bench(app: QApplication, n: int, repeat: int, folder: Path) -> None:
    path = folder / f"city{n}.fg.yaml"
    write_synthetic_city(path, n, seed=0)
    t0 = time.perf_counter()
    s = load_scenario(path)
    t1 = time.perf_counter()
    os.environ["FIREGROUND_RECOVERY_DIR"] = str(folder / "recovery")
    win = MainWindow(Document(s, path))
    win.resize(1400, 900)
    win.show()
    app.processEvents()
    win.view.fit_to_map()
    win.view.viewport().repaint()
    t2 = time.perf_counter()
    win.issues.refresh_now()
    t3 = time.perf_counter()
    print(
        f"editor {n:6d} areas: open {t2 - t0:5.2f} s (load {t1 - t0:.2f} s, window "
        f"{t2 - t1:.2f} s); first issues check {t3 - t2:.2f} s "
        f"({len(win.issues.findings)} findings)"
    )
    full = repaint_ms(win, repeat)
    target = TARGET_REPAINT_MS.get(n)
    print(
        f"  full-view repaint: {full:6.1f} ms (best of {repeat})"
        + (f"; target {target:.0f} ms" if target else "")
    )
    a = s.areas[len(s.areas) // 2]
    win.view.center_on_map(a.centroid, zoom_to_cm=120)
    app.processEvents()
    print(f"  zoomed-in repaint with labels: {repaint_ms(win, repeat):6.1f} ms")
    win.view.fit_to_map()
    edits, fulls = [], []
    for k in range(repeat):
        area = s.areas[(k * 7919) % len(s.areas)]
        pts = list(win.doc.scenario.area(area.id).polygon)
        x, y = pts[0]
        pts[0] = (x + 0.5, y + 0.5)
        t = time.perf_counter()
        # The Issues panel refreshes the findings near the edit at once (big maps) ...
        win.doc.push(ChangePolygonCommand(win.doc, area.id, pts))
        app.processEvents()
        win.view.viewport().repaint()
        edits.append(time.perf_counter() - t)
        assert win.issues.partial, "expected the quick local refresh"
        # ... and the full check follows on a worker thread; timed here on its own.
        t = time.perf_counter()
        win.issues.refresh_now()
        fulls.append(time.perf_counter() - t)
    print(
        f"  one edit + issues refresh (near the edit) + repaint: "
        f"{statistics.median(edits) * 1000:6.0f} ms (median of {repeat}; target 300 ms)"
    )
    print(
        f"  full issues check after it (background thread): "
        f"{statistics.median(fulls) * 1000:6.0f} ms"
    )
    win.doc.mark_saved()
    win.close()
    win.deleteLater()
    app.processEvents()


def bench_analyze(games: int) -> None:
    """Seconds for ``games`` fire-only games of Paternoster Row: Analyze… in the editor
    against the command line's call of the engine."""
    from PySide6.QtCore import QEventLoop

    from fireground.editor.analyze import AnalysisRunner
    from fireground.editor.burn import workers
    from fireground.editor.games.blitz.burn import burn_chances
    from fireground.engine.play.analysis import outcomes

    root = Path(__file__).resolve().parents[1]
    s = load_scenario(root / "examples" / "paternoster.fg.yaml")
    outcomes(s, 10, s.turns, 0, True)  # compiled kernels loaded once, as in a long session
    t = time.perf_counter()
    outcomes(s, games, s.turns, s.seed or 0, True, workers(), lambda _d: None)
    cli = time.perf_counter() - t
    runner = AnalysisRunner()
    loop = QEventLoop()
    runner.finished.connect(lambda _b: loop.quit())
    runner.failed.connect(lambda m: (print(f"  analysis failed: {m}"), loop.quit()))
    times = []
    for _ in range(2):  # the first starts the worker process, the second finds it ready
        t = time.perf_counter()
        runner.start(s, games, run=burn_chances, no_response=True)
        loop.exec()
        times.append(time.perf_counter() - t)
    runner.shutdown()
    print(
        f"Analyze, {games} fire-only games of Paternoster: editor first run {times[0]:5.2f} s "
        f"(worker start-up included), next run {times[1]:5.2f} s; the engine call as the "
        f"CLI makes it {cli:5.2f} s (without the CLI's own start-up)"
    )


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="5000,20000")
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--analyze-games", type=int, default=1000)
    a = p.parse_args()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in a.sizes.split(",") if x):
            bench(app, n, a.repeat, Path(tmp))  # type: ignore[arg-type]
    if a.analyze_games:
        bench_analyze(a.analyze_games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
