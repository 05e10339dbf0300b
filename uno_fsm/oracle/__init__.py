"""The fuzzer's oracle: what the rules say an accepted action must have done, by rule area
(docs/fuzzing.md "Layout"). Shared by the fuzzer (`uno_fsm.fuzz`), the model checker
(`uno_fsm.modelcheck`) and the tests; one copy of each check.

Each module holds one rule area of the base rules and names the rule IDs it checks, like the
engine's own layout: `turns` (drawing, keeping, the first colour), `play` (playing a card,
dispatching to the card's area), `action_cards`, `wild_draw` (challenges), `uno_call` (UNO and
the table penalties), `dealing` (the deal and the first card), `scoring` (going out and the
end), `deck`, `flip`. The variants' checks are their `Variant.oracle` (in their modules under
uno_fsm/rules/), whose hooks (`uno_fsm.checks.Oracle`) these modules and
`uno_fsm.invariants.check_invariants` call at fixed points through `Facts.oracles`, never
naming a variant. `base` holds what they share (`Facts`, read from the composed ruleset's
params; `Snap`, `check`, `step_seat`, which skips the seats out of the game: uno_fsm.checks).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from uno_fsm.actions import Action
from uno_fsm.oracle import dealing, scoring, turns, uno_call
from uno_fsm.oracle.base import (
    STATS,
    Facts,
    FuzzFailure,
    Snap,
    Stats,
    check,
    face_on,
    playable,
)
from uno_fsm.oracle.dealing import check_deal
from uno_fsm.oracle.deck import check_deck, deck_size, expected_deck, expected_faces
from uno_fsm.oracle.play import post_play
from uno_fsm.oracle.wild_draw import CHALLENGEABLE, Record, next_record, post_challenge

if TYPE_CHECKING:
    from uno_fsm.game import Game

__all__ = [
    "CHALLENGEABLE", "STATS", "Facts", "FuzzFailure", "Record", "Snap", "Stats", "check",
    "check_deal", "check_deck", "deck_size", "expected_deck", "expected_faces", "face_on",
    "next_record", "playable", "postconditions",
]


def postconditions(facts: Facts, before: Snap, action: Action, game: Game,
                   record: Record | None, legal: list[Action] | None = None) -> None:
    """Check what the rules say `action` (accepted) must have done to the position `before`.
    `record` is the challengeable card pending before it (`next_record`); `legal` is
    `game.legal_actions()` after it, when the caller has it."""
    after = game.state
    kind = action.kind
    listed = legal if legal is not None else game.legal_actions()
    scoring.check_scores_kept(before, action, game)
    if kind == "next-round":  # CL.END.NEW-HAND, CL.DEALER.EACH-HAND
        pend = game.pending
        ok = pend is not None and pend.decision in ("play", "color")  # (built for a failure)
        check(ok, "CL.END.NEW-HAND", "" if ok else f"no new hand after next-round: pending {pend}")
        dealing.check_deal(game, facts)
        return
    # a reshuffle keeps the top discard (CL.RESHUFFLE.KEEP-TOP)
    played = kind == "play"
    expected_top = action.card if played else (before.discard[-1] if before.discard else None)
    if played and action.card is not None and before.discard \
            and face_on(action.card, before.side).kind == "flip":
        expected_top = before.discard[0]  # FL.FLIP.DISCARD-TURNED
    if len(after.discard) < len(before.discard) + (1 if played else 0):
        ok = len(after.discard) == 1 and after.discard[0] is expected_top
        check(ok, "CL.RESHUFFLE.KEEP-TOP", "" if ok else  # (the message built for a failure)
              f"after a reshuffle the discard pile is {[c.text for c in after.discard]}, "
              f"expected only {expected_top}")
    uno_call.check_window(action, listed)  # CL.UNO.WINDOW: closed by any other action
    if kind == "play" and action.player != before.current:
        # a play out of turn: only as a variant allows it (`Oracle.out_of_turn`), and then the
        # postconditions of a play from the player's seat
        allowed = any(o.out_of_turn(facts, before, action) for o in facts.oracles)
        check(allowed, "CL.PLAY.OUT-OF-TURN", f"out-of-turn {action} accepted")
        post_play(facts, replace(before, current=action.player), action, game, listed)
    elif kind == "play":
        post_play(facts, before, action, game, listed)
    elif kind == "draw":
        # a variant's own draw (`Oracle.post_draw`, the first that answers) replaces the base
        # rules' check
        if not (facts.oracles and any(o.post_draw(facts, before, game) for o in facts.oracles)):
            turns.post_draw(facts, before, game)
    elif kind == "pass":
        turns.post_pass(before, game)
    elif kind == "color":
        turns.post_color(before, action, game)
    elif kind in ("accept", "challenge"):
        post_challenge(facts, before, action, game, record)
    elif kind in ("catch", "hint"):
        uno_call.post_penalty(before, action, game)
    elif kind == "uno":
        uno_call.post_uno(before, action, game, listed)
    elif kind == "wrong-card":
        uno_call.post_wrong_card(facts, before, action, game)
    else:  # a decision a variant opens (the swap): its own postconditions
        any(o.post_action(facts, before, action, game, listed) for o in facts.oracles)
    if kind == "play":
        for o in facts.oracles:  # the variants' own postconditions of a play
            o.post_play(facts, before, action, game, listed)
