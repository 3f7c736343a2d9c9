"""Run every benchmark script in this folder and print their figures.

Usage: .venv/bin/python benchmarks/run.py [NAME ...]   (NAME: graph, load, engine, export,
editor, analysis, sweep, startup). Each bench_*.py prints its own lines.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def bench_startup() -> None:
    for argv in (["--version"], ["--help"]):
        times = []
        for _ in range(5):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "fireground", *argv], capture_output=True)
            times.append(time.perf_counter() - t)
        print(f"startup: fireground {' '.join(argv)}: best {min(times) * 1000:.0f} ms")


def main() -> int:
    wanted = set(sys.argv[1:])
    if not wanted or "startup" in wanted:
        bench_startup()
    failed = 0
    for script in sorted(HERE.glob("bench_*.py")):
        name = script.stem.removeprefix("bench_")
        if wanted and name not in wanted:
            continue
        print(f"== {script.name}", flush=True)
        r = subprocess.run([sys.executable, str(script)])
        failed += r.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
