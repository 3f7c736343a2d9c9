"""The cyclic garbage collector held off while a burst of work makes many small objects
that live as long as the burst (a game's turns, a solver's graph). Python's collector
scans the young objects every few hundred allocations; a burst that makes no garbage
cycles only pays for those scans. Reference counting still frees everything as usual,
and whatever cycles the burst left are collected once it ends."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold the cyclic collector off for the ``with`` block (if it was on), and turn it
    back on after, even when the block raises."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
