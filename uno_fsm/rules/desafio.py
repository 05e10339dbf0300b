"""Variant Desafio (`desafio`, `scoring.method: elimination`): the elimination game of
classic-br ("DESAFIO NO JOGO DE CARTAS UNO®").

The clauses are classic-br:desafio:2-7, the rules DESAFIO.* (spec/rules/classic-desafio.yaml),
the rulings RUL.DESAFIO.* (spec/rulings/classic.yaml); the ruleset is the variant `desafio`
(`scoring.method: elimination`, the designated amount `scoring.target`, 500).

- "Este jogo é pontuado mantendo um total contínuo do que cada jogador tem em mãos" (this game
  is scored by keeping a running total of what each player has in hand): `score`.
- "À medida que um jogador atinge uma quantidade designada, possivelmente 500, esse jogador é
  eliminado do jogo" (as a player reaches a designated amount, possibly 500, that player is
  eliminated from the game): `score`; the eliminated seats are `State.eliminated`, and take no
  further part (`step`, `seats_in_play`, `check_action`).
- "Quando restam apenas dois jogadores no jogo, eles jogam um contra o outro" (when only two
  players remain they play against each other), under the two-player rules: `Rules.seated()`
  counts the players in play, so CL.TWO.* apply to the final pair.
- "O jogador que atinge ou excede a quantidade designada perde. O vencedor dessa última mão é
  declarado o vencedor do jogo" (the player who reaches or exceeds the amount loses; the
  winner of that last hand wins the game): `decided`, `end_game`.

Eliminated players keep their seat numbers (observations name seats) but are skipped
everywhere a seat is chosen: turn order, dealing, the dealer draw, catches, swaps, plays out of turn
(RUL.DESAFIO.ELIMINATED: "seats close up in the same order"). The scoring and the end of the
game plug in through the variant hooks (`Desafio`: `score_hand`, `on_scored`, `target_reached`,
`end_game`); the seats through the helpers of `Core` that every area uses to choose a seat
(`seat`, `left`, `seats`, `seated`) through the hook `seats_in_play` (read from
`State.eliminated`), the actions through the hook `check_action` (called by `Rules.validate`)
and the set-up field `eliminated` through the hook `from_setup` (called by `Game.from_setup`).
No shared module imports this one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from uno_fsm import errors as E
from uno_fsm.actions import Action, Event
from uno_fsm.cards import Card
from uno_fsm.checks import Oracle, Snap, check
from uno_fsm.configs import CheckConfig, FuzzConfig
from uno_fsm.params import Params, ParamsError
from uno_fsm.rules.hooks import Variant
from uno_fsm.state import State

if TYPE_CHECKING:
    from uno_fsm.game import Game
    from uno_fsm.rules.core import Core

METHOD = "elimination"  # its `scoring.method`


def seats_in_play(st: State) -> tuple[int, ...]:
    """DESAFIO.ELIMINATED-OUT: the seats not eliminated, ascending (clockwise from seat 0)."""
    out = st.eliminated
    return tuple(s for s in range(st.players) if s not in out)


class DesafioOracle(Oracle):
    """DESAFIO.*, read from the rule texts (the eliminated seats are not counted wherever the
    shared oracle counts seats: `Snap.step`, `Snap.seated`, `step_seat`)."""

    def score_out(self, facts: Any, before: Snap, game: Game, p: int,
                  hand_points: Callable[[list[Card]], int]) -> tuple[bool, str] | None:
        """P`p` went out. DESAFIO.SCORE: every player in the game adds the points of their own
        hand to their total, the winner (holding nothing) nothing; DESAFIO.ELIMINATE,
        DESAFIO.SIMULTANEOUS: every player at or over the amount is out, all together; the game
        is over (returned) when one is left (DESAFIO.WINNER): the hand's winner."""
        after = game.state
        target = facts.target
        assert target is not None  # the elimination method needs its amount
        out = before.out
        for seat, h in enumerate(after.hands):
            own = 0 if seat in out else hand_points(h)
            check(after.scores[seat] == before.scores[seat] + own, "DESAFIO.SCORE",
                  f"P{seat} scored {after.scores[seat] - before.scores[seat]}, holds {own}")
        reached = {s for s in range(before.players)
                   if s not in out and after.scores[s] >= target}
        now = out | reached
        check(after.eliminated == sorted(now) and p not in now,
              "DESAFIO.SIMULTANEOUS" if len(reached) > 1 else "DESAFIO.ELIMINATE",
              f"eliminated {after.eliminated} with totals {after.scores} (amount {target}); "
              f"before {sorted(out)}")
        over = len(now) == before.players - 1
        if over:
            check(after.winner == p, "DESAFIO.WINNER",
                  f"P{p} won the last hand, the winner is {after.winner}")
        return over, "DESAFIO.WINNER"

    def position(self, facts: Any, game: Game, legal: list[Any]) -> None:
        """Invariants. DESAFIO.ELIMINATE: the eliminated seats, ascending, are those whose
        totals reached the amount; DESAFIO.HEAD-TO-HEAD: two or more are left while the game
        goes on, DESAFIO.WINNER: one when it is over; DESAFIO.ELIMINATED-OUT: during a hand the
        eliminated hold no cards and no turn, and no listed action is theirs or names them."""
        s = game.state
        target = facts.target
        assert target is not None  # the elimination method needs its amount
        out = set(s.eliminated)
        check(out <= set(range(s.players)) and s.eliminated == sorted(out),
              "DESAFIO.ELIMINATE", f"eliminated {s.eliminated}")
        check(all((s.scores[x] >= target) == (x in out) for x in range(s.players)),
              "DESAFIO.ELIMINATE",
              f"eliminated {s.eliminated}, totals {s.scores} (amount {target})")
        left = s.players - len(out)
        if game.is_over:
            check(left == 1, "DESAFIO.WINNER", f"game over with {left} players left")
        else:
            check(left >= 2, "DESAFIO.HEAD-TO-HEAD", f"{left} player(s) left, the game goes on")
        if not out:
            return
        if not game.round_over:
            check(not any(s.hands[x] for x in out) and s.current not in out,
                  "DESAFIO.ELIMINATED-OUT", f"eliminated {sorted(out)} hold cards or the turn "
                  f"(P{s.current})")
        bad = [a for a in legal if a.player in out or a.target in out]
        check(not bad, "DESAFIO.ELIMINATED-OUT",
              f"listed actions by or naming an eliminated seat: {[str(a) for a in bad[:3]]}")


