"""skilluno 1.16.1 (PyPI, import name `uno`; "一个基于 Python 的 UNO 卡牌游戏框架") behind
`uno-conformance/2`.

skilluno is a UNO game with "skills" (seasons of special powers) over a rules core,
`uno/core.py`: `UNOGame` holds the players, a `Deck` (draws pop from the end of `deck.cards`; an
empty deck is refilled from the discard pile under its top, `Deck.reshuffle_from_discard`), the
`discard_pile` (top last), `current_color`, `direction` (1 clockwise) and
`current_player_idx`; `UNOGame.play_turn()` plays one turn of the current player: it asks the
player for a card (`Player.choose_play`: an index, or None to draw), draws, asks whether to play
a playable drawn card (`game.ui.input(...)`, answered `y` or `n`), applies the card's effect
(`apply_card_effect`: Skip, Reverse, +2, Wild, Wild +4, with `Player.choose_color`) and moves
the turn. The adapter plays with no season (`enabled_seasons=[]`: no skills), every seat a
"human" `Player` whose `choose_play` and `choose_color` give the scenario's action, and runs
`play_turn` itself in a thread that waits, at the drawn-card question, for the scenario's next
action (play the drawn card: `y`; `pass`: `n`). The turn logic stays skilluno's; the adapter
judges only what `play_turn` trusts its caller with: that the card is in the hand, and
`Card.is_playable_on(top, current_color)`, skilluno's own match (`human_choose` asks again for a
card that is not playable).

It imports under the name `uno`, as uno-game does, so it is verified from its own virtual
environment (`.ci/setup-implementations`: `.venv-skilluno`), over stdio:
`stdio:'.venv-skilluno/bin/uno-fsm conformance serve --adapter skilluno'`.

`legal_actions` is what `act` takes, judged as `act` judges it, by skilluno's own
`Card.is_playable_on(top, current_color)`: for the current player, every card of the hand it
lets be played (a Wild once per colour, a last card also without one: the placeholder colour),
and `draw`, which `play_turn` always takes; while the turn waits at the drawn-card question,
`pass` and the drawn card played (`_drawn`); the Wild Draw Four victim's `challenge: false`
while it is open (`_accept_wd4`); nothing once the hand is over (`act` then answers every
action `game-over`, that acceptance too). With the discard pile empty (a reshuffle of a pile
holding only its top card, `Deck.reshuffle_from_discard`, moves that card into the deck)
nothing is listed for the turn: skilluno's `play_turn` reads `discard_pile[-1]` first and
raises, and `act` answers a play there `skilluno-crashed` too. An eliminated current player
(over the hand limit, whose turn `play_turn` skips) is listed `draw` alone, the action that
lets `play_turn` run. A colour given with a coloured card, `uno: false` and `next_round:
false` are accepted and ignored: the same action, not listed again. A card of the hand to play
that our notation does not name is the adapter error `skilluno-bad-card` (no action can play
it: a listing without it would hide it).
"""

from __future__ import annotations

import queue
import random
import tempfile
import threading
from collections import Counter
from typing import Any

from conformance.adapters.loops import CallBudget, Looping
from conformance.protocol import (
    PROTOCOL,
    AdapterError,
    Unsupported,
    listed_plays,
    setup_request,
)

RULESETS = ["classic-official"]
FEATURES = ["basic-play", "draw-then-play", "action-cards", "wild", "wd4", "first-card",
            "reshuffle", "two-player"]
OBSERVATIONS = ["hands", "hand_sizes", "top", "active_color", "current", "pending",
                "direction", "draw_size", "discard_size", "round_over", "game_over", "winner",
                "total_cards", "card_counts", "legal_actions"]
COLORS = {"红": "red", "蓝": "blue", "绿": "green", "黄": "yellow"}
LETTERS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y"}
SYMBOLS = {"跳过": "S", "反转": "R", "+2": "D2"}
UNSUPPORTED_ACTIONS = {
    "uno": "skilluno has no UNO call (UNOGame.uno_reminder only announces one card left)",
    "catch": "skilluno has no UNO call, hence no catch",
    "challenge": "skilluno has no Wild Draw Four challenge",
    "swap": "skilluno has no swap (Seven-O, swap cards)",
    "referee": "skilluno has no table penalties",
    "next_round": "skilluno plays one hand: no rounds, no scores",
}
HANG_SECONDS = 5.0  # a turn thread that neither asks nor ends within this long is stuck
# Python calls `UNOGame.setup` may make before it counts as stuck in its first-card loop, which
# ends only at a number card (a pile without one: forever). A set-up of the corpus makes at
# most 63; the loop makes 200,000 in about 0.15 s. Counted, not timed: the loop was found only
# by the runner's timeout (10 s a set-up, and a new worker).
SETUP_CALLS = 200_000
PLACEHOLDER = "红"  # the colour answered for a last Wild played without one (see below)


