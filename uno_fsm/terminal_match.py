"""`uno-fsm play --match NAME`: a person sits in a partner match (uno_fsm.match, spec/matches/).

One player of the match is the person, the others are bots. The match is `match.play_match`
(the schedule, the hands' seeds, the tally and the winners are its own, as in `uno-fsm
simulate --match`): the person's table of each hand is played at the terminal by the loop of
`uno-fsm play` (`terminal.run`, stopping when the hand is over), every other table by the bots
(`match.play_hand`). Before each hand the person sees the partnerships and the seats; after
it, each table's result and the tally so far by partnership; at the end the winners.

The bots at the person's table draw their random choices from the generator the driver gives
the same hand (`match.bot_rng`), and a seat is asked exactly when the driver would ask a
chooser (`bots.decides`): so the person making the choices of a policy plays the match that
`play_match` plays with that policy as the person's chooser (tests/test_play_match.py).
"""

from __future__ import annotations

import dataclasses
from typing import TextIO

from rich.text import Text

from uno_fsm import terminal
from uno_fsm.bots import BOTS
from uno_fsm.game import Game
from uno_fsm.match import (
    HandUnfinished,
    MatchError,
    MatchResult,
    Table,
    bot_rng,
    check_format,
    partner_of,
    play_hand,
    play_match,
    result_line,
    schedule,
    schedule_lines,
    so_far,
    tally_lines,
    winner_line,
)
from uno_spec.matches import TABLE_SIZE, MatchFormat


class Abandoned(Exception):
    """The person left the match (quit, end of input, bots that never handed over)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def check_player(fmt: MatchFormat, player: int) -> None:
    """MatchError unless `player` is one of the match's players."""
    if not 0 <= player < fmt.players:
        raise MatchError(f"--player {player} does not exist in {fmt.id} (players 0 to "
                         f"{fmt.players - 1})")


def sit_match(fmt: MatchFormat, player: int, bots: str, seed: int, rounds: int | None,
              inp: TextIO, out: TextIO, max_bot_moves: int) -> int:
    """Play the match `fmt` (with `rounds` rounds instead of its own, if given:
    PARTNERS.ROTATION.ROUNDS) as match player `player`. The exit status: 0 the match is over
    or the person quit (`q`), 1 the bots at the person's table never handed over (after
    `max_bot_moves` moves), 2 end of input (one line on stderr). A format the engine cannot
    play raises MatchError before anything is printed; a bots' table whose hand does not end
    within `max_bot_moves` actions raises HandUnfinished."""
    if rounds is not None:
        fmt = dataclasses.replace(fmt, rounds=rounds)
    check_format(fmt)
    check_player(fmt, player)
    c = terminal.make_console(out)
    plan = schedule(fmt)
    done = [0]  # scheduled hands over so far
    last = [so_far(fmt, seed, bots, plan, [])]  # the match after them

    def you(p: int) -> str:
        return f"you (P{p})" if p == player else f"P{p}"

    def play(table: Table, seed: int) -> tuple[int, int, int]:
        if player not in table.seats:  # the other table of the tournament: bots only
            return play_hand(fmt.ruleset, table, seed, bots, max_bot_moves)
        scheduled = plan[done[0]]
        me = table.seats.index(player)
        partner = partner_of(table.seats, player)  # PARTNERS.SEATING: opposite
        against = [p for p in table.seats if p not in (player, partner)]
        where = f", table {scheduled.tables.index(table) + 1}" if fmt.tables > 1 else ""
        c.print()
        c.print(Text(f"Hand {scheduled.number} of {len(plan)} (round {scheduled.round}){where}: "
                     f"your partner is P{partner}, sitting opposite you; against you P"
                     f"{against[0]} and P{against[1]}.", style="bold"))
        c.print("  seats: " + ", ".join(f"{s} {you(p)}" for s, p in enumerate(table.seats)))
        for t, other in enumerate(scheduled.tables, 1):
            if other != table:
                teams = " vs ".join(f"P{a}+P{b}" for a, b in other.teams)
                c.print(f"  table {t} (bots): {teams}")
        game = Game.new(fmt.ruleset, TABLE_SIZE, seed)
        names = {s: f"P{p}" for s, p in enumerate(table.seats)}
        seat = terminal.Table(game, me, BOTS[bots], bot_rng(seed), inp, out, names=names,
                              heading=f"Hand {scheduled.number}",
                              match_lines=lambda: tally_lines(last[0]))
        seat.tell(game.setup_events, game.state.side)
        code = terminal.run(seat, max_bot_moves, "match")
        if code is not None:
            raise Abandoned(code)
        if game.winner is None:  # as play_hand: every finished classic hand has a player out
            raise HandUnfinished(f"the hand of seed {seed} ended with no player out")
        return game.winner, game.scores[game.winner], len(game.log)

    def between(result: MatchResult) -> None:
        number = plan[done[0]].number
        done[0] += 1
        last[0] = result
        c.print()
        c.print(Text(f"Hand {number} of {len(plan)} is over.", style="bold"))
        for r in result.hands:
            if r.number == number:
                c.print(result_line(r, len(plan)))
        if done[0] == len(plan):  # the last: the whole tally follows, with the winners
            return
        for line in tally_lines(result):
            c.print(line)
        c.print(f"  you (P{player}): {result.totals[player]} points")

    c.print(Text(f"UNO match {fmt.id}: {fmt.title}", style="bold"))
    c.print(f"ruleset {fmt.ruleset}, {fmt.players} players at {fmt.tables} table(s) of "
            f"{TABLE_SIZE}, {fmt.rounds} round(s), {fmt.hands} hands per table, seed {seed}, "
            f"{bots} bots. You are P{player}; the other players are bots.")
    c.print(terminal.INTRO)
    c.print()
    for line in schedule_lines(plan):
        c.print(line)
    try:
        result = play_match(fmt, seed, bots, None, max_bot_moves, play=play, on_hand=between)
    except Abandoned as exc:
        if exc.code == 0:
            c.print(f"The match is abandoned after {done[0]} of {len(plan)} hands.")
        return exc.code
    c.print()
    c.print(Text("The match is over.", style="bold"))
    for line in tally_lines(result):
        c.print(line)
    c.print(winner_line(result))
    if player in result.winners:
        shared = " (a shared win)" if len(result.winners) > 1 else ""
        c.print(Text(f"You (P{player}) win the match{shared}.", style="bold"))
    else:
        c.print(Text(f"You (P{player}) finish with {result.totals[player]} points.",
                     style="bold"))
    return 0

