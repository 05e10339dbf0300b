"""`uno-fsm`: one CLI for every user-facing job.

Each package owns its sub-commands and registers them here through a `register(subparsers)`
function, so that this module is the only place that knows all of them:

- `uno_spec.cli`: `spec lint`, `spec stats`, `spec docs`, `rules show`, `rules search`
- `uno_fsm.cli`: `play`, `simulate`, `diagram`, `fuzz`, `bench`
- `conformance.cli`: `conformance run`, `conformance lint`, `conformance report`
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = ("uno_spec.cli", "uno_fsm.cli", "conformance.cli", "uno_fsm.fuzz", "uno_cli.bench")  # noqa: E501


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uno-fsm",
        description="A formally specified UNO rules engine and a cited conformance suite.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        code = handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
