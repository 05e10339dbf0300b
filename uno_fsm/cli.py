"""Sub-commands of this package for the `uno-fsm` CLI (see uno_cli.main):

- `uno-fsm diagram [--markdown] [--write PATH]`: Mermaid of the turn-phase machine
- `uno-fsm play [--ruleset R] [--players N] [--seed S]`: one human against random bots
- `uno-fsm simulate --games N --ruleset R --players P --seed S`: random games, statistics
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from uno_cli.options import RULESETS, DefaultsHelpFormatter, count
from uno_fsm.actions import Action
from uno_fsm.cards import color_name


def register(sub: Any) -> None:  # sub: argparse._SubParsersAction
    """Add this package's sub-commands to the top-level parser."""
    p = sub.add_parser("diagram", help="print the turn-phase machine as a Mermaid diagram")
    p.add_argument("--markdown", action="store_true",
                   help="the Markdown page docs/diagrams/phases.md instead of bare Mermaid")
    p.add_argument("--write", type=Path, metavar="PATH", help="write to PATH instead of stdout")
    p.set_defaults(handler=cmd_diagram)

    p = sub.add_parser("play", help="play a game in the terminal against random bots")
    p.add_argument("--ruleset", default="classic-official")
    p.add_argument("--players", type=count(2, 10), default=4)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--seat", type=count(0, 9), default=0,
                   help="your seat, 0 to players-1 (default 0)")
    p.set_defaults(handler=cmd_play)

    p = sub.add_parser("simulate", help="play random games and report statistics",
                       formatter_class=DefaultsHelpFormatter)
    p.add_argument("--games", type=count(1), default=100, help="how many games")
    p.add_argument("--ruleset", default="classic-official",
                   help=f"the ruleset, with +variants: {RULESETS}")
    p.add_argument("--players", type=int, default=4, help="players at the table")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed: the same seed plays the same games")
    p.add_argument("--max-actions", type=count(1), default=100_000,
                   help="give up a game after this many actions")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_simulate)


