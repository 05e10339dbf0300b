"""uno-game 1.1.0 (PyPI, import name `uno`) behind `uno-conformance/2`.

uno-game plays whole games: `uno._game.Game(players).begin()` runs a hand to its end, calling
each player back (`Player.play(current_card, game)` for a turn, `Player._play(current_card)`
for the card to play, `Player.ask(question, type)` for a Wild's colour and for the Wild Draw Four
challenge). The adapter inverts that control: the game runs in a thread of its own, and each
callback of a seat's player (`_Seat`) hands the question to the protocol side and waits for the
scenario's next action. A request/answer pair crosses the threads under one condition variable;
the game thread only ever runs while the protocol side waits for it.

The turn logic stays uno-game's: `_Seat` overrides only what uno-game's own `RealPlayer`
overrides (`_play`, `_ask`) and wraps `play` to wait for the scenario before uno-game's
`Player.play` runs. So uno-game decides whether a player may draw (only when no card is playable:
`Player.play` calls `_play` at once otherwise, and the adapter then rejects the draw as
`wrong-decision`), draws for the player, and passes by itself after an unplayable draw; its
`Player.can_play_card` judges every card (a card it refuses is asked for again in `do()`; the
adapter rejects it `card-does-not-match`).

It can hang: a Wild or Wild Draw Four turned first makes `Game.begin` retry `card.played(self)`
forever (the first player is a `_TempPlayer` with no `ask`, the AttributeError is swallowed by
`except Exception: continue`). Such a loop is stopped, and the call answers `uno-game-hung`:
when the game thread has made `HANG_CALLS` Python calls without asking anything (env
`UNO_GAME_HANG_CALLS`; conformance/adapters/loops.py: a loop is found by what it does, not
by how long a busy machine takes), or, for a loop that makes no
call, when it neither asks nor ends within `HANG_SECONDS` (env `UNO_GAME_HANG_SECONDS`: an
asynchronous `_Abort`, `PyThreadState_SetAsyncExc`, delivered between two bytecodes, which a
Python loop always reaches). The adapter still runs out of process, since
nothing stops a thread stuck in C code: `--adapter uno-game` is `conformance serve --adapter
module:...` over stdio, whose timeout kills it.

Setup: the scenario's draw pile replaces uno-game's deck, which is an endless weighted random
draw (`uno/_core.py draw`, numpy's global generator): the module-level `draw` that `Player.draw`
and `Game.__init__` call deals the pile's cards in order while a scenario runs. A draw beyond the
pile is `unsupported` (uno-game's deck never runs out: no exhausted pile, no reshuffle). uno-game
keeps no discard pile, only the card to match (`game.card`), so `discard_size` is not declared;
`draw_size` is the pile the adapter deals from, all the deck uno-game has while a scenario runs.
`legal_actions` is what `act` takes from the seat uno-game waits for, judged by uno-game's own
`Player.can_play_card` on `game.card` (the test `Player.play` and `do()` make): at a turn, every
card it lets be played (a Wild once per colour, a last card also without one), or `draw` alone
when none can be (`Player.play` draws only then); after that draw, or after a card it refused,
only those cards (it asks for a card: no draw, no pass); at a Wild Draw Four, its victim's
`challenge` true or false (`WildDraw4.played` asks); nothing once the hand is over, nor at a
colour question (never asked: a play carries its colour; an answer would be a card). A hand card
that is not one of our notation's (`make_card(card_text(c)) != c`) is the adapter error
`uno-game-bad-card`: no action can play it, and a listing without it would hide it. The draw is
listed even when the scenario's pile is exhausted, where the adapter answers it
`unsupported`: uno-game itself, whose deck is endless, would take it.
Seats are `game.players` in order (`direction = 1` is clockwise); uno-game has no dealer and
picks the first player at random, so for `start: round` the adapter sets the seat left of the
dealer. For `start: turn` the top discard is a copy of the card with its effect marked
done (`played` a no-op), so that `Game.begin` does not apply it a second time as a first card.
"""

from __future__ import annotations

import copy
import ctypes
import os
import threading
from dataclasses import dataclass, field
from typing import Any

from conformance.adapters.loops import CallBudget, Looping, env_budget
from conformance.protocol import (
    PROTOCOL,
    AdapterError,
    Unsupported,
    listed_plays,
    setup_request,
)

RULESETS = ["classic-official"]
FEATURES = ["basic-play", "draw-then-play", "action-cards", "wild", "wd4", "wd4-challenge",
            "first-card", "two-player"]
