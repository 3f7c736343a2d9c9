"""Analyze…: per-location burn chances from the game's analysis, in a worker process.

The worker (:func:`.burn.worker_main`) plays the game's ``burn_chances`` (BLITZ!'s: the
same fast path as ``fireground analyze --no-response``), reports each chunk of games for
the progress dialog, and stops at the next chunk on Cancel. The no-response mode (fire,
bombs and collapse alone) is the default: it is the threat map, and fast enough to redo
after each edit.
"""

from __future__ import annotations

import multiprocessing as mp
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from fireground.engine.board.model import Scenario

from .burn import BurnMap, Cancelled, worker_main


class AnalysisRunner(QObject):
    """Runs a game's ``burn_chances`` in a worker process, watched from a thread of the
    editor; progress and the result come back as queued signals."""

    progressed = Signal(int)
    finished = Signal(object)  # BurnMap
    failed = Signal(str)
    cancelled = Signal()
    #: (what, value) from the worker thread, delivered on the UI thread.
    _relay = Signal(str, object)

    def __init__(self) -> None:
        super().__init__()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="fireground-analyze")
        self._cancel = threading.Event()
        self._future: Future[BurnMap] | None = None
        self._relay.connect(self._deliver, Qt.QueuedConnection)
        #: The worker process (started on first use, kept for the next analysis: a fresh
        #: interpreter takes seconds to import the engine) and its queues.
        self._worker: _Worker | None = None

    @property
    def running(self) -> bool:
        return self._future is not None and not self._future.done()

    def warm_up(self) -> None:
        """Start the worker process now (say while the Analyze dialog is open)."""
        if self._worker is None or not self._worker.alive():
            self._worker = _Worker()

    def start(
        self,
        s: Scenario,
        games: int,
        *,
        run: Callable[..., Any],
        no_response: bool = True,
        turns: int | None = None,
    ) -> None:
        """Play ``games`` games of ``s`` with ``run``, the game's ``burn_chances`` (a
        module-level function: the job carries it to the worker process by name)."""
        if self.running:
            raise RuntimeError("an analysis is already running")
        self._cancel = threading.Event()
        cancel = self._cancel
        job = {
            "run": run,
            "scenario": s,
            "games": games,
            "seed": None,
            "no_response": no_response,
            "turns": turns,
        }
        self.warm_up()
        worker = self._worker
        assert worker is not None

        def supervise() -> BurnMap:  # on a thread of this process: watch the worker
            worker.stop.clear()
            worker.jobs.put(job)
            while True:
                if cancel.is_set():
                    worker.stop.set()
                try:
                    what, value = worker.results.get(timeout=0.1)
                except queue.Empty:
                    if not worker.alive():
                        code = worker.proc.exitcode
                        raise RuntimeError(
                            f"the analysis process ended unexpectedly (exit {code})"
                        ) from None
                    continue
                if what == "progress":
                    self._relay.emit("progress", value)
                elif what == "cancelled":
                    raise Cancelled
                elif what == "failed":
                    raise RuntimeError(value)
                else:
                    chances, seed, t, mode = value
                    return BurnMap(chances, games, mode, seed, s, t)

        fut = self._pool.submit(supervise)
        self._future = fut
        fut.add_done_callback(self._done)

    def _done(self, fut: Future[BurnMap]) -> None:  # on the worker thread
        exc = fut.exception()
        if isinstance(exc, Cancelled):
            self._relay.emit("cancelled", None)
        elif exc is not None:
            self._relay.emit("failed", f"{type(exc).__name__}: {exc}")
        else:
            self._relay.emit("finished", fut.result())

    def _deliver(self, what: str, value: object) -> None:  # on the UI thread
        if what == "progress":
            self.progressed.emit(value)
        elif what == "finished":
            self.finished.emit(value)
        elif what == "failed":
            self.failed.emit(value)
        else:
            self.cancelled.emit()

    def cancel(self) -> None:
        self._cancel.set()

    def shutdown(self) -> None:
        self._cancel.set()
        if self._worker is not None:
            self._worker.stop.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
        if self._worker is not None:
            self._worker.close()
            self._worker = None


class _Worker:
    """A spawned interpreter (no Qt state forked into it) that plays analysis jobs."""

    def __init__(self) -> None:
        ctx = mp.get_context("spawn")
        self.jobs = ctx.Queue()
        self.results = ctx.Queue()
        self.stop = ctx.Event()
        self.proc = ctx.Process(
            target=worker_main, args=(self.jobs, self.results, self.stop), daemon=True
        )
        self.proc.start()

    def alive(self) -> bool:
        return self.proc.is_alive()

    def close(self) -> None:
        if self.proc.is_alive():
            self.jobs.put(None)
            self.proc.join(timeout=10)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(timeout=5)
