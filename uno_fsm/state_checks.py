"""The checks a game state from outside passes before the engine plays it.

`Game.from_json` (a saved game: anyone's file) and `Game.from_setup` (a scenario's position, an
adapter's request) take data the engine did not make. Everything is checked against the ruleset
before a game is built, and anything wrong is one typed error, `InvalidState` (a
`MalformedAction`: code `malformed-action`), whose `field` names where (`state.hands[2][5]`,
`state.current`, `setup.dealer`, `json`) and whose `rule` is the rule the value breaks; never a
`KeyError`, `TypeError`, `IndexError` or `RecursionError` from deep inside.

A saved game (`read_saved`, then `check_position`):

- the JSON itself: strict (no NaN, no number that overflows, no integer of more than 30 digits,
  no nesting deeper than 100; uno_spec.files.read_json), at most MAX_SAVED_BYTES;
- every field of the state, by type and range: seats of the table (`current`, `dealer`, the
  UNO window, the challenger, the winners, the eliminated), a phase of the machine the engine
  can stand in, a direction, a side of the game, a colour of that side, scores and counters
  whole and bounded, cards of the ruleset's game, the random generator's state; no field
  missing, none unknown;
- the cards: every card of the game in exactly one place (CL.DECK.TOTAL): the set-up's own
  cards for a game made by `Game.from_setup` (the origin says so; within the deck), else the
  ruleset's whole deck;
- the origin (its seed a whole number) and the log (uno_fsm.game's decoder, every seat of
  the table);
- last, the position as a whole: the invariants every reachable position holds
  (uno_fsm.invariants: a pending decision the phase owes, legal actions until the game is over,
  a drawn card in its hand, the variants' own invariants...), so that a
  state the invariants reject is never accepted.

A set-up (`check_setup`, `check_cards`): its seed a whole number, its data JSON (a NaN would be
written as the bare `NaN` no JSON reader takes), `dealer` and `current` seats of the table,
scores whole and bounded, and no more copies of a card than the deck holds.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from uno_fsm.cards import Card, of_game, parse
from uno_fsm.errors import CardNotationError, IllegalAction, InvalidState
from uno_fsm.params import Params
from uno_fsm.phase_table import PHASES
from uno_fsm.state import CLOCKWISE, COUNTERCLOCKWISE, FORMAT, FORMAT_1, State, rng_from_json

if TYPE_CHECKING:
    from uno_fsm.actions import Action
    from uno_fsm.game import Game
    from uno_fsm.rules.hooks import Variant

# The largest saved game read (bytes): a game of a million actions is well under it.
MAX_SAVED_BYTES = 64 * 1024 * 1024
# Bounds of the counters (far beyond any game: a target score is hundreds of points).
MAX_SCORE = 10**9
MAX_ROUND = 10**6
MAX_STACK = 10**4
# The digits of a seed (any Python integer seeds a game: a match's seed beyond 64 bits plays
# exactly), bounded by what JSON can write and read back in Python (4 300 digits).
MAX_SEED_DIGITS = 4000
_SEED_LIMIT = 10**MAX_SEED_DIGITS
# The phases a game can be saved in: every state of the machine but the deal, which no call
# of the API ends in (Game.new and next-round settle it at once).
SAVED_PHASES = tuple(p for p in PHASES if p != "dealing")

STATE_FIELDS = frozenset((
    "format", "ruleset", "players", "hands", "draw", "discard", "active_color", "direction",
    "current", "dealer", "side", "scores", "phase", "drawn", "uno_window", "challenge_by",
    "challenge_legal", "first_color", "stack", "round", "round_winner", "winner", "winners",
    "eliminated", "shown", "rng"))
# Fields format 1 (and early format 2) documents may lack, with the value they meant.
_OPTIONAL: dict[str, Any] = {"stack": 0, "winners": None, "eliminated": [], "shown": {}}

def bad(field: str, message: str, rule: str | None = None) -> InvalidState:
    return InvalidState(field, message, rule)


# ---- the whole saved game ------------------------------------------------------------------
@dataclass
class Saved:
    """A saved game's document, checked field by field (`read_saved`)."""

    state: State
    params: Params
    origin: dict[str, Any]
    log: Any  # decoded by uno_fsm.game's log reader (`decoded`)
    deck: Counter[str]  # the cards the game holds, each in one place (CL.DECK.TOTAL)


