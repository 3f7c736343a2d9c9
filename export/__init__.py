"""fireground.export: the printable play-aid pack (reportlab)."""
