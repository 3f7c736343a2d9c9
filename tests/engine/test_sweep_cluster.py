"""``fireground sweep --scheduler``: the same chunks on a Dask distributed cluster give the
numbers of a local run, byte for byte, on a ``LocalCluster`` and on a scheduler and two
workers started as separate processes (127.0.0.1 only, bounded in time, stopped after);
a worker killed mid-sweep loses no game and counts none twice."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from fireground.engine.play import sweep as sw
from fireground.engine.play.montecarlo import SCORE_FIELDS
from fireground.engine.scenario.io import load_scenario

distributed = pytest.importorskip("distributed")

STEPNEY = Path(__file__).resolve().parents[2] / "examples" / "stepney.fg.yaml"
#: a 2 x 2 sweep over Stepney: a forces key (shares memos) and a house rule (does not)
VARIES = [sw.Vary("forces.GA1.count", ("1", "2")), sw.Vary("growth.on", ("5", "6"))]
GAMES, SEED = 40, 11
START_TIMEOUT = 90.0  # seconds for a scheduler and its workers to come up on a busy machine

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def local() -> tuple[dict[str, object], list[object]]:
    rep, outs = sw.sweep(load_scenario(STEPNEY), VARIES, GAMES, SEED, workers=1)
    return rep.to_json(), outs


def _same(local: tuple[dict[str, object], list[object]], rep: sw.SweepReport, outs: list) -> None:  # type: ignore[type-arg]
    data, local_outs = local
    assert json.dumps(rep.to_json()) == json.dumps(data)
    for a, b in zip(local_outs, outs, strict=True):
        assert np.array_equal(a.first_alight, b.first_alight)  # type: ignore[attr-defined]
        assert np.array_equal(a.destroyed, b.destroyed)  # type: ignore[attr-defined]
        assert np.array_equal(a.figures, b.figures)  # type: ignore[attr-defined]
        for f in SCORE_FIELDS:
            assert np.array_equal(a.score[f], b.score[f])  # type: ignore[attr-defined]


def test_local_cluster_gives_the_local_numbers(local) -> None:  # type: ignore[no-untyped-def]
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        rep, outs = sw.sweep(
            load_scenario(STEPNEY), VARIES, GAMES, SEED, scheduler=cluster.scheduler_address
        )
    assert rep.where == cluster.scheduler_address
    _same(local, rep, outs)


# -- a scheduler and workers as separate processes -------------------------------------------
def _dask() -> list[str]:
    exe = Path(sys.executable).with_name("dask")
    if not exe.exists():
        pytest.skip("the dask command is not installed beside this Python")
    return [str(exe)]


@contextlib.contextmanager
def _cluster(tmp: Path, workers: int) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """``dask scheduler`` and ``workers`` x ``dask worker`` on 127.0.0.1, each its own
    process (no nanny: killing one is losing that worker); all stopped on the way out."""
    procs: list[subprocess.Popen[bytes]] = []
    log = open(tmp / "dask.log", "wb")  # noqa: SIM115 (closed in finally)
    env = dict(os.environ)
    try:
        info = tmp / "scheduler.json"
        procs.append(
            subprocess.Popen(
                [*_dask(), "scheduler", "--host", "127.0.0.1", "--port", "0",
                 "--no-dashboard", "--scheduler-file", str(info), "--idle-timeout", "300"],
                stdout=log, stderr=log, env=env, cwd=tmp,
            )
        )  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT
        while not info.exists() or not info.read_text().strip():
            if time.monotonic() > deadline or procs[0].poll() is not None:
                pytest.fail(f"the scheduler did not start: {(tmp / 'dask.log').read_text()}")
            time.sleep(0.2)
        time.sleep(0.2)
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        workers_procs = []
        for k in range(workers):
            argv = [*_dask(), "worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                    "--no-nanny", "--no-dashboard", "--name", f"w{k}", "--death-timeout", "120",
                    "--local-directory", str(tmp / f"w{k}")]  # fmt: skip
            workers_procs.append(subprocess.Popen(argv, stdout=log, stderr=log, env=env, cwd=tmp))
        procs += workers_procs
        with distributed.Client(address, timeout=START_TIMEOUT) as client:
            client.wait_for_workers(workers, timeout=START_TIMEOUT)
        yield address, workers_procs
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in reversed(procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=20)
        log.close()


def test_scheduler_and_two_worker_processes_give_the_local_numbers(local, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with _cluster(tmp_path, 2) as (address, _):
        rep, outs = sw.sweep(load_scenario(STEPNEY), VARIES, GAMES, SEED, scheduler=address)
    _same(local, rep, outs)


def test_a_worker_killed_mid_sweep_loses_and_doubles_nothing(local, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Worker w0 is killed (SIGKILL) while the scheduler says it is playing a chunk: Dask
    plays that chunk again on w1, and the numbers are still the local ones."""
    killed: list[tuple[int, list[str]]] = []
    total = GAMES * 4
    with _cluster(tmp_path, 2) as (address, workers):
        with distributed.Client(address, timeout=START_TIMEOUT) as observer:
            w0 = next(
                a for a, w in observer.scheduler_info()["workers"].items() if w["name"] == "w0"
            )

            def kill_w0(done: int) -> None:
                if killed:
                    return
                busy = [str(k) for k in observer.processing(workers=[w0]).get(w0, ())]
                if busy and any("-variant" in k for k in busy):
                    workers[0].kill()
                    workers[0].wait(timeout=20)
                    killed.append((done, busy))

            rep, outs = sw.sweep(
                load_scenario(STEPNEY), VARIES, GAMES, SEED, scheduler=address, progress=kill_w0
            )
        assert workers[0].poll() is not None and workers[1].poll() is None
    assert killed, "w0 was never seen playing a chunk"
    done, busy = killed[0]
    assert done < total and busy  # mid-sweep, with a chunk in w0's hands
    _same(local, rep, outs)
