"""Playing a card (CL.PLAY.*): it leaves the hand and becomes the top, the colour in force,
then the card's effect by its rule area (action cards, Wild Draw cards, Flip), going out and
the UNO call; a variant's card or effect through its oracle's hooks (`moves_hands`,
`post_effect`: uno_fsm.checks.Oracle)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_fsm.actions import Action
from uno_fsm.oracle import action_cards, flip, scoring, uno_call, wild_draw
from uno_fsm.oracle.base import Facts, Snap, available, check, face_on

if TYPE_CHECKING:
    from uno_fsm.game import Game


def post_play(facts: Facts, before: Snap, action: Action, game: Game,
              legal: list[Action]) -> None:
    """What an accepted in-turn play (or a play out of turn, from the player's seat) must have
    done."""
    after = game.state
    pend = game.pending
    p = before.current
    card = action.card
    assert p is not None and card is not None
    f = face_on(card, before.side)
    kind = f.kind
    if kind == "flip":
        flip.check_flip_piles(before, card, game)
    else:  # CL.PLAY.DISCARD-FACE-UP: the card leaves the hand and becomes the top
        # (each message is built only for a failure: this runs after every play)
        ok = bool(after.discard) and after.discard[-1] is card
        check(ok, "CL.PLAY.DISCARD-FACE-UP", "" if ok else
              f"top is {after.discard[-1] if after.discard else None}, played {card}")
        flip.check_same_side(before, game)
    # a variant's card that moves other cards between hands checks the hands itself
    oracles = facts.oracles
    moved = bool(oracles) and any(o.moves_hands(facts, before, action) for o in oracles)
    if not moved:
        ok = after.hands[p].count(card) == before.hands[p].count(card) - 1
        check(ok, "CL.PLAY.DISCARD-FACE-UP", "" if ok else f"{card} did not leave P{p}'s hand")
    avail = available(before, True)
    if len(before.hands[p]) == 1:  # CL.END.OUT
        scoring.post_out(facts, before, action, game, avail)
        return
    if kind == "flip":
        flip.check_new_top_colour(before, card, game)
    elif f.is_wild:  # CL.WILD.COLOUR, FL.LIGHT.WILD.COLOUR, FL.DARK.WILD.COLOUR
        ok = after.active_color == action.color
        check(ok, "CL.WILD.COLOUR", "" if ok else
              f"active colour {after.active_color}, named {action.color}")
        # CL.WILD.MUST-CHANGE (a house rule): another colour than the one in force before
        ok = (not facts.wild_must_change or before.active_color is None
              or action.color != before.active_color)
        check(ok, "CL.WILD.MUST-CHANGE", "" if ok else
              f"{card} named {action.color}, the colour already in force")
    else:  # CL.PLAY.MATCH-COLOUR: the card's colour is the colour now
        ok = after.active_color == f.color
        check(ok, "CL.PLAY.MATCH", "" if ok else
              f"active colour {after.active_color} after {card}")
    check(pend is not None, "CL.END.OUT", "the game ended without anyone going out")
    assert pend is not None
    if oracles and any(o.post_effect(facts, before, action, game, pend) for o in oracles):
        pass  # a variant's effect of the card, checked by its oracle
    elif kind == "skip":
        action_cards.post_skip(facts, p, pend, before)
    elif kind == "skip_everyone":
        flip.post_skip_everyone(p, pend)
    elif kind == "reverse":
        action_cards.post_reverse(facts, p, pend, before, game)
    elif kind in action_cards.DRAW_CARDS:
        action_cards.post_draw_card(kind, card, p, pend, before, game, avail)
    elif kind in wild_draw.CHALLENGEABLE:
        wild_draw.post_wild_draw(kind, card, p, pend, before, game)
    else:
        action_cards.post_next_player(kind, action, p, pend, before)
    if not moved and len(after.hands[p]) == 1:
        uno_call.check_left_one(p, action, game, legal)
