"""Variant Seven-O (`seven-o`): a 7 swaps hands with a chosen player, a 0 rotates every hand.

Rules: V.SEVENO.*. The `swap` decision (phase `swap`, events `choose_swap`) is defined here and
reused by the Wild Swap Hands (swap_hands.py): the variant that opened it names its rule IDs
through the `swap_rules` hook.
"""

from __future__ import annotations

from mypy_extensions import trait

from uno_fsm import errors as E
from uno_fsm.actions import Action, Event
from uno_fsm.cards import Card, Face
from uno_fsm.configs import CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.phase_table import SWAP
from uno_fsm.rules.core import Core
from uno_fsm.rules.hooks import CardEffect, SwapRules, Variant

# the reduced deck of its model-check configurations: a 0, a 7 and a plain number
SEVENS = "colors=red,yellow;numbers=0,7;actions=skip;wilds="
# V.SEVENO.SEVEN-SWAP, V.SEVENO.SEVEN-PENDING, V.SEVENO.SEVEN-TARGET
SEVEN_SWAP = SwapRules("V.SEVENO.SEVEN-SWAP", "V.SEVENO.SEVEN-PENDING", "V.SEVENO.SEVEN-TARGET")


@trait
class SwapDecisionRules(Core):
    """The `swap` decision: guard `needs_swap`, effects `play_swap` and `swap_hands`."""

    def swap_rules_now(self) -> SwapRules:
        """The rules of the pending swap: those of the variant whose card tops the discard."""
        top = self.top()
        if top is not None:
            for hook in self.hooks.swap_rules:
                got = hook(top)
                if got is not None:
                    return got
        return SEVEN_SWAP

    def validate_swap(self, a: Action) -> None:
        """V.SEVENO.SEVEN-PENDING: a swap only while one is pending, by the player who owes
        it (V.SWAP.TARGET for a Wild Swap Hands), with another player (V.SEVENO.SEVEN-TARGET)."""
        st = self.st
        if st.phase != SWAP:
            raise E.NoSwapPending("no swap is pending", "V.SEVENO.SEVEN-PENDING")
        rules = self.swap_rules_now()
        if a.player != st.current:
            raise E.NotYourTurn(f"P{st.current} chooses the swap", rules.owner)
        if a.target == a.player:
            raise E.NoSwapPending("swap with another player", rules.target)

    def needs_swap(self, action: Action | None = None) -> bool:
        """V.SEVENO.SEVEN-SWAP, V.SEVENO.SEVEN-PENDING: a 7 makes its player choose a hand to
        swap with (V.SEVENO.LAST-CARD: not when it is the last card, `goes_out` is tried
        first). V.SWAP.EFFECT, V.SWAP.TARGET: a Wild Swap Hands too (the `swap_rules` hook of
        the variants the game plays)."""
        hooks = self.hooks.swap_rules
        if not hooks or action is None or action.card is None:
            return False
        f = self.face(action.card)
        return any(h(f) is not None for h in hooks)

    def play_swap(self, action: Action | None = None) -> None:
        """V.SEVENO.SEVEN-PENDING: the 7 is played; its player now chooses whom to swap with.
        V.SWAP.WILD, V.SWAP.TARGET: a Wild Swap Hands is played as a Wild (its colour named in
        the play, CL.WILD.COLOUR); its player then owes the swap decision."""
        a = action
        assert a is not None
        actor = self.st.current
        self.place(a)
        self.after_play(a, actor)

    def swap_hands(self, action: Action | None = None) -> None:
        """V.SEVENO.SEVEN-SWAP, V.SEVENO.TRADE-ALLOWED (the one exchange the rules allow),
        V.SEVENO.CONTINUE; V.SEVENO.UNO: the swap action closed the window.
        V.SWAP.EFFECT: a Wild Swap Hands swaps the whole hands the same way; V.SWAP.NEXT: the
        next player in the direction of play follows, on the colour named."""
        a = action
        assert a is not None and a.target is not None
        st = self.st
        actor = st.current
        rule = self.swap_rules_now().effect
        st.hands[actor], st.hands[a.target] = st.hands[a.target], st.hands[actor]
        self.events.append(Event("hands-swapped", actor, count=a.target, rule=rule))
        st.current = self.seat(actor)


class SevenO(Variant):
    """V.SEVENO.*: a 7 opens the swap decision; a 0 rotates the hands."""

    name = "seven-o"
    fuzz = (FuzzConfig("classic-official+seven-o"), FuzzConfig("classic-2022+seven-o"))
    checks = (
        # three players: a 0 passes the hands in the direction of play (V.SEVENO.ZERO-ROTATE),
        # which two players cannot tell from a swap
        CheckConfig("classic-official+seven-o", 3, SEVENS, hand=1, target=3),
        # the table penalties (`--referee`): bounded (each hint grows a hand)
        CheckConfig("classic-official+seven-o", 2, SEVENS, hand=1, target=3, depth=3,
                    referee=True),
    )
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        # V.SEVENO.BASES: only set by classic compositions
        return bool(p.get("seven_o.enabled", False))

    def swap_rules(self, face: Face) -> SwapRules | None:
        return SEVEN_SWAP if face.rank == "7" else None  # V.SEVENO.SEVEN-SWAP

    def card_effects(self) -> dict[str, CardEffect]:
        return {"number": self.number}

    def number(self, actor: int, f: Face, a: Action) -> bool:
        """V.SEVENO.ZERO-ROTATE: a 0 passes every hand to the next player in the direction of
        play (V.SEVENO.TWO-PLAYERS: with two, the hands swap); V.SEVENO.UNO: a rotated
        one-card hand owes no call (no UNO window)."""
        r = self.r
        if f.rank != "0":
            return r.number_effect(actor, f, a)
        st = r.st
        st.current = r.seat(actor)
        n = st.players
        old = st.hands
        new: list[list[Card]] = [[] for _ in range(n)]
        for seat in r.seats():  # DESAFIO.ELIMINATED-OUT: the seats in play only
            new[r.seat(seat)] = old[seat]
        st.hands = new
        r.events.append(Event("hands-rotated", rule="V.SEVENO.ZERO-ROTATE"))
        return False
