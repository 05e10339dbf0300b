"""Sub-commands of this package for the `uno-fsm` CLI (see uno_cli.main)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:  # sub: argparse._SubParsersAction
    """Add this package's sub-commands to the top-level parser."""
    _ = argparse
