"""fireground.engine: the scenario model, map graphs, checks and the BLITZ! rules.

Pure Python: this package never imports Qt, reportlab, the editor or the exporter.
"""

from .native import choose

choose()  # the compiled modules if they are up to date, else the sources (engine/native.py)