def read_saved(text: Any, ruleset: Any = None) -> Saved:
    """The document `Game.to_json` wrote, every field checked against the ruleset (the state's
    own, or `ruleset`); InvalidState naming the field otherwise."""
    from uno_spec.files import InputError, read_json

    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise bad("json", f"not UTF-8 text (byte {exc.start})") from None
    if not isinstance(text, str):
        raise bad("json", f"a saved game is JSON text, not {type(text).__name__}")
    if len(text) > MAX_SAVED_BYTES:
        raise bad("json", f"{len(text)} characters, more than the {MAX_SAVED_BYTES} a saved "
                  "game may hold")
    try:
        doc = read_json(text, MAX_SEED_DIGITS)
    except InputError as exc:
        where = f" (line {exc.line})" if exc.line else ""
        raise bad("json", f"not a saved game: {exc.message}{where}") from None
    if not isinstance(doc, dict):
        raise bad("json", f"a saved game is an object, not {_kind(doc)}")
    unknown = sorted(set(doc) - {"state", "origin", "log"})
    if unknown:
        raise bad(unknown[0], "unknown field of a saved game (state, origin, log)")
    if "state" not in doc:
        raise bad("state", "missing")
    raw = doc["state"]
    if not isinstance(raw, dict):
        raise bad("state", f"an object, not {_kind(raw)}")
    params = _params(raw, ruleset)
    st = state_from_dict(raw, params)
    origin = _origin(doc.get("origin"), st)
    return Saved(st, params, origin, doc.get("log", []), _deck_of_origin(origin, st, params))


def decoded_log(decode: Callable[[Any], list[Action]], value: Any,
                players: int) -> list[Action]:
    """The log of a saved game, decoded by uno_fsm.game's reader (each action strictly), every
    seat it names one of the table's; its refusal is InvalidState("log")."""
    try:
        actions = decode(value)
    except InvalidState:
        raise
    except IllegalAction as exc:
        raise bad("log", exc.message.removeprefix("log: "), exc.rule) from None
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
        raise bad("log", f"not a log of actions ({type(exc).__name__}: {_short(exc)})") \
            from None
    for action in {id(a): a for a in actions}.values():  # decoded once per distinct text
        for seat in (action.player, action.target):
            if seat is not None and not 0 <= seat < players:
                i = actions.index(action)
                raise bad(f"log[{i}]", f"seat {_short(seat)} is not a seat of {players} "
                          "players", "CL.DECK.PLAYERS")
    return actions


def check_position(game: Game, deck: Counter[str]) -> None:
    """The position as a whole holds every invariant of a reachable position
    (uno_fsm.invariants), `deck` being the cards the game holds; InvalidState naming the rule
    broken otherwise. (A ruleset the invariants cannot describe is checked field by field
    only.)"""
    from uno_fsm.invariants import check_invariants
    from uno_fsm.oracle.base import Facts

    params = game.params
    try:  # a named ruleset's facts are kept (Facts.of); a custom one's made now
        named = Params.of(params.ruleset) is params
        facts = Facts.of(params.ruleset) if named else Facts.of(params.ruleset, params.raw)
    except Exception:  # noqa: BLE001 - a custom ruleset the oracle has no name for
        return
    try:
        check_invariants(game, facts, deck)
    except AssertionError as exc:  # oracle.base.check: "[RULE.ID] what is wrong"
        text = str(exc)
        rule, _, message = text.partition("] ")
        raise bad("state", message or text, rule.lstrip("[") if message else None) from None
    except IllegalAction as exc:
        raise bad("state", exc.message, exc.rule) from None
    except Exception as exc:  # noqa: BLE001 - a position the engine cannot even list
        raise bad("state", f"the engine cannot play this position ({type(exc).__name__}: "
                  f"{_short(exc)})") from None
    game.state_changed()  # what the check listed is forgotten: the game starts clean


# ---- the state, field by field -------------------------------------------------------------
def _params(raw: dict[str, Any], ruleset: Any) -> Params:
    name = raw.get("ruleset")
    if not isinstance(name, str) or not name:
        raise bad("state.ruleset", f"a ruleset name, not {_shown(name)}")
    try:
        params = Params.of(ruleset if ruleset is not None else name)
    except Exception as exc:  # noqa: BLE001 - an unknown or broken ruleset, in one line
        why = getattr(exc, "message", None) or str(exc)  # a SpecError: its message alone
        raise bad("state.ruleset", f"{_shown(name)}: {_short(why, 160)}") from None
    if params.ruleset != name and ruleset is not None and not isinstance(ruleset, Mapping):
        raise bad("state.ruleset", f"the game is {name}, not {params.ruleset}")
    return params


