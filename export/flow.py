"""Flowing documents (reference sheet, briefing, turn report) with reportlab's platypus:
the page frames come from a layout's boxes, the text from the data."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from .kit import FONT, FONT_BOLD, draw_text, register_fonts
from .layout import Box, Layout


def styles(base: float) -> dict[str, ParagraphStyle]:
    register_fonts()
    body = ParagraphStyle(
        "body", fontName=FONT, fontSize=base, leading=base * 1.25, spaceAfter=base * 0.3
    )
    return {
        "body": body,
        "h1": ParagraphStyle(
            "h1",
            parent=body,
            fontName=FONT_BOLD,
            fontSize=base * 1.45,
            leading=base * 1.8,
            spaceBefore=base * 0.6,
            spaceAfter=base * 0.2,
            textColor=colors.HexColor("#7f1d1d"),
        ),
        "h2": ParagraphStyle(
            "h2",
            parent=body,
            fontName=FONT_BOLD,
            fontSize=base * 1.1,
            leading=base * 1.4,
            spaceBefore=base * 0.5,
            spaceAfter=base * 0.15,
            textColor=colors.HexColor("#7f1d1d"),
        ),
        "small": ParagraphStyle(
            "small", parent=body, fontSize=base * 0.82, leading=base * 1.0, spaceAfter=0
        ),
        "cell": ParagraphStyle(
            "cell", parent=body, fontSize=base * 0.92, leading=base * 1.1, spaceAfter=0
        ),
    }


def para(text: str, style: ParagraphStyle, markup: bool = False) -> Paragraph:
    return Paragraph(text if markup else escape(text), style)


def table(
    rows: Sequence[Sequence[Any]],
    style: ParagraphStyle,
    widths: Sequence[float] | None = None,
    header: bool = True,
) -> Table:
    """A ruled table; cells are wrapped paragraphs so long text never overflows."""
    bold = ParagraphStyle("cellb", parent=style, fontName=FONT_BOLD)
    data = [
        [
            c
            if isinstance(c, Flowable | list)
            else para(str(c), bold if header and i == 0 else style)
            for c in row
        ]
        for i, row in enumerate(rows)
    ]
    t = Table(data, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT")
    cmds: list[tuple[Any, ...]] = [
        # the cell font (reportlab's default is an unembedded Helvetica, set on the canvas
        # even when every cell is a paragraph): preflight flags any such reference
        ("FONT", (0, 0), (-1, -1), FONT, style.fontSize),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#b8a888")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]
    if header:
        cmds.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#f1e6cf")))
    t.setStyle(TableStyle(cmds))
    return t


def build(
    path: Path,
    lay: Layout,
    story: list[Flowable],
    title: str,
    subtitle: str,
    footer: str,
    columns: int = 1,
    gap: float = 0.0,
    on_page: Callable[[Canvas, int], None] | None = None,
) -> Path:
    """Lay the story out in ``columns`` frames cut from the layout's ``body`` box; every
    page gets the title, subtitle and footer boxes."""
    register_fonts()
    body = lay.box("body")
    col_w = (body.width - gap * (columns - 1)) / columns
    frames = [
        Frame(
            body.x + i * (col_w + gap),
            body.y,
            col_w,
            body.height,
            id=f"col{i}",
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        )
        for i in range(columns)
    ]

    def decorate(c: Canvas, doc: BaseDocTemplate) -> None:
        if doc.page == 1:
            c.setViewerPreference("PrintScaling", "None")
            c.setAuthor("fireground")
            c.setCreator("fireground")
        draw_text(c, lay.box("title"), title)
        draw_text(c, lay.box("subtitle"), subtitle)
        draw_text(c, lay.box("footer"), f"{footer} · page {doc.page}")
        if on_page is not None:
            on_page(c, doc.page)

    doc = BaseDocTemplate(
        str(path),
        pagesize=(lay.width, lay.height),
        title=title,
        author="fireground",
        invariant=1,
        pageCompression=1,
        initialFontName=FONT,
    )
    doc.addPageTemplates([PageTemplate(id="page", frames=frames, onPage=decorate)])
    doc.build(story)
    return path


def column_width(lay: Layout, columns: int, gap: float) -> float:
    body: Box = lay.box("body")
    return (body.width - gap * (columns - 1)) / columns


class MapFlowable(Flowable):  # type: ignore[misc]
    """A map drawn inside the flow: ``draw(canvas, box)`` paints it into its box."""

    def __init__(self, width: float, height: float, draw: Callable[[Canvas, Box], None]) -> None:
        super().__init__()
        self.width = width
        self.height = height
        self._draw = draw

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        return (self.width, self.height)

    def draw(self) -> None:
        self._draw(self.canv, Box("map", 0, 0, self.width, self.height))