def _core() -> Any:
    import uno.core
    import uno.paths

    return uno.core


def card_text(card: Any) -> str:
    """skilluno's card -> our notation (`红5` -> R5, `蓝跳过` -> BS, `万能+4` -> W4)."""
    if card.type == "万能+4":
        return "W4"
    if card.type == "万能":
        return "W"
    letter = LETTERS[COLORS[card.color]]
    if card.type == "数字":
        return f"{letter}{card.value}"
    return letter + SYMBOLS[card.type]


def _text(card: Any) -> str | None:
    """`card_text`, or None for a card our notation does not name (no action can play it)."""
    try:
        return card_text(card)
    except (AttributeError, KeyError, TypeError):
        return None


def _name(card: Any) -> str:
    """`card` in our notation, or the adapter error `skilluno-bad-card` for one it does not name
    (skilluno could let it be played, no action of ours can: a listing without it would hide
    it)."""
    text = _text(card)
    if text is None:
        raise AdapterError("skilluno-bad-card", f"a hand holds {str(card)[:80]!r}, no card of "
                           "ours")
    return text


def make_card(text: str) -> Any:
    core = _core()
    t = str(text).strip().upper()
    if t == "W4":
        return core.Card("黑", "万能+4")
    if t == "W":
        return core.Card("黑", "万能")
    color = next((c for c, name in COLORS.items() if LETTERS[name] == t[:1]), None)
    rest = t[1:]
    if color is not None and len(rest) == 1 and rest.isdigit():
        return core.Card(color, "数字", int(rest))
    kind = next((k for k, s in SYMBOLS.items() if s == rest), None)
    if color is not None and kind is not None:
        return core.Card(color, kind)
    raise ValueError(f"not a classic UNO card: {text!r}")


def _color_of(name: Any) -> str | None:
    return next((c for c, n in COLORS.items() if n == str(name).lower()), None)


class _Turn:
    """`UNOGame.play_turn()` in a thread of its own: it runs until it asks the drawn-card
    question (`ask`) or ends (`done`, with what it raised)."""

    def __init__(self, game: Any) -> None:
        self.answers: queue.Queue[str] = queue.Queue()
        self.events: queue.Queue[tuple[str, BaseException | None]] = queue.Queue()
        self.thread = threading.Thread(target=self._run, args=(game,), daemon=True,
                                       name="skilluno-turn")

    def _run(self, game: Any) -> None:
        try:
            game.play_turn()
        except BaseException as exc:  # noqa: BLE001 - reported to the protocol side
            self.events.put(("done", exc))
            return
        self.events.put(("done", None))

    def ask(self, prompt: str) -> str:  # the game thread, in game.ui.input
        self.events.put(("ask", None))
        return self.answers.get()

    def next(self) -> tuple[str, BaseException | None]:
        try:
            return self.events.get(timeout=HANG_SECONDS)
        except queue.Empty:
            raise AdapterError("skilluno-hung", "skilluno's play_turn neither asked nor "
                               f"returned within {HANG_SECONDS:g} s") from None


