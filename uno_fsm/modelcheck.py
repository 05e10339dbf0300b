"""Bounded model checking of the reference engine (docs/model-checking.md).

`explore(config)` enumerates every distinct initial deal of a reduced deck, then walks every
state the engine reaches from them, breadth first, through every action `legal_actions()`
lists (every colour, UNO call, catch, challenge, accept, swap, next round). It runs the engine
itself (`Game.apply`), not a second model of the rules, and in every reachable state checks:

- the fuzzer's invariants and per-action postconditions (`uno_fsm.invariants`,
  `uno_fsm.oracle.postconditions`: one copy, shared with the fuzzer), on the ruleset's facts
  read from the reduced params (`oracle.Facts`);
- every listed action accepted, and illegal candidates refused with the state unchanged;
- over the graph: no state without a legal action unless the game is over; from every state a
  round end is reachable (backward reachability); no cycle of forced moves (states with a
  single legal action).

A reduced deck is a set of parameters of the ruleset's own `deck` (`--deck`), never a second
deck definition. Each violation comes with the shortest path from an initial deal (breadth
first) printed as a conformance scenario (`uno_fsm.export.draft_yaml`). The phase machine's
edges and guard outcomes reached are counted (`Coverage`) by wrapping the dispatch table that
`Game.apply` walks.

Reductions (docs/model-checking.md says what each one costs):
- seat symmetry: the rules do not depend on absolute seat numbers, so the initial deals are
  enumerated with the dealer fixed at the last seat (every other dealer is a rotation);
- shuffles after the deal (reshuffles of the discard pile, a Wild Draw Four turned first,
  Wild Shuffle Hands, the dealer draw and deal of a next round) are not enumerated: they come
  from the game's seeded RNG (`--seed`), so each is one sample;
- the visited set holds a 128-bit hash of a canonical key that leaves out the RNG, the round
  counter and the order of cards within a hand (and, for classic, under the top discard).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import resource
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from uno_fsm import game as game_module
from uno_fsm import oracle
from uno_fsm.actions import Action
from uno_fsm.cards import Card
from uno_fsm.configs import DECK_2022, FLIP_DECK, ONE_COLOUR, CheckConfig
from uno_fsm.deck import build_deck
from uno_fsm.dispatch import EVENTLESS, TABLE
from uno_fsm.errors import IllegalAction, UnresolvableSetup
from uno_fsm.export import draft_yaml, round_setup, turn_expressible, turn_setup
from uno_fsm.game import Game
from uno_fsm.illegal_actions import illegal_candidate
from uno_fsm.invariants import check_invariants, check_rejected
from uno_fsm.params import Params, from_mapping
from uno_fsm.rules import VARIANTS
from uno_fsm.state import State


class ConfigError(ValueError):
    """A configuration the checker cannot run (bad deck spec, too many deals...)."""


# ---- configurations -------------------------------------------------------------------------
Config = CheckConfig  # one bounded configuration (uno_fsm.configs)


# The base rulesets' configurations; each variant declares its own (`Variant.checks`,
# uno_fsm/rules/). Small enough to finish in a few seconds each (tests/test_modelcheck.py runs
# them all); `LONG` are larger ones.
BASE_CONFIGS = (
    Config("classic-official", 2, ONE_COLOUR, hand=2, target=100, depth=5),
    Config("classic-2022", 2, DECK_2022, hand=1, depth=5),
    Config("flip", 2, FLIP_DECK, hand=2, target=100, depth=4),
    # GUIDE.FIRST.*: every first card but the Wilds stands with no effect (one hand: no target)
    Config("classic-guide", 2, ONE_COLOUR, hand=1, depth=5),
    # the table penalties (`--referee`), a shallower bound (each hint grows a hand); two
    # colours, so that a card can fail to match (CL.PEN.WRONG-CARD)
    Config("classic-official", 2, "colors=red,yellow;numbers=1;actions=skip;wilds=wild,wd4",
           hand=2, target=100, depth=3, referee=True),
)
CI_CONFIGS: tuple[Config, ...] = (*BASE_CONFIGS, *(c for v in VARIANTS for c in v.checks))
# `uno-fsm check --ruleset R` without --deck: the first configuration of R without the table
# penalties (`--referee` adds them to it)
BUNDLED: dict[str, Config] = {}
for _c in CI_CONFIGS:
    if not _c.referee:
        BUNDLED.setdefault(_c.ruleset, _c)

# Phase edges and guard outcomes no shipped ruleset can reach, and why (the CI configurations
# reach every other one: tests/test_modelcheck.py)
_WINDOW = "the catch window closes at the next action (CL.UNO.WINDOW, RUL.UNO.WINDOW-END)"
UNREACHABLE: dict[str, str] = {
    "play_drawn --play_card [goes_out]--> round_over":
        "a drawn card is played from a hand of two or more (a player without cards is out)",
    "play_drawn --call_uno--> play_drawn": _WINDOW + ", and drawing is one",
    "play_drawn --catch--> play_drawn": _WINDOW + ", and drawing is one",
    "choose_color --call_uno--> choose_color":
        "the first card's colour is chosen right after a deal, when no window is open",
    "choose_color --catch--> choose_color":
        "the first card's colour is chosen right after a deal, when no window is open",
    "play_drawn --play_card [goes_out]--> round_over/goes_out=True":
        "a drawn card is played from a hand of two or more (a player without cards is out)",
}


def missing_labels(cov: Coverage) -> list[str]:
    """The edges and guard outcomes (`edge/guard=value`) `cov` has not seen."""
    edges, guards = cov.missing()
    return [*edges, *(f"{e}/{g}={v}" for e, g, v in guards)]
LONG: dict[str, Config] = {
    "classic-official": replace(BUNDLED["classic-official"], depth=8, max_states=500_000),
}


def parse_deck_spec(spec: str) -> dict[str, Any]:
    """`key=item,item;key=...`: each key a path under the ruleset's `deck` (`colors`,
    `numbers`, `light.actions`...), each item a name optionally with `:copies` (default 1).
    Keys not named keep the ruleset's values."""
    out: dict[str, Any] = {}
    for part in (p.strip() for p in spec.split(";")):
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"--deck: {part!r} is not key=items")
        items: dict[str, int] = {}
        for item in (i.strip() for i in value.split(",")):
            if not item:
                continue
            name, colon, copies = item.partition(":")
            try:
                n = int(copies) if colon else 1
            except ValueError:
                raise ConfigError(f"--deck: {item!r}: copies must be a whole number") from None
            if n < 1:
                raise ConfigError(f"--deck: {item!r}: copies must be at least 1")
            items[name.strip()] = n
        out[key.strip()] = items
    return out


