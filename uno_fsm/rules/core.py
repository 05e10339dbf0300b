"""What every rule area shares: the state and parameters, faces, seats, the draw pile.

`Core` is the base of every area's mixin (uno_fsm/rules/*.py) and of `uno_fsm.rules.Rules`,
their composition and the model of the turn-phase machine. It holds the state, the ruleset's
parameters, the events of the action being applied and the hooks of the variants the game
plays (uno_fsm/rules/hooks.py).

Rules here: CL.RESHUFFLE.* (the draw pile refilled from the discards), CL.PEN.FROM-DRAW-PILE,
FL.PLAY.ACTIVE-SIDE (every face is read through `face`), CL.WILD.FOUR-COLOURS and
CL.WILD.MUST-CHANGE (`wild_colors`: the colours a Wild may name now). The seats in play
(`seat`, `left`, `seats`, `seated`): every seat of the table, unless a variant takes some out
of the game (hook `seats_in_play`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar

from mypy_extensions import trait

from uno_fsm import errors as E
from uno_fsm.actions import FORMED, Action, Event, EventStore, interned, kept_event
from uno_fsm.cards import Card, Face, color_name
from uno_fsm.params import Params
from uno_fsm.rules.hooks import CardEffect, Hooks, Variant
from uno_fsm.state import CLOCKWISE, State

Plays = dict[tuple[int, int, str, str | None, bool], dict[Card, tuple[Action, ...]]]
PLAYS: dict[tuple[tuple[str, ...], tuple[str, ...], bool, bool], Plays] = {}
SEAT_ACTIONS: dict[int, dict[str, tuple[Action, ...]]] = {}
DREW: EventStore = {}  # (seat, cards drawn, rule) -> the event of the draw (`give`)


@trait
class Core:
    """State, parameters, events and hooks, with the helpers every rule area uses.

    Core and the area mixins are mypyc traits (a no-op when the engine runs as plain
    Python): the optional compiled build (docs/performance.md) allows multiple inheritance
    only of traits. `Rules` is the one concrete class."""

    st: State
    p: Params
    events: list[Event]
    _allowed: dict[str, dict[str, object]]
    _flip: bool
    _formed: dict[int, Action]
    variants: tuple[Variant, ...]
    hooks: Hooks
    effects: dict[str, CardEffect]
    listed: list[Action] | None
    turn_playable: list[Card] | None
    _plays: Plays
    seat_actions: dict[str, tuple[Action, ...]]
    draw_actions: tuple[Action, ...]
    challenge_kinds: frozenset[str]
    _seat_hooks: tuple[Callable[[], Sequence[int] | None], ...]
    _side_colors: dict[str, tuple[str, ...]]
    _match_hooked: bool

    # filled by uno_fsm.rules: the house rules (VARIANTS) and the card effects (kind -> the
    # name of a method of Rules: `effect(actor, face, action) -> bool`)
    VARIANTS: ClassVar[tuple[type[Variant], ...]] = ()
    CARD_EFFECTS: ClassVar[dict[str, str]] = {}

    def init_core(self, state: State, params: Params,
                  allowed: dict[str, dict[str, object]]) -> None:
        """The constructor's work (`Rules.__init__` calls it: a trait has no constructor)."""
        self.st = state
        self.p = params
        self._flip = params.game == "flip"
        self._formed = FORMED[self._flip]  # actions known well formed for this game
        self.events: list[Event] = []
        # the next hand's hands, draw pile (top last) and dealer (None: chosen as usual) when
        # they are given rather than shuffled and dealt (`Game.next_round_dealt`: a scenario's
        # fixed deal); used once
        self.fixed_deal: tuple[list[list[Card]], list[Card], int | None] | None = None
        self._allowed = allowed  # phase -> event -> edges (the machine's table)
        self.variants = tuple(v(self) for v in params.played(self.VARIANTS))
        self.hooks = Hooks(self.variants)
        self._seat_hooks = self.hooks.seats_in_play
        # a variant changes the matching rule (hooks `playable`, `restrict_plays`)
        self._match_hooked = bool(self.hooks.playable or self.hooks.restrict_plays)
        effects: dict[str, CardEffect] = {k: getattr(self, m)
                                          for k, m in self.CARD_EFFECTS.items()}
        for v in self.variants:
            effects.update(v.card_effects())
        self.effects = effects
        # the decision being answered, as `legal_actions` found it (turn.py): its legal
        # actions and the turn owner's playable cards; None once the state has changed
        self.listed: list[Action] | None = None
        self.turn_playable: list[Card] | None = None
        # (seat, cards held: 1, 2 or 3 for more, the side and the colour in force, which
        # decide the colours a Wild may name (`wild_colors`), last_wild) -> card -> its play
        # actions, shared by the games whose rulesets list plays alike (interned actions, like
        # `FORMED`)
        self._plays = PLAYS.setdefault((params.colors, params.dark_colors,
                                        params.uno_call_with_play, params.wild_must_change), {})
        # kind -> seat -> the interned action of that kind by that seat (no card, no target)
        seats = SEAT_ACTIONS.get(state.players)
        if seats is None:
            seats = SEAT_ACTIONS[state.players] = {
                kind: tuple(interned(kind, s) for s in range(state.players))
                for kind in ("draw", "pass", "challenge", "accept", "uno")}
        self.seat_actions = seats
        self.draw_actions = seats["draw"]  # (the one a turn owner may always take: listed most)
        # the Wild Draw card kinds whose challenge the ruleset allows (CL.WD4.CHALLENGE.DECISION)
        self.challenge_kinds = frozenset(k for k, ch in params.challenges.items() if ch.allowed)
        # side -> its colours (Params.colors_of, CL.WILD.FOUR-COLOURS), read by `wild_colors`
        self._side_colors = {side: params.colors_of(side) for side in ("light", "dark")}

    # the machine stores its configuration here (state_field="phase")
    @property
    def phase(self) -> str:
        return self.st.phase

    @phase.setter
    def phase(self, value: str) -> None:
        self.st.phase = value

    def changed(self) -> None:
        """The state changed: forget what `legal_actions` found (every `Game` entry point that
        changes the state calls it; code that changes `Game.state` directly must too)."""
        self.listed = None
        self.turn_playable = None

    def variant(self, name: str) -> Variant | None:
        """The game's instance of the variant `name`, if it plays it."""
        return next((v for v in self.variants if v.name == name), None)

    # ---- helpers ---------------------------------------------------------------------
    def face(self, card: Card) -> Face:
        """FL.PLAY.ACTIVE-SIDE: a card is its face of the side in play (`Card.on`)."""
        return card.on[self.st.side]

    def top(self) -> Face | None:
        st = self.st
        return self.face(st.discard[-1]) if st.discard else None

    def seat(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` places from `seat` in the direction of play, among the seats in
        play."""
        st = self.st
        if self._seat_hooks:
            return self._step(seat, steps, st.direction)
        return (seat + st.direction * steps) % st.players

    def left(self, seat: int) -> int:
        """CL.SEAT.LEFT: the next seat clockwise (among the seats in play)."""
        if self._seat_hooks:
            return self._step(seat, 1, CLOCKWISE)
        return (seat + 1) % self.st.players

    def seats(self) -> Sequence[int]:
        """The seats in the game, ascending: every seat, or those a variant leaves in play
        (hook `seats_in_play`)."""
        for hook in self._seat_hooks:
            got = hook()
            if got is not None:
                return got
        return range(self.st.players)

    def seated(self) -> int:
        """How many players take part (CL.TWO.SCOPE: two of them play the two-player rules)."""
        return len(self.seats()) if self._seat_hooks else self.st.players

    def _step(self, seat: int, steps: int, direction: int) -> int:
        """`seat` moved `steps` seats in `direction`, counting only the seats in play (with two
        in play, seat + 2 is the seat itself: CL.TWO.SKIP-AGAIN, CL.TWO.D2-AGAIN,
        CL.TWO.WD4-AGAIN). Bounded: at most `players` moves per step."""
        n = self.st.players
        seats = self.seats()
        if len(seats) == n:
            return (seat + direction * steps) % n
        if steps < 0:
            direction, steps = -direction, -steps
        for _ in range(steps):
            for _ in range(n):
                seat = (seat + direction) % n
                if seat in seats:
                    break
        return seat

    def wild_colors(self) -> tuple[str, ...]:
        """The colours a Wild may name now, the one place they are decided (the legal actions
        list them, `check_wild_color` refuses the others): the colours of the side in play
        (CL.WILD.FOUR-COLOURS), the colour in force among them (CL.WILD.SAME-COLOUR) unless
        the table plays `wild.must_change_color` (CL.WILD.MUST-CHANGE); with no colour in
        force (a Wild turned first, CL.FIRST.WILD) every colour of the side."""
        st = self.st
        colors = self._side_colors[st.side]
        cur = st.active_color
        if self.p.wild_must_change and cur is not None and cur in colors:  # CL.WILD.MUST-CHANGE
            return tuple(c for c in colors if c != cur)
        return colors

    def check_wild_color(self, color: str | None) -> None:
        """Refuse a colour `wild_colors` does not list (invalid-color): the colour in force
        under CL.WILD.MUST-CHANGE, anything else under CL.WILD.FOUR-COLOURS."""
        if color in self.wild_colors():
            return
        if color is not None and color in self.p.colors_of(self.st.side):
            raise E.InvalidColor(f"{color_name(color)} is the colour in force: this table's "
                                 "Wild must change it", "CL.WILD.MUST-CHANGE")
        raise E.InvalidColor(f"{color!r} is not a colour in play", "CL.WILD.FOUR-COLOURS")

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

    def give(self, seat: int, n: int, rule: str,
             until: Callable[[Card], bool] | None = None) -> tuple[Card, ...]:
        """`seat` draws `n` cards from the draw pile (CL.PEN.FROM-DRAW-PILE), or, with `until`,
        cards until `until(card)` holds for one drawn (at least one card); an empty draw pile
        is refilled from the discards first (CL.RESHUFFLE.WHEN), and the drawing stops short
        when both are empty (CL.RESHUFFLE.BOTH-EMPTY). The one refill-and-draw loop of the
        engine (penalties, drawing, a Wild Draw Colour's `give_until`, a variant's draw).
        Bounded: every turn of the loop moves one card from the draw pile into the hand and
        none goes back (a reshuffle only moves discards under the top into the draw pile), so
        it ends within `n` cards, or len(draw) + len(discard) - 1 with `until`."""
        st = self.st
        hand = st.hands[seat]
        got: list[Card] = []
        draw = st.draw
        left = n
        while left > 0 or until is not None:
            if not draw:
                if not self.reshuffle():
                    # CL.RESHUFFLE.BOTH-EMPTY: the draw stops short
                    self.events.append(Event("exhausted", seat, count=len(got),
                                             rule="CL.RESHUFFLE.BOTH-EMPTY"))
                    break
                draw = st.draw
            card = draw.pop()
            hand.append(card)
            got.append(card)
            left -= 1
            if until is not None and until(card):
                break
        out = tuple(got)
        key = (seat, out, rule)
        event = DREW.get(key)
        if event is None:
            event = kept_event(DREW, key, ("drew", seat, None, out, None, len(out), rule))
        self.events.append(event)
        return out

    # ---- the methods of other areas that the shared flow calls ----------------------
    # Defined by the area mixins (uno_fsm.rules), which come before Core in Rules' MRO, so
    # these bodies never run; they let this module call them with their types checked.
    def playable(self, cards: Iterable[Card]) -> list[Card]:
        raise NotImplementedError

    def matches(self, card: Card) -> bool:
        raise NotImplementedError

    def play_actions(self, seat: int, cards: Iterable[Card], hand: list[Card],
                     out: list[Action], last_wild: bool = True) -> None:
        raise NotImplementedError

    def place(self, a: Action) -> Face:
        raise NotImplementedError

    def validate_challenge(self, a: Action) -> None:
        raise NotImplementedError

    def validate_swap(self, a: Action) -> None:
        raise NotImplementedError

    def validate_window(self, a: Action, event: str,
                        allowed: dict[str, object]) -> None:
        raise NotImplementedError

    def validate_uno_call(self, a: Action, hand: list[Card]) -> None:
        raise NotImplementedError

    def after_play(self, a: Action, actor: int) -> None:
        raise NotImplementedError

    def penalty(self, seat: int, n: int, color: str | None, rule: str) -> None:
        raise NotImplementedError

    def challenged(self) -> str:
        raise NotImplementedError

    def flip(self) -> None:
        raise NotImplementedError

    def number_effect(self, actor: int, f: Face, a: Action) -> bool:
        raise NotImplementedError

    def winner_takes_game(self) -> None:
        raise NotImplementedError

    def start_round(self, dealer: int | None, ordered: bool = False) -> None:
        raise NotImplementedError

    def turn_first_card(self) -> None:
        raise NotImplementedError
