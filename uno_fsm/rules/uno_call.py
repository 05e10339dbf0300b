"""The UNO call, the catch window and the table penalties (the referee's actions).

Rules: CL.UNO.* (calling UNO with the play or late, catching, the window), FL.UNO.ANY-SIDE,
CL.PEN.* (hint, wrong card).
"""

from __future__ import annotations

from mypy_extensions import trait

from uno_fsm import errors as E
from uno_fsm.actions import Action, Event, seat_event
from uno_fsm.cards import Card
from uno_fsm.phase_table import PLAY_DRAWN
from uno_fsm.rules.core import Core


@trait
class UnoCallRules(Core):

    # ---- validation ------------------------------------------------------------------
    def validate_uno_call(self, a: Action, hand: list[Card]) -> None:
        """CL.UNO.CALL-INVALID: UNO is called with the second-to-last card only."""
        if a.uno and (len(hand) != 2 or not self.p.uno_call_with_play):
            raise E.NoUnoWindow("UNO is called with the second-to-last card", "CL.UNO.CALL-INVALID")

    def validate_window(self, a: Action, event: str, allowed: dict[str, object]) -> None:
        """An out-of-turn action of the windows and the referee: `uno`, `catch`, `hint`,
        `wrong-card`, `next-round`."""
        st = self.st
        kind = a.kind
        actor = a.player
        if event not in allowed:
            if kind == "uno":
                raise E.NoUnoWindow("no UNO call possible now", "CL.UNO.CALL-INVALID")
            if kind == "catch":
                raise E.NothingToCatch("nobody can be caught now", "CL.UNO.FALSE-CATCH")
            if kind == "wrong-card":
                raise E.NotYourTurn("no play is pending", "CL.PEN.WRONG-CARD-TURN-OWNER")
            raise E.WrongDecision(f"{kind} is not possible now", "CL.PLAY.TURN-OPTIONS")
        if kind == "uno":
            # CL.UNO.CALL-LATE / CL.UNO.CALL-INVALID
            if st.uno_window != actor or len(st.hands[actor]) != 1:  # type: ignore[index]
                raise E.NoUnoWindow("UNO is called holding one card, before a catch",
                                    "CL.UNO.CALL-INVALID")
        elif kind == "catch":
            t = a.target
            if t == actor:
                raise E.NothingToCatch("a player cannot catch themselves", "CL.UNO.CATCH")
            # CL.UNO.CATCH, CL.UNO.FALSE-CATCH, CL.UNO.LATE-CATCH, CL.UNO.NOT-BEFORE
            if st.uno_window != t or len(st.hands[t]) != 1:  # type: ignore[index]
                raise E.NothingToCatch(f"P{t} cannot be caught now", "CL.UNO.FALSE-CATCH")
        elif kind == "wrong-card":
            # CL.PEN.WRONG-CARD-TURN-OWNER
            t = a.target
            if t != st.current:
                raise E.NotYourTurn(f"P{t} is not the turn owner", "CL.PEN.WRONG-CARD-TURN-OWNER")
            if a.card is not None:
                if a.card not in st.hands[t]:  # type: ignore[index]
                    raise E.CardNotInHand(f"P{t} holds no {a.card}", "CL.PEN.WRONG-CARD-TURN-OWNER")
                legal = self.matches(a.card) and (
                    st.phase != PLAY_DRAWN or a.card is st.drawn
                )
                if legal:
                    raise E.WrongDecision(f"{a.card} may be played: it is not a wrong card",
                                          "CL.PEN.WRONG-CARD-TURN-OWNER")

    # ---- effects ---------------------------------------------------------------------
    def after_play(self, a: Action, actor: int) -> None:
        """CL.UNO.MUST-CALL: holding one card without calling opens the catch window
        (FL.UNO.ANY-SIDE: on either side, after a Flip card too)."""
        st = self.st
        if len(st.hands[actor]) == 1:
            if a.uno:  # CL.UNO.CALL-WITH-PLAY; GUIDE.UNO.BEFORE-OR-AFTER: the call "before"
                self.events.append(seat_event("uno", actor, "CL.UNO.CALL-WITH-PLAY"))
            else:
                st.uno_window = actor

    def uno_called(self, action: Action | None = None) -> None:
        """CL.UNO.CALL-LATE: called before being caught, the player is safe
        (GUIDE.UNO.BEFORE-OR-AFTER: the call "after" the second-to-last card)."""
        a = action
        assert a is not None and a.player is not None
        self.st.uno_window = None
        self.events.append(seat_event("uno", a.player, "CL.UNO.CALL-LATE"))

    def catch_player(self, action: Action | None = None) -> None:
        """CL.UNO.CATCH, CL.UNO.CATCH-PENALTY: the caught player draws; turn order unchanged."""
        a = action
        assert a is not None and a.target is not None
        self.st.uno_window = None
        self.events.append(Event("caught", a.target, count=a.player or 0, rule="CL.UNO.CATCH"))
        self.give(a.target, self.p.uno_penalty, "CL.UNO.CATCH-PENALTY")

    def hint_penalty(self, action: Action | None = None) -> None:
        """CL.PEN.HINT, CL.PEN.HINT-ANYTIME: the hinting player draws; nothing else changes."""
        a = action
        assert a is not None and a.target is not None
        self.give(a.target, self.p.hint_penalty, "CL.PEN.HINT")

    def wrong_card_penalty(self, action: Action | None = None) -> None:
        """CL.PEN.WRONG-CARD: the card is taken back, the player draws, the turn passes (a
        variant's pending penalty is drawn too: the `settle_penalty` hook, `wrong-card`)."""
        a = action
        assert a is not None and a.target is not None
        st = self.st
        self.give(a.target, self.p.wrong_card_penalty, "CL.PEN.WRONG-CARD")
        for hook in self.hooks.settle_penalty:  # e.g. V.STACK.TAKE-ALL
            hook(a.target, "wrong-card")
        st.drawn = None
        st.current = self.seat(a.target)
