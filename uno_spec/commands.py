"""Composing sub-commands lazily: what `uno_cli.main` (the `uno-fsm` command) and a package's
own command groups (`conformance.cli`: `conformance run`, `lint`, ...) share.

A package's `register(sub)` adds its commands to an argparse sub-parsers object; `Command`
names a command, the module whose `register` adds it and its help line. `add_subcommands`
imports only the module of the command named on the command line: the others appear as light
stand-ins carrying their help line. It lives here, below the engine and the harness, so that
`conformance.cli` composes its own sub-commands without importing `uno_cli` (imports point
down only: tests/test_imports.py).
"""

from __future__ import annotations

import argparse
import importlib
import os
import time
from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any, NamedTuple

# When this module was imported: the first thing the `uno-fsm` entry point does (uno_cli.main
# imports it first).
IMPORTED = time.monotonic()


def process_started() -> float:
    """The `time.monotonic()` instant at which this process started (interpreter start-up
    included): from /proc/self/stat on Linux (10 ms resolution), else when this module was
    imported. Durations a command reports ("OK in 5.70s") are measured from here."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        since_boot = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: starttime
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - since_boot
    except (OSError, ValueError, IndexError, AttributeError):
        return IMPORTED
    return min(IMPORTED, time.monotonic() - age) if 0 <= age < 86_400 * 365 else IMPORTED


class Command(NamedTuple):
    name: str
    module: str  # its `register(sub)` adds this command (and maybe others of the same module)
    help: str  # the help line the module registers (shown by `uno-fsm --help`)


# the parsed-arguments attribute that marks a stand-in (the real parser is then built)
STUB = "_uno_fsm_stub"


def chosen_command(argv: Sequence[str]) -> str | None:
    """The command named on the command line (the first word that is not an option)."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word
    return None


# The words after the command whose module is registering now (None: build every command):
# what `add_subcommands` reads, so that a module's own sub-commands are composed lazily too.
_WORDS: ContextVar[tuple[str, ...] | None] = ContextVar("uno_fsm_words", default=None)


def add_subcommands(sub: Any, commands: Sequence[Command]) -> None:
    """For a module's `register(sub)`: add `commands` (sub-commands that other modules
    register) to the sub-parsers `sub`, importing only the module of the one named on the
    command line; the others are stand-ins with their help line (conformance.cli: `conformance
    compliance`, `site`, `diff`...)."""
    add_commands(sub, commands, _WORDS.get())


def add_commands(sub: Any, commands: Sequence[Command], words: tuple[str, ...] | None) -> None:
    """Add `commands` to `sub`: with `words` (the command line after the parent command), only
    the module of the command named there is imported; without, every module."""
    chosen = chosen_command(words) if words is not None else None
    rest = words[words.index(chosen) + 1:] if words is not None and chosen is not None else ()
    wanted = {c.module for c in commands if words is None or c.name == chosen}
    registered: set[str] = set()
    for command in commands:
        if command.module in wanted:
            if command.module not in registered:
                registered.add(command.module)
                token = _WORDS.set(None if words is None else rest)
                try:
                    importlib.import_module(command.module).register(sub)
                finally:
                    _WORDS.reset(token)
            continue
        if command.name in sub.choices:
            continue
        stub = sub.add_parser(command.name, help=command.help, add_help=False)
        stub.add_argument("rest", nargs=argparse.REMAINDER)
        stub.set_defaults(**{STUB: command.name})
