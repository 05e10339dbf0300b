"""RLCard's UNO (`rlcard.games.uno`, RLCard 1.2.0) behind the in-process `uno-conformance/2`.

`uno-fsm conformance run --adapter rlcard` loads `RLCardAdapter` (needs `pip install
'uno-fsm[rlcard]'`). The adapter drives RLCard's game objects directly (`UnoGame`, its
`UnoRound`, the `UnoDealer`'s deck and the `UnoPlayer` hands), never its RL environment, so that
a scenario's exact position can be set up.

How a position is set up (docs/contracts.md "Scenario format"):

- seats: RLCard has no dealer; its player 0 always opens a hand (`round.py
  perform_top_card`). For `start: round` seat `dealer + 1` becomes RLCard player 0 and the other
  seats follow in clockwise order (RLCard's `direction = 1` is increasing player ids, which is
  our clockwise); for `start: turn` seat `s` is RLCard player `s`.
- draw pile: RLCard draws with `dealer.deck.pop()`, so the top of the pile is the END of the
  list: `deck = reversed(draw)`.
- discard pile: `round.played_cards` (bottom ... top); the card to match is `round.target`
  (the top card). A Wild's chosen colour is stored on the card's `color`, so a Wild on top gets
  `active_color`. Wilds elsewhere get a placeholder colour (RLCard overwrites it when the Wild is
  played or drawn; it never reads it before).
- `start: round`: hands and deck are set, then RLCard's own `round.flip_top_card()` and
  `round.perform_top_card()` turn the first card and apply its effect.

Randomness: where RLCard's own randomness decides something (the colour of a Wild it plays for
a player after a draw, a Wild turned first, the reshuffle of the discard pile into the draw
pile, a Wild Draw Four turned first and shuffled back), it uses `game.np_random`, a
`numpy.random.RandomState` shared by the game, round and dealer. The adapter seeds it with the
scenario's `seed`, so a run is reproducible.

Actions: RLCard's action space is 61 strings: `'<c>-<trait>'` plays (c in r g b y; a Wild
carries its chosen colour: `'g-wild'`, `'r-wild_draw_4'`) and `'draw'`. Our `play` and `draw`
actions map onto them; `pass` (keep the drawn card) and a first-card `color` answer
decisions RLCard never offers (it decides both itself), so they are rejected `wrong-decision`
like any action outside its legal set. `challenge: false` from the victim right after a Wild Draw
Four is accepted as done (an adapter decision: RLCard gives the four cards and skips the victim
at the play, which is what accepting does); every other action of the contract (`uno`,
`catch`, `challenge: true`, `swap`, `referee`, `next_round`) belongs to a feature RLCard lacks
and raises `Unsupported`.

Legality is the ADAPTER's check, not RLCard's: `UnoGame.step` does not validate its action (an
action not in `get_legal_actions()` makes `round.proceed_round` pop a wrong card or crash on
`hand.pop(None)`), and RLCard's environment silently replaces an illegal action id by a random
legal one (`envs/uno.py _decode_action`). The legal set that RLCard's own code computes
(`round.py get_legal_actions`) is therefore what RLCard allows, and the adapter rejects anything
outside it, leaving RLCard's state untouched:

- a player other than `round.current_player` -> `not-your-turn`;
- a card not in the hand -> `card-not-in-hand`; a bad card or colour -> `malformed-action` /
  `invalid-color`; a Wild without a colour -> `color-required` (unless it is the player's last
  card: then the colour is irrelevant and the adapter sends `r`);
- a card RLCard does not list -> `card-does-not-match` (this includes a Wild Draw Four while
  another card is playable: RLCard lists it only when nothing else is);
- `draw` while RLCard lists a play -> `wrong-decision` (RLCard offers `draw` only when nothing
  can be played);
- any action after `round.is_over` -> `game-over` (an RLCard game is one hand).

Observations: `hands`, `hand_sizes`, `top` (`round.target`), `active_color` (the target's
colour), `current`, `pending` (RLCard's only decision is `play`, i.e. play or draw; `none` once
the hand is over), `direction`, `draw_size` (`len(dealer.deck)`), `discard_size`
(`len(round.played_cards)`), `round_over` and `game_over` (both `round.is_over`), `winner`
(`round.winner`), `legal_actions` (`get_legal_actions()`, the only actions RLCard's step takes,
each as our action, a last Wild also without its colour; a Wild Draw Four's victim's
`challenge: false` too, which the adapter accepts as a no-op; nothing once the hand is over).
RLCard has no scores and no Flip side: `scores`, `side` are not declared.

Declared (hello): ruleset `classic-official` only (RLCard plays one classic-like hand); features
`basic-play`, `draw-then-play` (RLCard draws and then plays or keeps the drawn card, deciding
itself: the scenarios run and show where that breaks the rules), `action-cards`, `wild`, `wd4`,
`first-card`, `deal` (dealing and the first card; RLCard has no dealer selection), `reshuffle`,
`two-player`. Not declared, because RLCard lacks them: scoring and rounds, `uno-call`,
`uno-catch`, `wd4-challenge`, `referee-penalties`, `cards-2018`, Flip and the variants.
"""

