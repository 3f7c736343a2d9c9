"""The game-agnostic core shared by every game pack (see STYLE.md's layout)."""
