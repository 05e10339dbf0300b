"""Stateful fuzzing of the engine with Hypothesis (docs/fuzzing.md).

`make_machine(ruleset, players)` builds a `hypothesis.stateful.RuleBasedStateMachine` that plays
random games through the public API (`Game.new`, `legal_actions`, `apply`, `to_json`...) with
random legal actions, random illegal actions and table penalties, and checks after every step:

- the invariants (`uno_fsm.invariants`): every card in exactly one place and the deck
  complete; one well-formed pending decision or game over; `legal_actions()` non-empty and
  accepted; the active colour belongs to the side in play;
- the postconditions of each action, by rule area (`uno_fsm.oracle`), computed from the
  position *before* the action with the oracle's own small logic (it never calls the engine's
  rule helpers), each naming the rule ID it checks;
- every illegal action (`uno_fsm.illegal_actions`) rejected with an `IllegalAction` whose code
  is in spec/errors.yaml and whose rule is in spec/rules, the state unchanged;
- the JSON round trip (and continuing play identically) and replay determinism.

What a ruleset plays (its variants, hand size, target, player counts) is read from the
composed ruleset's params (`oracle.Facts`); `make_machine(..., target=N)` plays it to a smaller
target score (`with_target`: a smaller elimination amount, DESAFIO.ELIMINATE, so that fuzzed
games reach their eliminations and their end). A failed check raises `FuzzFailure`, whose message
carries a ready-to-paste conformance scenario (`uno_fsm.export.draft_yaml`) for the position
before the failing action. The `uno-fsm fuzz` command is `uno_cli.fuzz`.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.stateful import (
    RuleBasedStateMachine,
    get_state_machine_test,
    initialize,
    invariant,
    precondition,
    rule,
)

from uno_fsm.actions import Action, Event
from uno_fsm.cards import Card
from uno_fsm.errors import IllegalAction
from uno_fsm.export import draft_yaml, turn_expressible, turn_setup
from uno_fsm.game import Game
from uno_fsm.illegal_actions import ILLEGAL_KINDS, illegal_candidate
from uno_fsm.invariants import check_invariants, check_rejected
from uno_fsm.oracle import (
    STATS,
    Facts,
    FuzzFailure,
    Record,
    Snap,
    check,
    check_deal,
    check_deck,
    face_on,
    next_record,
    playable,
    postconditions,
)
from uno_fsm.params import Params, from_mapping
from uno_fsm.rules import VARIANTS
from uno_spec.signals import raise_pending, surfaced

__all__ = ["ALL_RULESETS", "LONG_PROFILE", "STATS", "FuzzFailure", "compare_paths",
           "make_machine", "run", "scenario_yaml", "unsupported_reason", "with_target"]

# ---- profiles ----------------------------------------------------------------------------
_QUIET = list(HealthCheck)
# no Phase.explain: its line tracing costs seconds per failure and says little here
_PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink)
settings.register_profile(
    "ci", max_examples=25, stateful_step_count=80, deadline=None,
    suppress_health_check=_QUIET, derandomize=True, database=None, print_blob=False,
    phases=_PHASES,
)
settings.register_profile(
    "long", max_examples=5, stateful_step_count=300, deadline=None,
    suppress_health_check=_QUIET, print_blob=False, phases=_PHASES,
)

LONG_PROFILE = "long"  # the profile `uno-fsm fuzz` runs batches with

# ---- rulesets ----------------------------------------------------------------------------
CLASSIC_RULESETS = ("classic-official", "classic-2022", "classic-guide")
FLIP_RULESET = "flip"
# the variants' own (`Variant.fuzz`, uno_fsm/rules/)
VARIANT_RULESETS = tuple(c.ruleset for v in VARIANTS for c in v.fuzz)
ALL_RULESETS = (*CLASSIC_RULESETS, FLIP_RULESET, *VARIANT_RULESETS)


@functools.lru_cache(maxsize=32)
def unsupported_reason(ruleset: str) -> str | None:
    """None when the engine can deal and play `ruleset`, else why not."""
    try:
        facts = Facts.of(ruleset)
        counts = facts.seat_counts(3, 10) or facts.seat_counts(2, 10)
        g = Game.new(ruleset, players=counts[0] if counts else 3, seed=0)
    except Exception as exc:  # noqa: BLE001 - unknown ruleset, deck not built...
        return f"engine cannot deal {ruleset!r}: {type(exc).__name__}: {exc}"
    try:
        rnd = random.Random(0)
        for _ in range(50):
            if g.is_over:
                break
            g.apply(rnd.choice(g.legal_actions()))
    except NotImplementedError as exc:  # anything else is a bug for the fuzzer to report
        return f"engine does not support {ruleset!r} yet: {exc}"
    return None


# ---- scenarios of failures -----------------------------------------------------------------
def scenario_yaml(ruleset: str, players: int, seed: int, mark: Snap | None,
                  log: Sequence[Action], failing: Action, message: str,
                  target: int | None = None) -> str:
    """The failure as a conformance scenario to finish by hand: the last position of the
    round that `start: turn` can express (`mark`), the actions since, the failing action;
    `target`: the smaller target score the game was played to (`with_target`)."""
    played = repr(ruleset) if target is None else f"with_target({ruleset!r}, {target})"
    head = ["# Found by `uno-fsm fuzz`. Reproduce with:",
            f"#   Game.replay({played}, players={players}, seed={seed}, log=[...])"]
    if target is not None:
        head.append(f"#   (played to {target} points, not the ruleset's: scale the totals and "
                    "eliminations of the setup)")
    setup = None if mark is None else turn_setup(mark.state, Facts.of(ruleset).flip)
    since = log if mark is None or setup is None else log[mark.log_len:]
    return draft_yaml(ruleset, seed, setup, players, since, failing, message, head, log, "fuzz")


# ---- the state machine -------------------------------------------------------------------
ROUND_TRIP_EVERY = 25  # actions between two JSON round trips of one game (they cost O(log))
ILLEGAL_PER_STEP = 3  # illegal candidates tried by one `illegal_action` step


PICKS = 8  # listed actions applied by one `play_legal` step, at most
PICK_BITS = 10  # each pick is a number in 0..1023 (`choose`)


def unpack(picks: int, count: int) -> list[int]:
    """`count` picks packed in one integer, PICK_BITS each, lowest first: one Hypothesis draw
    for a whole run of actions (drawing each pick costs more than applying the action);
    shrinking the integer towards 0 shrinks every pick towards the first listed play."""
    mask = (1 << PICK_BITS) - 1
    return [(picks >> (PICK_BITS * k)) & mask for k in range(count)]


def choose(legal: Sequence[Action], i: int) -> Action:
    """A listed action from a drawn integer: mostly a play when there is one (rounds end
    sooner, so scoring and new rounds get exercised), often an UNO call or a catch when a window
    is open, else any listed action."""
    if i % 4 == 2:
        window = [a for a in legal if a.kind in ("uno", "catch")]
        if window:
            return window[(i // 4) % len(window)]
    plays = [a for a in legal if a.kind == "play"]
    if plays and i % 4 != 3:
        return plays[(i // 4) % len(plays)]
    return legal[i % len(legal)]


@functools.lru_cache(maxsize=16)
def with_target(ruleset: str, target: int) -> Params:
    """`ruleset` played to a smaller target score (DESAFIO.ELIMINATE: a smaller amount), so
    that a fuzzed game reaches its end (and its eliminations) within a few hundred actions."""
    raw = dict(Params.of(ruleset).raw)
    raw["scoring"] = {**(raw.get("scoring") or {}), "target": target}
    return from_mapping(ruleset, raw)


def _copy(game: Game) -> Game:
    """An independent copy of the game (a structural state copy; the log left out)."""
    return Game(game.state.copy(), game.params, dict(game.origin))


class UnoMachine(RuleBasedStateMachine):
    """Base class; `make_machine` fixes the ruleset and the player counts.

    The machine keeps `legal`, the legal actions of the current position, computed once after
    each change of the position (every check of a step shares it), and `checked`, whether the
    invariants have been checked since (a refused action changes nothing, which is checked)."""

    ruleset: str = "classic-official"
    facts: Facts
    illegal_kinds: tuple[str, ...] = ILLEGAL_KINDS
    target: int | None = None  # a smaller target score than the ruleset's (`with_target`)

    def played(self) -> str | Params:
        """What `Game.new`, `from_json` and `replay` play: the ruleset, or its parameters with
        the smaller target."""
        return self.ruleset if self.target is None else with_target(self.ruleset, self.target)

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.seed = 0
        self.players = 0
        self.deck: Counter[str] = Counter()
        self.deck_cards: list[Card] = []
        self.wd4_record: Record | None = None  # the challengeable card just played
        self.mark: Snap | None = None  # the last position `start: turn` can express
        self.legal: list[Action] = []
        self.checked = False
        self.tick = 0
        self.round_trip_at = 0

    # -- set-up -------------------------------------------------------------------------
    def _start(self, seed: int, players: int) -> None:
        self.seed, self.players = seed, players
        g = Game.new(self.played(), players=players, seed=seed)
        self._moved(g)
        self.wd4_record = None
        self.mark = None
        self.round_trip_at = 0
        STATS.games += 1
        cards = g.state.all_cards()
        check_deck(self.facts, cards)
        self.deck = Counter(c.text for c in cards)
        check_deal(g, self.facts)
        self.deck_cards = sorted({c.text: c for c in cards}.values(), key=lambda c: c.text)

    def _moved(self, game: Game) -> None:
        """The position changed (or is a new game): list its legal actions once."""
        self.game = game
        self.legal = game.legal_actions()
        self.checked = False

    @property
    def g(self) -> Game:
        assert self.game is not None
        return self.game

    def _fail(self, exc: AssertionError, action: Action, log_len: int) -> FuzzFailure:
        text = scenario_yaml(self.ruleset, self.players, self.seed, self.mark,
                             self.g.log[:log_len], action, str(exc), self.target)
        return FuzzFailure(f"{exc}\n\nConformance scenario (paste and finish):\n{text}")

    # -- acting -------------------------------------------------------------------------
    def apply_legal(self, action: Action) -> list[Event]:
        g = self.g
        before = Snap.of(g)
        if turn_expressible(before.state):
            self.mark = before
        try:
            try:
                events = g.apply(action)
            except IllegalAction as exc:
                raise AssertionError(f"[{exc.rule}] listed action {action} refused: "
                                     f"{exc.code}: {exc.message}") from exc
            self._moved(g)
            postconditions(self.facts, before, action, g, self.wd4_record, self.legal)
            self.wd4_record = next_record(self.wd4_record, before, action, g)
            if action.kind == "next-round":
                self.mark = None  # a scenario starts within one round
            self.check_all()
        except AssertionError as exc:
            if isinstance(exc, FuzzFailure):
                raise
            raise self._fail(exc, action, before.log_len) from exc
        STATS.steps += 1
        STATS.legal += 1
        return events

    def apply_illegal(self, action: Action) -> None:
        g = self.g
        before = g.state.copy()
        log_len = len(g.log)
        err: BaseException | None = None
        try:
            g.apply(action)
        except Exception as exc:  # noqa: BLE001 - anything but IllegalAction is a finding
            err = exc
        try:
            check_rejected(g, action, before, log_len, err)
        except AssertionError as exc:
            raise self._fail(exc, action, log_len) from exc
        finally:
            # the error's traceback holds this frame, whose `err` holds the error: a cycle per
            # refusal left to the garbage collector unless broken here (as in modelcheck.expand)
            err = None
        STATS.steps += 1
        STATS.illegal += 1

    # -- the invariants -----------------------------------------------------------------
    def check_all(self) -> None:
        if self.game is None:
            return
        g = self.game
        check_invariants(g, self.facts, self.deck, self.legal)
        legal = self.legal
        if legal:  # every listed action is accepted: sample one per step on a copy
            self.tick += 1
            a = legal[(self.tick * 7919) % len(legal)]
            try:
                _copy(g).apply(a)
            except IllegalAction as exc:
                raise AssertionError(f"[CL.PLAY.TURN-OPTIONS] listed action {a} refused "
                                     f"({exc.rule}): {exc.code}") from exc
        self.checked = True


def make_machine(ruleset: str, players: int | Sequence[int] = (2, 10),
                 kinds: Sequence[str] = ILLEGAL_KINDS,
                 target: int | None = None) -> type[UnoMachine]:
    """A state machine class for `ruleset`; `players` is a count or an inclusive range (only
    the counts the ruleset is played with are drawn: an even count under `players.even`); `target` a
    smaller target score (elimination amount) than the ruleset's (`with_target`)."""
    lo, hi = (players, players) if isinstance(players, int) else (players[0], players[1])
    facts = Facts.of(ruleset) if target is None else \
        Facts.of(ruleset, with_target(ruleset, target).raw)
    counts = facts.seat_counts(lo, hi)
    if not counts:
        seats = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise ValueError(f"{ruleset} is not played with {seats} players")

    class Machine(UnoMachine):
        @initialize(seed=st.integers(0, 2**32 - 1), players=st.sampled_from(counts))
        def start(self, seed: int, players: int) -> None:
            self._start(seed, players)

        @precondition(lambda self: self.game is not None and not self.game.is_over)
        @rule(count=st.integers(1, PICKS), picks=st.integers(0, 2 ** (PICK_BITS * PICKS) - 1))
        def play_legal(self, count: int, picks: int) -> None:
            """Up to `count` listed actions, chosen by the `picks` packed in one integer."""
            for i in unpack(picks, count):
                if not self.legal:
                    break
                self.apply_legal(choose(self.legal, i))

        @rule(seed=st.integers(0, 2**64 - 1))
        def illegal_action(self, seed: int) -> None:
            """Three candidates drawn from one seed (one Hypothesis draw per rule); each one
            that is not listed is applied (and must be refused, changing nothing, so the
            position and its legal actions stay those of the step)."""
            g = self.g
            listed = set(self.legal)
            rnd = random.Random(seed)
            for _ in range(ILLEGAL_PER_STEP):
                a = illegal_candidate(g, rnd.choice, self.deck_cards, self.illegal_kinds)
                if a not in listed:
                    self.apply_illegal(a)

        @precondition(lambda self: self.game is not None and not self.game.round_over)
        @rule(seat=st.integers(0, 9), wrong=st.integers(0, 2**32 - 1))
        def referee(self, seat: int, wrong: int) -> None:
            """Table penalties (never listed): a hint anytime, to a player in the game
            (DESAFIO.ELIMINATED-OUT), a wrong card by the owner of a play decision (`wrong`
            odd: one of their cards that cannot be played)."""
            g = self.g
            if wrong % 2 == 0:
                out = g.state.eliminated
                seats = [t for t in range(g.state.players) if t not in out]
                self.apply_legal(Action.hint(seats[seat % len(seats)]))
                return
            pend = g.pending
            if pend is None or pend.decision not in ("play", "play-drawn"):
                return
            cur = pend.player
            assert cur is not None
            s = g.state
            top = face_on(s.discard[-1], s.side)
            bad = [c for c in s.hands[cur]
                   if not playable(face_on(c, s.side), s.active_color, top)
                   or (pend.decision == "play-drawn" and c is not s.drawn)]
            if bad:
                self.apply_legal(Action.wrong_card(cur, bad[(wrong // 2) % len(bad)]))

        @precondition(lambda self: self.game is not None
                      and len(self.game.log) >= self.round_trip_at)
        @rule(count=st.integers(0, 4), picks=st.integers(0, 2 ** (PICK_BITS * 4) - 1))
        def json_round_trip(self, count: int, picks: int) -> None:
            """to_json/from_json lose nothing and play on identically."""
            g = self.g
            text = g.to_json()
            h = Game.from_json(text, self.played())
            check(h.state == g.state and h.to_json() == text, "ENGINE.JSON",
                  "the JSON round trip changed the game")
            for i in unpack(picks, count):
                legal = self.legal
                check(legal == h.legal_actions(), "ENGINE.JSON",
                      "legal actions differ after a JSON round trip")
                if not legal:
                    break
                a = choose(legal, i)
                e1 = self.apply_legal(a)
                e2 = h.apply(a)
                check(e1 == e2 and g.state.same(h.state), "ENGINE.JSON",
                      f"after a JSON round trip {a} played differently")
            self.game = h  # go on with the restored game (equal: its legal actions too)
            self.round_trip_at = len(h.log) + ROUND_TRIP_EVERY

        @precondition(lambda self: self.game is not None and self.game.is_over)
        @rule(seed=st.integers(0, 2**32 - 1))
        def new_game(self, seed: int) -> None:
            self._check_replay()
            self._start(seed, self.players)

        @invariant()
        def every_step(self) -> None:
            raise_pending()  # a signal whose exception vanished (uno_spec.signals): acted on
            if not self.checked:
                self.check_all()

        def _check_replay(self) -> None:
            g = self.g
            again = Game.replay(self.played(), self.players, self.seed, g.log)
            check(again.state.same(g.state), "ENGINE.REPLAY",
                  "seed + action log did not reproduce the game")

        def teardown(self) -> None:
            if self.game is not None:
                self._check_replay()

    Machine.ruleset = ruleset
    Machine.facts = facts
    Machine.illegal_kinds = tuple(kinds)
    Machine.target = target
    Machine.__name__ = Machine.__qualname__ = "Uno_" + "".join(
        ch if ch.isalnum() else "_" for ch in f"{ruleset}_{lo}_{hi}")
    return Machine


def run(machine: type[UnoMachine], profile: str | settings = "ci",
        database: str | None = None, seed: int | None = None, **overrides: Any) -> None:
    """Run `machine` as a Hypothesis test; raises on a failure (after shrinking)."""
    base = settings.get_profile(profile) if isinstance(profile, str) else profile
    kw: dict[str, Any] = dict(overrides)
    if database is not None:
        kw["database"] = DirectoryBasedExampleDatabase(database)
    test = get_state_machine_test(machine, settings=settings(base, **kw))
    # one database key per machine (the default key is the same for every state machine)
    test._hypothesis_internal_database_key = (  # type: ignore[attr-defined]
        f"uno-fsm-fuzz:{machine.__name__}".encode())
    if seed is not None:
        test._hypothesis_internal_use_seed = seed  # type: ignore[attr-defined]
    # a signal Hypothesis turned into Flaky (caught mid-bookkeeping), or whose exception
    # vanished, ends the run as Interrupted (uno_spec.signals), not as a failure found
    with surfaced():
        test()


# ---- the two dispatch paths ---------------------------------------------------------------
def outcome(game: Game, action: Action, via_machine: bool) -> tuple[Any, ...]:
    """What applying `action` did: the events, or the error's type, code, rule and message."""
    try:
        events = game.apply_via_machine(action) if via_machine else game.apply(action)
    except IllegalAction as exc:
        return ("error", type(exc).__name__, exc.code, exc.rule, exc.message)
    return ("ok", tuple(events))


def compare_paths(ruleset: str, players: int, seed: int, stream: Iterable[tuple[bool, int]],
                  rnd: random.Random) -> int:
    """Play the same random stream of legal and illegal actions through `Game.apply` and
    `Game.apply_via_machine`; require the same events, errors and states. Returns the number
    of actions compared."""
    fast = Game.new(ruleset, players=players, seed=seed)
    slow = Game.new(ruleset, players=players, seed=seed)
    deck_cards = sorted({c.text: c for c in fast.state.all_cards()}.values(),
                        key=lambda c: c.text)
    done = 0
    for legal_pick, i in stream:
        legal = fast.legal_actions()
        check(legal == slow.legal_actions(), "ENGINE.PATHS",
              "legal actions differ between the paths")
        if legal_pick and legal:
            action = choose(legal, i)
        else:
            action = illegal_candidate(fast, rnd.choice, deck_cards, (*ILLEGAL_KINDS, "swap"))
        a, b = outcome(fast, action, False), outcome(slow, action, True)
        check(a == b, "ENGINE.PATHS",
              f"{action}: Game.apply gave {a}, Game.apply_via_machine gave {b}")
        check(fast.state.same(slow.state), "ENGINE.PATHS",
              f"{action}: the states differ between the paths")
        done += 1
    return done
