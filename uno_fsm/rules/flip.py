"""UNO Flip: the Flip card and the Skip Everyone (the other Flip cards share the classic code:
see docs/engine.md, "Rules by area").

Rules: FL.FLIP.* (turning everything over), FL.DARK.SE.* (Skip Everyone).
"""

from __future__ import annotations

from mypy_extensions import trait

from uno_fsm.actions import Action, Event
from uno_fsm.cards import Face
from uno_fsm.rules.core import Core

EFFECTS = {"flip": "flip_effect", "skip_everyone": "skip_everyone_effect"}


@trait
class FlipRules(Core):

    def flip(self) -> None:
        """FL.FLIP.SIDE-CHANGE: the other side is in play. FL.FLIP.HANDS-TURNED: every card is
        held by its face of `State.side`, so turning the hands is the side switch itself;
        FL.PLAY.DRAW-FACING, FL.RESHUFFLE.ORIENT follow from it too. FL.FLIP.DRAW-TURNED: the
        draw pile is turned over (its order reverses). FL.FLIP.DISCARD-TURNED
        (RUL.FLIP.DISCARD-TURN): the whole discard pile is turned over; the Flip card goes to
        the bottom and the old bottom card shows its other face on top.
        FL.FLIP.NEW-TOP-NO-EFFECT, FL.FLIP.NEW-TOP-WILD (RUL.FLIP.NEW-TOP): the new top does
        not act; its colour is the active colour, none for a Wild face."""
        st = self.st
        st.side = "dark" if st.side == "light" else "light"
        st.draw.reverse()
        st.discard.reverse()
        top = self.face(st.discard[-1])
        st.active_color = top.color
        self.events.append(Event("flipped", st.current, st.discard[-1], color=top.color,
                                 rule="FL.FLIP.SIDE-CHANGE"))

    def flip_effect(self, actor: int, f: Face, a: Action) -> bool:
        """FL.FLIP.NEXT-PLAYER: a Flip card skips nobody."""
        self.flip()
        self.st.current = self.seat(actor)
        return True

    def skip_everyone_effect(self, actor: int, f: Face, a: Action) -> bool:
        """FL.DARK.SE.EFFECT (RUL.FLIP.SKIP-EVERYONE.WORDING): every other player is skipped,
        the player plays again; FL.TWO.PLAY-AGAIN."""
        self.events.append(Event("skipped-everyone", actor, rule="FL.DARK.SE.EFFECT"))
        self.st.current = actor
        return True
