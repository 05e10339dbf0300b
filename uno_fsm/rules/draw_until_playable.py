"""House rule draw until playable (`draw-until-playable`): a player who draws on their turn
keeps drawing until a card that can be played comes, then plays it or keeps it.

Rules: V.DRAWUNTIL.* (spec/rules/variants-draw-until-playable.yaml); rulings
RUL.VARIANTS.HOUSE-RULES (the seeds name house rules only in general) and
RUL.DRAWUNTIL.WHICH-CARD (spec/rulings/variants.yaml). The parameter `draw_until_playable.enabled`
is declared in spec/rulesets/draw-until-playable.yaml. One hook: `draw_turn`, the turn owner's
draw (`TurnRules.draw_card`); the cards come from the one refill-and-draw loop (`Core.give`,
`until` a card matches), so penalties, which draw through `give` with a number, are unchanged
(V.DRAWUNTIL.PENALTIES). No new phase: the last card drawn is the drawn card of the base rules'
`play-drawn` decision (CL.DRAW.PLAY-DRAWN, CL.DRAW.KEEP), and with nothing playable left to draw
the turn passes (CL.DRAW.UNPLAYABLE-PASSES).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from uno_fsm.cards import Card
from uno_fsm.checks import Oracle, Snap, available, check, face_on, gain, playable
from uno_fsm.configs import TWO_COLOURS, CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.rules.hooks import Variant

if TYPE_CHECKING:
    from uno_fsm.game import Game


class DrawUntilPlayableOracle(Oracle):
    """The postconditions of a draw under the house rule, read from the rule texts (never
    calling the hook): V.DRAWUNTIL.KEEP-DRAWING, V.DRAWUNTIL.PLAY-OR-KEEP,
    V.DRAWUNTIL.EXHAUSTED."""

    def post_draw(self, facts: Any, before: Snap, game: Game) -> bool:
        after, pend = game.state, game.pending
        p = before.current
        assert p is not None
        top, colour = before.top(), before.active_color
        drawn = list((Counter(after.hands[p]) - Counter(before.hands[p])).elements())
        avail = available(before, False)
        got = gain(before, after, p)
        fits = [c for c in drawn if playable(face_on(c, before.side), colour, top)]
        if got < avail:  # V.DRAWUNTIL.KEEP-DRAWING: it stopped at the first playable card
            check(got >= 1 and len(fits) == 1, "V.DRAWUNTIL.KEEP-DRAWING",
                  f"P{p} drew {got} cards ({len(fits)} playable) of {avail}")
        else:  # V.DRAWUNTIL.EXHAUSTED: everything was drawn; at most the last one fits
            check(len(fits) <= 1, "V.DRAWUNTIL.EXHAUSTED",
                  f"P{p} drew all {got} cards, {len(fits)} of them playable")
        if fits:  # V.DRAWUNTIL.PLAY-OR-KEEP: that card, and only it, may be played or kept
            check(pend is not None and pend.player == p and pend.decision == "play-drawn"
                  and after.drawn is fits[0], "V.DRAWUNTIL.PLAY-OR-KEEP",
                  f"after drawing playable {fits[0]}: pending {pend}, drawn {after.drawn}")
        else:  # CL.DRAW.UNPLAYABLE-PASSES
            nxt = before.step(p)
            check(pend is not None and pend.player == nxt and pend.decision == "play",
                  "V.DRAWUNTIL.EXHAUSTED", f"nothing playable drawn: pending {pend}")
        return True


class DrawUntilPlayable(Variant):
    name = "draw-until-playable"
    fuzz = (FuzzConfig("classic-official+draw-until-playable"),
            FuzzConfig("classic-2022+draw-until-playable"))
    # two colours, so that a drawn card often does not match; a small pile, so that drawing
    # runs it out (V.DRAWUNTIL.EXHAUSTED) and the discards are reshuffled
    checks = (CheckConfig("classic-official+draw-until-playable", 2, TWO_COLOURS, hand=1,
                          target=3),)
    oracle = DrawUntilPlayableOracle
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        return bool(p.get("draw_until_playable.enabled", False))

    def draw_turn(self, seat: int, rule: str) -> tuple[Card, ...] | None:
        """V.DRAWUNTIL.KEEP-DRAWING: one card at a time until one can be played (the base
        rule's CL.DRAW.UNABLE / CL.DRAW.UNWILLING, kept as `rule`: drawing is still optional);
        V.DRAWUNTIL.EXHAUSTED: an empty draw pile is refilled from the discards, and with
        nothing left the drawing stops (`Core.give`)."""
        return self.r.give(seat, 0, "V.DRAWUNTIL.KEEP-DRAWING", until=self.r.matches)
