"""What every rule area of the oracle shares (docs/fuzzing.md "Layout").

- `Facts`: what the oracle reads of a composed ruleset: its variants and numbers from the
  ruleset's `params` (spec/rulesets), never from the spelling of its name;
- `Snap`: the position before an action (a structural copy of the state);
- `check`: a check naming its rule ID, counted in `STATS`;
- the small, independent reading of the rule texts every area needs (seats, matching, faces).

Nothing here calls the engine's rule helpers (`uno_fsm.rules`): the oracle is a second,
independent reading of the rules, checked against the engine through its public API.
"""

from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from uno_fsm.cards import Card, Face
from uno_fsm.game import Game
from uno_fsm.params import _get  # the one reader of a dotted ruleset parameter
from uno_fsm.state import State

CLASSIC_COLORS = ("R", "Y", "G", "B")  # CL.DECK.COLOURS, FL light side
DARK_COLORS = ("P", "T", "O", "V")  # FL.DECK.* dark side


# ---- the ruleset -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Facts:
    """What the oracle needs to know of a composed ruleset, read from its `params` (the
    variants composed in change the params, so a variant is seen whatever the name says)."""

    name: str
    base: str  # the composed ruleset's base: classic-official | classic-2022 | classic-guide | flip
    flip: bool  # game: flip (FL.*)
    hand: int  # hand_size (CL.DEAL.SEVEN)
    target: int | None  # scoring.target; None: one hand (CL22.SCORE.ONE-HAND)
    first_card: Mapping[str, str]  # card kind -> first-card policy (CL.FIRST.*, CL22.FIRST.*)
    min_players: int
    max_players: int
    even_players: bool  # players.even (PARTNERS.EVEN)
    stacking: bool  # stacking.enabled (V.STACK.*)
    jump_in: bool  # jump_in.enabled (V.JUMPIN.*)
    seven_o: bool  # seven_o.enabled (V.SEVENO.*)
    partners: bool  # scoring.method: partners (PARTNERS.*)
    alt_scoring: bool  # scoring.method: own-hand-lowest-wins (FLALT.*)
    elimination: bool  # scoring.method: elimination (DESAFIO.*, variant desafio)
    cards_2018: bool  # deck.wilds holds Wild Shuffle Hands / custom Wilds (CL18.DECK)
    swap_card: bool  # deck.wilds holds a Wild Swap Hands (V.SWAP.CARD)
    light_scoring: bool = False  # scoring.side: light (FL.SCORE.LIGHT-SIDE)

    @staticmethod
    def of(ruleset: str, params: Mapping[str, Any] | None = None) -> Facts:
        """The facts of `ruleset` (a composed name); `params` replaces its parameters (the
        model checker's reduced games: a smaller deck, hand and target)."""
        if params is None:
            return _facts(ruleset)
        return _from_params(ruleset, _base(ruleset), params)

    def players_ok(self, n: int) -> bool:
        """CL.DECK.PLAYERS, PARTNERS.EVEN: a table this ruleset is played at."""
        return self.min_players <= n <= self.max_players and not (self.even_players and n % 2)

    def seat_counts(self, lo: int, hi: int) -> list[int]:
        """The player counts in lo..hi this ruleset is played with."""
        return [n for n in range(lo, hi + 1) if self.players_ok(n)]


@functools.lru_cache(maxsize=64)
def _base(ruleset: str) -> str:
    from uno_spec.rulesets import load_ruleset

    return load_ruleset(ruleset).base


@functools.lru_cache(maxsize=64)
def _facts(ruleset: str) -> Facts:
    from uno_spec.rulesets import load_ruleset

    rs = load_ruleset(ruleset)
    return _from_params(ruleset, rs.base, rs.params)


def _from_params(name: str, base: str, p: Mapping[str, Any]) -> Facts:
    wilds = _get(p, "deck.wilds") or {}
    method = _get(p, "scoring.method", "winner-scores-others")
    target = _get(p, "scoring.target")
    return Facts(
        name=name, base=base, flip=_get(p, "game", "classic") == "flip",
        hand=int(_get(p, "hand_size", 7)), target=None if target is None else int(target),
        first_card=dict(_get(p, "first_card") or {}),
        min_players=int(_get(p, "players.min", 2)), max_players=int(_get(p, "players.max", 10)),
        even_players=bool(_get(p, "players.even", False)),
        stacking=bool(_get(p, "stacking.enabled", False)),
        jump_in=bool(_get(p, "jump_in.enabled", False)),
        seven_o=bool(_get(p, "seven_o.enabled", False)),
        partners=method == "partners", alt_scoring=method == "own-hand-lowest-wins",
        elimination=method == "elimination",
        cards_2018=bool(wilds.get("wild_shuffle_hands") or wilds.get("custom_wild")),
        swap_card=bool(wilds.get("wild_swap_hands")),
        light_scoring=_get(p, "scoring.side", "active") == "light",
    )


