"""Sub-commands of this package for the `uno-fsm` CLI (see uno_cli.main):

- `uno-fsm diagram [--markdown | --table] [--write PATH]`: Mermaid of the turn-phase machine,
  or its edges as the module uno_fsm/phase_table.py
- `uno-fsm play [--ruleset R] [--players N] [--seed S] [--seat K] [--bots B]`: one person
  against bots (uno_fsm.terminal, uno_fsm.bots)
- `uno-fsm play --match NAME [--player K] [--rounds N] [--seed S] [--bots B]`: one person in a
  partner match, the other players bots (uno_fsm.terminal_match over uno_fsm.match)
- `uno-fsm simulate --games N --ruleset R --players P --seed S`: random games, statistics
- `uno-fsm simulate --match NAME [--rounds N] [--bots B] [--format text|json] --seed S`: a match
  of several hands, each with another partner (uno_fsm.match, spec/matches/)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any, TextIO

from uno_fsm.bots import BOTS
from uno_spec import sitelinks
from uno_spec.files import path_option
from uno_spec.options import MATCHES, RULESETS, DefaultsHelpFormatter, count


def register(sub: Any) -> None:  # sub: argparse._SubParsersAction
    """Add this package's sub-commands to the top-level parser."""
    p = sub.add_parser("diagram", help="print the turn-phase machine as a Mermaid diagram")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--markdown", action="store_true",
                     help="the Markdown page docs/diagrams/phases.md instead of bare Mermaid")
    how.add_argument("--table", action="store_true",
                     help="the machine's edges as the Python module uno_fsm/phase_table.py "
                     "(the dispatch table the engine runs on; regenerate it after changing "
                     "uno_fsm/phases.py)")
    p.add_argument("--write", type=path_option, metavar="PATH",
                   help="write to PATH instead of stdout")
    p.set_defaults(handler=cmd_diagram)

    p = sub.add_parser("play", help="play a game in the terminal against bots",
                       description="Play UNO in the terminal against bots: one game, or with "
                       "--match a whole partner match. In the game, `help` explains the card "
                       "codes and commands, `why` the rule behind the last event. Colours "
                       "follow NO_COLOR and the terminal.")
    p.add_argument("--ruleset", default="classic-official", action=Given,
                   help=f"the ruleset, with +variants (default: %(default)s): {RULESETS}")
    p.add_argument("--players", type=count(2, 10), default=4, action=Given,
                   help="players at the table, you included (default: %(default)s)")
    p.add_argument("--seed", type=int, default=None,
                   help="the deal and the bots' choices; with --match, the whole match: the "
                   "same seed plays the same match (default: a random seed, printed)")
    p.add_argument("--seat", type=count(0, 9), default=0, action=Given,
                   help="your seat, 0 to players-1 (default: %(default)s)")
    p.add_argument("--bots", choices=sorted(BOTS), default="basic",
                   help="how the bots play: random moves, or a basic strategy "
                   "(uno_fsm/bots.py) (default: %(default)s)")
    sitelinks.add_option(p)  # the links `why` prints
    m = p.add_argument_group(
        "matches", "sit in a partner match (spec/matches/: several hands, each with another "
        "partner), "
        "one player of it, the others bots: you play every hand of the schedule you sit in "
        "(the other table of the tournament is played by bots and reported); between hands "
        "the partnerships, each hand's result and the tally by partnership; at the end the "
        "winners, as `uno-fsm simulate --match` tallies them. The format names its ruleset, "
        "players and seats, so --ruleset, --players and --seat do not apply")
    m.add_argument("--match", metavar="NAME", default=argparse.SUPPRESS, action=Given,
                   help=f"play the match format NAME: {MATCHES}")
    m.add_argument("--player", type=count(0), default=0, action=Given,
                   help="the player of the match you are, 0 to players-1 (default: "
                   "%(default)s)")
    m.add_argument("--rounds", type=count(1, 100), default=argparse.SUPPRESS, action=Given,
                   help="rounds of the rotation to play instead of the format's "
                   "(PARTNERS.ROTATION.ROUNDS)")
    p.set_defaults(handler=cmd_play)

    p = sub.add_parser("simulate", help="play random games and report statistics",
                       formatter_class=DefaultsHelpFormatter)
    p.add_argument("--games", type=count(1), default=100, action=Given, help="how many games")
    p.add_argument("--ruleset", default="classic-official", action=Given,
                   help=f"the ruleset, with +variants: {RULESETS}")
    p.add_argument("--players", type=int, default=4, action=Given, help="players at the table")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed: the same seed plays the same games")
    p.add_argument("--max-actions", type=count(1), default=100_000,
                   help="give up a game after this many actions")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    m = p.add_argument_group(
        "matches", "a partner match (spec/matches/: several hands, each with another partner): the "
        "schedule, each hand's result and the tally by partnership; the format names its "
        "ruleset and players, so --games, --ruleset and --players do not apply")
    m.add_argument("--match", metavar="NAME", default=argparse.SUPPRESS, action=Given,
                   help=f"play the match format NAME: {MATCHES}")
    m.add_argument("--rounds", type=count(1, 100), default=argparse.SUPPRESS, action=Given,
                   help="rounds of the rotation to play instead of the format's "
                   "(PARTNERS.ROTATION.ROUNDS)")
    m.add_argument("--bots", choices=sorted(BOTS), default="random", action=Given,
                   help="how every player of the match plays (uno_fsm/bots.py)")
    m.add_argument("--format", choices=("text", "json"), default="text", action=Given,
                   help="the match report as text or as one JSON document")
    p.set_defaults(handler=cmd_simulate)


