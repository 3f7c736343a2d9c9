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

from ..board.model import Scenario
from ..core.errors import UsageError
from .sweep import Plan, Progress, Results, play_chunk

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


def carry(scenario: Scenario) -> Scenario:
    """A variant's scenario as a task result (the chunks of the variant depend on it)."""
    return scenario


def run_on_cluster(address: str, p: Plan, progress: Progress | None = None) -> Results:
    """Play every chunk of ``p`` on the cluster whose scheduler is at ``address``."""
    from distributed import as_completed

    client = _client(address)
    results: Results = {}
    done = 0
    try:
        # each variant's scenario travels once, as a task of its own: the scheduler keeps
        # it, so a worker lost with its copy costs a recomputation, not the sweep
        futures: dict[Any, tuple[int, int]] = {}
        run = p.tokens[0].split("-")[0] if p.tokens else "x"
        for v in range(len(p.variants)):
            chunks = [c for c in p.chunks if c.variant == v]
            if not chunks:
                continue
            scenario, token, _, turns = p.args(chunks[0])
            carried = client.submit(
                carry, scenario, key=f"fireground-sweep-{run}-scenario{v}", pure=False
            )
            batch = client.map(
                play_chunk,
                [carried] * len(chunks),
                [token] * len(chunks),
                [p.seeds[c.start : c.stop] for c in chunks],
                [turns] * len(chunks),
                key=[f"fireground-sweep-{run}-variant{v}-games{c.start}-{c.stop}" for c in chunks],
                retries=RETRIES,
                pure=False,
            )
            futures.update(zip(batch, (c.key for c in chunks), strict=True))
        for fut in as_completed(list(futures), loop=client.loop):  # type: ignore[no-untyped-call]
            key = futures[fut]
            try:
                part = fut.result()
            except Exception as e:  # retried by Dask and still failing: say so, count nothing
                raise ValueError(
                    f"the cluster could not play games {key[1]}.. of variant {key[0] + 1} "
                    f"({type(e).__name__}: {e})"
                ) from e
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
