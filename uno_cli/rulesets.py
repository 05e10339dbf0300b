"""`uno-fsm rulesets`: every ruleset and variant, the same command and output as `uno-fsm
conformance rulesets` (conformance/registries.py holds both)."""

from __future__ import annotations

from typing import Any


def register(sub: Any) -> None:  # sub: argparse._SubParsersAction
    from conformance.registries import add_rulesets_parser

    add_rulesets_parser(sub)
