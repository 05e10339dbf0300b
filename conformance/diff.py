"""Differential fuzzing: an implementation and the reference engine through the same random games.

`Differ` drives two adapters (the oracle, normally the reference engine, and the implementation
under test) with Hypothesis (docs/differential.md):

1. a start position: one Hypothesis builds from strategies that shrink toward two players, short
   hands and short piles (`start: made`); one from real play (the oracle sets up `start: game`
   with a drawn seed, plays a drawn number of random legal actions and exports its position,
   docs/adapter-protocol.md "Differential fuzzing"); a fresh deal (`start: round`); or
   `start: game` itself, each where the implementation accepts it;
2. both sides get that `setup`; then, step by step, an action drawn from the oracle's
   `legal_actions` (only those inside the implementation's features) or, for a share of the
   steps, an illegal one of a kind whose error code spec/errors.yaml lists (a card not held, a
   card that does not match, out of turn, a decision not asked for, a Wild without a colour or
   with a colour that does not exist, an UNO call or catch outside its window, a catch of a
   player holding one card whom the rules protect, a held card nearly alike the top that the
   position refuses, out of turn a card of the top's number in another colour, an action after
   the hand or the game ended), which both must reject with the same code and without a change;
3. after each step every observation both declare is compared with the corpus' rules
   (conformance.compare). After a step that drew on the oracle's random source (`shuffled`)
   only what the rules fix whatever the shuffle is compared: the keys that can be fixed (counts,
   and during play the top card and the colour in force) and, of those, what the oracle itself
   observes alike when the same steps are replayed with other seeds; then both sides are set
   up from the oracle's position after the shuffle and play goes on, compared whole again.
   After a divergence of a group already found, the implementation alone is set up again from
   the oracle's position and the example goes on (nothing of the divergence carried over). A
   hand over is followed by an action after its end and the next hand (where the
   implementation keeps scores), a game over by one action after its end.

A divergence of a new group raises an exception of a class made for its group, its `Signature`
(conformance.blame: what differs, the decision the position asked for, the rule that governs
it), so that Hypothesis shrinks each group on its own; it is raised when the example ends
(play goes on past it as past a known group, and a later new group is kept). At the end of
the session each group is reduced (conformance.reduce: fewer players, cards, steps) and
confirmed: its scenario, run by the runner, must fail on the implementation with the group's
signature and pass on the reference, on several runs and seeds; a group that does not is
dropped and counted. This module never imports the engine: both sides are adapters.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hypothesis import HealthCheck, Phase, Verbosity, given, reject, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as _strategies
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

from conformance import compare as cmp
from conformance.adapters.isolation import holding_alarm
from conformance.blame import (
    Group,
    Refusal,
    Signature,
    fewer_cards,
    more_cards,
    reference_refusal,
    signature,
    top_taken,
)
from conformance.divergence import (
    BATCH,
    COUNT_KEYS,
    REDUCE_SECONDS,
    SHRINK_SECONDS,
    STARTS,
    Divergence,
    Dropped,
    StepRecord,
    action_features,
    before_step,
    shuffle_keys,
    stateable,
)
from conformance.processes import kill_all
from conformance.protocol import (
    INTERNAL_ERROR,
    AdapterError,
    Unsupported,
    check_hello,
    check_rejection,
)
from uno_spec.signals import Interrupted, interrupts, raise_pending, surfaced

if TYPE_CHECKING:
    from conformance.reduce import Reduction

POSITION_VERSION = 1  # the `position` observation format this module reads
# the oracle's own observations, never compared (`legal_actions` is compared where the
# implementation declares it: `Differ.expected`)
ORACLE_KEYS = ("rules_applied", "events", "shuffled", "position", "turn_position")
REQUIRED_ORACLE_KEYS = ("legal_actions", "rules_applied", "shuffled", "position")
# what a shuffle can leave fixed, at a deal (the setup, a next round: a new first card) ...
SETUP_CODES = ("unresolvable-setup", "wrong-player-count")  # a deal the rules refuse
FIXED_SEEDS = 4  # oracle replays with other seeds that tell what a shuffle leaves fixed
ADVANCE = 4  # actions the oracle may take alone after a divergence, to a position to resync at
# Steps an example plays at most (drawn from 1 to this; a hand or a game that ends in them is
# played a step or two past its end). 100 rather than 30 since 7 December 2026: at the default
# budget of 200 examples the longer examples end hands about 1.5 times as often and find about
# as many groups or more (docs/differential.md "Speed": the measurements); in equal time about
# as many; a step costs less, the set-up and Hypothesis' work per example spread over more steps
MAX_STEPS = 100
# observations judged only when the implementation declares the feature that gives them meaning
# (and those of a variant's feature: `gated`)
GATED = {"scores": "scoring", "game_over": "scoring", "views": "views"}
STARTS_WEIGHT = {"made": 3, "made-round": 2, "turn": 3, "round": 1, "game": 1}
ILLEGAL_KINDS = ("not-held", "no-match", "out-of-turn", "wrong-decision", "no-color",
                 "bad-color", "window", "after-end", "eliminated", "false-catch", "near-play",
                 "near-jump")
# steps, in a position a refusal is rare in, that try it: a catch of a player holding one card
# just protected, a held card nearly alike the top at a last card or on a draw card
PROTECTED_PERCENT = 40
MAX_SEAT = 9  # the highest seat a scenario can state (spec/schema/scenario.schema.json)
COLOURS = "RGBY"  # the colour letters of a card's name (R5, GD2, ...)
POSITION_CACHE = 512  # start positions remembered (shrinking replays the same ones)
# Examples rejected in a row (a start position that cannot be made, or that the oracle refuses)
# after which a run of Hypothesis that has played examples is ended (`Stats.stalled`): its
# targeting phase, hill-climbing from an example whose start a change of one choice turns into
# one that cannot be made, would otherwise draw such examples until Hypothesis' limit of
# invalid ones (458 + 100 per valid example), about 3 ms each (seconds per run)
STALLED = 20
START_SECONDS = 10.0  # at least this long for an adapter's `hello` (a program starting)
PROGRESS_EVERY = 0.25  # seconds between two progress callbacks
MADE_HAND = 7  # the longest hand of a made position
MADE_PILE = 12  # the longest draw pile of a made position
CARD_BYTES = 2  # one card's pick in a made position (modulo what is left of the deck)


class _Strategies:
    """`hypothesis.strategies`, with `integers`, `binary`, `booleans` and `sampled_from` made
    once for their arguments (a list taken as a tuple: the same strategy, the same label):
    an example's plan makes about twenty, 3 to 5 microseconds each in Hypothesis (its own
    cache of them included), a twentieth of the fuzzing in process (docs/differential.md,
    "Speed")."""

    CACHED = ("integers", "binary", "booleans", "sampled_from")

    def __init__(self) -> None:
        self._made: dict[tuple[Any, ...], Any] = {}

    def __getattr__(self, name: str) -> Any:
        make = getattr(_strategies, name)
        if name not in self.CACHED:
            return make

        def made(*args: Any, **kwargs: Any) -> Any:
            args = tuple(tuple(a) if isinstance(a, list) else a for a in args)
            key = (name, args, tuple(kwargs.items()))
            got = self._made.get(key)
            if got is None:
                got = self._made[key] = make(*args, **kwargs)
            return got

        setattr(self, name, made)  # found without `__getattr__` from now on
        return made


st = _Strategies()


def gated() -> dict[str, str]:
    """Observation -> the feature that gives it meaning: `GATED`, and the observations a
    variant's feature declares (spec/rulesets, `feature.observations`)."""
    from conformance import specdata

    return {**GATED, **{obs: f.feature for f in specdata.variant_features().values()
                        for obs in f.observations}}


class DiffError(Exception):
    """The fuzzer cannot run (bad options, an oracle without the needed capabilities, an
    oracle that failed): one line for the user, exit status 2."""


STEP_BYTES = 3  # one step's choice: an integer below 2**24 (Differ._play reads it)


@dataclass(frozen=True)
class Plan:
    """One example, drawn before it is played (`Differ._plan`)."""

    ruleset: str
    players: int
    start: str  # a key of STARTS_WEIGHT
    seed: int
    made: dict[str, Any] | None  # the set-up of a made start
    prefix: int  # `turn`: random actions the oracle plays from its deal
    drawing: bool  # ... drawing or keeping whenever it may
    choices: tuple[int, ...]  # one per step
    out: int = -1  # `turn`: the player to play then left one card (`_one_left`); -1: not


