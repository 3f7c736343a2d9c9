"""Export speed: the whole pack for the largest bundled example, and a 100-page 1:1 plan.

Run: .venv/bin/python benchmarks/bench_export.py [N]  (targets: pack <= 5 s; 100 tiles <= 1 s
and <= 2 MB). Also times the plans of an N-area synthetic city (default 3,000; the tile loop
must stay linear, so 20,000 should take about 7 times as long)."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "export"))

from export_scenarios import grid_scenario  # noqa: E402

from fireground.engine.scenario.envelope import blitz_examples  # noqa: E402
from fireground.engine.scenario.io import load_scenario  # noqa: E402
from fireground.export.kit import register_fonts  # noqa: E402
from fireground.export.pack import export_pack  # noqa: E402
from fireground.export.plans import write_plans  # noqa: E402


def largest_example() -> Path:
    files = blitz_examples(REPO / "examples")
    return max(files, key=lambda p: len(load_scenario(p).areas))


def main() -> int:
    register_fonts()  # once per process, like the CLI
    out = Path(tempfile.mkdtemp(prefix="bench_export_"))
    ex = largest_example()
    sc = load_scenario(ex)
    t = time.perf_counter()
    paths = export_pack(sc, out / "pack", turns=6, seed=1)
    pack_s = time.perf_counter() - t
    pages = {}
    from pypdf import PdfReader

    for p in paths:
        pages[p.name] = len(PdfReader(p).pages)
    print(
        f"pack for {ex.name} ({len(sc.areas)} areas): {pack_s:.2f} s "
        f"(target <= 5 s), {sum(pages.values())} pages"
    )
    for name, n in pages.items():
        print(f"  {name}: {n} pages, {(out / 'pack' / name).stat().st_size / 1e6:.2f} MB")

    big = grid_scenario(18, 21)
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        path = write_plans(big, out / "plans-100.pdf")
        best = min(best, time.perf_counter() - t)
    n = len(PdfReader(path).pages)
    size = path.stat().st_size / 1e6
    print(
        f"1:1 plan, {n} pages ({n - 2} tiles): {best:.2f} s (target <= 1 s), "
        f"{size:.2f} MB (target <= 2 MB)"
    )
    from fireground.engine.scenario.synthetic import synthetic_city

    n_areas = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    city = synthetic_city(n_areas)
    t = time.process_time()
    path = write_plans(city, out / "plans-city.pdf")
    city_s = time.process_time() - t
    n = len(PdfReader(path).pages)
    print(
        f"plans of a {n_areas}-area synthetic city: {city_s:.2f} s CPU, {n} pages, "
        f"{path.stat().st_size / 1e6:.1f} MB"
    )
    ok = pack_s <= 5 and best <= 1 and size <= 2
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