# draw_size: the scenario's pile the adapter deals uno-game's draws from (decision
# scenario-pile-is-the-deck) is all the deck there is while a scenario runs
OBSERVATIONS = ["hands", "hand_sizes", "top", "active_color", "current", "pending",
                "direction", "draw_size", "round_over", "game_over", "winner", "legal_actions"]
UNSUPPORTED_ACTIONS = {
    "uno": "uno-game has no UNO call",
    "catch": "uno-game has no UNO call, hence no catch",
    "swap": "uno-game has no swap (Seven-O, swap cards)",
    "referee": "uno-game has no table penalties",
    "next_round": "uno-game plays one hand: no rounds, no scores",
}
COLOR_NAMES = ("red", "green", "blue", "yellow")
SYMBOLS = {"S": "SKIP", "R": "REVERSE", "D2": "DRAW2"}
# How many Python calls the game thread may make between two callbacks before it counts as
# stuck in one of uno-game's loops: a turn makes at most a few hundred (measured: 127 at most
# over the corpus's 813 requests and a `conformance diff` of 150 examples, 4,497), the loop on a
# first Wild thousands in a few milliseconds. Counted, not timed: a busy machine cannot make a
# slow turn look like a loop, nor a loop cost seconds. Set UNO_GAME_HANG_CALLS to change it (0:
# not counted).
HANG_CALLS = 20_000
# How long the game thread may run between two callbacks before it counts as stuck: the
# backstop for a loop that makes no Python call (real work takes microseconds). Set
# UNO_GAME_HANG_SECONDS to change it.
HANG_SECONDS = 2.0


class CardError(ValueError):
    """A card in our notation that uno-game does not have."""


class _Abort(BaseException):
    """Unwinds the game thread; a BaseException so that uno-game's `except Exception` loops
    do not swallow it. Carries what the protocol side must raise (or None: just stop)."""

    def __init__(self, error: Exception | None = None) -> None:
        super().__init__()
        self.error = error


def _uno() -> Any:
    import uno
    import uno._card
    import uno._colors
    import uno._core
    import uno._game
    import uno._player

    return uno


def make_card(text: str) -> Any:
    """Our notation -> uno-game's card object (`R5` -> RED_5, `GS` -> GREEN_SKIP, `W4`...)."""
    core = _uno()._core
    t = str(text).strip().upper()
    if t == "W":
        return core.WILD_CARD
    if t == "W4":
        return core.WILD_DRAW4
    names = {"R": "RED", "G": "GREEN", "B": "BLUE", "Y": "YELLOW"}
    color, rest = names.get(t[:1]), t[1:]
    if color is not None and len(rest) == 1 and rest.isdigit():
        return getattr(core, f"{color}_{rest}")
    if color is not None and rest in SYMBOLS:
        return getattr(core, f"{color}_{SYMBOLS[rest]}")
    raise CardError(f"not a classic UNO card: {text!r}")


def card_text(card: Any) -> str:
    """uno-game's card -> our notation (a Wild's colour is not part of it)."""
    cards = _uno()._card
    if isinstance(card, cards.WildDraw4):
        return "W4"
    if isinstance(card, cards.Wild):
        return "W"
    letter = card.color.code.upper()
    for suffix, cls in (("S", cards.Skip), ("R", cards.Reverse), ("D2", cards.Draw2)):
        if isinstance(card, cls):
            return f"{letter}{suffix}"
    return f"{letter}{card.number}"


def color_of(name: str) -> Any:
    colors = _uno()._colors
    return {"red": colors.RED, "green": colors.GREEN, "blue": colors.BLUE,
            "yellow": colors.YELLOW}[name]


@dataclass
class _Request:
    """A question the game thread waits on: `turn` (a seat's turn begins), `card` (uno-game's
    `Player.play` asks which card: `drew` after it drew for the player), `challenge` (the
    victim of a Wild Draw Four is asked whether to challenge), `color` (a colour the play did
    not carry)."""

    kind: str
    seat: int
    turn: int = 0
    drew: bool = False




