"""fireground: scenario editor and play-aid generator for BLITZ!"""

__version__ = "0.1.0"
