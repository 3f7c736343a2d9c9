"""Dock panels: properties, forces, scenario settings, issues, overlays, test turn."""
