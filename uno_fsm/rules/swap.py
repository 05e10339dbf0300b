"""The `swap` decision (phase `swap` of the machine): a hand exchanged for another seat's.

The base rules never move a card between hands (CL.PLAY.NO-TRADE); a variant's card opens the
decision through the hook `swap_rules(face)`, which also names the rules the swap cites
(`SwapRules`: the effect, the owner's, the target's). Guard `needs_swap`, effects `play_swap`
and `exchange_hands`; no variant is named here.
"""

from __future__ import annotations

from mypy_extensions import trait

from uno_fsm import errors as E
from uno_fsm.actions import Action, Event
from uno_fsm.phase_table import SWAP
from uno_fsm.rules.core import Core
from uno_fsm.rules.hooks import SwapRules


@trait
class SwapDecisionRules(Core):
    """The `swap` decision: guard `needs_swap`, effects `play_swap` and `exchange_hands`."""

    def swap_rules_now(self) -> SwapRules:
        """The rules of the pending swap: those of the variant whose card tops the discard
        (the card that opened the decision)."""
        top = self.top()
        rules = None
        if top is not None:
            rules = next((got for hook in self.hooks.swap_rules
                          if (got := hook(top)) is not None), None)
        assert rules is not None, f"a swap pending on {top}, which opens none"
        return rules

    def validate_swap(self, a: Action) -> None:
        """V.SEVENO.SEVEN-PENDING (the `no-swap-pending` error's own rule): a swap only while
        one is pending, by the player who owes it (V.SWAP.TARGET for the Swap card), with
        another player (V.SEVENO.SEVEN-TARGET): the rules of the card that opened it."""
        st = self.st
        if st.phase != SWAP:
            raise E.NoSwapPending("no swap is pending")
        rules = self.swap_rules_now()
        if a.player != st.current:
            raise E.NotYourTurn(f"P{st.current} chooses the swap", rules.owner)
        if a.target == a.player:
            raise E.NoSwapPending("swap with another player", rules.target)

    def needs_swap(self, action: Action | None = None) -> bool:
        """V.SEVENO.SEVEN-SWAP, V.SEVENO.SEVEN-PENDING, V.SWAP.EFFECT, V.SWAP.TARGET: a card
        whose play opens the swap decision (the `swap_rules` hook of the variants the game
        plays; V.SEVENO.LAST-CARD, V.SWAP.LAST-CARD: not when it is the last card, `goes_out`
        is tried first)."""
        hooks = self.hooks.swap_rules
        if not hooks or action is None or action.card is None:
            return False
        f = self.face(action.card)
        return any(h(f) is not None for h in hooks)

    def play_swap(self, action: Action | None = None) -> None:
        """V.SEVENO.SEVEN-PENDING, V.SWAP.WILD, V.SWAP.TARGET: the card is played (a Wild
        with the colour named in the play, CL.WILD.COLOUR); its player now owes the swap
        decision."""
        a = action
        assert a is not None
        actor = self.st.current
        self.place(a)
        self.after_play(a, actor)

    def exchange_hands(self, action: Action | None = None) -> None:
        """V.SEVENO.SEVEN-SWAP, V.SEVENO.TRADE-ALLOWED (the one exchange the rules allow),
        V.SWAP.EFFECT: the two whole hands are exchanged (the event cites the card's effect
        rule); V.SEVENO.CONTINUE, V.SWAP.NEXT: the next player in the direction of play
        follows, on the colour in force; V.SEVENO.UNO: the swap action closed the window."""
        a = action
        assert a is not None and a.target is not None
        st = self.st
        actor = st.current
        rule = self.swap_rules_now().effect
        st.hands[actor], st.hands[a.target] = st.hands[a.target], st.hands[actor]
        self.events.append(Event("hands-swapped", actor, count=a.target, rule=rule))
        st.current = self.seat(actor)
