"""`uno-fsm fuzz`: a long run of the engine's stateful fuzzer (uno_fsm.fuzz) against a
Hypothesis example database, with a progress display on stderr (docs/fuzzing.md)."""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from uno_fsm import fuzz
from uno_fsm.fuzz import ALL_RULESETS, STATS
from uno_spec.files import path_option
from uno_spec.options import count, positive_number


def register(sub: Any) -> None:
    """Add `uno-fsm fuzz`."""
    p = sub.add_parser("fuzz", help="stateful fuzzing of the engine (Hypothesis)",
                       description="Play random legal and illegal actions against the engine "
                       "for M minutes, checking invariants and rule postconditions.")
    p.add_argument("--minutes", type=positive_number, default=1.0,
                   help="how long to run (default 1)")
    p.add_argument("--ruleset", action="append",
                   help="ruleset (repeatable; default: every supported one of "
                   f"{', '.join(ALL_RULESETS)})")
    p.add_argument("--players", type=count(2, 10),
                   help="player count (default: 2..10 at random, those the ruleset allows)")
    p.add_argument("--seed", type=int, help="seed of the first batch (default: random)")
    p.add_argument("--database", default=Path(".hypothesis/"), type=path_option,
                   help="Hypothesis example database directory (default .hypothesis/)")
    p.add_argument("--coverage", action="store_true",
                   help="list the rule IDs checked and how often")
    p.set_defaults(handler=_cmd_fuzz)


class _Progress:
    def __init__(self, label: Callable[[], str]) -> None:
        self.label = label

    def __rich__(self) -> str:
        el = time.monotonic() - STATS.started
        return (f"[bold]fuzz[/] {self.label()}  elapsed {el:6.1f}s  steps {STATS.steps}  "
                f"({STATS.legal} legal, {STATS.illegal} illegal)  games {STATS.games}  "
                f"{STATS.rate():7.0f} steps/s")


def _print_failure(exc: BaseException, depth: int = 0) -> None:
    """The failure with Hypothesis' notes (the minimal program); each one of a group."""
    if isinstance(exc, BaseExceptionGroup):
        print(f"{len(exc.exceptions)} distinct failures:")
        for i, sub in enumerate(exc.exceptions, 1):
            print(f"\n--- failure {i} of {len(exc.exceptions)} ---")
            _print_failure(sub, depth + 1)
        return
    print(f"{type(exc).__name__}: {exc}")
    for note in getattr(exc, "__notes__", ()):
        print(note)


def _cmd_fuzz(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.live import Live

    err = Console(stderr=True)
    names: list[str] = list(args.ruleset or ALL_RULESETS)
    rulesets: list[str] = []
    for name in names:
        why = fuzz.unsupported_reason(name)
        if why is None:
            rulesets.append(name)
        elif args.ruleset:  # a ruleset asked for by name that cannot be fuzzed: bad input
            print(f"uno-fsm fuzz: cannot fuzz {name}: {why}", file=sys.stderr)
            return 2
        else:
            err.print(f"[yellow]skipped[/] {name}: {why}")
    if not rulesets:
        print("uno-fsm fuzz: no supported ruleset to fuzz", file=sys.stderr)
        return 2
    from uno_spec.files import database_problem, directory_problem

    if (problem := directory_problem(args.database, "--database")) is not None:  # a FIFO...
        print(f"uno-fsm fuzz: {problem}", file=sys.stderr)
        return 2
    players: int | tuple[int, int] = args.players if args.players is not None else (2, 10)
    machines = []
    for r in rulesets:
        try:
            machines.append(fuzz.make_machine(r, players))
        except ValueError as exc:  # e.g. an odd --players where the ruleset needs an even count
            if args.ruleset:
                print(f"uno-fsm fuzz: cannot fuzz {r}: {exc}", file=sys.stderr)
                return 2
            err.print(f"[yellow]skipped[/] {r}: {exc}")
    if not machines:
        print("uno-fsm fuzz: no supported ruleset to fuzz", file=sys.stderr)
        return 2
    # the options are good: the database folder is made now (one that cannot be is refused)
    if (problem := database_problem(args.database, "--database")) is not None:
        print(f"uno-fsm fuzz: {problem}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    deadline = time.monotonic() + args.minutes * 60
    STATS.reset()
    current = [machines[0].ruleset]
    batch = 0
    failure: BaseException | None = None
    live = Live(_Progress(lambda: current[0]), console=err, refresh_per_second=4) \
        if err.is_terminal else None
    if live is not None:
        live.start()
    try:
        while time.monotonic() < deadline:
            m = machines[batch % len(machines)]
            current[0] = m.ruleset
            try:
                fuzz.run(m, fuzz.LONG_PROFILE, database=str(args.database),
                         seed=seed * 1_000_003 + batch)
            except Exception as exc:  # noqa: BLE001 - report any failure
                failure = exc
                break
            batch += 1
            if live is None:
                err.print(_Progress(lambda: current[0]).__rich__(), highlight=False)
    finally:
        if live is not None:
            live.stop()
    elapsed = time.monotonic() - STATS.started
    err.print(f"{STATS.steps} steps in {elapsed:.1f}s: {STATS.rate():.0f} steps/second "
              f"(seed {seed}, {batch} batches); {len(STATS.checked)} rule IDs checked")
    if args.coverage:
        for rid, n in sorted(STATS.checked.items()):
            err.print(f"  {rid:32} {n}", highlight=False)
    if failure is not None:
        print(f"FAILURE in {current[0]} (seed {seed}, batch {batch}):")
        _print_failure(failure)
        return 1
    return 0
