"""Going out, scoring and the end of the game (CL.END.*, CL.SCORE.*, CL18.SCORE, CL22.SCORE.*,
FL.END.*, FL.SCORE.*, FL.GAME.*); a variant that scores a hand its own way checks it in its
module (`Oracle.score_out`, `Oracle.team`), and so does one that adds a card (`Oracle.points`)
or changes what a last draw card draws (`Oracle.penalty`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_fsm.actions import Action
from uno_fsm.cards import Card, Face
from uno_fsm.oracle.action_cards import DRAW_CARDS
from uno_fsm.oracle.base import Facts, Snap, check, face_on, gain
from uno_fsm.oracle.flip import flip_points
from uno_fsm.oracle.wild_draw import drew_until

if TYPE_CHECKING:
    from uno_fsm.game import Game


def points(f: Face, facts: Facts) -> int:
    """CL.SCORE.NUMBERS, CL.SCORE.ACTIONS, CL.SCORE.WILDS; a variant's card: its oracle's
    `points`."""
    if f.number is not None:
        return f.number
    if f.kind in ("skip", "reverse", "draw2"):
        return 20
    if f.kind in ("wild", "wd4"):
        return 50
    for o in facts.oracles:
        got = o.points(facts, f)
        if got is not None:
            return got
    raise NotImplementedError(f"points of {f.kind}")


def check_scores_kept(before: Snap, action: Action, game: Game) -> None:
    """CL.SCORE.WINNER, CL.SCORE.ACCUMULATE: scores change only at the end of a round."""
    after, pend = game.state, game.pending
    round_ended = pend is None or pend.decision == "round-over"
    if not (action.kind == "play" and round_ended and before.decision != "round-over"):
        ok = list(after.scores) == before.scores  # (the message built only for a failure)
        check(ok, "CL.SCORE.ACCUMULATE", "" if ok else
              f"scores changed from {before.scores} to {after.scores} outside a round end")


def post_out(facts: Facts, before: Snap, action: Action, game: Game, avail: int) -> None:
    """CL.END.OUT: the player's last card; a last draw card still draws (CL.END.LAST-D2,
    CL.END.LAST-WD4, FL.END.GO-OUT-DRAW, V.STACK.GO-OUT); the round is scored; the round or
    the game is over."""
    after, pend = game.state, game.pending
    n = before.players
    p = before.current
    card = action.card
    assert p is not None and card is not None
    kind = face_on(card, before.side).kind
    victim = before.step(p)
    # (messages built only for a failure)
    check(not after.hands[p], "CL.END.OUT",
          "" if not after.hands[p] else f"P{p} went out but holds {after.hands[p]}")
    if kind in DRAW_CARDS or kind == "wd4" or kind == "wd2":
        k, _, rid = DRAW_CARDS.get(kind, (4 if kind == "wd4" else 2, "", ""))
        rid = rid or ("CL.END.LAST-WD4" if kind == "wd4" else "FL.END.GO-OUT-DRAW")
        k, rid = next((got for o in facts.oracles
                       if (got := o.penalty(facts, before, "last-card", k, rid)) is not None),
                      (k, rid))
        ok = gain(before, after, victim) == min(k, avail)
        check(ok, rid, "" if ok else
              f"P{victim} grew by {gain(before, after, victim)} on a last {card}")
    elif kind == "wdc":
        drew_until(before, after, victim, action.color, 0, avail, "FL.END.GO-OUT-DRAW")
    # FL.SCORE.SIDE, FL.END.GO-OUT-FLIP; FL.SCORE.LIGHT-SIDE: always the light faces
    side = "light" if facts.light_scoring else after.side

    def hand_points(h: list[Card]) -> int:
        return sum(flip_points(face_on(c, side)) if facts.flip
                   else points(face_on(c, side), facts) for c in h)

    target = facts.target
    # a variant scoring the hand its own way (`Oracle.score_out`), else the winner (and the
    # seats a variant makes score with them: `Oracle.team`) scores the others' cards
    own = next((got for o in facts.oracles
                if (got := o.score_out(facts, before, game, p, hand_points)) is not None), None)
    if own is not None:
        over, rid = own
    else:
        team_of = next((mates for o in facts.oracles if (mates := o.team(p, n)) is not None),
                       None)
        team, score_rid, target_rid = team_of if team_of is not None else (
            {p}, "FL.SCORE.WINNER" if facts.flip else "CL.SCORE.WINNER",
            "FL.GAME.TARGET-500" if facts.flip else "CL.SCORE.TARGET")
        gained = sum(hand_points(h) for s_, h in enumerate(after.hands) if s_ not in team)
        ok = all(after.scores[s_] == before.scores[s_] + gained for s_ in team)
        check(ok, score_rid, "" if ok else
              f"P{p} scored {after.scores[p] - before.scores[p]}, the opponents hold "
              f"{gained}")
        check(all(after.scores[s_] == before.scores[s_] for s_ in range(n)
                  if s_ not in team), score_rid, "a loser's score changed")
        # CL22.SCORE.ONE-HAND, GUIDE.END.FIRST-OUT: no target, the first player out wins
        over = target is None or after.scores[p] >= target
        one_hand = "GUIDE.END.FIRST-OUT" if facts.base == "classic-guide" else "CL22.SCORE.ONE-HAND"
        rid = one_hand if target is None else target_rid
    if over:
        ok = pend is None and game.is_over
        check(ok, rid, "" if ok else f"the game should be over: pending {pend}")
    else:
        ok = pend is not None and pend.decision == "round-over" and pend.player is None
        check(ok, "CL.END.OUT", "" if ok else f"the round should be over: pending {pend}")
