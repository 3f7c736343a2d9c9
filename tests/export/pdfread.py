"""Read drawn geometry back from a PDF: a tiny content-stream walker over pypdf that keeps
the current transformation matrix through ``q``/``Q``/``cm`` and form XObjects, so tests
measure what a printer would print (in points, page space)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ContentStream

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF order: new CTM = m x CTM)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (
        a * A + b * C,
        a * B + b * D,
        c * A + d * C,
        c * B + d * D,
        e * A + f * C + E,
        e * B + f * D + F,
    )


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def walk(
    reader: PdfReader, page: Any, recurse: bool = True
) -> Iterator[tuple[str, list[Any], Matrix, tuple[str, ...]]]:
    """(operator, operands, CTM, names of the forms we are inside) for every operation;
    ``recurse=False`` stays on the page's own content."""

    def run(obj: Any, resources: Any, ctm: Matrix, inside: tuple[str, ...]) -> Iterator[Any]:
        stack: list[Matrix] = []
        content = ContentStream(obj, reader)
        for operands, op in content.operations:
            name = op.decode("latin-1")
            yield name, operands, ctm, inside
            if name == "q":
                stack.append(ctm)
            elif name == "Q":
                ctm = stack.pop()
            elif name == "cm":
                ctm = mul(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
            elif name == "Do" and recurse:
                xobjs = resources.get("/XObject", {}) if resources else {}
                xo = xobjs[operands[0]].get_object()
                if xo.get("/Subtype") == "/Form":
                    m = tuple(float(v) for v in xo.get("/Matrix", IDENTITY))
                    yield from run(
                        xo,
                        xo.get("/Resources", resources),
                        mul(m, ctm),  # type: ignore[arg-type]
                        (*inside, str(operands[0])),
                    )

    contents = page.get_contents()
    if contents is None:
        return
    yield from run(contents, page.get("/Resources"), IDENTITY, ())


def rects(reader: PdfReader, page: Any) -> list[tuple[float, float, float, float]]:
    """Every ``re`` rectangle as (x, y, w, h) in page space (axis-aligned CTMs only)."""
    out = []
    for op, args, ctm, _ in walk(reader, page):
        if op == "re":
            x, y, w, h = (float(v) for v in args)
            x0, y0 = apply(ctm, x, y)
            x1, y1 = apply(ctm, x + w, y + h)
            out.append((min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0)))
    return out


def subpaths(
    reader: PdfReader, page: Any
) -> list[tuple[list[tuple[float, float]], tuple[str, ...]]]:
    """Polylines (``m`` then ``l``...) in page space, with the forms they were drawn in."""
    out: list[tuple[list[tuple[float, float]], tuple[str, ...]]] = []
    cur: list[tuple[float, float]] = []
    where: tuple[str, ...] = ()
    for op, args, ctm, inside in walk(reader, page):
        if op == "m":
            if len(cur) > 1:
                out.append((cur, where))
            cur = [apply(ctm, float(args[0]), float(args[1]))]
            where = inside
        elif op == "l":
            cur.append(apply(ctm, float(args[0]), float(args[1])))
    if len(cur) > 1:
        out.append((cur, where))
    return out


def placements(reader: PdfReader, page: Any, prefix: str) -> list[Matrix]:
    """The CTM each form whose name starts with ``prefix`` is drawn with."""
    return [
        ctm
        for op, args, ctm, _ in walk(reader, page, recurse=False)
        if op == "Do" and str(args[0]).startswith(prefix)
    ]


def points(reader: PdfReader, page: Any) -> list[tuple[float, float]]:
    """Every point a path passes through (``m``, ``l``, curve ends, rectangle corners), in
    page space."""
    out: list[tuple[float, float]] = []
    for op, args, ctm, _ in walk(reader, page):
        vals = [float(v) for v in args] if op in ("m", "l", "c", "v", "y", "re") else []
        if op in ("m", "l"):
            out.append(apply(ctm, vals[0], vals[1]))
        elif op in ("c", "v", "y"):
            out.append(apply(ctm, vals[-2], vals[-1]))
        elif op == "re":
            x, y, w, h = vals
            out += [apply(ctm, x, y), apply(ctm, x + w, y + h)]
    return out


def text_runs(page: Any) -> list[tuple[str, float, float, float, str, float, float]]:
    """(text, x, y, size, base font, dx, dy) of every text run, in page space; (dx, dy) is
    the unit vector along its baseline."""
    out: list[tuple[str, float, float, float, str, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        if not text.strip() or font is None:
            return
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        ax = tm[0] * cm[0] + tm[1] * cm[2]
        ay = tm[0] * cm[1] + tm[1] * cm[3]
        scale = (ax**2 + ay**2) ** 0.5
        out.append(
            (
                text.strip(),
                x,
                y,
                size * scale,
                str(font.get("/BaseFont", "")),
                ax / scale,
                ay / scale,
            )
        )

    page.extract_text(visitor_text=visit)
    return out
