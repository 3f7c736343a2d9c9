"""A plain report document: A4 pages of wrapped text, a cursor that turns the page itself.

The analysis and sweep reports draw their tables and plots on its canvas between lines of
text."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from .kit import FONT, FONT_BOLD, register_fonts

MARGIN = 40.0


class TextDoc:
    """A4 pages written from the top down; ``y`` is where the next line starts."""

    def __init__(
        self, out: str | Path | IO[bytes], title: str, subject: str, *, invariant: bool = False
    ) -> None:
        register_fonts()
        target: Any = str(out) if isinstance(out, Path | str) else out
        self.c = Canvas(target, pagesize=A4, invariant=1 if invariant else 0)
        self.c.setTitle(title)
        self.c.setSubject(subject)
        self.c.setAuthor("fireground")
        self.w, self.h = A4
        self.y = self.h - MARGIN

    def text(self, s: str, size: float = 10, bold: bool = False, gap: float = 4) -> None:
        """Wrapped lines of ``s``, a new page whenever one does not fit."""
        font = FONT_BOLD if bold else FONT
        for line in simpleSplit(s, font, size, self.w - 2 * MARGIN) or [""]:
            if self.y < MARGIN + size:
                self.page()
            self.c.setFont(font, size)
            self.c.setFillColorRGB(0, 0, 0)
            self.c.drawString(MARGIN, self.y - size, line)
            self.y -= size * 1.3
        self.y -= gap

    def page(self) -> None:
        self.c.showPage()
        self.y = self.h - MARGIN

    def need(self, height: float) -> None:
        """A new page unless ``height`` more points fit on this one."""
        if self.y - height < MARGIN:
            self.page()
