"""Errors raised for bad user input. Each prints as ``FILE:LINE:COL: message``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in a file. ``line`` and ``col`` are 1-based; 0 when unknown."""

    file: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}: {self.message}"
        return f"{self.file}: {self.message}"


class ScenarioError(ValueError):
    """A scenario file that cannot be read or does not follow the format.

    Holds every problem found (``diagnostics``); ``str()`` gives one per line.
    """

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        if not diagnostics:
            raise ValueError("ScenarioError needs at least one diagnostic")
        self.diagnostics = diagnostics
        super().__init__("\n".join(str(d) for d in diagnostics))

    @classmethod
    def at(cls, file: str, line: int, col: int, message: str) -> ScenarioError:
        return cls([Diagnostic(file, line, col, message)])


class UsageError(ValueError):
    """Bad command-line usage that argparse cannot see (exit code 2)."""