def state_from_dict(d: dict[str, Any], params: Params) -> State:
    """A State of `params`'s game from its JSON form (uno_fsm.state), every field checked."""
    fmt = d.get("format")
    if fmt not in (FORMAT, FORMAT_1):
        raise bad("state.format", f"{_shown(fmt)}: not a {FORMAT} document (nor {FORMAT_1})")
    unknown = sorted(set(d) - STATE_FIELDS)
    if unknown:
        raise bad(f"state.{unknown[0]}", "unknown field of a game state")
    missing = sorted(k for k in STATE_FIELDS - set(d) if k not in _OPTIONAL)
    if missing:
        raise bad(f"state.{missing[0]}", "missing")
    flip = params.game == "flip"
    # CL.DECK.PLAYERS, FL.SETUP.PLAYERS, PARTNERS.EVEN: a table the ruleset is played at
    n = _whole(d, "players", params.min_players, params.max_players)
    if not params.players_ok(n):
        raise bad("state.players", f"{params.ruleset} is played by {params.min_players} to "
                  f"{params.max_players} players" + (", an even number" if params.even_players
                                                     else "") + f", not {n}",
                  "PARTNERS.EVEN" if params.even_players else "CL.DECK.PLAYERS")
    hands = _list(d, "hands")
    if len(hands) != n:
        raise bad("state.hands", f"{len(hands)} hands for {n} players", "CL.DECK.PLAYERS")
    hand_cards = [_cards(h, f"state.hands[{i}]", flip) for i, h in enumerate(hands)]
    draw = _cards(d["draw"], "state.draw", flip)
    discard = _cards(d["discard"], "state.discard", flip)
    side = d["side"]
    if side not in ("light", "dark") or (side == "dark" and not flip):
        raise bad("state.side", f"{_shown(side)} is not a side of a {params.game} game",
                  "FL.FLIP.SIDE-CHANGE" if flip else "CL.DECK.COLOURS")
    colour = d["active_color"]
    if colour is not None and (not isinstance(colour, str) or colour not in params.colors_of(side)):
        raise bad("state.active_color", f"{_shown(colour)} is not a colour of the {side} side "
                  f"({', '.join(params.colors_of(side))})", "CL.WILD.FOUR-COLOURS")
    direction = d["direction"]
    if type(direction) is not int or direction not in (CLOCKWISE, COUNTERCLOCKWISE):
        raise bad("state.direction", f"1 (clockwise) or -1, not {_shown(direction)}",
                  "CL.PLAY.DIRECTION-START")
    phase = d["phase"]
    if phase not in SAVED_PHASES:
        raise bad("state.phase", f"{_shown(phase)} is not a phase a game can be saved in "
                  f"({', '.join(SAVED_PHASES)})", "CL.PLAY.TURN-OPTIONS")
    scores = _list(d, "scores")
    if len(scores) != n:
        raise bad("state.scores", f"{len(scores)} scores for {n} players")
    drawn = d["drawn"]
    st = State(
        ruleset=params.ruleset, players=n, hands=hand_cards, draw=draw[::-1], discard=discard,
        active_color=colour, direction=direction, current=_seat(d, "current", n),
        dealer=_seat(d, "dealer", n), side=side,
        scores=[_number(s, f"state.scores[{i}]", 0, MAX_SCORE) for i, s in enumerate(scores)],
        phase=phase,
        drawn=None if drawn is None else _cards([drawn], "state.drawn", flip)[0],
        uno_window=_seat(d, "uno_window", n, none=True),
        challenge_by=_seat(d, "challenge_by", n, none=True),
        challenge_legal=_flag(d, "challenge_legal"), first_color=_flag(d, "first_color"),
        stack=_whole(d, "stack", 0, MAX_STACK, default=0),
        round=_whole(d, "round", 1, MAX_ROUND),
        round_winner=_seat(d, "round_winner", n, none=True),
        winner=_seat(d, "winner", n, none=True),
        rng=_rng(d, fmt))
    st.winners = _seats(d.get("winners", [] if st.winner is None else [st.winner]),
                        "state.winners", n)
    st.eliminated = _seats(d.get("eliminated", []), "state.eliminated", n)
    if st.eliminated != sorted(st.eliminated):
        raise bad("state.eliminated", "seats in ascending order", "DESAFIO.ELIMINATED-OUT")
    _check_variant_fields(st, params)
    st.shown = _shown_hands(d.get("shown") or {}, n, flip)
    _check_phase(st, params)
    return st


