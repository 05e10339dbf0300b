"""Wild Draw cards and their challenge: the Wild Draw Four, and UNO Flip's Wild Draw Two and
Wild Draw Colour, which use the same `challenge` decision.

Rules: CL.WD4.* (legality, bluff, challenge, accept, showing the hand), CL.TWO.WD4-AGAIN;
FL.LIGHT.W2.* and FL.DARK.WDC.* (the same flow with each card's own `challenge` parameters,
`Params.challenges`; the Wild Draw Colour draws until the named colour).
"""

from __future__ import annotations

from mypy_extensions import trait

from uno_fsm import errors as E
from uno_fsm.actions import Action, Event
from uno_fsm.cards import Face
from uno_fsm.params import UNTIL_COLOUR
from uno_fsm.phase_table import CHALLENGE
from uno_fsm.rules.core import Core

# rule IDs of the challengeable Wild Draw cards: kind -> (accept, guilty, innocent, going out)
CHALLENGE_RULES: dict[str, tuple[str, str, str, str]] = {
    "wd4": ("CL.WD4.ACCEPT", "CL.WD4.CHALLENGE.GUILTY", "CL.WD4.CHALLENGE.INNOCENT",
            "CL.END.LAST-WD4"),
    "wd2": ("FL.LIGHT.W2.ACCEPT", "FL.LIGHT.W2.GUILTY", "FL.LIGHT.W2.INNOCENT",
            "FL.END.GO-OUT-DRAW"),
    "wdc": ("FL.DARK.WDC.ACCEPT", "FL.DARK.WDC.GUILTY", "FL.DARK.WDC.INNOCENT",
            "FL.END.GO-OUT-DRAW"),
}
_CHALLENGER_RULE = {"wd2": "FL.LIGHT.W2.CHALLENGER", "wdc": "FL.DARK.WDC.CHALLENGER"}
# the rule that shows the challenged hand, per card (FL.DARK.WDC.CHALLENGER says it for the WDC)
_SHOW_RULE = {"wd4": "CL.WD4.CHALLENGE.SHOW", "wd2": "FL.LIGHT.W2.SHOW-HAND",
              "wdc": "FL.DARK.WDC.CHALLENGER"}
# when each may be played (what a challenge judges: `play_challengeable`)
LEGAL_RULES = {"wd4": "CL.WD4.LEGAL", "wd2": "FL.LIGHT.W2.LEGAL", "wdc": "FL.DARK.WDC.LEGAL"}
EFFECTS = {kind: "wild_draw_effect" for kind in CHALLENGE_RULES}