from __future__ import annotations

import copy
import functools
from collections import Counter
from collections.abc import Iterable
from operator import attrgetter
from typing import Any

from conformance.protocol import PROTOCOL, AdapterError, Unsupported, setup_request

RULESETS = ["classic-official"]
# Only what RLCard's code really implements (see docs/compliance/rlcard.md).
# `draw-then-play`: RLCard draws and then plays or keeps the drawn card, but decides that itself
# (round.py _perform_draw_action); the scenarios run and show where its policy breaks the rules.
# `deal`: RLCard deals and turns the first card; it has no dealer, so the adapter seats its player
# 0 (who always opens) left of the scenario's dealer; dealer selection itself it lacks.
FEATURES = ["basic-play", "draw-then-play", "action-cards", "wild", "wd4", "first-card", "deal",
            "reshuffle", "two-player"]
OBSERVATIONS = ["hands", "hand_sizes", "top", "active_color", "current", "pending",
                "direction", "draw_size", "discard_size", "round_over", "game_over", "winner",
                "total_cards", "card_counts", "legal_actions"]
UNSUPPORTED_ACTIONS = {
    "uno": "RLCard has no UNO call",
    "catch": "RLCard has no UNO call, hence no catch",
    "challenge": "RLCard has no Wild Draw Four challenge",
    "swap": "RLCard has no swap (Seven-O, swap cards)",
    "referee": "RLCard has no table penalties",
    "next_round": "RLCard plays one hand: no rounds, no scores",
}
# Actions of the contract that answer a decision RLCard never has: rejected `wrong-decision`.
NO_SUCH_DECISION = {
    "pass": "RLCard has no keep-the-drawn-card decision: round.py _perform_draw_action plays a "
            "drawn card of the target's colour (or a drawn Wild) itself and keeps any other",
    "color": "RLCard has no colour decision for a Wild turned first: round.py flip_top_card "
             "picks its colour at random",
}

COLORS = {"r": "red", "g": "green", "b": "blue", "y": "yellow"}
LETTERS = {v: k for k, v in COLORS.items()}
# our symbol suffix <-> RLCard trait
SYMBOLS = {"S": "skip", "R": "reverse", "D2": "draw_2"}
TRAIT_SYMBOLS = {v: k for k, v in SYMBOLS.items()}
PLACEHOLDER = "r"  # colour given to Wilds not on top of the discard pile
# the attribute a card made by a set-up carries its text in our notation in (RLCard's cards
# have no such attribute of their own)
TEXT = "uno_fsm_text"
_text_of = attrgetter(TEXT)


class CardError(ValueError):
    """A card in our notation that is not a classic UNO card."""


