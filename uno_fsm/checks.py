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
from collections import Counter, _count_elements  # type: ignore[attr-defined]  # (tally)
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

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

    @property
    def checked(self) -> Counter[str]:
        """Rule ID -> checks made (a copy: `check` counts in a plain dict, `_CHECKED`, whose
        `+=` costs about a third of a Counter's; it runs some 190,000 times in a model check
        of the release's default configuration)."""
        return Counter(_CHECKED)

    @checked.setter
    def checked(self, value: Mapping[str, int]) -> None:
        _CHECKED.clear()
        _CHECKED.update(value)

    def reset(self) -> None:
        self.steps = self.legal = self.illegal = self.games = 0
        self.checked = Counter()
        self.started = time.monotonic()

    def rate(self) -> float:
        return self.steps / max(time.monotonic() - self.started, 1e-9)


_CHECKED: dict[str, int] = {}  # rule ID -> checks made (`Stats.checked`)
STATS = Stats()


class FuzzFailure(AssertionError):
    """A broken invariant or postcondition; the message ends with a conformance scenario."""


def check(cond: bool, rule_id: str, message: str) -> None:
    """Fail with `[rule_id] message` unless `cond`. `rule_id` is a rule of spec/rules, or
    `ENGINE.*` for a property of the engine's API (JSON, replay, the two dispatch paths)."""
    try:
        _CHECKED[rule_id] += 1
    except KeyError:  # the rule's first check
        _CHECKED[rule_id] = 1
    if not cond:
        raise AssertionError(f"[{rule_id}] {message}")


# ---- the position before an action -----------------------------------------------------------
@dataclass
class Snap:
    """The position before an action: a structural copy of the state (read only: it shares
    the game's RNG object, which no check reads), the pending decision and the length of the
    action log (for postconditions and scenarios). The fields of the state the checks read
    are copied as attributes once (the checks read them after every action)."""

    state: State
    decision: str | None
    current: int | None  # who owes the decision (None: round over, game over)
    log_len: int
    players: int = field(init=False, repr=False, compare=False)
    direction: int = field(init=False, repr=False, compare=False)
    side: str = field(init=False, repr=False, compare=False)
    hands: list[list[Card]] = field(init=False, repr=False, compare=False)
    draw: list[Card] = field(init=False, repr=False, compare=False)  # top last
    discard: list[Card] = field(init=False, repr=False, compare=False)  # top last
    active_color: str | None = field(init=False, repr=False, compare=False)
    scores: list[int] = field(init=False, repr=False, compare=False)
    dealer: int = field(init=False, repr=False, compare=False)
    # V.STACK.ACCUMULATE: the penalty the turn owner faces
    stack: int = field(init=False, repr=False, compare=False)
    # DESAFIO.ELIMINATE: the eliminated seats
    out: frozenset[int] = field(init=False, repr=False, compare=False)
    # the players still in the game (DESAFIO.ELIMINATED-OUT): two of them play under the
    # two-player rules (CL.TWO.SCOPE, DESAFIO.HEAD-TO-HEAD)
    seated: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        s = self.state
        self.players = s.players
        self.direction = s.direction
        self.side = s.side
        self.hands = s.hands
        self.draw = s.draw
        self.discard = s.discard
        self.active_color = s.active_color
        self.scores = s.scores
        self.dealer = s.dealer
        self.stack = s.stack
        self.out = frozenset(s.eliminated)
        self.seated = s.players - len(s.eliminated)

    @staticmethod
    def of(game: Game) -> Snap:
        p = game.pending
        return Snap(game.state.copy(rng=False), None if p is None else p.decision,
                    None if p is None else p.player, len(game.log))

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


def tally(items: Iterable[Any]) -> dict[Any, int]:
    """A multiset as a plain dict, each item in the order of its first place: `dict(Counter(
    items))`, counted by the C helper `Counter` counts with, without `Counter.__init__`'s
    Python code (run in every state of a model check)."""
    out: dict[Any, int] = {}
    _count_elements(out, items)
    return out


def grown(before: list[Card], after: list[Card]) -> list[Card]:
    """The cards `after` holds beyond those of `before` (a multiset difference), each card in
    the order of its first place in `after`: `list((Counter(after) - Counter(before))
    .elements())`, without `Counter.__sub__` (Python code)."""
    had = tally(before)
    out: list[Card] = []
    for c, n in tally(after).items():
        k = n - had.get(c, 0)
        if k > 0:
            out += [c] * k
    return out


def gain(before: Snap, after: State, seat: int) -> int:
    """How many cards `seat`'s hand grew by."""
    return len(after.hands[seat]) - len(before.hands[seat])


def available(before: Snap, played: bool) -> int:
    """Cards a draw can reach: the draw pile, then the discard pile minus the top
    (CL.RESHUFFLE.KEEP-TOP); after a play the old top is no longer the top."""
    under = len(before.discard) - (0 if played else 1)  # (not `max`: a call, run per action)
    return len(before.draw) + (under if under > 0 else 0)