# ---- diagram --------------------------------------------------------------------------
def cmd_diagram(args: argparse.Namespace) -> int:
    from uno_fsm.phases import diagram_markdown, mermaid
    from uno_spec.files import write_file

    text = diagram_markdown() if args.markdown else mermaid()
    if args.write:
        if (problem := write_file(args.write, text)) is not None:
            print(f"uno-fsm diagram: {problem}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0


# ---- play -----------------------------------------------------------------------------
MAX_BOT_MOVES = 100_000  # `play` stops after this many bot moves without a human decision
def describe(action: Action, side: str | None = None) -> str:
    """A move in words, for the terminal; with `side` (UNO Flip) a card is named by the face
    its holder sees (FL.INFO.NO-PEEK)."""
    k = action.kind
    if k == "play":
        card = action.card
        s = f"play {card if side is None or card is None else card.face(side).text}"
        if action.color:
            s += f" as {color_name(action.color)}"
        return s + (" and call UNO" if action.uno else "")
    return {
        "draw": "draw a card",
        "pass": "keep the drawn card (pass)",
        "color": f"name the colour {color_name(action.color)}",
        "challenge": "challenge the Wild Draw card",
        "accept": "accept the Wild Draw card (draw)",
        "swap": f"swap hands with P{action.target}",
        "uno": "call UNO",
        "catch": f"catch P{action.target} (did not call UNO)",
        "next-round": "deal the next round",
    }.get(k, str(action))


def cmd_play(args: argparse.Namespace, stdin: TextIO | None = None,
             stdout: TextIO | None = None, max_bot_moves: int = MAX_BOT_MOVES) -> int:
    from uno_fsm.errors import IllegalAction
    from uno_fsm.game import Game

    if args.seat >= args.players:
        print(f"uno-fsm play: --seat {args.seat} does not exist with {args.players} players "
              f"(seats 0 to {args.players - 1})", file=sys.stderr)
        return 2
    if stdin is None and (sys.stdin is None or sys.stdin.closed or not sys.stdin.isatty()):
        print("uno-fsm play: standard input is not a terminal; play is interactive "
              "(`uno-fsm simulate` plays unattended games)", file=sys.stderr)
        return 2
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    try:
        game = Game.new(args.ruleset, args.players, seed)
    except Exception as exc:  # unknown ruleset, bad player count
        print(f"uno-fsm play: {exc}", file=sys.stderr)
        return 2
    me = args.seat
    bots = random.Random(seed + 1)
    print(f"UNO ({args.ruleset}), {args.players} players, seed {seed}. You are P{me}. "
          f"Type a move number, or q to quit.", file=out)
    bot_moves = 0  # the bots' moves since the human's last decision
    while not game.is_over:
        if bot_moves >= max_bot_moves:
            # bounded (docs/robustness.md, "Engine"): random bots could in principle pass the turn
            # among themselves for ever; a game is not worth more moves than this
            print(f"\nThe bots made {max_bot_moves} moves without you; the game is stopped.",
                  file=out)
            return 1
        mine = game.legal_actions(me)
        pending = game.pending
        my_turn = pending is not None and pending.player == me
        if my_turn or (mine and any(a.kind in ("uno", "catch") for a in mine)):
            _show(game, me, out)
            options = mine
            side = game.state.side if game.params.game == "flip" else None
            if side is not None:  # cards alike on the active side are one move to their holder
                seen: dict[str, Action] = {}
                for a in mine:
                    seen.setdefault(describe(a, side), a)
                options = list(seen.values())
            for i, a in enumerate(options, 1):
                print(f"  {i:2}. {describe(a, side)}", file=out)
            if not my_turn:
                print("   0. let it go", file=out)
            print("> ", end="", file=out, flush=True)
            bot_moves = 0
            line = inp.readline()
            if not line:  # end of input before the game ended
                print("uno-fsm play: end of input before the game ended (type q to quit)",
                      file=sys.stderr)
                return 2
            if line.strip().lower() in ("q", "quit", "exit"):
                print("\nbye", file=out)
                return 0
            text = line.strip()
            if text == "0" and not my_turn:
                _bot_step(game, me, bots, out)
                continue
            action = _parse_choice(text, options) or _parse_move(text, me, game)
            if action is None:
                print("  ? type a number shown, or a card (e.g. R5, W4 green, R7 uno)",
                      file=out)
                continue
            try:
                side = game.state.side
                for ev in game.apply(action):
                    _say(ev, me, out, side, game.params.game == "flip")
            except IllegalAction as exc:  # cite the rule when a move is refused
                print(f"  refused: {exc.message} ({exc.code}, rule {exc.rule})", file=out)
            continue
        _bot_step(game, me, bots, out)
        bot_moves += 1
    print(f"Game over. Winner: P{game.winner}. Scores: {game.scores}", file=out)
    return 0


def _parse_choice(text: str, options: list[Action]) -> Action | None:
    if text.isdigit() and 1 <= int(text) <= len(options):
        return options[int(text) - 1]
    return None


def _parse_move(text: str, me: int, game: Any = None) -> Action | None:
    """A move typed as a card: `R5`, `W4 green`, `R7 uno`, or `draw` (any move may be tried;
    the engine refuses an illegal one and names the rule)."""
    from uno_fsm.cards import color_letter, parse
    from uno_fsm.errors import CardNotationError

    words = text.split()
    if not words:
        return None
    if words[0].lower() == "draw":
        return Action.draw(me)
    try:
        card = parse(words[0].upper())
        color = None
        for w in words[1:]:
            if w.lower() != "uno":
                color = color_letter(w.lower())
    except CardNotationError:
        return None
    if game is not None and game.params.game == "flip" and card.dark is None:
        # UNO Flip: the player names the face they see; take a held card showing it
        side = game.state.side
        held = [c for c in game.state.hands[me] if c.face(side) is card.light]
        if held:
            card = held[0]
    return Action.play(me, card, color, "uno" in (w.lower() for w in words[1:]))


def _bot_step(game: Any, me: int, bots: random.Random, out: TextIO) -> None:
    """Let a bot (or the round) move; bots may catch, never call on the human's behalf."""
    actions = [a for a in game.legal_actions() if a.player != me]
    if not actions:
        return
    turn = [a for a in actions if a.kind not in ("uno", "catch")]
    windows = [a for a in actions if a.kind in ("uno", "catch")]
    if windows and (not turn or bots.random() < 0.5):
        action = bots.choice(windows)
    else:
        action = bots.choice(turn)
    side = game.state.side
    for ev in game.apply(action):
        _say(ev, me, out, side, game.params.game == "flip")


def _show(game: Any, me: int, out: TextIO) -> None:
    """The table as `me` sees it (the player's view: FL.INFO.* for UNO Flip)."""
    st = game.state
    view = game.view(me)
    top = view["top"] or "-"
    sizes = " ".join(f"P{s}:{len(h)}" for s, h in enumerate(st.hands))
    pending = game.pending
    who = "-" if pending is None else f"P{pending.player} ({pending.decision})"
    print(f"\n[round {st.round}] turn: {who}  top: {top}  colour: "
          f"{color_name(st.active_color) or '-'}  cards: {sizes}  draw pile: {len(st.draw)}",
          file=out)
    side = f" ({st.side} side)" if "backs" in view else ""
    print(f"your hand{side}: {' '.join(view['hand'])}", file=out)
    if "backs" in view:  # FL.INFO.OPPONENT-BACKS: the other hands' inactive faces
        backs = "  ".join(f"P{s}: {' '.join(b)}" for s, b in view["backs"].items())
        print(f"backs: {backs}  draw pile top back: {view['draw_back'] or '-'}", file=out)


def _say(ev: Any, me: int, out: TextIO, side: str = "light", flip: bool = False) -> None:
    """Print an event for `me`; in UNO Flip a played card shows the face it was played by
    (`side`, before the action) and a flipped-up top its new face, never a hidden back
    (FL.INFO.NO-PEEK)."""
    if ev.kind == "shown" and ev.count != me:  # CL.WD4.CHALLENGE.SHOW: to the challenger only
        return
    if ev.kind in ("played", "drew", "skipped", "reversed", "passed", "uno", "caught",
                   "went-out", "game-over", "color", "hands-shuffled", "reshuffled", "shown",
                   "flipped", "skipped-everyone"):
        text = str(ev)
        if ev.kind == "drew" and (ev.player != me or any(c.dark for c in ev.cards)):
            # do not show other players' drawn cards, nor the backs of one's own (Flip)
            text = f"drew P{ev.player} {ev.count} ({ev.rule})"
        elif flip and ev.kind in ("played", "flipped") and ev.card is not None:
            shown = side if ev.kind == "played" else ("dark" if side == "light" else "light")
            text = (f"{ev.kind} P{ev.player} {ev.card.face(shown).text} "
                    f"{color_name(ev.color) or '-'} ({ev.rule})")
        print(f"  . {text}", file=out)


# ---- simulate -------------------------------------------------------------------------
def cmd_simulate(args: argparse.Namespace) -> int:
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