@dataclass
class _Bridge:
    """The rendezvous of the protocol side and the game thread."""

    cond: threading.Condition = field(default_factory=threading.Condition)
    request: _Request | None = None
    answer: Any = None
    answered: bool = False
    gen: int = 0  # counts requests
    done: bool = False
    error: BaseException | None = None
    thread: threading.Thread | None = None
    # the game thread's Python calls since its last request (HANG_CALLS, as the environment
    # sets it; 0: not counted)
    calls: CallBudget = field(default_factory=lambda: CallBudget(0))

    def ask(self, req: _Request) -> Any:
        """Game thread: publish a request and wait for its answer."""
        self.calls.calls = 0
        with self.cond:
            self.gen += 1
            self.request, self.answered = req, False
            self.cond.notify_all()
            while not self.answered:
                self.cond.wait()
            answer, self.request, self.answered = self.answer, None, False
        if isinstance(answer, _Abort):
            raise answer
        return answer

    def resume(self, answer: Any) -> None:
        """Protocol side: answer the pending request, wait for the next one (or the end)."""
        with self.cond:
            gen = self.gen
            self.answer, self.answered = answer, True
            self.cond.notify_all()
            self._wait(lambda: self.gen > gen or self.done)

    def wait_first(self) -> None:
        with self.cond:
            self._wait(lambda: self.gen > 0 or self.done)

    def _wait(self, ready: Any) -> None:
        limit = float(os.environ.get("UNO_GAME_HANG_SECONDS") or HANG_SECONDS)
        if self.cond.wait_for(ready, timeout=limit):
            return
        stopped = self.stop_thread()
        raise AdapterError("uno-game-hung", f"uno-game's game thread neither asked a player "
                           f"nor ended within {limit:g} s: it loops"
                           + ("" if stopped else " (and could not be stopped)"))

    def stop_thread(self) -> bool:
        """Stop a game thread stuck in a Python loop: raise _Abort in it (an asynchronous
        exception, delivered between two bytecodes; `except Exception` does not catch it).
        Called with the condition held; True if the thread ended."""
        t = self.thread
        if t is None or t.ident is None:
            return False
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(t.ident),
                                                   ctypes.py_object(_Abort))
        self.cond.wait_for(lambda: self.done, timeout=1.0)
        return self.done


