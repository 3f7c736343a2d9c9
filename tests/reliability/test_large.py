"""Large maps (docs/reliability.md, "Large maps").

* The 20,000-area synthetic city loads and checks without an error finding (how fast is
  a benchmark figure: benchmarks/bench_large.py; no timing is asserted here).
* ``export_pack(..., only=["plans"])`` of the same city runs in a subprocess whose peak
  RSS (its own ``VmHWM``, not the parent's) stays under 1 GB and writes a valid PDF of many tiles.
* The editor opens the 20,000-area city headless: every area gets its scene item.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fireground.engine.games.blitz.checks.run import check
from fireground.engine.scenario.io import load_scenario
from fireground.engine.scenario.synthetic import write_synthetic_city

pytestmark = pytest.mark.slow

N_AREAS = 20_000
RSS_LIMIT_MB = 1024


def _env() -> dict[str, str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("FIREGROUND_DEBUG", None)
    return env


@pytest.fixture(scope="module")
def city(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("large") / "city20k.fg.yaml"
    write_synthetic_city(path, N_AREAS, seed=0)
    return path


def test_20000_areas_load_and_check(city: Path) -> None:
    s = load_scenario(city)
    assert len(s.areas) == N_AREAS
    findings = check(s)
    errors = [str(f) for f in findings if f.severity == "error"]
    assert errors == [], errors[:10]


#: The child's own peak. ``getrusage(RUSAGE_SELF).ru_maxrss`` is not it on Linux: exec
#: keeps the high-water mark of the memory it replaces, and subprocess starts the child
#: from the parent's memory (vfork), so a child of a 1.5 GB pytest reported 1.5 GB before
#: doing anything. ``VmHWM`` of /proc/self/status is the peak of the child's own memory.
EXPORT_CHILD = textwrap.dedent(
    """
    import resource, sys
    from pathlib import Path
    from fireground.engine.scenario.io import load_scenario
    from fireground.export.pack import export_pack

    def peak_kib():
        try:
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux

    s = load_scenario(sys.argv[1])
    (pdf,) = export_pack(s, Path(sys.argv[2]), only=["plans"])
    print(pdf)
    print(peak_kib())
    """
)


def test_plans_export_of_20000_areas_stays_under_1_gb(city: Path, tmp_path: Path) -> None:
    pytest.importorskip("fireground.export.pack")
    pypdf = pytest.importorskip("pypdf")
    done = subprocess.run(
        [sys.executable, "-c", EXPORT_CHILD, str(city), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=1800,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    pdf_name, rss_kib = done.stdout.split()
    rss_mb = int(rss_kib) / 1024
    assert rss_mb < RSS_LIMIT_MB, f"plans export of {N_AREAS} areas peaked at {rss_mb:.0f} MB"
    pdf = Path(pdf_name)
    assert pdf.read_bytes()[:5] == b"%PDF-"
    pages = len(pypdf.PdfReader(pdf).pages)
    assert pages > 1000, f"a {N_AREAS}-area city should need many tiles, got {pages} pages"


EDITOR_CHILD = textwrap.dedent(
    """
    import sys
    from PySide6.QtWidgets import QApplication
    from fireground.editor.document import Document
    from fireground.editor.main_window import MainWindow
    from fireground.engine.scenario.io import load_scenario

    app = QApplication([])
    path = sys.argv[1]
    win = MainWindow(Document(load_scenario(path), path), recovery_session=False)
    win.resize(1200, 800)
    win.show()
    app.processEvents()
    win.view.fit_to_map()
    app.processEvents()
    image = win.grab()  # paints the whole map once
    assert not image.isNull()
    print(len(win.scene.area_items))
    win.doc.mark_saved()
    win.close()
    """
)


def test_editor_opens_20000_areas(city: Path) -> None:
    pytest.importorskip("PySide6")
    done = subprocess.run(
        [sys.executable, "-c", EDITOR_CHILD, str(city)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[-1] == str(N_AREAS)
