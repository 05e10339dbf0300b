"""Bots for `uno-fsm play`: they choose among `Game.legal_actions`, never beyond it (the engine
decides what is legal; a bot only has a taste).

- `random`: any legal move; an open UNO window (a call, a catch) is taken half the time.
- `basic`, a simple sensible player:
  - calls UNO with the play that leaves it one card, and at once if it forgot;
  - catches a player who did not call UNO as soon as it may;
  - plays a card that matches by colour or rank before any Wild, a Wild before a Wild that
    makes the next player draw (Wild Draw Four, Wild Draw Two, Wild Draw Colour), which comes
    last; among matching cards, those of the colour it holds most, then action cards (they
    score more against it), then the highest number;
  - names the colour it holds most (after the Wild leaves its hand; on a tie, the first in
    the order of the ruleset's colours);
  - plays a drawn card when it may, else keeps it;
  - facing a Wild Draw card, plays a card when the decision lists plays (a variant's way of
    passing the penalty on), else challenges only when the challenged player still holds
    `CHALLENGE_AT` cards or more (the more cards, the likelier one of them matched the
    colour), and accepts otherwise;
  - in the `swap` decision, takes the hand of the player holding the fewest cards;
  - never plays out of turn.

The bots choose by decision and action kind (the machine's vocabulary, uno_fsm.phases), never
by variant: a decision a variant adds gets the first of its listed actions unless a rule
here is written for that decision.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from uno_fsm.actions import Action

if TYPE_CHECKING:
    from uno_fsm.game import Game

CHALLENGE_AT = 6  # basic: challenge a player still holding this many cards or more
DRAW_WILDS = frozenset({"wd4", "wd2", "wdc"})  # the Wilds that make the next player draw
WINDOWS = frozenset({"uno", "catch"})

Bot = Callable[["Game", list[Action], random.Random], Action]


def random_bot(game: Game, actions: list[Action], rng: random.Random) -> Action:
    """Any of `actions`; an open window (call, catch) half the time when there is a turn move."""
    turn = [a for a in actions if a.kind not in WINDOWS]
    windows = [a for a in actions if a.kind in WINDOWS]
    if windows and (not turn or rng.random() < 0.5):
        return rng.choice(windows)
    return rng.choice(turn)


def basic_bot(game: Game, actions: list[Action], rng: random.Random) -> Action:
    """The `basic` strategy of the module docstring, deterministic (`rng` is unused)."""
    for kind in ("uno", "catch"):
        for a in actions:
            if a.kind == kind:
                return a
    pending = game.pending
    owner = None if pending is None else pending.player
    turn = [a for a in actions if a.player == owner and a.kind not in WINDOWS]
    if not turn:
        return actions[0]
    st = game.state
    seat = turn[0].player
    if seat is None:  # the next round, anyone's to deal
        return turn[0]
    decision = pending.decision if pending is not None else ""
    kinds = {a.kind for a in turn}
    if "play" in kinds:
        play = _best_play(game, seat, [a for a in turn if a.kind == "play"])
        if decision != "challenge" or play is not None:
            return play if play is not None else turn[-1]
    if decision == "challenge" and "challenge" in kinds:
        by = st.challenge_by
        many = by is not None and len(st.hands[by]) >= CHALLENGE_AT
        return next(a for a in turn if a.kind == ("challenge" if many else "accept"))
    if "color" in kinds:
        best = _colour_held_most(game, seat, [a.color for a in turn if a.color])
        return next(a for a in turn if a.color == best)
    if "swap" in kinds:
        return min((a for a in turn if a.kind == "swap"),
                   key=lambda a: (len(st.hands[a.target or 0]), a.target))
    for kind in ("draw", "pass", "accept"):
        for a in turn:
            if a.kind == kind:
                return a
    return turn[0]


def _best_play(game: Game, seat: int, plays: list[Action]) -> Action | None:
    """The play the basic bot prefers, or None when it has none."""
    if not plays:
        return None
    side = game.state.side
    held = Counter(c.face(side).color for c in game.state.hands[seat])

    def rank(a: Action) -> tuple[int, int, int, int]:
        assert a.card is not None
        f = a.card.face(side)
        tier = 2 if f.kind in DRAW_WILDS else 1 if f.is_wild else 0
        return (tier, -held[f.color], 0 if f.number is None else 1, -(f.number or 0))

    card = min(plays, key=rank).card
    assert card is not None
    mine = [a for a in plays if a.card is card]
    colours = [a.color for a in mine if a.color is not None]
    if colours and not any(a.color is None for a in mine):
        rest = list(game.state.hands[seat])
        rest.remove(card)
        best = _colour_held_most(game, seat, colours, rest)
        mine = [a for a in mine if a.color == best]
    return max(mine, key=lambda a: a.uno)  # call UNO with the play when it may


def _colour_held_most(game: Game, seat: int, colours: list[str],
                      hand: list | None = None) -> str:
    """Of `colours` (all legal), the one `seat` holds most of (the first legal one on a tie)."""
    side = game.state.side
    held = Counter(c.face(side).color for c in (game.state.hands[seat] if hand is None else hand))
    return max(colours, key=lambda c: (held[c], -colours.index(c)))


BOTS: dict[str, Bot] = {"random": random_bot, "basic": basic_bot}


# ---- who moves: a person (or a fixed policy) and the bots -----------------------------------
# The one definition of when a seat played by someone other than a bot is asked, shared by
# `uno-fsm play` (uno_fsm.terminal) and the match driver (uno_fsm.match.play_hand).
def decides(game: Game, seat: int) -> bool:
    """`seat` has a decision now: its turn (CL.PLAY.TURN-OPTIONS), or an open UNO window
    of its own, a late call or a catch (CL.UNO.CALL-LATE, CL.UNO.CATCH)."""
    pending = game.pending
    if pending is not None and pending.player == seat:
        return True
    return any(a.kind in WINDOWS for a in game.legal_actions(seat))


def bot_actions(game: Game, others: Collection[int]) -> list[Action]:
    """The legal actions the bots choose among: every seat's but those of `others` (the
    seats played by a person or a policy), never a referee's."""
    return [a for a in game.legal_actions() if a.player is not None and a.player not in others]