class Given(argparse.Action):
    """Stores an option's value and records that it was given (`args.given`), so that
    `simulate` can refuse options that do not go with --match, or need it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.given = (*getattr(namespace, "given", ()), self.option_strings[0])


MATCH_ONLY = ("--rounds", "--bots", "--format")  # options of a match
NOT_IN_A_MATCH = ("--games", "--ruleset", "--players")  # the match format decides these


# ---- diagram --------------------------------------------------------------------------
def cmd_diagram(args: argparse.Namespace) -> int:
    from uno_fsm.phases import diagram_markdown, mermaid, table_module
    from uno_spec.files import write_file

    text = diagram_markdown() if args.markdown else table_module() if args.table else mermaid()
    if args.write:
        if (problem := write_file(args.write, text)) is not None:
            print(f"uno-fsm diagram: {problem}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0


# ---- play -----------------------------------------------------------------------------
MAX_BOT_MOVES = 100_000  # `play` stops after this many bot moves without a human decision


PLAY_MATCH_ONLY = ("--player", "--rounds")  # options of `play --match`
NOT_IN_A_MATCH_PLAY = ("--ruleset", "--players", "--seat")  # the match format decides these


def cmd_play(args: argparse.Namespace, stdin: TextIO | None = None,
             stdout: TextIO | None = None, max_bot_moves: int = MAX_BOT_MOVES) -> int:
    from uno_fsm.game import Game
    from uno_fsm.terminal import play

    given = getattr(args, "given", ())
    if hasattr(args, "match"):
        return cmd_play_match(args, [o for o in given if o in NOT_IN_A_MATCH_PLAY], stdin,
                              stdout, max_bot_moves)
    if lonely := [o for o in given if o in PLAY_MATCH_ONLY]:
        print(f"uno-fsm play: {lonely[0]} goes with --match NAME", file=sys.stderr)
        return 2
    if args.seat >= args.players:
        print(f"uno-fsm play: --seat {args.seat} does not exist with {args.players} players "
              f"(seats 0 to {args.players - 1})", file=sys.stderr)
        return 2
    if not interactive(stdin):
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    try:
        game = Game.new(args.ruleset, args.players, seed)
    except Exception as exc:  # unknown ruleset, bad player count
        print(f"uno-fsm play: {exc}", file=sys.stderr)
        return 2
    out = stdout or sys.stdout
    try:
        return play(game, args.seat, getattr(args, "bots", "basic"), seed, stdin or sys.stdin,
                    out, max_bot_moves)
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback
        print(file=out)
        print("uno-fsm play: interrupted, game abandoned", file=sys.stderr)
        return 130


def interactive(stdin: TextIO | None) -> bool:
    """Whether `play` has a person to ask: a terminal on standard input, or the input a
    caller gives (tests). Else one line on stderr."""
    if stdin is None and (sys.stdin is None or sys.stdin.closed or not sys.stdin.isatty()):
        print("uno-fsm play: standard input is not a terminal; play is interactive "
              "(`uno-fsm simulate` plays unattended games)", file=sys.stderr)
        return False
    return True


def cmd_play_match(args: argparse.Namespace, conflicting: list[str], stdin: TextIO | None,
                   stdout: TextIO | None, max_bot_moves: int) -> int:
    """`play --match NAME`: one line on stderr and exit 2 for a bad name or option, before
    anything is played; exit 1 when a bots' hand does not end (uno_fsm.terminal_match)."""
    from uno_fsm.match import HandUnfinished, MatchError
    from uno_fsm.terminal_match import check_player, sit_match
    from uno_spec.loader import SpecError
    from uno_spec.matches import load_match

    if conflicting:
        why = "the schedule seats you; --player chooses which player you are" \
            if conflicting[0] == "--seat" else "the match format names its ruleset and players"
        print(f"uno-fsm play: {conflicting[0]} does not go with --match ({why})",
              file=sys.stderr)
        return 2
    try:
        fmt = load_match(args.match)
    except SpecError as exc:  # unknown match, malformed match file
        print(f"uno-fsm play: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    try:
        check_player(fmt, args.player)
    except MatchError as exc:
        print(f"uno-fsm play: {exc}", file=sys.stderr)
        return 2
    if not interactive(stdin):
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    out = stdout or sys.stdout
    try:
        return sit_match(fmt, args.player, args.bots, seed, getattr(args, "rounds", None),
                         stdin or sys.stdin, out, max_bot_moves)
    except SpecError as exc:  # the format's ruleset is unknown
        print(f"uno-fsm play: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except HandUnfinished as exc:  # the bots of another table did not finish a hand
        print(f"uno-fsm play: --match {args.match}: {exc}", file=sys.stderr)
        return 1
    except MatchError as exc:  # a format the engine cannot play
        print(f"uno-fsm play: --match {args.match}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback
        print(file=out)
        print("uno-fsm play: interrupted, match abandoned", file=sys.stderr)
        return 130


# ---- simulate -------------------------------------------------------------------------
def cmd_simulate(args: argparse.Namespace) -> int:
    given = getattr(args, "given", ())
    if hasattr(args, "match"):
        return cmd_match(args, [o for o in given if o in NOT_IN_A_MATCH])
    if lonely := [o for o in given if o in MATCH_ONLY]:
        print(f"uno-fsm simulate: {lonely[0]} goes with --match NAME", file=sys.stderr)
        return 2
    from rich.console import Console
    from rich.progress import Progress

    from uno_fsm.game import Game

    try:  # unknown ruleset, bad player count: one line, no traceback
        Game.new(args.ruleset, args.players, args.seed)
    except Exception as exc:
        print(f"uno-fsm simulate: {exc}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    lengths: list[int] = []
    rounds: list[int] = []
    wins: Counter[int] = Counter()
    final_scores: list[int] = []
    unfinished = 0
    started = time.perf_counter()
    actions = 0
    console = Console(stderr=True)
    with Progress(console=console, disable=args.no_progress, transient=True) as progress:
        task = progress.add_task("simulating", total=args.games)
        for i in range(args.games):
            game = Game.new(args.ruleset, args.players, args.seed * 1_000_003 + i)
            n = 0
            while not game.is_over and n < args.max_actions:  # bounded by --max-actions
                game.apply(rng.choice(game.legal_actions()))
                n += 1
            actions += n
            if game.is_over:
                lengths.append(n)
                rounds.append(game.state.round)
                if game.winner is not None:
                    wins[game.winner] += 1
                final_scores.extend(game.scores)
            else:
                unfinished += 1
            progress.advance(task)
    elapsed = time.perf_counter() - started
    done = len(lengths)
    print(f"ruleset {args.ruleset}, {args.players} players, {args.games} games, seed {args.seed}")
    if done:
        print(f"mean game length: {statistics.mean(lengths):.1f} actions "
              f"(median {statistics.median(lengths)}), {statistics.mean(rounds):.2f} rounds")
        print("win rate by seat: " + ", ".join(
            f"P{s} {wins[s] / done:.1%}" for s in range(args.players)))
        qs = statistics.quantiles(final_scores, n=4) if len(final_scores) > 1 else final_scores
        print(f"final scores: mean {statistics.mean(final_scores):.1f}, min {min(final_scores)}, "
              f"quartiles {', '.join(f'{q:g}' for q in qs)}, max {max(final_scores)}")
    if unfinished:
        print(f"unfinished games (over {args.max_actions} actions): {unfinished}")
    print(f"{actions} actions in {elapsed:.2f}s: {actions / max(elapsed, 1e-9):,.0f} actions/s")
    return 0


# ---- simulate --match -----------------------------------------------------------------
def cmd_match(args: argparse.Namespace, conflicting: list[str]) -> int:
    """`simulate --match NAME`: one line on stderr and exit 2 for a bad name or option, exit
    1 when a hand does not end within --max-actions."""
    from uno_fsm.match import HandUnfinished, MatchError, play_match, report_lines
    from uno_spec.files import json_text
    from uno_spec.loader import SpecError
    from uno_spec.matches import load_match

    if conflicting:
        print(f"uno-fsm simulate: {conflicting[0]} does not go with --match (the match format "
              "names its ruleset and players)", file=sys.stderr)
        return 2
    try:
        fmt = load_match(args.match)
        result = play_match(fmt, args.seed, args.bots, getattr(args, "rounds", None),
                            args.max_actions)
    except SpecError as exc:  # unknown match, malformed match file, unknown ruleset
        print(f"uno-fsm simulate: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except HandUnfinished as exc:  # the engine or the bots did not finish a hand
        print(f"uno-fsm simulate: --match {args.match}: {exc} (--max-actions)", file=sys.stderr)
        return 1
    except MatchError as exc:  # a format the engine cannot play
        print(f"uno-fsm simulate: --match {args.match}: {exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        sys.stdout.write(json_text(result.to_dict()) + "\n")
    else:
        print("\n".join(report_lines(result)))
    return 0
