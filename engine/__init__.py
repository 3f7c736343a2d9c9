"""fireground.engine: the scenario model, map graphs, checks and the BLITZ! rules.

Pure Python: this package never imports Qt, reportlab, the editor or the exporter.
"""
