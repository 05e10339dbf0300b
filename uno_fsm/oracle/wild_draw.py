"""Wild Draw cards and their challenge (CL.WD4.*; Flip: FL.LIGHT.W2.*, FL.DARK.WDC.*): the
victim's decision after the card, what accepting or challenging draws and who plays next, and
whether the card was played legally (judged here from the hand before the play)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_fsm.actions import Action, Pending
from uno_fsm.cards import Card
from uno_fsm.oracle.base import Facts, Snap, available, check, face_on, gain, grown
from uno_fsm.state import State

if TYPE_CHECKING:
    from uno_fsm.game import Game

# challengeable cards: kind -> (accept, guilty, innocent) draws; -1: until the named colour
CHALLENGEABLE: dict[str, tuple[int, int, int, str]] = {
    "wd4": (4, 4, 6, "CL.WD4."),
    "wd2": (2, 2, 4, "FL.LIGHT.W2."),
    "wdc": (-1, -1, -1, "FL.DARK.WDC."),
}

# the challengeable card pending: (its player, played legally?, kind, colour named)
Record = tuple[int, bool, str, str | None]


def drew_until(before: Snap, after: State, seat: int, color: str | None, extra: int,
               avail: int, rid: str) -> None:
    """FL.DARK.WDC.DRAW-UNTIL: at least one card, up to the first of the named colour (then
    `extra` more); FL.DARK.WDC.EXHAUSTED: fewer when the piles run out."""
    got = grown(before.hands[seat], after.hands[seat])
    gained = gain(before, after, seat)
    hits = sum(1 for c in got if face_on(c, "dark").color == color)
    if gained < avail:  # the colour was found (then `extra` more)
        check(gained >= 1 + extra and hits >= 1, rid,
              f"P{seat} drew {gained} cards ({hits} {color}) for a Wild Draw Colour")
    if extra == 0:
        check(hits <= 1 and (hits == 1 or gained == avail), rid,
              f"P{seat} drew {gained} cards with {hits} of {color}: drawing stops at the first")


def post_wild_draw(kind: str, card: Card, p: int, pend: Pending, before: Snap,
                   game: Game) -> None:
    """CL.WD4.CHALLENGE.DECISION, FL.*.CHALLENGER: the victim decides before drawing."""
    victim = before.step(p)
    rid = CHALLENGEABLE[kind][3]
    rid = "CL.WD4.CHALLENGE.DECISION" if kind == "wd4" else rid + "CHALLENGER"
    ok = pend.player == victim and pend.decision == "challenge"  # (built only for a failure)
    check(ok, rid, "" if ok else f"after a {card}: pending {pend}")
    check(gain(before, game.state, victim) == 0, rid, "the victim drew before deciding")


def post_challenge(facts: Facts, before: Snap, action: Action, game: Game,
                   record: Record | None) -> None:
    """CL.WD4.ACCEPT / CHALLENGE.*, FL.LIGHT.W2.*, FL.DARK.WDC.*: who draws, who plays (a
    variant may change the amount: `Oracle.penalty`)."""
    after = game.state
    pend = game.pending
    victim = before.current
    check(record is not None, "CL.WD4.CHALLENGE.WHO",  # (messages built only for a failure)
          "" if record is not None else f"{action} with no card to challenge")
    assert victim is not None and record is not None
    by, legal, kind, color = record
    accept_n, guilty_n, innocent_n, prefix = CHALLENGEABLE[kind]
    wd4 = kind == "wd4"
    check(after.active_color == before.active_color,
          "CL.WD4.CHALLENGE.COLOUR" if wd4 else prefix + "COLOUR-STANDS",
          "the colour named with the card changed")
    nxt = before.step(victim)
    avail = available(before, False)
    if action.kind == "accept":
        outcome, seat, k, extra, rid, want = "accept", victim, accept_n, 0, \
            "CL.WD4.ACCEPT" if wd4 else prefix + "ACCEPT", nxt
    elif not legal:
        outcome, seat, k, extra, rid, want = "guilty", by, guilty_n, 0, \
            "CL.WD4.CHALLENGE.GUILTY" if wd4 else prefix + "GUILTY", victim
    else:
        outcome, seat, k, extra, rid, want = "innocent", victim, innocent_n, 2, \
            "CL.WD4.CHALLENGE.INNOCENT" if wd4 else prefix + "INNOCENT", nxt
    changed = next((got for o in facts.oracles
                    if (got := o.penalty(facts, before, outcome, k, rid)) is not None), None)
    if changed is not None:
        k, rid = changed
    if k >= 0:
        ok = gain(before, after, seat) == min(k, avail)
        check(ok, rid, "" if ok else
              f"P{seat} grew by {gain(before, after, seat)}, expected {min(k, avail)}")
    else:
        drew_until(before, after, seat, color, extra, avail, rid)
    ok = pend is not None and pend.player == want
    check(ok, rid, "" if ok else f"pending {pend}, expected P{want}")


def next_record(record: Record | None, before: Snap, action: Action,
                game: Game) -> Record | None:
    """The challengeable card pending after `action` (accepted): (its player, played legally?,
    kind, colour named), computed from the position before it, for `post_challenge`."""
    pend = game.pending
    if action.kind == "play" and pend is not None and pend.decision == "challenge":
        # CL.WD4.LEGAL: legal only without a card of the active colour (Wilds aside)
        assert action.card is not None
        hand = list(before.hands[action.player or 0])
        hand.remove(action.card)
        # (Wild faces have no colour; with no colour active nothing disqualifies it)
        legal = not any(not face_on(c, before.side).is_wild
                        and face_on(c, before.side).color == before.active_color
                        for c in hand)
        return (action.player or 0, legal, face_on(action.card, before.side).kind,
                action.color)
    if action.kind in ("challenge", "accept", "next-round"):
        return None
    return record
