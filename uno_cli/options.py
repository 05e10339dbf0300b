"""Option types shared by every command: a bad value is refused while the command line is
parsed, before any file is read or any program started, in one line (exit 2).

`inf`, `nan`, `0` and negative numbers are refused where they make no sense (`--timeout`,
`--minutes`), counts must be whole and at least their minimum (`--games 0`, `--repeat -1`).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def positive_number(text: str) -> float:
    """A finite number greater than 0 (seconds, minutes)."""
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not greater than 0")
    return value


def seconds(maximum: float) -> Callable[[str], float]:
    """A positive finite number of seconds of at most `maximum` (a timeout that timers and
    `select` can hold: 1e300 seconds would overflow them)."""

    def parse(text: str) -> float:
        value = positive_number(text)
        if value > maximum:
            raise argparse.ArgumentTypeError(f"{text!r} is more than {maximum:g} seconds")
        return value

    parse.__name__ = "seconds"
    return parse


def count(minimum: int = 1, maximum: int | None = None) -> Callable[[str], int]:
    """A whole number from `minimum` (to `maximum`)."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum or (maximum is not None and value > maximum):
            bounds = f"from {minimum} to {maximum}" if maximum is not None \
                else f"at least {minimum}"
            raise argparse.ArgumentTypeError(f"{value} is not {bounds}")
        return value

    parse.__name__ = "count"
    return parse

