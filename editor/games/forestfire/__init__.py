"""The Forest Fire board editor: a track of squares, token brush, engines, test turn."""