def _played(params: Params) -> list[type[Variant]]:
    """The variants the ruleset plays (the registry, uno_fsm.rules.VARIANTS)."""
    from uno_fsm.rules import VARIANTS

    return [v for v in VARIANTS if v.enabled(params)]


def _check_variant_fields(st: State, params: Params) -> None:
    """A `State` field only a variant sets (`Variant.state_fields`) holds its empty value
    unless the ruleset plays that variant; refused with the variant's rule otherwise."""
    from uno_fsm.rules import VARIANTS

    played = {f for v in _played(params) for f in v.state_fields}
    for variant in VARIANTS:
        for name, (rule, what) in variant.state_fields.items():
            if name not in played and getattr(st, name):
                raise bad(f"state.{name}", f"{what}: {getattr(st, name)!r}, but "
                          f"{params.ruleset} plays no variant with them", rule)


def _check_phase(st: State, params: Params) -> None:
    """What the phase the game stands in needs, as the machine leaves it (each field set by the
    transition into the phase and cleared out of it): a top card, the card just drawn, the
    challenger, the winners, the colour choice, the swap, the UNO window."""
    phase = st.phase
    if not st.discard:  # CL.DEAL.FIRST-DISCARD: every hand is played on a discard pile
        raise bad("state.discard", "empty: a hand is played on a discard pile",
                  "CL.DEAL.FIRST-DISCARD")
    top = st.discard[-1].face(st.side)
    # CL.DRAW.ONLY-DRAWN: a card just drawn is pending in play_drawn only, in the drawer's hand
    if (st.drawn is not None) != (phase == "play_drawn") or (
            st.drawn is not None and st.drawn not in st.hands[st.current]):
        raise bad("state.drawn", f"{_shown(st.drawn and st.drawn.text)} in phase {phase} "
                  f"(a card of P{st.current}'s hand in play_drawn, null otherwise)",
                  "CL.DRAW.ONLY-DRAWN")
    # CL.WD4.CHALLENGE.WHO: the challenge is owed on a challengeable Wild Draw card just played
    # by another player
    if phase == "challenge":
        if top.kind not in params.challenges or not params.challenges[top.kind].allowed:
            raise bad("state.phase", f"challenge on a {top.text}, which cannot be challenged",
                      "CL.WD4.CHALLENGE.WHO")
        if st.challenge_by is None or st.challenge_by == st.current:
            raise bad("state.challenge_by", f"{_shown(st.challenge_by)}: the player of the "
                      f"card challenged, not P{st.current} who owes the decision",
                      "CL.WD4.CHALLENGE.WHO")
    # CL.WILD.COLOUR: the colour is chosen apart only for a Wild turned first
    if (phase == "choose_color") != st.first_color or (phase == "choose_color"
                                                         and not top.is_wild):
        raise bad("state.first_color", f"{str(st.first_color).lower()} in phase {phase} on a "
                  f"{top.text} (true while a Wild turned first waits for its colour)",
                  "CL.WILD.COLOUR")
    # V.SEVENO.SEVEN-PENDING, V.SWAP.TARGET: a swap is owed only after a card whose play opens
    # it under one of the ruleset's variants (their `swap_rules`)
    if phase == "swap" and not any(v.swap_rules(top) for v in _played(params)):
        raise bad("state.phase", f"swap on a {top.text} in {params.ruleset}",
                  "V.SEVENO.SEVEN-PENDING")
    # CL.END.OUT: the hand is over when a player is out, and only then
    over = phase in ("round_over", "game_over")
    if (st.round_winner is not None) != over or (
            over and st.round_winner is not None and st.hands[st.round_winner]):
        raise bad("state.round_winner", f"{_shown(st.round_winner)} in phase {phase} (the "
                  "player out, with no card, once the hand is over; null before)", "CL.END.OUT")
    # CL.END.NO-PENDING, CL.SCORE.TARGET: the game's winners once it is over, and only then
    if bool(st.winners) != (phase == "game_over") or (
            st.winner is not None and st.winner not in st.winners):
        raise bad("state.winners", f"{st.winners} (winner {_shown(st.winner)}) in phase "
                  f"{phase} (the winners once the game is over, none before)",
                  "CL.END.NO-PENDING")
    # V.STACK.ACCUMULATE: a penalty stands accumulated on a draw card only
    if st.stack and top.kind not in params.draws and top.kind not in params.challenges:
        raise bad("state.stack", f"{st.stack} cards pending on a {top.text}, which is no draw "
                  "card", "V.STACK.ACCUMULATE")
    # CL.UNO.WINDOW: a player may be caught only while holding one card
    if st.uno_window is not None and len(st.hands[st.uno_window]) != 1:
        raise bad("state.uno_window", f"P{st.uno_window} holds {len(st.hands[st.uno_window])} "
                  "cards (a window opens on a player's last card)", "CL.UNO.WINDOW")