def _same_key(options: Mapping[Any, Any], name: str) -> Any:
    for k in options:
        if str(k) == name:
            return k
    return None


def _plain(node: Any) -> Any:
    """A mutable deep copy of a (read-only) parameters tree."""
    if isinstance(node, Mapping):
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list | tuple):
        return [_plain(v) for v in node]
    return node


def reduced_params(ruleset: str, deck_spec: str, hand: int, target: int | None) -> Params:
    """The ruleset's parameters with its deck cut down to `deck_spec` (a sub-deck of its own:
    only names and at most the copies the ruleset's deck has), `hand` cards dealt and
    `target` points to win (CL.SCORE.TARGET; None keeps the ruleset's)."""
    base = Params.of(ruleset)
    raw = _plain(base.raw)
    deck = raw.setdefault("deck", {})
    for path, items in parse_deck_spec(deck_spec).items():
        node = deck
        *parents, leaf = path.split(".")
        for p in parents:
            node = node.get(p) if isinstance(node, dict) else None
            if not isinstance(node, dict):
                raise ConfigError(f"--deck: {path!r}: the {ruleset} deck has no {p!r}")
        own = node.get(leaf)
        if own is None:
            raise ConfigError(f"--deck: {path!r}: the {ruleset} deck has no {leaf!r}")
        if isinstance(own, list):  # colours: a subset, in the ruleset's order
            unknown = [n for n in items if n not in own]
            if unknown:
                raise ConfigError(f"--deck: {path}: {', '.join(unknown)} not in {own}")
            node[leaf] = [c for c in own if c in items]
            continue
        cut: dict[Any, int] = {}
        for name, n in items.items():
            k = _same_key(own, name)
            if k is None:
                raise ConfigError(f"--deck: {path}: {name!r} is not one of "
                                  f"{', '.join(str(x) for x in own)}")
            if n > int(own[k]):
                raise ConfigError(f"--deck: {path}: {n} copies of {name}, the {ruleset} deck "
                                  f"has {own[k]}")
            cut[k] = n
        node[leaf] = cut
    raw["hand_size"] = hand
    if target is not None and (raw.get("scoring") or {}).get("target") is not None:
        raw["scoring"] = {**raw["scoring"], "target": target}
    return from_mapping(base.ruleset, raw)


