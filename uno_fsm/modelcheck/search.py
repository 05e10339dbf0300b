"""The search: one visited set and one breadth-first work queue, whatever executes it
(docs/model-checking.md, "How a run goes").

The coordinator (`Search`) holds the visited set (canonical keys, or their 64-bit
fingerprints), the parent of each state and the action that reached it, and the transitions
(for the properties over the graph). Each level of the breadth-first search is cut into
chunks that an executor (executors.py: in process, local worker processes, Dask) expands
(expand.py); their results are merged in chunk order, so a run gives the same states,
transitions, violations and counterexamples with any executor and any number of workers.

Over the graph, at the end: from every expanded state a round end is reachable (backward
reachability from round over and game over; states left unexpanded by a bound count as
possibly ending, so this never reports a false violation, and it is conclusive when the
exploration is complete), and no cycle of forced moves (states with one legal action).
"""

from __future__ import annotations

import resource
import sys
import time
from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from uno_fsm import oracle
from uno_fsm.actions import Action
from uno_fsm.configs import CheckConfig
from uno_fsm.errors import UnresolvableSetup
from uno_fsm.export import draft_yaml, round_setup, turn_expressible, turn_setup
from uno_fsm.game import Game
from uno_fsm.invariants import check_invariants, check_rejected
from uno_fsm.modelcheck.coverage import Coverage
from uno_fsm.modelcheck.deals import ConfigError, Deal, deals
from uno_fsm.modelcheck.encoding import (
    Frame,
    collision_probability,
    fingerprint,
    map_card,
)
from uno_fsm.modelcheck.expand import (
    EXPANDED,
    FORCED,
    GOAL,
    ChunkResult,
    Expander,
    Task,
)
from uno_spec.signals import Interrupted


class WorkerLost(RuntimeError):
    """A worker process died, or the cluster lost the work: the run cannot go on."""


@dataclass
class Violation:
    rule: str
    message: str
    kind: str  # deal | invariant | transition | illegal | no-round-end | forced-cycle
    path: list[Action]  # from the initial deal to the state where it shows (concrete)
    action: Action | None  # the failing action (None: a property of the state)
    deal: int  # index of the initial deal
    scenario: str = ""
    reproduced: bool = True  # found again on the concrete path (the symmetry held)
    state: int = -1  # the state's index in the search
    found: Action | None = None  # the failing action as the search saw it (its frame)


