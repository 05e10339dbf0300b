"""Action cards and plain Wilds: what a card does once played (`play_effect` by card kind).

Rules: CL.SKIP.*, CL.REVERSE.*, CL.D2.*, CL.TWO.* (two players), CL.WILD.NO-EFFECT, the 2018
cards CL18.WSH.* (Wild Shuffle Hands) and CL18.CUSTOM.*; the Flip draw cards share the draw
effect (FL.LIGHT.D1.EFFECT, FL.DARK.D5.EFFECT) and the Skip / Reverse effects
(FL.LIGHT.SKIP.EFFECT, FL.LIGHT.REVERSE.EFFECT, FL.DARK.REVERSE.EFFECT, FL.TWO.*).

Each effect is `effect(actor, face, action) -> bool` (True: the UNO window opens as after any
play); `EFFECTS` maps card kinds to them (a variant replaces one through its `card_effects`).
"""

from __future__ import annotations

from mypy_extensions import trait

from uno_fsm.actions import Action, Event, seat_event
from uno_fsm.cards import Card, Face
from uno_fsm.rules.core import Core
from uno_fsm.state import CLOCKWISE, COUNTERCLOCKWISE

DRAW_KINDS = frozenset({"draw2", "draw1", "draw5"})
# rule IDs of the draw cards: kind -> (effect, going out on it)
DRAW_RULES: dict[str, tuple[str, str]] = {
    "draw2": ("CL.D2.EFFECT", "CL.END.LAST-D2"),
    "draw1": ("FL.LIGHT.D1.EFFECT", "FL.END.GO-OUT-DRAW"),
    "draw5": ("FL.DARK.D5.EFFECT", "FL.END.GO-OUT-DRAW"),
}
EFFECTS = {
    "number": "number_effect",
    "skip": "skip_effect",
    "reverse": "reverse_effect",
    **{kind: "draw_effect" for kind in DRAW_KINDS},
    "wild": "wild_effect",
    "custom_wild": "wild_effect",
    "wild_shuffle_hands": "shuffle_hands_effect",
}


@trait
class ActionCardRules(Core):

    def number_effect(self, actor: int, f: Face, a: Action) -> bool:
        """CL.PLAY.ONE-CARD: the next player's turn."""
        self.st.current = self.seat(actor)
        return True

    def skip_effect(self, actor: int, f: Face, a: Action) -> bool:
        """CL.SKIP.EFFECT, FL.LIGHT.SKIP.EFFECT; CL.TWO.SKIP-AGAIN (2 players: seat + 2 = self)."""
        self.events.append(seat_event("skipped", self.seat(actor), "CL.SKIP.EFFECT"))
        self.st.current = self.seat(actor, 2)
        return True

    def reverse_effect(self, actor: int, f: Face, a: Action) -> bool:
        """CL.REVERSE.EFFECT, FL.LIGHT.REVERSE.EFFECT, FL.DARK.REVERSE.EFFECT;
        CL.TWO.REVERSE-DIRECTION: the direction turns with 2 players too; FL.TWO.REVERSE."""
        st = self.st
        st.direction = COUNTERCLOCKWISE if st.direction == CLOCKWISE else CLOCKWISE
        self.events.append(seat_event("reversed", actor, "CL.REVERSE.EFFECT"))
        if self.seated() == 2 and self.p.reverse_as_skip_two:  # CL.TWO.SCOPE: exactly two
            st.current = actor  # CL.TWO.REVERSE-SKIP
        else:
            st.current = self.seat(actor)  # CL.REVERSE.NEXT
        return True

    def draw_effect(self, actor: int, f: Face, a: Action) -> bool:
        """CL.D2.EFFECT, CL.D2.NO-STACK (V.STACK.NOT-OFFICIAL); CL.TWO.D2-AGAIN;
        FL.LIGHT.D1.EFFECT, FL.DARK.D5.EFFECT; FL.TWO.PLAY-AGAIN: the next player draws and
        is skipped."""
        kind = f.kind
        self.give(self.seat(actor), self.p.draws[kind], DRAW_RULES[kind][0])
        self.st.current = self.seat(actor, 2)
        return True

    def wild_effect(self, actor: int, f: Face, a: Action) -> bool:
        """CL.WILD.NO-EFFECT, CL18.CUSTOM.PLAIN; FL.LIGHT.WILD.COLOUR, FL.DARK.WILD.COLOUR:
        only the colour named (set by `place`)."""
        self.st.current = self.seat(actor)
        return True

    def shuffle_hands_effect(self, actor: int, f: Face, a: Action) -> bool:
        """CL18.WSH.COLLECT, CL18.WSH.DEAL: collect every hand, shuffle, deal from seat + 1
        (clockwise from the player's left, whatever the direction); CL18.WSH.NEXT;
        CL18.WSH.UNO: nobody can be caught after a redistribution (no UNO window)."""
        st = self.st
        pool: list[Card] = []
        for hand in st.hands:
            pool.extend(hand)
            hand.clear()
        st.rng.shuffle(pool)
        seat = self.left(actor)  # DESAFIO.ELIMINATED-OUT: the seats in play only
        for card in pool:
            st.hands[seat].append(card)
            seat = self.left(seat)
        self.events.append(Event("hands-shuffled", actor, count=len(pool), rule="CL18.WSH.DEAL"))
        st.current = self.seat(actor)  # CL18.WSH.NEXT
        return False
