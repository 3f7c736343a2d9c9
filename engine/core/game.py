"""The Game protocol: what a game pack gives the game-agnostic engine.

A *game pack* is everything one game needs (BLITZ! is ``games/blitz``, Forest Fire
``games/forestfire``); the core, the file envelope and the drivers in ``play/`` know none of
them by name. A pack is one object (``PACK`` in the pack's ``pack.py``) found through the
``fireground.games`` entry-point group (:mod:`.packs`), as python-chess finds its variants
by name and OpenSpiel registers its games.

What the drivers ask of a pack:

* who it is: :attr:`GamePack.id` (the ``game:`` key of a scenario file and the entry-point
  name), :attr:`~GamePack.name`, :attr:`~GamePack.version`;
* who plays: :attr:`~GamePack.sides`, and for each side the named policies that may decide
  for it (:attr:`~GamePack.policies`: BLITZ!'s fire brigade is played by ``autopilot`` or
  by an ``orders`` file); the turn driver hands the chosen policies to the steps as
  callbacks (freeciv's ``common/ai.h``), so no rule imports a policy;
* its board: :attr:`~GamePack.map_kind` (``"polygons"``: free polygons with levels;
  ``"track"``: a track of squares; ``"hexes"``: a hex grid);
* its scenario section: :meth:`~GamePack.load_scenario` reads a scenario file whose
  envelope names the game;
* its rules: :meth:`~GamePack.ruleset` (the rule numbers, from the pack's ruleset data
  with the scenario's house rules), :meth:`~GamePack.initial_state`, the step table
  :meth:`~GamePack.steps` the turn driver plays, :meth:`~GamePack.legal_actions` at a
  decision point, :meth:`~GamePack.outcome` (objectives or a result band);
* its checks: :meth:`~GamePack.checks` (findings whose codes carry the pack's prefix).

Optional attributes, read with :func:`hook` (a pack without them still plays):
``documents`` (the play aids the exporter can print for it), ``editor_tools`` (the dotted
name of its editor module, editor/games/<id>/), ``export_tools`` (the dotted name of its
export module, export/games/<id>/: the documents ``fireground export`` writes of a polygon
map, or a ``cli_export`` of its own for a board of its own), ``analyses`` (the analyses ``fireground
analyze`` offers), ``rulesets`` (the ruleset data it bundles for the ``ruleset:`` key of
its scenarios: name -> the package holding ``<name>.yaml``), ``turn_policies`` (a function
giving the ``core.turn.Policies`` the turn driver hands its steps; without it nobody
decides).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

#: the optional attributes a pack may have (see :func:`hook`)
OPTIONAL_HOOKS = (
    "documents",
    "editor_tools",
    "export_tools",
    "analyses",
    "rulesets",
    "turn_policies",
)


@runtime_checkable
class GamePack(Protocol):
    """One game, as the engine sees it. See the module docstring for the contract."""

    #: the game's id: the ``game:`` key of its scenario files and its entry-point name
    id: str
    #: the game's name, for people
    name: str
    #: the pack's version (the rules it plays may change with it)
    version: str
    #: the sides that take decisions, in turn order (``("fire brigade",)``)
    sides: tuple[str, ...]
    #: per side, the names of the policies that can play it (the first is the default)
    policies: Mapping[str, tuple[str, ...]]
    #: the board's kind: ``"polygons"``, ``"track"`` or ``"hexes"``
    map_kind: str

    def load_scenario(self, path: str) -> Any:
        """Read a scenario file of this game (bad input raises ``ScenarioError``)."""
        ...

    def ruleset(self, scenario: Any) -> Any:
        """The rule numbers the scenario plays: the pack's data with its house rules."""
        ...

    def initial_state(self, scenario: Any, rules: Any) -> Any:
        """The state at turn 0."""
        ...

    def steps(self) -> Sequence[tuple[int, Callable[[Any, Any], None]]]:
        """The step table the turn driver plays each turn: (step number, step), in order
        (each a ``core.turn.Step``; the protocol does not import the driver, which
        ``core.ruleset`` reaches through the packs)."""
        ...

    def legal_actions(self, ctx: Any, state: Any, who: str) -> Sequence[Any]:
        """The actions the rules allow ``who`` (a unit, a side) at its decision point now."""
        ...

    def outcome(self, scenario: Any, state: Any, rules: Any) -> Mapping[str, Any]:
        """How the game stands: objectives met, or a result band, with the scores."""
        ...

    def checks(self, scenario: Any) -> Sequence[Any]:
        """Findings about a scenario (code, severity, message, where); they never raise."""
        ...


def hook(pack: GamePack, name: str) -> Any:
    """An optional attribute of a pack (one of :data:`OPTIONAL_HOOKS`), or None."""
    if name not in OPTIONAL_HOOKS:
        raise ValueError(f"{name!r} is not an optional pack hook (one of {OPTIONAL_HOOKS})")
    return getattr(pack, name, None)