# ---- initial deals --------------------------------------------------------------------------
def _combos(pool: Counter[Card], k: int) -> Iterator[tuple[Card, ...]]:
    """Distinct sub-multisets of `pool` of size k."""
    kinds = sorted(pool, key=lambda c: c.text)

    def rec(i: int, left: int) -> Iterator[tuple[Card, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(kinds):
            return
        c = kinds[i]
        for take in range(min(pool[c], left), -1, -1):
            for rest in rec(i + 1, left - take):
                yield (c,) * take + rest

    yield from rec(0, k)


def _perms(pool: Counter[Card]) -> Iterator[tuple[Card, ...]]:
    """Distinct orderings of the multiset `pool`."""
    if not +pool:
        yield ()
        return
    for c in sorted(+pool, key=lambda c: c.text):
        pool[c] -= 1
        for rest in _perms(pool):
            yield (c, *rest)
        pool[c] += 1


def count_deals(cards: Sequence[Card], players: int, hand: int, limit: int) -> int:
    """How many distinct deals `deals` yields, counted up to `limit` + 1 (their number grows
    like a factorial: a full deck has far more than can be counted one by one)."""
    return sum(1 for _ in itertools.islice(deals(cards, players, hand), limit + 1))


def deals(cards: Sequence[Card], players: int, hand: int
          ) -> Iterator[tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]]:
    """Every distinct deal: (hand of each seat, draw pile top first)."""
    def rec(seat: int, pool: Counter[Card], hands: tuple[tuple[Card, ...], ...]
            ) -> Iterator[tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]]:
        if seat == players:
            for order in _perms(Counter(pool)):
                yield hands, order
            return
        for h in _combos(pool, hand):
            left = pool - Counter(h)
            yield from rec(seat + 1, left, (*hands, h))

    yield from rec(0, Counter(cards), ())


class _DealtAsGiven(random.Random):
    """An RNG whose first shuffle leaves the list as it is (the deck is already in the order
    of the deal being enumerated); every later shuffle is the seeded one."""

    dealt = False

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        if not self.dealt:
            self.dealt = True
            return
        super().shuffle(x)


def deal_game(params: Params, players: int, hands: Sequence[Sequence[Card]],
              draw: Sequence[Card], seed: int) -> Game:
    """The game the engine starts from this deal: the dealer at the last seat, the deck in the
    order that deals `hands` one card at a time from the dealer's left, then `draw` (top
    first; its first card is turned first). The engine's own `start_round` deals it."""
    dealer = players - 1
    top_first: list[Card] = []
    for r in range(params.hand_size):
        for i in range(1, players + 1):
            top_first.append(hands[(dealer + i) % players][r])
    top_first.extend(draw)
    rng = _DealtAsGiven(seed)
    st = State(ruleset=params.ruleset, players=players, hands=[[] for _ in range(players)],
               draw=top_first[::-1], discard=[], active_color=None, scores=[0] * players,
               rng=rng)
    g = Game(st, params, {"deal": True})
    g._rules.start_round(dealer)
    g._settle()
    g._rules.events = []
    plain = random.Random()
    plain.setstate(rng.getstate())
    st.rng = plain
    return g


# ---- states ---------------------------------------------------------------------------------
def clone(g: Game) -> Game:
    """An independent copy of the game (its log left out)."""
    return Game(g.state.copy(), g.params, g.origin)


def state_key(st: State, record: Any, flip: bool) -> bytes:
    """A 128-bit hash of the canonical key: everything the rules read, without the RNG, the
    round counter, the order within hands and (classic) the order under the top discard."""
    under = tuple(sorted(c.text for c in st.discard[:-1]))
    discard: Any = tuple(c.text for c in st.discard) if flip else (
        st.discard[-1].text if st.discard else None, under)
    key = (st.phase, st.current, st.direction, st.dealer, st.side, st.active_color,
           None if st.drawn is None else st.drawn.text, st.uno_window, st.challenge_by,
           st.challenge_legal, st.stack, st.first_color, tuple(st.scores), st.round_winner,
           st.winner, tuple(st.winners),
           tuple(sorted((k, v[0], tuple(v[1])) for k, v in st.shown.items())),
           tuple(tuple(sorted(c.text for c in h)) for h in st.hands),
           tuple(c.text for c in st.draw), discard, record)
    return hashlib.blake2b(repr(key).encode(), digest_size=16).digest()