class DivergenceFound(Exception):  # noqa: N818 - what it reports
    """Raised inside the Hypothesis test; one subclass per group (see `_group_class`)."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(f"{divergence.signature.describe()}: {divergence.message}")
        self.divergence = divergence


class _OracleFailed(Exception):
    pass


class _Stalled(KeyboardInterrupt):
    """Ends a run of Hypothesis whose examples keep being rejected (`Differ._reject`). A
    KeyboardInterrupt, because that is the one exception Hypothesis passes on as "stop now":
    neither a failure to shrink nor an example to save in the database (any other
    BaseException's example is saved there as if it had failed, and would be replayed before
    anything else by every later run with that database). `_run_batch` catches it first."""


@dataclass
class Stats:
    examples: int = 0
    steps: int = 0
    illegal: int = 0
    unsupported: int = 0  # examples stopped by an action or setup the implementation lacks
    out_of_scope: int = 0  # divergences needing a feature the implementation does not declare
    shuffles: int = 0  # steps (and set-ups) that shuffled: compared on what it leaves fixed
    resyncs: int = 0  # the implementation set up again after a divergence of a known group
    resumed: int = 0  # both sides set up again after a shuffle (the example goes on)
    advanced: int = 0  # resyncs after the oracle alone went on to a position a set-up states
    stalled: int = 0  # runs of Hypothesis ended after STALLED examples in a row were rejected
    started: float = field(default_factory=time.monotonic)

    def rate(self) -> float:
        return self.steps / max(time.monotonic() - self.started, 1e-9)


@dataclass
class DiffReport:
    implementation: dict[str, Any]
    adapter: str
    rulesets: list[str]
    starts: list[str]
    compared: list[str]
    stats: Stats
    duration: float
    groups: list[tuple[Divergence, int]]  # reduced and confirmed example, count; by discovery
    first_found: dict[Group, float]  # seconds since the start
    warnings: list[str]
    dropped: list[Dropped] = field(default_factory=list)
    coverage: dict[str, int] = field(default_factory=dict)  # rule -> steps that applied it
    rules_in_scope: list[str] = field(default_factory=list)  # the fuzzed rulesets' rules
    players: tuple[int, int] = (2, 10)
    fuzz_seconds: float = 0.0  # generating and shrinking, without reduction and confirmation
    reductions: dict[Group, Reduction] = field(default_factory=dict)  # how each group's ended
    interrupted: str | None = None  # "SIGINT" / "SIGTERM" / "SIGHUP": stopped by a signal
    interrupted_during: str = ""  # fuzzing, shrinking, reduction or confirmation
    # groups found but neither confirmed nor dropped when the signal came (found example)
    unconfirmed: list[tuple[Divergence, int]] = field(default_factory=list)
    # group -> how its divergences showed: (decision, rule) -> count
    shown: dict[Group, Counter[tuple[str, str]]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.groups and not self.unconfirmed and self.interrupted is None


def _near(card: str, top: str) -> bool:
    """A coloured card that matches the top card by its colour or its number or symbol."""
    return len(card) > 1 and len(top) > 1 and card[0] in COLOURS and top[0] in COLOURS and \
        (card[0] == top[0] or card[1:] == top[1:])


def _catchable(obs: Mapping[str, Any]) -> set[int]:
    """The players the oracle lists a catch of."""
    return {int(a["catch"]) for a in obs.get("legal_actions") or [] if "catch" in a}


def _freshly_protected(before: Mapping[str, Any], now: Mapping[str, Any]) -> set[int]:
    """The players holding one card whom the last action protected from a catch: catchable
    before it (CL.UNO.WINDOW, CL.UNO.LATE-CATCH: the window closed; CL.UNO.CALL-LATE: the late
    call) or holding more cards (CL.UNO.CALL-WITH-PLAY: the call made with the play), and
    not catchable now."""
    if not before:
        return set()
    one = {int(s) for s, n in cmp.hand_sizes(now.get("hands") or {}).items() if n == 1}
    held = {int(s): n for s, n in cmp.hand_sizes(before.get("hands") or {}).items()}
    was = _catchable(before)
    return {t for t in one - _catchable(now) if t in was or held.get(t, 1) > 1}


def _rare_refusal(obs: Mapping[str, Any]) -> bool:
    """A position where a variant may refuse a held card nearly alike the top: the player to
    play holds one card, or the top is a draw card."""
    cur = (obs.get("pending") or {}).get("player")
    if cur is None:
        return False
    top = str(obs.get("top") or "")
    own = cmp.hand_sizes(obs.get("hands") or {}).get(str(cur), 0)
    return own == 1 or top.startswith("W4") or top[1:].startswith("D")


def _one_left(pos: dict[str, Any], legal: Sequence[dict[str, Any]], pick: int
              ) -> dict[str, Any]:
    """The `start: turn` position `pos` with its player to play left one card that they may
    play (`legal`: the oracle's actions there; an even `pick` prefers a Flip card), the rest
    of their hand put under the draw pile: every card is still in the game. `pos` as it is
    when they may play none."""
    cur = str(pos.get("current"))
    plays = sorted({str(a["play"]) for a in legal if "play" in a and str(a.get("player")) == cur})
    flips = [c for c in plays if cmp._face_of(c, str(pos.get("side")))[1:] == "F"]
    among = flips if flips and pick % 2 == 0 else plays
    if not among:
        return pos
    card = among[(pick // 2) % len(among)]
    hand = list(pos["hands"][cur])
    hand.remove(card)
    return {**pos, "hands": {**pos["hands"], cur: [card]}, "draw": [*pos["draw"], *hand]}


def _norm(act: dict[str, Any]) -> tuple[tuple[str, Any, type], ...]:
    """An action as a hashable value, equal for equal actions (a colour in any case; `true`
    is not `1`)."""
    return tuple(sorted((k, v.lower() if k == "color" and isinstance(v, str) else v, type(v))
                        for k, v in act.items()))


def _copied(value: Any) -> Any:
    """A copy of plain data (its dicts and lists copied, all the way down)."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


def player_range(caps: dict[str, Any]) -> tuple[int, int]:
    """The player counts an adapter declares in its `hello` (`players: {min, max}`,
    uno-conformance/2); 2 to 10 when it declares none (uno-conformance/1)."""
    p = caps.get("players")
    if isinstance(p, dict):
        return int(p.get("min", 2)), int(p.get("max", 10))
    return 2, 10


class Side:
    """One adapter, (re)made by `factory`, greeted once per start; every failure is an
    `AdapterError` and throws the adapter away (the next call makes a fresh one), but for a
    program's `internal-error` (`_keeps`)."""

    def __init__(self, factory: Callable[[], Any], timeout: float) -> None:
        self.factory = factory
        self.timeout = timeout
        self.adapter: Any = None
        self.caps: dict[str, Any] = {}
        self._sent: tuple[list[tuple[str, dict[str, Any]]], int] | None = None

    def _arm(self) -> Any:
        if self.adapter is None:
            adapter = self.factory()
            self.adapter = adapter
            try:
                self._deadline(max(self.timeout, START_SECONDS))  # a program takes its time
                self.caps = check_hello(adapter.hello())
            except Exception:
                self.discard()
                raise
        self._deadline()
        return self.adapter

    def _deadline(self, seconds: float | None = None) -> None:
        if hasattr(self.adapter, "set_deadline"):
            self.adapter.set_deadline(time.monotonic() + (seconds or self.timeout))

    def hello(self) -> dict[str, Any]:
        return self._guard(lambda: self.caps)

    def _guard(self, fn: Callable[[], Any]) -> Any:
        try:
            self._arm()
            return fn()
        except Unsupported:
            raise
        except AdapterError as exc:
            if not self._keeps(exc):
                self.discard()
            raise
        except Exception as exc:  # noqa: BLE001 - an in-process adapter raised: a crash
            self.discard()
            raise AdapterError("crashed", f"adapter raised {type(exc).__name__}: {exc}") \
                from None

    def _keeps(self, exc: AdapterError) -> bool:
        """Whether a program survives its failure: one that answered `internal-error` (the
        implementation raised; the program runs and answers in order) is kept, the answers
        still due to it read and dropped, and the example's end that a crash causes makes the
        next call a `setup`, which starts afresh. Restarting it cost more than anything else
        against RLCard over stdio (its start, imports included: 0.3 to 0.7 s, for each of its
        crashes). Anything else (an exit, a hang, a broken answer) throws the program away."""
        adapter = self.adapter
        if type(exc) is not AdapterError or exc.code != INTERNAL_ERROR \
                or not callable(getattr(adapter, "drain", None)):
            return False
        self._sent = None
        try:
            adapter.drain()
        except Exception:  # noqa: BLE001 - it broke while answering: thrown away
            return False
        return True

    def setup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        """None: set up; a rule error object: the set-up refused (`wrong-player-count`...)."""
        return self._guard(  # type: ignore[no-any-return]
            lambda: check_rejection(self.adapter.setup(params), "setup"))

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        return self._guard(lambda: check_rejection(self.adapter.act(action)))  # type: ignore[no-any-return]

    def observe(self, keys: Sequence[str]) -> dict[str, Any]:
        def go() -> dict[str, Any]:
            obs = self.adapter.observe(list(keys))
            if not isinstance(obs, dict):
                raise AdapterError("protocol-error", "observe must return an object")
            return obs

        return self._guard(go)  # type: ignore[no-any-return]

    def _piped(self) -> bool:
        return self.caps.get("pipelining") is True and hasattr(self.adapter, "pipeline")

    def pipelines(self) -> bool:
        """Whether `send` sends now (a program that pipelines, started)."""
        return self.adapter is not None and self._piped()

    def send(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        """To a program that pipelines: send these requests now, so that it works on them
        while the caller does something else (the oracle's own step); the `act_observe` or
        `setup_observe` called next with the same requests takes their answers (those sent
        already, after a set-up: nothing more sent). Nothing for any other adapter (a failure
        to write: the call that follows reports it)."""
        if not self.pipelines() or (self._sent is not None and self._sent[0] == calls):
            return
        try:
            self._deadline()
            if self._sent is not None:  # sent for a step that did not happen: dropped first
                self._sent = None
                self.adapter.drain()
            self._sent = (calls, self.adapter.pipeline(calls))
        except Exception:  # noqa: BLE001 - the call that follows sends again, and reports it
            self._sent = None

    def _pipeline(self, calls: list[tuple[str, dict[str, Any]]]) -> int:
        """The id of the last of `calls`, sent now unless `send` sent them already (or sent
        them first of more: the rest stays sent, for the call that takes it)."""
        sent, self._sent = self._sent, None
        if sent is not None and sent[0][:len(calls)] == calls:
            rest = sent[0][len(calls):]
            if rest:
                self._sent = (rest, sent[1])
            return sent[1] - len(rest)  # ids are consecutive within one write
        if sent is not None:  # sent for a step that did not happen: its answers dropped first
            self.adapter.drain()
        return self.adapter.pipeline(calls)  # type: ignore[no-any-return]

    def act_observe(self, action: dict[str, Any], keys: Sequence[str]
                    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """`act` then `observe`: in one write to a program that pipelines, in one call to an
        in-process adapter that has `act_observe` (docs/adapter-protocol.md, "In process")."""
        def go() -> tuple[dict[str, Any] | None, dict[str, Any]]:
            adapter = self.adapter
            if hasattr(adapter, "act_observe"):
                rejection, obs = adapter.act_observe(action, list(keys))
                if not isinstance(obs, dict):
                    raise AdapterError("protocol-error", "observe must return an object")
                return check_rejection(rejection), obs
            piped = self._piped()
            if piped:
                self._pipeline(act_observe_calls(action, keys))
            try:
                rejection = check_rejection(adapter.act(action))
            except Unsupported:
                if piped:
                    adapter.drain()
                raise
            obs = adapter.observe(list(keys))
            if not isinstance(obs, dict):
                raise AdapterError("protocol-error", "observe must return an object")
            return rejection, obs

        return self._guard(go)  # type: ignore[no-any-return]

    def setup_observe(self, params: dict[str, Any], keys: Sequence[str]
                      ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """`setup` then, if it is accepted, `observe`: in one write to a program that
        pipelines (the observation's answer dropped after a refusal)."""
        def go() -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
            adapter = self.adapter
            piped = self._piped()
            last = self._pipeline(setup_observe_calls(params, keys)) if piped else 0

            def drop() -> None:  # the observation sent after a set-up that did not happen
                try:
                    adapter.drain(last)
                except AdapterError:  # whatever it answered, the set-up's answer stands
                    self.discard()

            try:
                refusal = check_rejection(adapter.setup(params), "setup")
            except Unsupported:
                if piped:
                    drop()
                raise
            if refusal is not None:
                if piped:
                    drop()
                return refusal, None
            obs = adapter.observe(list(keys))
            if not isinstance(obs, dict):
                raise AdapterError("protocol-error", "observe must return an object")
            return None, obs

        return self._guard(go)  # type: ignore[no-any-return]

    def discard(self) -> None:
        self._sent = None
        adapter, self.adapter = self.adapter, None
        if adapter is not None:
            try:
                adapter.close()
            except Exception:  # noqa: BLE001 - a broken adapter must not stop the run
                pass


def act_observe_calls(action: dict[str, Any], keys: Sequence[str]
                      ) -> list[tuple[str, dict[str, Any]]]:
    return [("act", {"action": action}), ("observe", {"keys": list(keys)})]


def setup_observe_calls(params: dict[str, Any], keys: Sequence[str]
                        ) -> list[tuple[str, dict[str, Any]]]:
    return [("setup", params), ("observe", {"keys": list(keys)})]


def _supported(ruleset: str, declared: Sequence[str]) -> bool:
    return ruleset in declared or all(part in declared for part in ruleset.split("+"))


def _card_order(card: str) -> tuple[int, str]:
    """Numbers first, then action cards, then Wilds: what a made position shrinks toward."""
    if card.startswith("W"):
        return (2, card)
    return (0 if card[1:].isdigit() else 1, card[1:] + card[0])


@functools.cache
def _copies(ruleset: str) -> dict[str, int]:
    from conformance import specdata

    return dict(specdata.deck(ruleset).light)


@functools.cache
def _made_deck(ruleset: str) -> tuple[str, ...]:
    from conformance import specdata

    try:
        deck = specdata.deck(ruleset)
    except Exception:  # noqa: BLE001 - an unknown ruleset: no made positions
        return ()
    if deck.game != "classic":
        return ()
    return tuple(sorted(deck.light, key=_card_order))


@functools.cache
def _first_tops(ruleset: str) -> tuple[str, ...]:
    """The cards of a classic deck that may lie on top once a hand is dealt: every card but
    those the ruleset returns to the pile when turned first (`first_card`: a `return-...`
    policy; classic-official's Wild Draw Four, CL.FIRST.WD4). () for other decks."""
    from conformance import specdata
    from uno_spec.notation import kinds

    first = (specdata.ruleset_params(ruleset) or {}).get("first_card") or {}
    by_rank = {k.rank: k.kind for k in kinds()}
    returned = {kind for kind, policy in first.items() if str(policy).startswith("return")}

    def kind(card: str) -> str:
        symbol = card if card.startswith("W") else card[1:]
        return "number" if symbol.isdigit() else by_rank.get(symbol, symbol)

    deck = _made_deck(ruleset)
    return tuple(c for c in deck if kind(c) not in returned) if returned else ()


class Differ:
    """The oracle and the implementation under test, and the Hypothesis test that plays them."""

    def __init__(self, oracle: Callable[[], Any], implementation: Callable[[], Any], *,
                 adapter_name: str = "", rulesets: Sequence[str] = (),
                 players: tuple[int, int] = (2, 8), timeout: float = 10.0,
                 max_steps: int = MAX_STEPS, max_prefix: int = 150, illegal_percent: int = 20,
                 shrink_seconds: float = SHRINK_SECONDS, reduce_seconds: float = REDUCE_SECONDS,
                 confirm_runs: int = 3, starts: Sequence[str] = (),
                 on_progress: Callable[[Differ], None] | None = None) -> None:
        self.oracle = Side(oracle, timeout)
        self.impl = Side(implementation, timeout)
        self.adapter_name = adapter_name
        self.timeout = timeout
        self.players = players
        self.max_steps = max_steps
        self.max_prefix = max_prefix
        self.illegal_percent = illegal_percent
        self.shrink_seconds = shrink_seconds
        self.reduce_seconds = reduce_seconds
        self.confirm_runs = confirm_runs  # 0: report groups as found, unconfirmed (benchmarks)
        self._positions: dict[tuple[Any, ...], dict[str, Any] | None] = {}
        self._fixed_seen: dict[str, dict[str, Any]] = {}  # `_fixed`'s answers, by value
        # `_all_allowed`'s answers: id of a listing's normal form -> (it, ruleset, answer)
        self._allowed_seen: dict[int, tuple[dict[str, Any], str, bool]] = {}
        self._raised: dict[Group, Divergence] = {}  # this batch's
        self._new: dict[Group, Divergence] = {}  # this example's new groups (`_raise_new`)
        # new groups found after another in their example: still new (the next example that
        # meets one first raises it, and Hypothesis shrinks it); kept as found at the end
        self._unraised: dict[Group, Divergence] = {}
        self._shrink_end: float | None = None
        self.on_progress = on_progress
        self.stats = Stats()
        self.warnings: list[str] = []
        self.found: dict[Group, Divergence] = {}  # one deviation each (blame.Group)
        self.counts: Counter[Group] = Counter()
        self.shown: defaultdict[Group, Counter[tuple[str, str]]] = defaultdict(Counter)
        # a later example of a group smaller than the one found (and shrunk), not shrunk
        self.smallest: dict[Group, Divergence] = {}
        self._sizes: dict[Group, tuple[Divergence, tuple[int, int, int, int]]] = {}
        self.first_found: dict[Group, float] = {}
        self.coverage: Counter[str] = Counter()
        self._classes: dict[Group, type[DivergenceFound]] = {}
        self._counting = True
        self._rejected = 0  # examples rejected in a row (`_reject`)
        self._played = False  # an example of this run of Hypothesis played
        self._fuzzed = 0  # examples played while fuzzing (not shrinking's replays): `run`'s budget
        self._last_progress = 0.0
        self._t0 = time.monotonic()
        self._hit: dict[Group, float] = {}  # first hit, before shrinking
        self._last: tuple[dict[str, Any], dict[str, Any]] = ({}, {})
        self._at: dict[str, Any] = {}  # the oracle's observations after its last set-up or act
        self._before: dict[str, Any] = {}  # the oracle's observations at the last step chosen
        self._resume_at: dict[str, Any] | None = None  # its position after a shuffle
        self._example_rules: set[str] = set()
        # a hand won short of the target: its set-up with the score raised, its steps
        self._to_target: tuple[dict[str, Any], list[dict[str, Any]]] | None = None
        try:
            self._greet(rulesets)
            self._only(starts)
        except BaseException:
            self.close()
            raise

    def _greet(self, rulesets: Sequence[str]) -> None:
        """Both hellos; what to fuzz and compare, within the implementation's capabilities."""
        from conformance import specdata

        try:
            ocaps = self.oracle.hello()
        except (AdapterError, Unsupported) as exc:
            raise DiffError(f"the oracle failed to start: {exc}") from None
        missing = [k for k in REQUIRED_ORACLE_KEYS if k not in ocaps["observations"]]
        if missing:
            raise DiffError(f"the oracle {ocaps.get('name')!r} does not declare the "
                            f"observation(s) {', '.join(missing)} (docs/adapter-protocol.md)")
        try:
            icaps = self.impl.hello()
        except (AdapterError, Unsupported) as exc:
            raise DiffError(f"the implementation failed to start: {exc}") from None
        self.features = set(icaps["features"])
        if rulesets:
            for r in rulesets:
                for who, caps in (("implementation", icaps), ("oracle", ocaps)):
                    if not _supported(r, caps["rulesets"]):
                        raise DiffError(f"ruleset {r!r}: the {who} does not declare it")
            self.rulesets = list(rulesets)
        else:
            common = [r for r in icaps["rulesets"] if _supported(r, ocaps["rulesets"])]
            if not common:
                raise DiffError("the implementation declares no ruleset the oracle plays")
            self.rulesets = ["classic-official"] if "classic-official" in common else common[:1]
        lo, hi = self.players
        ilo, ihi = player_range(icaps)
        olo, ohi = player_range(ocaps)
        lo, hi = max(lo, ilo, olo), min(hi, ihi, ohi)
        if lo > hi:
            raise DiffError(f"no player count in {self.players[0]}..{self.players[1]} that "
                            f"both declare (the implementation plays {ilo}..{ihi})")
        self.players = (lo, hi)
        both = set(ocaps["observations"]) & set(icaps["observations"])
        self.compared = sorted(k for k in both - set(ORACLE_KEYS)
                               if gated().get(k, "basic-play") in self.features | {"basic-play"})
        self.oracle_keys = sorted(set(self.compared) | {"legal_actions", "rules_applied",
                                                        "shuffled", "hands", "pending",
                                                        "active_color", "round_over",
                                                        "game_over"}
                                  | ({"events"} if "events" in ocaps["observations"]
                                     else set()))
        self.has_events = "events" in ocaps["observations"]
        # `position`'s `turn` alone, where the oracle answers it (no deal computed)
        self.turn_key = "turn_position" if "turn_position" in ocaps["observations"] else None
        self.starts = ["turn"] + [s for s in ("round", "game") if self._accepts(s)]
        if any(self._made_deck(r) for r in self.rulesets):
            self.starts.insert(0, "made")
            if "round" in self.starts:
                self.starts.insert(1, "made-round")
        rules = specdata.rules()
        bases = {r.split("+")[0] for r in self.rulesets}
        self.rules_in_scope = sorted(r for r, t in rules.items() if bases & set(t.rulesets))
        self.stats = Stats()

    def _only(self, starts: Sequence[str]) -> None:
        """Fuzz only these starts (each one the implementation takes)."""
        for start in starts:
            if start not in STARTS_WEIGHT:
                raise DiffError(f"unknown start {start!r} (one of {', '.join(STARTS)})")
            if start not in self.starts:
                raise DiffError(f"start {start!r}: not fuzzed against this implementation "
                                f"(it takes {', '.join(self.starts)})")
        if starts:
            self.starts = [s for s in self.starts if s in starts]

    def close(self) -> None:
        """Stop both adapters (`run` does it at its end)."""
        self.oracle.discard()
        self.impl.discard()

    # --- capabilities ----------------------------------------------------------------------

    @property
    def implementation(self) -> dict[str, Any]:
        keys = ("name", "version", "protocol", "rulesets", "features", "observations",
                "players")
        return {k: self.impl.caps[k] for k in keys if k in self.impl.caps}

    def _accepts(self, start: str) -> bool:
        """Whether the implementation sets up `start: round` / `start: game` positions."""
        ruleset = self.rulesets[0]
        try:  # the first player count the oracle deals for (`players.even`: an even one)
            setup = next((pos for n in range(self.players[0], self.players[1] + 1)
                          if (pos := self._position(ruleset, n, start, 0, 0)) is not None),
                         None)
        except _OracleFailed as exc:
            raise DiffError(str(exc)) from None
        if setup is None:
            return False
        try:
            if self.impl.setup({"ruleset": ruleset, "setup": setup, "seed": 0}) is not None:
                return False  # refused: judged in the examples of the starts it does take
        except Unsupported:
            return False
        except AdapterError as exc:
            self.warnings.append(f"start: {start} not fuzzed: the implementation failed to set "
                                 f"it up ({exc})")
            return False
        return True

    def allowed(self, act: dict[str, Any], ruleset: str) -> bool:
        return action_features(act, ruleset) <= self.features

    # --- the oracle ------------------------------------------------------------------------

    def _o(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except (AdapterError, Unsupported) as exc:
            raise _OracleFailed(f"the oracle failed: {exc}") from None

    def _position(self, ruleset: str, players: int, start: str, seed: int,
                  prefix: int, drawing: bool = False, out: int = -1) -> dict[str, Any] | None:
        """A start position: the oracle's own deal and `prefix` random actions of play
        (`drawing`: a draw or a keep whenever one is listed; `out` >= 0: the player to play
        then left one card, `_one_left`)."""
        try:
            if self.oracle.setup({"ruleset": ruleset, "seed": seed,
                                  "setup": {"players": players, "start": "game"}}) is not None:
                return None  # refused by the rules, e.g. a player count the ruleset forbids
        except AdapterError:
            return None  # e.g. a player count the ruleset does not allow
        except Unsupported:
            return None
        if start == "game" and seed % 2 and self._made_deck(ruleset):
            # half the time the whole deck in an order of the oracle's (classic decks): the
            # dealer it decides is fixed, so the hands dealt are judged (CL.DEAL.SEVEN)
            deal = self._exported()["deal"]
            return {"players": players, "start": "game",
                    "draw": [*deal["draw"], *(c for h in deal["hands"].values() for c in h)]}
        if start == "game":
            return {"players": players, "start": "game"}
        rng = random.Random(seed)
        if start == "round":
            return self._exported()["deal"]  # type: ignore[no-any-return]
        keys = ["legal_actions"]
        obs = self._o(self.oracle.observe, keys)
        for i in range(prefix + 20):
            if i >= prefix:
                pos = self._turn()
                if pos is not None:
                    return pos if out < 0 else _one_left(pos, obs["legal_actions"], out)
            legal = [a for a in obs["legal_actions"] if not a.get("next_round")]
            if not legal:
                return None
            keep = [a for a in legal if a.get("draw") or a.get("pass")] if drawing else []
            chosen = rng.choice(keep or legal)
            obs = self._o(self.oracle.act_observe, chosen, keys)[1]
        return None

    def _turn(self) -> dict[str, Any] | None:
        """The oracle's position as a `start: turn` set-up (None: it cannot be one)."""
        if self.turn_key is None:
            return self._exported()["turn"]  # type: ignore[no-any-return]
        return self._o(self.oracle.observe, [self.turn_key])[self.turn_key]  # type: ignore[no-any-return]

    def _exported(self) -> dict[str, Any]:
        pos = self._o(self.oracle.observe, ["position"])["position"]
        if not isinstance(pos, dict) or pos.get("version") != POSITION_VERSION:
            raise _OracleFailed(f"the oracle's position has version {pos.get('version')!r}; "
                                f"this fuzzer reads version {POSITION_VERSION}")
        return pos

    @staticmethod
    def _made_deck(ruleset: str) -> tuple[str, ...]:
        """The card kinds a made position draws from (classic decks only; Flip's double-faced
        cards come from play), simplest first."""
        return _made_deck(ruleset)

    def _made(self, draw: Callable[..., Any], ruleset: str, players: int, deal: bool = False
              ) -> dict[str, Any]:
        """A `start: turn` position built by strategies that shrink toward short hands and
        piles of number cards; `deal`: a `start: round` one, the first card turned from the
        pile's top. Each card is drawn from what is left of the deck, ordered simplest first
        (a position never holds more copies of a card than the deck)."""
        from conformance.specdata import ruleset_params

        left = [c for c in self._made_deck(ruleset) for _ in range(_copies(ruleset)[c])]

        def take(cards: list[str] | None = None, pick: int | None = None) -> str:
            among = left if cards is None else cards
            card = among[draw(st.integers(0, len(among) - 1)) if pick is None
                         else pick % len(among)]
            left.remove(card)
            return card

        def some(least: int, most: int) -> list[str]:
            # the cards' picks in one draw (one draw per card cost more than playing the
            # example): CARD_BYTES bytes each, shrinking toward 0, the simplest card left
            n = draw(st.integers(least, most)) * CARD_BYTES
            raw = draw(st.binary(min_size=n, max_size=n))
            return [take(pick=int.from_bytes(raw[i:i + CARD_BYTES], "big"))
                    for i in range(0, n, CARD_BYTES)]

        hands = {str(s): some(1, MADE_HAND) for s in range(players)}
        top = take() if not deal else ""
        below = some(0, 2) if not deal else []
        # a deal's pile holds the first card and what its effect draws (a Draw Two's two);
        # where scores are kept, half the time every card left (simplest first, cut at a drawn
        # place): a hand won there deals the next one (a few cards cannot: unresolvable-setup)
        pile: list[str] = []
        if not deal and "scoring" in self.features and draw(st.booleans()):
            cut = draw(st.integers(0, len(left) - 1))
            pile, left[:] = left[cut:] + left[:cut], []
        elif not deal:
            pile = some(1, MADE_PILE)
        if deal:  # the first card turned: a number, an action card or a Wild, a third each
            tier = draw(st.integers(0, 2))
            pile = [take([c for c in left if _card_order(c)[0] == tier] or None),
                    *some(2, MADE_PILE - 1)]
        if deal:
            return {"players": players, "dealer": draw(st.integers(0, players - 1)),
                    "start": "round", "hands": hands, "draw": pile}
        colors = ("red", "yellow", "green", "blue")
        letters = {c[0].upper(): c for c in colors}
        active = draw(st.sampled_from(colors)) if top.startswith("W") \
            else letters[top[0]]
        current = draw(st.integers(0, players - 1))
        setup: dict[str, Any] = {
            "players": players, "dealer": (current - 1) % players, "start": "turn",
            "current": current,
            "direction": draw(st.sampled_from(("clockwise", "counterclockwise"))),
            "hands": hands, "discard": [*below, top], "active_color": active, "draw": pile}
        target_ = (ruleset_params(ruleset).get("scoring") or {}).get("target")
        if "scoring" in self.features and target_ and draw(st.booleans()):
            setup["scores"] = {str(s): draw(st.integers(0, int(target_) - 1))
                               for s in range(players)}
        return setup

    # --- one example -------------------------------------------------------------------------

    def _plan(self, draw: Callable[..., Any]) -> Plan:
        """One example drawn whole before it is played: the ruleset, the player count, the
        start (a made position drawn here), the seed and the choice of every step (each an
        integer read against the oracle's legal actions when the step is played: it shrinks
        toward 0, the first legal action)."""
        ruleset = draw(st.sampled_from(self.rulesets))
        lo, hi = self.players
        players = draw(st.integers(lo, hi))
        starts = [s for s in self.starts
                  if not s.startswith("made") or self._made_deck(ruleset)]
        start = draw(st.sampled_from([s for s in STARTS for _ in range(STARTS_WEIGHT[s])
                                      if s in starts]))
        seed = draw(st.integers(0, 2**16 - 1))
        made: dict[str, Any] | None = None
        prefix, drawing, out = 0, False, -1
        if start.startswith("made"):
            made = self._made(draw, ruleset, players, deal=start == "made-round")
        elif start == "turn":
            prefix = draw(st.integers(0, self.max_prefix))
            # a prefix that draws whenever it may runs the draw pile down: reshuffles get played
            drawing = draw(st.booleans()) if prefix else False
            if ruleset.split("+")[0] == "flip" and "scoring" in self.features and \
                    draw(st.booleans()):
                # Flip, where hands are scored: half the time the player to play is left one
                # card, so that hands end (on either side, on a Flip card: FL.END.GO-OUT-FLIP,
                # FL.SCORE.SIDE), which random play from a deal seldom reaches
                out = draw(st.integers(0, 2**8 - 1))
        # every step's choice in one draw (one Hypothesis draw per step cost more than the
        # step): STEP_BYTES bytes each, shrinking toward fewer steps and toward 0 each
        steps = draw(st.integers(1, self.max_steps)) * STEP_BYTES
        raw = draw(st.binary(min_size=steps, max_size=steps))
        choices = tuple(int.from_bytes(raw[i:i + STEP_BYTES], "big")
                        for i in range(0, steps, STEP_BYTES))
        return Plan(ruleset, players, start, seed, made, prefix, drawing, choices, out)

    def example(self, plan: Plan) -> None:
        raise_pending()  # a signal whose exception vanished (uno_spec.signals): acted on here
        if self._shrink_end is not None and time.monotonic() > self._shrink_end:
            reject()  # the shrinking budget is spent: the best example so far stands
        if plan.start.startswith("made"):
            setup = plan.made
        else:
            where = (plan.ruleset, plan.players, plan.start, plan.seed, plan.prefix,
                     plan.drawing, plan.out)
            if where not in self._positions:
                if len(self._positions) >= POSITION_CACHE:
                    self._positions.clear()
                self._positions[where] = self._position(*where)
            setup = self._positions[where]
        if setup is None:
            self._reject()
            return
        self.stats.examples += 1
        self._example_rules = set()
        self._to_target = None
        # no step chosen yet: the example plays the same whatever example came before it
        # (Hypothesis replays and shrinks it alone; a stale position here once turned a first
        # step into a false catch, so that a saved divergence did not replay)
        self._before = {}
        self._new = {}
        try:
            self._play(plan.choices, plan.ruleset, plan.players, plan.seed, setup)
            if self._to_target is not None:
                self._on_target(plan.ruleset, plan.seed, *self._to_target)
            self._raise_new()
        finally:
            # summed in a fixed order: a set's order follows the string hash, randomised per
            # process, and a float sum's last bit with it (Hypothesis compares the scores)
            novelty = sum(1.0 / (1 + self.coverage[r]) for r in sorted(self._example_rules))
            self.coverage.update(self._example_rules)
            target(novelty, label="rules rarely exercised")

    def _reject(self) -> None:
        """Reject the example (Hypothesis draws another); after STALLED in a row, in a run of
        Hypothesis that has played examples (else it says none can be made: `Unsatisfiable`)
        and is not shrinking, end that run (`_Stalled`, caught by `_run_batch`)."""
        self._rejected += 1
        if self._rejected >= STALLED and self._played and self._counting:
            self.stats.stalled += 1
            raise _Stalled
        reject()

    def _begin(self, ruleset: str, seed: int, setup: dict[str, Any],
               at: dict[str, Any] | None = None, then: dict[str, Any] | None = None
               ) -> tuple[Divergence, dict[str, Any], dict[str, Any] | None] | None:
        """Both sides set up (the oracle not when it is already there: `at`, its
        observations; `then`: the action played next there, sent with the set-up to a
        program that pipelines); the record, the oracle's and the implementation's
        observations (None for the implementation: the example ends, its divergence
        reported)."""
        params = {"ruleset": ruleset, "setup": setup, "seed": seed}
        if at is not None and then is not None:
            self.impl.send(setup_observe_calls(params, self.compared)
                           + act_observe_calls(then, self.compared))
        if at is None:
            self.impl.send(setup_observe_calls(params, self.compared))
            if self._o(self.oracle.setup, params) is not None:
                return None  # the oracle refuses the position: nothing to compare
            at = self._o(self.oracle.observe, self.oracle_keys)
        o_obs = self._at = at
        self._example_rules.update(o_obs["rules_applied"])
        record = Divergence("", (), "", ruleset, seed, setup, [], {},
                            setup_events=list(o_obs.get("events") or []),
                            setup_after=(o_obs.get("pending") or {}).get("decision"))
        try:
            refusal, i_obs = self.impl.setup_observe(params, self.compared)
            if refusal is not None:
                self._diverged(record, "setup-refused", o_obs, {}, codes=("", refusal["code"]),
                               message=f"set-up refused with {refusal['code']}")
                return record, o_obs, None
        except Unsupported:
            self.stats.unsupported += 1
            return record, o_obs, None
        except AdapterError as exc:
            self._crash(record, exc, o_obs)
            return record, o_obs, None
        return record, o_obs, i_obs

    def _play(self, choices: Sequence[int], ruleset: str, players: int, seed: int,
              setup: dict[str, Any]) -> None:
        begun = self._begin(ruleset, seed, setup)
        if begun is None:
            self._reject()
            return
        self._rejected, self._played = 0, True
        if self._counting:
            self._fuzzed += 1
        record, o_obs, i_obs = begun
        if i_obs is None:
            return
        if not self._judged(o_obs, ruleset):
            self.stats.out_of_scope += 1
            return
        verdict = self._judge(record, o_obs, i_obs, deal=True)
        todo = list(choices)
        if verdict in ("resync", "resume"):
            again = self._resync(record, self._then(todo, players, ruleset)) \
                if verdict == "resync" else self._resumed(record)
            if again is None:
                return
            record, o_obs, i_obs = again
        elif verdict != "go":
            return
        ended = False
        while todo:
            r = todo.pop(0)
            chosen = self._choose(r, o_obs, players, ruleset)
            if chosen is None:
                return
            act, illegal = chosen
            if illegal:
                self.stats.illegal += 1
            verdict = self._step(record, act, o_obs, i_obs)
            if verdict in ("resync", "resume"):
                again = self._resync(record, self._then(todo, players, ruleset)) \
                    if verdict == "resync" else self._resumed(record)
                if again is None:
                    return
                record, o_obs, i_obs = again
                continue
            if verdict != "go":
                return
            o_obs, i_obs = self._last
            if self._to_target is None and o_obs.get("round_over") and \
                    not o_obs.get("game_over"):
                self._to_target = self._short_of_target(record, o_obs)
            if o_obs.get("game_over"):  # one action after the game's end (game-over), no more
                todo = [] if ended else [100 - self.illegal_percent]
                ended = True
            elif not todo and o_obs.get("round_over") and not o_obs.get("game_over") and \
                    any(a.get("next_round") for a in o_obs["legal_actions"]):
                # a hand over: an action after its end tried (round-over), then the next hand
                # dealt (its scores, its deal)
                todo.extend([100 - self.illegal_percent, 0])

    def _short_of_target(self, record: Divergence, o_obs: dict[str, Any]
                         ) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """A hand just won without reaching the target, from a `start: turn` set-up: that
        set-up with the winner's score raised by what the hand left short of the target, and
        the steps played from it (played again by `_on_target`: the same hand then ends on
        the target exactly, CL.SCORE.TARGET). None where scores are not kept, or the hand
        scored for more than one seat."""
        from conformance import specdata

        target_ = (specdata.ruleset_params(record.ruleset).get("scoring") or {}).get("target")
        setup = record.setup
        if "scoring" not in self.features or not target_ or setup.get("start") != "turn" or \
                not isinstance(o_obs.get("scores"), dict):
            return None
        before = {str(s): int(v) for s, v in (setup.get("scores") or {}).items()}
        after = {str(s): int(v) for s, v in o_obs["scores"].items()}
        won = [s for s, v in after.items() if v != before.get(s, 0)]
        if len(won) != 1 or not 0 < int(target_) - after[won[0]]:
            return None
        short = int(target_) - after[won[0]]
        scores = {**before, won[0]: before.get(won[0], 0) + short}
        return {**setup, "scores": scores}, [s.act for s in record.steps]

    def _on_target(self, ruleset: str, seed: int, setup: dict[str, Any],
                   acts: Sequence[dict[str, Any]]) -> None:
        """The hand of `_short_of_target` played again from its set-up with the winner's
        score raised: it ends on the target exactly (the game is over, CL.SCORE.TARGET, and
        one action after its end tried), judged as any example."""
        begun = self._begin(ruleset, seed, setup)
        if begun is None or begun[2] is None:
            return
        record, o_obs, i_obs = begun[0], begun[1], begun[2]
        if self._judge(record, o_obs, i_obs, deal=True) != "go":
            return
        for act in acts:
            if self._step(record, act, o_obs, i_obs) != "go":
                return
            o_obs, i_obs = self._last
        if o_obs.get("game_over"):  # one action after the game's end (game-over)
            chosen = self._choose(100 - self.illegal_percent, o_obs, record.players, ruleset)
            if chosen is not None:
                self._step(record, chosen[0], o_obs, i_obs)

    def _choose(self, r: int, o_obs: dict[str, Any], players: int, ruleset: str
                ) -> tuple[dict[str, Any], bool] | None:
        """The action of a step's choice `r` at the oracle's position `o_obs`, and whether it
        is an illegal one (None: the example ends there)."""
        legal = [a for a in o_obs["legal_actions"] if self.allowed(a, ruleset)]
        over = o_obs.get("round_over") or o_obs.get("game_over")
        if not legal and not over:
            return None  # the oracle waits for a decision outside the implementation's features
        # one choice per step (it shrinks toward 0: the first legal action): the illegal
        # share at the top of each hundred, then the kind, the pick and the action
        act = None
        if self._accepting(o_obs, ruleset):
            act = legal[0]  # the acceptance, the one answer the implementation has
        elif not legal or r % 100 >= 100 - self.illegal_percent:
            # once the hand or the game is over, an action after its end is the one kind
            # of illegal action left (round-over, game-over)
            kind = "after-end" if over else ILLEGAL_KINDS[(r // 100) % len(ILLEGAL_KINDS)]
            act = self._illegal(kind, r // 1000, o_obs, legal, players, ruleset)
        elif not over and r % 100 >= 100 - self.illegal_percent - PROTECTED_PERCENT and \
                (fresh := _freshly_protected(self._before, o_obs)):
            # a player holding one card whom the rules have just protected from a catch (the
            # window closed by the last action, the call made with the play or late): a
            # position that lasts one step, where the catch is tried more often
            act = self._illegal("false-catch", r // 100, o_obs, legal, players, ruleset,
                                fresh)
        elif not over and r % 100 >= 100 - self.illegal_percent - PROTECTED_PERCENT and \
                _rare_refusal(o_obs):
            # a last card (V.NOFINISH.LAST-CARD) or a draw card on top (a stack pending:
            # V.STACK.NO-CROSS): a held card nearly alike tried more often there
            act = self._illegal("near-play", r // 100, o_obs, legal, players, ruleset)
        self._before = o_obs
        if act is not None:
            return act, True  # (an acceptance counted with the illegal ones, as it always was)
        if not legal:
            return None
        return legal[(r // 100) % len(legal)], False

    def _then(self, todo: Sequence[int], players: int, ruleset: str
              ) -> Callable[[dict[str, Any]], dict[str, Any] | None]:
        """What a resync plays next, given the oracle's observations at its position: the
        action `todo`'s first choice gives there (None: none), for `_resync` to pipeline. To
        an implementation that does not pipeline nothing is sent: the choice is not made.
        Either way the position it is made at is noted first (`_before`, as `_choose` notes
        it), so that the choice made here is the one `_play` makes there next: a choice
        read against the position before the resync (a catch of a player the rules had just
        protected, `_freshly_protected`) was played by the implementation, then dropped for
        another one."""
        def nxt(at: dict[str, Any]) -> dict[str, Any] | None:
            self._before = at
            if todo and not self.impl.pipelines():
                return None
            chosen = self._choose(todo[0], at, players, ruleset) if todo else None
            return None if chosen is None else chosen[0]

        return nxt

    def _resync(self, record: Divergence,
                then: Callable[[dict[str, Any]], dict[str, Any] | None] = lambda _at: None
                ) -> tuple[Divergence, dict[str, Any], dict[str, Any]] | None:
        """After a divergence of a known group: the implementation set up again from the
        oracle's position, which is not set up again. After the step; when that position
        cannot be a `start: turn` set-up (a decision other than play or draw is pending, a
        window is open), after the oracle alone takes its first listed action, up to ADVANCE
        times (what it does there is not compared: the divergence stopped the comparison);
        else before the step, the oracle replayed to it. The oracle's observations are its
        own there, but for what a `start: turn` set-up itself applies (no rule, no shuffle:
        the protocol's `rules_applied`, `events`, `shuffled` after a set-up). None: no such
        position, or the implementation does not take it. To a program that pipelines, the
        next step's action (`then` gives it) goes in the set-up's write: its answers are
        read only once the set-up is judged, by that step, or dropped (docs/differential.md,
        "Speed")."""
        at = self._at
        pos = self._turn()
        for _ in range(ADVANCE if pos is None else 0):
            legal = [a for a in at["legal_actions"]
                     if self.allowed(a, record.ruleset) and not a.get("next_round")]
            if not legal:
                break
            rejection, at = self._o(self.oracle.act_observe, legal[0], self.oracle_keys)
            if rejection is not None:
                raise _OracleFailed(f"the oracle rejected {legal[0]} that it listed as legal: "
                                    f"{rejection}")
            pos = self._turn()
            if pos is not None:
                self.stats.advanced += 1
                break
        o_obs: dict[str, Any] | None = at
        if pos is None and record.steps:
            o_obs = self.replay(record.ruleset, record.seed, record.setup,
                                [s.act for s in record.steps[:-1]], self.oracle_keys)
            pos = None if o_obs is None else self._turn()
        if pos is None or o_obs is None:
            return None
        o_obs = {**o_obs, "rules_applied": [], "shuffled": False,
                 **({"events": []} if "events" in o_obs else {})}
        begun = self._begin(record.ruleset, record.seed, pos, at=o_obs, then=then(o_obs))
        if begun is None or begun[2] is None:
            return None
        self.stats.resyncs += 1
        new, o_obs, i_obs = begun
        if i_obs is None or self._judge(new, o_obs, i_obs) != "go":
            return None
        return new, o_obs, i_obs

    def _step(self, record: Divergence, act: dict[str, Any], o_before: dict[str, Any],
              i_before: dict[str, Any]) -> str:
        """Play one action on both sides: "go" on, "end" the example, "resync" after a
        divergence of a known group."""
        self.stats.steps += 1
        self._progress()
        listed = any(a is act for a in o_before["legal_actions"]) or \
            _norm(act) in {_norm(a) for a in o_before["legal_actions"]}
        if self.impl.pipelines():  # it works while the oracle does
            self.impl.send(act_observe_calls(act, self.compared))
        o_rej, o_obs = self._o(self.oracle.act_observe, act, self.oracle_keys)
        if o_rej is not None and listed and act.get("next_round") and \
                o_rej.get("code") in SETUP_CODES:
            return "end"  # a made position's few cards cannot deal the next hand
        if o_rej is not None and listed:
            raise _OracleFailed(f"the oracle rejected {act} that it listed as legal: {o_rej}")
        self._at = o_obs
        rules = list(o_obs["rules_applied"]) if o_rej is None else \
            [o_rej["rule"]] if o_rej.get("rule") else []
        self._example_rules.update(rules)
        pending = o_before.get("pending") or {}
        record.steps.append(StepRecord(
            act, o_rej, rules, list(o_obs.get("events") or []) if o_rej is None else [],
            str(pending.get("decision") or "none"),
            before_step(o_before), (o_obs.get("pending") or {}).get("decision")))
        try:
            i_rej, i_obs = self.impl.act_observe(act, self.compared)
        except Unsupported:
            self.stats.unsupported += 1
            return "end"
        except AdapterError as exc:
            return self._crash(record, exc, o_obs)
        if o_rej is None and i_rej is not None and listed and self.allowed(act, record.ruleset):
            # the action itself is inside the implementation's features, whatever it leads to
            return self._diverged(record, "rejected", o_obs, i_obs, codes=("", i_rej["code"]),
                                  message=f"{act}: rejected with {i_rej['code']}; the "
                                  "reference accepts it")
        if o_rej is None and not self._judged(o_obs, record.ruleset):
            self.stats.out_of_scope += 1
            return "end"
        if o_rej is None and i_rej is not None:
            return self._diverged(record, "rejected", o_obs, i_obs, codes=("", i_rej["code"]),
                                  message=f"{act}: rejected with {i_rej['code']}; the "
                                  "reference accepts it")
        if o_rej is None and self._accepting(o_obs, record.ruleset):
            # A Wild Draw Four (Flip: Wild Draw Two / Colour) against an implementation without
            # its challenge: what the play led to (a challenge decision) belongs to that
            # feature; the play is judged by its acceptance, compared on the next step.
            self._last = (o_obs, i_obs)
            return "go"
        if o_rej is not None and i_rej is None:
            return self._diverged(record, "accepted", o_obs, i_obs, codes=(o_rej["code"], ""),
                                  message=f"{act}: accepted; the reference rejects it with "
                                  f"{o_rej['code']}", rejection=o_rej)
        if o_rej is not None and i_rej is not None:
            if o_rej["code"] != i_rej["code"]:
                return self._diverged(record, "error-code", o_obs, i_obs,
                                      codes=(o_rej["code"], i_rej["code"]),
                                      message=f"{act}: rejected with {i_rej['code']}, the "
                                      f"reference with {o_rej['code']}", rejection=o_rej)
            changes = cmp.diff_states(i_before, i_obs)
            if changes:
                return self._diverged(record, "state-changed", o_obs, i_obs,
                                      mismatches=[m.key for m in changes], rejection=o_rej,
                                      message=f"{act}: rejected, but "
                                      + ", ".join(m.key for m in changes) + " changed")
            self._last = (o_obs, i_obs)
            return "go"
        verdict = self._judge(record, o_obs, i_obs, deal=bool(act.get("next_round")))
        self._last = (o_obs, i_obs)
        return verdict

    def _judge(self, record: Divergence, o_obs: dict[str, Any], i_obs: dict[str, Any],
               deal: bool = False) -> str:
        """Compare the observations after a step (or the setup, `deal`: a next round too):
        "go" on, "end" the example, "resync" (after a divergence of a known group), "resume".
        After a shuffle only what it leaves fixed is compared (`_fixed`); then, unless the
        hand or the game is over, both sides are set up from the oracle's position
        ("resume", `_resumed`): what follows is compared whole again."""
        shuffled = bool(o_obs.get("shuffled"))
        if shuffled:
            self._resume_at = self._turn()  # before `_fixed` moves the oracle
            # first without the replays: what matches that superset matches what is fixed
            # (`shuffle_fixed`), and the replays are asked only where something differs
            expect = self._expectation(record, o_obs, deal, replayed=False)
            mismatches = cmp.compare(expect, i_obs)
            if mismatches:
                expect = self._expectation(record, o_obs, deal, replayed=True)
                mismatches = cmp.compare(expect, i_obs)
        else:
            expect = self._expectation(record, o_obs, deal, replayed=False)
            mismatches = cmp.compare(expect, i_obs)
            if not mismatches and record.steps:
                record.steps[-1].expect = expect  # matched here (the reduction checks it)
        if mismatches:
            record.shuffled = shuffled
            verdict = self._diverged(record, "observation", o_obs, i_obs, expect=expect,
                                     mismatches=[m.key for m in mismatches],
                                     more=more_cards(mismatches),
                                     fewer=fewer_cards(mismatches),
                                     taken=top_taken(mismatches),
                                     message=lambda: "; ".join(m.describe()
                                                               for m in mismatches[:4]))
            if not shuffled and (verdict != "resync"
                                 or any(m.key != "legal_actions" for m in mismatches)):
                return verdict
            # only the listed actions differ, in a known group: both sides are in the same
            # position, and play goes on from it (set up again there, the list would differ
            # again: the example could never get past it)
        over = o_obs.get("game_over") or \
            o_obs.get("round_over") and "scoring" not in self.features
        if shuffled:
            self.stats.shuffles += 1
            return "resume" if self._resume_at is not None and not over else "end"
        # the game over: "go" on to one action after its end (game-over), then `_play` stops
        return "end" if over and not o_obs.get("game_over") else "go"

    def _expectation(self, record: Divergence, o_obs: dict[str, Any], deal: bool,
                     replayed: bool) -> dict[str, Any]:
        """What `_judge` compares the implementation on after a step: `expected`, or after a
        shuffle `shuffle_fixed` (with or without its replays)."""
        expect = self.shuffle_fixed(record, o_obs, deal, replayed) if o_obs.get("shuffled") \
            else self.expected(o_obs, record.ruleset)
        if o_obs.get("round_over") or o_obs.get("game_over"):
            # CL.END.OUT: the hand is over, so no rule fixes the direction any more (a last
            # Reverse may or may not turn it: it governs no turn; the next hand's direction is
            # CL.PLAY.DIRECTION-START's, compared after the deal)
            expect.pop("direction", None)
        return stateable(expect)

    def _resumed(self, record: Divergence
                 ) -> tuple[Divergence, dict[str, Any], dict[str, Any]] | None:
        """After a shuffle: both sides set up from the oracle's position after it (None: the
        implementation does not take it, or the set-up diverges)."""
        pos, self._resume_at = self._resume_at, None
        if pos is None:
            return None
        begun = self._begin(record.ruleset, record.seed, pos)
        if begun is None or begun[2] is None:
            return None
        self.stats.resumed += 1
        new, o_obs, i_obs = begun
        if i_obs is None or self._judge(new, o_obs, i_obs) != "go":
            return None
        return new, o_obs, i_obs

    def shuffle_fixed(self, record: Divergence, o_obs: dict[str, Any], deal: bool,
                      replayed: bool = True) -> dict[str, Any]:
        """What the rules fix after a step (`deal`: the set-up or a next hand) that shuffled:
        the keys `shuffle_keys` names that the oracle's replays observe alike (`_fixed`); at a
        deal, the hand sizes only where the dealer is fixed too (CL.DEAL.SEVEN: a `start:
        game` whose deck decides the dealer, a next hand), and the top, where no other seed
        turns the same, as any card of the deck the ruleset does not return to the pile
        when turned first (`_first_tops`: CL.FIRST.WD4).

        `replayed` False: without the replays, as if the shuffle fixed every one of those
        keys (the dealer too): a superset of the expectation the replays give, entry by
        entry (they only leave keys and seats out, never change a value), so an
        implementation that matches it matches what is fixed (`_judge` asks the replays only
        when it does not)."""
        keys = shuffle_keys(deal, o_obs.get("events"))
        expect = self._fixed(record, o_obs, keys) if replayed else \
            {k: o_obs[k] for k in self.compared if k in keys}
        if deal and "dealer" not in expect:
            expect.pop("hand_sizes", None)
        tops = _first_tops(record.ruleset) if deal and "top" in self.compared else ()
        if tops and o_obs.get("top") in tops and not o_obs.get("round_over"):
            expect["top"] = {"one_of": list(tops)}
        return expect

    def _fixed(self, record: Divergence, o_obs: dict[str, Any], candidates: Sequence[str]
               ) -> dict[str, Any]:
        """What a shuffle leaves fixed: of the `candidates` the implementation is compared
        on, each value (each seat's, in a seat map) that the oracle observes alike when the
        record's setup and steps are replayed with FIXED_SEEDS other seeds (fewer once no
        value is left to compare). Moves the oracle (the example goes on from a new set-up)."""
        keys = [k for k in self.compared if k in candidates]
        expect = {k: o_obs[k] for k in keys}
        # the same replays give the same answer (`seed` fixes every shuffle): asked once for
        # each value of what they start from (the record and the oracle's values: plain data,
        # the fuzzer's own and the oracle's, whose `repr` tells `true` from `1`, `1` from `"1"`)
        memo = repr((record.ruleset, record.seed, record.setup, [s.act for s in record.steps],
                     expect))
        got = self._fixed_seen.get(memo)
        if got is None:
            if len(self._fixed_seen) >= POSITION_CACHE:
                self._fixed_seen.clear()
            got = self._fixed_seen[memo] = self._replayed(record, expect)
        return _copied(got)  # (the caller's to change)

    def _replayed(self, record: Divergence, expect: dict[str, Any]) -> dict[str, Any]:
        """`_fixed`'s replays: of `expect` (the oracle's values after the step), what each
        replay with another seed observes alike."""
        expect = dict(expect)
        for i in range(1, FIXED_SEEDS + 1):
            if not expect:
                break
            other = self.replay(record.ruleset, record.seed + 7919 * i, record.setup,
                                [s.act for s in record.steps], list(expect))
            if other is None:
                return {}
            for k in list(expect):
                if k in cmp.SEAT_MAPS and isinstance(expect[k], dict):
                    mine = cmp.normalize(k, expect[k])
                    theirs = cmp.normalize(k, other.get(k))
                    kept = {s: v for s, v in mine.items()
                            if isinstance(theirs, dict) and theirs.get(s) == v}
                    if kept:
                        expect[k] = kept
                    else:
                        del expect[k]
                elif cmp.normalize(k, expect[k]) != cmp.normalize(k, other.get(k)):
                    del expect[k]
        return expect

    def replay(self, ruleset: str, seed: int, setup: dict[str, Any],
               acts: Sequence[dict[str, Any]], keys: Sequence[str]) -> dict[str, Any] | None:
        """The oracle's observations `keys` after `setup` (with `seed`) and `acts` (None: the
        oracle refuses the set-up)."""
        params = {"ruleset": ruleset, "setup": setup, "seed": seed}
        if self._o(self.oracle.setup, params) is not None:
            return None
        for act in acts:
            self._o(self.oracle.act, act)
        return self._o(self.oracle.observe, list(keys))  # type: ignore[no-any-return]

    def expected(self, o_obs: dict[str, Any], ruleset: str) -> dict[str, Any]:
        """The oracle's observations the implementation is compared on after a step that did
        not shuffle: every compared key, but `legal_actions` only where every action it
        compares (`compare.legal_actions`) is within the implementation's features (the
        reference lists a challenge an implementation without it cannot list)."""
        expect = {k: o_obs[k] for k in self.compared}
        if "legal_actions" in expect and \
                not self._all_allowed(cmp.listing(expect["legal_actions"]), ruleset):
            del expect["legal_actions"]
        return expect

    def _all_allowed(self, normal: dict[str, dict[str, Any]], ruleset: str) -> bool:
        """Whether every action of a listing's normal form (`compare.listing`) is within the
        implementation's features: remembered for that very normal form (`listing` shares
        one for equal lists during a run, and it is not changed: kept here, its id is not
        another's) and the ruleset; the features are the implementation's, fixed."""
        got = self._allowed_seen.get(id(normal))
        if got is not None and got[0] is normal and got[1] == ruleset:
            return got[2]
        answer = all(self.allowed(a, ruleset) for a in normal.values())
        if len(self._allowed_seen) >= POSITION_CACHE:
            self._allowed_seen.clear()
        self._allowed_seen[id(normal)] = (normal, ruleset, answer)
        return answer

    def _accepting(self, o_obs: dict[str, Any], ruleset: str) -> bool:
        """The oracle waits for a challenge decision the implementation cannot make (it lacks
        the challenge feature) and only its acceptance (`challenge: false`) is allowed."""
        pending = o_obs.get("pending")
        if not isinstance(pending, dict) or pending.get("decision") != "challenge":
            return False
        legal = o_obs["legal_actions"]
        return not all(self.allowed(a, ruleset) for a in legal) and \
            any(a.get("challenge") is False for a in legal)

    def _judged(self, o_obs: dict[str, Any], ruleset: str) -> bool:
        """Whether the implementation can be judged on the step just played: not when the
        oracle now waits for a decision none of whose actions the implementation's features
        allow (a Wild Draw Four challenge for an implementation without challenges: what the
        step did belongs to that feature)."""
        if o_obs.get("round_over") or o_obs.get("game_over"):
            return True
        return any(self.allowed(a, ruleset) for a in o_obs["legal_actions"])

    def _crash(self, record: Divergence, exc: AdapterError, o_obs: dict[str, Any]) -> str:
        kind = "hang" if exc.code == "timeout" else "crash"
        expect = {k: o_obs[k] for k in self.compared if k in COUNT_KEYS} \
            if o_obs.get("shuffled") else self.expected(o_obs, record.ruleset)
        return self._diverged(record, kind, o_obs, {}, expect=expect,
                              codes=("", exc.code), message=f"{exc.code}: {exc.message}",
                              resync=False)

    def signature_of(self, record: Divergence, kind: str, *, mismatches: Sequence[str] = (),
                     codes: tuple[str, str] = ("", ""), rejection: dict[str, Any] | None = None,
                     events: Sequence[dict[str, Any]] = (), after: str | None = None,
                     more: Sequence[str] = (), taken: bool = False,
                     listed: tuple[Any, Any] | None = None,
                     at: dict[str, Any] | None = None,
                     refusal: Refusal | None = None,
                     fewer: Mapping[str, int] | None = None) -> Signature:
        """The group of a divergence at the record's last step (conformance.blame)."""
        last = record.steps[-1] if record.steps else None
        # the last step before it that the oracle accepted
        accepted = next((s for s in itertools.islice(reversed(record.steps), 1, None)
                         if s.rejection is None), None)
        previous = (accepted.events, accepted.after) if accepted is not None else \
            (record.setup_events, record.setup_after) if record.steps else None
        if last is not None:
            events = last.events or [{"kind": "", "rule": r} for r in last.rules]
        return signature(kind, mismatches=mismatches, codes=codes,
                         decision=last.decision if last is not None else "setup",
                         events=events, rejection=rejection,
                         action=last.act if last is not None else None,
                         before=last.before if last is not None else None,
                         players=record.players, ruleset=record.ruleset, after=after,
                         previous=previous, more=more, taken=taken, listed=listed, at=at,
                         refusal=refusal, fewer=fewer)

    def _diverged(self, record: Divergence, kind: str, o_obs: dict[str, Any],
                  observed: dict[str, Any], *, message: str | Callable[[], str],
                  expect: dict[str, Any] | None = None, mismatches: Sequence[str] = (),
                  codes: tuple[str, str] = ("", ""), rejection: dict[str, Any] | None = None,
                  resync: bool = True, more: Sequence[str] = (), taken: bool = False,
                  fewer: Mapping[str, int] | None = None) -> str:
        """A divergence: a new group raises (Hypothesis shrinks it); a known one is counted
        and the example goes on from a fresh set-up ("resync"), or ends. The `Divergence`
        itself (and its `message`, given as a function where it costs) is made only where it
        is kept: a new group, or a known one's smaller example (its size is the record's)."""
        if expect is None:
            expect = self.expected(o_obs, record.ruleset)
        setup_events = list(o_obs.get("events") or []) if not record.steps else []
        if not setup_events and not record.steps:
            setup_events = [{"kind": "", "rule": r} for r in o_obs.get("rules_applied") or []]
        # a card only the implementation lists is named by the oracle's refusal of it there
        refusal = reference_refusal(self.oracle)
        sig = self.signature_of(record, kind, mismatches=mismatches, codes=codes,
                                rejection=rejection, events=setup_events,
                                after=(o_obs.get("pending") or {}).get("decision"), more=more,
                                fewer=fewer, taken=taken, at=expect,
                                listed=(expect.get("legal_actions"),
                                        observed.get("legal_actions")), refusal=refusal)
        if refusal.moved:  # the oracle accepted what it did not list: it left the position
            resync = False

        def made() -> Divergence:
            return Divergence(kind, tuple(record.steps[-1].rules if record.steps
                                          else o_obs.get("rules_applied") or ()),
                              message if isinstance(message, str) else message(),
                              record.ruleset, record.seed, record.setup, list(record.steps),
                              {k: expect[k] for k in self.compared if k in expect},
                              {k: observed[k] for k in self.compared if k in observed},
                              record.shuffled, sig, setup_events or record.setup_events,
                              (o_obs.get("pending") or {}).get("decision"), record.setup_after)

        key = sig.group
        if key in self._new:  # new in this example, raised at its end: played past like a known one
            return "resync" if resync and not record.shuffled else "end"
        if key in self.found:  # known (its scenario's features were checked when found)
            if self._counting:
                self._count(key, sig)
                if record.size < self._kept_size(key):  # reduced first (conformance.reduce)
                    self.smallest[key] = made()
            return "resync" if resync and not record.shuffled else "end"
        from conformance.diff_scenarios import scenario_features

        div = made()
        if not scenario_features(div) <= self.features:
            self.stats.out_of_scope += 1
            return "end"
        now = time.monotonic()
        if self.shrink_seconds <= 0:  # no shrinking: a new group is kept as found, play goes on
            self._found_as(div)
            self._count(div.key, div.signature)
            return "resync" if resync and not record.shuffled else "end"
        # raised when the example ends (`_raise_new`): play goes on past it as past a known one,
        # so that what follows it in the example is still found
        self._hit.setdefault(div.key, now - self._t0)
        self._new[div.key] = div
        return "resync" if resync and not record.shuffled else "end"

    def _kept_size(self, key: Group) -> tuple[int, int, int, int]:
        """The size of the smallest example kept of a known group (`Divergence.size`),
        remembered while that example is the one kept (a kept example is not changed)."""
        known = self.smallest.get(key, self.found[key])
        got = self._sizes.get(key)
        if got is None or got[0] is not known:
            got = self._sizes[key] = (known, known.size)
        return got[1]

    def _raise_new(self) -> None:
        """At an example's end, its first new group raised (Hypothesis shrinks it), always
        from this line, so that Hypothesis sees a group's examples fail alike whichever step
        found it; the others kept unraised (`_keep_unraised`)."""
        if not self._new:
            return
        first, *others = self._new.values()
        self._new = {}
        self._keep_unraised(others)
        self._counting = False  # Hypothesis shrinks from here on: its replays are no findings
        if self._shrink_end is None:
            self._shrink_end = time.monotonic() + self.shrink_seconds
        self._raised[first.key] = first
        raise self._group_class(first.key)(first)

    def _keep_unraised(self, divs: Sequence[Divergence]) -> None:
        """New groups an example met after another (or an interrupted example met): kept,
        the smallest example of each, and counted while fuzzing; still new to later examples,
        so that one meeting such a group first raises it and Hypothesis shrinks it."""
        for div in divs:
            kept = self._unraised.get(div.key)
            if kept is None or div.size < kept.size:
                self._unraised[div.key] = div
            if self._counting:
                self._count(div.key, div.signature)

    def _count(self, key: Group, sig: Signature) -> None:
        """One more divergence of its group, and how it showed (the decision, the rule)."""
        self.counts[key] += 1
        self.shown[key][(sig.decision, sig.rule)] += 1

    def _group_class(self, key: Group) -> type[DivergenceFound]:
        cls = self._classes.get(key)
        if cls is None:
            cls = type(f"Divergence{len(self._classes)}", (DivergenceFound,), {})
            self._classes[key] = cls
        return cls

    # --- illegal actions ---------------------------------------------------------------------

    def _illegal(self, kind: str, pick: int, obs: dict[str, Any], legal: list[dict[str, Any]],
                 players: int, ruleset: str, targets: set[int] | None = None
                 ) -> dict[str, Any] | None:
        """An action of the given kind that the oracle does not list (None: none exists);
        `targets`: the players a false catch may name (default: every one holding one
        card)."""
        pending = obs.get("pending") or {}
        cur = pending.get("player")
        hands = cmp.normalize("hands", obs.get("hands") or {})
        seats = range(players)
        cands: list[dict[str, Any]] = []
        if kind == "after-end":
            if obs.get("round_over") or obs.get("game_over"):
                cands = [{"player": s, "draw": True} for s in seats] + \
                    [{"player": int(s), "play": c} for s, h in sorted(hands.items()) for c in h]
        elif kind == "eliminated":
            cands = [{"player": int(s), "draw": True} for s in obs.get("eliminated") or []]
        elif kind == "window":
            cands = [{"player": s, "uno": True} for s in seats] + \
                [{"player": s, "catch": t} for s in seats for t in seats if s != t]
        elif kind == "false-catch":
            # CL.UNO.FALSE-CATCH (nothing-to-catch): a catch of a player holding one card whom
            # the rules protect: the window closed by the next action (CL.UNO.WINDOW,
            # CL.UNO.LATE-CATCH), a call made with the play (CL.UNO.CALL-WITH-PLAY) or late
            # (CL.UNO.CALL-LATE)
            cands = [{"player": s, "catch": int(t)} for t, h in sorted(hands.items())
                     if len(h) == 1 and (targets is None or int(t) in targets)
                     for s in seats if s != int(t)]
        elif cur is None:
            return None
        else:
            own = list(hands.get(str(cur), []))
            if kind == "not-held":
                cands = [{"player": cur, "play": c} for s, h in sorted(hands.items())
                         if s != str(cur) for c in h if c not in own]
            elif kind == "no-match":
                cands = [{"player": cur, "play": c} for c in own]
            elif kind == "out-of-turn":
                # by another seat at the table (not-your-turn), or by one not at the table
                # that a scenario can state (malformed-action: the rules' actions are the
                # players', CL.PLAY.TURN-OPTIONS)
                away = (players,) if players <= MAX_SEAT else ()
                cands = [{**a, "player": s} for a in legal if a.get("player") == cur
                         for s in (*((cur + k) % players for k in range(1, players)), *away)]
            elif kind == "near-play":
                # a held card refused where a nearly alike one is played: one that matches the
                # top by colour or symbol, a draw card (a stack pending: V.STACK.NO-CROSS), the
                # last card (V.NOFINISH.LAST-CARD); the refusal's code and rule compared
                top = str(obs.get("top") or "")
                cands = [{"player": cur, "play": c} for c in own
                         if _near(c, top) or c.startswith("W4") or c[1:].startswith("D")
                         or len(own) == 1]
            elif kind == "near-jump":
                # out of turn, a card of the same number or symbol as the top, another colour
                # (V.JUMPIN.IDENTICAL: not-your-turn, whether or not the table lets identical
                # cards be played out of turn)
                top = str(obs.get("top") or "")
                cands = [{"player": int(s), "play": c} for s, h in sorted(hands.items())
                         if int(s) != cur for c in h
                         if _near(c, top) and c[0] != top[0]]
            elif kind == "no-color":
                cands = [{"player": cur, "play": c} for c in own if c.startswith("W")]
            elif kind == "bad-color":
                # a colour a scenario can state (its format knows both sides' colours) that is
                # not in play: the other side's (CL.WILD.FOUR-COLOURS)
                other_side = "red" if obs.get("side") == "dark" else "pink"
                cands = [{"player": cur, "play": c, "color": other_side} for c in own
                         if c.startswith("W")]
            else:
                other = (cur + 1) % players
                cands = [{"player": cur, "draw": True}, {"player": cur, "pass": True},
                         {"player": cur, "challenge": True},
                         {"player": cur, "challenge": False}, {"player": cur, "color": "red"},
                         {"player": cur, "uno": True}, {"player": cur, "catch": other},
                         {"player": cur, "swap": other}]
            if kind not in ("no-color", "bad-color"):
                for c in cands:
                    if "play" in c and c["play"].startswith("W") and "color" not in c:
                        c["color"] = "red"
        listed = {_norm(a) for a in obs["legal_actions"]}
        cands = [c for c in cands if _norm(c) not in listed and self.allowed(c, ruleset)]
        return cands[pick % len(cands)] if cands else None

    # --- progress ----------------------------------------------------------------------------

    def _progress(self) -> None:
        if self.on_progress is None:
            return
        now = time.monotonic()
        if now - self._last_progress >= PROGRESS_EVERY:
            self._last_progress = now
            self.on_progress(self)

    @property
    def divergences(self) -> int:
        return sum(self.counts.values())

    # --- the session -------------------------------------------------------------------------

    def run(self, *, examples: int | None = None, minutes: float | None = None, seed: int = 0,
            database: ExampleDatabase | str | None = None,
            until: Callable[[Mapping[Group, Divergence]], bool] | None = None
            ) -> DiffReport:
        """Fuzz for `examples` examples or `minutes` minutes, in runs of BATCH examples, or
        less: until `until` holds of the groups found (checked after each run; `--groups`);
        the first run replays the database's examples (previous divergences) first. `seed`
        makes a run reproducible without a database (Hypothesis ignores a database under a
        seed). Then every group is reduced and confirmed (conformance.reduce), unless
        `confirm_runs` is 0."""
        from conformance.reduce import Confirmation, confirm_groups

        db: ExampleDatabase | None = DirectoryBasedExampleDatabase(database) \
            if isinstance(database, str) else database
        self.stats = Stats()
        t0 = self._t0 = time.monotonic()
        end = None if minutes is None else t0 + minutes * 60
        done = 0
        batch = 0
        fuzz_seconds: float | None = None
        found: list[tuple[Divergence, int]] = []
        state = Confirmation()
        interrupted: Interrupted | None = None
        # one SIGALRM handler for every guarded call of the run; SIGINT, SIGTERM, SIGHUP: the
        # report of what was found so far
        with holding_alarm(), interrupts():
            try:
                while True:
                    n = BATCH if examples is None else min(BATCH, examples - done)
                    if n <= 0 or (end is not None and time.monotonic() >= end):
                        break
                    before = self._fuzzed
                    self._run_batch(n, seed * 1_000_003 + batch, db, replay=batch == 0)
                    # the examples that run played (shrinking's replays come on top): Hypothesis
                    # ends a run's generation soon after it finds a new divergence, to shrink
                    # it, so a run may play far fewer than `n`; the next runs play the rest
                    done += (self._fuzzed - before) or n
                    batch += 1
                    # the groups kept unraised count too: they are found when fuzzing ends
                    if until is not None and until({**self._unraised, **self.found}):
                        break
                fuzz_seconds = time.monotonic() - t0
                self._found_unraised()
                found = [(self.found[k], self.counts[k]) for k in self.found]
                if self.confirm_runs:
                    confirm_groups(self, found, state)
                else:
                    state.kept = {d.key: (d, c) for d, c in found}
            except Interrupted as sig:
                interrupted = sig
                kill_all()  # every program started, now (no `bye`: it may hang)
            finally:
                self.close()
        during = ""
        if interrupted is not None:
            during = state.stage if fuzz_seconds is not None else \
                "shrinking" if not self._counting else "fuzzing"
            if fuzz_seconds is None:  # what the runs found, shrunk or not
                self._found_unraised()
                found = [(self.found[k], self.counts[k]) for k in self.found]
        groups = state.groups
        merged = {d.key for d, _ in groups} | state.done
        unconfirmed = [(d, c) for d, c in found if d.key not in merged] \
            if interrupted is not None else []
        first = {d.key: self.first_found.get(d.key, 0.0) for d, _ in groups + unconfirmed}
        return DiffReport(self.implementation, self.adapter_name, list(self.rulesets),
                          list(self.starts), list(self.compared), self.stats,
                          time.monotonic() - t0, groups, first,
                          list(self.warnings), state.dropped, dict(self.coverage),
                          list(self.rules_in_scope), self.players,
                          time.monotonic() - t0 if fuzz_seconds is None else fuzz_seconds,
                          dict(state.reductions),
                          interrupted.name if interrupted is not None else None, during,
                          unconfirmed, {k: Counter(v) for k, v in self.shown.items()})

    def _run_batch(self, n: int, seed: int, db: ExampleDatabase | None, *, replay: bool
                   ) -> None:
        phases = [Phase.reuse] if replay else []
        phases += [Phase.generate, Phase.target]
        if self.shrink_seconds > 0:
            phases.append(Phase.shrink)
        conf = settings(max_examples=n, deadline=None, database=db, phases=phases,
                        suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                        print_blob=False, report_multiple_bugs=True, derandomize=False)

        def differential(plan: Plan) -> None:
            self.example(plan)

        test = conf(given(st.composite(self._plan)())(differential))
        if db is None:  # Hypothesis uses no database under a fixed seed: seeded runs have none
            test = hypothesis_seed(seed)(test)
        self._counting = True
        self._raised = {}
        self._shrink_end = None
        self._rejected, self._played = 0, False
        try:
            # surfaced: a signal Hypothesis turned into Flaky (caught mid-bookkeeping), or
            # one whose exception vanished, ends the run as Interrupted, not as its problem
            with _no_local_constants(), cmp.listings_remembered(), surfaced():
                test()
        except _Stalled:  # this run's examples were played; the next run draws anew
            pass
        except (KeyboardInterrupt, SystemExit, Interrupted):  # Interrupted: SIGTERM, SIGHUP
            raise
        except BaseException as exc:  # noqa: BLE001 - sorted out below
            problem = _problem(exc)
            if problem is not None:
                raise problem from None
        finally:
            self._keep_unraised(list(self._new.values()))  # an example cut short
            self._new = {}
            self._counting = True  # (shrinking is over)
            for key, div in self._raised.items():
                self._found_as(div)
                self._unraised.pop(key, None)
                self._count(div.key, div.signature)

    def _found_as(self, div: Divergence) -> bool:
        """A group found, as `div` shows it, unless it already is; whether it was new."""
        if div.key in self.found:
            return False
        self.found[div.key] = div
        self.first_found[div.key] = self._hit.get(div.key, time.monotonic() - self._t0)
        return True

    def _found_unraised(self) -> None:
        """The groups no example raised (each met after another new group in its examples):
        found as kept, Hypothesis' shrinking left to the reduction (conformance.reduce)."""
        for div in self._unraised.values():
            if self._found_as(div) and not self.counts[div.key]:
                self._count(div.key, div.signature)  # met only in shrinking's replays: once
        self._unraised = {}


def _problem(exc: BaseException) -> DiffError | None:
    """What to report from a Hypothesis run's exception: None for divergences (collected as
    they were raised) and for the flakiness that an exhausted shrinking budget or an
    implementation that does not answer the same way twice causes, and for the rejection
    of an example replayed once the shrinking budget is spent; else a DiffError."""
    from hypothesis.errors import Flaky, Unsatisfiable, UnsatisfiedAssumption

    if isinstance(exc, DivergenceFound):
        return None
    if isinstance(exc, _OracleFailed):
        return DiffError(str(exc))
    if isinstance(exc, Unsatisfiable):
        return DiffError("no start position could be made: check --players against the "
                         "ruleset")
    if isinstance(exc, BaseExceptionGroup):
        for sub in exc.exceptions:
            problem = _problem(sub)
            if problem is not None:
                return problem
        return None
    if isinstance(exc, (Flaky, UnsatisfiedAssumption)):
        return None
    return DiffError(f"internal error: {type(exc).__name__}: {exc}")


@contextlib.contextmanager
def _no_local_constants() -> Iterator[None]:
    """Hypothesis draws about 5 % of its values from the literals of the local modules the
    process has imported (`providers._get_local_constants`), so what a seed generated depended
    on what the process had imported before: a run differed from the same run once the
    confirmation's modules were loaded, a test from the tests run before it. Its runs here draw
    without them (the global constants stay): the same seed, the same examples. Where
    Hypothesis has no such hook (another version), nothing changes."""
    from hypothesis.internal.conjecture import providers

    get = getattr(providers, "_get_local_constants", None)
    make = getattr(providers, "Constants", None)
    cache: Any = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    if get is None or make is None or not hasattr(cache, "clear"):
        yield
        return
    none = make()
    providers._get_local_constants = lambda: none
    cache.clear()  # (the permitted constants, cached by the kind of draw)
    try:
        yield
    finally:
        providers._get_local_constants = get
        cache.clear()
