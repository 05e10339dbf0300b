"""Variant stacking (`stacking`): a Draw Two or Wild Draw Four is passed on by playing another.

Rules: V.STACK.*. The accumulated penalty is `State.stack` (serialized); the machine's
`play --draw [stack_pending]--> play` edge takes it (`StackingRules`), the hooks of `Stacking`
do the rest. `StackingOracle` is its postconditions (the fuzzer's and the model checker's).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from mypy_extensions import trait

from uno_fsm import errors as E
from uno_fsm.actions import Action, Event
from uno_fsm.cards import Card, Face
from uno_fsm.checks import Oracle, Snap, available, check, face_on, gain
from uno_fsm.configs import CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.phase_table import CHALLENGE
from uno_fsm.rules.action_cards import DRAW_KINDS
from uno_fsm.rules.core import Core
from uno_fsm.rules.hooks import CardEffect, Variant

if TYPE_CHECKING:
    from uno_fsm.game import Game

STACKED = ("draw2", "wd4")  # the cards that stack (V.STACK.D2-ON-D2, V.STACK.W4-ON-W4)


@trait
class StackingRules(Core):
    """The machine's guard and effect of stacking."""

    def stack_pending(self, action: Action | None = None) -> bool:
        """V.STACK.TAKE-ALL: the turn owner faces an accumulated penalty."""
        return self.st.stack > 0

    def take_stack(self, action: Action | None = None) -> None:
        """V.STACK.TAKE-ALL: the player facing the stack draws all of it and loses the turn;
        no card drawn this way may be played."""
        st = self.st
        victim = st.current
        self.give(victim, st.stack, "V.STACK.TAKE-ALL")
        st.stack = 0
        st.drawn = None
        st.current = self.seat(victim)