# ---- checks ----------------------------------------------------------------------------------
@dataclass
class Stats:
    """Counters of a fuzzing session (read by the progress display)."""

    steps: int = 0
    legal: int = 0
    illegal: int = 0
    games: int = 0
    started: float = field(default_factory=time.monotonic)
    checked: Counter[str] = field(default_factory=Counter)  # rule ID -> checks made

    def reset(self) -> None:
        self.steps = self.legal = self.illegal = self.games = 0
        self.checked = Counter()
        self.started = time.monotonic()

    def rate(self) -> float:
        return self.steps / max(time.monotonic() - self.started, 1e-9)


STATS = Stats()


class FuzzFailure(AssertionError):
    """A broken invariant or postcondition; the message ends with a conformance scenario."""


def check(cond: bool, rule_id: str, message: str) -> None:
    """Fail with `[rule_id] message` unless `cond`. `rule_id` is a rule of spec/rules, or
    `ENGINE.*` for a property of the engine's API (JSON, replay, the two dispatch paths)."""
    STATS.checked[rule_id] += 1
    if not cond:
        raise AssertionError(f"[{rule_id}] {message}")


# ---- the position before an action -----------------------------------------------------------
@dataclass
class Snap:
    """The position before an action: a structural copy of the state (read only: it shares
    the game's RNG object, which no check reads), the pending decision and the length of the
    action log (for postconditions and scenarios)."""

    state: State
    decision: str | None
    current: int | None  # who owes the decision (None: round over, game over)
    log_len: int

    @staticmethod
    def of(game: Game) -> Snap:
        p = game.pending
        return Snap(game.state.copy(rng=False), None if p is None else p.decision,
                    None if p is None else p.player, len(game.log))

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def direction(self) -> int:
        return self.state.direction

    @property
    def side(self) -> str:
        return self.state.side

    @property
    def hands(self) -> list[list[Card]]:
        return self.state.hands

    @property
    def draw(self) -> list[Card]:  # top last
        return self.state.draw

    @property
    def discard(self) -> list[Card]:  # top last
        return self.state.discard

    @property
    def active_color(self) -> str | None:
        return self.state.active_color

    @property
    def scores(self) -> list[int]:
        return self.state.scores

    @property
    def dealer(self) -> int:
        return self.state.dealer

    @property
    def stack(self) -> int:  # V.STACK.ACCUMULATE: the penalty the turn owner faces
        return self.state.stack

    @property
    def out(self) -> frozenset[int]:  # DESAFIO.ELIMINATE: the eliminated seats
        return frozenset(self.state.eliminated)

    @property
    def seated(self) -> int:
        """The players still in the game (DESAFIO.ELIMINATED-OUT): two of them play under the
        two-player rules (CL.TWO.SCOPE, DESAFIO.HEAD-TO-HEAD)."""
        return self.state.players - len(self.state.eliminated)

    def step(self, seat: int, k: int = 1) -> int:
        """The seat k places from `seat` in the direction of play, the eliminated seats not
        counted (`step_seat`; DESAFIO.ELIMINATED-OUT)."""
        return step_seat(seat, self.direction, k, self.players, self.out)

    def top(self) -> Face | None:
        return face_on(self.discard[-1], self.side) if self.discard else None


# ---- small readings of the rule texts --------------------------------------------------------
def step_seat(seat: int, direction: int, k: int, n: int,
              out: frozenset[int] | set[int] = frozenset()) -> int:
    """The seat k places from `seat` in the direction of play (CL.SEAT.LEFT, CL.PLAY.DIRECTION);
    DESAFIO.ELIMINATED-OUT: the seats in `out` (eliminated) are not counted (k < 0: backwards).
    `out` never holds every seat but one while a hand is played (DESAFIO.WINNER)."""
    if not out:
        return (seat + direction * k) % n
    step = direction if k >= 0 else -direction
    for _ in range(abs(k)):
        seat = (seat + step) % n
        while seat in out:
            seat = (seat + step) % n
    return seat


def face_on(card: Card, side: str) -> Face:
    return card.dark if side == "dark" and card.dark is not None else card.light


def playable(f: Face, active: str | None, top: Face | None) -> bool:
    """CL.PLAY.MATCH (colour, number or symbol), CL.PLAY.WILD-ANYTIME; FL.FLIP.NEW-TOP-WILD:
    with no colour active (a Wild face turned up by a flip) any card may be played."""
    if f.is_wild or f.color == active or active is None:
        return True
    return top is not None and not top.is_wild and f.rank == top.rank


def gain(before: Snap, after: State, seat: int) -> int:
    """How many cards `seat`'s hand grew by."""
    return len(after.hands[seat]) - len(before.hands[seat])


def available(before: Snap, played: bool) -> int:
    """Cards a draw can reach: the draw pile, then the discard pile minus the top
    (CL.RESHUFFLE.KEEP-TOP); after a play the old top is no longer the top."""
    return len(before.draw) + max(len(before.discard) - (0 if played else 1), 0)


def has_catch(legal: list[Any], target: int | None = None) -> bool:
    """Whether a catch (of `target`, or of anyone) is listed (CL.UNO.CATCH-PENALTY)."""
    return any(a.kind == "catch" and (target is None or a.target == target) for a in legal)