class UnoGameAdapter:
    """uno-game's `Game` as an implementation under test."""

    def __init__(self) -> None:
        self.game: Any = None
        self.bridge = _Bridge()
        self.thread: threading.Thread | None = None
        self.pile: list[Any] = []
        self.n = 0
        self.seats: list[Any] = []
        self.turn = 0  # counts turns begun (play() calls)
        self.color: Any = None  # the colour of the Wild being played, for uno-game's ask
        self.saved: dict[str, Any] = {}
        self.budget = HANG_CALLS  # the game thread's calls without a request (loops.py)

    # --- protocol ---------------------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        from importlib.metadata import version

        _uno()
        return {"protocol": PROTOCOL, "name": "uno-game", "version": version("uno-game"),
                "rulesets": list(RULESETS), "features": list(FEATURES),
                "observations": list(OBSERVATIONS), "players": {"min": 2, "max": 10}}

    def setup(self, params: dict[str, Any]) -> None:
        _ruleset, setup = setup_request(params, RULESETS,
                                        "uno-game plays one classic rule set only")
        self.budget = env_budget("UNO_GAME_HANG_CALLS", HANG_CALLS)  # before anything changes
        self.close()
        try:
            self._build(setup, int(params.get("seed") or 0))
        except CardError as exc:
            raise AdapterError("bad-request", f"setup: {exc}") from exc
        except (KeyError, TypeError, ValueError) as exc:
            raise AdapterError("bad-request", f"setup: {exc!r}") from exc
        self._start()

    def _build(self, setup: dict[str, Any], seed: int) -> None:
        import random

        import numpy.random

        uno = _uno()
        if setup.get("scores") and any(int(v) for v in dict(setup["scores"]).values()):
            raise Unsupported("uno-game keeps no scores")
        if setup.get("side") not in (None, "light"):
            raise Unsupported("uno-game has no Flip side")
        n = int(setup["players"])
        if n < 2:
            raise AdapterError("bad-request", "setup: at least 2 players")
        start = setup.get("start", "turn")
        if start == "game":  # a start uno-game cannot make: unsupported, not a bad request
            raise Unsupported("start: game: uno-game has no dealer (Game() picks the first "
                              "player with random.randrange)")
        if start not in ("turn", "round"):
            raise AdapterError("bad-request", f"setup: unknown start {start!r}")
        direction = setup.get("direction", "clockwise")
        if direction not in ("clockwise", "counterclockwise"):
            raise AdapterError("bad-request", f"setup: bad direction {direction!r}")
        # uno-game has no generator of its own: its few random choices use the global ones
        random.seed(seed)
        numpy.random.seed(seed % 2**32)
        self.n = n
        self.pile = [make_card(c) for c in setup.get("draw") or []]  # top first
        self._patch_draw()
        hands = {int(k): v for k, v in (setup.get("hands") or {}).items()}
        self.seats = [_Seat(self, s) for s in range(n)]
        for s, seat in enumerate(self.seats):
            seat.hand = [make_card(c) for c in hands.get(s, [])]
        if start == "round":
            if setup.get("discard"):
                raise AdapterError("bad-request", "setup: start: round needs an empty discard")
            if direction != "clockwise":
                raise Unsupported("uno-game always starts a hand clockwise")
            if not self.pile:
                raise AdapterError("bad-request", "setup: start: round needs a draw pile")
            try:
                game = uno._game.Game(self.seats)  # turns the first card: draw(1), the pile's
            except _Abort as exc:
                raise exc.error or AdapterError("bad-request", "setup: no first card") from None
            first = (int(setup.get("dealer", n - 1)) + 1) % n
        else:
            discard = [make_card(c) for c in setup.get("discard") or []]
            if not discard:
                raise AdapterError("bad-request", "setup: start: turn needs a discard pile")
            game = uno._game.Game.__new__(uno._game.Game)
            game.players = self.seats
            game.direction = 1 if direction == "clockwise" else -1
            top = copy.copy(discard[-1])
            if isinstance(top, uno._card.Wild):
                active = str(setup.get("active_color") or "").lower()
                if active not in COLOR_NAMES:
                    raise AdapterError("bad-request", "setup: a Wild on top needs active_color")
                top.color = color_of(active)
            elif setup.get("active_color") not in (None, top.color.name):
                raise Unsupported("uno-game's colour to match is the top card's colour")
            top.played = lambda game: None  # its effect happened before this position
            game.card = top
            first = int(setup.get("current", 0))
        game.ix, game.player = first, self.seats[first]
        self.game = game

    def _patch_draw(self) -> None:
        """The scenario's pile stands for uno-game's endless random deck while it runs."""
        uno = _uno()
        if not self.saved:
            self.saved = {"player": uno._player.draw, "game": uno._game.draw}
        uno._player.draw = uno._game.draw = self._draw

    def _draw(self, count: int) -> list[Any]:
        count = int(count)
        if count > len(self.pile):
            raise _Abort(Unsupported(
                f"the draw pile holds {len(self.pile)} card(s), {count} drawn: uno-game's deck "
                "is endless (uno/_core.py draw), an exhausted pile has no counterpart"))
        out, self.pile = self.pile[:count], self.pile[count:]
        return out

    def _start(self) -> None:
        bridge = self.bridge = _Bridge()
        game = self.game

        budget = bridge.calls.budget = self.budget

        def run() -> None:
            try:
                bridge.calls.run(game.begin)  # this thread's calls only
            except Looping:
                bridge.error = AdapterError("uno-game-hung", f"uno-game's game thread made "
                                            f"{budget} calls without asking a player or "
                                            "ending: it loops")
            except _Abort as exc:
                bridge.error = exc.error
            except Exception as exc:  # noqa: BLE001 - uno-game crashed: reported by act/setup
                bridge.error = AdapterError("uno-game-crashed",
                                            f"uno-game raised {type(exc).__name__}: {exc}")
            with bridge.cond:
                bridge.done = True
                bridge.cond.notify_all()

        self.thread = bridge.thread = threading.Thread(target=run, name="uno-game", daemon=True)
        self.thread.start()
        bridge.wait_first()
        self._raise_error()

    def _raise_error(self) -> None:
        err, self.bridge.error = self.bridge.error, None
        if err is not None:
            raise err

    # --- acting -----------------------------------------------------------------------------

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        if self.game is None:
            raise AdapterError("bad-request", "act before setup")
        if not isinstance(action, dict):
            return _rejection("malformed-action", f"not an action: {action!r}")
        for key, why in UNSUPPORTED_ACTIONS.items():
            if key in action and not (key in ("uno", "next_round") and action[key] is False):
                raise Unsupported(why)
        player = action.get("player")
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.n:
            return _rejection("malformed-action", f"bad player {player!r}")
        req = self.bridge.request
        if self.bridge.done or req is None:
            return _rejection("game-over", "uno-game's game is one hand and it is over "
                              "(Game.begin returned)")
        if "challenge" in action:
            if req.kind != "challenge" or req.seat != player:
                return _rejection("not-challengeable", "no Wild Draw Four was just played "
                                  f"against seat {player}")
            self._answer(bool(action["challenge"]))
            return None
        if player != req.seat:
            return _rejection("not-your-turn", f"uno-game waits for seat {req.seat} "
                              f"({req.kind})", "CL.PLAY.OUT-OF-TURN")
        if req.kind == "challenge":
            return _rejection("wrong-decision", "uno-game asks whether to challenge the Wild "
                              "Draw Four (WildDraw4.played)")
        if "pass" in action:
            return _rejection("wrong-decision", "uno-game has no keep-the-drawn-card decision: "
                              "Player.play makes a player who can play after a draw play a card "
                              "(do() asks until one is played) and passes by itself after an "
                              "unplayable draw")
        if "color" in action and "play" not in action:
            return _rejection("wrong-decision", "uno-game never asks for the colour of a Wild "
                              "turned first (Game.begin loops on it instead)")
        if action.get("draw") is True:
            return self._draw_action(req)
        if "play" in action:
            return self._play_action(req, action)
        return _rejection("malformed-action", f"no action in {action!r}")

    def _draw_action(self, req: _Request) -> dict[str, Any] | None:
        if req.kind != "turn":
            return _rejection("wrong-decision", "uno-game's Player.play draws only at the start "
                              "of a turn when no card can be played; it now asks for a card")
        self._answer("go")  # uno-game's Player.play runs: it draws, or asks for a card at once
        nxt = self.bridge.request
        if nxt is not None and nxt.kind == "card" and nxt.seat == req.seat and not nxt.drew \
                and nxt.turn == req.turn:
            return _rejection("wrong-decision", "uno-game's Player.play lets a player draw only "
                              "when no card can be played (it asks for a card instead)")
        return None

    def _play_action(self, req: _Request, action: dict[str, Any]) -> dict[str, Any] | None:
        seat = self.seats[req.seat]
        try:
            wanted = make_card(action["play"])
        except CardError as exc:
            return _rejection("malformed-action", str(exc))
        held = [c for c in seat.hand if c == wanted]
        if not held:
            return _rejection("card-not-in-hand", f"{action['play']} is not in seat "
                              f"{req.seat}'s hand")
        color = action.get("color")
        uno = _uno()
        if isinstance(wanted, uno._card.Wild):
            if color is None and len(seat.hand) > 1:
                return _rejection("color-required", "a Wild needs a colour (uno-game asks for "
                                  "it once the Wild is played)", "CL.WILD.COLOUR")
            if color is not None and str(color).lower() not in COLOR_NAMES:
                return _rejection("invalid-color", f"unknown colour {color!r}",
                                  "CL.WILD.FOUR-COLOURS")
        if req.kind == "turn" and not seat.can_play(self.game.card):
            # uno-game's Player.play would draw for the player at once: refuse before that
            return _rejection("card-does-not-match", "no card of the hand can be played "
                              "(uno-game's Player.can_play)")
        if req.kind == "turn":
            self._answer("go")  # uno-game's Player.play runs and asks for the card (_play)
            req = self.bridge.request  # type: ignore[assignment]
            if req is None or req.kind != "card":
                raise AdapterError("uno-game-protocol", "uno-game did not ask for a card from "
                                   "a player who can play")
        self.color = None if color is None else color_of(str(color).lower())
        self._answer(held[0])
        nxt = self.bridge.request
        if nxt is not None and (nxt.kind, nxt.seat, nxt.turn, nxt.drew) == \
                ("card", req.seat, req.turn, req.drew):  # do() asks again: the card was refused
            return _rejection("card-does-not-match", f"{action['play']} does not match "
                              f"{card_text(self.game.card)} (uno-game's Player.can_play_card)")
        return None

    def _answer(self, answer: Any) -> None:
        self.bridge.resume(answer)
        self._raise_error()

    # --- observing --------------------------------------------------------------------------

    def observe(self, keys: list[str]) -> dict[str, Any]:
        g = self.game
        if g is None:
            raise AdapterError("bad-request", "observe before setup")
        over = self.bridge.done
        req = self.bridge.request
        out: dict[str, Any] = {}
        for key in keys:
            if key == "hands":
                out[key] = {s: [card_text(c) for c in p.hand] for s, p in enumerate(self.seats)}
            elif key == "hand_sizes":
                out[key] = {s: len(p.hand) for s, p in enumerate(self.seats)}
            elif key == "top":
                out[key] = card_text(g.card)
            elif key == "active_color":
                name = g.card.color.name
                out[key] = name if name in COLOR_NAMES else None
            elif key == "current":
                out[key] = None if over or req is None else req.seat
            elif key == "pending":
                out[key] = ({"player": None, "decision": "none"} if over or req is None else
                            {"player": req.seat, "decision": _decision(req)})
            elif key == "direction":
                out[key] = "clockwise" if g.direction == 1 else "counterclockwise"
            elif key == "draw_size":
                out[key] = len(self.pile)
            elif key in ("round_over", "game_over"):
                out[key] = over
            elif key == "winner":
                out[key] = self.seats.index(g.player) if over and g.player in self.seats \
                    else None
            elif key == "legal_actions":
                out[key] = [] if over or req is None else self._legal_actions(req)
            else:
                raise Unsupported(f"observation {key!r}: uno-game has no such state")
        return out

    def _legal_actions(self, req: _Request) -> list[dict[str, Any]]:
        """What `act` takes from the seat uno-game waits for (`req`): see the module's
        docstring."""
        if req.kind == "challenge":  # WildDraw4.played asks the victim: any answer is taken
            return [{"player": req.seat, "challenge": c} for c in (True, False)]
        if req.kind not in ("turn", "card"):  # a colour question: no action answers it
            return []
        seat, top = self.seats[req.seat], self.game.card
        named = [(_name(card), card) for card in seat.hand]  # every card, before uno-game's test
        if not seat.can_play(top):
            return [{"player": req.seat, "draw": True}] if req.kind == "turn" else []
        # CL.PLAY.MATCH as uno-game has it: a Wild, or the same number or colour; a last Wild
        # needs no colour (`_play_action`: the hand ends)
        return listed_plays(req.seat, [text for text, card in named
                                       if seat.can_play_card(top, card)], len(seat.hand))

    def close(self) -> None:
        bridge = self.bridge
        if self.thread is not None and not bridge.done and bridge.request is not None:
            with bridge.cond:  # unwind the game thread from its callback
                bridge.answer, bridge.answered = _Abort(), True
                bridge.cond.notify_all()
            self.thread.join(timeout=1.0)
        if self.saved:
            uno = _uno()
            uno._player.draw, uno._game.draw = self.saved["player"], self.saved["game"]
            self.saved = {}
        self.thread, self.game = None, None


