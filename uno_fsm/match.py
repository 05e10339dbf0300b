"""Matches of several hands with changing partners, over the engine (spec/matches/).

The engine plays one game; a match is a schedule of such games. The driver seats the players
of each hand so that the hand's partners sit opposite (PARTNERS.SEATING: seat i partners seat
i + 2 at a table of four), deals each hand as a new `Game` of the format's partners ruleset,
lets bots choose among `legal_actions` until a partner goes out (a player's own decisions may
be a chooser's instead: `uno-fsm play --match` seats a person), and keeps each player's points
by partnership. Rules: spec/rules/classic-partners-match.yaml; rulings
RUL.PARTNERS.ROTATION, RUL.PARTNERS.MATCH-HAND, RUL.PARTNERS.ROTATION-HANDS,
RUL.PARTNERS.TOURNAMENT-HANDS, RUL.PARTNERS.TOURNAMENT-TABLES, RUL.PARTNERS.MATCH-TALLY.

    fmt = load_match("partners-tournament")
    result = play_match(fmt, seed=7)        # the same seed plays the same match
    result.totals, result.winners

Players are numbered 0..players-1 for the whole match; a hand's seats are filled from them.
Each hand's game seed is printed with its result (`hand_seed`), so a single hand can be
replayed with `Game.new(fmt.ruleset, 4, seed)` and the same bot.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from uno_fsm.actions import Action
from uno_fsm.bots import BOTS, bot_actions, decides
from uno_fsm.game import Game
from uno_fsm.params import Params
from uno_fsm.rules.partners import partner_of as seat_partner
from uno_spec.matches import TABLE_SIZE, MatchFormat

MAX_ACTIONS = 100_000  # a hand not over after this many actions stops the match


class MatchError(Exception):
    """A match format that cannot be played (its ruleset is no partners ruleset, an unknown
    bot)."""


class HandUnfinished(MatchError):
    """A hand that did not end within the action limit, or ended with nobody out."""


@dataclass(frozen=True)
class Table:
    """One table of a hand: the match players by seat. PARTNERS.SEATING: seat i partners
    seat i + 2, so the teams are seats 0+2 and 1+3."""

    seats: tuple[int, ...]

    @property
    def teams(self) -> tuple[tuple[int, int], tuple[int, int]]:
        s = self.seats
        return (s[0], s[2]), (s[1], s[3])


@dataclass(frozen=True)
class ScheduledHand:
    """Hand `number` (1-based) of round `round`: what every table deals at the same time."""

    number: int
    round: int
    tables: tuple[Table, ...]


@dataclass(frozen=True)
class HandResult:
    """What one table's hand came to: who went out, the team that scored and its points."""

    number: int
    table: int  # 1-based
    seats: tuple[int, ...]
    seed: int  # the game's seed: Game.new(ruleset, 4, seed) deals this hand again
    went_out: int  # the match player who went out
    team: tuple[int, int]  # the going-out player and their partner
    points: int  # PARTNERS.SCORE: the opposing players' cards
    actions: int


@dataclass
class MatchResult:
    format: MatchFormat
    seed: int
    bots: str
    schedule: list[ScheduledHand]
    hands: list[HandResult]
    by_partner: list[list[int]]  # by_partner[p][q]: points p scored partnered with q
    totals: list[int]
    winners: list[int]

    def to_dict(self) -> dict[str, Any]:
        f = self.format
        return {
            "match": f.id, "title": f.title, "ruleset": f.ruleset, "players": f.players,
            "tables": f.tables, "hands_per_partner": f.hands_per_partner, "rounds": f.rounds,
            "hands_per_table": f.hands, "seed": self.seed, "bots": self.bots,
            "schedule": schedule_json(self.schedule),
            "hands": [{"hand": r.number, "table": r.table, "seats": list(r.seats),
                       "seed": r.seed, "went_out": r.went_out, "team": list(r.team),
                       "points": r.points, "actions": r.actions} for r in self.hands],
            "by_partner": [[None if p == q else v for q, v in enumerate(row)]
                           for p, row in enumerate(self.by_partner)],
            "totals": list(self.totals),
            "winners": list(self.winners),
        }


