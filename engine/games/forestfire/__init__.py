"""Forest Fire (seed 002): Fire against the Fire Chief on a path of squares.

The contract is ``spec/forestfire-rules.md``; rulings are named FF-1..FF-7 in the code.
Modules, lowest first: ``rules`` (numbers from ``forestfire.yaml`` plus house rules),
``state`` and ``actions`` (value types), ``steps`` (the step table: legal actions and their
effects), ``scenario`` and ``checks`` (the file section), ``policies`` and ``solve`` (players
and the exact value; ``layered`` and ``bulk`` with its numba ``bulk_kernels`` for the full
round cap), ``play`` (games, logs and the policy matrix), ``pack`` (the entry point).
"""
