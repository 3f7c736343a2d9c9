"""No field of any panel crashes the editor, however its edit ends (issue 13).

Each group runs ``field_crawl.py`` in a child process with faulthandler on: a segmentation
fault there fails this test (with the step it died on) instead of killing the test run.
The crawl finds the fields by walking the panels' widget trees, so a new field is driven
without a change here; the minimum counts catch a crawl that silently finds nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CRAWL = Path(__file__).with_name("field_crawl.py")

#: group -> the fewest fields its crawl must reach (what the panels had when this was written,
#: rounded down).
GROUPS = {"properties": 45, "scenario": 20, "other": 100, "reported": 0}


@pytest.mark.parametrize("group", list(GROUPS))
def test_no_field_crashes_the_editor(group: str, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "FIREGROUND_RECOVERY_DIR": str(tmp_path),
    }
    r = subprocess.run(
        [sys.executable, "-X", "faulthandler", str(CRAWL), group],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    tail = "\n".join(r.stdout.splitlines()[-15:])
    assert r.returncode == 0, (
        f"the editor died (exit {r.returncode}) at:\n{tail}\n--- stderr ---\n{r.stderr[-3000:]}"
    )
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    done = [line for line in r.stdout.splitlines() if line.startswith("DONE")]
    assert done, tail
    if GROUPS[group]:
        fields = int(done[-1].split(":")[1].split()[0])
        assert fields >= GROUPS[group], done[-1]