class Desafio(Variant):
    name = "desafio"
    scoring_method = METHOD
    state_fields = {"eliminated": ("DESAFIO.ELIMINATED-OUT", "seats out of the game")}
    fuzz = (FuzzConfig("classic-official+desafio"), FuzzConfig("classic-2022+desafio"))
    # DESAFIO.*: three players, so that one elimination leaves a head-to-head (CL.TWO.*); a
    # number card held (1, 2) stays below the amount, an action card or a Wild reaches it
    checks = (CheckConfig("classic-official+desafio", 3,
                          "colors=red;numbers=1,2;actions=skip,reverse,draw2;wilds=wild",
                          hand=1, target=3, depth=4),)
    setup_fields = ("eliminated",)
    oracle = DesafioOracle
    __slots__ = ()

    def __init__(self, rules: Core) -> None:
        super().__init__(rules)
        if rules.p.target is None:
            # DESAFIO.ELIMINATE (RUL.DESAFIO.THRESHOLD): the designated amount is a parameter
            raise ParamsError(f"{rules.p.ruleset}: scoring method {self.scoring_method!r} "
                              "needs scoring.target")

    @staticmethod
    def enabled(p: Params) -> bool:
        return p.method == METHOD

    def seats_in_play(self) -> Sequence[int] | None:
        """DESAFIO.ELIMINATED-OUT (RUL.DESAFIO.ELIMINATED): an eliminated player has no turn,
        deals nothing, is dealt nothing and is named by no action; the seats close up in the
        same order (a game without eliminations pays one truth test)."""
        st = self.r.st
        return seats_in_play(st) if st.eliminated else None

    def check_action(self, action: Action) -> None:
        if self.r.st.eliminated:
            check_action(self.r.st, action)

    def from_setup(self, setup: Mapping[str, Any], start: str) -> None:
        """The set-up field `eliminated` (DESAFIO.ELIMINATED-OUT): the seats already out; an
        eliminated seat cannot deal (`start: turn` / `round` name the dealer)."""
        st = self.r.st
        st.eliminated = setup_eliminated(self.r.p, setup, st.players, st.hands, st.scores)
        if st.eliminated and start != "game" and st.dealer in st.eliminated:
            raise E.Eliminated(f"setup: dealer {st.dealer} is eliminated (cannot deal)",
                               "DESAFIO.ELIMINATED-OUT")

    def score_hand(self, winner: int, held: list[int]) -> tuple[int, str] | None:
        """DESAFIO.SCORE (RUL.DESAFIO.SCORING): every player in the game adds the points of
        their own hand to their running total (the player who went out holds nothing, so adds
        nothing, and collects nothing from the others). Returns the winner's points: 0."""
        st = self.r.st
        for seat in seats_in_play(st):
            st.scores[seat] += held[seat]
        return held[winner], "DESAFIO.SCORE"

    def on_scored(self, winner: int) -> None:
        """DESAFIO.ELIMINATE, DESAFIO.SIMULTANEOUS (RUL.DESAFIO.THRESHOLD, RUL.DESAFIO.NO-FINAL):
        every player whose total reaches or exceeds the designated amount is eliminated, all
        of them together, whatever their totals; the winner of the hand never is (their total
        did not grow, and was below the amount since they were in play)."""
        r = self.r
        st, target = r.st, r.p.target
        assert target is not None  # Params: `elimination` requires scoring.target
        reached = [s for s in seats_in_play(st) if st.scores[s] >= target and s != winner]
        for seat in reached:
            r.events.append(Event("eliminated", seat, count=st.scores[seat],
                                  rule="DESAFIO.SIMULTANEOUS" if len(reached) > 1
                                  else "DESAFIO.ELIMINATE"))
        st.eliminated = sorted((*st.eliminated, *reached))

    def target_reached(self) -> bool | None:
        """DESAFIO.WINNER: the game is over when one player is left in it;
        DESAFIO.HEAD-TO-HEAD (RUL.DESAFIO.FINAL): until then hands are dealt, the last two
        playing head to head."""
        st = self.r.st
        return st.players - len(st.eliminated) <= 1

    def end_game(self) -> bool:
        """DESAFIO.WINNER (RUL.DESAFIO.FINAL): the one player left, who won the last hand (the
        others reached the amount in it), wins the game."""
        r = self.r
        st = r.st
        (winner,) = seats_in_play(st)
        assert winner == st.round_winner, (winner, st.round_winner)
        st.winner = winner
        st.winners = [winner]
        r.events.append(Event("game-over", winner, rule="DESAFIO.WINNER"))
        return True


