"""`fireground analyze`: the engine's Monte Carlo analysis, with the PDF drawn by export.

The engine never imports the export layer; this CLI module joins the two.
"""

from __future__ import annotations

import argparse


def cmd_analyze(args: argparse.Namespace) -> int:
    from fireground.engine.analysis import cli_analyze

    writer = None
    if args.out:
        from fireground.export.analysis_report import write_analysis_report

        writer = write_analysis_report
    return cli_analyze(args, write_pdf=writer)