def round_robin(n: int) -> list[list[tuple[int, int]]]:
    """The circle method: n - 1 pairings of 0..n-1 (n even), each a list of n/2 pairs, in
    which every pair of players meets exactly once."""
    if n < 2 or n % 2:
        raise ValueError(f"a round-robin of pairs needs an even number of players, not {n}")
    out = []
    for r in range(n - 1):
        pairs = [(n - 1, r)] + [((r + i) % (n - 1), (r - i) % (n - 1)) for i in range(1, n // 2)]
        out.append(sorted((min(a, b), max(a, b)) for a, b in pairs))
    return out


def schedule(fmt: MatchFormat) -> list[ScheduledHand]:
    """Every hand of the match, in order.

    PARTNERS.ROTATION.SCHEDULE, PARTNERS.TOURNAMENT.SCHEDULE (RUL.PARTNERS.ROTATION-HANDS,
    RUL.PARTNERS.TOURNAMENT-HANDS): the pairings of a round-robin of the players, each for
    `hands_per_partner` consecutive hands; PARTNERS.ROTATION.ROUNDS: the whole rotation
    `rounds` times. PARTNERS.TOURNAMENT.TABLES (RUL.PARTNERS.TOURNAMENT-TABLES): the
    partnerships of a pairing are split over the tables by a round-robin of the
    partnerships, the next split for each of the consecutive hands; partners sit opposite."""
    pairings = round_robin(fmt.players)
    teams_per_table = TABLE_SIZE // 2
    out: list[ScheduledHand] = []
    for rnd in range(1, fmt.rounds + 1):
        for pairing in pairings:
            splits = round_robin(len(pairing)) if fmt.tables > 1 else [[(0, 1)]]
            assert all(len(pair) == teams_per_table for split in splits for pair in split)
            for j in range(fmt.hands_per_partner):
                tables = tuple(
                    Table((pairing[a][0], pairing[b][0], pairing[a][1], pairing[b][1]))
                    for a, b in splits[j % len(splits)])
                out.append(ScheduledHand(len(out) + 1, rnd, tables))
    return out


# A player's own decisions (the person at the terminal, a test's fixed policy): called with the
# game and that player's legal actions whenever the player `decides` (uno_fsm.bots), it
# returns one of them. The other players of the hand are the bots.
Chooser = Callable[[Game, list[Action]], Action]


def play_hand(ruleset: str, table: Table, seed: int, bot: str = "random",
              max_actions: int = MAX_ACTIONS,
              choosers: Mapping[int, Chooser] | None = None) -> tuple[int, int, int]:
    """PARTNERS.ROTATION.HAND (RUL.PARTNERS.MATCH-HAND): one deal of `ruleset` with `table`'s
    seating, played until a partner goes out (PARTNERS.END). `choosers` maps match players
    to their policy; whenever one of them decides, their chooser answers, otherwise `bot`
    moves for the others (uno_fsm.bots.bot_actions), exactly as `uno-fsm play` hands the
    moves out between the person and the bots. Returns (the seat that went out, its team's
    points by PARTNERS.SCORE, the actions taken); HandUnfinished if the hand is not over
    after `max_actions`."""
    game = Game.new(ruleset, len(table.seats), seed)
    choose = BOTS[bot]
    rng = bot_rng(seed)
    own = {seat: c for seat, p in enumerate(table.seats)
           if (c := (choosers or {}).get(p)) is not None}
    n = 0
    while not game.round_over:
        if n >= max_actions:
            raise HandUnfinished(f"the hand of seed {seed} did not end within {max_actions} "
                                 "actions")
        seat = next((s for s in own if decides(game, s)), None)
        if seat is not None:
            game.apply(own[seat](game, game.legal_actions(seat)))
        else:
            game.apply(choose(game, bot_actions(game, own), rng))
        n += 1
    seat = game.winner
    if seat is None:  # every finished classic hand has a player who went out
        raise HandUnfinished(f"the hand of seed {seed} ended with no player out")
    return seat, game.scores[seat], n


def bot_rng(seed: int) -> random.Random:
    """The bots' random choices in the hand dealt with `seed` (the same at the terminal)."""
    return random.Random(f"bots {seed}")


class Outcome(Protocol):
    """What the tally needs of one table's hand (a HandResult, or a hand a conformance
    scenario fixes): the match players by seat, the player who went out, the team's points."""

    @property
    def seats(self) -> tuple[int, ...]: ...

    @property
    def went_out(self) -> int: ...

    @property
    def points(self) -> int: ...


@dataclass(frozen=True)
class Hand:
    """A hand's outcome given rather than played (the conformance adapter's `match`)."""

    seats: tuple[int, ...]
    went_out: int
    points: int


@dataclass(frozen=True)
class Tally:
    by_partner: list[list[int]]  # by_partner[p][q]: points p scored partnered with q
    totals: list[int]
    winners: list[int]


def partner_of(seats: Sequence[int], player: int) -> int:
    """PARTNERS.SEATING: the player sitting opposite `player` at a table of four (the partners
    ruleset's own seat rule)."""
    return seats[seat_partner(TABLE_SIZE, seats.index(player))]


def tally(players: int, hands: Iterable[Outcome]) -> Tally:
    """Each player's points by partnership, totals and winners after `hands` (the one tally
    of `play_match` and of the conformance adapter). MatchError for a hand that is not four
    distinct players of 0..players-1 with the going-out player among them, or negative
    points."""
    by_partner = [[0] * players for _ in range(players)]
    for k, hand in enumerate(hands, 1):
        seats = tuple(hand.seats)
        if len(seats) != TABLE_SIZE or len(set(seats)) != TABLE_SIZE \
                or not all(0 <= s < players for s in seats):
            raise MatchError(f"hand {k}: {TABLE_SIZE} distinct players of 0..{players - 1} "
                             f"sit at a table, not {list(seats)}")
        if hand.went_out not in seats:
            raise MatchError(f"hand {k}: player {hand.went_out} is not at the table {list(seats)}")
        if hand.points < 0:
            raise MatchError(f"hand {k}: a team scores no negative points ({hand.points})")
        player = hand.went_out
        partner = partner_of(seats, player)
        # PARTNERS.ROTATION.TALLY (RUL.PARTNERS.MATCH-TALLY): the team's points are credited
        # to both partners, kept under the partnership; PARTNERS.ROTATION.HAND: every hand of
        # the schedule counts, the ruleset's 500 target plays no part
        by_partner[player][partner] += hand.points
        by_partner[partner][player] += hand.points
    totals = [sum(row) for row in by_partner]
    # PARTNERS.ROTATION.WINNER, PARTNERS.TOURNAMENT.SCORE: the greatest total wins; the tied
    # greatest share the win (RUL.PARTNERS.MATCH-TALLY)
    best = max(totals, default=0)
    winners = [p for p, v in enumerate(totals) if v == best]
    return Tally(by_partner, totals, winners)


def schedule_json(plan: Sequence[ScheduledHand]) -> list[dict[str, Any]]:
    """The schedule as JSON data: each hand's round and tables, each table's seats (in seat
    order) and its two teams (the partners opposite each other)."""
    return [{"hand": h.number, "round": h.round,
             "tables": [{"seats": list(t.seats), "teams": [list(team) for team in t.teams]}
                        for t in h.tables]}
            for h in plan]


def check_format(fmt: MatchFormat) -> None:
    """PARTNERS.ROTATION.HAND: the hands are dealt under a partners ruleset at tables of
    four (MatchError otherwise; unknown ruleset names raise the loader's SpecError)."""
    params = Params.of(fmt.ruleset)
    if params.method != "partners":
        raise MatchError(f"match {fmt.id}: ruleset {fmt.ruleset} is not a partners ruleset")
    if fmt.rounds < 1 or fmt.hands_per_partner < 1:
        raise MatchError(f"match {fmt.id}: at least one round and one hand with each partner")
    if not params.players_ok(TABLE_SIZE) or fmt.players != TABLE_SIZE * fmt.tables:
        raise MatchError(f"match {fmt.id}: {fmt.players} players cannot sit at {fmt.tables} "
                         f"table(s) of {TABLE_SIZE} under {fmt.ruleset}")


# How one table's hand is played: (the table, the hand's game seed) -> what play_hand returns.
HandPlay = Callable[[Table, int], tuple[int, int, int]]


def play_match(fmt: MatchFormat, seed: int = 0, bot: str = "random", rounds: int | None = None,
               max_actions: int = MAX_ACTIONS, play: HandPlay | None = None,
               on_hand: Callable[[MatchResult], None] | None = None) -> MatchResult:
    """Play every hand of `fmt` (with `rounds` rounds instead of the format's, if given) and
    tally. The same seed plays the same match: hand k (0-based over all tables, in order)
    is dealt with the game seed `seed * 1_000_003 + k`. Each table's hand is played by
    `play` (default: `play_hand` with `bot` at every seat; `uno-fsm play --match` plays the
    person's table at the terminal); `on_hand` is given the match so far (its tally
    included) after each scheduled hand, every table of it played."""
    if rounds is not None:
        fmt = dataclasses.replace(fmt, rounds=rounds)
    check_format(fmt)
    if bot not in BOTS:
        raise MatchError(f"unknown bot {bot!r} (known: {', '.join(sorted(BOTS))})")
    plan = schedule(fmt)
    hands: list[HandResult] = []
    for scheduled in plan:
        for t, table in enumerate(scheduled.tables, 1):
            hand_seed = seed * 1_000_003 + len(hands)
            try:
                if play is None:
                    seat, points, actions = play_hand(fmt.ruleset, table, hand_seed, bot,
                                                      max_actions)
                else:
                    seat, points, actions = play(table, hand_seed)
            except HandUnfinished as exc:
                raise HandUnfinished(f"hand {scheduled.number} at table {t}: {exc}") from None
            player = table.seats[seat]
            hands.append(HandResult(scheduled.number, t, table.seats, hand_seed, player,
                                    (player, partner_of(table.seats, player)), points,
                                    actions))
        if on_hand is not None:
            on_hand(so_far(fmt, seed, bot, plan, hands))
    return so_far(fmt, seed, bot, plan, hands)


def so_far(fmt: MatchFormat, seed: int, bot: str, plan: list[ScheduledHand],
           hands: list[HandResult]) -> MatchResult:
    """The match of `plan` after `hands` (all of them, or the first ones), with their
    `tally`."""
    result = tally(fmt.players, hands)
    return MatchResult(fmt, seed, bot, plan, list(hands), result.by_partner, result.totals,
                       result.winners)


def _team(team: tuple[int, int]) -> str:
    return f"P{team[0]}+P{team[1]}"


def report_lines(result: MatchResult) -> list[str]:
    """The text report of `uno-fsm simulate --match`: the schedule, each hand's result, the
    tally by partnership and the winners."""
    f = result.format
    lines = [f"match {f.id}: {f.title}",
             f"ruleset {f.ruleset}, {f.players} players at {f.tables} table(s) of "
             f"{TABLE_SIZE}, {f.rounds} round(s), {f.hands} hands per table, seed "
             f"{result.seed}, bots {result.bots}",
             "", *schedule_lines(result.schedule),
             "", "results (the going-out team scores the opponents' cards):"]
    lines += [result_line(r, len(result.schedule)) for r in result.hands]
    return [*lines, "", *tally_lines(result), "", winner_line(result)]


def schedule_lines(plan: list[ScheduledHand]) -> list[str]:
    """The schedule: each hand's partnerships, table by table."""
    lines = ["schedule (partners sit opposite: seats 0+2 against 1+3):"]
    width = len(str(len(plan)))
    for h in plan:
        cells = "   ".join(f"table {t}: {_team(tb.teams[0])} vs {_team(tb.teams[1])}"
                           for t, tb in enumerate(h.tables, 1))
        lines.append(f"  hand {h.number:>{width}} (round {h.round})  {cells}")
    return lines


def result_line(r: HandResult, hands: int) -> str:
    """One table's hand: who went out, the team's points, the seed that deals it again."""
    width = len(str(hands))
    return (f"  hand {r.number:>{width}} table {r.table}: P{r.went_out} out, "
            f"{_team(r.team)} +{r.points}  (seed {r.seed}, {r.actions} actions)")


def tally_lines(result: MatchResult) -> list[str]:
    """The points by partnership, one row a player, and each player's total."""
    n = result.format.players
    lines = ["tally (points by partner; the total is their sum):",
             "  player " + "".join(f"{'P' + str(q):>6}" for q in range(n)) + f"{'total':>8}"]
    for p in range(n):
        cells = "".join(f"{'-' if p == q else result.by_partner[p][q]:>6}" for q in range(n))
        lines.append(f"  {'P' + str(p):<7}{cells}{result.totals[p]:>8}")
    return lines


def winner_line(result: MatchResult) -> str:
    """PARTNERS.ROTATION.WINNER: the greatest total, the tied sharing the win."""
    names = ", ".join(f"P{p}" for p in result.winners)
    shared = " (a shared win)" if len(result.winners) > 1 else ""
    return f"winner: {names} with {result.totals[result.winners[0]]} points{shared}"