def _name(card: Any) -> str:
    """`card` in our notation, or the adapter error `uno-game-bad-card` for one it does not name
    (uno-game could let it be played, no action of ours can: a listing without it would hide
    it)."""
    try:
        text = card_text(card)
        if make_card(text) == card:
            return text
    except (AttributeError, CardError, KeyError, TypeError, ValueError):
        pass
    raise AdapterError("uno-game-bad-card", f"a hand holds {str(card)[:80]!r}, no card of ours")


def _decision(req: _Request) -> str:
    if req.kind == "card" and req.drew:
        return "play-drawn"
    return {"challenge": "challenge", "color": "color"}.get(req.kind, "play")


def _rejection(code: str, message: str, rule: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"code": code, "message": message}
    if rule:
        out["rule"] = rule
    return out


def _seat_class() -> type:
    """uno-game's `Player` with the callbacks that ask the protocol side."""
    uno = _uno()

    class Seat(uno._player.Player):  # type: ignore[misc,name-defined]
        def __init__(self, adapter: UnoGameAdapter, seat: int) -> None:
            self.adapter, self.seat = adapter, seat
            super().__init__(card_count=0)
            self.name = f"seat {seat}"
            self.start_size = 0

        def play(self, current_card: Any, game: Any) -> Any:
            a = self.adapter
            a.turn += 1
            a.bridge.ask(_Request("turn", self.seat, a.turn))
            self.start_size = len(self.hand)
            return super().play(current_card, game)  # uno-game's turn logic

        def _play(self, current_card: Any) -> Any:
            a = self.adapter
            drew = len(self.hand) > self.start_size
            return a.bridge.ask(_Request("card", self.seat, a.turn, drew))

        def _ask(self, q: Any, t: Any) -> Any:
            a = self.adapter
            colors = _uno()._color
            if issubclass(t, colors.Color):
                if a.color is not None:
                    return a.color
                return a.bridge.ask(_Request("color", self.seat, a.turn))
            if issubclass(t, bool):
                return a.bridge.ask(_Request("challenge", self.seat, a.turn))
            raise AdapterError("uno-game-question", f"uno-game asked {q!r} ({t!r})")

    return Seat


def _Seat(adapter: UnoGameAdapter, seat: int) -> Any:  # a class factory, named as the class
    return _seat_class()(adapter, seat)
