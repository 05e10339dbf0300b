"""The rules: validation, guards and effects over one `State`.

`Rules` is the model of the turn-phase machine (uno_fsm.phases.TurnPhases): each `cond` of the
machine names a guard method here and each `on` names an effect method. Every rule is coded
once, next to a comment naming its rule ID (spec/rules/*.yaml). Validation (`validate`) runs
before any effect and raises an `IllegalAction` without touching the state.

Guards and effects take `(self, action)`; eventless transitions pass `action=None`.
CL.PLAY.NO-TRADE: no effect of the base rules moves a card from one hand to another (only the
variant swaps, V.SEVENO.*, and the 2018 Wild Shuffle Hands, CL18.WSH.*, do).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from uno_fsm import errors as E
from uno_fsm.actions import EVENT_OF, FORMED, Action, Event, check_form
from uno_fsm.cards import Card, Face
from uno_fsm.deck import build_deck
from uno_fsm.params import UNTIL_COLOUR, Params
from uno_fsm.state import CLOCKWISE, COUNTERCLOCKWISE, State

# V.SWAP.FIRST-CARD (RUL.SWAP.FIRST-CARD): a Wild Swap Hands turned first follows the base's
# `first_card.special_wild` policy, as a plain Wild (no hands are swapped)
SPECIAL_WILDS = frozenset({"wild_shuffle_hands", "custom_wild", "wild_swap_hands"})
SWAP_CARD = "wild_swap_hands"  # V.SWAP.CARD (variant swap-hands)
DRAW_KINDS = frozenset({"draw2", "draw1", "draw5"})
# rule IDs of the draw cards: kind -> (effect, going out on it)
DRAW_RULES: dict[str, tuple[str, str]] = {
    "draw2": ("CL.D2.EFFECT", "CL.END.LAST-D2"),
    "draw1": ("FL.LIGHT.D1.EFFECT", "FL.END.GO-OUT-DRAW"),
    "draw5": ("FL.DARK.D5.EFFECT", "FL.END.GO-OUT-DRAW"),
}
# rule IDs of the challengeable Wild Draw cards: kind -> (accept, guilty, innocent, going out)
CHALLENGE_RULES: dict[str, tuple[str, str, str, str]] = {
    "wd4": ("CL.WD4.ACCEPT", "CL.WD4.CHALLENGE.GUILTY", "CL.WD4.CHALLENGE.INNOCENT",
            "CL.END.LAST-WD4"),
    "wd2": ("FL.LIGHT.W2.ACCEPT", "FL.LIGHT.W2.GUILTY", "FL.LIGHT.W2.INNOCENT",
            "FL.END.GO-OUT-DRAW"),
    "wdc": ("FL.DARK.WDC.ACCEPT", "FL.DARK.WDC.GUILTY", "FL.DARK.WDC.INNOCENT",
            "FL.END.GO-OUT-DRAW"),
}
# CL.FIRST.WD4, CL22.FIRST.IGNORE, FL.FIRST.WILD-DRAW-TWO: policies after which another card is
# turned; CL.FIRST.UNRESOLVABLE: a first card needs a card of another policy in the draw pile
RETURN = "return-shuffle-and-turn-again"
TURN_AGAIN = frozenset({RETURN, "ignore-and-turn-again"})
FIRST_CARD_TURNS = 64  # turns per card in the draw pile before the first-card loop gives up
DEALER_DRAWS = 10_000  # rounds of the dealer draw before it gives up (CL.DEALER.UNRESOLVABLE)
TURN_KINDS = frozenset({"play", "draw", "pass", "color"})
WINDOW_EVENTS = frozenset({"call_uno", "catch"})  # CL.UNO.WINDOW: these keep the window open
DECISIONS = {
    "play": "play",
    "play_drawn": "play-drawn",
    "choose_color": "color",
    "challenge": "challenge",
    "swap": "swap",
    "round_over": "round-over",
    "dealing": "dealing",
    "game_over": "none",
}


class Rules:
    """Validators, guards and effects; the model object of TurnPhases."""

    __slots__ = ("st", "p", "events", "_allowed", "_flip", "_formed")

    def __init__(self, state: State, params: Params, allowed: dict[str, dict[str, object]]):
        self.st = state
        self.p = params
        self._flip = params.game == "flip"
        self._formed = FORMED[self._flip]  # actions known well formed for this game
        self.events: list[Event] = []
        self._allowed = allowed  # phase -> event -> edges (the machine's table)

    # the machine stores its configuration here (state_field="phase")
    @property
    def phase(self) -> str:
        return self.st.phase

    @phase.setter
    def phase(self, value: str) -> None:
        self.st.phase = value

    # ---- helpers ---------------------------------------------------------------------
    def face(self, card: Card) -> Face:
        return card.dark if self.st.side == "dark" and card.dark is not None else card.light

    def top(self) -> Face | None:
        st = self.st
        return self.face(st.discard[-1]) if st.discard else None

    def seat(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` places from `seat` in the direction of play."""
        st = self.st
        return (seat + st.direction * steps) % st.players

    def playable(self, cards: Iterable[Card]) -> list[Card]:
        """The cards among `cards` that may be played on the discard pile now (the one copy of
        the matching rule; `matches` and `legal_actions` use it)."""
        st = self.st
        if st.stack:
            # V.STACK.D2-ON-D2, V.STACK.D2-ANY-COLOUR, V.STACK.W4-ON-W4, V.STACK.NO-CROSS
            # (RUL.STACK.CROSS): facing a penalty, only the same symbol, of any colour
            kinds = ("draw2", "wd4") if self.p.stack_cross else (self.top().kind,)  # type: ignore[union-attr]
            return [c for c in cards if self.face(c).kind in kinds]
        color = st.active_color
        discard = st.discard
        top = self.face(discard[-1]) if discard else None
        # CL.PLAY.MATCH-ON-WILD: on a Wild only the declared colour matches
        rank = None if top is None or top.is_wild else top.rank
        if color is None and rank is None and top is not None:
            # FL.FLIP.NEW-TOP-WILD: a Wild face turned up by a flip leaves no colour active;
            # any card may be played (and sets the colour)
            return list(cards)
        # FL.PLAY.ACTIVE-SIDE, FL.PLAY.ACTIVE-FACES-ONLY: only the faces of the side in play
        # count (FL.LIGHT.D1.MATCH, FL.LIGHT.REVERSE.MATCH, FL.LIGHT.SKIP.MATCH,
        # FL.DARK.D5.MATCH, FL.DARK.REVERSE.MATCH, FL.DARK.SE.MATCH and FL.FLIP.MATCH are this
        # same colour-or-symbol match)
        dark = st.side == "dark"
        out: list[Card] = []
        for card in cards:
            f = card.dark if dark and card.dark is not None else card.light
            if (
                f.is_wild  # CL.PLAY.WILD-ANYTIME (a WD4 too: CL.WD4.BLUFF-ACCEPTED); CL18.ANYTIME
                or f.color == color  # CL.PLAY.MATCH-COLOUR
                # CL.PLAY.MATCH-NUMBER, CL.PLAY.MATCH-SYMBOL (CL.D2.MATCH: Draw Two on Draw Two)
                or f.rank == rank
            ):
                out.append(card)
        return out

    def matches(self, card: Card) -> bool:
        """Whether `card` may be played now (CL.PLAY.MATCH)."""
        return bool(self.playable((card,)))

    def reshuffle(self) -> bool:
        """CL.RESHUFFLE.KEEP-TOP: the top discard stays, the rest becomes the draw pile (no
        loop; the callers stop when it returns False)."""
        st = self.st
        if len(st.discard) <= 1:
            return False  # CL.RESHUFFLE.BOTH-EMPTY
        top = st.discard.pop()
        rest = st.discard
        st.discard = [top]
        st.rng.shuffle(rest)
        rest.extend(st.draw)
        st.draw = rest
        # CL.RESHUFFLE.WILD-COLOUR: the active colour is unchanged (it belongs to the kept top)
        # CL.RESHUFFLE.CONTINUE: the hand goes on
        self.events.append(Event("reshuffled", count=len(rest), rule="CL.RESHUFFLE.KEEP-TOP"))
        return True

    def give(self, seat: int, n: int, rule: str) -> tuple[Card, ...]:
        """`seat` draws `n` cards (CL.PEN.FROM-DRAW-PILE, CL.RESHUFFLE.WHEN). Bounded: n
        turns, and it stops when both piles are empty (however large a ruleset's penalty)."""
        st = self.st
        hand = st.hands[seat]
        got: list[Card] = []
        draw = st.draw
        for _ in range(n):
            if not draw:
                if not self.reshuffle():
                    break  # CL.RESHUFFLE.BOTH-EMPTY: the draw stops short
                draw = st.draw
            card = draw.pop()
            hand.append(card)
            got.append(card)
        out = tuple(got)
        self.events.append(Event("drew", seat, cards=out, count=len(out), rule=rule))
        return out

    def give_until(self, seat: int, color: str | None, rule: str, extra: int = 0) -> None:
        """FL.DARK.WDC.DRAW-UNTIL (RUL.FLIP.WDC.UNTIL-DRAWN): `seat` draws until a drawn card's
        active face has `color` (at least one card; Wild faces do not stop it), then `extra`
        more (FL.DARK.WDC.INNOCENT, RUL.FLIP.WDC.INNOCENT-EXTRA). FL.DARK.WDC.EXHAUSTED: an empty
        draw pile is refilled by the usual reshuffle; with nothing left to draw it stops.
        Bounded: every turn of the loop moves one card from the draw pile into the hand and
        none goes back (a reshuffle only moves discards under the top into the draw pile), so
        it ends within len(draw) + len(discard) - 1 cards."""
        st = self.st
        hand = st.hands[seat]
        got: list[Card] = []
        face = self.face
        while True:
            if not st.draw and not self.reshuffle():
                break  # FL.DARK.WDC.EXHAUSTED, CL.RESHUFFLE.BOTH-EMPTY
            card = st.draw.pop()
            hand.append(card)
            got.append(card)
            if color is not None and face(card).color == color:
                break
        out = tuple(got)
        self.events.append(Event("drew", seat, cards=out, count=len(out), rule=rule))
        if extra:
            self.give(seat, extra, rule)

    def penalty(self, seat: int, n: int, color: str | None, rule: str) -> None:
        """Draw `n` cards, or until `color` when `n` is UNTIL_COLOUR (Wild Draw Colour)."""
        if n == UNTIL_COLOUR:
            self.give_until(seat, color, rule)
        else:
            self.give(seat, n, rule)

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

    def partner(self, seat: int) -> int:
        """PARTNERS.SEATING (RUL.PARTNERS.TEAMS): seat i partners seat i + n/2 (n even)."""
        n = self.st.players
        return (seat + n // 2) % n

    def color_ok(self, color: str | None) -> bool:
        return color in self.p.colors_of(self.st.side)  # CL.WILD.FOUR-COLOURS

    # ---- validation ------------------------------------------------------------------
    def validate(self, a: Action) -> str:
        """Check `a` against the rules; return the machine event to send. Changes nothing."""
        st = self.st
        phase = st.phase
        n = st.players
        # CL.PLAY.TURN-OPTIONS: anything but an Action of this game's cards is malformed-action
        if id(a) not in self._formed:
            check_form(a, self._flip)
        if phase == "game_over":
            raise E.GameOver("the game is over", "CL.END.NO-PENDING")
        kind = a.kind
        event = EVENT_OF[kind]
        actor = a.player
        if kind in ("hint", "wrong-card", "catch", "swap"):
            if a.target is None or not 0 <= a.target < n:
                raise E.MalformedAction(f"{kind}: a target seat 0..{n - 1} is required")
        if kind not in ("hint", "wrong-card", "next-round"):
            if actor is None or not 0 <= actor < n:
                raise E.MalformedAction(f"{kind}: a player seat 0..{n - 1} is required")
        elif kind == "next-round" and (actor is not None or a.target is not None):
            # nobody in particular deals the next round: legal_actions lists it seatless
            raise E.MalformedAction("next-round names no seat")
        allowed = self._allowed[phase]
        if phase == "round_over" and event not in allowed:
            raise E.RoundOver("the round is over", "CL.END.NO-PENDING")
        if kind in ("challenge", "accept"):
            if phase != "challenge":
                rule = "CL.WD4.CHALLENGE.WHO"
                if self.p.game == "flip":  # FL.LIGHT.W2.CHALLENGER, FL.DARK.WDC.CHALLENGER
                    rule = _CHALLENGER_RULE["wdc" if st.side == "dark" else "wd2"]
                raise E.NotChallengeable("no Wild Draw card to challenge", rule)
            if actor != st.current:
                # CL.WD4.CHALLENGE.WHO, FL.LIGHT.W2.CHALLENGER, FL.DARK.WDC.CHALLENGER: only
                # the next player may challenge
                raise E.NotChallengeable(f"only P{st.current} may challenge",
                                         _CHALLENGER_RULE.get(self._challenged(),
                                                              "CL.WD4.CHALLENGE.WHO"))
            return event
        if kind == "swap":
            if phase != "swap":
                raise E.NoSwapPending("no swap is pending", "V.SEVENO.SEVEN-PENDING")
            # V.SWAP.TARGET: a Wild Swap Hands's swap is owed by its player, with another player
            card_swap = self._challenged() == SWAP_CARD
            if actor != st.current:
                raise E.NotYourTurn(f"P{st.current} chooses the swap",
                                    "V.SWAP.TARGET" if card_swap else "V.SEVENO.SEVEN-PENDING")
            if a.target == actor:
                raise E.NoSwapPending("swap with another player",
                                      "V.SWAP.TARGET" if card_swap else "V.SEVENO.SEVEN-TARGET")
            return event
        if kind in TURN_KINDS:
            if actor != st.current:
                if kind == "play" and self.p.jump_in:
                    return self._validate_jump(a)
                # CL.PLAY.OUT-OF-TURN (no jump-in in the base rules)
                raise E.NotYourTurn(f"P{st.current} owes the decision", "CL.PLAY.OUT-OF-TURN")
            if phase == "challenge" and kind == "play" and not self.p.stacking:
                # CL.WD4.CHALLENGE.DECISION; V.STACK.NOT-OFFICIAL: nothing is stacked on it
                raise E.WrongDecision("challenge or accept the Wild Draw card",
                                      "CL.WD4.CHALLENGE.DECISION")
            if event not in allowed:
                raise E.WrongDecision(
                    f"{kind} does not answer the pending {DECISIONS[phase]!r} decision",
                    _WRONG_DECISION_RULE.get((phase, kind), "CL.PLAY.TURN-OPTIONS"),
                )
            if kind == "play":
                self._validate_play(a)
            elif kind == "color":
                if not self.color_ok(a.color):
                    raise E.InvalidColor(f"{a.color!r} is not a colour in play",
                                         "CL.WILD.FOUR-COLOURS")
            return event
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
                    phase != "play_drawn" or a.card is st.drawn
                )
                if legal:
                    raise E.WrongDecision(f"{a.card} may be played: it is not a wrong card",
                                          "CL.PEN.WRONG-CARD-TURN-OWNER")
        return event

    def _validate_play(self, a: Action) -> None:
        st = self.st
        card = a.card
        if card is None:
            raise E.MalformedAction("play: a card is required")
        hand = st.hands[st.current]
        if card not in hand:
            raise E.CardNotInHand(f"P{st.current} holds no {card}", "CL.PLAY.TURN-OPTIONS")
        if st.phase == "play_drawn" and card is not st.drawn:
            raise E.OnlyDrawnCard(f"only the drawn {st.drawn} may be played", "CL.DRAW.ONLY-DRAWN")
        f = self.face(card)
        if st.stack and not self.matches(card):
            # V.STACK.D2-ON-D2, V.STACK.W4-ON-W4, V.STACK.NO-CROSS: facing a penalty, only a
            # card of the same symbol may be played (or the penalty drawn: V.STACK.TAKE-ALL)
            rule = "V.STACK.NO-CROSS" if f.kind in ("draw2", "wd4") else "V.STACK.TAKE-ALL"
            raise E.CardDoesNotMatch(f"{card} cannot be stacked on {self.top()}", rule)
        if not self.matches(card):  # CL.PLAY.ILLEGAL-REJECTED
            top = self.top()
            rule = "CL.PLAY.MATCH-ON-WILD" if top is not None and top.is_wild else "CL.PLAY.MATCH"
            raise E.CardDoesNotMatch(f"{card} does not match {top} / {st.active_color}", rule)
        if f.is_wild:
            if a.color is None:
                # CL.END.LAST-OTHER: a last Wild needs no colour, except a Wild Draw Colour,
                # whose colour the next player draws to (FL.END.GO-OUT-DRAW)
                if len(hand) != 1 or f.kind == "wdc":
                    raise E.ColorRequired("name a colour for the Wild", "CL.WILD.COLOUR")
            elif not self.color_ok(a.color):
                raise E.InvalidColor(f"{a.color!r} is not a colour in play", "CL.WILD.FOUR-COLOURS")
        elif a.color is not None:
            raise E.MalformedAction(f"{card} is not a Wild: no colour is named with it")
        if a.uno and (len(hand) != 2 or not self.p.uno_call_with_play):
            # CL.UNO.CALL-INVALID: UNO is called with the second-to-last card only
            raise E.NoUnoWindow("UNO is called with the second-to-last card", "CL.UNO.CALL-INVALID")

    def jump_card(self, seat: int, card: Card) -> bool:
        """V.JUMPIN.IDENTICAL, V.JUMPIN.NOT-WILD (RUL.JUMPIN.WHICH-CARDS): `card` is a coloured
        card identical (colour and number or symbol) to the top discard."""
        top = self.top()
        f = self.face(card)
        return (top is not None and not f.is_wild and f.color == top.color
                and f.kind == top.kind and f.rank == top.rank)

    def jump_open(self) -> bool:
        """V.JUMPIN.TIMING (RUL.JUMPIN.TIMING): only while the turn owner's play-or-draw
        decision is pending; RUL.VARIANTS.JUMPIN-STACKING: not while a penalty is pending."""
        st = self.st
        return st.phase == "play" and not st.stack

    def _validate_jump(self, a: Action) -> str:
        """An out-of-turn play under Jump-In: the `jump_in` event, or NotYourTurn."""
        st = self.st
        card = a.card
        actor = a.player
        assert actor is not None
        if card is None:
            raise E.MalformedAction("play: a card is required")
        if not self.jump_open():
            raise E.NotYourTurn(f"P{st.current} owes the decision; no jump-in now",
                                "V.JUMPIN.TIMING")
        hand = st.hands[actor]
        if card not in hand:
            raise E.CardNotInHand(f"P{actor} holds no {card}", "V.JUMPIN.IDENTICAL")
        if not self.jump_card(actor, card):
            # V.JUMPIN.NOT-MATCHING, V.JUMPIN.NOT-WILD: only an identical card jumps in
            raise E.NotYourTurn(f"{card} is not identical to {self.top()}",
                                "V.JUMPIN.NOT-MATCHING")
        if a.color is not None:
            raise E.MalformedAction(f"{card} is not a Wild: no colour is named with it")
        if a.uno and (len(hand) != 2 or not self.p.uno_call_with_play):
            # V.JUMPIN.GO-OUT, CL.UNO.CALL-INVALID
            raise E.NoUnoWindow("UNO is called with the second-to-last card", "CL.UNO.CALL-INVALID")
        return "jump_in"

    def begin(self, event: str) -> None:
        """Before any effect: CL.UNO.WINDOW closes at the next action that is neither an UNO
        call nor a catch (CL.UNO.LATE-CATCH). CL.UNO.WINDOW-FORCED-DRAW: the cards a Draw Two
        makes the next player draw are the card's effect, not an action: they do not close it."""
        if event not in WINDOW_EVENTS:
            self.st.uno_window = None

    # ---- guards ----------------------------------------------------------------------
    def goes_out(self, action: Action | None = None) -> bool:
        """CL.END.OUT: the card played is the player's last (CL.UNO.GO-OUT-UNCALLED: whether or
        not UNO was called)."""
        return len(self.st.hands[self.st.current]) == 1

    def jumper_goes_out(self, action: Action | None = None) -> bool:
        """V.JUMPIN.GO-OUT: the jumped-in card is the jumper's last."""
        return action is not None and len(self.st.hands[action.player or 0]) == 1

    def stack_pending(self, action: Action | None = None) -> bool:
        """V.STACK.TAKE-ALL: the turn owner faces an accumulated penalty."""
        return self.st.stack > 0

    def needs_swap(self, action: Action | None = None) -> bool:
        """V.SEVENO.SEVEN-SWAP, V.SEVENO.SEVEN-PENDING (variant seven-o): a 7 makes its player
        choose a hand to swap with (V.SEVENO.LAST-CARD: not when it is the last card).
        V.SEVENO.BASES: Params.seven_o is only set by classic compositions.
        V.SWAP.EFFECT, V.SWAP.TARGET (variant swap-hands): a Wild Swap Hands makes its player
        choose a hand to swap with (V.SWAP.LAST-CARD, RUL.VARIANTS.SWAP-ON-LAST-CARD: not when
        it is the last card: `goes_out` is tried first). V.SWAP.BASES: the card is only in the
        decks of classic compositions."""
        p = self.p
        if not (p.seven_o or p.swap_card) or action is None or action.card is None:
            return False
        f = self.face(action.card)
        return (p.swap_card and f.kind == SWAP_CARD) or (p.seven_o and f.rank == "7")

    def challengeable(self, action: Action | None = None) -> bool:
        """CL.WD4.CHALLENGE.DECISION: a Wild Draw Four (not ending the hand) may be challenged;
        FL.LIGHT.W2.CHALLENGER, FL.DARK.WDC.CHALLENGER: so may a Wild Draw Two or Wild Draw
        Colour (FL.END.GO-OUT-NO-CHALLENGE: not a last card, `goes_out` is tried first)."""
        if action is None or action.card is None:
            return False
        ch = self.p.challenges.get(self.face(action.card).kind)
        return ch is not None and ch.allowed

    def drawn_unplayable(self, action: Action | None = None) -> bool:
        """CL.DRAW.UNPLAYABLE-PASSES."""
        d = self.st.drawn
        return d is None or not self.matches(d)

    def guilty(self, action: Action | None = None) -> bool:
        """CL.WD4.CHALLENGE.GUILTY: the challenged Wild Draw Four was illegal."""
        return not self.st.challenge_legal

    def first_card_color(self, action: Action | None = None) -> bool:
        """CL.FIRST.WILD: a Wild turned first awaits its colour."""
        return self.st.first_color

    def target_reached(self, action: Action | None = None) -> bool:
        """CL.SCORE.TARGET, FL.GAME.TARGET-500, FLALT.END-500 (RUL.FLALT.REACH: 500 or more,
        checked when the round is scored); CL22.SCORE.ONE-HAND (no target: one hand decides
        the game); PARTNERS.TARGET: a team's total is each partner's score."""
        target = self.p.target
        return target is None or max(self.st.scores) >= target

    # ---- effects of a play -----------------------------------------------------------
    def _place(self, a: Action) -> Face:
        """CL.PLAY.DISCARD-FACE-UP: the card leaves the hand and tops the discard pile."""
        st = self.st
        card = a.card
        assert card is not None
        actor = st.current
        st.hands[actor].remove(card)
        st.discard.append(card)
        st.drawn = None
        f = self.face(card)
        # CL.WILD.COLOUR, CL.WILD.SAME-COLOUR, CL18.COLOUR; a coloured card sets its own colour
        st.active_color = a.color if f.is_wild else f.color
        self.events.append(Event("played", actor, card, color=st.active_color,
                                 rule="CL.PLAY.MATCH"))
        return f

    def _after_play(self, a: Action, actor: int) -> None:
        """CL.UNO.MUST-CALL: holding one card without calling opens the catch window
        (FL.UNO.ANY-SIDE: on either side, after a Flip card too)."""
        st = self.st
        if len(st.hands[actor]) == 1:
            if a.uno:  # CL.UNO.CALL-WITH-PLAY
                self.events.append(Event("uno", actor, rule="CL.UNO.CALL-WITH-PLAY"))
            else:
                st.uno_window = actor

    def play_out(self, action: Action | None = None) -> None:
        """CL.END.OUT: the player's last card ends the hand; the hand is scored."""
        a = action
        assert a is not None
        st, p = self.st, self.p
        winner = st.current
        f = self._place(a)
        kind = f.kind
        # V.STACK.GO-OUT (RUL.STACK.GO-OUT): going out on a stack, the next player draws the
        # whole accumulated penalty (the pending one plus the last card's)
        stacked = st.stack
        st.stack = 0
        if p.last_card_draw:
            victim = self.seat(winner)
            if kind in DRAW_KINDS:  # CL.END.LAST-D2, FL.END.GO-OUT-DRAW, FL.END.GO-OUT-COUNT
                self.give(victim, p.draws[kind] + stacked,
                          "V.STACK.GO-OUT" if stacked else DRAW_RULES[kind][1])
            elif kind in p.challenges:
                # CL.END.LAST-WD4, FL.END.GO-OUT-DRAW, FL.END.GO-OUT-NO-CHALLENGE (no challenge;
                # RUL.FLIP.GO-OUT-DRAW-CHALLENGE)
                if stacked:
                    self.give(victim, p.challenges[kind].draw + stacked, "V.STACK.GO-OUT")
                else:
                    self.penalty(victim, p.challenges[kind].draw, a.color,
                                 CHALLENGE_RULES[kind][3])
        if kind == "flip":  # FL.END.GO-OUT-FLIP (RUL.FLIP.GO-OUT-ON-FLIP): flip, then score
            self.flip()
        # CL.END.LAST-OTHER: no other effect; CL18.WSH.LAST-CARD: no redistribution
        # CL.SCORE.WINNER, CL.SCORE.NUMBERS, CL.SCORE.ACTIONS, CL.SCORE.WILDS, CL18.SCORE,
        # CL22.SCORE.WILDS-50, FL.SCORE.NUMBER, FL.SCORE.DRAW-ONE, FL.SCORE.DRAW-FIVE,
        # FL.SCORE.REVERSE, FL.SCORE.SKIP, FL.SCORE.SKIP-EVERYONE, FL.SCORE.FLIP,
        # FL.SCORE.WILD, FL.SCORE.WILD-DRAW-TWO, FL.SCORE.WILD-DRAW-COLOUR (FL.SCORE.SIDE,
        # RUL.FLIP.SCORING-SIDE: the faces of the side in play now): the points table is the
        # ruleset's
        # FL.SCORE.LIGHT-SIDE (variant flip-light-scoring, RUL.FLIP.SCORING-SIDE): the light faces
        side, face = ("light", _light) if p.light_scoring else (st.side, self.face)
        held = [sum(p.points_of(g.kind, g.number, side) for g in map(face, hand))
                for hand in st.hands]
        if p.alt_scoring:
            # FLALT.OWN-HAND, FLALT.NO-COLLECT (the winner holds nothing), FLALT.VALUES,
            # FLALT.GO-OUT-DRAWS (RUL.FLALT.WHAT-COUNTS)
            for seat, value in enumerate(held):
                st.scores[seat] += value
            points = held[winner]
        elif p.partners:
            # PARTNERS.END: either partner going out ends the hand (CL.END.OUT, as for anyone);
            # PARTNERS.SCORE, PARTNERS.TARGET (RUL.PARTNERS.SCORING): the opposing players'
            # cards only, scored for the team: both partners' `scores` carry the team total
            # (PARTNERS.SEATING, PARTNERS.FIXED: the partner is always the opposite seat)
            mate = self.partner(winner)
            points = sum(v for s, v in enumerate(held) if s not in (winner, mate))
            st.scores[winner] += points
            st.scores[mate] += points
        else:
            # CL.SCORE.WINNER, FL.SCORE.WINNER; CL.SCORE.ACCUMULATE, FL.GAME.ACCUMULATE
            points = sum(held) - held[winner]
            st.scores[winner] += points
        st.round_winner = winner
        st.uno_window = None
        self.events.append(Event("went-out", winner, count=points, rule="CL.SCORE.WINNER"))

    def play_effect(self, action: Action | None = None) -> None:
        """A card with its effect; then the next player's turn (CL.PLAY.ONE-CARD)."""
        a = action
        assert a is not None
        st, p = self.st, self.p
        actor = st.current
        f = self._place(a)
        kind = f.kind
        if kind == "number":
            st.current = self.seat(actor)
            if p.seven_o and f.rank == "0":
                self._rotate_hands()
                return  # V.SEVENO.UNO: a rotated one-card hand owes no call
        # CL.SKIP.EFFECT, FL.LIGHT.SKIP.EFFECT; CL.TWO.SKIP-AGAIN (2 players: seat + 2 = self)
        elif kind == "skip":
            self.events.append(Event("skipped", self.seat(actor), rule="CL.SKIP.EFFECT"))
            st.current = self.seat(actor, 2)
        elif kind == "reverse":
            # CL.REVERSE.EFFECT, FL.LIGHT.REVERSE.EFFECT, FL.DARK.REVERSE.EFFECT;
            # CL.TWO.REVERSE-DIRECTION: the direction turns with 2 players too; FL.TWO.REVERSE
            st.direction = COUNTERCLOCKWISE if st.direction == CLOCKWISE else CLOCKWISE
            self.events.append(Event("reversed", actor, rule="CL.REVERSE.EFFECT"))
            if st.players == 2 and p.reverse_as_skip_two:  # CL.TWO.SCOPE: exactly two players
                st.current = actor  # CL.TWO.REVERSE-SKIP
            else:
                st.current = self.seat(actor)  # CL.REVERSE.NEXT
        # CL.D2.EFFECT, CL.D2.NO-STACK (V.STACK.NOT-OFFICIAL); CL.TWO.D2-AGAIN;
        # FL.LIGHT.D1.EFFECT, FL.DARK.D5.EFFECT; FL.TWO.PLAY-AGAIN
        elif kind in DRAW_KINDS:
            if p.stacking and kind == "draw2":
                self._stack(actor, card=a.card, n=p.draws[kind])
            else:
                self.give(self.seat(actor), p.draws[kind], DRAW_RULES[kind][0])
                st.current = self.seat(actor, 2)
        elif kind == "flip":  # FL.FLIP.NEXT-PLAYER: a Flip card skips nobody
            self.flip()
            st.current = self.seat(actor)
        elif kind == "skip_everyone":
            # FL.DARK.SE.EFFECT (RUL.FLIP.SKIP-EVERYONE.WORDING): every other player is
            # skipped, the player plays again; FL.TWO.PLAY-AGAIN
            self.events.append(Event("skipped-everyone", actor, rule="FL.DARK.SE.EFFECT"))
            st.current = actor
        elif kind in p.challenges and p.stacking and kind == "wd4":
            self._stack(actor, card=a.card, n=p.challenges[kind].draw)  # (challenge disabled)
        elif kind in p.challenges:
            # CL.WD4.EFFECT, FL.LIGHT.W2.EFFECT, FL.DARK.WDC.EFFECT without a challenge (the
            # ruleset disables it)
            self.penalty(self.seat(actor), p.challenges[kind].draw, a.color,
                         CHALLENGE_RULES[kind][0])
            st.current = self.seat(actor, 2)
        elif kind == "wild_shuffle_hands":
            self._shuffle_hands(actor)
            st.current = self.seat(actor)  # CL18.WSH.NEXT
            return  # CL18.WSH.UNO: nobody can be caught after a redistribution
        # CL.WILD.NO-EFFECT, CL18.CUSTOM.PLAIN; FL.LIGHT.WILD.COLOUR, FL.DARK.WILD.COLOUR
        elif kind in ("wild", "custom_wild"):
            st.current = self.seat(actor)
        else:
            raise NotImplementedError(f"card kind {kind!r} (not a classic card)")
        self._after_play(a, actor)

    def _stack(self, actor: int, card: Card | None, n: int) -> None:
        """V.STACK.D2-ON-D2, V.STACK.W4-ON-W4, V.STACK.ACCUMULATE (variant stacking): the
        card's penalty is added to the pending one and passes, undrawn, to the next player,
        who stacks or takes it all (V.STACK.OPTIONAL, V.STACK.TAKE-ALL; V.STACK.WHO: only
        they may add to it)."""
        st = self.st
        st.stack += n
        st.challenge_by = None
        st.current = self.seat(actor)
        self.events.append(Event("stacked", actor, card, count=st.stack,
                                 rule="V.STACK.ACCUMULATE"))

    def take_stack(self, action: Action | None = None) -> None:
        """V.STACK.TAKE-ALL: the player facing the stack draws all of it and loses the turn;
        no card drawn this way may be played."""
        st = self.st
        victim = st.current
        self.give(victim, st.stack, "V.STACK.TAKE-ALL")
        st.stack = 0
        st.drawn = None
        st.current = self.seat(victim)

    def jump_seat(self, action: Action | None = None) -> None:
        """V.JUMPIN.IDENTICAL, V.JUMPIN.WHO (RUL.JUMPIN.WHO): the jumper takes the turn;
        V.JUMPIN.CONTINUES, V.JUMPIN.EFFECTS (RUL.JUMPIN.EFFECTS): the play that follows is an
        ordinary play from the jumper's seat, the players in between lose their turn."""
        a = action
        assert a is not None and a.player is not None
        st = self.st
        self.events.append(Event("jumped-in", a.player, a.card, count=st.current,
                                 rule="V.JUMPIN.IDENTICAL"))
        st.current = a.player
        st.drawn = None

    def _shuffle_hands(self, actor: int) -> None:
        """CL18.WSH.COLLECT, CL18.WSH.DEAL: collect every hand, shuffle, deal from seat + 1."""
        st = self.st
        pool: list[Card] = []
        for hand in st.hands:
            pool.extend(hand)
            hand.clear()
        st.rng.shuffle(pool)
        n = st.players
        seat = (actor + 1) % n  # dealt clockwise from the player's left, whatever the direction
        for card in pool:
            st.hands[seat].append(card)
            seat = (seat + 1) % n
        self.events.append(Event("hands-shuffled", actor, count=len(pool), rule="CL18.WSH.DEAL"))

    def _rotate_hands(self) -> None:
        """V.SEVENO.ZERO-ROTATE (variant seven-o): every hand passes to the next player in the
        direction of play; V.SEVENO.TWO-PLAYERS: with two, the hands swap."""
        st = self.st
        n = st.players
        old = st.hands
        new: list[list[Card]] = [[] for _ in range(n)]
        for seat in range(n):
            new[self.seat(seat)] = old[seat]
        st.hands = new
        self.events.append(Event("hands-rotated", rule="V.SEVENO.ZERO-ROTATE"))

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
        self._place(a)
        st.challenge_by = actor
        st.challenge_legal = legal  # CL.WD4.BLUFF-ACCEPTED: an illegal one is played all the same
        st.current = self.seat(actor)
        if self.p.stacking and self.face(a.card).kind == "wd4":  # type: ignore[arg-type]
            # V.STACK.W4-ON-W4, V.STACK.ACCUMULATE; V.STACK.W4-LEGAL (RUL.STACK.WD4-CHALLENGE):
            # judged like any Wild Draw Four, against the colour named below it
            st.stack += self.p.challenges["wd4"].draw
            self.events.append(Event("stacked", actor, a.card, count=st.stack,
                                     rule="V.STACK.ACCUMULATE"))
        self._after_play(a, actor)

    def play_swap(self, action: Action | None = None) -> None:
        """V.SEVENO.SEVEN-PENDING: the 7 is played; its player now chooses whom to swap with.
        V.SWAP.WILD, V.SWAP.TARGET: a Wild Swap Hands is played as a Wild (its colour named in
        the play, CL.WILD.COLOUR); its player then owes the swap decision."""
        a = action
        assert a is not None
        actor = self.st.current
        self._place(a)
        self._after_play(a, actor)

    def swap_hands(self, action: Action | None = None) -> None:
        """V.SEVENO.SEVEN-SWAP, V.SEVENO.TRADE-ALLOWED (the one exchange the rules allow),
        V.SEVENO.CONTINUE; V.SEVENO.UNO: the swap action closed the window.
        V.SWAP.EFFECT: a Wild Swap Hands swaps the whole hands the same way; V.SWAP.NEXT: the
        next player in the direction of play follows, on the colour named."""
        a = action
        assert a is not None and a.target is not None
        st = self.st
        actor = st.current
        card_swap = self._challenged() == SWAP_CARD
        st.hands[actor], st.hands[a.target] = st.hands[a.target], st.hands[actor]
        self.events.append(Event("hands-swapped", actor, count=a.target,
                                 rule="V.SWAP.EFFECT" if card_swap else "V.SEVENO.SEVEN-SWAP"))
        st.current = self.seat(actor)

    # ---- drawing ---------------------------------------------------------------------
    def draw_card(self, action: Action | None = None) -> None:
        """CL.DRAW.UNABLE, CL.DRAW.UNWILLING: draw instead of playing (the event names the one
        that applies: UNWILLING while the hand holds a card that could be played)."""
        st = self.st
        rule = "CL.DRAW.UNWILLING" if self.playable(st.hands[st.current]) else "CL.DRAW.UNABLE"
        got = self.give(st.current, self.p.draw_count, rule)
        st.drawn = got[-1] if got else None

    def pass_turn(self, action: Action | None = None) -> None:
        """CL.DRAW.KEEP, CL.DRAW.UNPLAYABLE-PASSES: the turn passes."""
        st = self.st
        st.drawn = None
        self.events.append(Event("passed", st.current, rule="CL.DRAW.KEEP"))
        st.current = self.seat(st.current)

    # ---- colour of a Wild turned first ----------------------------------------------
    def color_first(self, action: Action | None = None) -> None:
        """CL.FIRST.WILD: the player left of the dealer names the colour, then plays."""
        a = action
        assert a is not None
        st = self.st
        st.active_color = a.color
        st.first_color = False
        self.events.append(Event("color", st.current, color=a.color, rule="CL.FIRST.WILD"))

    # ---- challenge -------------------------------------------------------------------
    def _challenged(self) -> str:
        """The kind of the Wild Draw card waiting for its challenge (the top discard)."""
        return self.face(self.st.discard[-1]).kind

    def challenge_guilty(self, action: Action | None = None) -> None:
        """CL.WD4.CHALLENGE.GUILTY, CL.WD4.CHALLENGE.GUILTY-TURN, CL.WD4.CHALLENGE.COLOUR;
        FL.LIGHT.W2.GUILTY, FL.DARK.WDC.GUILTY (RUL.FLIP.CHALLENGE.AFTER-GUILTY: the challenger
        plays), FL.LIGHT.W2.COLOUR-STANDS, FL.DARK.WDC.COLOUR-STANDS."""
        st = self.st
        by = st.challenge_by
        assert by is not None
        self._show(by)
        kind = self._challenged()
        if st.stack:
            # V.STACK.W4-CHALLENGE (RUL.STACK.WD4-CHALLENGE): only the last card is judged;
            # its player draws the whole accumulated penalty
            self.give(by, st.stack, "V.STACK.W4-CHALLENGE")
            st.stack = 0
        else:
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
        self._show(by)
        victim = st.current
        kind = self._challenged()
        ch = self.p.challenges[kind]
        rule = CHALLENGE_RULES[kind][2]
        if st.stack:
            # V.STACK.W4-CHALLENGE (RUL.STACK.WD4-CHALLENGE): the accumulated penalty plus the
            # challenge's extra cards (innocent - draw: 6 - 4 = 2)
            self.give(victim, st.stack + ch.innocent - ch.draw, "V.STACK.W4-CHALLENGE")
            st.stack = 0
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
        kind = self._challenged()
        if st.stack:  # V.STACK.TAKE-ALL: the whole accumulated penalty
            self.give(victim, st.stack, "V.STACK.TAKE-ALL")
            st.stack = 0
        else:
            self.penalty(victim, self.p.challenges[kind].draw, st.active_color,
                         CHALLENGE_RULES[kind][0])
        st.challenge_by = None
        st.current = self.seat(victim)

    def _show(self, by: int) -> None:
        """CL.WD4.CHALLENGE.SHOW, FL.LIGHT.W2.SHOW-HAND: the hand is shown to the challenger
        only."""
        st = self.st
        # the challenger's view: `shown`
        st.shown[st.current] = (by, [self.face(c).text for c in st.hands[by]])
        self.events.append(Event("shown", by, cards=tuple(st.hands[by]), count=st.current,
                                 rule="CL.WD4.CHALLENGE.SHOW"))

    # ---- windows and table penalties -------------------------------------------------
    def uno_called(self, action: Action | None = None) -> None:
        """CL.UNO.CALL-LATE: called before being caught, the player is safe."""
        a = action
        assert a is not None
        self.st.uno_window = None
        self.events.append(Event("uno", a.player, rule="CL.UNO.CALL-LATE"))

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
        """CL.PEN.WRONG-CARD: the card is taken back, the player draws, the turn passes."""
        a = action
        assert a is not None and a.target is not None
        st = self.st
        self.give(a.target, self.p.wrong_card_penalty, "CL.PEN.WRONG-CARD")
        if st.stack:  # V.STACK.TAKE-ALL: a player who does not stack takes the penalty too
            self.give(a.target, st.stack, "V.STACK.TAKE-ALL")
            st.stack = 0
        st.drawn = None
        st.current = self.seat(a.target)

    # ---- rounds ----------------------------------------------------------------------
    def deal_round(self, action: Action | None = None) -> None:
        """CL.END.NEW-HAND: gather every card, choose a dealer, shuffle, deal, turn a card."""
        st = self.st
        # CL.FIRST.UNRESOLVABLE, CL.DEALER.UNRESOLVABLE: a refused deal leaves the state
        # unchanged; the snapshot is only taken when the deck might not start a hand
        saved = None if self.surely_starts(st.all_cards()) else st.to_dict()
        st.round += 1
        try:
            self.start_round(None)
        except E.UnresolvableSetup:
            if saved is not None:
                vars(st).update(vars(State.from_dict(saved)))
            raise

    def surely_starts(self, cards: list[Card]) -> bool:
        """Whether a hand dealt from `cards` starts whatever the shuffle: the dealer draw can
        choose (CL.DEALER.UNRESOLVABLE) and more cards than the deal takes can stand as the
        first card, so one is left in the draw pile (CL.FIRST.UNRESOLVABLE). A real deck
        always does (108 cards, 4 returned); a toy deck may not."""
        p, n = self.p, self.st.players
        if not cards:
            return False  # the ruleset's deck is built: decided when it is dealt
        if p.dealer == "high-card":
            if len(cards) < n or len({dealer_value(c) for c in cards}) < 2:
                return False
        dealt = min(len(cards), max(p.hand_size, 0) * n)
        # the light faces: the next hand starts light (FL.SETUP.START-LIGHT)
        stand = sum(1 for c in cards if self.policy_of(c.light.kind) not in TURN_AGAIN)
        return stand > dealt

    def end_game(self, action: Action | None = None) -> None:
        """CL.SCORE.TARGET / CL22.SCORE.ONE-HAND: the winner of the last hand wins the game."""
        st = self.st
        if self.p.alt_scoring:
            # FLALT.LOWEST-WINS; FLALT.TIE (RUL.FLALT.TIE): the tied lowest share the win
            low = min(st.scores)
            st.winners = [s for s, v in enumerate(st.scores) if v == low]
            st.winner = st.winners[0]
            self.events.append(Event("game-over", st.winner, count=len(st.winners),
                                     rule="FLALT.LOWEST-WINS"))
            return
        st.winner = st.round_winner
        st.winners = [] if st.winner is None else [st.winner]
        if self.p.partners and st.winner is not None:
            # PARTNERS.TARGET: the team wins the game (a shared win of both partners)
            st.winners = sorted((st.winner, self.partner(st.winner)))
        self.events.append(Event("game-over", st.winner, rule="CL.SCORE.TARGET"))

    def start_round(self, dealer: int | None, ordered: bool = False) -> None:
        """Deal a hand: dealer (unless given), shuffle, deal, first card. Ends in `dealing`.

        `ordered`: the draw pile is the deck in a given order (a scenario's `start: game`), and
        the dealer draw takes its cards from the top of it, in seat order."""
        st, p = self.st, self.p
        n = st.players
        cards = (list(st.draw) if ordered else st.all_cards()) or build_deck(p)
        st.hands = [[] for _ in range(n)]
        st.discard = []
        st.draw = cards
        st.direction = CLOCKWISE  # CL.PLAY.DIRECTION-START
        # FL.SETUP.START-LIGHT, FL.SETUP.ORIENT (RUL.FLIP.NEXT-ROUND): every hand starts light;
        # faces follow the side, so the gathered cards are all turned the same way
        st.side = "light"
        st.winners = []
        st.drawn = None
        st.uno_window = None
        st.challenge_by = None
        st.challenge_legal = True
        st.stack = 0
        st.first_color = False
        st.round_winner = None
        st.active_color = None
        st.shown = {}
        if dealer is None:  # CL.DEALER.EACH-HAND
            dealer = self.choose_dealer(cards, ordered)
        st.dealer = dealer
        st.rng.shuffle(st.draw)  # CL.DEALER.RETURN: the whole deck is shuffled before dealing
        # CL.DEAL.SEVEN, one at a time from the dealer's left. Bounded by the cards: a toy deck
        # from a scenario may run out (the deal stops there, whatever `hand_size` says)
        for _ in range(p.hand_size):
            if not st.draw:
                break
            for i in range(1, n + 1):
                if st.draw:
                    st.hands[(dealer + i) % n].append(st.draw.pop())
        # CL.DEAL.DRAW-PILE: the rest is the draw pile
        self.events.append(Event("dealt", dealer, count=p.hand_size, rule="CL.DEAL.SEVEN"))
        self.turn_first_card()  # CL22.FIRST.EVERY-HAND: every hand, not only the first

    def choose_dealer(self, cards: list[Card], ordered: bool = False) -> int:
        """The dealer by the ruleset's method. `ordered`: `cards` is the deck top last, and the
        players draw from its top (docs/contracts.md, `start: game`); otherwise from a
        shuffled copy. Only the tied players draw again, in seat order, from the next cards."""
        st, p = self.st, self.p
        n = st.players
        if p.dealer != "high-card":
            # CL22.DEALER.RANDOM
            dealer = st.rng.randrange(n)
            self.events.append(Event("dealer", dealer, rule="CL22.DEALER.RANDOM"))
            return dealer
        # CL.DEALER.HIGHEST, CL.DEALER.ACTION-ZERO, CL18.DEALER-ZERO, CL.DEALER.TIES;
        # FL.SETUP.DEALER, FL.SETUP.DEALER-TIE: light faces (a round starts on the light side)
        # CL.DEALER.UNRESOLVABLE (RUL.SETUP.UNRESOLVABLE): each player draws a card, and a tie
        # breaks only if two cards count differently; otherwise refused before any draw.
        # Bounded: with two values each round of k >= 2 tied players leaves fewer with a
        # probability > 0 (a fresh pile is the whole deck, shuffled), so DEALER_DRAWS rounds
        # bound the loop; reaching them raises the same error.
        value = dealer_value
        if len(cards) < n or len({value(c) for c in cards}) < 2:
            why = (f"{len(cards)} cards for {n} players" if len(cards) < n
                   else "every card of the deck counts the same")
            raise E.UnresolvableSetup(f"dealer draw: {why}: no highest card",
                                      "CL.DEALER.UNRESOLVABLE")
        pile = list(cards)
        if not ordered:
            st.rng.shuffle(pile)
        contenders = list(range(n))
        for _ in range(DEALER_DRAWS):
            if len(pile) < len(contenders):
                pile = list(cards)
                st.rng.shuffle(pile)
            values = {seat: value(pile.pop()) for seat in contenders}
            best = max(values.values())
            contenders = [s for s in contenders if values[s] == best]
            if len(contenders) == 1:
                self.events.append(Event("dealer", contenders[0], rule="CL.DEALER.HIGHEST"))
                return contenders[0]
        raise E.UnresolvableSetup(f"dealer draw: still tied after {DEALER_DRAWS} rounds",
                                  "CL.DEALER.UNRESOLVABLE")

    def first_policy(self, card: Card) -> str:
        """The ruleset's first-card policy for `card` turned first (its face in play: light, as
        a hand starts light, FL.SETUP.FIRST-DISCARD)."""
        return self.policy_of(self.face(card).kind)

    def policy_of(self, kind: str) -> str:
        """The first-card policy of a face `kind`; CL18.FIRST-CARD: a special Wild follows
        `special_wild`; a kind the ruleset does not name has no effect (`none`)."""
        first = self.p.first_card
        policy = first.get(kind)
        if policy is None and kind in SPECIAL_WILDS:
            policy = first.get("special_wild")
        return policy or "none"

    def turn_first_card(self) -> None:
        """CL.DEAL.FIRST-DISCARD and the ruleset's first-card policy; ends in `dealing`.

        Bounded (docs/robustness.md, "Engine"), CL.FIRST.UNRESOLVABLE (RUL.SETUP.UNRESOLVABLE):
        before anything is turned, a draw pile that is empty, or that holds no card that can
        start the hand but some card the policy returns, is refused (`unresolvable-setup`).
        Otherwise either a stopping card is in the draw pile and stays there until turned
        (ignored cards leave the pile, returned ones go back: a "return" turn draws a stopping
        card with probability >= 1 / len(draw)), or every card is ignored and the pile runs
        out after len(draw) turns (CL22.FIRST.IGNORE: the last one stays on top, the turning
        stops short as any draw does, RUL.RESHUFFLE.BOTH-EMPTY). The loop is cut at
        FIRST_CARD_TURNS turns per card (chance of reaching it with a startable pile below
        e^-64) with the same error."""
        st, p = self.st, self.p
        n = st.players
        policies = {self.first_policy(c) for c in st.draw}
        if not st.draw or (policies <= TURN_AGAIN and RETURN in policies):
            rule = "CL.DEAL.FIRST-DISCARD" if not st.draw else "CL.FIRST.UNRESOLVABLE"
            what = "no card" if not st.draw else (
                "only cards the first-card rule turns again (" +
                " ".join(sorted({c.text for c in st.draw})) + ")")
            raise E.UnresolvableSetup(f"the draw pile holds {what}: no first card can be "
                                      "turned", rule)
        left = (st.dealer + 1) % n  # CL.SEAT.LEFT, CL.DEAL.FIRST-PLAYER
        st.current = left
        st.phase = "dealing"
        for _ in range(FIRST_CARD_TURNS * len(st.draw)):
            if not st.draw:
                return  # CL22.FIRST.IGNORE: every card was ignored; the last one stays on top
            card = st.draw.pop()
            st.discard.append(card)
            f = self.face(card)
            st.active_color = f.color
            policy = self.first_policy(card)
            self.events.append(Event("first-card", None, card, rule="CL.DEAL.FIRST-DISCARD"))
            # FL.SETUP.FIRST-DISCARD: turned light face up (the side is light); FL.FIRST.*
            # per the ruleset's first_card (FL.FIRST.ACTION-SEE-CARD)
            # CL.FIRST.NUMBER, CL22.FIRST.LEFT-PLAYS; FL.FIRST.NUMBER, FL.FIRST.FLIP
            # (RUL.FLIP.FIRST-CARD.FLIP: a Flip card turned first has no effect)
            if policy == "none":
                return
            if policy == "skip-first-player":  # CL.FIRST.SKIP, FL.FIRST.SKIP
                st.current = (left + 1) % n
                return
            if policy == "dealer-starts-reversed":  # CL.FIRST.REVERSE, FL.FIRST.REVERSE
                st.direction = COUNTERCLOCKWISE
                st.current = st.dealer
                return
            if policy == "first-player-draws-and-is-skipped":  # CL.FIRST.D2, FL.FIRST.DRAW-ONE
                self.give(left, p.draws.get(f.kind, 0),
                          "FL.FIRST.DRAW-ONE" if f.kind == "draw1" else "CL.FIRST.D2")
                st.current = (left + 1) % n
                return
            # CL.FIRST.WILD, CL18.FIRST-CARD, FL.FIRST.WILD (RUL.FLIP.FIRST-CARD.WILD)
            if policy == "first-player-chooses-color":
                st.first_color = True
                return
            # CL.FIRST.WD4, CL.FIRST.REPEAT; FL.FIRST.WILD-DRAW-TWO (RUL.FLIP.FIRST-CARD.W2)
            if policy == RETURN:
                st.discard.pop()
                st.draw.append(card)
                st.rng.shuffle(st.draw)
                continue
            if policy == "ignore-and-turn-again":  # CL22.FIRST.IGNORE, CL22.FIRST.STAYS
                continue
            raise NotImplementedError(f"first-card policy {policy!r}")
        raise E.UnresolvableSetup(  # CL.FIRST.UNRESOLVABLE: the bound above (never seen)
            f"no first card after {FIRST_CARD_TURNS} turns per card", "CL.FIRST.UNRESOLVABLE")