def _origin(value: Any, st: State) -> dict[str, Any]:
    """The origin of a saved game: {} (made by hand), {"new": {players, seed, dealer}} or
    {"setup": {...}, "seed": S}; its seed a whole number, its players the state's."""
    if value is None or value == {}:
        return {}
    if not isinstance(value, dict):
        raise bad("origin", f"an object, not {_kind(value)}")
    if "new" in value:
        new = value["new"]
        if set(value) != {"new"} or not isinstance(new, dict) or \
                set(new) != {"players", "seed", "dealer"}:
            raise bad("origin.new", "{\"players\", \"seed\", \"dealer\"} of Game.new")
        if new["players"] != st.players or type(new["players"]) is not int:
            raise bad("origin.new.players", f"{_shown(new['players'])}, but the state has "
                      f"{st.players} players", "CL.DECK.PLAYERS")
        check_seed(new["seed"], "origin.new.seed")
        if new["dealer"] is not None:
            _seat(new, "dealer", st.players, where="origin.new.dealer")
        return value
    if "setup" in value:
        if set(value) - {"setup", "seed"} or not isinstance(value["setup"], dict):
            raise bad("origin.setup", "{\"setup\": {...}, \"seed\": S} of Game.from_setup")
        check_seed(value.get("seed", 0), "origin.seed")
        return value
    raise bad("origin", "{\"new\": ...} or {\"setup\": ..., \"seed\": S}")


def _deck_of_origin(origin: dict[str, Any], st: State, params: Params) -> Counter[str]:
    """The cards the game holds, each in exactly one place (CL.DECK.TOTAL): the set-up's cards
    for a game of Game.from_setup (within the deck), else the ruleset's whole deck (a game
    dealt by Game.new, or made by hand)."""
    full = deck_counts(params)
    have = Counter(c.text for c in st.all_cards())
    if "new" in origin:
        want = full
    elif "setup" in origin:
        setup = origin["setup"]
        cards: list[Card] = []
        for key in ("hands", "draw", "discard"):
            value = setup.get(key)
            places = value.values() if isinstance(value, dict) else \
                value if key == "hands" and isinstance(value, list) else [value]
            for i, place in enumerate(places):
                if place is not None:
                    cards += _cards(place, f"origin.setup.{key}" + (f"[{i}]" if key == "hands"
                                                                    else ""),
                                    params.game == "flip")
        want = Counter(c.text for c in cards) or full  # `start: game` without cards: the deck
        try:
            check_cards(params, cards)
        except InvalidState as exc:
            raise bad("origin.setup", exc.message.removeprefix("setup: "), exc.rule) from None
    else:  # made by hand (Game(state, params)): a game of the ruleset's whole deck
        want = full
    if have != want:
        missing, extra = dict(want - have), dict(have - want)
        raise bad("state", f"the cards in play are not those of the game: missing "
                  f"{missing or 'none'}, extra {extra or 'none'}",
                  "FL.DECK.SIZE" if params.game == "flip" else "CL.DECK.TOTAL")
    return want


# ---- a set-up ------------------------------------------------------------------------------
def check_seed(seed: Any, field: str = "seed") -> int:
    """A seed: a whole number (not a bool, a float, NaN or a string) of at most
    MAX_SEED_DIGITS digits, which a saved game can hold and read back."""
    if type(seed) is not int:
        raise bad(field, f"a whole number, not {_shown(seed)}")
    if abs(seed) >= _SEED_LIMIT:
        raise bad(field, f"a whole number of at most {MAX_SEED_DIGITS} digits")
    return seed


