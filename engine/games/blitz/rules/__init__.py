"""The BLITZ! turn, one module per family of steps."""