def _light(card: Card) -> Face:
    return card.light


def dealer_value(card: Card) -> int:
    """CL.DEALER.HIGHEST, CL.DEALER.ACTION-ZERO, FL.SETUP.DEALER: what a card counts in the
    dealer draw: the number of its light face (a hand starts light), zero for a symbol."""
    number = card.light.number
    return number if number is not None else 0


_CHALLENGER_RULE = {"wd2": "FL.LIGHT.W2.CHALLENGER", "wdc": "FL.DARK.WDC.CHALLENGER"}
_WRONG_DECISION_RULE: dict[tuple[str, str], str] = {
    ("play", "pass"): "CL.PLAY.TURN-OPTIONS",
    ("play_drawn", "draw"): "CL.DRAW.ONLY-DRAWN",
    ("challenge", "play"): "CL.WD4.CHALLENGE.DECISION",
    ("challenge", "draw"): "CL.WD4.CHALLENGE.DECISION",
    ("choose_color", "play"): "CL.FIRST.WILD",
    ("choose_color", "draw"): "CL.FIRST.WILD",
    ("play", "color"): "CL.WILD.COLOUR",
    ("play_drawn", "color"): "CL.WILD.COLOUR",
}

Guard = Callable[[Rules, Action | None], bool]
Effect = Callable[[Rules, Action | None], None]