def check_setup(params: Params, setup: Mapping[str, Any], n: int, seed: Any) -> None:
    """What `Game.from_setup` reads beyond the cards: the seed (and the set-up's own `seed`), the
    set-up as JSON data, `dealer` and `current` seats of the table, scores bounded."""
    check_seed(seed)
    if "seed" in setup:
        check_seed(setup["seed"], "setup.seed")
    try:  # what Game.to_json will write of it (its origin): JSON, never a bare NaN
        _STRICT.encode(setup)
    except (TypeError, ValueError, RecursionError) as exc:
        raise bad("setup", f"not JSON data ({_short(exc)})") from None
    for key in ("dealer", "current"):
        value = setup.get(key)
        if type(value) is int and not 0 <= value < n:
            raise bad(f"setup.{key}", f"{value} is not a seat of {n} players", "CL.DECK.PLAYERS")
    scores = setup.get("scores")
    values = scores.values() if isinstance(scores, Mapping) else \
        scores if isinstance(scores, list | tuple) else ()
    for value in values:
        if type(value) is int and not 0 <= value <= MAX_SCORE:
            raise bad("setup.scores", f"{value} is not a score from 0 to {MAX_SCORE}",
                      "CL.SCORE.ACCUMULATE")


def check_cards(params: Params, cards: Iterable[Card]) -> None:
    """No more copies of a card than the ruleset's deck holds (CL.DECK.TOTAL); in UNO Flip, of
    a face on its side (FL.DECK.SIZE: a set-up may pair the faces its own way)."""
    cards = list(cards)
    if params.game != "flip":
        over = _over(Counter(c.text for c in cards), deck_counts(params))
    else:
        light, dark = _decks(params)[1]
        over = _over(Counter(c.light.text for c in cards), light) + \
            _over(Counter(c.dark.text for c in cards if c.dark is not None), dark)
    if over:
        raise bad("setup", "more copies than the deck holds: " + ", ".join(
            f"{t} x{k} too many" for t, k in sorted(over.items())),
            "FL.DECK.SIZE" if params.game == "flip" else "CL.DECK.TOTAL")


def _over(have: Counter[str], deck: Counter[str]) -> Counter[str]:
    """The copies of `have` beyond `deck` (only `have`'s cards are looked at: a set-up is
    small, a deck is not)."""
    return Counter({t: k - deck[t] for t, k in have.items() if k > deck[t]})


_STRICT = json.JSONEncoder(allow_nan=False, check_circular=False, separators=(",", ":"))
_DECKS: dict[int, tuple[Params, tuple[Counter[str], tuple[Counter[str], Counter[str]]]]] = {}


def _decks(params: Params) -> tuple[Counter[str], tuple[Counter[str], Counter[str]]]:
    """The ruleset's deck as card text -> copies, and its light and dark faces apart (kept per
    Params object: Params.of keeps one per ruleset)."""
    kept = _DECKS.get(id(params))
    if kept is not None and kept[0] is params:
        return kept[1]
    from uno_fsm.deck import build_deck

    cards = build_deck(params)
    made = (Counter(c.text for c in cards),
            (Counter(c.light.text for c in cards),
             Counter(c.dark.text for c in cards if c.dark is not None)))
    if len(_DECKS) > 256:
        _DECKS.clear()
    _DECKS[id(params)] = (params, made)
    return made


def deck_counts(params: Params) -> Counter[str]:
    """The ruleset's deck as card text -> copies."""
    return _decks(params)[0]


# ---- one field -----------------------------------------------------------------------------
def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            int: "an integer", float: "a number", type(None): "null"}.get(
        type(value), f"a {type(value).__name__}")


