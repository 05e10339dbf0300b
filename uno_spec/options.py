"""Option types shared by every command: a bad value is refused while the command line is
parsed, before any file is read or any program started, in one line (exit 2).

They live here, below the engine (`uno_fsm`) and the harness (`conformance`), so that both
packages' commands use them without importing `uno_cli`, which composes those commands
(imports point down only: tests/test_imports.py).

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


def non_negative_number(text: str) -> float:
    """A finite number of at least 0 (seconds; 0: none)."""
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is negative")
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


def mebibytes(maximum: int) -> Callable[[str], int]:
    """A whole number of MiB from 0 (no cap) to `maximum` (a memory limit: `-1`, `2.5`, `lots`
    and a count of MiB no machine has are refused)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number of MiB: {text!r}") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"{value} is negative (0 means no cap)")
        if value > maximum:
            raise argparse.ArgumentTypeError(f"{value} MiB is more than {maximum} MiB "
                                             "(0 means no cap)")
        return value

    parse.__name__ = "mebibytes"
    return parse


# In a help text, RULESETS stands for the rulesets and variants of spec/rulesets/, listed when
# the help is shown (HelpFormatter), so that no help copies the list by hand and building the
# parser reads no file.
RULESETS = "{RULESETS}"


def ruleset_listing() -> str:
    """`bases classic-2022, ...; variants (BASE+VARIANT+...) ...`, from spec/."""
    try:
        from uno_spec.rulesets import list_rulesets

        bases, variants = list_rulesets("base"), list_rulesets("variant")
    except Exception:  # noqa: BLE001 - a broken spec/ must not break --help
        return "see `uno-fsm rulesets`"
    return (f"bases {', '.join(bases)}; variants, composed as BASE+VARIANT+...: "
            f"{', '.join(variants)} (`uno-fsm rulesets` describes each)")


# In a help text, MATCHES stands for the match formats of spec/matches/, listed the same way.
MATCHES = "{MATCHES}"


def match_listing() -> str:
    """The match formats of spec/matches/, comma-separated."""
    try:
        from uno_spec.matches import list_matches

        return ", ".join(list_matches()) or "none"
    except Exception:  # noqa: BLE001 - a broken spec/ must not break --help
        return "see spec/matches/"


class HelpFormatter(argparse.HelpFormatter):
    """The help formatter of every `uno-fsm` parser (uno_cli.main.Parser): expands RULESETS and
    MATCHES."""

    def _expand_help(self, action: argparse.Action) -> str:
        text = super()._expand_help(action)
        if RULESETS in text:
            text = text.replace(RULESETS, ruleset_listing())
        return text.replace(MATCHES, match_listing()) if MATCHES in text else text


class DefaultsHelpFormatter(HelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """HelpFormatter that also shows every option's default."""
