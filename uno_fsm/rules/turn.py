"""Matching and turn order: which card may be played, whose decision it is, drawing.

Rules: CL.PLAY.* (matching, the turn options, out of turn), CL.WILD.* (a Wild's colour),
CL.DRAW.* (drawing, the drawn card), and the order of the checks of `validate`
(docs/engine.md, "Error codes"). FL.PLAY.ACTIVE-FACES-ONLY and FL.FLIP.NEW-TOP-WILD (the match
on the side in play) are part of the one matching rule, `playable`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from mypy_extensions import trait

from uno_fsm import errors as E
from uno_fsm.actions import (
    EVENT_OF,
    Action,
    EventStore,
    check_form,
    interned,
    kept_event,
    seat_event,
)
from uno_fsm.cards import Card, Face, a_or_an, color_name, full_name
from uno_fsm.phase_table import (
    CALL_UNO,
    CATCH,
    CHALLENGE,
    CHOOSE_COLOR,
    DECISIONS,
    GAME_OVER,
    PLAY,
    PLAY_DRAWN,
    ROUND_OVER,
    SWAP,
)
from uno_fsm.rules.core import Core

TURN_KINDS = frozenset({"play", "draw", "pass", "color"})
WINDOW_EVENTS = frozenset({CALL_UNO, CATCH})  # CL.UNO.WINDOW: these keep the window open
ENDED = frozenset({ROUND_OVER, GAME_OVER})  # no window outlives the hand
_fromkeys = dict.fromkeys  # (`dict.fromkeys` is looked up the slow way at each call)
PLAYED: EventStore = {}  # (seat, card, colour after it) -> the event of the card played (`place`)
# the rule a turn action breaks when it does not answer the decision of the phase
_WRONG_DECISION_RULE: dict[tuple[str, str], str] = {
    (PLAY, "pass"): "CL.PLAY.TURN-OPTIONS",
    (PLAY_DRAWN, "draw"): "CL.DRAW.ONLY-DRAWN",
    (CHALLENGE, "play"): "CL.WD4.CHALLENGE.DECISION",
    (CHALLENGE, "draw"): "CL.WD4.CHALLENGE.DECISION",
    (CHOOSE_COLOR, "play"): "CL.FIRST.WILD",
    (CHOOSE_COLOR, "draw"): "CL.FIRST.WILD",
    (PLAY, "color"): "CL.WILD.COLOUR",
    (PLAY_DRAWN, "color"): "CL.WILD.COLOUR",
}


def _restricted(cards: list[Card],
                restrict: tuple[Callable[[list[Card]], list[Card]], ...]) -> list[Card]:
    """The match filtered by every `restrict_plays` hook, in order."""
    for hook in restrict:
        cards = hook(cards)
    return cards


@trait
class TurnRules(Core):
    """Matching, validation, the legal actions, drawing and passing."""

    # ---- matching --------------------------------------------------------------------
    def playable(self, cards: Iterable[Card]) -> list[Card]:
        """The cards among `cards` (a list, tuple or dict: iterated more than once) that may be
        played on the discard pile now (the one copy of the matching rule; `matches` and
        `legal_actions` use it); a variant changes it through the hooks `playable` (its own
        match, e.g. V.STACK.*) and `restrict_plays` (a filter of the match, e.g.
        V.NOFINISH.LAST-CARD)."""
        restrict: tuple[Callable[[list[Card]], list[Card]], ...] = ()
        if self._match_hooked:  # one flag test for the games without such a hook
            hooks = self.hooks
            restrict = hooks.restrict_plays
            for hook in hooks.playable:
                got = hook(cards)
                if got is not None:
                    return _restricted(got, restrict) if restrict else got
        st = self.st
        color = st.active_color
        discard = st.discard
        side = st.side
        dark = side == "dark"
        # FL.PLAY.ACTIVE-SIDE (`Card.on`, as Core.face reads it: this is the hottest loop)
        top = discard[-1].on[side] if discard else None
        # CL.PLAY.MATCH-ON-WILD: on a Wild only the declared colour matches
        rank = None if top is None or top.is_wild else top.rank
        if color is None and rank is None and top is not None:
            # FL.FLIP.NEW-TOP-WILD: a Wild face turned up by a flip leaves no colour active;
            # any card may be played (and sets the colour)
            return _restricted(list(cards), restrict) if restrict else list(cards)
        # FL.PLAY.ACTIVE-SIDE, FL.PLAY.ACTIVE-FACES-ONLY: only the faces of the side in play
        # count (FL.LIGHT.D1.MATCH, FL.LIGHT.REVERSE.MATCH, FL.LIGHT.SKIP.MATCH,
        # FL.DARK.D5.MATCH, FL.DARK.REVERSE.MATCH, FL.DARK.SE.MATCH and FL.FLIP.MATCH are this
        # same colour-or-symbol match):
        # CL.PLAY.WILD-ANYTIME (a WD4 too: CL.WD4.BLUFF-ACCEPTED); CL18.ANYTIME: a Wild;
        # CL.PLAY.MATCH-COLOUR: the colour; CL.PLAY.MATCH-NUMBER, CL.PLAY.MATCH-SYMBOL
        # (CL.D2.MATCH: Draw Two on Draw Two): the number or symbol
        # (plain loops: faster than comprehensions here; on the light side every card shows
        # its light face)
        out: list[Card] = []
        if dark:
            for c in cards:
                f = c.on["dark"]
                if f.is_wild or f.color == color or f.rank == rank:
                    out.append(c)
        else:
            for c in cards:
                f = c.light
                if f.is_wild or f.color == color or f.rank == rank:
                    out.append(c)
        return _restricted(out, restrict) if restrict else out

    def matches(self, card: Card) -> bool:
        """Whether `card` may be played now (CL.PLAY.MATCH)."""
        return bool(self.playable((card,)))

    # ---- the legal actions -----------------------------------------------------------
    def play_actions(self, seat: int, cards: Iterable[Card], hand: list[Card],
                     out: list[Action], last_wild: bool = True) -> None:
        """Append the plays of `cards` by `seat` holding `hand` (each card once)."""
        held = len(hand)
        st = self.st
        key = (seat, held if held < 3 else 3, st.side, st.active_color, last_wild)
        # (subscripts, not `dict.get`: a miss is rare once a few games have been played)
        try:
            plays = self._plays[key]
        except KeyError:
            plays = self._plays[key] = {}
        for card in cards:
            try:
                got = plays[card]
            except KeyError:
                got = plays[card] = self._card_plays(seat, card, held, last_wild,
                                                     self.wild_colors())
            out.extend(got)

    def _card_plays(self, seat: int, card: Card, held: int, last_wild: bool,
                    colors: tuple[str, ...]) -> tuple[Action, ...]:
        """The plays of `card` by `seat` holding `held` cards: a Wild with each colour it may
        name (`colors`, from `wild_colors`: CL.WILD.COLOUR; CL.END.LAST-OTHER: a last one also
        without, unless `last_wild` is False), each with and without the UNO call when it is
        the second-to-last card (CL.UNO.CALL-WITH-PLAY)."""
        calls = (False, True) if held == 2 and self.p.uno_call_with_play else (False,)
        out: list[Action] = []
        f = self.face(card)
        if f.is_wild:
            if last_wild and held == 1 and f.kind != "wdc":
                out.append(interned("play", seat, card))  # CL.END.LAST-OTHER: no colour
            for uno in calls:
                for c in colors:
                    out.append(interned("play", seat, card, c, uno))
        else:
            for uno in calls:
                out.append(interned("play", seat, card, None, uno))
        return tuple(out)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """`Game.legal_actions`: a copy of the legal actions of the decision (with `player`,
        only that player's): the turn owner's, the variants' `extra_actions`, the open windows;
        table penalties (referee actions) are not listed. Found once per decision and kept in
        `listed` until the state changes. (One function: `Game` hands this very method out, so
        that listing costs one Python call.)"""
        out = self.listed
        if out is None:
            st = self.st
            phase = st.phase
            out = []
            cur = st.current
            if phase == PLAY:
                hand = st.hands[cur]
                playable = self.turn_playable = self.playable(hand)
                if playable:
                    # each card once (a hand may hold two alike; two cards differ unless
                    # they are one: cheaper than a dict, for the commonest case)
                    n = len(playable)
                    self.play_actions(cur, playable if n == 1 or n == 2 and
                                      playable[0] is not playable[1] else _fromkeys(playable),
                                      hand, out)
                out.append(self.draw_actions[cur])
            elif phase == PLAY_DRAWN:
                hand = st.hands[cur]
                cands = [st.drawn] if st.drawn is not None else []
                # CL.DRAW.PLAY-DRAWN: only the drawn card; a last Wild cannot be drawn
                self.play_actions(cur, self.playable(cands), hand, out, False)  # last_wild
                out.append(self.seat_actions["pass"][cur])
            elif phase == CHOOSE_COLOR:
                out.extend(interned("color", cur, color=c) for c in self.wild_colors())
            elif phase == CHALLENGE:
                out.append(self.seat_actions["challenge"][cur])
                out.append(self.seat_actions["accept"][cur])
            elif phase == SWAP:
                out.extend(interned("swap", cur, target=t) for t in self.seats() if t != cur)
            elif phase == ROUND_OVER:
                out.append(interned("next-round", None))
            extra = self.hooks.extra_actions
            if extra:  # (no loop over an empty tuple for the games without such a hook)
                for hook in extra:
                    hook(out)
            w = st.uno_window
            if w is not None and phase not in ENDED and len(st.hands[w]) == 1:
                out.append(self.seat_actions["uno"][w])
                out.extend(interned("catch", s, target=w) for s in self.seats() if s != w)
            self.listed = out
        if player is None:
            return out.copy()
        return [a for a in out if a.player == player]

    # ---- validation ------------------------------------------------------------------
    def validate(self, action: object) -> str:
        """Check `action` against the rules; return the machine event to send. Changes
        nothing."""
        st = self.st
        phase = st.phase
        n = st.players
        # CL.PLAY.TURN-OPTIONS: anything but an Action of this game's cards is malformed-action
        a = (cast(Action, action) if id(action) in self._formed
             else check_form(action, self._flip))
        if phase == GAME_OVER:
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
        for check in self.hooks.check_action:  # e.g. a seat out of the game (seats_in_play)
            check(a)
        allowed = self._allowed[phase]
        if phase == ROUND_OVER and event not in allowed:
            raise E.RoundOver("the round is over", "CL.END.NO-PENDING")
        if kind in ("challenge", "accept"):
            self.validate_challenge(a)
            return event
        if kind == "swap":
            self.validate_swap(a)
            return event
        if kind in TURN_KINDS:
            if actor != st.current:
                if kind == "play":
                    for hook in self.hooks.out_of_turn:  # e.g. V.JUMPIN.IDENTICAL
                        got = hook(a)
                        if got is not None:
                            return got
                # CL.PLAY.OUT-OF-TURN (the base rules let nobody play out of turn)
                raise E.NotYourTurn(f"P{st.current} owes the decision", "CL.PLAY.OUT-OF-TURN")
            if phase == CHALLENGE and kind == "play" and not any(
                    h(phase) for h in self.hooks.plays_in):
                # CL.WD4.CHALLENGE.DECISION; V.STACK.NOT-OFFICIAL: nothing is stacked on it
                raise E.WrongDecision("challenge or accept the Wild Draw card",
                                      "CL.WD4.CHALLENGE.DECISION")
            if event not in allowed:
                raise E.WrongDecision(
                    f"{kind} does not answer the pending {DECISIONS[phase]!r} decision",
                    _WRONG_DECISION_RULE.get((phase, kind), "CL.PLAY.TURN-OPTIONS"),
                )
            if kind == "play":
                self.validate_play(a)
            elif kind == "color":
                self.check_wild_color(a.color)
            return event
        self.validate_window(a, event, allowed)
        return event

    def validate_play(self, a: Action) -> None:
        st = self.st
        card = a.card
        if card is None:
            raise E.MalformedAction("play: a card is required")
        hand = st.hands[st.current]
        if card not in hand:
            raise E.CardNotInHand(f"P{st.current} holds no {card}", "CL.PLAY.TURN-OPTIONS")
        if st.phase == PLAY_DRAWN and card is not st.drawn:
            raise E.OnlyDrawnCard(f"only the drawn {st.drawn} may be played", "CL.DRAW.ONLY-DRAWN")
        for hook in self.hooks.check_play:  # e.g. V.STACK.NO-CROSS
            hook(a)
        f = self.face(card)
        if not self.matches(card):  # CL.PLAY.ILLEGAL-REJECTED
            top = self.top()
            rule = "CL.PLAY.MATCH-ON-WILD" if top is not None and top.is_wild else "CL.PLAY.MATCH"
            raise E.CardDoesNotMatch(self.mismatch(card, f, top), rule)
        if f.is_wild:
            if a.color is None:
                # CL.END.LAST-OTHER: a last Wild needs no colour, except a Wild Draw Colour,
                # whose colour the next player draws to (FL.END.GO-OUT-DRAW)
                if len(hand) != 1 or f.kind == "wdc":
                    raise E.ColorRequired("name a colour for the Wild", "CL.WILD.COLOUR")
            else:
                self.check_wild_color(a.color)
        elif a.color is not None:
            raise E.MalformedAction(f"{card} is not a Wild: no colour is named with it")
        self.validate_uno_call(a, hand)

    def mismatch(self, card: Card, f: Face, top: Face | None) -> str:
        """Why `f` cannot be played, in words: `R7 does not match the yellow Draw Two: play a
        yellow card, a Draw Two or a Wild` (CL.PLAY.MATCH: the colour in force, the top's
        number or symbol, or a Wild; CL.PLAY.MATCH-ON-WILD: on a Wild, its named colour or a
        Wild). Where a variant's own match decides (a `playable` hook answering for the card,
        e.g. V.STACK.* on a pending penalty) only what was refused is said."""
        color = color_name(self.st.active_color)
        if top is None:
            return f"{f.text} cannot be played: there is no card on the discard pile"
        if any(hook((card,)) is not None for hook in self.hooks.playable):
            return f"{f.text} cannot be played on the {full_name(top)} now"
        if top.is_wild:
            on = f"the {color} named for the {full_name(top)}" if color else \
                f"the {full_name(top)}"
            options = [f"a {color} card"] if color else []
        else:
            on = f"the {full_name(top)}" + (f" ({color} in force)" if color and
                                             top.color != self.st.active_color else "")
            rank = str(top.number) if top.number is not None else full_name(top).split(" ", 1)[1]
            options = [*([f"a {color} card"] if color else []), a_or_an(rank)]
        options.append("a Wild")
        return (f"{f.text} does not match {on}: play "
                + (", ".join(options[:-1]) + " or " + options[-1] if len(options) > 1
                   else options[0]))

    def begin(self, event: str) -> None:
        """Before any effect: CL.UNO.WINDOW closes at the next action that is neither an UNO
        call nor a catch (CL.UNO.LATE-CATCH). CL.UNO.WINDOW-FORCED-DRAW: the cards a Draw Two
        makes the next player draw are the card's effect, not an action: they do not close it.
        (`Game.apply` calls it only while a window is open: else there is nothing to close.)"""
        if event not in WINDOW_EVENTS:
            self.st.uno_window = None

    # ---- playing ---------------------------------------------------------------------
    def place(self, a: Action) -> Face:
        """CL.PLAY.DISCARD-FACE-UP: the card leaves the hand and tops the discard pile."""
        st = self.st
        card = a.card
        assert card is not None
        actor = st.current
        st.hands[actor].remove(card)
        st.discard.append(card)
        st.drawn = None
        f = card.on[st.side]  # FL.PLAY.ACTIVE-SIDE (`Card.on`, as `face` reads it)
        # CL.WILD.COLOUR, CL.WILD.SAME-COLOUR, CL18.COLOUR; a coloured card sets its own colour
        st.active_color = color = a.color if f.is_wild else f.color
        key = (actor, card, color)
        try:
            event = PLAYED[key]
        except KeyError:
            event = kept_event(PLAYED, key, ("played", actor, card, (), color, 0, "CL.PLAY.MATCH"))
        self.events.append(event)
        return f

    def play_effect(self, action: Action | None = None) -> None:
        """A card with its effect (the card kind's entry of `effects`: action_cards.py,
        wild_draw.py, flip.py, or a variant's `card_effects`); then the next player's turn
        (CL.PLAY.ONE-CARD) and the UNO window (CL.UNO.MUST-CALL)."""
        a = action
        assert a is not None
        actor = self.st.current
        f = self.place(a)
        try:
            effect = self.effects[f.kind]
        except KeyError:
            raise NotImplementedError(f"card kind {f.kind!r} (not a classic card)") from None
        if effect(actor, f, a):
            self.after_play(a, actor)

    # ---- drawing ---------------------------------------------------------------------
    def drawn_unplayable(self, action: Action | None = None) -> bool:
        """CL.DRAW.UNPLAYABLE-PASSES."""
        d = self.st.drawn
        return d is None or not self.playable((d,))  # (`matches`, without its call)

    def draw_card(self, action: Action | None = None) -> None:
        """CL.DRAW.UNABLE, CL.DRAW.UNWILLING: draw instead of playing (the event names the one
        that applies: UNWILLING while the hand holds a card that could be played)."""
        st = self.st
        # the turn owner's playable cards, as `legal_actions` found them for this decision
        # (draw_card is the first effect of `draw`: the state is still the decision's)
        playable = self.turn_playable
        if playable is None:
            playable = self.playable(st.hands[st.current])
        rule = "CL.DRAW.UNWILLING" if playable else "CL.DRAW.UNABLE"
        got = None
        own = self.hooks.draw_turn
        if own:  # (no loop over an empty tuple for the games without such a hook)
            for hook in own:  # a variant's own draw (e.g. until playable)
                got = hook(st.current, rule)
                if got is not None:
                    break
        if got is None:
            got = self.give(st.current, self.p.draw_count, rule)
        st.drawn = got[-1] if got else None

    def pass_turn(self, action: Action | None = None) -> None:
        """CL.DRAW.KEEP, CL.DRAW.UNPLAYABLE-PASSES, CL.RESHUFFLE.BOTH-EMPTY: the turn passes.
        Its event names the rule that passed it: the player kept the drawn card (`keep`), or
        the card drawn cannot be played (the eventless edge), or there was no card to draw
        (both piles empty: play continues)."""
        st = self.st
        if action is not None:
            rule = "CL.DRAW.KEEP"
        elif st.drawn is None:
            rule = "CL.RESHUFFLE.BOTH-EMPTY"
        else:
            rule = "CL.DRAW.UNPLAYABLE-PASSES"
        st.drawn = None
        self.events.append(seat_event("passed", st.current, rule))
        st.current = self.seat(st.current)
