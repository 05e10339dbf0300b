"""The Desafio variant (DESAFIO.*, variant desafio: `scoring.method: elimination`): a running
total of what each player holds; a player whose total reaches the designated amount
(`scoring.target`) is eliminated, all who reach it together; the last two play head to head and
the one left, the winner of the last hand, wins the game.

The eliminated seats (`State.eliminated`, `Snap.out`) are not counted wherever the other areas
count seats (`base.step_seat`, `Snap.step`; `Snap.seated` for the two-player rules, CL.TWO.*
with DESAFIO.HEAD-TO-HEAD); the deal is `dealing.check_deal`'s. Here: the end of a hand and the
invariants of the eliminated seats.
"""

from __future__ import annotations

from collections.abc import Callable

from uno_fsm.actions import Action
from uno_fsm.cards import Card
from uno_fsm.game import Game
from uno_fsm.oracle.base import Facts, Snap, check


def check_hand_end(before: Snap, game: Game, p: int, hand_points: Callable[[list[Card]], int],
                   target: int) -> bool:
    """P`p` went out. DESAFIO.SCORE: every player in the game adds the points of their own
    hand to their total, the winner (holding nothing) nothing; DESAFIO.ELIMINATE,
    DESAFIO.SIMULTANEOUS: every player at or over the amount is out, all together; the game is
    over (returned) when one is left (DESAFIO.WINNER): the hand's winner."""
    after = game.state
    out = before.out
    for seat, h in enumerate(after.hands):
        own = 0 if seat in out else hand_points(h)
        check(after.scores[seat] == before.scores[seat] + own, "DESAFIO.SCORE",
              f"P{seat} scored {after.scores[seat] - before.scores[seat]}, holds {own}")
    reached = {s for s in range(before.players) if s not in out and after.scores[s] >= target}
    now = out | reached
    check(after.eliminated == sorted(now) and p not in now,
          "DESAFIO.SIMULTANEOUS" if len(reached) > 1 else "DESAFIO.ELIMINATE",
          f"eliminated {after.eliminated} with totals {after.scores} (amount {target}); "
          f"before {sorted(out)}")
    over = len(now) == before.players - 1
    if over:
        check(after.winner == p, "DESAFIO.WINNER",
              f"P{p} won the last hand, the winner is {after.winner}")
    return over


def check_position(game: Game, facts: Facts, legal: list[Action]) -> None:
    """Invariants. DESAFIO.ELIMINATE: the eliminated seats, ascending, are those whose totals
    reached the amount; DESAFIO.HEAD-TO-HEAD: two or more are left while the game goes on,
    DESAFIO.WINNER: one when it is over; DESAFIO.ELIMINATED-OUT: during a hand the eliminated
    hold no cards and no turn, and no listed action is theirs or names them."""
    s = game.state
    target = facts.target
    assert target is not None  # the elimination method needs its amount
    out = set(s.eliminated)
    check(out <= set(range(s.players)) and s.eliminated == sorted(out), "DESAFIO.ELIMINATE",
          f"eliminated {s.eliminated}")
    check(all((s.scores[x] >= target) == (x in out) for x in range(s.players)),
          "DESAFIO.ELIMINATE", f"eliminated {s.eliminated}, totals {s.scores} (amount {target})")
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