# ---- coverage of the phase machine ----------------------------------------------------------
def edge_label(source: str, event: str, conds: Sequence[str], target: str) -> str:
    guard = f" [{' and '.join(conds)}]" if conds else ""
    return f"{source} --{event or '(auto)'}{guard}--> {target}"


def all_edges() -> list[tuple[str, tuple[str, ...]]]:
    """Every TurnPhases edge (label, its guards), from the derived table."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for events in TABLE.values():
        for edges in events.values():
            out.extend((edge_label(e.source, e.event, e.conds, e.target), e.conds)
                       for e in edges)
    for edges in EVENTLESS.values():
        out.extend((edge_label(e.source, e.event, e.conds, e.target), e.conds) for e in edges)
    return out


@dataclass
class Coverage:
    """Edges taken and guard outcomes seen (edge label, guard name, result)."""

    edges: Counter[str] = field(default_factory=Counter)
    guards: Counter[tuple[str, str, bool]] = field(default_factory=Counter)

    def merge(self, other: Coverage) -> None:
        self.edges.update(other.edges)
        self.guards.update(other.guards)

    def missing(self) -> tuple[list[str], list[tuple[str, str, bool]]]:
        edges, guards = [], []
        for label, conds in all_edges():
            if not self.edges[label]:
                edges.append(label)
            for g in conds:
                for value in (True, False):
                    if not self.guards[(label, g, value)]:
                        guards.append((label, g, value))
        return edges, guards

    def totals(self) -> dict[str, int]:
        every = all_edges()
        miss_e, miss_g = self.missing()
        n_guards = sum(2 * len(c) for _, c in every)
        return {"edges": len(every), "edges_covered": len(every) - len(miss_e),
                "guard_outcomes": n_guards, "guard_outcomes_covered": n_guards - len(miss_g)}


@contextmanager
def traced(cov: Coverage) -> Iterator[None]:
    """Wrap the dispatch table `Game.apply` walks so every guard result and every edge taken
    is counted; restored on exit. (The table may hold injected effects: it is wrapped as is.)"""
    old_table, old_eventless = game_module._TABLE, game_module._EVENTLESS

    def wrap(edges: Sequence[Any], specs: Sequence[Any]) -> tuple[Any, ...]:
        out = []
        for (guards, target, effects), e in zip(edges, specs, strict=True):
            label = edge_label(e.source, e.event, e.conds, e.target)

            def guard(g: Callable[..., bool], name: str, label: str = label
                      ) -> Callable[..., bool]:
                def check(r: Any, a: Any) -> bool:
                    value = bool(g(r, a))
                    cov.guards[(label, name, value)] += 1
                    return value
                return check

            def taken(r: Any, a: Any, label: str = label) -> None:
                cov.edges[label] += 1

            out.append((tuple(guard(g, n) for g, n in zip(guards, e.conds, strict=True)),
                        target, (*effects, taken)))
        return tuple(out)

    game_module._TABLE = {p: {ev: wrap(edges, TABLE[p][ev]) for ev, edges in evs.items()}
                          for p, evs in old_table.items()}
    game_module._EVENTLESS = {p: wrap(edges, EVENTLESS[p]) for p, edges in old_eventless.items()}
    try:
        yield
    finally:
        game_module._TABLE, game_module._EVENTLESS = old_table, old_eventless


# ---- exploration ----------------------------------------------------------------------------
@dataclass
class Violation:
    rule: str
    message: str
    kind: str  # invariant | transition | illegal | deadlock | no-round-end | forced-cycle
    path: list[Action]  # from the initial deal to the state where it shows
    action: Action | None  # the failing action (None: a property of the state)
    deal: int  # index of the initial deal
    scenario: str = ""


@dataclass
class Result:
    config: Config
    target: int | None = None  # the target score played (None: one hand)
    deals: int = 0
    deals_refused: int = 0
    states: int = 0
    transitions: int = 0
    depth: int = 0
    frontier: int = 0  # states left unexpanded by --depth / --max-states
    truncated: bool = False
    seconds: float = 0.0
    memory_mb: float = 0.0
    checks: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)
    violation_count: int = 0
    coverage: Coverage = field(default_factory=Coverage)

    def to_dict(self) -> dict[str, Any]:
        c = self.config
        return {
            "ruleset": c.ruleset, "players": c.players, "deck": c.deck, "hand": c.hand,
            "target": self.target, "referee": c.referee, "depth_bound": c.depth,
            "max_states": c.max_states,
            "seed": c.seed, "deals": self.deals, "deals_refused": self.deals_refused,
            "states": self.states, "transitions": self.transitions, "depth": self.depth,
            "frontier": self.frontier, "complete": not self.truncated and not self.frontier,
            "seconds": round(self.seconds, 3),
            "states_per_second": round(self.states / self.seconds) if self.seconds else 0,
            "memory_mb": round(self.memory_mb, 1),
            "violations": self.violation_count,
            "counterexamples": [{"rule": v.rule, "kind": v.kind, "message": v.message,
                                 "steps": len(v.path) + (v.action is not None),
                                 "scenario": v.scenario} for v in self.violations],
            "coverage": self.coverage.totals(),
        }


def _rule_of(message: str) -> str:
    if message.startswith("[") and "]" in message:
        return message[1:message.index("]")]
    return "ENGINE.CHECK"


class Explorer:
    """Breadth-first exploration of the deals `indices` (all when None)."""

    def __init__(self, config: Config, indices: set[int] | None = None,
                 max_violations: int = 5) -> None:
        self.c = config
        self.params = reduced_params(config.ruleset, config.deck, config.hand, config.target)
        self.flip = self.params.game == "flip"
        self.facts = oracle.Facts.of(config.ruleset, self.params.raw)
        self.target = self.params.target  # None: one hand
        self.cards = build_deck(self.params)
        self.deck = Counter(c.text for c in self.cards)
        self.indices = indices
        self.max_violations = max_violations
        self.result = Result(config, self.params.target)
        # per state: parent index, action from it, depth, root deal
        self.parent: list[int] = []
        self.via: list[Action | None] = []
        self.level: list[int] = []
        self.root: list[int] = []
        self.expanded: list[bool] = []
        self.goal: list[bool] = []
        self.forced: dict[int, int] = {}
        self.src: list[int] = []
        self.dst: list[int] = []
        self.deal_of: dict[int, tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]] = {}

    # -- helpers ----------------------------------------------------------------------------
    def path(self, i: int) -> list[Action]:
        out: list[Action] = []
        while self.parent[i] >= 0:
            a = self.via[i]
            assert a is not None
            out.append(a)
            i = self.parent[i]
        return out[::-1]

    def violate(self, kind: str, message: str, state: int, action: Action | None) -> None:
        r = self.result
        r.violation_count += 1
        rule = _rule_of(message)
        if len(r.violations) < self.max_violations and all(
                (v.rule, v.kind) != (rule, kind) for v in r.violations):
            r.violations.append(Violation(rule, message, kind, self.path(state), action,
                                          self.root[state]))

    def _add(self, g: Game, record: Any, parent: int, action: Action | None, depth: int,
             root: int, seen: dict[bytes, int], queue: deque[tuple[int, Game, Any]]) -> int:
        k = state_key(g.state, record, self.flip)
        got = seen.get(k)
        if got is not None:
            return got
        i = len(self.parent)
        seen[k] = i
        self.parent.append(parent)
        self.via.append(action)
        self.level.append(depth)
        self.root.append(root)
        self.expanded.append(False)
        self.goal.append(g.state.phase in ("round_over", "game_over"))
        if len(seen) > self.c.max_states:
            self.result.truncated = True
        else:
            queue.append((i, g, record))
        return i

    # -- the search -------------------------------------------------------------------------
    def run(self) -> Result:
        c, r = self.c, self.result
        start = time.monotonic()
        oracle.STATS.reset()
        seen: dict[bytes, int] = {}
        queue: deque[tuple[int, Game, Any]] = deque()
        with traced(r.coverage):
            for n, (hands, draw) in enumerate(deals(self.cards, c.players, c.hand)):
                if self.indices is not None and n not in self.indices:
                    continue
                r.deals += 1
                try:
                    g = deal_game(self.params, c.players, hands, draw, c.seed)
                except UnresolvableSetup:
                    r.deals_refused += 1  # CL.FIRST.UNRESOLVABLE: no first card can stand
                    continue
                i = self._add(g, None, -1, None, 0, n, seen, queue)
                self.deal_of.setdefault(n, (hands, draw))
                if i == len(self.parent) - 1:
                    self._check_deal(g, i)
            while queue:
                i, g, record = queue.popleft()
                self._expand(i, g, record, seen, queue)
        r.states = len(self.parent)
        r.depth = max(self.level, default=0)
        r.frontier = sum(1 for e, gl in zip(self.expanded, self.goal, strict=True)
                         if not e and not gl)
        self._graph()
        r.checks = Counter(oracle.STATS.checked)
        r.seconds = time.monotonic() - start
        r.memory_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        for v in r.violations:
            v.scenario = self.scenario(v)
        return r

    def _check_deal(self, g: Game, i: int) -> None:
        try:
            oracle.check_deal(g, self.facts)
        except AssertionError as exc:
            self.violate("invariant", str(exc), i, None)

    def _expand(self, i: int, g: Game, record: Any, seen: dict[bytes, int],
                queue: deque[tuple[int, Game, Any]]) -> None:
        c, r = self.c, self.result
        legal = g.legal_actions()
        try:
            check_invariants(g, self.facts, self.deck, legal)
        except AssertionError as exc:
            self.violate("invariant", str(exc), i, None)
            return
        if g.is_over:
            return
        depth = self.level[i]
        if c.depth is not None and depth >= c.depth:
            return  # the bound: checked, not expanded
        self.expanded[i] = True
        before = oracle.Snap.of(g)
        for a in (*legal, *(self._referee(g) if c.referee else ())):
            h = clone(g)
            try:
                try:
                    h.apply(a)
                except IllegalAction as exc:
                    raise AssertionError(f"[{exc.rule}] listed action {a} refused: "
                                         f"{exc.code}: {exc.message}") from exc
                except Exception as exc:  # noqa: BLE001 - an engine crash is a finding
                    raise AssertionError(f"[ENGINE.CRASH] listed action {a} raised "
                                         f"{type(exc).__name__}: {exc}") from exc
                oracle.postconditions(self.facts, before, a, h, record)
                nxt = oracle.next_record(record, before, a, h)
            except AssertionError as exc:
                self.violate("transition", str(exc), i, a)
                continue
            j = self._add(h, nxt, i, a, depth + 1, self.root[i], seen, queue)
            r.transitions += 1
            self.src.append(i)
            self.dst.append(j)
            if len(legal) == 1 and a is legal[0]:  # a forced move: the only listed action
                self.forced[i] = j
        self._illegal(i, g, set(legal))

    def _referee(self, g: Game) -> list[Action]:
        """CL.PEN.HINT-ANYTIME: a hint to each player in the game (DESAFIO.ELIMINATED-OUT: not
        the eliminated); CL.PEN.WRONG-CARD: the turn owner plays
        the first card of their hand that does not match (one per state: they all draw the same
        penalty)."""
        st = g.state
        if g.round_over:
            return []
        out = [Action.hint(t) for t in range(st.players) if t not in st.eliminated]
        if st.phase in ("play", "play_drawn"):
            ok = set(g._rules.playable(st.hands[st.current]))
            bad = [cd for cd in st.hands[st.current]
                   if cd not in ok or (st.phase == "play_drawn" and cd is not st.drawn)]
            if bad:
                out.append(Action.wrong_card(st.current, bad[0]))
        return out

    def _illegal(self, i: int, g: Game, listed: set[Action]) -> None:
        rnd = random.Random(i)
        cards = sorted({cd.text: cd for cd in self.cards}.values(), key=lambda cd: cd.text)
        for _ in range(self.c.illegal):
            a = illegal_candidate(g, rnd.choice, cards)
            if a in listed:
                continue
            before = g.state.copy()
            err: BaseException | None = None
            try:
                g.apply(a)
            except Exception as exc:  # noqa: BLE001 - anything but IllegalAction is a finding
                err = exc
            try:
                check_rejected(g, a, before, len(g.log), err)
            except AssertionError as exc:
                self.violate("illegal", str(exc), i, a)
                return

    # -- properties over the graph ----------------------------------------------------------
    def _graph(self) -> None:
        n = len(self.parent)
        # backward reachability from round ends; unexpanded states count as possibly ending
        reach = [self.goal[i] or not self.expanded[i] for i in range(n)]
        back: list[list[int]] = [[] for _ in range(n)]
        for s, d in zip(self.src, self.dst, strict=True):
            back[d].append(s)
        todo = [i for i in range(n) if reach[i]]
        while todo:
            d = todo.pop()
            for s in back[d]:
                if not reach[s]:
                    reach[s] = True
                    todo.append(s)
        for i in range(n):
            if not reach[i]:
                self.violate("no-round-end", "[CL.END.OUT] no round end is reachable from this "
                             f"state (phase {self.phase_of(i)})", i, None)
        # cycles of forced moves: the functional graph of single-action states
        colour: dict[int, int] = {}
        for startnode in self.forced:
            if startnode in colour:
                continue
            trail: list[int] = []
            node: int | None = startnode
            while node is not None and node in self.forced and node not in colour:
                colour[node] = 1
                trail.append(node)
                node = self.forced[node]
            if node is not None and colour.get(node) == 1:
                self.violate("forced-cycle", "[CL.PLAY.TURN-OPTIONS] a cycle of forced moves "
                             f"(single legal action) of length {len(trail) - trail.index(node)}",
                             node, None)
            for t in trail:
                colour[t] = 2

    def phase_of(self, i: int) -> str:
        g = self.replay(i)[0]
        return g.state.phase

    def replay(self, i: int) -> tuple[Game, oracle.Snap | None, list[Action]]:
        """The concrete state `i` again, from its deal; the last `start: turn` position."""
        hands, draw = self.deal_of[self.root[i]]
        g = deal_game(self.params, self.c.players, hands, draw, self.c.seed)
        mark: oracle.Snap | None = None
        path = self.path(i)
        for a in path:
            if turn_expressible(g.state):
                mark = oracle.Snap.of(g)
            g.apply(a)
            if a.kind == "next-round":
                mark = None
        if turn_expressible(g.state):
            mark = oracle.Snap.of(g)
        return g, mark, path

    def scenario(self, v: Violation) -> str:
        c = self.c
        hands, draw = self.deal_of[v.deal]
        # the state the violation shows in: replay the path (shortest, breadth first)
        i = self._index_of_path(v)
        g, mark, path = self.replay(i)
        failing = v.action if v.action is not None else Action("draw", g.state.current)
        origin = [
            f"# Found by `uno-fsm check --ruleset {c.ruleset} --players {c.players} "
            f"--deck '{c.deck}' --hand {c.hand}"
            + (f" --target {c.target}" if c.target is not None else "") + f" --seed {c.seed}`:",
            f"#   a {v.kind} violation after {len(path)} actions from deal {v.deal} "
            "(the shortest path, breadth first).",
            f"#   The reduced game: hand {c.hand}, target "
            f"{self.target if self.target is not None else 'none (one hand)'}.",
        ]
        if v.action is None:
            origin.append("#   (a property of the state reached: the last act is a placeholder)")
        if mark is not None:
            setup = turn_setup(mark.state, self.flip)
            since = path[mark.log_len:]
        else:  # the deal itself, nothing turned yet (the engine turns the top of `draw`)
            setup = round_setup(c.players, c.players - 1, hands, draw)
            since = path
        return draft_yaml(c.ruleset, c.seed, setup, c.players, since, failing, v.message,
                          origin, path, "check")

    def _index_of_path(self, v: Violation) -> int:
        # walk from the root of the deal along the path's actions
        want = v.path
        for i in range(len(self.parent)):
            if self.root[i] == v.deal and self.level[i] == len(want) and self.path(i) == want:
                return i
        raise LookupError("violation state not found")


def explore(config: Config, jobs: int = 1) -> Result:
    """Explore `config`, in `jobs` processes (each one a slice of the initial deals)."""
    params = reduced_params(config.ruleset, config.deck, config.hand, config.target)
    cards = build_deck(params)
    if params.hand_size * config.players >= len(cards):
        raise ConfigError(f"{len(cards)} cards cannot deal {config.players} hands of "
                          f"{params.hand_size} and turn a first card")
    total = count_deals(cards, config.players, params.hand_size, config.max_states)
    if total > config.max_states:
        raise ConfigError(f"the deck has more distinct deals than --max-states "
                          f"{config.max_states}: use a smaller deck or hand")
    if jobs <= 1:
        return Explorer(config).run()
    from concurrent.futures import ProcessPoolExecutor

    slices = [list(range(k, total, jobs)) for k in range(jobs)]
    start = time.monotonic()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(_run_slice, [config] * jobs, slices))
    out = Result(config, params.target)
    for p in parts:
        out.deals += p.deals
        out.deals_refused += p.deals_refused
        out.states += p.states
        out.transitions += p.transitions
        out.depth = max(out.depth, p.depth)
        out.frontier += p.frontier
        out.truncated |= p.truncated
        out.memory_mb += p.memory_mb
        out.checks.update(p.checks)
        out.violation_count += p.violation_count
        out.violations.extend(p.violations)
        out.coverage.merge(p.coverage)
    out.violations.sort(key=lambda v: len(v.path))
    out.seconds = time.monotonic() - start
    return out


def _run_slice(config: Config, indices: list[int]) -> Result:
    return Explorer(config, set(indices)).run()


# ---- CLI ------------------------------------------------------------------------------------
def config_of(args: argparse.Namespace) -> Config:
    """The configuration the command line asks for: a bundled one, changed by the options."""
    table = LONG if args.long else BUNDLED
    base = table.get(args.ruleset)
    if base is None and args.deck is None:
        raise ConfigError(f"no bundled {'--long ' if args.long else ''}configuration for "
                          f"{args.ruleset}: give --deck (bundled: {', '.join(table)})")
    if base is None:
        base = Config(args.ruleset, args.players or 2, args.deck)
    out = replace(base, ruleset=args.ruleset)
    if args.referee:
        out = replace(out, referee=True)
    for name in ("players", "deck", "hand", "target", "depth", "max_states", "seed"):
        value = getattr(args, name)
        if value is not None:
            out = replace(out, **{name: value})
    return out


def register(sub: Any) -> None:
    """Add `uno-fsm check`."""
    from uno_spec.options import count

    p = sub.add_parser("check", help="model-check the engine on reduced decks",
                       description="Explore every state the reference engine reaches from "
                       "every distinct deal of a reduced deck, checking the invariants, the "
                       "rule postconditions and liveness (docs/model-checking.md).")
    p.add_argument("--ruleset", default="classic-official",
                   help="ruleset (default classic-official; bundled: "
                   f"{', '.join(BUNDLED)})")
    p.add_argument("--players", type=count(2, 10), help="player count (default: bundled)")
    p.add_argument("--deck", help="reduced deck, e.g. 'colors=red;numbers=1,2;"
                   "actions=skip,reverse,draw2;wilds=wild,wd4' (default: bundled)")
    p.add_argument("--hand", type=count(1), help="cards dealt to each player (default: bundled)")
    p.add_argument("--target", type=count(1), help="points to win the game (default: bundled)")
    p.add_argument("--depth", type=count(0), help="actions from the deal explored "
                   "(default: bundled)")
    p.add_argument("--max-states", type=count(1), dest="max_states",
                   help="stop adding states after this many (default: bundled)")
    p.add_argument("--seed", type=int, help="seed of the shuffles after the deal (default 0)")
    p.add_argument("--jobs", type=count(1), default=1,
                   help="worker processes, each a slice of the deals (default 1)")
    p.add_argument("--format", choices=("console", "json"), default="console",
                   help="report format (default console)")
    p.add_argument("--referee", action="store_true",
                   help="also explore the table penalties (hints, wrong cards)")
    p.add_argument("--long", action="store_true", help="the larger configuration")
    p.set_defaults(handler=_cmd_check)


def render(r: Result) -> str:
    d = r.to_dict()
    lines = [
        f"check {d['ruleset']}: {d['players']} players, hand {d['hand']}, target "
        f"{d['target']}, deck {d['deck']}",
        f"  deals {d['deals']} ({d['deals_refused']} refused), states {d['states']}, "
        f"transitions {d['transitions']}, depth {d['depth']}"
        + (f" (bound {d['depth_bound']})" if d["depth_bound"] is not None else ""),
        f"  {'complete' if d['complete'] else 'bounded'}: {d['frontier']} states unexpanded"
        + (" (--max-states reached)" if r.truncated else ""),
        f"  {d['seconds']:.1f}s, {d['states_per_second']} states/s, {d['memory_mb']:.0f} MB",
    ]
    cov = d["coverage"]
    lines.append(f"  phase edges {cov['edges_covered']}/{cov['edges']}, guard outcomes "
                 f"{cov['guard_outcomes_covered']}/{cov['guard_outcomes']}")
    for label in missing_labels(r.coverage):
        lines.append(f"    not reached: {label}"
                     + (f" (unreachable: {UNREACHABLE[label]})" if label in UNREACHABLE else ""))
    lines.append(f"  violations {d['violations']}")
    for v in r.violations:
        lines.append(f"\n{v.kind} [{v.rule}] {v.message}\n"
                     f"Counterexample ({len(v.path)} actions from a deal), as a scenario:\n"
                     f"{v.scenario}")
    return "\n".join(lines)


def _cmd_check(args: argparse.Namespace) -> int:
    try:
        config = config_of(args)
        result = explore(config, args.jobs)
    except (ConfigError, ValueError, KeyError) as exc:
        print(f"uno-fsm check: {exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(render(result))
    return 1 if result.violation_count else 0
