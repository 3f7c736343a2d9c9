"""Game packs: one subpackage per game, found through the ``fireground.games`` entry points."""