def has_catch(legal: list[Any], target: int | None = None) -> bool:
    """Whether a catch (of `target`, or of anyone) is listed (CL.UNO.CATCH-PENALTY)."""
    for a in legal:  # (a loop: read after every action, cheaper than `any` of a generator)
        if a.kind == "catch" and (target is None or a.target == target):
            return True
    return False


# ---- the swap decision (phase `swap`) -----------------------------------------------------------
def no_catch_after(legal: list[Any], what: str, rule: str) -> None:
    """Nobody can be caught after hands moved (a swap, a rotation: V.SEVENO.UNO)."""
    check(not has_catch(legal), rule, f"a catch is possible after a {what}")


def post_swap(before: Snap, action: Any, game: Game, legal: list[Any], exchanged: str,
              follows: str, uno: str) -> None:
    """The machine's `swap` decision answered (whichever variant's card opened it, with its
    rules): the two hands are exchanged (`exchanged`), the next player plays (`follows`), and
    nobody can be caught (`uno`)."""
    after, pend = game.state, game.pending
    p, t = before.current, action.target
    assert p is not None and t is not None
    check(Counter(after.hands[p]) == Counter(before.hands[t])
          and Counter(after.hands[t]) == Counter(before.hands[p]), exchanged,
          f"P{p} and P{t} did not exchange hands")
    nxt = before.step(p)
    check(pend is not None and pend.player == nxt and pend.decision == "play", follows,
          f"after the swap: pending {pend}, expected P{nxt}")
    no_catch_after(legal, "swap", uno)


# ---- a variant's postconditions ---------------------------------------------------------------
class Oracle:
    """The postconditions and invariants of one variant (`Variant.oracle`), called by the
    shared oracle (`uno_fsm.oracle.postconditions`, `uno_fsm.invariants.check_invariants`) for
    the variants a ruleset plays (`oracle.Facts.oracles`), in the registry's order. Each hook
    has a default that checks nothing and changes nothing; `facts` is the ruleset's
    `oracle.Facts`. A hook returning True (or a value) where the base rules have a check of
    their own replaces it; the first variant to answer decides."""

    # State fields only this variant sets, each with the rule a set one breaks in a game that
    # does not play the variant (checked at every position: uno_fsm.invariants)
    own_state: ClassVar[Mapping[str, str]] = {}

    def deck(self, facts: Any, deck: Counter[str]) -> None:
        """The cards the variant adds to a classic deck (`deck`: by card text), from the rule
        texts (uno_fsm.oracle.deck.expected_deck)."""

    def points(self, facts: Any, face: Face) -> int | None:
        """The points of a face of a card the variant adds, or None (the base rules' table)."""
        return None

    def first_card(self, kind: str) -> str | None:
        """The `first_card` policy key (spec/rulesets) a card kind the variant adds is turned
        first by, or None (the kind's own key)."""
        return None

    def out_of_turn(self, facts: Any, before: Snap, action: Any) -> bool:
        """An accepted play by another seat than the one owing the decision: check it; True if
        the variant lets it be played (else CL.PLAY.OUT-OF-TURN). The base postconditions of a
        play then hold from that seat."""
        return False

    def listed_out_of_turn(self, facts: Any, action: Any, decision: str, owner: int | None,
                           state: State, top: Face | None) -> bool:
        """Invariant: `action` (not a window) is listed for another seat than `owner`, who owes
        `decision`: check it; True if the variant lists such actions (else
        CL.PLAY.OUT-OF-TURN)."""
        return False

    def moves_hands(self, facts: Any, before: Snap, action: Any) -> bool:
        """Whether the play `action` moves cards between hands besides the card played: then
        the base rules check neither that the card left the hand nor the UNO window after it
        (the variant's `post_play` does)."""
        return False

    def post_effect(self, facts: Any, before: Snap, action: Any, game: Game,
                    pend: Any) -> bool:
        """The effect of a card played by the turn owner (`before.current`), not their last:
        check it; True if this replaces the base rules' check of the card's effect."""
        return False

    def penalty(self, facts: Any, before: Snap, outcome: str, k: int,
                rule: str) -> tuple[int, str] | None:
        """The cards a penalty draws and the rule that says so, if the variant changes the base
        amount `k` (`rule`): `outcome` is `accept`, `guilty`, `innocent` (the answer to a Wild
        Draw card), `wrong-card` or `last-card` (going out on a draw card); None: `k`."""
        return None

    def post_action(self, facts: Any, before: Snap, action: Any, game: Game,
                    legal: list[Any]) -> bool:
        """An accepted action of a decision the variant opens (the `swap`): check it; True if
        it was the variant's."""
        return False

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
