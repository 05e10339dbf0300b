"""What every postcondition shares, the engine's variants' own included (docs/fuzzing.md
"Layout"): a check naming its rule ID, counted in `STATS`; `Snap`, the position before an
action; and the small, independent reading of the rule texts every area needs (seats,
matching, faces, how many cards a hand grew by).

It sits low (it imports only the cards and the state), so that a variant module under
`uno_fsm/rules/` can hold its own postconditions (`Variant.oracle`) without importing the
oracle package, which imports the engine. Nothing here calls the engine's rule helpers: the
oracle is a second, independent reading of the rules, checked against the engine through its
public API.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from uno_fsm.cards import Card, Face
from uno_fsm.state import State

if TYPE_CHECKING:
    from uno_fsm.game import Game


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


# ---- a variant's postconditions ---------------------------------------------------------------
class Oracle:
    """The postconditions and invariants of one variant (`Variant.oracle`), called by the
    shared oracle (`uno_fsm.oracle.postconditions`, `uno_fsm.invariants.check_invariants`) for
    the variants a ruleset plays (`oracle.Facts.oracles`). Each hook has a default that checks
    nothing; `facts` is the ruleset's `oracle.Facts`."""

    def post_draw(self, facts: Any, before: Snap, game: Game) -> bool:
        """After an accepted `draw` of the turn owner: check it; True if this replaces the
        base rules' check (CL.DRAW.UNABLE: one card)."""
        return False

    def post_play(self, facts: Any, before: Snap, action: Any, game: Game,
                  legal: list[Any]) -> None:
        """After an accepted play (in turn or not), besides the base rules' checks."""

    def position(self, facts: Any, game: Game, legal: list[Any]) -> None:
        """Invariants of every position reached (`legal`: its legal actions)."""

    def score_out(self, facts: Any, before: Snap, game: Game, p: int,
                  hand_points: Callable[[list[Card]], int]) -> tuple[bool, str] | None:
        """P`p` went out (`hand_points`: the points of a hand, by the ruleset's faces): check
        the scores if the variant scores the hand its own way, and return (whether the game is
        over, the rule that says so); None: the winner scores the others' cards."""
        return None

    def team(self, seat: int, players: int) -> tuple[set[int], str, str] | None:
        """The seats that score with `seat` when it goes out, with the rules of the score and
        of the target, or None (the player alone: CL.SCORE.WINNER)."""
        return None
