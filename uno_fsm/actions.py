"""Actions (what a player or the referee does) and Events (what happened).

Action kinds and the machine events they send (uno_fsm.phases.TurnPhases):

| kind | fields | event |
|---|---|---|
| `play` | player, card, color (Wilds), uno (call UNO with the play) | play_card |
| `draw` | player | draw |
| `pass` | player (keep the drawn card) | keep |
| `color` | player, color (the colour for a Wild played without one) | pick_color |
| `challenge` / `accept` | player (the victim of a Wild Draw Four) | challenge_card / accept |
| `swap` | player, target (a variant's swap decision) | choose_swap |
| `uno` | player (holding one card) | call_uno |
| `catch` | player, target (who did not call UNO) | catch |
| `hint` | target (referee: the player who gave a hint) | hint |
| `wrong-card` | target, card (referee: the player who tried a wrong card) | wrong_card |
| `next-round` | (anyone) | next_round |
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from uno_fsm import errors as E
from uno_fsm import phase_table as P
from uno_fsm.cards import Card, of_game

EVENT_OF: dict[str, str] = {
    "play": P.PLAY_CARD,
    "draw": P.DRAW,
    "pass": P.KEEP,
    "color": P.PICK_COLOR,
    "challenge": P.CHALLENGE_CARD,
    "accept": P.ACCEPT,
    "swap": P.CHOOSE_SWAP,
    "uno": P.CALL_UNO,
    "catch": P.CATCH,
    "hint": P.HINT,
    "wrong-card": P.WRONG_CARD,
    "next-round": P.NEXT_ROUND,
}
REFEREE_KINDS = frozenset({"hint", "wrong-card"})
# the fields each kind may carry (besides `kind`); any other field set is malformed-action
FIELDS: dict[str, frozenset[str]] = {
    "play": frozenset({"player", "card", "color", "uno"}),
    "draw": frozenset({"player"}),
    "pass": frozenset({"player"}),
    "color": frozenset({"player", "color"}),
    "challenge": frozenset({"player"}),
    "accept": frozenset({"player"}),
    "swap": frozenset({"player", "target"}),
    "uno": frozenset({"player"}),
    "catch": frozenset({"player", "target"}),
    "hint": frozenset({"target"}),
    "wrong-card": frozenset({"target", "card"}),
    "next-round": frozenset(),
}
KEYS = frozenset({"kind", "player", "card", "color", "uno", "target"})  # of `Action.to_dict`


# The interned actions `Game.legal_actions` builds (`interned`), well formed by
# construction, by id, for a classic game (False) and for UNO Flip (True): `Rules.validate`
# skips `check_form` for them (an id lookup instead of a few type checks). The maps hold the
# actions, so an id here is never reused by another object.
FORMED: dict[bool, dict[int, Action]] = {False: {}, True: {}}


def formed(a: Action) -> Action:
    """Record the well-formed `a` (it is kept for ever) for the games its card belongs to."""
    check_form(a)
    card = a.card
    for flip in (False, True):
        if card is None or of_game(card, flip):
            FORMED[flip][id(a)] = a
    return a


_INTERNED: dict[tuple[object, ...], Action] = {}


def interned(kind: str, player: int | None, card: Card | None = None, color: str | None = None,
             uno: bool = False, target: int | None = None) -> Action:
    """An interned, well-formed Action (legal_actions builds the same few thousand again and
    again)."""
    key = (kind, player, card, color, uno, target)
    got = _INTERNED.get(key)
    if got is None:
        got = _INTERNED[key] = formed(Action(kind, player, card, color, uno, target))
    return got


def check_form(a: object, flip: bool | None = None) -> Action:
    """`a` itself, if it is a well-formed Action (for a game of UNO Flip if `flip`, of classic
    UNO if `flip` is False; None: either); else MalformedAction (CL.PLAY.TURN-OPTIONS: only
    the actions the rules name exist). Only the form: seats are checked against the table,
    cards against the hand, by the rules. Cheap: a few type checks, so `Game.apply` runs it
    on every action."""
    if a.__class__ is not Action and not isinstance(a, Action):
        raise E.MalformedAction(f"not an action: {_short(a)}")
    kind = a.kind
    try:
        allowed = FIELDS[kind]
    except (KeyError, TypeError):  # an unknown kind, or not even a string
        raise E.MalformedAction(f"unknown action kind {_short(kind)}") from None
    player, target, card, color = a.player, a.target, a.card, a.color
    if player is not None and (player.__class__ is not int or "player" not in allowed):
        raise E.MalformedAction(f"{kind}: player {_short(player)} is not a seat it takes")
    if target is not None and (target.__class__ is not int or "target" not in allowed):
        raise E.MalformedAction(f"{kind}: target {_short(target)} is not a seat it takes")
    uno = a.uno
    if uno is not False and (uno is not True or "uno" not in allowed):
        raise E.MalformedAction(f"{kind}: uno {_short(uno)} (true, with a play only)")
    if color is not None and (color.__class__ is not str or "color" not in allowed):
        raise E.MalformedAction(f"{kind}: color {_short(color)} is not a colour it takes")
    if card is not None:
        if card.__class__ is not Card or "card" not in allowed:
            raise E.MalformedAction(f"{kind}: card {_short(card)} is not a card it takes")
        if flip is not None and not of_game(card, flip):
            raise E.MalformedAction(wrong_game(card, flip))
    return a


def wrong_game(card: Card, flip: bool) -> str:
    return (f"{card.text} is not a card of UNO Flip (light/dark)" if flip
            else f"{card.text} is a card of UNO Flip, not of classic UNO")


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


@dataclass(frozen=True, slots=True)
class Action:
    """One action. `player` is the actor (None for the referee and for next-round)."""

    kind: str
    player: int | None = None
    card: Card | None = None
    color: str | None = None  # colour letter
    uno: bool = False
    target: int | None = None

    def __str__(self) -> str:
        who = "referee" if self.player is None else f"P{self.player}"
        parts = [who, self.kind]
        if self.card is not None:
            parts.append(self.card.text)
        if self.color is not None:
            parts.append(self.color)
        if self.uno:
            parts.append("UNO!")
        if self.target is not None:
            parts.append(f"-> P{self.target}")
        return " ".join(parts)

    # constructors -------------------------------------------------------------------
    @staticmethod
    def play(player: int, card: Card, color: str | None = None, uno: bool = False) -> Action:
        return Action("play", player, card, color, uno)

    @staticmethod
    def draw(player: int) -> Action:
        return Action("draw", player)

    @staticmethod
    def keep(player: int) -> Action:
        return Action("pass", player)

    @staticmethod
    def choose_color(player: int, color: str) -> Action:
        return Action("color", player, color=color)

    @staticmethod
    def challenge(player: int) -> Action:
        return Action("challenge", player)

    @staticmethod
    def accept(player: int) -> Action:
        return Action("accept", player)

    @staticmethod
    def swap(player: int, target: int) -> Action:
        return Action("swap", player, target=target)

    @staticmethod
    def call_uno(player: int) -> Action:
        return Action("uno", player)

    @staticmethod
    def catch(player: int, target: int) -> Action:
        return Action("catch", player, target=target)

    @staticmethod
    def hint(target: int) -> Action:
        return Action("hint", None, target=target)

    @staticmethod
    def wrong_card(target: int, card: Card | None = None) -> Action:
        return Action("wrong-card", None, card=card, target=target)

    @staticmethod
    def next_round() -> Action:
        return Action("next-round")

    # JSON ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"kind": self.kind}
        if self.player is not None:
            d["player"] = self.player
        if self.card is not None:
            d["card"] = self.card.text
        if self.color is not None:
            d["color"] = self.color
        if self.uno:
            d["uno"] = True
        if self.target is not None:
            d["target"] = self.target
        return d

    @staticmethod
    def from_dict(d: object) -> Action:
        """The inverse of `to_dict`, strict: a mapping with a known `kind` and only the keys
        `to_dict` writes, seats as integers, the card in the notation of docs/contracts.md;
        anything else raises MalformedAction. (Whether the fields suit the kind is checked
        by `check_form`, which the game runs on every action.)"""
        from uno_fsm.cards import parse

        if not isinstance(d, dict):
            raise E.MalformedAction(f"an action is a mapping, not {_short(d)}")
        extra = sorted(str(k) for k in d if k not in KEYS)
        if extra:
            raise E.MalformedAction(f"unknown action key(s) {', '.join(extra)}")
        kind = d.get("kind")
        if type(kind) is not str or kind not in FIELDS:
            raise E.MalformedAction(f"unknown or missing action kind {_short(kind)}")
        card = d.get("card")
        if card is not None:
            if type(card) is not str:
                raise E.MalformedAction(f"{kind}: card {_short(card)} is not a card notation")
            try:
                card = parse(card)
            except E.CardNotationError as exc:
                raise E.MalformedAction(f"{kind}: {exc}") from None
        # any value may reach the fields here: check_form refuses what is not of their type
        action = Action(kind=kind, player=d.get("player"), card=card, color=d.get("color"),
                        uno=d.get("uno", False), target=d.get("target"))
        return check_form(action)


class Event(NamedTuple):
    """Something that happened, with the rule ID that made it happen. Immutable; a named tuple
    rather than a frozen dataclass because the engine makes one or two per action and a frozen
    dataclass costs about ten times as much to build (docs/performance.md)."""

    kind: str  # played, drew, color, skipped, reversed, challenged, ... (see docs/engine.md)
    player: int | None = None
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    color: str | None = None
    count: int = 0  # type: ignore[assignment]  # (the field shadows tuple.count)
    rule: str = ""

    def __str__(self) -> str:
        bits = [self.kind]
        if self.player is not None:
            bits.append(f"P{self.player}")
        if self.card is not None:
            bits.append(self.card.text)
        if self.cards:
            bits.append("[" + " ".join(c.text for c in self.cards) + "]")
        if self.color is not None:
            bits.append(self.color)
        if self.count:
            bits.append(str(self.count))
        if self.rule:
            bits.append(f"({self.rule})")
        return " ".join(bits)


# `new_event((kind, player, card, cards, color, count, rule))`: an Event from all seven fields in
# order, built by `tuple.__new__` itself (C), without the named tuple's Python-level `__new__`
EventFields = tuple[str, int | None, Card | None, tuple[Card, ...], str | None, int, str]
new_event: Callable[[EventFields], Event] = partial(tuple.__new__, Event)

# The events the hot paths make again and again, kept by the fields that differ (Events are
# immutable, and finding one made costs less than making it again), one store per kind of key,
# in the module that reads it (a method of a dict imported from another module is looked up
# the slow way: the compiler takes it for a module's function): `turn.PLAYED` (seat, card,
# colour: `place`), `core.DREW` (seat, cards, rule: `give`), `SEAT_EVENTS` (kind, seat, rule:
# `seat_event`). Each is emptied when full (`kept_event`).
EventStore = dict[tuple[Any, ...], Event]
SEAT_EVENTS: EventStore = {}
KEPT_MAX = 1 << 14


def kept_event(store: EventStore, key: tuple[Any, ...], fields: EventFields) -> Event:
    """The Event of `fields`, made and kept in `store` as `key` (where its callers look first)."""
    if len(store) >= KEPT_MAX:
        store.clear()
    got = store[key] = new_event(fields)
    return got


def seat_event(kind: str, seat: int, rule: str) -> Event:
    """The Event `kind` of `seat` by `rule`, with no other field (a turn passed, a player
    skipped...), kept."""
    key = (kind, seat, rule)
    try:
        return SEAT_EVENTS[key]
    except KeyError:
        return kept_event(SEAT_EVENTS, key, (kind, seat, None, (), None, 0, rule))


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision the game waits for and who owes it (player None: anyone / nobody)."""

    player: int | None
    decision: str  # play | play-drawn | color | challenge | swap | round-over