def parse_card(text: str) -> tuple[str, str, str]:
    """Our notation -> RLCard's (type, color, trait). `R5`, `GS`, `YR`, `BD2`, `W`, `W4`."""
    try:
        return _parse_card(str(text).strip().upper())
    except CardError:
        raise CardError(f"not a classic UNO card: {text!r}") from None


@functools.lru_cache(maxsize=256)
def _parse_card(t: str) -> tuple[str, str, str]:
    if t == "W":
        return ("wild", PLACEHOLDER, "wild")
    if t == "W4":
        return ("wild", PLACEHOLDER, "wild_draw_4")
    color = t[:1].lower() if t[:1] in ("R", "G", "B", "Y") else None
    rest = t[1:]
    if color is None or not rest:
        raise CardError(t)
    if len(rest) == 1 and rest.isdigit():
        return ("number", color, rest)
    if rest in SYMBOLS:
        return ("action", color, SYMBOLS[rest])
    raise CardError(t)


def card_text(card: Any) -> str:
    """An RLCard UnoCard -> our notation (a Wild's colour is not part of it)."""
    if card.type == "wild":
        return "W4" if card.trait == "wild_draw_4" else "W"
    letter = COLORS[card.color][0].upper()
    if card.type == "number":
        return f"{letter}{card.trait}"
    return f"{letter}{TRAIT_SYMBOLS[card.trait]}"


def make_card(text: str) -> Any:
    return _card_class()(*parse_card(text))


@functools.lru_cache(maxsize=256)
def _made(text: str) -> tuple[tuple[str, str, str], str]:
    """A card's RLCard (type, color, trait) and its text in our notation, as `make_card`
    and `card_text` give them (a set-up makes a hundred cards: thousands per fuzzing run)."""
    card = make_card(text)
    return (card.type, card.color, card.trait), card_text(card)


@functools.cache
def _card_class() -> Any:
    from rlcard.games.uno.card import UnoCard

    return UnoCard


@functools.cache
def _game_classes() -> tuple[Any, Any, Any]:
    """RLCard's `UnoDealer`, `UnoPlayer` and `UnoRound` (imported once, not at each set-up)."""
    from rlcard.games.uno.dealer import UnoDealer
    from rlcard.games.uno.player import UnoPlayer
    from rlcard.games.uno.round import UnoRound

    return UnoDealer, UnoPlayer, UnoRound


def action_string(card: str, color: str | None) -> str:
    """Our play (card, colour name) -> RLCard's action string: `R5` -> 'r-5', `W`+green ->
    'g-wild', `W4`+red -> 'r-wild_draw_4'."""
    ctype, c, trait = parse_card(card)
    if ctype == "wild":
        if color is None:
            raise CardError("a Wild needs a colour")
        letter = LETTERS.get(str(color).strip().lower())
        if letter is None:
            raise CardError(f"unknown colour {color!r}")
        return f"{letter}-{trait}"
    return f"{c}-{trait}"


def action_from_string(action: Any) -> dict[str, Any]:
    """RLCard's action string -> our action payload (without `player`); CardError for a string
    that names no classic card ('r-5', 'g-skip', 'b-wild_draw_4' and 'draw' do)."""
    if action == "draw":
        return {"draw": True}
    c, _, trait = str(action).partition("-")
    if c not in COLORS or not (trait in ("wild", "wild_draw_4") or trait in TRAIT_SYMBOLS
                               or (len(trait) == 1 and trait.isdigit())):
        raise CardError(f"not an RLCard action: {str(action)[:80]!r}")
    if trait in ("wild", "wild_draw_4"):
        return {"play": "W" if trait == "wild" else "W4", "color": COLORS[c]}
    letter = COLORS[c][0].upper()
    return {"play": f"{letter}{TRAIT_SYMBOLS.get(trait, trait)}"}


@functools.lru_cache(maxsize=128)
def _listed(action: str) -> dict[str, Any]:
    """`action_from_string` of a string RLCard lists (61 at most), made once: shared, so
    copied by its callers, never changed."""
    return action_from_string(action)