class SkillUnoAdapter:
    """skilluno's `UNOGame` as an implementation under test."""

    def __init__(self) -> None:
        self.game: Any = None
        self.n = 0
        self.turn: _Turn | None = None  # a turn waiting at the drawn-card question
        self.wd4_victim: int | None = None

    def hello(self) -> dict[str, Any]:
        from importlib.metadata import version

        _core()
        return {"protocol": PROTOCOL, "name": "skilluno", "version": version("skilluno"),
                "rulesets": list(RULESETS), "features": list(FEATURES),
                "observations": list(OBSERVATIONS), "players": {"min": 2, "max": 10}}

    # --- setup ---------------------------------------------------------------------------------

    def setup(self, params: dict[str, Any]) -> None:
        _ruleset, setup = setup_request(params, RULESETS, "skilluno plays one classic rule set")
        self.close()
        try:
            self._build(setup, int(params.get("seed") or 0))
        except ValueError as exc:
            raise AdapterError("bad-request", f"setup: {exc}") from exc
        except (KeyError, TypeError) as exc:
            raise AdapterError("bad-request", f"setup: {exc!r}") from exc

    def _build(self, setup: dict[str, Any], seed: int) -> None:
        core = _core()
        import uno.paths
        from uno.ui import NullUI

        if setup.get("scores") and any(int(v) for v in dict(setup["scores"]).values()):
            raise Unsupported("skilluno keeps no scores")
        if setup.get("side") not in (None, "light"):
            raise Unsupported("skilluno has no Flip side")
        start = setup.get("start", "turn")
        if start == "game":
            raise Unsupported("start: game: skilluno has no dealer (UNOGame.run lets seat 0 "
                              "start)")
        if start not in ("turn", "round"):
            raise AdapterError("bad-request", f"setup: unknown start {start!r}")
        n = int(setup["players"])
        random.seed(seed)  # skilluno shuffles with the global `random`
        adapter = self

        class Bridge(NullUI):  # type: ignore[misc]
            def input(self, prompt: str = "") -> str:
                turn = adapter.turn
                if turn is None:
                    raise AdapterError("skilluno-question", f"skilluno asked {prompt!r}")
                return turn.ask(prompt)

        # no mods loaded: UNOGame's constructor (SkillLoader.load_skills, its one reader of the
        # mods folder) is pointed at an empty folder, removed as soon as it is made
        with tempfile.TemporaryDirectory(prefix="skilluno-mods-") as mods:
            uno.paths.find_mods_dir = lambda: __import__("pathlib").Path(mods)
            game = core.UNOGame(players=[f"seat {s}" for s in range(n)], human_ui=Bridge(),
                                ai_ui=NullUI(), enabled_seasons=[])
        game.players = [_seat_class()(f"seat {s}", game.ui, game.hand_limit)
                        for s in range(n)]
        hands = {int(k): [make_card(c) for c in v] for k, v in (setup.get("hands") or {}).items()}
        pile = [make_card(c) for c in setup.get("draw") or []]  # top first
        direction = setup.get("direction", "clockwise")
        if start == "round":
            sizes = {len(h) for h in hands.values()}
            if len(sizes) != 1:
                raise Unsupported("skilluno deals the same number of cards to every player")
            if setup.get("discard"):
                raise AdapterError("bad-request", "setup: start: round needs an empty discard")
            if direction != "clockwise":
                raise Unsupported("skilluno starts a hand clockwise")
            game.initial_hand_size = sizes.pop()
            # UNOGame.setup deals each player in turn from the end of the deck, then turns the
            # first card: the deck is laid out so that it deals the scenario's hands and pile
            dealt = [c for s in range(n) for c in hands.get(s, [])]
            game.deck.cards = list(reversed(dealt + pile))
            game.discard_pile.clear()
            try:
                CallBudget(SETUP_CALLS).run(game.setup)
            except Looping:
                raise AdapterError("skilluno-hung", f"skilluno's UNOGame.setup made "
                                   f"{SETUP_CALLS} calls without ending: it loops (it turns "
                                   "cards until a number card, and the pile holds none)") \
                    from None
            game.current_player_idx = (int(setup.get("dealer", n - 1)) + 1) % n
        else:
            for s, seat in enumerate(game.players):
                seat.hand = hands.get(s, [])
            game.deck.cards = list(reversed(pile))
            game.discard_pile[:] = [make_card(c) for c in setup.get("discard") or []]
            if not game.discard_pile:
                raise AdapterError("bad-request", "setup: start: turn needs a discard pile")
            top = game.discard_pile[-1]
            active = setup.get("active_color")
            game.current_color = _color_of(active) if active is not None else top.color
            if game.current_color is None or game.current_color == "黑":
                raise AdapterError("bad-request", "setup: a Wild on top needs active_color")
            game.current_player_idx = int(setup["current"])
            game.game_started = True
        game.direction = 1 if direction == "clockwise" else -1
        self.game, self.n = game, n

    # --- acting --------------------------------------------------------------------------------

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        g = self.game
        if g is None:
            raise AdapterError("bad-request", "act before setup")
        if not isinstance(action, dict):
            return _rejection("malformed-action", f"not an action: {action!r}")
        if action.get("challenge") is False and set(action) == {"player", "challenge"}:
            return self._over() or self._accept_wd4(action["player"])
        for key, why in UNSUPPORTED_ACTIONS.items():
            if key in action and not (key in ("uno", "next_round") and action[key] is False):
                raise Unsupported(why)
        player = action.get("player")
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.n:
            return _rejection("malformed-action", f"bad player {player!r}")
        over = self._over()
        if over is not None:
            return over
        if player != g.current_player_idx:
            return _rejection("not-your-turn", f"it is seat {g.current_player_idx}'s turn "
                              "(current_player_idx)", "CL.PLAY.OUT-OF-TURN")
        self.wd4_victim = None
        seat = g.players[player]
        if self.turn is not None:
            return self._drawn(seat, action)
        if "pass" in action or ("color" in action and "play" not in action):
            return _rejection("wrong-decision", "skilluno asks for a card or a draw "
                              "(Player.choose_play)")
        if action.get("draw") is True:
            seat.choice, seat.color = None, None
            self._run()
            return None
        if "play" not in action:
            return _rejection("malformed-action", f"no action in {action!r}")
        try:
            wanted = card_text(make_card(action["play"]))
        except ValueError as exc:
            return _rejection("malformed-action", str(exc))
        index = next((i for i, c in enumerate(seat.hand) if _text(c) == wanted), None)
        if index is None:
            return _rejection("card-not-in-hand", f"{wanted} is not in seat {player}'s hand")
        problem = self._colour(seat, wanted, action.get("color"))
        if problem is not None:
            return problem
        top = self._top()
        if not seat.hand[index].is_playable_on(top, g.current_color):
            return _rejection("card-does-not-match", f"{wanted} is not playable on "
                              f"{card_text(top)} (Card.is_playable_on)", "CL.PLAY.MATCH")
        seat.choice = index
        self._run(wd4=wanted == "W4")
        return None

    def _over(self) -> dict[str, Any] | None:
        """The rejection of any action once skilluno's hand is over (a last card played, or
        every player but one eliminated), the Wild Draw Four victim's acceptance too."""
        if self.game.check_winner() is None:
            return None
        return _rejection("game-over", "skilluno's game is one hand and it is over "
                          "(UNOGame.check_winner)")

    def _top(self) -> Any:
        """The card to match, `discard_pile[-1]`, which skilluno's `play_turn` reads first; an
        empty pile (its top card reshuffled into the deck) makes skilluno raise IndexError."""
        if not self.game.discard_pile:
            raise AdapterError("skilluno-crashed", "skilluno's play_turn reads discard_pile[-1] "
                               "and the pile is empty (Deck.reshuffle_from_discard took its only "
                               "card)")
        return self.game.discard_pile[-1]

    def _colour(self, seat: Any, card: str, color: Any) -> dict[str, Any] | None:
        """A Wild's colour comes with the play (skilluno asks `choose_color` as its effect)."""
        if not card.startswith("W"):
            seat.color = None
            return None
        if color is None:
            if len(seat.hand) > 1:
                return _rejection("color-required", "a Wild needs a colour", "CL.WILD.COLOUR")
            seat.color = PLACEHOLDER  # decision: a last Wild's colour does not matter
            return None
        seat.color = _color_of(color)
        if seat.color is None:
            return _rejection("invalid-color", f"unknown colour {color!r}",
                              "CL.WILD.FOUR-COLOURS")
        return None

    def _drawn(self, seat: Any, action: dict[str, Any]) -> dict[str, Any] | None:
        """The turn waits at skilluno's question "play the drawn card? (y/n)"."""
        if action.get("pass") is True:
            self._answer("n")
            return None
        if "play" not in action:
            return _rejection("wrong-decision", "skilluno asks whether to play the drawn card")
        drawn = _text(seat.hand[-1])
        try:
            wanted = card_text(make_card(action["play"]))
        except ValueError as exc:
            return _rejection("malformed-action", str(exc))
        if wanted != drawn:
            return _rejection("only-drawn-card" if any(_text(c) == wanted for c in seat.hand)
                              else "card-not-in-hand", f"only the drawn {drawn} may be played",
                              "CL.DRAW.ONLY-DRAWN")
        problem = self._colour(seat, wanted, action.get("color"))
        if problem is not None:
            return problem
        self._answer("y", wd4=wanted == "W4")
        return None

    def _run(self, wd4: bool = False) -> None:
        actor = self.game.current_player_idx
        self.turn = _Turn(self.game)
        self.turn.thread.start()
        self._settle(actor, wd4)

    def _answer(self, text: str, wd4: bool = False) -> None:
        assert self.turn is not None
        actor = self.game.current_player_idx
        self.turn.answers.put(text)
        self._settle(actor, wd4)

    def _settle(self, actor: int, wd4: bool) -> None:
        assert self.turn is not None
        kind, exc = self.turn.next()
        if kind == "ask":
            return  # waits for the play-or-keep answer
        self.turn = None
        if exc is not None:
            raise AdapterError("skilluno-crashed",
                               f"skilluno raised {type(exc).__name__}: {exc}") from exc
        if wd4:
            self.wd4_victim = self._next_of(actor)

    def _next_of(self, seat: int) -> int:
        return (seat + self.game.direction) % self.n

    def _accept_wd4(self, player: Any) -> dict[str, Any] | None:
        """Adapter decision: `challenge: false` from a Wild Draw Four's victim is a no-op
        (skilluno has no challenge: its +4 draws and skips at once)."""
        if self.wd4_victim is not None and player == self.wd4_victim:
            self.wd4_victim = None
            return None
        return _rejection("not-challengeable", "no Wild Draw Four was just played against "
                          f"seat {player}", "CL.WD4.CHALLENGE.WHO")

    # --- observing -----------------------------------------------------------------------------

    def observe(self, keys: list[str]) -> dict[str, Any]:
        g = self.game
        if g is None:
            raise AdapterError("bad-request", "observe before setup")
        winner = g.check_winner()
        over = winner is not None
        cur = None if over else g.current_player_idx
        out: dict[str, Any] = {}
        for key in keys:
            if key == "hands":
                out[key] = {s: [card_text(c) for c in p.hand] for s, p in enumerate(g.players)}
            elif key == "hand_sizes":
                out[key] = {s: len(p.hand) for s, p in enumerate(g.players)}
            elif key == "top":
                out[key] = card_text(g.discard_pile[-1]) if g.discard_pile else None
            elif key == "active_color":
                out[key] = COLORS.get(g.current_color)
            elif key == "current":
                out[key] = cur
            elif key == "pending":
                out[key] = {"player": None, "decision": "none"} if over else {
                    "player": cur, "decision": "play-drawn" if self.turn else "play"}
            elif key == "direction":
                out[key] = "clockwise" if g.direction == 1 else "counterclockwise"
            elif key == "draw_size":
                out[key] = len(g.deck.cards)
            elif key == "discard_size":
                out[key] = len(g.discard_pile)
            elif key in ("total_cards", "card_counts"):  # the deck, the discards, the hands
                every = [*g.deck.cards, *g.discard_pile, *(c for p in g.players for c in p.hand)]
                out[key] = len(every) if key == "total_cards" else \
                    dict(Counter(card_text(c) for c in every))
            elif key in ("round_over", "game_over"):
                out[key] = over
            elif key == "winner":
                out[key] = g.players.index(winner) if over else None
            elif key == "legal_actions":
                out[key] = [] if over else self._legal_actions()
            else:
                raise Unsupported(f"observation {key!r}: skilluno has no such state")
        return out

    def _legal_actions(self) -> list[dict[str, Any]]:
        """What `act` takes now (the module's docstring says how it is judged)."""
        g = self.game
        cur = g.current_player_idx
        seat = g.players[cur]
        out: list[dict[str, Any]] = []
        if self.wd4_victim is not None:  # `_accept_wd4`: checked by `act` before the turn
            out.append({"player": self.wd4_victim, "challenge": False})
        if self.turn is not None:  # the drawn-card question (`_drawn`): keep it or play it
            drawn = _name(seat.hand[-1])
            return out + [{"player": cur, "pass": True}] + listed_plays(cur, [drawn],
                                                                        len(seat.hand))
        if seat.eliminated:  # play_turn moves on at once: only a draw lets it run
            return out + [{"player": cur, "draw": True}]
        if not g.discard_pile:  # play_turn raises at discard_pile[-1] (`_top`)
            return out
        top = g.discard_pile[-1]
        named = [(_name(c), c) for c in seat.hand]  # every card, before skilluno's test
        # CL.PLAY.MATCH as skilluno has it (a Wild, the colour in force, the number or symbol)
        playable = [text for text, c in named if c.is_playable_on(top, g.current_color)]
        return out + listed_plays(cur, playable, len(seat.hand)) + [{"player": cur, "draw": True}]

    def close(self) -> None:
        turn, self.turn = self.turn, None
        if turn is not None and turn.thread.is_alive():
            turn.answers.put("n")  # let the waiting turn finish
            turn.thread.join(timeout=1.0)
        self.game, self.wd4_victim = None, None  # a new setup opens no Wild Draw Four window


def _rejection(code: str, message: str, rule: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"code": code, "message": message}
    if rule:
        out["rule"] = rule
    return out


def _seat_class() -> type:
    """skilluno's `Player` whose choices are the scenario's."""
    core = _core()

    class Seat(core.Player):  # type: ignore[misc,name-defined]
        def __init__(self, name: str, ui: Any, hand_limit: int) -> None:
            super().__init__(name, is_human=True, ui=ui)
            self.hand_limit = hand_limit
            self.choice: int | None = None
            self.color: str | None = None

        def choose_play(self, top_card: Any, current_color: str, game: Any) -> int | None:
            self.game = game
            return self.choice

        def choose_color(self) -> str:
            return self.color or PLACEHOLDER

    return Seat
