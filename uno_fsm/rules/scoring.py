"""Going out, scoring a hand, and the end of the game.

Rules: CL.END.* (going out, a last draw card), CL.SCORE.* / CL18.SCORE / CL22.SCORE.* /
GUIDE.END.* (the winner scores the others' cards; the target, or one hand), FL.END.* /
FL.SCORE.* / FL.GAME.* (the same on the side in play; FL.SCORE.LIGHT-SIDE: always the light
faces, `scoring.side: light`). Other scoring methods are variants: `score_hand`,
`target_reached` and `end_game` hooks (the variants' modules).
"""

from __future__ import annotations

from mypy_extensions import trait

from uno_fsm.actions import Action, Event
from uno_fsm.cards import Card, Face
from uno_fsm.rules.action_cards import DRAW_KINDS, DRAW_RULES
from uno_fsm.rules.core import Core
from uno_fsm.rules.wild_draw import CHALLENGE_RULES

# The rule of a game decided by one hand (a ruleset without a target), by base ruleset:
# GUIDE.END.FIRST-OUT (RUL.GUIDE.GAME-END); any other base: CL22.SCORE.ONE-HAND
ONE_HAND_RULES = {"classic-guide": "GUIDE.END.FIRST-OUT"}
# The winner of a hand scores the others' cards, by the game's own rule
WINNER_RULE = {"classic": "CL.SCORE.WINNER", "flip": "FL.SCORE.WINNER"}


def _light(card: Card) -> Face:
    return card.light


@trait
class ScoringRules(Core):

    # ---- guards ----------------------------------------------------------------------
    def goes_out(self, action: Action | None = None) -> bool:
        """CL.END.OUT: the card played is the player's last (CL.UNO.GO-OUT-UNCALLED: whether or
        not UNO was called)."""
        return len(self.st.hands[self.st.current]) == 1

    def target_reached(self, action: Action | None = None) -> bool:
        """CL.SCORE.TARGET, FL.GAME.TARGET-500, FLALT.END-500 (RUL.FLALT.REACH: 500 or more,
        checked when the round is scored), GUIDE.END.POINTS-VERSION; CL22.SCORE.ONE-HAND,
        GUIDE.END.FIRST-OUT (no target: one hand decides the game); PARTNERS.TARGET: a team's
        total is each partner's score."""
        for hook in self.hooks.target_reached:
            got = hook()
            if got is not None:
                return got
        target = self.p.target
        return target is None or max(self.st.scores) >= target

    # ---- effects ---------------------------------------------------------------------
    def play_out(self, action: Action | None = None) -> None:
        """CL.END.OUT: the player's last card ends the hand; the hand is scored."""
        a = action
        assert a is not None
        st, p = self.st, self.p
        winner = st.current
        f = self.place(a)
        kind = f.kind
        victim = self.seat(winner)
        if any(h(victim, kind, a) for h in self.hooks.on_go_out):  # e.g. V.STACK.GO-OUT
            pass
        elif p.last_card_draw:
            if kind in DRAW_KINDS:  # CL.END.LAST-D2, FL.END.GO-OUT-DRAW, FL.END.GO-OUT-COUNT
                self.give(victim, p.draws[kind], DRAW_RULES[kind][1])
            elif kind in p.challenges:
                # CL.END.LAST-WD4, FL.END.GO-OUT-DRAW, FL.END.GO-OUT-NO-CHALLENGE (no challenge;
                # RUL.FLIP.GO-OUT-DRAW-CHALLENGE)
                self.penalty(victim, p.challenges[kind].draw, a.color, CHALLENGE_RULES[kind][3])
        if kind == "flip":  # FL.END.GO-OUT-FLIP (RUL.FLIP.GO-OUT-ON-FLIP): flip, then score
            self.flip()
        # CL.END.LAST-OTHER: no other effect; CL18.WSH.LAST-CARD: no redistribution
        # CL.SCORE.WINNER, CL.SCORE.NUMBERS, CL.SCORE.ACTIONS, CL.SCORE.WILDS, CL18.SCORE,
        # CL22.SCORE.WILDS-50, FL.SCORE.NUMBER, FL.SCORE.DRAW-ONE, FL.SCORE.DRAW-FIVE,
        # FL.SCORE.REVERSE, FL.SCORE.SKIP, FL.SCORE.SKIP-EVERYONE, FL.SCORE.FLIP,
        # FL.SCORE.WILD, FL.SCORE.WILD-DRAW-TWO, FL.SCORE.WILD-DRAW-COLOUR (FL.SCORE.SIDE,
        # RUL.FLIP.SCORING-SIDE: the faces of the side in play now): the points table is the
        # ruleset's
        # FL.SCORE.LIGHT-SIDE (`scoring.side: light`, RUL.FLIP.SCORING-SIDE): the light faces
        side, face = ("light", _light) if p.light_scoring else (st.side, self.face)
        held = [p.hand_points(map(face, hand), side) for hand in st.hands]
        scored = None
        for hook in self.hooks.score_hand:  # the scoring method of a variant, with its rule
            scored = hook(winner, held)
            if scored is not None:
                break
        if scored is None:
            # CL.SCORE.WINNER, FL.SCORE.WINNER; CL.SCORE.ACCUMULATE, FL.GAME.ACCUMULATE
            scored = sum(held) - held[winner], WINNER_RULE[p.game]
            st.scores[winner] += scored[0]
        st.round_winner = winner
        st.uno_window = None
        points, rule = scored
        self.events.append(Event("went-out", winner, count=points, rule=rule))
        for after in self.hooks.on_scored:  # e.g. DESAFIO.ELIMINATE
            after(winner)

    def end_game(self, action: Action | None = None) -> None:
        """CL.SCORE.TARGET / CL22.SCORE.ONE-HAND: the winner of the last hand wins the game
        (a variant's scoring method may name the winners: the `end_game` hook)."""
        if not any(h() for h in self.hooks.end_game):
            self.winner_takes_game()

    def winner_takes_game(self) -> None:
        """CL.SCORE.TARGET: the winner of the last hand is the game's winner; without a target
        the one hand decided it (CL22.SCORE.ONE-HAND, GUIDE.END.FIRST-OUT)."""
        st = self.st
        st.winner = st.round_winner
        st.winners = [] if st.winner is None else [st.winner]
        rule = ("CL.SCORE.TARGET" if self.p.target is not None
                else ONE_HAND_RULES.get(self.p.ruleset.split("+")[0], "CL22.SCORE.ONE-HAND"))
        self.events.append(Event("game-over", st.winner, rule=rule))