def colour_needed(hand: list[Any]) -> bool:
    """Whether a Wild played from `hand` needs its colour: not as the last card, which ends
    the hand (the colour then does not matter: the adapter sends `PLACEHOLDER`)."""
    return len(hand) != 1


def _rejection(code: str, message: str, rule: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"code": code, "message": message}
    if rule:
        out["rule"] = rule
    return out


def _game_over() -> dict[str, Any]:
    """Any action once the hand is over: an RLCard game is one hand."""
    return _rejection("game-over", "RLCard's game is one hand and it is over (round.is_over)")


@functools.cache
def rlcard_version(distribution: str = "rlcard") -> str:
    """The installed version (read once: `importlib.metadata` reads the files each time, 5 to
    10 ms, and the fuzzer greets a new adapter for each run and after each crash)."""
    try:
        from importlib.metadata import version

        return version(distribution)
    except Exception:  # noqa: BLE001 - metadata missing in odd installs
        return "unknown"


class RLCardAdapter:
    """RLCard's UNO game as an implementation under test.

    Forks of RLCard's UNO with the same game objects subclass it (conformance/adapters/
    rlcard_uno.py): `NAME`, `DISTRIBUTION` and `new_game` are what differs.
    """

    NAME = "RLCard UNO"
    DISTRIBUTION = "rlcard"  # the distribution whose version hello reports

    def __init__(self) -> None:
        self.game: Any = None
        self.wd4_victim: int | None = None  # the seat a Wild Draw Four just hit
        self.n = 0
        self.offset = 0  # seat = (rlcard id + offset) % n
        self._rng: Any = None  # the numpy RandomState every game of this adapter uses
        self._templates: dict[int, Any] = {}  # player count -> a new game, copied per setup
        self._deck: Any = None  # `_deck_order`

    # --- seats ------------------------------------------------------------------------------

    def to_rl(self, seat: int) -> int:
        return (seat - self.offset) % self.n

    def to_seat(self, rl_id: int) -> int:
        return (rl_id + self.offset) % self.n

    # --- protocol ---------------------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        import rlcard.games.uno  # noqa: F401 - proves RLCard imports

        return {
            "protocol": PROTOCOL,
            "name": self.NAME,
            "version": rlcard_version(self.DISTRIBUTION),
            "rulesets": list(RULESETS),
            "features": list(FEATURES),
            "observations": list(OBSERVATIONS),
            "players": {"min": 2, "max": 10},  # UnoGame(num_players=n) for any n >= 2
        }

    def setup(self, params: dict[str, Any]) -> None:
        self.wd4_victim = None
        _ruleset, setup = setup_request(params, RULESETS, "RLCard plays one classic rule set only")
        try:
            self.game = self._build(setup, int(params.get("seed") or 0))
        except CardError as exc:
            raise AdapterError("bad-request", f"setup: {exc}") from exc
        except (KeyError, TypeError, ValueError) as exc:
            raise AdapterError("bad-request", f"setup: {exc!r}") from exc

    def _build(self, setup: dict[str, Any], seed: int) -> Any:
        UnoDealer, UnoPlayer, UnoRound = _game_classes()  # noqa: N806 - RLCard's classes

        if setup.get("scores") and any(int(v) for v in dict(setup["scores"]).values()):
            raise Unsupported("RLCard keeps no scores")
        if setup.get("side") not in (None, "light"):
            raise Unsupported("RLCard has no Flip side")
        n = int(setup["players"])
        if n < 2:
            raise AdapterError("bad-request", "setup: at least 2 players")
        start = setup.get("start", "turn")
        if start == "game":  # a start RLCard cannot make: unsupported, not a bad request
            raise Unsupported("start: game: RLCard has no dealer draw (UnoGame.init_game deals "
                              "7 cards a player from its own shuffled deck; no dealer)")
        self.n = n
        self.offset = (int(setup.get("dealer", n - 1)) + 1) % n if start == "round" else 0
        # A fresh game, made faster than RLCard's constructors make one (the fuzzer sets up
        # thousands, docs/performance.md) and in the same state: a copy of a new game for n
        # players (UnoGame's constructor builds an unseeded RandomState, replaced here), the
        # adapter's RandomState reseeded (the same state as RandomState(seed)), and a dealer
        # whose full deck, built and shuffled by UnoDealer's constructor, would be replaced
        # by the scenario's pile: the shuffle is kept (it advances the random state RLCard's
        # later choices read), the deck is not built.
        if self._rng is None:
            import numpy as np

            self._rng = np.random.RandomState(seed)
        rng = self._rng
        rng.seed(seed)
        template = self._templates.get(n)
        if template is None:
            template = self._templates[n] = self.new_game(n)
        game = copy.copy(template)
        game.np_random = rng
        game.payoffs = [0] * n
        game.history = []
        game.dealer = UnoDealer.__new__(UnoDealer)
        game.dealer.np_random = rng
        rng.shuffle(self._deck_order())
        game.dealer.deck = self._cards(reversed(setup.get("draw") or []))
        game.players = [UnoPlayer(i, rng) for i in range(n)]
        hands = {int(k): v for k, v in (setup.get("hands") or {}).items()}
        for seat in range(n):
            game.players[self.to_rl(seat)].hand = self._cards(hands.get(seat, []))
        rnd = UnoRound(game.dealer, n, rng)
        game.round = rnd
        direction = setup.get("direction", "clockwise")
        if direction not in ("clockwise", "counterclockwise"):
            raise AdapterError("bad-request", f"setup: bad direction {direction!r}")
        if start == "round":
            if setup.get("discard"):
                raise AdapterError("bad-request", "setup: start: round needs an empty discard")
            if direction != "clockwise":
                raise Unsupported("RLCard always starts a hand clockwise")
            if not game.dealer.deck:
                raise AdapterError("bad-request", "setup: start: round needs a draw pile")
            top = rnd.flip_top_card()
            rnd.perform_top_card(game.players, top)
            return game
        if start != "turn":
            raise AdapterError("bad-request", f"setup: unknown start {start!r}")
        discard = self._cards(setup.get("discard") or [])
        if not discard:
            raise AdapterError("bad-request", "setup: start: turn needs a discard pile")
        top = discard[-1]
        active = setup.get("active_color")
        if top.type == "wild":
            letter = LETTERS.get(str(active or "").lower())
            if letter is None:
                raise AdapterError("bad-request", "setup: a Wild on top needs active_color")
            top.color = letter
        elif active is not None and LETTERS.get(str(active).lower()) != top.color:
            raise Unsupported("RLCard's active colour is the top card's colour")
        rnd.played_cards = discard
        rnd.target = top
        rnd.direction = 1 if direction == "clockwise" else -1
        rnd.current_player = self.to_rl(int(setup.get("current", 0)))
        return game

    def _cards(self, texts: Iterable[str]) -> list[Any]:
        """New cards of the game being set up, in order, each carrying its text (`TEXT`: RLCard
        makes no card of its own during play, so every card `observe` names is one of these;
        an attribute of the card is read in C without the id a map keyed by card would make)."""
        make = _card_class()
        out = []
        for text in texts:
            args, name = _made(text)
            card = make(*args)
            setattr(card, TEXT, name)
            out.append(card)
        return out

    def _text(self, card: Any) -> str:
        return getattr(card, TEXT, None) or card_text(card)

    def _all_texts(self, cards: Iterable[Any]) -> list[str]:
        """The texts of `cards` (one lookup each, in C; `_text` for any card not made by
        the set-up)."""
        cards = list(cards)
        try:
            return list(map(_text_of, cards))
        except AttributeError:
            return [self._text(c) for c in cards]

    def _counts(self, cards: list[Any]) -> dict[str, int]:
        """How many of each card `cards` holds, by text (counted as they are looked up)."""
        try:
            return dict(Counter(map(_text_of, cards)))
        except AttributeError:  # a card not made by the set-up
            return dict(Counter(self._text(c) for c in cards))

    def _deck_order(self) -> Any:
        """An array as long as the deck `UnoDealer` builds (`utils.init_deck`): shuffling it
        draws what shuffling that deck (a list) draws, one bounded integer per place from the
        last down (numpy's `RandomState.shuffle`, whose path for a flat array is the faster)."""
        if self._deck is None:
            import numpy as np
            from rlcard.games.uno.utils import init_deck

            self._deck = np.arange(len(init_deck()))
        return self._deck

    def new_game(self, n: int) -> Any:
        """An `UnoGame` for `n` players (RLCard 1.2 takes the count in its constructor)."""
        from rlcard.games.uno.game import UnoGame

        return UnoGame(num_players=n)

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        g = self.game
        if g is None:
            raise AdapterError("bad-request", "act before setup")
        if not isinstance(action, dict):
            return _rejection("malformed-action", f"not an action: {action!r}")
        if action.get("challenge") is False and set(action) == {"player", "challenge"}:
            return self._accept_wd4(action["player"])
        for key, why in UNSUPPORTED_ACTIONS.items():
            if key not in action:
                continue
            if key in ("uno", "next_round") and action[key] is False:
                continue
            raise Unsupported(why)
        player = action.get("player")
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.n:
            return _rejection("malformed-action", f"bad player {player!r}")
        if g.round.is_over:
            return _game_over()
        if self.to_rl(player) != g.round.current_player:
            return _rejection("not-your-turn",
                              f"it is seat {self.to_seat(g.round.current_player)}'s turn "
                              "(round.current_player)")
        legal = g.get_legal_actions()
        for key, why in NO_SUCH_DECISION.items():
            if key in action and "play" not in action:
                return _rejection("wrong-decision", why)
        if action.get("draw") is True:
            if "draw" not in legal:
                return _rejection("wrong-decision", "RLCard offers 'draw' only when no card can "
                                  f"be played (round.py get_legal_actions); legal: {legal}")
            self._step("draw")
            return None
        if "play" not in action:
            return _rejection("malformed-action", f"no action in {action!r}")
        card = str(action["play"])
        try:
            ctype, color, trait = parse_card(card)
        except CardError as exc:
            return _rejection("malformed-action", str(exc))
        hand = g.players[g.round.current_player].hand
        if ctype == "wild":
            held = [c for c in hand if c.trait == trait]
        else:
            held = [c for c in hand if c.color == color and c.trait == trait]
        if not held:
            return _rejection("card-not-in-hand", f"{card} is not in seat {player}'s hand")
        chosen = action.get("color")
        if ctype == "wild":
            if chosen is None:
                if colour_needed(hand):
                    return _rejection("color-required", "RLCard's Wild actions carry a colour",
                                      "CL.WILD.COLOUR")
                chosen = COLORS[PLACEHOLDER]  # the last card: the colour does not matter
            if str(chosen).strip().lower() not in LETTERS:
                return _rejection("invalid-color", f"unknown colour {chosen!r}")
        rl_action = action_string(card, None if chosen is None else str(chosen))
        if rl_action not in legal:
            why = ("RLCard lists a Wild Draw Four only when no other card can be played"
                   if trait == "wild_draw_4" else f"{card} does not match the target")
            return _rejection("card-does-not-match",
                              f"{why} (round.py get_legal_actions); legal: {legal}")
        victim = (g.round.current_player + g.round.direction) % self.n
        self._step(rl_action)
        if trait == "wild_draw_4":
            self.wd4_victim = self.to_seat(victim)
        return None

    def _accept_wd4(self, player: Any) -> dict[str, Any] | None:
        """Adapter decision: `challenge: false` from a Wild Draw Four's victim is a no-op.

        RLCard has no challenge: its Wild Draw Four gives the next player four cards and skips
        them at once (round.py _preform_non_number_action), which is what accepting it does.
        So the victim's acceptance, right after the play, is answered as done; any other
        `challenge: false` has nothing to accept (not-challengeable, CL.WD4.CHALLENGE.WHO).
        Once the hand is over (a last Wild Draw Four ends it) it is `game-over`, as every
        action: nothing is listed then either.
        """
        if self.game.round.is_over:
            return _game_over()
        if self.wd4_victim is not None and player == self.wd4_victim:
            self.wd4_victim = None
            return None
        return _rejection("not-challengeable", "no Wild Draw Four was just played against "
                          f"seat {player!r}", "CL.WD4.CHALLENGE.WHO")

    def _step(self, rl_action: str) -> None:
        self.wd4_victim = None
        try:
            self.game.step(rl_action)
        except IndexError as exc:  # e.g. drawing with both piles empty: deck.pop() fails
            raise AdapterError("rlcard-crashed", f"RLCard raised IndexError on "
                               f"{rl_action!r}: {exc}") from exc

    def observe(self, keys: list[str]) -> dict[str, Any]:
        g = self.game
        if g is None:
            raise AdapterError("bad-request", "observe before setup")
        rnd = g.round
        over = bool(rnd.is_over)
        out: dict[str, Any] = {}
        every: list[Any] | None = None
        for key in keys:
            if key == "hands":
                out[key] = {s: self._all_texts(g.players[self.to_rl(s)].hand)
                            for s in range(self.n)}
            elif key == "hand_sizes":
                out[key] = {s: len(g.players[self.to_rl(s)].hand) for s in range(self.n)}
            elif key == "top":
                out[key] = None if rnd.target is None else self._text(rnd.target)
            elif key == "active_color":
                out[key] = None if rnd.target is None else COLORS.get(rnd.target.color)
            elif key == "current":
                out[key] = None if over else self.to_seat(rnd.current_player)
            elif key == "pending":
                out[key] = ({"player": None, "decision": "none"} if over else
                            {"player": self.to_seat(rnd.current_player), "decision": "play"})
            elif key == "direction":
                out[key] = "clockwise" if rnd.direction == 1 else "counterclockwise"
            elif key == "draw_size":
                out[key] = len(g.dealer.deck)
            elif key == "discard_size":
                out[key] = len(rnd.played_cards)
            elif key in ("total_cards", "card_counts"):  # the deck, the discards, the hands
                if every is None:  # (gathered once for both)
                    every = [*g.dealer.deck, *rnd.played_cards, *(c for p in g.players
                                                                 for c in p.hand)]
                out[key] = len(every) if key == "total_cards" else self._counts(every)
            elif key in ("round_over", "game_over"):
                out[key] = over
            elif key == "winner":
                out[key] = self.to_seat(rnd.winner[0]) if rnd.winner else None
            elif key == "legal_actions":
                out[key] = [] if over else self._legal_actions()
            else:
                raise Unsupported(f"observation {key!r}: RLCard has no such state")
        return out

    def _legal_actions(self) -> list[dict[str, Any]]:
        """What RLCard lets the turn's owner do (round.py get_legal_actions: one string per
        play, 'draw' when nothing can be played), a last Wild without its colour, and the
        Wild Draw Four victim's acceptance while it is open (`_accept_wd4`): exactly what `act`
        accepts. A string RLCard lists that names no card is an adapter error (`rlcard-bad-
        action`), not a list that hides it."""
        rnd = self.game.round
        seat = self.to_seat(rnd.current_player)
        try:
            out = [{"player": seat, **(_listed(a) if type(a) is str else action_from_string(a))}
                   for a in self.game.get_legal_actions()]
        except CardError as exc:
            raise AdapterError("rlcard-bad-action", f"RLCard's get_legal_actions: {exc}"
                               ) from exc
        if not colour_needed(self.game.players[rnd.current_player].hand):  # a last Wild
            out += [{"player": seat, "play": w} for w in sorted({a["play"] for a in out
                                                                  if "color" in a})]
        if self.wd4_victim is not None:
            out.append({"player": self.wd4_victim, "challenge": False})
        return out

    def close(self) -> None:
        self.game = None