def check_action(st: State, a: Action) -> None:
    """DESAFIO.ELIMINATED-OUT (RUL.DESAFIO.ELIMINATED): an eliminated player takes no further
    part: no action of theirs (a catch, an UNO call, a play) and no action naming them (a
    catch, a swap, a referee penalty) is accepted (`eliminated`)."""
    out = st.eliminated
    for role, seat in (("player", a.player), ("target", a.target)):
        if seat is not None and seat in out:
            raise E.Eliminated(f"{a.kind}: P{seat} ({role}) is eliminated from the game",
                               "DESAFIO.ELIMINATED-OUT")


def setup_eliminated(params: Params, setup: Mapping[str, Any], n: int,
                     hands: Sequence[Sequence[Card]], scores: Sequence[int]) -> list[int]:
    """The set-up field `eliminated` (docs/contracts.md): the seats already out of a Desafio
    game, ascending. Refused (`malformed-action`) unless the ruleset plays elimination; it is a
    list of distinct seats of the table; an eliminated seat holds no cards
    (DESAFIO.ELIMINATED-OUT) and its total has reached the amount, a seat in play has not
    (DESAFIO.ELIMINATE); at least two players are left (DESAFIO.WINNER: with one the game is
    over)."""
    value = setup.get("eliminated")
    if value is None:
        return []
    if params.method != "elimination":
        raise E.MalformedAction(f"setup: eliminated: {params.ruleset} eliminates nobody (the "
                                "Desafio variant's scoring method `elimination` does)")
    if not isinstance(value, list | tuple):
        raise E.MalformedAction(f"setup: eliminated must be a list of seats, not {value!r}")
    out: list[int] = []
    for seat in value:
        if type(seat) is not int or not 0 <= seat < n:
            raise E.MalformedAction(f"setup: eliminated: {seat!r} is not a seat of {n} players")
        if seat in out:
            raise E.MalformedAction(f"setup: eliminated: seat {seat} given twice")
        out.append(seat)
    if n - len(out) < 2:
        raise E.MalformedAction(f"setup: eliminated: {n - len(out)} player(s) left of {n}; "
                                "a hand needs two (with one left the game is over)")
    target = params.target
    assert target is not None
    for seat in range(n):
        if seat in out and hands[seat]:
            raise E.MalformedAction(f"setup: eliminated seat {seat} holds cards")
        if seat in out and scores[seat] < target:
            raise E.MalformedAction(f"setup: eliminated seat {seat} has {scores[seat]} points, "
                                    f"below the amount {target} that eliminates")
        if seat not in out and scores[seat] >= target:
            raise E.MalformedAction(f"setup: seat {seat} has {scores[seat]} points, at or over "
                                    f"the amount {target}: it is eliminated (DESAFIO.ELIMINATE)")
    return sorted(out)
