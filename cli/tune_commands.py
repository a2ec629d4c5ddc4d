"""`boardwright tune`: search settings for goals. One module per mode does the work; this one
holds the parser and picks the mode: `--param` ranges of the game's params
(interpreter/playtest/tune_params.py)."""
from __future__ import annotations


def add_tune(sub) -> None:
    pass


def cmd_tune(args) -> int:
    return 0
