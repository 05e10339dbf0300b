"""House rule no going out on an action card (`no-action-finish`): a player's last card must be
a number card; an action card or a Wild cannot be played as the last one.

Rules: V.NOFINISH.* (spec/rules/variants-no-action-finish.yaml); rulings
RUL.VARIANTS.HOUSE-RULES (the seeds name house rules only in general) and RUL.NOFINISH.REFUSAL
(spec/rulings/variants.yaml). The parameter `no_action_finish.enabled` is declared in
spec/rulesets/no-action-finish.yaml. Two hooks: `restrict_plays` (the matching rule: the last
card is playable only if it is a number, so `legal_actions` never lists the others) and
`check_play` (the refusal, with this rule's ID). It changes which plays are legal, nothing
else: a player stuck with an action card draws (CL.DRAW.UNABLE) as with any unplayable hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from uno_fsm import errors as E
from uno_fsm.actions import Action
from uno_fsm.cards import Card
from uno_fsm.checks import Oracle, Snap, check, face_on
from uno_fsm.configs import TWO_COLOURS, CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.rules.hooks import Variant

if TYPE_CHECKING:
    from uno_fsm.game import Game

NUMBER = "number"  # the only kind of card that may be the last one (V.NOFINISH.LAST-CARD)


class NoActionFinishOracle(Oracle):
    """V.NOFINISH.LAST-CARD, read from the rule text: a player holding one card plays it only
    if it is a number card; such a play is never listed, never accepted."""

    def post_play(self, facts: Any, before: Snap, action: Any, game: Game,
                  legal: list[Any]) -> None:
        p = action.player
        if p is not None and len(before.hands[p]) == 1 and action.card is not None:
            f = face_on(action.card, before.side)
            check(f.kind == NUMBER, "V.NOFINISH.LAST-CARD",
                  f"P{p} went out on {action.card}, not a number card")

    def position(self, facts: Any, game: Game, legal: list[Any]) -> None:
        st = game.state
        for a in legal:
            if a.kind == "play" and a.card is not None and len(st.hands[a.player]) == 1:
                check(face_on(a.card, st.side).kind == NUMBER, "V.NOFINISH.LAST-CARD",
                      f"{a} listed: a last card that is not a number")


class NoActionFinish(Variant):
    name = "no-action-finish"
    fuzz = (FuzzConfig("classic-official+no-action-finish"),
            FuzzConfig("classic-2022+no-action-finish"))
    # one colour: every card matches, so a last Skip, Reverse, Draw Two or Wild would be playable
    # but for the house rule (and a one-card hand is dealt)
    checks = (CheckConfig("classic-official+no-action-finish", 2, TWO_COLOURS, hand=1,
                          target=3),)
    oracle = NoActionFinishOracle
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        return bool(p.get("no_action_finish.enabled", False))

    def restrict_plays(self, cards: list[Card]) -> list[Card]:
        """V.NOFINISH.LAST-CARD, V.NOFINISH.SECOND-TO-LAST: holding one card, only a number
        card may be played (with two or more, any card that matches)."""
        r = self.r
        st = r.st
        if len(st.hands[st.current]) != 1:
            return cards
        face = r.face
        return [c for c in cards if face(c).kind == NUMBER]

    def check_play(self, action: Action) -> None:
        """V.NOFINISH.LAST-CARD (RUL.NOFINISH.REFUSAL): the last card, an action card or a
        Wild, is refused like a card that cannot be played (`card-does-not-match`)."""
        r = self.r
        st = r.st
        card = action.card
        assert card is not None
        if len(st.hands[st.current]) == 1 and r.face(card).kind != NUMBER:
            raise E.CardDoesNotMatch(f"{card} cannot be the last card: a player goes out on a "
                                     "number card", "V.NOFINISH.LAST-CARD")
