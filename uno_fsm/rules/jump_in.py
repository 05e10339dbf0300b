"""Variant Jump-In (`jump-in`): a card identical to the top discard is played out of turn.

Rules: V.JUMPIN.*. An out-of-turn `play` sends the machine event `jump_in` (no new action
kind); `JumpInRules` holds its guard and effect, `JumpIn` its hooks (the validation of the
out-of-turn play, the jumpers' legal actions), `JumpInOracle` its postconditions.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import trait

from uno_fsm import errors as E
from uno_fsm.actions import Action, Event
from uno_fsm.cards import Card, Face
from uno_fsm.checks import Oracle, Snap, check, face_on
from uno_fsm.configs import CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.phase_table import DECISIONS, JUMP_IN, PLAY
from uno_fsm.rules.core import Core
from uno_fsm.rules.hooks import Variant

PLAY_DECISION = DECISIONS[PLAY]  # the turn owner's play-or-draw decision


@trait
class JumpInRules(Core):
    """The machine's guard and effect of the `jump_in` event."""

    def jumper_goes_out(self, action: Action | None = None) -> bool:
        """V.JUMPIN.GO-OUT: the jumped-in card is the jumper's last."""
        return action is not None and len(self.st.hands[action.player or 0]) == 1

    def jump_seat(self, action: Action | None = None) -> None:
        """V.JUMPIN.IDENTICAL, V.JUMPIN.WHO (RUL.JUMPIN.WHO): the jumper takes the turn;
        V.JUMPIN.CONTINUES, V.JUMPIN.EFFECTS (RUL.JUMPIN.EFFECTS): the play that follows is an
        ordinary play from the jumper's seat, the players in between lose their turn."""
        a = action
        assert a is not None and a.player is not None
        st = self.st
        self.events.append(Event("jumped-in", a.player, a.card, count=st.current,
                                 rule="V.JUMPIN.IDENTICAL"))
        st.current = a.player
        st.drawn = None


def identical(f: Face | None, top: Face | None) -> bool:
    """V.JUMPIN.IDENTICAL, read from the rule text: the same colour and the same symbol or
    number (no Wild)."""
    return f is not None and top is not None and not f.is_wild \
        and (f.color, f.kind, f.rank) == (top.color, top.kind, top.rank)


class JumpInOracle(Oracle):
    """V.JUMPIN.*, read from the rule texts: a card identical to the top discard may be played
    out of turn while the turn owner's play decision is pending; play goes on from the jumper
    (the shared postconditions of a play then hold from the jumper's seat)."""

    def out_of_turn(self, facts: Any, before: Snap, action: Any) -> bool:
        """An out-of-turn play was accepted: an identical coloured card (V.JUMPIN.IDENTICAL)
        while the turn owner's play decision was pending, no penalty pending
        (V.JUMPIN.TIMING)."""
        top = before.top()
        check(identical(face_on(action.card, before.side), top), "V.JUMPIN.IDENTICAL",
              f"{action.card} jumped in on {top}")
        check(before.decision == PLAY_DECISION and not before.stack, "V.JUMPIN.TIMING",
              f"jump-in while {before.decision} pending (stack {before.stack})")
        return True

    def listed_out_of_turn(self, facts: Any, action: Any, decision: str, owner: int | None,
                           state: Any, top: Face | None) -> bool:
        """Listed for another player than the one owing the decision: a jump-in, an identical
        card on a play decision with no penalty pending (V.JUMPIN.IDENTICAL,
        V.JUMPIN.TIMING)."""
        a = action
        f = face_on(a.card, state.side) if a.card is not None else None
        check(a.kind == "play" and decision == PLAY_DECISION and not state.stack
              and identical(f, top), "V.JUMPIN.IDENTICAL",
              f"{a} listed while P{owner} owes the decision")
        return True


class JumpIn(Variant):
    name = "jump-in"
    fuzz = (FuzzConfig("classic-official+jump-in"), FuzzConfig("classic-2022+jump-in"))
    checks = (
        CheckConfig("classic-official+jump-in", 2,
                    "colors=red;numbers=1:2;actions=skip:2,draw2;wilds=wild", hand=2,
                    target=100, depth=5),
        # a 7 played by jumping in owes a swap (V.JUMPIN.EFFECTS with V.SEVENO.SEVEN-PENDING)
        CheckConfig("classic-official+seven-o+jump-in", 2,
                    "colors=red;numbers=7:2,1;actions=skip;wilds=wild", hand=2, target=100,
                    depth=4),
    )
    oracle = JumpInOracle
    bench = True  # `uno-fsm bench`, variants/4
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        return bool(p.get("jump_in.enabled", False))

    def jump_card(self, card: Card) -> bool:
        """V.JUMPIN.IDENTICAL, V.JUMPIN.NOT-WILD (RUL.JUMPIN.WHICH-CARDS): `card` is a coloured
        card identical (colour and number or symbol) to the top discard: the same face (faces
        are interned: one object per colour and number or symbol)."""
        top = self.r.top()
        return top is not None and not top.is_wild and self.r.face(card) is top

    def jump_open(self) -> bool:
        """V.JUMPIN.TIMING (RUL.JUMPIN.TIMING): only while the turn owner's play-or-draw
        decision is pending; RUL.VARIANTS.JUMPIN-STACKING: not while a penalty is pending."""
        st = self.r.st
        return st.phase == PLAY and not st.stack

    def out_of_turn(self, action: Action) -> str | None:
        """An out-of-turn play under Jump-In: the `jump_in` event, or NotYourTurn."""
        r = self.r
        st = r.st
        a = action
        card = a.card
        actor = a.player
        assert actor is not None
        if card is None:
            raise E.MalformedAction("play: a card is required")
        if not self.jump_open():
            raise E.NotYourTurn(f"P{st.current} owes the decision; no jump-in now",
                                "V.JUMPIN.TIMING")
        hand = st.hands[actor]
        if card not in hand:
            raise E.CardNotInHand(f"P{actor} holds no {card}", "V.JUMPIN.IDENTICAL")
        if not self.jump_card(card):
            # V.JUMPIN.NOT-MATCHING, V.JUMPIN.NOT-WILD: only an identical card jumps in
            raise E.NotYourTurn(f"{card} is not identical to {r.top()}",
                                "V.JUMPIN.NOT-MATCHING")
        if a.color is not None:
            raise E.MalformedAction(f"{card} is not a Wild: no colour is named with it")
        r.validate_uno_call(a, hand)  # V.JUMPIN.GO-OUT, CL.UNO.CALL-INVALID
        return JUMP_IN

    def extra_actions(self, out: list[Action]) -> None:
        """V.JUMPIN.IDENTICAL, V.JUMPIN.WHO: the other players' identical cards."""
        r = self.r
        st = r.st
        if not self.jump_open():
            return
        top = r.top()
        if top is None or top.is_wild:  # V.JUMPIN.NOT-WILD: nothing is identical to a Wild
            return
        cur = st.current
        dark = st.side == "dark"
        for seat in r.seats():  # DESAFIO.ELIMINATED-OUT: the seats in play only
            if seat == cur:
                continue
            hand = st.hands[seat]
            # jump_card for each held card, its face (Core.face) written out: this runs for
            # every seat at every play decision
            cards = [c for c in hand
                     if (c.dark if dark and c.dark is not None else c.light) is top]
            if cards:
                r.play_actions(seat, dict.fromkeys(cards), hand, out)
