"""`uno-fsm`: one CLI for every user-facing job.

Each package owns its sub-commands and registers them through a `register(subparsers)`
function; `COMMANDS` below is the only place that knows all of them:

- `uno_spec.cli`: `spec lint`, `spec stats`, `spec docs`, `rules show`, `rules search`
- `uno_fsm.cli`: `play`, `simulate`, `diagram`
- `uno_cli.fuzz`: `fuzz`; `uno_fsm.modelcheck`: `check`; `uno_cli.bench`: `bench`;
  `uno_cli.rulesets`: `rulesets` (the command `conformance rulesets` under its short name)
- `conformance.cli`: `conformance run`, `conformance lint`, `conformance report`,
  `conformance serve`, `conformance compliance`, `conformance features`, `conformance errors`,
  `conformance rulesets`

Start-up is lazy: only the module of the command being run is imported (serving the reference
engine over stdio must not pay for Hypothesis, rich, python-statemachine or jsonschema). The
other commands appear in the parser as light stand-ins carrying the help line of `COMMANDS`, so
`uno-fsm --help` lists every command without importing any module. A module composes its own
sub-commands the same way (`uno_spec.commands.add_subcommands`: `conformance.cli.SUBCOMMANDS`).
tests/test_conformance_cli_startup.py checks that each help line here is the one its module
registers, and which modules `conformance run` and `conformance serve` import.

Exit status, for every command: 0 nothing unexpected; 1 what was checked failed (the
implementation under `conformance run`); 2 bad input, bad usage or an internal error, always
as one line on stderr and never a traceback: a usage error names the option (`Parser.error`),
and an exception no command handled becomes `uno-fsm COMMAND: internal error: ...` (set
UNO_FSM_TRACEBACK=1 to see the traceback instead). SIGINT, SIGTERM and SIGHUP end every command
the same way (uno_spec.signals): what it started is ended, no file is left half written, and it
exits with 128 + the signal number (130, 143, 129) after one line on stderr.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Sequence
from typing import Any

from uno_spec.commands import (  # noqa: F401 - IMPORTED, process_started: imported first
    IMPORTED,
    STUB,
    Command,
    add_commands,
    chosen_command,
    process_started,
)

COMMANDS: tuple[Command, ...] = (
    Command("spec", "uno_spec.cli", "check and document the specification (spec/)"),
    Command("rules", "uno_spec.cli", "look up rules and the clauses they cite"),
    Command("diagram", "uno_fsm.cli", "print the turn-phase machine as a Mermaid diagram"),
    Command("play", "uno_fsm.cli", "play a game in the terminal against bots"),
    Command("simulate", "uno_fsm.cli", "play random games and report statistics"),
    Command("conformance", "conformance.cli", "run, lint and report the conformance suite"),
    Command("fuzz", "uno_cli.fuzz", "stateful fuzzing of the engine (Hypothesis)"),
    Command("check", "uno_fsm.modelcheck", "model-check the engine on reduced decks"),
    Command("bench", "uno_cli.bench", "benchmark the engine, the conformance runner, the fuzzer"),
    Command("rulesets", "uno_cli.rulesets", "list every ruleset and variant: what it is, what it "
            "applies to and conflicts with, its rules and scenarios"),
)
COMMAND_MODULES = tuple(dict.fromkeys(c.module for c in COMMANDS))

TRACEBACK_ENV = "UNO_FSM_TRACEBACK"
# what writing an output can fail with that is no bug of ours: a full disk or quota, a file too
# large, an I/O error (told in one line, exit 2, not as an internal error)
WRITE_FAILURES = frozenset((errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO))


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit 2); every
    sub-command parser is of this class (argparse makes sub-parsers of the parent's class).
    Its help formatter (uno_spec.options.HelpFormatter) lists the rulesets where a help says
    `RULESETS`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from uno_spec.options import HelpFormatter

        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {one_line(message)} (see `{self.prog} --help`)\n")


def one_line(text: object, limit: int = 500) -> str:
    """`text` on one line of at most `limit` characters, its control characters escaped
    (uno_spec.encoding.terminal_line: a message quoting a file or an adapter cannot send
    terminal commands)."""
    from uno_spec.encoding import terminal_line

    out = terminal_line(" ".join(str(text).split()))
    return out if len(out) <= limit else out[:limit] + "..."


def _last_word(line: str) -> None:
    """The one line of an interrupted command, on stderr if it is still there (SIGHUP: the
    terminal may be gone)."""
    try:
        print(line, file=sys.stderr)
    except (OSError, ValueError):
        pass


def _command_path(words: Sequence[str]) -> str:
    """`uno-fsm` and the command named on the command line, with its sub-command
    (`uno-fsm conformance diff`)."""
    chosen = chosen_command(words)
    if chosen is None:
        return "uno-fsm"
    sub = chosen_command(words[list(words).index(chosen) + 1:]) if chosen in GROUPS else None
    return f"uno-fsm {chosen} {sub}" if sub else f"uno-fsm {chosen}"


# The commands that hold sub-commands (`uno-fsm conformance run`).
GROUPS = ("conformance", "spec", "rules")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with `argv`, only the module of the command named in it is imported (the
    others are stand-ins with their help line); without, every command module is imported."""
    parser = Parser(
        prog="uno-fsm",
        description="A formally specified UNO rules engine and a cited conformance suite.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_commands(sub, COMMANDS, None if argv is None else tuple(argv))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    command = chosen_command(words) or "uno-fsm"
    from uno_spec.signals import Interrupted, ending_signals

    try:
        with ending_signals():  # SIGTERM and SIGHUP end a command as SIGINT does
            code = _main(words)
            sys.stdout.flush()  # here, not at exit: a full disk is told as such (below)
            return code
    except Interrupted as exc:  # what the command started is ended, nothing is left half
        _last_word(f"{_command_path(words)}: interrupted by {exc.name}")
        return exc.exit_status
    except SystemExit as exc:  # argparse: --help (0) or a usage error, already printed (2)
        if exc.code is None or isinstance(exc.code, int):
            return int(exc.code or 0)
        print(f"uno-fsm {command}: {one_line(exc.code)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        _last_word(f"{_command_path(words)}: interrupted by SIGINT")
        return 130
    except BrokenPipeError:  # the reader went away (`uno-fsm ... | head`)
        return 0
    except Exception as exc:  # a bad ruleset name or spec file; else a bug: one line, exit 2
        from uno_spec.loader import SpecError

        if isinstance(exc, SpecError):
            print(f"uno-fsm {command}: {one_line(exc)}", file=sys.stderr)
            return 2
        if isinstance(exc, OSError) and exc.errno in WRITE_FAILURES:  # `> /dev/full`
            print(f"uno-fsm {command}: cannot write the output: {exc.strerror}",
                  file=sys.stderr)
            return 2
        if os.environ.get(TRACEBACK_ENV):
            raise
        print(f"uno-fsm {command}: internal error: {type(exc).__name__}: {one_line(exc)} "
              f"(set {TRACEBACK_ENV}=1 for the traceback)", file=sys.stderr)
        return 2


def _parse(parser: argparse.ArgumentParser, words: list[str]) -> argparse.Namespace:
    """`parser.parse_args(words)`, but words no command takes are refused by the command named
    (`uno-fsm conformance run: unrecognized arguments: ...`, with its help): argparse leaves
    them to the top parser, whose help does not list the command's options."""
    args, extra = parser.parse_known_args(words)
    if extra:
        path = _command_path(words)
        parser.exit(2, f"{path}: {one_line('unrecognized arguments: ' + ' '.join(extra))} "
                       f"(see `{path} --help`)\n")
    return args


def _main(words: list[str]) -> int:
    parser = build_parser(words)
    args = _parse(parser, words)
    if getattr(args, STUB, None) is not None:  # a stand-in was chosen: parse for real
        parser = build_parser()
        args = _parse(parser, words)
    handler = getattr(args, "handler", None)
    if handler is None:
        print("uno-fsm: name a command (see `uno-fsm --help`)", file=sys.stderr)
        return 2
    if hasattr(args, "site_url"):  # uno_spec.sitelinks.add_option: a command printing links
        from uno_spec.sitelinks import env_problem, using

        # --site-url is checked as it is parsed; the variable it overrides, here, before the
        # command runs (a base is written as it is into every link: Markdown, terminals)
        if args.site_url is None and (problem := env_problem()) is not None:
            print(f"{_command_path(words)}: {one_line(problem)}", file=sys.stderr)
            return 2
        with using(args.site_url):
            return int(handler(args) or 0)
    return int(handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