@dataclass
class Result:
    config: CheckConfig
    target: int | None = None  # the target score played (None: one hand)
    deals: int = 0  # distinct deals of the reduced deck (dealer at the last seat)
    deals_explored: int = 0  # the representatives of their orbits under the symmetries
    deals_refused: int = 0
    states: int = 0
    transitions: int = 0
    depth: int = 0
    levels: int = 0  # breadth-first levels expanded (completely)
    frontier: int = 0  # states left unexpanded by --depth / --max-states / an interruption
    truncated: bool = False  # --max-states reached
    interrupted: str | None = None  # the signal that stopped the run
    error: str | None = None  # what stopped the run otherwise (a worker lost)
    graph_checked: bool = False
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    workers: int = 1
    executor: str = "in-process"
    memory_mb: float = 0.0
    worker_memory_mb: float = 0.0
    fingerprints: bool = False
    visited_bytes: int = 0
    symmetry: str = ""
    group: int = 1
    checks: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)
    violation_count: int = 0
    coverage: Coverage = field(default_factory=Coverage)

    @property
    def complete(self) -> bool:
        return (not self.truncated and not self.frontier and self.interrupted is None
                and self.error is None)

    def verdict(self) -> str:
        if self.interrupted is not None:
            return "interrupted"
        if self.error is not None:
            return "error"
        return "violations" if self.violation_count else "ok"

    def bound(self) -> str | None:
        """The bound the run reached, if any."""
        c = self.config
        if self.truncated:
            return f"--max-states {c.max_states}"
        if self.frontier and c.depth is not None and self.depth >= c.depth:
            return f"--depth {c.depth}"
        return None

    def to_dict(self) -> dict[str, Any]:
        c = self.config
        cpu = self.cpu_seconds
        return {
            # the verdict first
            "verdict": self.verdict(), "violations": self.violation_count,
            "complete": self.complete, "bound": self.bound(), "interrupted": self.interrupted,
            "error": self.error,
            "ok": self.verdict() == "ok",
            # then what was explored
            "ruleset": c.ruleset, "players": c.players, "deck": c.deck, "hand": c.hand,
            "target": self.target, "referee": c.referee, "depth_bound": c.depth,
            "max_states": c.max_states, "seed": c.seed, "symmetry": self.symmetry,
            "symmetry_group": self.group,
            "deals": self.deals, "deals_explored": self.deals_explored,
            "deals_refused": self.deals_refused,
            "states": self.states, "transitions": self.transitions, "depth": self.depth,
            "levels": self.levels, "frontier": self.frontier,
            "graph_checked": self.graph_checked,
            "seconds": round(self.seconds, 3), "cpu_seconds": round(cpu, 3),
            "states_per_second": round(self.states / self.seconds) if self.seconds else 0,
            "states_per_cpu_second": round(self.states / cpu) if cpu else 0,
            "workers": self.workers, "executor": self.executor,
            "memory_mb": round(self.memory_mb, 1),
            "worker_memory_mb": round(self.worker_memory_mb, 1),
            "visited": {
                "kind": "fingerprints" if self.fingerprints else "keys",
                "bytes": self.visited_bytes,
                "bytes_per_state": round(self.visited_bytes / self.states, 1)
                if self.states else 0,
                "collision_probability": collision_probability(self.states)
                if self.fingerprints else 0.0,
            },
            "checks": sum(self.checks.values()),
            "counterexamples": [{"rule": v.rule, "kind": v.kind, "message": v.message,
                                 "steps": len(v.path) + (v.action is not None),
                                 "reproduced": v.reproduced,
                                 "scenario": v.scenario} for v in self.violations],
            "coverage": self.coverage.totals(),
        }


def rule_of(message: str) -> str:
    if message.startswith("[") and "]" in message:
        return message[1:message.index("]")]
    return "ENGINE.CHECK"


def _peak_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


