"""Fire, bombs and collapse alone, for many games at once (``analyze --no-response``).

The reference engine (:mod:`.simulate`) plays one game with a logged die roll at a time;
this module plays the same rules without units for a whole batch of games as numpy arrays
shaped ``[games, locations]``. Every number comes from the scenario's :class:`Ruleset`
(house rules included). The graph's neighbour lists are used in CSR form.

Two tricks keep it fast while leaving each location's chances exactly as the rules give them:

* **One draw per threatened location.** The rules roll one die per burning neighbour until
  one succeeds (R-3). Those rolls are independent, so a location stays unlit with
  probability ``prod(1 - p_i)``; one uniform number decides it. Damp lost to failed rolls is
  then drawn from the conditional chance that a failed roll would have passed without the
  damp (each roll that did costs one damp).
* **Only where needed.** Growth, damage and spread draw only for the cells that can change
  (found with packed bit masks gathered along the CSR lists), and the rare events (bombs,
  store fires, collapse chains) run per game.

Two ways to play, the same rules:

* **The numba kernel** (:mod:`._fastkernels`, used whenever numba imports): whole games,
  one per loop iteration, spread over threads; each game has its own counter-based stream
  keyed by the seed and the game's number, so a seed gives the same games on any number of
  threads, chunks or processes. This is the fast path (:func:`run_kernel`).
* **The numpy path** (:class:`Batch`, without numba or with ``FIREGROUND_NO_NUMBA=1``):
  a batch of games at once as ``[games, locations]`` arrays, chance from a numpy
  :class:`~numpy.random.Generator` per fixed chunk of games seeded from
  ``SeedSequence(seed).spawn``, so a chunk's games are the same whatever process plays
  them (:func:`run_games_numpy`).

The two draw from different streams: for one seed they play different games with the same
chances (tests/engine/test_fastsim_speedpath.py compares them statistically).
"""

from __future__ import annotations
