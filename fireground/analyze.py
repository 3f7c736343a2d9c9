"""`fireground analyze`: the engine's Monte Carlo analysis, with the PDF drawn by export.

The engine never imports the export layer; this CLI module joins the two.
"""

from __future__ import annotations

import argparse
import errno
import os


def check_out(out: str) -> None:
    """Fail before the (long) Monte Carlo run if the report could not be written there."""
    if os.path.isdir(out):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), out)
    if not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), out)


def cmd_analyze(args: argparse.Namespace) -> int:
    from fireground.engine.analysis import cli_analyze

    if args.out:
        check_out(args.out)
    writer = None
    if args.out:
        from fireground.export.analysis_report import write_analysis_report

        writer = write_analysis_report
    rc: int = cli_analyze(args, write_pdf=writer)
    return rc
