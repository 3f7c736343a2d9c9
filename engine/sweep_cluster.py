"""A sweep's chunks on a Dask distributed cluster (``fireground sweep --scheduler ADDRESS``).

Dask does the distributing: it places each chunk on a worker, moves the scenarios, and
when a worker dies it runs the chunks that worker held again elsewhere. Each chunk is
submitted under a key naming its variant and seed range, and its result is stored under
that (variant, first game) key: a chunk that comes back twice is taken once, and one that
never comes back fails the sweep (after Dask's own retries) instead of being skipped.
Which worker played a chunk does not change it, so the numbers are those of a local run.

Needs the optional dependency ``distributed`` (``pip install 'fireground[cluster]'``) here
and on every worker, with the same fireground installed.
"""

from __future__ import annotations

import os
from typing import Any

from .errors import UsageError
from .sweep import Plan, Progress, Results, chunks_of, play_chunk

#: how long to wait for the scheduler to answer before giving up (seconds), unless the
#: environment variable FIREGROUND_DASK_TIMEOUT says otherwise
CONNECT_TIMEOUT = 30.0
#: how often a chunk that raised is tried again (a lost worker is Dask's own retry)
RETRIES = 3


def _client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise UsageError(
            "--scheduler needs Dask distributed: pip install 'fireground[cluster]'"
        ) from None
    try:
        timeout = float(os.environ.get("FIREGROUND_DASK_TIMEOUT", CONNECT_TIMEOUT))
        return Client(address, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as e:
        raise UsageError(f"--scheduler {address}: cannot reach the Dask scheduler ({e})") from None


def run_on_cluster(address: str, p: Plan, progress: Progress | None = None) -> Results:
    """Play every chunk of ``p`` on the cluster whose scheduler is at ``address``."""
    from distributed import as_completed

    client = _client(address)
    results: Results = {}
    done = 0
    try:
        # each variant's scenario travels once; chunks refer to it
        scattered: dict[int, Any] = {}
        futures: dict[Any, tuple[int, int]] = {}
        run = p.tokens[0].split("-")[0] if p.tokens else "x"
        for c, (scenario, token, seeds, turns) in chunks_of(p):
            if c.variant not in scattered:
                scattered[c.variant] = client.scatter(scenario, hash=False)
            fut = client.submit(
                play_chunk,
                scattered[c.variant],
                token,
                seeds,
                turns,
                key=f"fireground-sweep-{run}-variant{c.variant}-games{c.start}-{c.stop}",
                retries=RETRIES,
                pure=False,
            )
            futures[fut] = c.key
        for fut in as_completed(list(futures)):  # type: ignore[no-untyped-call]
            key = futures[fut]
            part = fut.result()
            if key in results:
                continue  # the same seed range twice: counted once
            results[key] = part
            done += len(part["clear"])
            if progress is not None:
                progress(done)
            fut.release()
    finally:
        client.close()
    return results
