"""The engine API (OpenSpiel-like): `Game.new`, `Game.from_setup`, `legal_actions`, `apply`...

`apply` validates the action (raising an `IllegalAction` before anything changes), then walks
the dispatch table derived from the turn-phase machine: the first transition of the current
phase and event whose guards hold is taken, its effects run, then eventless transitions are
followed until none is enabled. `apply_via_machine` does the same through python-statemachine
itself; tests require both to agree.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from uno_fsm import errors as E
from uno_fsm import state_checks
from uno_fsm.actions import EVENT_OF, Action, Event, Pending, wrong_game
from uno_fsm.cards import COLOR_NAMES, Card, color_letter, of_game, parse, parse_many
from uno_fsm.dispatch import EVENTLESS, TABLE
from uno_fsm.params import Params
from uno_fsm.phase_table import DECISIONS, GAME_OVER, PLAY, ROUND_OVER
from uno_fsm.rules import VARIANTS, Rules
from uno_fsm.state import CLOCKWISE, COUNTERCLOCKWISE, State

# The table with its method names bound to Rules functions, once, at import.
_Compiled = tuple[tuple[Any, ...], str, tuple[Any, ...]]
_TABLE: dict[str, dict[str, tuple[_Compiled, ...]]] = {
    phase: {
        ev: tuple(
            (tuple(getattr(Rules, g) for g in e.conds), e.target,
             tuple(getattr(Rules, f) for f in e.effects))
            for e in edges
        )
        for ev, edges in events.items()
    }
    for phase, events in TABLE.items()
}
_EVENTLESS: dict[str, tuple[_Compiled, ...]] = {
    phase: tuple(
        (tuple(getattr(Rules, g) for g in e.conds), e.target,
         tuple(getattr(Rules, f) for f in e.effects))
        for e in edges
    )
    for phase, edges in EVENTLESS.items()
}
_ALLOWED: dict[str, dict[str, object]] = {p: dict(evs) for p, evs in TABLE.items()}

# A game walks the table less the edges of its idle guards (`Rules.idle_guards`: guards that
# cannot hold under its ruleset), made once per set of them, but only from the table as
# compiled above: a game made while `_TABLE` is changed (the model checker's coverage wrapping,
# the planted bugs of the tests) walks the changed table whole. It walks each edge as
# (guard, target, effect) (`_step_edges`): one call for the guards and one for the effects,
# with no loop over a tuple of one.
_Table = dict[str, dict[str, tuple[_Compiled, ...]]]
# (guard or None, target, effect, whether the target has eventless edges to follow): an edge
# as `apply` walks it
_Step = tuple[Any, str, Any, bool]
_Steps = dict[str, dict[str, tuple[_Step, ...]]]
_AS_COMPILED: _Table = {phase: dict(events) for phase, events in _TABLE.items()}
_PRUNED: dict[frozenset[str], _Steps] = {}
_CHANGED: list[tuple[_Table, _Steps]] = []  # the last changed table walked (a copy), its steps


def _no_effect(r: Rules, a: Action | None) -> None:
    """The effect of an edge that has none."""


def _step_edges(edges: tuple[_Compiled, ...]) -> tuple[_Step, ...]:
    """`edges` as `apply` walks them: the guards of each as one callable (None: no guard; the
    guard itself when there is one; else all of them, in order, the first that fails
    deciding), its effects as one (each in order), and whether `_settle` follows (the target
    is the source of eventless edges)."""
    out = []
    for guards, target, effects in edges:
        if not guards:
            guard = None
        elif len(guards) == 1:
            guard = guards[0]
        else:
            def guard(r: Rules, a: Action | None, guards: tuple[Any, ...] = guards) -> bool:
                for g in guards:
                    if not g(r, a):
                        return False
                return True
        if len(effects) == 1:
            effect = effects[0]
        elif not effects:
            effect = _no_effect
        else:
            def effect(r: Rules, a: Action | None, effects: tuple[Any, ...] = effects) -> None:
                for f in effects:
                    f(r, a)
        out.append((guard, target, effect, target in _EVENTLESS))
    return tuple(out)


def _table_for(idle: frozenset[str]) -> _Steps:
    if _TABLE != _AS_COMPILED:
        for table, steps in _CHANGED:
            if table == _TABLE:
                return steps
        steps = {phase: {ev: _step_edges(edges) for ev, edges in events.items()}
                 for phase, events in _TABLE.items()}
        _CHANGED[:] = [({phase: dict(events) for phase, events in _TABLE.items()}, steps)]
        return steps
    got = _PRUNED.get(idle)
    if got is None:
        got = _PRUNED[idle] = {
            phase: {ev: _step_edges(tuple(c for c, e in zip(edges, TABLE[phase][ev],
                                                            strict=True)
                                          if idle.isdisjoint(e.conds)))
                    for ev, edges in events.items()}
            for phase, events in _TABLE.items()
        }
    return got


_COMPILED = not __file__.endswith(".py")  # the optional build compiled by mypyc (`compiled()`)
_ENDED = frozenset({ROUND_OVER, GAME_OVER})  # the hand is over (or the game)
_PENDING: dict[tuple[int | None, str], Pending] = {}  # (player, phase) -> its Pending

def _seat_map(value: Any, players: int, what: str) -> dict[int, Any]:
    if value is None:
        return {}
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            seat = (k if type(k) is int else
                    int(k) if type(k) is str and k.isascii() and k.isdigit() else None)
            if seat is None or seat in out:
                why = "given twice" if seat is not None else "is not a seat number"
                raise E.MalformedAction(f"setup: {what}: seat {k!r} {why}")
            out[seat] = v
    elif isinstance(value, list | tuple):
        out = dict(enumerate(value))
    else:
        raise E.MalformedAction(f"setup: {what} must map seats to values")
    for seat in out:
        if not 0 <= seat < players:
            raise E.MalformedAction(f"setup: {what} names seat {seat} of {players}")
    return out


def _whole(value: Any, what: str) -> int:
    """An integer of a setup (not a bool, a float or a string), or MalformedAction. (A seat
    outside the table is refused before, by state_checks.check_setup.)"""
    if type(value) is not int:
        raise E.MalformedAction(f"setup: {what} must be an integer, not {value!r}")
    return value


def _check_players(params: Params, n: int, prefix: str = "") -> None:
    """CL.DECK.PLAYERS (RUL.PLAYERS.COUNT), FL.SETUP.PLAYERS (RUL.FLIP.PLAYER-COUNT),
    PARTNERS.EVEN (RUL.PARTNERS.TEAMS): the table the ruleset is played at, or
    WrongPlayerCount."""
    if params.players_ok(n):
        return
    if params.even_players and params.min_players <= n <= params.max_players:
        raise E.WrongPlayerCount(f"{prefix}{params.ruleset}: an even number of players "
                                 f"(players.even), not {n}", "PARTNERS.EVEN")
    even = " (an even number)" if params.even_players else ""
    raise E.WrongPlayerCount(f"{prefix}{params.ruleset}: {params.min_players}.."
                             f"{params.max_players} players{even}, not {n}",
                             "FL.SETUP.PLAYERS" if params.game == "flip" else "CL.DECK.PLAYERS")


class Game:
    """One game of UNO under a ruleset."""

    def __init__(self, state: State, params: Params, origin: dict[str, Any] | None = None):
        self.state = state
        self.params = params
        self._rules = Rules(state, params, _ALLOWED)
        self._table = _table_for(self._rules.idle_guards())
        if not _COMPILED and type(self).legal_actions is _LEGAL_ACTIONS:
            # `self.legal_actions()` calls the rules' listing directly (see `legal_actions`);
            # not in the compiled build (a compiled class has no attribute of its own to
            # set), nor where the class's method is not this module's (replaced, or a
            # subclass's own)
            setattr(self, "legal_actions", self._rules.legal_actions)  # noqa: B010
        self.log: list[Action] = []
        self.origin: dict[str, Any] = origin or {}
        self.setup_events: list[Event] = []  # what `new` / `from_setup` did (the first card...)
        self._sm: Any = None

    # ---- construction ----------------------------------------------------------------
    @classmethod
    def new(cls, ruleset: str | Any = "classic-official", players: int = 4, seed: int = 0,
            dealer: int | None = None) -> Game:
        """A new game: choose the dealer, shuffle, deal and turn the first card."""
        params = Params.of(ruleset)
        _check_players(params, players)
        state_checks.check_seed(seed)  # a whole number: NaN would be saved as bare NaN
        st = State(ruleset=params.ruleset, players=players, hands=[[] for _ in range(players)],
                   draw=[], discard=[], active_color=None, scores=[0] * players,
                   rng=random.Random(seed))
        game = cls(st, params, {"new": {"players": players, "seed": seed, "dealer": dealer}})
        game._rules.start_round(dealer)
        game._settle()
        game.setup_events, game._rules.events = game._rules.events, []
        return game

    @classmethod
    def from_setup(cls, ruleset: str | Any, setup: Mapping[str, Any], seed: int = 0) -> Game:
        """An exact position from a scenario's `setup` (docs/contracts.md)."""
        params = Params.of(ruleset)
        if not isinstance(setup, Mapping):
            raise E.MalformedAction("setup: a mapping is required")
        n = setup.get("players")
        if type(n) is not int:
            raise E.MalformedAction(f"setup: players must be an integer, not {n!r}")
        start = str(setup.get("start", "turn"))
        _check_players(params, n, "setup: ")
        state_checks.check_setup(params, setup, n, seed)  # seed, seats, scores, JSON data
        hands_in = _seat_map(setup.get("hands"), n, "hands")
        hands = [parse_many(hands_in.get(s, [])) for s in range(n)]
        draw = parse_many(setup.get("draw", []))
        draw.reverse()  # setup lists the draw pile top first; the state keeps the top last
        discard = parse_many(setup.get("discard", []))
        flip = params.game == "flip"
        for c in (*draw, *discard, *(c for h in hands for c in h)):
            if not of_game(c, flip):  # FL.DECK.SIZE / CL.DECK.TOTAL: the deck's own cards
                raise E.MalformedAction(f"setup: {wrong_game(c, flip)}")
        state_checks.check_cards(params, [*draw, *discard, *(c for h in hands for c in h)])
        scores_in = _seat_map(setup.get("scores"), n, "scores")
        direction = setup.get("direction", "clockwise")
        if direction not in ("clockwise", "counterclockwise"):
            raise E.MalformedAction(f"setup: direction {direction!r}")
        dealer = _whole(setup.get("dealer", n - 1), "dealer")
        side = str(setup.get("side", "light"))
        if side not in ("light", "dark") or (side == "dark" and params.game != "flip"):
            raise E.MalformedAction(f"setup: side {side!r} in a {params.game} game")
        st = State(
            ruleset=params.ruleset, players=n, hands=hands, draw=draw, discard=discard,
            active_color=None, scores=[_whole(scores_in.get(s, 0), "scores") for s in range(n)],
            direction=CLOCKWISE if direction == "clockwise" else COUNTERCLOCKWISE,
            dealer=dealer % n, side=side, rng=random.Random(seed),
        )
        game = cls(st, params, {"setup": dict(setup), "seed": seed})
        # the set-up fields of the variants (`Variant.setup_fields`, hook `from_setup`): read
        # by those the ruleset plays, refused for the others
        played = {type(v) for v in game._rules.variants}
        for variant in VARIANTS:
            if variant not in played:
                for key in variant.setup_fields:
                    if setup.get(key) is not None:
                        raise E.MalformedAction(f"setup: {key}: {params.ruleset} does not play "
                                                f"the variant {variant.name!r} that reads it")
        for hook in game._rules.hooks.from_setup:
            hook(setup, start)
        if start == "game":
            # docs/contracts.md, `start: game`: nothing dealt yet; `draw` (optional) is the whole
            # deck, top first. The dealer is chosen from its top by the ruleset's method, then
            # every card goes back, is shuffled, dealt, and the first card is turned.
            for key in ("hands", "discard", "current", "active_color", "dealer", "direction",
                        "side"):
                if key in setup:
                    raise E.MalformedAction(f"setup: start: game takes no {key!r}")
            if "seed" in setup:
                st.rng = random.Random(_whole(setup["seed"], "seed"))
            game._rules.start_round(None, ordered=bool(draw))
            game._settle()
            game.setup_events, game._rules.events = game._rules.events, []
        elif start == "round":
            if discard:
                raise E.MalformedAction("setup: start: round begins with an empty discard pile")
            game._rules.turn_first_card()
            game._settle()
            game.setup_events, game._rules.events = game._rules.events, []
        elif start == "turn":
            if not discard:
                raise E.MalformedAction("setup: start: turn needs a discard pile")
            st.current = _whole(setup.get("current", game._rules.left(st.dealer)),
                                "current") % n
            if st.current not in game._rules.seats():  # a seat out of the game has no turn
                raise E.Eliminated(f"setup: current {st.current} is eliminated (has no turn)",
                                   "DESAFIO.ELIMINATED-OUT")
            color = setup.get("active_color")
            top = game._rules.top()
            if color is not None:
                try:
                    st.active_color = color_letter(str(color))
                except E.CardNotationError as exc:
                    raise E.InvalidColor(f"setup: colour {color!r}") from exc
                if st.active_color not in params.colors_of(side):  # CL.WILD.FOUR-COLOURS
                    raise E.InvalidColor(f"setup: {color!r} is not a colour of the {side} side")
            elif top is not None and not top.is_wild:
                st.active_color = top.color
            else:
                raise E.MalformedAction("setup: active_color is needed when the top is a Wild")
            st.phase = PLAY
        else:
            raise E.MalformedAction(f"setup: start must be turn, round or game, not {start!r}")
        return game

    # ---- queries ---------------------------------------------------------------------
    @property
    def pending(self) -> Pending | None:
        """The decision the game waits for; None when the game is over. (Pending values are
        immutable: each one is built once, `_PENDING`.)"""
        st = self.state
        phase = st.phase
        if phase == GAME_OVER:
            return None
        key = (None if phase == ROUND_OVER else st.current, phase)
        got = _PENDING.get(key)
        if got is None:
            got = Pending(key[0], DECISIONS[phase])
            if len(_PENDING) < 4096:
                _PENDING[key] = got
        return got

    @property
    def is_over(self) -> bool:
        return self.state.phase == GAME_OVER

    @property
    def round_over(self) -> bool:
        return self.state.phase in _ENDED

    @property
    def scores(self) -> list[int]:
        return list(self.state.scores)

    @property
    def winner(self) -> int | None:
        st = self.state
        return st.winner if st.phase == GAME_OVER else st.round_winner

    @property
    def winners(self) -> list[int]:
        """The game's winners once it is over (FLALT.TIE: the tied lowest share the win)."""
        st = self.state
        return list(st.winners) if st.phase == GAME_OVER else []

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every action the rules allow now (turn owner, the variants' plays, open windows);
        table penalties (referee actions) are not listed. With `player`, only that player's.
        A new list each time (the actions themselves are immutable).

        (`Rules.legal_actions`, turn.py. As plain Python, a game's `legal_actions` is that
        method itself, bound in `__init__`: one Python call per listing instead of two. So a
        game lists with the `Rules.legal_actions` of when it was made, as it walks the
        dispatch table of when it was made.)"""
        return self._rules.legal_actions(player)

    def wild_colors(self) -> tuple[str, ...]:
        """The colour letters a Wild may name now (CL.WILD.FOUR-COLOURS, CL.WILD.MUST-CHANGE:
        the engine's one reading, `Core.wild_colors`)."""
        return self._rules.wild_colors()

    def state_changed(self) -> None:
        """Say that `state` was changed directly (not by `apply`), e.g. by a test setting up
        a position: the legal actions found for the previous state are forgotten, so `apply`
        validates again every action it is given."""
        self._rules.changed()

    def is_legal(self, action: object) -> bool:
        try:
            self._rules.validate(action)
        except E.IllegalAction:
            return False
        return True

    # ---- acting ----------------------------------------------------------------------
    def apply(self, action: object) -> list[Event]:
        """Apply `action`; return what happened. Raises IllegalAction, state unchanged
        (MalformedAction for anything that is not a well-formed `Action`)."""
        r = self._rules
        st = self.state
        act: Action | None = None
        listed = r.listed
        if listed is not None:
            # an action taken from the current legal list (the same object, listed for this
            # very state: `listed` is forgotten whenever the state changes) was validated
            # when it was listed; a play by another seat than the turn owner's still goes
            # through `validate` for its event
            for a in listed:
                if a is action:
                    if a.player == st.current or a.kind != "play":
                        event = EVENT_OF[a.kind]
                        act = a
                    break
        if act is None:
            event = r.validate(action)
            act = cast(Action, action)  # validate refused anything else
        events: list[Event] = []
        r.events = events
        try:
            if st.uno_window is not None:  # (else `begin` has no window to close)
                r.begin(event)
            for guard, target, effect, settles in self._table[st.phase][event]:
                if guard is None or guard(r, act):
                    effect(r, act)
                    st.phase = target
                    if settles:
                        self._settle()
                    break
        finally:
            r.listed = r.turn_playable = None  # the state changed (Rules.changed)
        self.log.append(act)
        return events

    def _settle(self) -> None:
        """Follow eventless transitions until none is enabled. Bounded: the eventless edges
        form an acyclic graph (`dispatch.eventless_depth`, checked at import), so this takes at
        most that many transitions (1 today: dealing -> play / choose_color, play_drawn ->
        play, round_over -> game_over)."""
        r = self._rules
        st = self.state
        while True:
            for guards, target, effects in _EVENTLESS.get(st.phase, ()):
                for g in guards:
                    if not g(r, None):
                        break
                else:
                    for f in effects:
                        f(r, None)
                    st.phase = target
                    break
            else:
                return

    def next_round_dealt(self, hands: Sequence[Sequence[Card]], draw: Sequence[Card],
                         dealer: int | None = None) -> list[Event]:
        """`Action.next_round()` with the next hand given instead of shuffled and dealt (a
        scenario's fixed deal, docs/scenario-format.md): `hands` per seat, `draw` top first,
        the `dealer` (None: chosen by the ruleset's method); the first card is turned from
        `draw` as in any hand (CL.END.NEW-HAND). The cards must be exactly the game's (nothing
        comes or goes), and a seat out of the game holds none and does not deal;
        else MalformedAction (Eliminated), state unchanged."""
        from collections import Counter

        st = self.state
        if len(hands) != st.players:
            raise E.MalformedAction(f"deal: a hand for each of the {st.players} seats")
        given = [c for h in hands for c in h] + list(draw)
        if Counter(given) != Counter(st.all_cards()):
            raise E.MalformedAction("deal: the cards dealt must be the game's own, each once "
                                    f"({len(given)} given, the game holds {len(st.all_cards())})")
        seated = set(self._rules.seats())
        if dealer is not None and (type(dealer) is not int or not 0 <= dealer < st.players):
            raise E.MalformedAction(f"deal: dealer {dealer!r} is not a seat 0..{st.players - 1}")
        if dealer is not None and dealer not in seated:  # DESAFIO.ELIMINATED-OUT
            raise E.Eliminated(f"deal: seat {dealer} is out of the game and cannot deal",
                               "DESAFIO.ELIMINATED-OUT")
        for seat, hand in enumerate(hands):
            if hand and seat not in seated:  # DESAFIO.ELIMINATED-OUT
                raise E.Eliminated(f"deal: seat {seat} is out of the game and is dealt nothing",
                                   "DESAFIO.ELIMINATED-OUT")
        if st.phase != ROUND_OVER:  # the refusal of next_round itself (round-over, game-over)
            return self.apply(Action.next_round())
        self._rules.fixed_deal = ([list(h) for h in hands], list(draw)[::-1], dealer)
        try:
            return self.apply(Action.next_round())
        finally:
            self._rules.fixed_deal = None

    def apply_via_machine(self, action: object) -> list[Event]:
        """Like `apply`, but let python-statemachine select and run the transitions (slow;
        used to prove that the dispatch table and the machine agree)."""
        r = self._rules
        event = r.validate(action)
        action = cast(Action, action)  # validate refused anything else
        events: list[Event] = []
        r.events = events
        r.begin(event)
        if self._sm is None:
            from uno_fsm.phases import TurnPhases  # python-statemachine: only on this path

            self._sm = TurnPhases(r, state_field="phase")
        try:
            self._sm.send(event, action=action)
        finally:
            r.changed()
        self.log.append(action)
        return events

    # ---- views -----------------------------------------------------------------------
    def view(self, player: int) -> dict[str, Any]:
        """What `player` may see: their own hand, everyone's hand size, the table."""
        from uno_fsm.view import player_view

        return player_view(self, player)

    # ---- serialization ---------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The game as plain data: its state (uno_fsm.state), its origin and its log, compact:
        `{"actions": [each distinct action once, in order of first use, as
        "kind,player,card,colour,uno,target" (_action_text)], "order": [the log as indexes
        into actions]}`."""
        index: dict[Action, int] = {}
        order = [index.setdefault(a, len(index)) for a in self.log]
        return {
            "state": self.state.to_dict(),
            "origin": self.origin,
            "log": {"actions": [_action_text(a) for a in index], "order": order},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: object, ruleset: str | Any | None = None) -> Game:
        """The game `to_json` wrote (state format 2, or 1: uno_fsm.state), exactly: it plays
        on as the original would, shuffles included. Anything else raises InvalidState naming
        the field (uno_fsm.state_checks)."""
        saved = state_checks.read_saved(text, ruleset)  # every field, against the ruleset
        game = cls(saved.state, saved.params, saved.origin)
        game.log = state_checks.decoded_log(_log_from, saved.log, saved.state.players)
        state_checks.check_position(game, saved.deck)  # the invariants of a reachable position
        return game

    @classmethod
    def replay(cls, ruleset: str | Any, players: int, seed: int,
               log: Sequence[Action], dealer: int | None = None) -> Game:
        """A new game from a seed, with the action log applied: the same game again."""
        game = cls.new(ruleset, players, seed, dealer)
        for action in log:
            game.apply(action)
        return game

    def __repr__(self) -> str:
        st = self.state
        top = st.discard[-1].text if st.discard else "-"
        color = COLOR_NAMES.get(st.active_color or "", "-")
        return (f"<Game {st.ruleset} round {st.round} phase {st.phase} P{st.current} "
                f"top {top} {color}>")


# The log's compact action form: "kind,player,card,colour,uno,target" with empty fields for
# None/False and the empty fields at the end left out ("draw,0", "play,1,W4,r,uno",
# "catch,2,,,,0", "next-round"); an action that form cannot hold exactly is written as its
# Action.to_dict. Decoded actions are kept by their text: a game repeats a few thousand.
_TEXT_FIELDS = ("kind", "player", "card", "color", "uno", "target")
_DECODED: dict[str, Action] = {}
_DECODED_MAX = 1 << 16  # emptied when full


def _action_text(a: Action) -> str | dict[str, object]:
    if "," in a.kind or a.color is not None and (a.color == "" or "," in a.color):
        return a.to_dict()
    return ",".join((a.kind, "" if a.player is None else str(a.player),
                     "" if a.card is None else a.card.text, a.color or "",
                     "uno" if a.uno else "", "" if a.target is None else str(a.target))
                    ).rstrip(",")


def _text_action(text: str) -> Action:
    """The action `_action_text` wrote, decoded strictly (Action.from_dict)."""
    got = _DECODED.get(text)
    if got is not None:
        return got
    parts = text.split(",")
    if len(parts) > len(_TEXT_FIELDS):
        raise E.MalformedAction(f"log: {text!r} is not kind,player,card,colour,uno,target")
    values = dict(zip(_TEXT_FIELDS, parts + [""] * (len(_TEXT_FIELDS) - len(parts)), strict=True))
    d: dict[str, object] = {"kind": values["kind"]}
    for seat in ("player", "target"):
        if v := values[seat]:
            if not (v.isascii() and v.isdigit() and v == str(int(v))):
                raise E.MalformedAction(f"log: {text!r}: {seat} {v!r} is not a seat")
            d[seat] = int(v)
    for name in ("card", "color"):
        if values[name]:
            d[name] = values[name]
    if values["uno"]:
        if values["uno"] != "uno":
            raise E.MalformedAction(f"log: {text!r}: {values['uno']!r} where uno or nothing is")
        d["uno"] = True
    action = Action.from_dict(d)
    if len(_DECODED) >= _DECODED_MAX:
        _DECODED.clear()
    _DECODED[text] = action
    return action


def _log_from(value: Any) -> list[Action]:
    """The log `Game.to_dict` wrote: {"actions": [...], "order": [indexes]}, or the plain list of
    actions (Action.to_dict) that format 1 wrote. Each action is decoded strictly; an index
    that is not one raises MalformedAction."""
    if isinstance(value, list):  # format 1: every action in full
        return [Action.from_dict(a) for a in value]
    if not isinstance(value, dict) or set(value) != {"actions", "order"} \
            or not isinstance(value["actions"], list) or not isinstance(value["order"], list):
        raise E.MalformedAction("a log is {\"actions\": [...], \"order\": [indexes]}")
    actions = [_text_action(a) if a.__class__ is str else Action.from_dict(a)
               for a in value["actions"]]
    order = value["order"]
    n = len(actions)
    for i in order:
        if i.__class__ is not int or not 0 <= i < n:
            raise E.MalformedAction(f"log: {i!r} is not the index of one of its {n} actions")
    return [actions[i] for i in order]


def card(text: str) -> Card:
    """Shorthand for `uno_fsm.cards.parse`."""
    return parse(text)


_LEGAL_ACTIONS = Game.legal_actions  # the class's own (`Game.__init__` binds the rules' then)