@trait
class WildDrawRules(Core):

    def challenged(self) -> str:
        """The kind of the Wild Draw card waiting for its challenge (the top discard)."""
        return self.face(self.st.discard[-1]).kind

    # ---- drawing a penalty -----------------------------------------------------------
    def give_until(self, seat: int, color: str | None, rule: str, extra: int = 0) -> None:
        """FL.DARK.WDC.DRAW-UNTIL (RUL.FLIP.WDC.UNTIL-DRAWN): `seat` draws until a drawn card's
        active face has `color` (at least one card; Wild faces do not stop it), then `extra`
        more (FL.DARK.WDC.INNOCENT, RUL.FLIP.WDC.INNOCENT-EXTRA). FL.DARK.WDC.EXHAUSTED: an empty
        draw pile is refilled by the usual reshuffle; with nothing left to draw it stops
        (`Core.give`, the one refill-and-draw loop)."""
        face = self.face
        self.give(seat, 0, rule, until=lambda card: color is not None
                  and face(card).color == color)
        if extra:
            self.give(seat, extra, rule)

    def penalty(self, seat: int, n: int, color: str | None, rule: str) -> None:
        """Draw `n` cards, or until `color` when `n` is UNTIL_COLOUR (Wild Draw Colour)."""
        if n == UNTIL_COLOUR:
            self.give_until(seat, color, rule)
        else:
            self.give(seat, n, rule)

    # ---- validation ------------------------------------------------------------------
    def validate_challenge(self, a: Action) -> None:
        """A `challenge` or `accept`: only while a Wild Draw card waits, only by its victim."""
        st = self.st
        if st.phase != CHALLENGE:
            rule = "CL.WD4.CHALLENGE.WHO"
            if self._flip:  # FL.LIGHT.W2.CHALLENGER, FL.DARK.WDC.CHALLENGER
                rule = _CHALLENGER_RULE["wdc" if st.side == "dark" else "wd2"]
            raise E.NotChallengeable("no Wild Draw card to challenge", rule)
        if a.player != st.current:
            # CL.WD4.CHALLENGE.WHO, FL.LIGHT.W2.CHALLENGER, FL.DARK.WDC.CHALLENGER: only
            # the next player may challenge
            raise E.NotChallengeable(f"only P{st.current} may challenge",
                                     _CHALLENGER_RULE.get(self.challenged(),
                                                          "CL.WD4.CHALLENGE.WHO"))

    # ---- guards ----------------------------------------------------------------------
    def challengeable(self, action: Action | None = None) -> bool:
        """CL.WD4.CHALLENGE.DECISION: a Wild Draw Four (not ending the hand) may be challenged;
        FL.LIGHT.W2.CHALLENGER, FL.DARK.WDC.CHALLENGER: so may a Wild Draw Two or Wild Draw
        Colour (FL.END.GO-OUT-NO-CHALLENGE: not a last card, `goes_out` is tried first)."""
        if action is None or action.card is None:
            return False
        # (FL.PLAY.ACTIVE-SIDE: `Card.on`, as `face` reads it, without the call)
        return action.card.on[self.st.side].kind in self.challenge_kinds

    def guilty(self, action: Action | None = None) -> bool:
        """CL.WD4.CHALLENGE.GUILTY: the challenged Wild Draw Four was illegal."""
        return not self.st.challenge_legal

    # ---- effects ---------------------------------------------------------------------
    def wild_draw_effect(self, actor: int, f: Face, a: Action) -> bool:
        """CL.WD4.EFFECT, FL.LIGHT.W2.EFFECT, FL.DARK.WDC.EFFECT without a challenge (the
        ruleset disables it): the next player draws and is skipped."""
        ch = self.p.challenges.get(f.kind)
        if ch is None:
            raise NotImplementedError(f"card kind {f.kind!r} (not a card of this ruleset)")
        self.penalty(self.seat(actor), ch.draw, a.color, CHALLENGE_RULES[f.kind][0])
        self.st.current = self.seat(actor, 2)
        return True

    def play_challengeable(self, action: Action | None = None) -> None:
        """CL.WD4.EFFECT: colour named; the next player must challenge or accept."""
        a = action
        assert a is not None
        st = self.st
        actor = st.current
        before = st.active_color
        # CL.DRAW.DRAWN-WD4: a drawn WD4 comes here too, judged on the hand held now.
        # CL.WD4.LEGAL, CL.WD4.LEGAL-OTHER-MATCHES, CL.WD4.LEGALITY-TIME: judged on the hand at
        # the moment of the play against the colour active before it (Wilds have no colour)
        # FL.LIGHT.W2.LEGAL, FL.DARK.WDC.LEGAL, FL.PLAY.ACTIVE-FACES-ONLY (RUL.FLIP.WILD-DRAW-
        # LEGALITY); FL.LIGHT.W2.BLUFF, FL.DARK.WDC.BLUFF. With no colour active (a Wild face
        # turned up by a flip) no card can be of it: the card is legal.
        face = self.face
        legal = before is None or not any(
            face(c).color == before for c in st.hands[actor] if c is not a.card)
        f = self.place(a)
        st.challenge_by = actor
        st.challenge_legal = legal  # CL.WD4.BLUFF-ACCEPTED: an illegal one is played all the same
        st.current = self.seat(actor)
        for hook in self.hooks.on_challengeable:  # e.g. V.STACK.W4-ON-W4
            hook(actor, f, a)
        self.after_play(a, actor)

    def challenge_guilty(self, action: Action | None = None) -> None:
        """CL.WD4.CHALLENGE.GUILTY, CL.WD4.CHALLENGE.GUILTY-TURN, CL.WD4.CHALLENGE.COLOUR;
        FL.LIGHT.W2.GUILTY, FL.DARK.WDC.GUILTY (RUL.FLIP.CHALLENGE.AFTER-GUILTY: the challenger
        plays), FL.LIGHT.W2.COLOUR-STANDS, FL.DARK.WDC.COLOUR-STANDS."""
        st = self.st
        by = st.challenge_by
        assert by is not None
        self.show(by)
        kind = self.challenged()
        if not any(h(by, "guilty") for h in self.hooks.settle_penalty):
            self.penalty(by, self.p.challenges[kind].guilty, st.active_color,
                         CHALLENGE_RULES[kind][1])
        st.challenge_by = None
        # the challenger (st.current) takes the turn

    def challenge_innocent(self, action: Action | None = None) -> None:
        """CL.WD4.CHALLENGE.INNOCENT; CL.TWO.WD4-AGAIN; FL.LIGHT.W2.INNOCENT (2 + 2),
        FL.DARK.WDC.INNOCENT (until the colour, then 2: RUL.FLIP.WDC.INNOCENT-EXTRA)."""
        st = self.st
        by = st.challenge_by
        assert by is not None
        self.show(by)
        victim = st.current
        kind = self.challenged()
        ch = self.p.challenges[kind]
        rule = CHALLENGE_RULES[kind][2]
        if any(h(victim, "innocent") for h in self.hooks.settle_penalty):
            pass
        elif ch.innocent == UNTIL_COLOUR:
            self.give_until(victim, st.active_color, rule, ch.extra)
        else:
            self.give(victim, ch.innocent, rule)
        st.challenge_by = None
        st.current = self.seat(victim)

    def accept_penalty(self, action: Action | None = None) -> None:
        """CL.WD4.ACCEPT; CL.TWO.WD4-AGAIN; FL.LIGHT.W2.ACCEPT, FL.DARK.WDC.ACCEPT;
        FL.TWO.PLAY-AGAIN."""
        st = self.st
        victim = st.current
        kind = self.challenged()
        if not any(h(victim, "accept") for h in self.hooks.settle_penalty):
            self.penalty(victim, self.p.challenges[kind].draw, st.active_color,
                         CHALLENGE_RULES[kind][0])
        st.challenge_by = None
        st.current = self.seat(victim)

    def show(self, by: int) -> None:
        """CL.WD4.CHALLENGE.SHOW, FL.LIGHT.W2.SHOW-HAND, FL.DARK.WDC.CHALLENGER: the hand is
        shown to the challenger only."""
        st = self.st
        # the challenger's view: `shown`
        st.shown[st.current] = (by, [self.face(c).text for c in st.hands[by]])
        self.events.append(Event("shown", by, cards=tuple(st.hands[by]), count=st.current,
                                 rule=_SHOW_RULE[self.challenged()]))