class StackingOracle(Oracle):
    """V.STACK.*, read from the rule texts (never calling the hooks): the pending penalty is
    `Snap.stack`; what a draw, a stacked card and the answers to it must have done."""

    own_state = {"stack": "V.STACK.WHO"}  # no penalty accumulates without the variant

    def post_play(self, facts: Any, before: Snap, action: Any, game: Game,
                  legal: list[Any]) -> None:
        """V.STACK.D2-ON-D2, V.STACK.W4-ON-W4, V.STACK.NO-CROSS: on a pending penalty only the
        same card."""
        if not before.stack:
            return
        top = before.top()
        kind = face_on(action.card, before.side).kind
        check(top is not None and kind == top.kind, "V.STACK.NO-CROSS",
              f"{action.card} played on a pending {top} penalty")

    def post_effect(self, facts: Any, before: Snap, action: Any, game: Game,
                    pend: Any) -> bool:
        """V.STACK.ACCUMULATE, V.STACK.OPTIONAL: a Draw Two or a Wild Draw Four adds its
        penalty, nobody draws yet; after a Draw Two the victim stacks or draws (a Wild Draw
        Four still opens its challenge: the base rules' check follows)."""
        after = game.state
        p = before.current
        assert p is not None
        card = action.card
        kind = face_on(card, before.side).kind
        if kind == "wd4":
            check(after.stack == before.stack + 4, "V.STACK.ACCUMULATE",
                  f"stack {after.stack} after a Wild Draw Four on {before.stack}")
            return False
        if kind != "draw2":
            return False
        victim = before.step(p)
        check(gain(before, after, victim) == 0 and after.stack == before.stack + 2
              and pend.player == victim and pend.decision == "play", "V.STACK.ACCUMULATE",
              f"after P{p}'s {card} on a stack of {before.stack}: stack {after.stack}, "
              f"P{victim} grew by {gain(before, after, victim)}, pending {pend}")
        return True

    def post_draw(self, facts: Any, before: Snap, game: Game) -> bool:
        """V.STACK.TAKE-ALL: facing a penalty, the draw takes all of it, the turn passes and
        nothing drawn may be played."""
        if not before.stack:
            return False
        after, pend = game.state, game.pending
        p = before.current
        assert p is not None
        want = min(before.stack, available(before, False))
        check(gain(before, after, p) == want, "V.STACK.TAKE-ALL",
              f"P{p} drew {gain(before, after, p)} cards facing {before.stack}, expected {want}")
        nxt = before.step(p)
        check(pend is not None and pend.player == nxt and pend.decision == "play"
              and after.stack == 0, "V.STACK.TAKE-ALL",
              f"after taking the stack: pending {pend}, stack {after.stack}, expected P{nxt}")
        return True

    def penalty(self, facts: Any, before: Snap, outcome: str, k: int,
                rule: str) -> tuple[int, str] | None:
        """With a penalty pending: V.STACK.TAKE-ALL, accepting takes all of it (and a
        wrong-card penalty adds it); V.STACK.W4-CHALLENGE (RUL.STACK.WD4-CHALLENGE): guilty,
        the player of the last card draws all of it, innocent, the challenger draws it plus 2;
        V.STACK.GO-OUT: going out on a draw card, the next player draws it and the card's."""
        stack = before.stack
        if not stack:
            return None
        if outcome == "accept":
            return stack, "V.STACK.TAKE-ALL"
        if outcome in ("guilty", "innocent"):
            return stack + (2 if outcome == "innocent" else 0), "V.STACK.W4-CHALLENGE"
        if outcome == "last-card":
            return k + stack, "V.STACK.GO-OUT"
        return k + stack, rule  # wrong-card: the pending penalty is taken too

    def position(self, facts: Any, game: Game, legal: list[Any]) -> None:
        """V.STACK.NO-CROSS, V.STACK.D2-ON-D2, V.STACK.W4-ON-W4: on a pending penalty only the
        same card is listed; V.STACK.WHO: a penalty is pending on the turn owner's decision
        only."""
        s = game.state
        if not s.stack or game.is_over:
            return
        pend = game.pending
        top = face_on(s.discard[-1], s.side) if s.discard else None
        if pend is not None and top is not None:
            for a in legal:
                if a.kind == "play" and a.player == pend.player and a.card is not None:
                    check(face_on(a.card, s.side).kind == top.kind, "V.STACK.NO-CROSS",
                          f"{a} listed on a pending {top} penalty")
        check(pend is not None and pend.decision in ("play", "challenge"), "V.STACK.WHO",
              f"stack {s.stack} while pending {pend}")


