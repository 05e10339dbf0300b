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
from uno_fsm.actions import EVENT_OF, Action, Event
from uno_fsm.cards import Card, Face
from uno_fsm.deck import build_deck
from uno_fsm.params import Params
from uno_fsm.state import CLOCKWISE, COUNTERCLOCKWISE, State

SPECIAL_WILDS = frozenset({"wild_shuffle_hands", "custom_wild"})
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

    __slots__ = ("st", "p", "events", "_allowed")

    def __init__(self, state: State, params: Params, allowed: dict[str, dict[str, object]]):
        self.st = state
        self.p = params
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
        color = st.active_color
        discard = st.discard
        top = self.face(discard[-1]) if discard else None
        # CL.PLAY.MATCH-ON-WILD: on a Wild only the declared colour matches
        rank = None if top is None or top.is_wild else top.rank
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
        """CL.RESHUFFLE.KEEP-TOP: the top discard stays, the rest becomes the draw pile."""
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
        """`seat` draws `n` cards (CL.PEN.FROM-DRAW-PILE, CL.RESHUFFLE.WHEN)."""
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

    def color_ok(self, color: str | None) -> bool:
        return color in self.p.colors_of(self.st.side)  # CL.WILD.FOUR-COLOURS

    # ---- validation ------------------------------------------------------------------
    def validate(self, a: Action) -> str:
        """Check `a` against the rules; return the machine event to send. Changes nothing."""
        st = self.st
        phase = st.phase
        n = st.players
        if phase == "game_over":
            raise E.GameOver("the game is over", "CL.END.NO-PENDING")
        kind = a.kind
        event = EVENT_OF.get(kind)
        if event is None:
            raise E.MalformedAction(f"unknown action kind {kind!r}")
        actor = a.player
        if kind in ("hint", "wrong-card", "catch", "swap"):
            if a.target is None or not 0 <= a.target < n:
                raise E.MalformedAction(f"{kind}: a target seat 0..{n - 1} is required")
        if kind not in ("hint", "wrong-card", "next-round"):
            if actor is None or not 0 <= actor < n:
                raise E.MalformedAction(f"{kind}: a player seat 0..{n - 1} is required")
        allowed = self._allowed[phase]
        if phase == "round_over" and event not in allowed:
            raise E.RoundOver("the round is over", "CL.END.NO-PENDING")
        if kind in ("challenge", "accept"):
            if phase != "challenge":
                raise E.NotChallengeable("no Wild Draw Four to challenge", "CL.WD4.CHALLENGE.WHO")
            if actor != st.current:
                # CL.WD4.CHALLENGE.WHO: only the next player may challenge
                raise E.NotChallengeable(f"only P{st.current} may challenge",
                                         "CL.WD4.CHALLENGE.WHO")
            return event
        if kind == "swap":
            if phase != "swap":
                raise E.NoSwapPending("no swap is pending", "V.SEVENO.SEVEN-PENDING")
            if actor != st.current:
                raise E.NotYourTurn(f"P{st.current} chooses the swap", "V.SEVENO.SEVEN-PENDING")
            if a.target == actor:
                raise E.NoSwapPending("swap with another player", "V.SEVENO.SEVEN-TARGET")
            return event
        if kind in TURN_KINDS:
            if actor != st.current:
                # CL.PLAY.OUT-OF-TURN (no jump-in in the base rules)
                raise E.NotYourTurn(f"P{st.current} owes the decision", "CL.PLAY.OUT-OF-TURN")
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
        if not self.matches(card):  # CL.PLAY.ILLEGAL-REJECTED
            top = self.top()
            rule = "CL.PLAY.MATCH-ON-WILD" if top is not None and top.is_wild else "CL.PLAY.MATCH"
            raise E.CardDoesNotMatch(f"{card} does not match {top} / {st.active_color}", rule)
        if f.is_wild:
            if a.color is None:
                if len(hand) != 1:  # CL.END.LAST-OTHER: a last Wild needs no colour
                    raise E.ColorRequired("name a colour for the Wild", "CL.WILD.COLOUR")
            elif not self.color_ok(a.color):
                raise E.InvalidColor(f"{a.color!r} is not a colour in play", "CL.WILD.FOUR-COLOURS")
        elif a.color is not None:
            raise E.MalformedAction(f"{card} is not a Wild: no colour is named with it")
        if a.uno and (len(hand) != 2 or not self.p.uno_call_with_play):
            # CL.UNO.CALL-INVALID: UNO is called with the second-to-last card only
            raise E.NoUnoWindow("UNO is called with the second-to-last card", "CL.UNO.CALL-INVALID")

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

    def needs_swap(self, action: Action | None = None) -> bool:
        """V.SEVENO.SEVEN-SWAP, V.SEVENO.SEVEN-PENDING (variant seven-o): a 7 makes its player
        choose a hand to swap with (V.SEVENO.LAST-CARD: not when it is the last card).
        V.SEVENO.BASES: Params.seven_o is only set by classic compositions."""
        return (self.p.seven_o and action is not None and action.card is not None
                and self.face(action.card).rank == "7")

    def challengeable(self, action: Action | None = None) -> bool:
        """CL.WD4.CHALLENGE.DECISION: a Wild Draw Four (not ending the hand) may be challenged."""
        return (self.p.wd4_challenge and action is not None and action.card is not None
                and self.face(action.card).kind == "wd4")

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
        """CL.SCORE.TARGET; CL22.SCORE.ONE-HAND (no target: one hand decides the game)."""
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
        """CL.UNO.MUST-CALL: holding one card without calling opens the catch window."""
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
        if p.last_card_draw:
            victim = self.seat(winner)
            if f.kind == "draw2":  # CL.END.LAST-D2
                self.give(victim, p.draw2, "CL.END.LAST-D2")
            elif f.kind == "wd4":  # CL.END.LAST-WD4 (no challenge)
                self.give(victim, p.wd4, "CL.END.LAST-WD4")
        # CL.END.LAST-OTHER: no other effect; CL18.WSH.LAST-CARD: no redistribution
        # CL.SCORE.WINNER, CL.SCORE.NUMBERS, CL.SCORE.ACTIONS, CL.SCORE.WILDS, CL18.SCORE,
        # CL22.SCORE.WILDS-50: the points table is the ruleset's
        points = 0
        for seat, hand in enumerate(st.hands):
            if seat != winner:
                for card in hand:
                    g = self.face(card)
                    points += p.points_of(g.kind, g.number, st.side)
        st.scores[winner] += points  # CL.SCORE.ACCUMULATE
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
        elif kind == "skip":  # CL.SKIP.EFFECT; CL.TWO.SKIP-AGAIN (2 players: seat + 2 = self)
            self.events.append(Event("skipped", self.seat(actor), rule="CL.SKIP.EFFECT"))
            st.current = self.seat(actor, 2)
        elif kind == "reverse":
            # CL.REVERSE.EFFECT; CL.TWO.REVERSE-DIRECTION: the direction turns with 2 players too
            st.direction = COUNTERCLOCKWISE if st.direction == CLOCKWISE else CLOCKWISE
            self.events.append(Event("reversed", actor, rule="CL.REVERSE.EFFECT"))
            if st.players == 2 and p.reverse_as_skip_two:  # CL.TWO.SCOPE: exactly two players
                st.current = actor  # CL.TWO.REVERSE-SKIP
            else:
                st.current = self.seat(actor)  # CL.REVERSE.NEXT
        # CL.D2.EFFECT, CL.D2.NO-STACK (V.STACK.NOT-OFFICIAL); CL.TWO.D2-AGAIN
        elif kind == "draw2":
            self.give(self.seat(actor), p.draw2, "CL.D2.EFFECT")
            st.current = self.seat(actor, 2)
        elif kind == "wd4":  # CL.WD4.EFFECT without a challenge (ruleset disables it)
            self.give(self.seat(actor), p.wd4, "CL.WD4.EFFECT")
            st.current = self.seat(actor, 2)
        elif kind == "wild_shuffle_hands":
            self._shuffle_hands(actor)
            st.current = self.seat(actor)  # CL18.WSH.NEXT
            return  # CL18.WSH.UNO: nobody can be caught after a redistribution
        elif kind in ("wild", "custom_wild"):  # CL.WILD.NO-EFFECT, CL18.CUSTOM.PLAIN
            st.current = self.seat(actor)
        else:
            raise NotImplementedError(f"card kind {kind!r} (not a classic card)")
        self._after_play(a, actor)

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
        face = self.face
        legal = not any(face(c).color == before for c in st.hands[actor] if c is not a.card)
        self._place(a)
        st.challenge_by = actor
        st.challenge_legal = legal  # CL.WD4.BLUFF-ACCEPTED: an illegal one is played all the same
        st.current = self.seat(actor)
        self._after_play(a, actor)

    def play_swap(self, action: Action | None = None) -> None:
        """V.SEVENO.SEVEN-PENDING: the 7 is played; its player now chooses whom to swap with."""
        a = action
        assert a is not None
        actor = self.st.current
        self._place(a)
        self._after_play(a, actor)

    def swap_hands(self, action: Action | None = None) -> None:
        """V.SEVENO.SEVEN-SWAP, V.SEVENO.TRADE-ALLOWED (the one exchange the rules allow),
        V.SEVENO.CONTINUE; V.SEVENO.UNO: the swap action closed the window."""
        a = action
        assert a is not None and a.target is not None
        st = self.st
        actor = st.current
        st.hands[actor], st.hands[a.target] = st.hands[a.target], st.hands[actor]
        self.events.append(Event("hands-swapped", actor, count=a.target,
                                 rule="V.SEVENO.SEVEN-SWAP"))
        st.current = self.seat(actor)

    # ---- drawing ---------------------------------------------------------------------
    def draw_card(self, action: Action | None = None) -> None:
        """CL.DRAW.UNABLE, CL.DRAW.UNWILLING: draw instead of playing."""
        st = self.st
        got = self.give(st.current, self.p.draw_count, "CL.DRAW.UNABLE")
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
    def challenge_guilty(self, action: Action | None = None) -> None:
        """CL.WD4.CHALLENGE.GUILTY, CL.WD4.CHALLENGE.GUILTY-TURN, CL.WD4.CHALLENGE.COLOUR."""
        st = self.st
        by = st.challenge_by
        assert by is not None
        self._show(by)
        self.give(by, self.p.wd4_guilty_draw, "CL.WD4.CHALLENGE.GUILTY")
        st.challenge_by = None
        # the challenger (st.current) takes the turn

    def challenge_innocent(self, action: Action | None = None) -> None:
        """CL.WD4.CHALLENGE.INNOCENT; CL.TWO.WD4-AGAIN."""
        st = self.st
        by = st.challenge_by
        assert by is not None
        self._show(by)
        victim = st.current
        self.give(victim, self.p.wd4_innocent_draw, "CL.WD4.CHALLENGE.INNOCENT")
        st.challenge_by = None
        st.current = self.seat(victim)

    def accept_penalty(self, action: Action | None = None) -> None:
        """CL.WD4.ACCEPT; CL.TWO.WD4-AGAIN."""
        st = self.st
        victim = st.current
        self.give(victim, self.p.wd4, "CL.WD4.ACCEPT")
        st.challenge_by = None
        st.current = self.seat(victim)

    def _show(self, by: int) -> None:
        """CL.WD4.CHALLENGE.SHOW: the hand is shown to the challenger only."""
        st = self.st
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
        st.drawn = None
        st.current = self.seat(a.target)

    # ---- rounds ----------------------------------------------------------------------
    def deal_round(self, action: Action | None = None) -> None:
        """CL.END.NEW-HAND: gather every card, choose a dealer, shuffle, deal, turn a card."""
        st = self.st
        st.round += 1
        self.start_round(None)

    def end_game(self, action: Action | None = None) -> None:
        """CL.SCORE.TARGET / CL22.SCORE.ONE-HAND: the winner of the last hand wins the game."""
        st = self.st
        st.winner = st.round_winner
        self.events.append(Event("game-over", st.winner, rule="CL.SCORE.TARGET"))

    def start_round(self, dealer: int | None) -> None:
        """Deal a hand: dealer (unless given), shuffle, deal, first card. Ends in `dealing`."""
        st, p = self.st, self.p
        n = st.players
        cards = st.all_cards() or build_deck(p)
        st.hands = [[] for _ in range(n)]
        st.discard = []
        st.draw = cards
        st.direction = CLOCKWISE  # CL.PLAY.DIRECTION-START
        st.drawn = None
        st.uno_window = None
        st.challenge_by = None
        st.challenge_legal = True
        st.first_color = False
        st.round_winner = None
        st.active_color = None
        if dealer is None:  # CL.DEALER.EACH-HAND
            dealer = self.choose_dealer(cards)
        st.dealer = dealer
        st.rng.shuffle(st.draw)  # CL.DEALER.RETURN: the whole deck is shuffled before dealing
        for _ in range(p.hand_size):  # CL.DEAL.SEVEN, one at a time from the dealer's left
            for i in range(1, n + 1):
                if st.draw:  # (a toy deck from a scenario may run out)
                    st.hands[(dealer + i) % n].append(st.draw.pop())
        # CL.DEAL.DRAW-PILE: the rest is the draw pile
        self.events.append(Event("dealt", dealer, count=p.hand_size, rule="CL.DEAL.SEVEN"))
        self.turn_first_card()  # CL22.FIRST.EVERY-HAND: every hand, not only the first

    def choose_dealer(self, cards: list[Card]) -> int:
        st, p = self.st, self.p
        n = st.players
        if p.dealer != "high-card":
            # CL22.DEALER.RANDOM
            dealer = st.rng.randrange(n)
            self.events.append(Event("dealer", dealer, rule="CL22.DEALER.RANDOM"))
            return dealer
        # CL.DEALER.HIGHEST, CL.DEALER.ACTION-ZERO, CL18.DEALER-ZERO, CL.DEALER.TIES
        pile = list(cards)
        st.rng.shuffle(pile)
        contenders = list(range(n))
        while True:
            if len(pile) < len(contenders):
                pile = list(cards)
                st.rng.shuffle(pile)
            values = {}
            for seat in contenders:
                f = self.face(pile.pop())
                values[seat] = f.number if f.number is not None else 0
            best = max(values.values())
            contenders = [s for s in contenders if values[s] == best]
            if len(contenders) == 1:
                self.events.append(Event("dealer", contenders[0], rule="CL.DEALER.HIGHEST"))
                return contenders[0]

    def turn_first_card(self) -> None:
        """CL.DEAL.FIRST-DISCARD and the ruleset's first-card policy; ends in `dealing`."""
        st, p = self.st, self.p
        n = st.players
        left = (st.dealer + 1) % n  # CL.SEAT.LEFT, CL.DEAL.FIRST-PLAYER
        st.current = left
        st.phase = "dealing"
        while st.draw:
            card = st.draw.pop()
            st.discard.append(card)
            f = self.face(card)
            st.active_color = f.color
            policy = p.first_card.get(f.kind)
            if policy is None and f.kind in SPECIAL_WILDS:
                policy = p.first_card.get("special_wild")  # CL18.FIRST-CARD
            policy = policy or "none"
            self.events.append(Event("first-card", None, card, rule="CL.DEAL.FIRST-DISCARD"))
            if policy == "none":  # CL.FIRST.NUMBER, CL22.FIRST.LEFT-PLAYS
                return
            if policy == "skip-first-player":  # CL.FIRST.SKIP
                st.current = (left + 1) % n
                return
            if policy == "dealer-starts-reversed":  # CL.FIRST.REVERSE
                st.direction = COUNTERCLOCKWISE
                st.current = st.dealer
                return
            if policy == "first-player-draws-and-is-skipped":  # CL.FIRST.D2
                self.give(left, p.draw2, "CL.FIRST.D2")
                st.current = (left + 1) % n
                return
            if policy == "first-player-chooses-color":  # CL.FIRST.WILD, CL18.FIRST-CARD
                st.first_color = True
                return
            if policy == "return-shuffle-and-turn-again":  # CL.FIRST.WD4, CL.FIRST.REPEAT
                st.discard.pop()
                st.draw.append(card)
                st.rng.shuffle(st.draw)
                continue
            if policy == "ignore-and-turn-again":  # CL22.FIRST.IGNORE, CL22.FIRST.STAYS
                continue
            raise NotImplementedError(f"first-card policy {policy!r}")


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