def _short(value: Any, limit: int = 80) -> str:
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _shown(value: Any) -> str:
    """A value in a message: its JSON-like form, cut (a hostile value may be huge)."""
    try:
        text = json.dumps(value, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return _short(text, 60)


def _whole(d: Mapping[str, Any], key: str, low: int, high: int, default: Any = None) -> int:
    value = d.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise bad(f"state.{key}", f"a whole number from {low} to {high}, not {_shown(value)}")
    return value


def _number(value: Any, field: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise bad(field, f"a whole number from {low} to {high}, not {_shown(value)}",
                  "CL.SCORE.ACCUMULATE")
    return value


def _flag(d: Mapping[str, Any], key: str) -> bool:
    value = d[key]
    if type(value) is not bool:
        raise bad(f"state.{key}", f"true or false, not {_shown(value)}")
    return value


def _list(d: Mapping[str, Any], key: str) -> list[Any]:
    value = d[key]
    if not isinstance(value, list):
        raise bad(f"state.{key}", f"a list, not {_kind(value)}")
    return value


def _seat(d: Mapping[str, Any], key: str, n: int, none: bool = False,
          where: str | None = None) -> Any:
    value = d.get(key)
    if value is None and none:
        return None
    if type(value) is not int or not 0 <= value < n:
        raise bad(where or f"state.{key}", f"{_shown(value)} is not a seat of {n} players",
                  "CL.DECK.PLAYERS")
    return value


def _seats(value: Any, field: str, n: int) -> list[int]:
    if not isinstance(value, list):
        raise bad(field, f"a list of seats, not {_kind(value)}")
    for i, seat in enumerate(value):
        if type(seat) is not int or not 0 <= seat < n:
            raise bad(f"{field}[{i}]", f"{_shown(seat)} is not a seat of {n} players",
                      "CL.DECK.PLAYERS")
    if len(set(value)) != len(value):
        raise bad(field, "a seat given twice")
    return list(value)


def _cards(value: Any, field: str, flip: bool) -> list[Card]:
    """Card notations of the game (`flip`: double-faced) as cards; InvalidState naming the
    place of the first that is not one."""
    if not isinstance(value, list):
        raise bad(field, f"a list of cards, not {_kind(value)}")
    try:  # the cards of a saved game: each an interned card (fast), checked once per card
        cards = list(map(parse, value))
        if all(of_game(c, flip) for c in set(cards)):
            return cards
    except (CardNotationError, TypeError):
        pass
    out = []  # the first that is not a card of the game, named by its place
    for i, text in enumerate(value):
        if not isinstance(text, str):
            raise bad(f"{field}[{i}]", f"a card is written as a string, not {_kind(text)}")
        try:
            card = parse(text)
        except CardNotationError as exc:
            why = exc.why or "see the card notation, docs/contracts.md"
            raise bad(f"{field}[{i}]", f"{_shown(text)} is not a card ({why})") from None
        if not of_game(card, flip):  # FL.DECK.SIZE / CL.DECK.TOTAL: the deck's own cards
            raise bad(f"{field}[{i}]", f"{text} is not a card of "
                      f"{'UNO Flip' if flip else 'classic UNO'}",
                      "FL.DECK.SIZE" if flip else "CL.DECK.TOTAL")
        out.append(card)
    return out


def _rng(d: Mapping[str, Any], fmt: str) -> Any:
    try:
        rng = rng_from_json(d["rng"], fmt)
    except (ValueError, TypeError, OverflowError) as exc:
        raise bad("state.rng", _short(exc)) from None
    gauss = rng.getstate()[2]
    if gauss is not None and (type(gauss) is not float or not math.isfinite(gauss)):
        raise bad("state.rng", f"gauss_next {_shown(gauss)} is not a finite number")
    return rng


def _shown_hands(value: Any, n: int, flip: bool) -> dict[int, tuple[int, list[str]]]:
    """CL.WD4.CHALLENGE.SHOW: challenger -> (challenged seat, the faces shown)."""
    if not isinstance(value, dict):
        raise bad("state.shown", f"an object, not {_kind(value)}")
    out: dict[int, tuple[int, list[str]]] = {}
    for key, item in value.items():
        field = f"state.shown.{_short(key, 20)}"
        if not (key.isascii() and key.isdigit() and len(key) <= 2 and int(key) < n):
            raise bad(field, f"{_shown(key)} is not a seat of {n} players", "CL.DECK.PLAYERS")
        if not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int \
                or not 0 <= item[0] < n or not isinstance(item[1], list) \
                or not all(isinstance(t, str) for t in item[1]):
            raise bad(field, "[the challenged seat, [the faces shown]]",
                      "CL.WD4.CHALLENGE.SHOW")
        out[int(key)] = (item[0], list(item[1]))
    return out

