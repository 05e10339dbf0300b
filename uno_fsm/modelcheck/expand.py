"""Expanding states: the work every worker does, wherever it runs (docs/model-checking.md).

`Expander.chunk(task)` takes a list of states (their canonical keys) and, for each, runs the
engine itself (`Game.legal_actions`, `Game.apply`: not a second model of the rules) and every
check, one copy of each shared with the fuzzer:

- `check_invariants` (uno_fsm/invariants.py) on the state, with its legal actions;
- every listed action (with `--referee`, the table penalties too) applied, then the
  postconditions of `uno_fsm.oracle` on the facts of the reduced ruleset (`oracle.Facts`);
  a listed action refused, or any other exception, is a violation (`ENGINE.CRASH`);
- `illegal` candidates (`uno_fsm.illegal_actions`, drawn deterministically from the state):
  refused with a coded `IllegalAction`, the state unchanged (`check_rejected`); tried before
  the listed actions, on the state as loaded (their findings reported after the actions');

and returns the canonical keys of the successors with what it found. It knows nothing of
where it runs or of the visited set (uno_fsm/modelcheck/search.py holds that): the same code
runs in process, in local worker processes and on Dask workers (executors.py).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from uno_fsm import oracle
from uno_fsm.actions import Action
from uno_fsm.cards import Card
from uno_fsm.configs import CheckConfig
from uno_fsm.deck import build_deck
from uno_fsm.errors import IllegalAction
from uno_fsm.game import Game
from uno_fsm.illegal_actions import illegal_candidate
from uno_fsm.invariants import check_invariants, check_rejected
from uno_fsm.modelcheck.coverage import Coverage, traced
from uno_fsm.modelcheck.deals import Deal, deal_game, reduced_params
from uno_fsm.modelcheck.encoding import Codec, Frame, ModelRNG, fingerprint, restore
from uno_fsm.phase_table import GAME_OVER, PLAY, PLAY_DRAWN, ROUND_OVER
from uno_fsm.rules import VARIANTS
from uno_fsm.state import State

# flags of an expanded state
EXPANDED = 1  # its actions were explored (not at the depth bound, not over)
GOAL = 2  # a round end (round over or game over)
FORCED = 4  # one listed action only: its successor is the state's forced move
_MASK = (1 << 64) - 1
_ENDED = (ROUND_OVER, GAME_OVER)

# A task: (expand?, [(state index, key)]); a state's result: (flags, [(action index, key)],
# [(kind, message, the action's index in the state's actions or -1, the action or None)])
Task = tuple[bool, list[tuple[int, bytes]]]
Found = tuple[str, str, int, "Action | None"]
StateResult = tuple[int, list[tuple[int, bytes]], list[Found]]


@dataclass
class ChunkResult:
    """What one chunk of states gave: per state, in the order given; the coverage and the
    checks made; the CPU time it took."""

    states: list[StateResult]
    edges: Counter[str] = field(default_factory=Counter)
    guards: Counter[tuple[str, str, bool]] = field(default_factory=Counter)
    checks: Counter[str] = field(default_factory=Counter)
    cpu: float = 0.0


def _picker(seed: int) -> Callable[[Any], Any]:
    """A deterministic choice from a sequence (a 64-bit LCG seeded per state): the illegal
    candidates of a state are the same wherever and whenever it is expanded. (A closure: a
    call costs less than an instance's `__call__`.)"""
    h = seed

    def pick(seq: Any) -> Any:
        nonlocal h
        h = (h * 6364136223846793005 + 1442695040888963407) & _MASK
        return seq[(h >> 33) % len(seq)]

    return pick


def _among(a: Action, legal: list[Action]) -> bool:
    """`a in legal`, the kinds compared first: an action equals only actions of its kind, so
    the dataclass's `__eq__` (Python code) is called for those alone."""
    kind = a.kind
    for x in legal:
        if x.kind == kind and x == a:
            return True
    return False


def symmetries(params: Any) -> tuple[bool, bool]:
    """(colour symmetry, seat symmetry) of a ruleset. Colours: declared by every variant it
    plays (`Variant.colour_symmetric`). Seats: never, although every shipped rule treats the
    seats alike: the next hand's dealer is drawn in seat order (CL.DEALER.EACH-HAND,
    CL.DEALER.HIGHEST) or at random (CL22.DEALER.RANDOM), and a resolved draw gives the same
    seat to every rotation of a state, so merging rotations would not give the quotient of the
    exploration (docs/model-checking.md, "Symmetry"; 3 players show it).

    Without `--no-symmetry` the visited set merges the states of an orbit; with it, it does
    not, but the shuffles are still resolved in the canonical frame of each state, so that
    both explorations resolve them alike (the reduced one is the quotient of the other)."""
    played = [v for v in VARIANTS if v.enabled(params)]
    return all(v.colour_symmetric for v in played), False


class Expander:
    """The expansion of one configuration's states, with one working game reused for every
    action (its state restored in place between them)."""

    def __init__(self, config: CheckConfig) -> None:
        self.c = config
        self.params = params = reduced_params(config.ruleset, config.deck, config.hand,
                                              config.target)
        self.facts = oracle.Facts.of(config.ruleset, params.raw)
        self.cards: list[Card] = build_deck(params)
        self.deck = Counter(c.text for c in self.cards)
        self.kinds = sorted({c.text: c for c in self.cards}.values(), key=lambda c: c.text)
        colours, seats = symmetries(params)
        self.codec = Codec(self.cards, config.players, params.colors, params.dark_colors,
                           colours, seats, params.ruleset)
        self.reduce = config.symmetry
        self.seed = (config.seed * 0x9E3779B97F4A7C15) & _MASK
        self.rng = ModelRNG().salted(config.seed)
        n = config.players
        self.st = State(ruleset=params.ruleset, players=n, hands=[[] for _ in range(n)],
                        draw=[], discard=[], active_color=None, scores=[0] * n, rng=self.rng)
        self.coverage = Coverage()
        self._trace = traced(self.coverage)
        self._trace.__enter__()
        # made once the table is wrapped: a game walks the table of when it was made
        try:
            self.game = Game(self.st, params, {"check": config.ruleset})
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Restore the engine's dispatch table (the coverage wrapping)."""
        if self._trace is not None:
            self._trace.__exit__(None, None, None)
            self._trace = None  # type: ignore[assignment]

    # ---- deals -------------------------------------------------------------------------------
    def deal(self, deal: Deal) -> tuple[Game | None, bytes | None, bool]:
        """(the dealt game, its key, whether the deal is the representative of its orbit):
        None for a deal the reduction leaves to another of its orbit, or for a deal no hand
        can start from (CL.FIRST.UNRESOLVABLE: `UnresolvableSetup` propagates)."""
        hands, draw = deal
        n = self.c.players
        codec = self.codec
        pre = State(ruleset=self.params.ruleset, players=n, hands=[list(h) for h in hands],
                    draw=list(draw)[::-1], discard=[], active_color=None, scores=[0] * n,
                    dealer=n - 1, phase="dealing")
        key0, fr, _ = codec.canonical(pre, None)
        if self.reduce and codec.encode(pre, None, codec.identity, 0) != key0:
            return None, None, False
        rng = ModelRNG().salted(self.c.seed)
        rng.begin(fingerprint(key0) ^ self.seed, fr.card_id)
        g = deal_game(self.params, n, hands, draw, rng)
        return g, self.key_of(g.state, None), True

    def key_of(self, st: State, record: Any) -> bytes:
        return self.codec.key(st, record, self.reduce)

    def frame_of(self, st: State, record: Any) -> tuple[bytes, Frame, int, int, dict[Card, int]]:
        """(the key of `st`, the frame and rotation that map `st` to the state the key
        decodes to, the seed of its shuffles and their card order in `st`'s own frame)."""
        codec = self.codec
        ckey, fr, rot = codec.canonical(st, record)
        base = fingerprint(ckey) ^ self.seed
        if self.reduce:
            return ckey, fr, rot, base, fr.card_id
        return codec.encode(st, record, codec.identity, 0), codec.identity, 0, base, fr.card_id

    # ---- states ------------------------------------------------------------------------------
    def load(self, key: bytes) -> tuple[State, Any, int, dict[Card, int]]:
        """The state of `key` (a snapshot: never changed), its record, and the seed and card
        order of its shuffles; the working game set to it."""
        before, record = self.codec.decode(key, self.rng)
        if self.reduce:
            base, order = fingerprint(key), self.codec.identity.card_id
        else:  # the shuffles of the orbit's representative, seen from this state
            ckey, fr, _ = self.codec.canonical(before, record)
            base, order = fingerprint(ckey), fr.card_id
        base ^= self.seed
        self.rng.begin(base, order)
        restore(self.st, before)
        self.game._rules.changed()
        self.game.log = []
        return before, record, base, order

    def chunk(self, task: Task) -> ChunkResult:
        expand, items = task
        cpu = time.process_time()
        stats = oracle.STATS
        stats.checked = Counter()
        cov = self.coverage
        cov.clear()
        states = [self.expand(key, expand) for _, key in items]
        cov.flush()
        return ChunkResult(states, Counter(cov.edges), Counter(cov.guards), stats.checked,
                           time.process_time() - cpu)

    def expand(self, key: bytes, expand: bool) -> StateResult:
        """Check the state of `key` and, when `expand`, every transition from it."""
        before, record, base, order = self.load(key)
        g = self.game
        st = self.st
        r = g._rules
        rng = self.rng
        legal = g.legal_actions()
        try:
            check_invariants(g, self.facts, self.deck, legal)
        except AssertionError as exc:
            return (0, [], [("invariant", str(exc), -1, None)])
        phase = st.phase
        flags = GOAL if phase in _ENDED else 0
        if phase == GAME_OVER or not expand:
            return (flags, [], [])
        flags |= EXPANDED
        listed, playable = r.listed, r.turn_playable
        pend = g.pending
        snap = oracle.Snap(before, None if pend is None else pend.decision,
                           None if pend is None else pend.player, 0)
        acts = legal if not self.c.referee else [*legal, *self._referee(g)]
        succs: list[tuple[int, bytes]] = []
        viols: list[Found] = []
        postconditions = oracle.postconditions
        next_record = oracle.next_record
        facts = self.facts
        codec = self.codec
        reduce = self.reduce
        # the illegal candidates first, on the state as loaded: each refusal is checked to
        # leave it unchanged (`check_rejected`: every field, the log, no draw from the
        # generator), so the first listed action needs no restore unless one was not; their
        # findings are reported after the transitions', as before
        refused: list[Found] = []
        if self.c.illegal:
            self._illegal(key, g, legal, before, base, order, refused)
        dirty = bool(refused)
        for k, a in enumerate(acts):
            if dirty:
                restore(st, before)
                g.log = []
            dirty = True
            r.listed, r.turn_playable = listed, playable
            rng.begin(base, order)
            try:
                try:
                    g.apply(a)
                except IllegalAction as exc:
                    raise AssertionError(f"[{exc.rule}] listed action {a} refused: "
                                         f"{exc.code}: {exc.message}") from exc
                except Exception as exc:  # noqa: BLE001 - an engine crash is a finding
                    raise AssertionError(f"[ENGINE.CRASH] listed action {a} raised "
                                         f"{type(exc).__name__}: {exc}") from exc
                postconditions(facts, snap, a, g, record)
                nxt = next_record(record, snap, a, g)
            except AssertionError as exc:
                viols.append(("transition", str(exc), k, a))
                continue
            try:
                succs.append((k, codec.key(st, nxt, reduce)))
            except (KeyError, ValueError, TypeError, IndexError) as exc:
                viols.append(("transition", f"[ENGINE.STATE] after {a} the state has a field "
                              f"no game can hold ({type(exc).__name__}: {exc})", k, a))
        if len(legal) == 1:
            flags |= FORCED
        viols += refused
        return (flags, succs, viols)

    def _referee(self, g: Game) -> list[Action]:
        """CL.PEN.HINT-ANYTIME: a hint to each player in the game (DESAFIO.ELIMINATED-OUT: not
        the eliminated); CL.PEN.WRONG-CARD: the turn owner plays the first card of their hand
        that does not match (one per state: they all draw the same penalty)."""
        st = g.state
        if g.round_over:
            return []
        out = [Action.hint(t) for t in range(st.players) if t not in st.eliminated]
        if st.phase in (PLAY, PLAY_DRAWN):
            ok = set(g._rules.playable(st.hands[st.current]))
            bad = [cd for cd in st.hands[st.current]
                   if cd not in ok or (st.phase == PLAY_DRAWN and cd is not st.drawn)]
            if bad:
                out.append(Action.wrong_card(st.current, bad[0]))
        return out

    def _illegal(self, key: bytes, g: Game, legal: list[Action], before: State, base: int,
                 order: dict[Card, int], viols: list[Found]) -> None:
        # the fingerprint of `key`: `load` gave it as the shuffles' seed when reducing
        pick = _picker(base ^ self.seed if self.reduce else fingerprint(key))
        for _ in range(self.c.illegal):
            a = illegal_candidate(g, pick, self.kinds)
            if _among(a, legal):
                continue
            self.rng.begin(base, order)
            err: BaseException | None = None
            try:
                g.apply(a)
            except Exception as exc:  # noqa: BLE001 - anything but IllegalAction is a finding
                err = exc
            try:
                check_rejected(g, a, before, 0, err)  # (`before` shares the working RNG)
                if not self.rng.fresh:
                    raise AssertionError(f"[{getattr(err, 'rule', 'CL.PLAY.ILLEGAL-REJECTED')}] "
                                         f"{a} was refused but drew from the shuffles' "
                                         "generator (the state changed)")
            except AssertionError as exc:
                viols.append(("illegal", str(exc), -1, a))
                return
            finally:
                # the error's traceback holds this frame, whose `err` held the error: a cycle
                # per refusal, left to the garbage collector unless broken here
                err = None


# ---- out of process: one expander per configuration and worker process --------------------
_EXPANDERS: dict[CheckConfig, Expander] = {}


def run_chunk(config: CheckConfig, task: Task) -> ChunkResult:
    """A chunk expanded in a worker process (local or on a cluster): the expander of
    `config`, made once per process."""
    ex = _EXPANDERS.get(config)
    if ex is None:
        ex = _EXPANDERS[config] = Expander(config)
    return ex.chunk(task)