class Search:
    """A breadth-first exploration of one configuration (docs/model-checking.md)."""

    def __init__(self, config: CheckConfig, fingerprints: bool = False,
                 max_violations: int = 5) -> None:
        self.c = config
        self.fingerprints = fingerprints
        self.max_violations = max_violations
        self.ex = Expander(config)  # in process: the deals, the replays, --jobs 1
        self.params = self.ex.params
        self.result = Result(config, self.params.target, fingerprints=fingerprints,
                             symmetry=self.ex.codec.describe() if config.symmetry else "off",
                             group=self.ex.codec.group_size if config.symmetry else 1)
        self.visited: dict[Any, int] = {}
        self.parent = array("i")
        self.via = array("H")  # the index of the action among the parent's actions
        self.level = array("H")
        self.flags = bytearray()
        self.roots: dict[int, tuple[int, Deal]] = {}  # root state -> (deal index, deal)
        self.src = array("i")
        self.dst = array("i")
        self.forced: dict[int, int] = {}
        self.pending: list[Violation] = []

    # ---- bookkeeping -------------------------------------------------------------------------
    def _add(self, key: bytes, parent: int, via: int, depth: int) -> tuple[int, bool]:
        """(the index of the state `key`, whether it is new)."""
        vk: Any = fingerprint(key) if self.fingerprints else key
        got = self.visited.get(vk)
        if got is not None:
            return got, False
        i = len(self.parent)
        self.visited[vk] = i
        self.parent.append(parent)
        if via >= 0xFFFF:
            raise ConfigError(f"a state with {via} actions: at most 65534")
        self.via.append(via)
        self.level.append(depth)
        self.flags.append(0)
        return i, True

    def violate(self, kind: str, message: str, state: int, k: int,
                action: Action | None) -> None:
        r = self.result
        r.violation_count += 1
        rule = rule_of(message)
        if len(self.pending) < self.max_violations and all(
                (v.rule, v.kind) != (rule, kind) for v in self.pending):
            self.pending.append(Violation(rule, message, kind, [], None, -1, state=state,
                                          found=action))

    # ---- the search --------------------------------------------------------------------------
    def run(self, executor: Any, chunk_size: Callable[[int], int],
            switch: Callable[[int], Any] | None = None) -> Result:
        """Explore; `executor` expands the chunks; `switch(frontier size)` may hand a larger
        executor for the levels to come (the default of --jobs: all cores for a large
        configuration)."""
        c, r = self.c, self.result
        start, cpu0 = time.monotonic(), time.process_time()
        worker_cpu = 0.0
        frontier: list[tuple[int, bytes]] = []
        try:
            try:
                frontier = self._roots()
                depth = 0
                while frontier:
                    if switch is not None:
                        bigger = switch(len(frontier))
                        if bigger is not None:
                            executor.close()
                            executor = bigger
                    r.workers, r.executor = executor.workers, executor.name
                    expand = c.depth is None or depth < c.depth
                    size = chunk_size(len(frontier))
                    chunks = [frontier[i:i + size] for i in range(0, len(frontier), size)]
                    tasks: list[Task] = [(expand, ch) for ch in chunks]
                    nxt: list[tuple[int, bytes]] = []
                    done = 0
                    for items, res in zip(chunks, executor.map(tasks), strict=True):
                        worker_cpu += res.cpu if executor.remote else 0.0
                        self._merge(items, res, depth, nxt)
                        done += len(items)
                    r.levels += 1
                    frontier = nxt
                    depth += 1
                    if r.truncated:
                        r.frontier += len(frontier)
                        frontier = []
                r.states = len(self.parent)
                self._graph()
                r.graph_checked = True
            finally:
                executor.close()
        except Interrupted as exc:  # uno_spec.signals: SIGINT, SIGTERM, SIGHUP (`interrupts`)
            r.interrupted = exc.name  # (a second signal is ignored until the report is out)
        except WorkerLost as exc:
            r.error = str(exc)
        r.states = len(self.parent)
        r.depth = max(self.level, default=0)
        unexpanded = sum(1 for f in self.flags if not f & (EXPANDED | GOAL))
        r.frontier = unexpanded
        r.seconds = time.monotonic() - start
        r.memory_mb = _peak_mb(resource.RUSAGE_SELF)
        r.worker_memory_mb = _peak_mb(resource.RUSAGE_CHILDREN)
        r.visited_bytes = self._visited_bytes()
        for v in self.pending:
            self._finish(v)
        r.violations = sorted(self.pending, key=lambda v: len(v.path))
        r.cpu_seconds = time.process_time() - cpu0 + worker_cpu
        self.ex.close()
        return r

    def _roots(self) -> list[tuple[int, bytes]]:
        c, r = self.c, self.result
        frontier: list[tuple[int, bytes]] = []
        for n, deal in enumerate(deals(self.ex.cards, c.players, c.hand)):
            r.deals += 1
            try:
                g, key, representative = self.ex.deal(deal)
            except UnresolvableSetup:
                r.deals_refused += 1  # CL.FIRST.UNRESOLVABLE: no first card can stand
                continue
            if g is None or key is None:
                continue  # another deal of its orbit is explored
            r.deals_explored += 1
            i, new = self._add(key, -1, 0, 0)
            if not new:
                continue
            self.roots[i] = (n, deal)
            try:
                oracle.check_deal(g, self.ex.facts, g.setup_events)
            except AssertionError as exc:
                self.violate("deal", str(exc), i, -1, None)
            if len(self.visited) > c.max_states:
                r.truncated = True
            else:
                frontier.append((i, key))
        return frontier

    def _merge(self, items: list[tuple[int, bytes]], res: ChunkResult, depth: int,
               nxt: list[tuple[int, bytes]]) -> None:
        r = self.result
        cov = r.coverage
        cov.edges.update(res.edges)
        cov.guards.update(res.guards)
        r.checks.update(res.checks)
        flags_of = self.flags
        src, dst = self.src, self.dst
        limit = self.c.max_states
        add = self._add
        for (i, _), (flags, succs, viols) in zip(items, res.states, strict=True):
            flags_of[i] = flags
            for kind, message, k, action in viols:
                self.violate(kind, message, i, k, action)
            for k, key in succs:
                j, new = add(key, i, k, depth + 1)
                if new:
                    if len(self.parent) > limit:
                        r.truncated = True
                    else:
                        nxt.append((j, key))
                src.append(i)
                dst.append(j)
                if flags & FORCED and k == 0:
                    self.forced[i] = j
            r.transitions += len(succs)

    def _visited_bytes(self) -> int:
        """The memory of the visited set and of the per-state arrays (the parent, the action,
        the level, the flags), measured with sys.getsizeof."""
        total = sys.getsizeof(self.visited)
        total += sum(sys.getsizeof(k) for k in self.visited)
        for arr in (self.parent, self.via, self.level):
            total += arr.buffer_info()[1] * arr.itemsize
        return total + len(self.flags)

    # ---- properties over the graph -----------------------------------------------------------
    def _graph(self) -> None:
        n = len(self.parent)
        flags = self.flags
        # backward reachability from round ends; unexpanded states count as possibly ending
        reach = bytearray(1 if (f & GOAL or not f & EXPANDED) else 0 for f in flags)
        count = [0] * (n + 1)
        for d in self.dst:
            count[d + 1] += 1
        for i in range(n):
            count[i + 1] += count[i]
        back = array("i", bytes(4 * len(self.src)))
        fill = count[:]
        for s, d in zip(self.src, self.dst, strict=True):
            back[fill[d]] = s
            fill[d] += 1
        todo = [i for i in range(n) if reach[i]]
        while todo:
            d = todo.pop()
            for x in range(count[d], count[d + 1]):
                s = back[x]
                if not reach[s]:
                    reach[s] = 1
                    todo.append(s)
        for i in range(n):
            if not reach[i]:
                self.violate("no-round-end", "[CL.END.OUT] no round end is reachable from this "
                             "state", i, -1, None)
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
                             node, -1, None)
            for t in trail:
                colour[t] = 2

    # ---- counterexamples ---------------------------------------------------------------------
    def _chain(self, i: int) -> tuple[int, list[int]]:
        """(the root state, the action indices from it to state `i`)."""
        out: list[int] = []
        while self.parent[i] >= 0:
            out.append(self.via[i])
            i = self.parent[i]
        return i, out[::-1]

    def _unmap(self, a: Action, fr: Frame, k: int) -> Action:
        """An action of the canonical frame as the concrete game's (the inverse symmetry)."""
        if fr is self.ex.codec.identity and not k:
            return a
        inv = {img: c for c, img in fr.colours}
        n = self.c.players

        def seat(s: int | None) -> int | None:
            return None if s is None else (s - k) % n

        return Action(a.kind, seat(a.player), None if a.card is None else map_card(a.card, inv),
                      None if a.color is None else inv.get(a.color, a.color), a.uno,
                      seat(a.target))

    def _finish(self, v: Violation) -> None:
        """Replay the path to `v` on one concrete game (each step's canonical action mapped
        back into the concrete frame), write its scenario, and check it again there."""
        ex = self.ex
        root, vias = self._chain(v.state)
        n, deal = self.roots[root]
        v.deal = n
        g, _, _ = ex.deal(deal)
        assert g is not None
        record: Any = None
        mark: oracle.Snap | None = None
        path: list[Action] = []
        v.reproduced = True
        for step in vias:
            st = g.state
            key, fr, rot, base, order = ex.frame_of(st, record)
            ex.load(key)
            acts = ex.game.legal_actions()
            if self.c.referee:
                acts = [*acts, *ex._referee(ex.game)]
            a = self._unmap(acts[step], fr, rot)
            if turn_expressible(st):
                mark = oracle.Snap.of(g)
            before = oracle.Snap.of(g)
            st.rng.begin(base, order)  # type: ignore[attr-defined]
            try:
                g.apply(a)
            except Exception:  # noqa: BLE001 - the concrete game went another way
                v.reproduced = False
                break
            record = oracle.next_record(record, before, a, g)
            path.append(a)
            if a.kind == "next-round":
                mark = None
        if turn_expressible(g.state):
            mark = oracle.Snap.of(g)
        failing: Action | None = None
        if v.found is not None:
            _, fr, rot, _, _ = ex.frame_of(g.state, record)
            failing = self._unmap(v.found, fr, rot)
        v.path, v.action = path, failing
        if v.reproduced:
            v.reproduced = self._again(v, g, record)
        c = self.c
        origin = [
            f"# Found by `uno-fsm check --ruleset {c.ruleset} --players {c.players} "
            f"--deck '{c.deck}' --hand {c.hand}"
            + (f" --target {c.target}" if c.target is not None
               and self.params.target is not None else "") + f" --seed {c.seed}`:",
            f"#   a {v.kind} violation after {len(path)} actions from deal {v.deal} "
            "(the shortest path, breadth first).",
            f"#   The reduced game: hand {c.hand}, target "
            f"{self.params.target if self.params.target is not None else 'none (one hand)'}.",
        ]
        if v.kind == "no-round-end":
            v.message += f" (phase {g.state.phase})"
        if not v.reproduced:
            origin.append("#   NOT reproduced on this concrete path: the rule is not symmetric "
                          "under the colour or seat permutation the search used")
        if failing is None:
            origin.append("#   (a property of the state reached: the last act is a placeholder)")
        if mark is not None:
            setup = turn_setup(mark.state, ex.codec.flip)
            since = path[mark.log_len:]
        else:  # the deal itself, nothing turned yet (the engine turns the top of `draw`)
            hands, draw = deal
            setup = round_setup(c.players, c.players - 1, hands, draw)
            since = path
        shown = failing if failing is not None else Action("draw", g.state.current)
        v.scenario = draft_yaml(c.ruleset, c.seed, setup, c.players, since, shown, v.message,
                                origin, path, "check")

    def _again(self, v: Violation, g: Game, record: Any) -> bool:
        """Whether the violation shows again on the concrete game."""
        if v.kind in ("no-round-end", "forced-cycle"):
            return True  # properties of the graph: the path reaches the state
        try:
            if v.kind == "invariant":
                check_invariants(g, self.ex.facts, self.ex.deck)
                return False
            if v.kind == "deal":
                oracle.check_deal(g, self.ex.facts, g.setup_events)
                return False
            a = v.action
            assert a is not None
            _, _, _, base, order = self.ex.frame_of(g.state, record)
            before = oracle.Snap.of(g)
            snapshot = g.state.copy()
            log_len = len(g.log)
            g.state.rng.begin(base, order)  # type: ignore[attr-defined]
            try:
                g.apply(a)
            except Exception as exc:  # noqa: BLE001 - the finding
                if v.kind == "illegal":
                    check_rejected(g, a, snapshot, log_len, exc)
                    return False
                return True
            if v.kind == "illegal":
                return True  # accepted although not listed
            oracle.postconditions(self.ex.facts, before, a, g, record)
            return False
        except AssertionError:
            return True


__all__ = ["Interrupted", "Result", "Search", "Violation", "WorkerLost"]
