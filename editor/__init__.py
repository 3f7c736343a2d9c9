"""fireground.editor: the PySide6 scenario editor."""