class Stacking(Variant):
    name = "stacking"
    state_fields = {"stack": ("V.STACK.WHO", "draw penalties pending in a stack")}
    fuzz = (FuzzConfig("classic-official+stacking"), FuzzConfig("classic-2022+stacking"))
    checks = (CheckConfig("classic-official+stacking", 2,
                          "colors=red;numbers=1;actions=skip,draw2:2;wilds=wd4:2", hand=2,
                          target=100, depth=5),)
    oracle = StackingOracle
    bench = True  # `uno-fsm bench`, variants/4
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        return bool(p.get("stacking.enabled", False))

    def playable(self, cards: Iterable[Card]) -> list[Card] | None:
        """V.STACK.D2-ON-D2, V.STACK.D2-ANY-COLOUR, V.STACK.W4-ON-W4, V.STACK.NO-CROSS
        (RUL.STACK.CROSS): facing a penalty, only the same symbol, of any colour."""
        r = self.r
        if not r.st.stack:
            return None
        top = r.top()
        assert top is not None
        face = r.face
        return [c for c in cards if face(c).kind == top.kind]

    def check_play(self, action: Action) -> None:
        """V.STACK.D2-ON-D2, V.STACK.W4-ON-W4, V.STACK.NO-CROSS: facing a penalty, only a card
        of the same symbol may be played (or the penalty drawn: V.STACK.TAKE-ALL)."""
        r = self.r
        card = action.card
        assert card is not None
        if r.st.stack and not r.matches(card):
            rule = "V.STACK.NO-CROSS" if r.face(card).kind in STACKED else "V.STACK.TAKE-ALL"
            raise E.CardDoesNotMatch(f"{card} cannot be stacked on {r.top()}", rule)

    def plays_in(self, phase: str) -> bool:
        """V.STACK.W4-ON-W4: the victim of a Wild Draw Four may stack one instead of answering
        the challenge (V.STACK.W4-CHALLENGE: stacking gives it up)."""
        return phase == CHALLENGE

    def extra_actions(self, out: list[Action]) -> None:
        """V.STACK.W4-ON-W4: in the `challenge` decision, the victim's stacking plays."""
        r = self.r
        st = r.st
        if st.phase != CHALLENGE:
            return
        cur = st.current
        hand = st.hands[cur]
        r.play_actions(cur, r.playable(list(dict.fromkeys(hand))), hand, out)

    def card_effects(self) -> dict[str, CardEffect]:
        return {"draw2": self.stack, "wd4": self.stack}

    def stack(self, actor: int, f: Face, a: Action) -> bool:
        """V.STACK.D2-ON-D2, V.STACK.W4-ON-W4 (a Wild Draw Four without challenge), V.STACK.
        ACCUMULATE: the card's penalty is added to the pending one and passes, undrawn, to the
        next player, who stacks or takes it all (V.STACK.OPTIONAL, V.STACK.TAKE-ALL;
        V.STACK.WHO: only they may add to it)."""
        r = self.r
        st, p = r.st, r.p
        st.stack += p.draws[f.kind] if f.kind in DRAW_KINDS else p.challenges[f.kind].draw
        st.challenge_by = None
        st.current = r.seat(actor)
        r.events.append(Event("stacked", actor, a.card, count=st.stack,
                              rule="V.STACK.ACCUMULATE"))
        return True

    def on_challengeable(self, actor: int, face: Face, action: Action) -> None:
        """V.STACK.W4-ON-W4, V.STACK.ACCUMULATE; V.STACK.W4-LEGAL (RUL.STACK.WD4-CHALLENGE): a
        Wild Draw Four adds 4 and opens the challenge decision, judged like any Wild Draw
        Four, against the colour named below it."""
        if face.kind != "wd4":
            return
        r = self.r
        st = r.st
        st.stack += r.p.challenges["wd4"].draw
        r.events.append(Event("stacked", actor, action.card, count=st.stack,
                              rule="V.STACK.ACCUMULATE"))

    def settle_penalty(self, seat: int, outcome: str) -> bool:
        """The answer to a stacked Wild Draw Four, and a referee penalty, with a stack pending.
        V.STACK.TAKE-ALL: accepting takes it all, and so does the victim of a wrong-card
        penalty (a player who does not stack takes the penalty too). V.STACK.W4-CHALLENGE
        (RUL.STACK.WD4-CHALLENGE): only the last card is judged; guilty, its player draws the
        whole accumulated penalty; innocent, the challenger draws it plus the challenge's
        extra cards (innocent - draw: 6 - 4 = 2)."""
        r = self.r
        st = r.st
        if not st.stack:
            return False
        if outcome == "guilty":
            r.give(seat, st.stack, "V.STACK.W4-CHALLENGE")
        elif outcome == "innocent":
            ch = r.p.challenges[r.challenged()]
            r.give(seat, st.stack + ch.innocent - ch.draw, "V.STACK.W4-CHALLENGE")
        else:  # accept, wrong-card
            r.give(seat, st.stack, "V.STACK.TAKE-ALL")
        st.stack = 0
        return True

    def on_go_out(self, victim: int, kind: str, action: Action) -> bool:
        """V.STACK.GO-OUT (RUL.STACK.GO-OUT): going out on a stack, the next player draws the
        whole accumulated penalty (the pending one plus the last card's); the cards count."""
        r = self.r
        st, p = r.st, r.p
        stacked = st.stack
        if not stacked:
            return False
        st.stack = 0
        if p.last_card_draw:
            last = p.draws[kind] if kind in DRAW_KINDS else p.challenges[kind].draw
            r.give(victim, last + stacked, "V.STACK.GO-OUT")
        return True
