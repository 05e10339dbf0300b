"""Differential fuzzing: an implementation and the reference engine through the same random games.

`Differ` drives two adapters (the oracle, normally the reference engine, and the implementation
under test) with Hypothesis (docs/differential.md):

1. a start position from real play: the oracle sets up `start: game` with a drawn seed, plays a
   drawn number of random legal actions and exports its position (`position` observation,
   docs/adapter-protocol.md "Differential fuzzing"); or a fresh deal (`start: round`); or
   `start: game` itself, each where the implementation accepts it;
2. both sides get that `setup`; then, step by step, an action drawn from the oracle's
   `legal_actions` (only those inside the implementation's features) or, for a share of the
   steps, an illegal one (a card not held, a card that does not match, out of turn, a decision
   not asked for), which both must reject with the same code and without a change;
3. after each step every observation both declare is compared with the corpus' rules
   (conformance.compare); after a step that drew on the oracle's random source (`shuffled`), only
   counts, and the example ends there.

A divergence raises an exception of a class made for its group (kind + the rule IDs of the
oracle's events at that step), so that Hypothesis shrinks each group on its own to the shortest
action sequence from the simplest position. conformance.diff_scenarios turns the shrunk
examples into corpus scenarios. This module never imports the engine: both sides are adapters.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, reject, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

from conformance import compare as cmp
from conformance.protocol import AdapterError, Unsupported, check_hello, check_rejection
from uno_spec.signals import Interrupted

POSITION_VERSION = 1  # the `position` observation format this module reads
ORACLE_KEYS = ("legal_actions", "rules_applied", "shuffled", "position")
# what stays comparable after a shuffle (docs/scenario-format.md: multisets and counts only)
COUNT_KEYS = ("hand_sizes", "draw_size", "discard_size", "total_cards", "card_counts")
# ... and what a shuffle during play never changes: the discard's top stays (CL.RESHUFFLE.KEEP-TOP)
# and with it the colour in force; not so at a deal (setup, next round: a new first card)
PLAY_SHUFFLE_KEYS = (*COUNT_KEYS, "top", "active_color", "direction", "side")
# observations judged only when the implementation declares the feature that gives them meaning
GATED = {"scores": "scoring", "game_over": "scoring", "views": "views",
         "eliminated": "desafio"}
STARTS = ("turn", "round", "game")
STARTS_WEIGHT = {"turn": 3, "round": 2, "game": 1}
ILLEGAL_KINDS = ("not-held", "no-match", "out-of-turn", "wrong-decision")
KINDS = {
    "observation": "observations differ after the step",
    "accepted": "the implementation accepted an action the reference rejects",
    "rejected": "the implementation rejected an action the reference accepts",
    "error-code": "both rejected the action, with different error codes",
    "state-changed": "the implementation's state changed after it rejected the action",
    "setup-refused": "the implementation refused a set-up the reference plays",
    "crash": "the implementation crashed or broke the protocol",
    "hang": "the implementation did not answer in time",
}
BATCH = 25  # examples per Hypothesis run; a long session is a series of runs
SHRINK_SECONDS = 30.0  # shrinking budget per run, from its first divergence
POSITION_CACHE = 512  # start positions remembered (shrinking replays the same ones)
START_SECONDS = 10.0  # at least this long for an adapter's `hello` (a program starting)
PROGRESS_EVERY = 0.25  # seconds between two progress callbacks


class DiffError(Exception):
    """The fuzzer cannot run (bad options, an oracle without the needed capabilities, an
    oracle that failed): one line for the user, exit status 2."""


@dataclass
class StepRecord:
    act: dict[str, Any]
    rejection: dict[str, Any] | None  # the oracle's; None: accepted
    rules: list[str]  # the oracle's rules_applied (accepted) or its rejection rule


@dataclass
class Divergence:
    kind: str  # a key of KINDS
    rules: tuple[str, ...]  # the group: rule IDs of the oracle at the deciding step
    message: str
    ruleset: str
    seed: int
    setup: dict[str, Any]
    steps: list[StepRecord]
    expect: dict[str, Any]  # the oracle's observations after the deciding step (compared keys)
    observed: dict[str, Any] = field(default_factory=dict)  # the implementation's
    shuffled: bool = False

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        return (self.kind, self.rules)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rules": list(self.rules), "message": self.message,
                "ruleset": self.ruleset, "seed": self.seed, "setup": self.setup,
                "steps": [{"act": s.act, "rejection": s.rejection, "rules": s.rules}
                          for s in self.steps],
                "expect": self.expect, "observed": self.observed}


class DivergenceFound(Exception):  # noqa: N818 - what it reports
    """Raised inside the Hypothesis test; one subclass per group (see `_group_class`)."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(f"{divergence.kind} [{', '.join(divergence.rules) or 'no rule'}]: "
                         f"{divergence.message}")
        self.divergence = divergence


class _OracleFailed(Exception):
    pass


@dataclass
class Stats:
    examples: int = 0
    steps: int = 0
    illegal: int = 0
    unsupported: int = 0  # examples stopped by an action or setup the implementation lacks
    out_of_scope: int = 0  # divergences needing a feature the implementation does not declare
    shuffles: int = 0  # examples that ended at a shuffle (compared by counts there)
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
    groups: list[tuple[Divergence, int]]  # shrunk example, count; by first discovery
    first_found: dict[tuple[str, tuple[str, ...]], float]  # seconds since the start
    warnings: list[str]

    @property
    def ok(self) -> bool:
        return not self.groups


def _norm(act: dict[str, Any]) -> str:
    return json.dumps({k: (v.lower() if isinstance(v, str) and k == "color" else v)
                       for k, v in act.items()}, sort_keys=True)


def action_features(act: dict[str, Any], ruleset: str) -> set[str]:
    """The features (spec/features.yaml) an action belongs to."""
    parts = ruleset.split("+")
    if act.get("next_round"):
        return {"scoring"}
    if "referee" in act:
        return {"referee-penalties"}
    if "play" in act:
        return {"basic-play", "uno-call"} if act.get("uno") else {"basic-play"}
    if act.get("draw"):
        return {"basic-play"}
    if act.get("pass"):
        return {"draw-then-play"}
    if "challenge" in act:
        if act["challenge"] is False:  # accepting the card is the card's own feature
            return {"flip"} if parts[0] == "flip" else {"wd4"}
        return {"flip-challenge"} if parts[0] == "flip" else {"wd4-challenge"}
    if "catch" in act:
        return {"uno-catch"}
    if "swap" in act:
        return {"seven-o"} if "seven-o" in parts else {"swap-hands"}
    if "color" in act:
        return {"first-card"}
    if act.get("uno"):
        return {"uno-call"}
    return {"basic-play"}


class Side:
    """One adapter, (re)made by `factory`, greeted once per start; every failure is an
    `AdapterError` and throws the adapter away (the next call makes a fresh one)."""

    def __init__(self, factory: Callable[[], Any], timeout: float) -> None:
        self.factory = factory
        self.timeout = timeout
        self.adapter: Any = None
        self.caps: dict[str, Any] = {}

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
        except AdapterError:
            self.discard()
            raise
        except Exception as exc:  # noqa: BLE001 - an in-process adapter raised: a crash
            self.discard()
            raise AdapterError("crashed", f"adapter raised {type(exc).__name__}: {exc}") \
                from None

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

    def act_observe(self, action: dict[str, Any], keys: Sequence[str]
                    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """`act` then `observe`, in one write to a program that pipelines."""
        def go() -> tuple[dict[str, Any] | None, dict[str, Any]]:
            adapter = self.adapter
            piped = self.caps.get("pipelining") is True and hasattr(adapter, "pipeline")
            if piped:
                adapter.pipeline([("act", {"action": action}), ("observe", {"keys": list(keys)})])
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

    def discard(self) -> None:
        adapter, self.adapter = self.adapter, None
        if adapter is not None:
            try:
                adapter.close()
            except Exception:  # noqa: BLE001 - a broken adapter must not stop the run
                pass


def _supported(ruleset: str, declared: Sequence[str]) -> bool:
    return ruleset in declared or all(part in declared for part in ruleset.split("+"))


class Differ:
    """The oracle and the implementation under test, and the Hypothesis test that plays them."""

    def __init__(self, oracle: Callable[[], Any], implementation: Callable[[], Any], *,
                 adapter_name: str = "", rulesets: Sequence[str] = (),
                 players: tuple[int, int] = (2, 8), timeout: float = 10.0, max_steps: int = 30,
                 max_prefix: int = 150, illegal_percent: int = 20,
                 shrink_seconds: float = SHRINK_SECONDS,
                 on_progress: Callable[[Differ], None] | None = None) -> None:
        self.oracle = Side(oracle, timeout)
        self.impl = Side(implementation, timeout)
        self.adapter_name = adapter_name
        self.players = players
        self.max_steps = max_steps
        self.max_prefix = max_prefix
        self.illegal_percent = illegal_percent
        self.shrink_seconds = shrink_seconds
        self._positions: dict[tuple[Any, ...], dict[str, Any] | None] = {}
        self._raised: dict[tuple[str, tuple[str, ...]], Divergence] = {}  # this batch's
        self._shrink_end: float | None = None
        self.on_progress = on_progress
        self.stats = Stats()
        self.warnings: list[str] = []
        self.found: dict[tuple[str, tuple[str, ...]], Divergence] = {}
        self.counts: Counter[tuple[str, tuple[str, ...]]] = Counter()
        self.first_found: dict[tuple[str, tuple[str, ...]], float] = {}
        self._classes: dict[tuple[str, tuple[str, ...]], type[DivergenceFound]] = {}
        self._counting = True
        self._last_progress = 0.0
        self._t0 = time.monotonic()
        self._hit: dict[tuple[str, tuple[str, ...]], float] = {}  # first hit, before shrinking
        self._last: tuple[dict[str, Any], dict[str, Any]] = ({}, {})
        try:
            self._greet(rulesets)
        except BaseException:
            self.close()
            raise

    def _greet(self, rulesets: Sequence[str]) -> None:
        """Both hellos; what to fuzz and compare, within the implementation's capabilities."""
        try:
            ocaps = self.oracle.hello()
        except (AdapterError, Unsupported) as exc:
            raise DiffError(f"the oracle failed to start: {exc}") from None
        missing = [k for k in ("legal_actions", "rules_applied", "shuffled", "position")
                   if k not in ocaps["observations"]]
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
        both = set(ocaps["observations"]) & set(icaps["observations"])
        self.compared = sorted(k for k in both - set(ORACLE_KEYS)
                               if GATED.get(k, "basic-play") in self.features | {"basic-play"})
        self.oracle_keys = sorted(set(self.compared) | {"legal_actions", "rules_applied",
                                                        "shuffled", "hands", "pending"})
        self.starts = ["turn"] + [s for s in ("round", "game") if self._accepts(s)]
        self.stats = Stats()

    def close(self) -> None:
        """Stop both adapters (`run` does it at its end)."""
        self.oracle.discard()
        self.impl.discard()

    # --- capabilities ----------------------------------------------------------------------

    @property
    def implementation(self) -> dict[str, Any]:
        keys = ("name", "version", "protocol", "rulesets", "features", "observations")
        return {k: self.impl.caps[k] for k in keys if k in self.impl.caps}

    def _accepts(self, start: str) -> bool:
        """Whether the implementation sets up `start: round` / `start: game` positions."""
        ruleset = self.rulesets[0]
        try:  # the first player count the oracle deals for (partners: an even one, 4 up)
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
                  prefix: int, drawing: bool = False) -> dict[str, Any] | None:
        """A start position: the oracle's own deal and `prefix` random actions of play
        (`drawing`: a draw or a keep whenever one is listed)."""
        try:
            if self.oracle.setup({"ruleset": ruleset, "seed": seed,
                                  "setup": {"players": players, "start": "game"}}) is not None:
                return None  # refused by the rules, e.g. a player count the ruleset forbids
        except AdapterError:
            return None  # e.g. a player count the ruleset does not allow
        except Unsupported:
            return None
        if start == "game":
            return {"players": players, "start": "game"}
        rng = random.Random(seed)
        if start == "round":
            return self._exported(ruleset)["deal"]  # type: ignore[no-any-return]
        for i in range(prefix + 20):
            if i >= prefix:
                pos = self._exported(ruleset)["turn"]
                if pos is not None:
                    return pos  # type: ignore[no-any-return]
            legal = self._o(self.oracle.observe, ["legal_actions"])["legal_actions"]
            legal = [a for a in legal if not a.get("next_round")]
            if not legal:
                return None
            keep = [a for a in legal if a.get("draw") or a.get("pass")] if drawing else []
            chosen = rng.choice(keep or legal)
            self._o(self.oracle.act, chosen)
        return None

    def _exported(self, ruleset: str) -> dict[str, Any]:
        pos = self._o(self.oracle.observe, ["position"])["position"]
        if not isinstance(pos, dict) or pos.get("version") != POSITION_VERSION:
            raise _OracleFailed(f"the oracle's position has version {pos.get('version')!r}; "
                                f"this fuzzer reads version {POSITION_VERSION}")
        return pos

    # --- one example -------------------------------------------------------------------------

    def example(self, data: st.DataObject) -> None:
        draw = data.draw
        ruleset = draw(st.sampled_from(self.rulesets), label="ruleset")
        lo, hi = self.players
        players = draw(st.integers(lo, hi), label="players")
        # turn positions first (most to play), fresh deals next, `start: game` (counts only)
        start = draw(st.sampled_from([s for s in STARTS for _ in range(STARTS_WEIGHT[s])
                                      if s in self.starts]), label="start")
        seed = draw(st.integers(0, 2**16 - 1), label="seed")
        prefix = draw(st.integers(0, self.max_prefix), label="prefix") if start == "turn" else 0
        # a prefix that draws whenever it may runs the draw pile down: reshuffles get played
        drawing = draw(st.booleans(), label="drawing prefix") if prefix else False
        steps = draw(st.integers(1, self.max_steps), label="steps")
        if self._shrink_end is not None and time.monotonic() > self._shrink_end:
            reject()  # the shrinking budget is spent: the best example so far stands
        where = (ruleset, players, start, seed, prefix, drawing)
        if where not in self._positions:
            if len(self._positions) >= POSITION_CACHE:
                self._positions.clear()
            self._positions[where] = self._position(*where)
        setup = self._positions[where]
        if setup is None:
            reject()
        self.stats.examples += 1
        params = {"ruleset": ruleset, "setup": setup, "seed": seed}
        if self._o(self.oracle.setup, params) is not None:
            reject()  # the oracle refuses its own exported position: nothing to compare
        o_obs = self._o(self.oracle.observe, self.oracle_keys)
        record = Divergence("", (), "", ruleset, seed, setup, [], {})
        try:
            refusal = self.impl.setup(params)
            if refusal is not None:
                self._diverged(record, "setup-refused", tuple(o_obs["rules_applied"]),
                               f"set-up refused with {refusal['code']}",
                               {k: o_obs[k] for k in self.compared}, {})
                return
            i_obs = self.impl.observe(self.compared)
        except Unsupported:
            self.stats.unsupported += 1
            return
        except AdapterError as exc:
            self._crash(record, exc, o_obs, o_obs["rules_applied"])
            return
        if not self._judged(o_obs, ruleset):
            self.stats.out_of_scope += 1
            return
        if not self._judge(record, o_obs, i_obs, tuple(o_obs["rules_applied"])):
            return
        for _ in range(steps):
            legal = [a for a in o_obs["legal_actions"] if self.allowed(a, ruleset)]
            if not legal:
                return  # the oracle waits for a decision outside the implementation's features
            act = None
            if self._accepting(o_obs, ruleset):
                act = legal[0]  # the acceptance, the one answer the implementation has
            elif draw(st.integers(0, 99), label="illegal?") < self.illegal_percent:
                kind = draw(st.sampled_from(ILLEGAL_KINDS), label="illegal kind")
                act = self._illegal(kind, draw(st.integers(0, 2**16), label="pick"), o_obs,
                                    legal, players, ruleset)
            if act is None:
                act = legal[draw(st.integers(0, len(legal) - 1), label="action")]
            else:
                self.stats.illegal += 1
            if not self._step(record, act, o_obs, i_obs):
                return
            o_obs, i_obs = self._last

    def _step(self, record: Divergence, act: dict[str, Any], o_before: dict[str, Any],
              i_before: dict[str, Any]) -> bool:
        """Play one action on both sides; False when the example ends here."""
        self.stats.steps += 1
        self._progress()
        listed = _norm(act) in {_norm(a) for a in o_before["legal_actions"]}
        o_rej = self._o(self.oracle.act, act)
        if o_rej is not None and listed:
            raise _OracleFailed(f"the oracle rejected {act} that it listed as legal: {o_rej}")
        o_obs = self._o(self.oracle.observe, self.oracle_keys)
        rules = list(o_obs["rules_applied"]) if o_rej is None else \
            [o_rej["rule"]] if o_rej.get("rule") else []
        record.steps.append(StepRecord(act, o_rej, rules))
        try:
            i_rej, i_obs = self.impl.act_observe(act, self.compared)
        except Unsupported:
            self.stats.unsupported += 1
            return False
        except AdapterError as exc:
            self._crash(record, exc, o_obs, rules)
            return False
        key_rules = tuple(rules)
        if o_rej is None and i_rej is not None and listed and self.allowed(act, record.ruleset):
            # the action itself is inside the implementation's features, whatever it leads to
            self._diverged(record, "rejected", key_rules, f"{act}: rejected with "
                           f"{i_rej['code']}; the reference accepts it", o_obs, i_obs)
            return False
        if o_rej is None and not self._judged(o_obs, record.ruleset):
            self.stats.out_of_scope += 1
            return False
        if o_rej is None and i_rej is not None:
            self._diverged(record, "rejected", key_rules, f"{act}: rejected with "
                           f"{i_rej['code']}; the reference accepts it", o_obs, i_obs)
            return False
        if o_rej is None and self._accepting(o_obs, record.ruleset):
            # A Wild Draw Four (Flip: Wild Draw Two / Colour) against an implementation without
            # its challenge: what the play led to (a challenge decision) belongs to that
            # feature; the play is judged by its acceptance, compared on the next step.
            self._last = (o_obs, i_obs)
            return True
        if o_rej is not None and i_rej is None:
            self._diverged(record, "accepted", key_rules, f"{act}: accepted; the reference "
                           f"rejects it with {o_rej['code']}", o_obs, i_obs)
            return False
        if o_rej is not None and i_rej is not None:
            if o_rej["code"] != i_rej["code"]:
                self._diverged(record, "error-code", key_rules, f"{act}: rejected with "
                               f"{i_rej['code']}, the reference with {o_rej['code']}",
                               o_obs, i_obs)
                return False
            changes = cmp.diff_states(i_before, i_obs)
            if changes:
                self._diverged(record, "state-changed", key_rules, f"{act}: rejected, but "
                               + ", ".join(m.key for m in changes) + " changed", o_obs, i_obs)
                return False
            self._last = (o_obs, i_obs)
            return True
        if not self._judge(record, o_obs, i_obs, key_rules,
                           PLAY_SHUFFLE_KEYS if not act.get("next_round") else COUNT_KEYS):
            return False
        self._last = (o_obs, i_obs)
        return True

    def _judge(self, record: Divergence, o_obs: dict[str, Any], i_obs: dict[str, Any],
               rules: tuple[str, ...],
               after_shuffle: Sequence[str] = COUNT_KEYS) -> bool:
        """Compare the observations after a step (or the setup); False: the example ends.
        After a shuffle only the keys `after_shuffle` are compared, and the example ends."""
        shuffled = bool(o_obs.get("shuffled"))
        keys = [k for k in self.compared if k in after_shuffle] if shuffled else self.compared
        expect = {k: o_obs[k] for k in keys}
        mismatches = cmp.compare(expect, i_obs)
        if mismatches:
            record.shuffled = shuffled
            self._diverged(record, "observation", rules,
                           "; ".join(m.describe() for m in mismatches[:4]), expect, i_obs)
            return False
        if shuffled:
            self.stats.shuffles += 1
            return False
        if o_obs.get("game_over"):
            return False
        return not (o_obs.get("round_over") and "scoring" not in self.features)

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

    def _crash(self, record: Divergence, exc: AdapterError, o_obs: dict[str, Any],
               rules: Sequence[str]) -> None:
        kind = "hang" if exc.code == "timeout" else "crash"
        expect = {k: o_obs[k] for k in self.compared if k in COUNT_KEYS} \
            if o_obs.get("shuffled") else {k: o_obs[k] for k in self.compared}
        self._diverged(record, kind, tuple(rules), f"{exc.code}: {exc.message}", expect, {})

    def _diverged(self, record: Divergence, kind: str, rules: tuple[str, ...], message: str,
                  expect: dict[str, Any], observed: dict[str, Any]) -> None:
        from conformance.diff_scenarios import scenario_features

        div = Divergence(kind, rules, message, record.ruleset, record.seed, record.setup,
                         list(record.steps), {k: expect[k] for k in self.compared if k in expect},
                         {k: observed[k] for k in self.compared if k in observed},
                         record.shuffled)
        if not scenario_features(div) <= self.features:
            self.stats.out_of_scope += 1
            return
        if div.key in self.found:
            if self._counting:
                self.counts[div.key] += 1
            return
        self._counting = False  # Hypothesis shrinks from here on: its replays are no findings
        now = time.monotonic()
        self._hit.setdefault(div.key, now - self._t0)
        if self._shrink_end is None:
            self._shrink_end = now + self.shrink_seconds
        self._raised[div.key] = div  # Hypothesis only tries smaller examples: the last is best
        raise self._group_class(div.key)(div)

    def _group_class(self, key: tuple[str, tuple[str, ...]]) -> type[DivergenceFound]:
        cls = self._classes.get(key)
        if cls is None:
            cls = type(f"Divergence{len(self._classes)}", (DivergenceFound,), {})
            self._classes[key] = cls
        return cls

    # --- illegal actions ---------------------------------------------------------------------

    def _illegal(self, kind: str, pick: int, obs: dict[str, Any], legal: list[dict[str, Any]],
                 players: int, ruleset: str) -> dict[str, Any] | None:
        """An action of the given kind that the oracle does not list (None: none exists)."""
        pending = obs.get("pending") or {}
        cur = pending.get("player")
        if cur is None:
            return None
        hands = cmp.normalize("hands", obs.get("hands") or {})
        own = list(hands.get(str(cur), []))
        cands: list[dict[str, Any]] = []
        if kind == "not-held":
            cands = [{"player": cur, "play": c} for s, h in sorted(hands.items()) if s != str(cur)
                     for c in h if c not in own]
        elif kind == "no-match":
            cands = [{"player": cur, "play": c} for c in own]
        elif kind == "out-of-turn":
            cands = [{**a, "player": (cur + k) % players} for a in legal
                     if a.get("player") == cur for k in range(1, players)]
        else:
            other = (cur + 1) % players
            cands = [{"player": cur, "draw": True}, {"player": cur, "pass": True},
                     {"player": cur, "challenge": True}, {"player": cur, "color": "red"},
                     {"player": cur, "uno": True}, {"player": cur, "catch": other},
                     {"player": cur, "swap": other}]
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
            database: ExampleDatabase | str | None = None) -> DiffReport:
        """Fuzz for `examples` examples or `minutes` minutes, in runs of BATCH examples; the
        first run replays the database's examples (previous divergences) first. `seed` makes
        a run reproducible without a database (Hypothesis ignores a database under a seed)."""
        db: ExampleDatabase | None = DirectoryBasedExampleDatabase(database) \
            if isinstance(database, str) else database
        self.stats = Stats()
        t0 = self._t0 = time.monotonic()
        end = None if minutes is None else t0 + minutes * 60
        done = 0
        batch = 0
        try:
            while True:
                n = BATCH if examples is None else min(BATCH, examples - done)
                if n <= 0 or (end is not None and time.monotonic() >= end):
                    break
                before = self.stats.examples
                self._run_batch(n, seed * 1_000_003 + batch, db, replay=batch == 0, t0=t0)
                done += max(self.stats.examples - before, 1)
                batch += 1
        finally:
            self.close()
        groups = [(self.found[k], self.counts[k]) for k in self.found]
        return DiffReport(self.implementation, self.adapter_name, list(self.rulesets),
                          list(self.starts), list(self.compared), self.stats,
                          time.monotonic() - t0, groups, dict(self.first_found),
                          list(self.warnings))

    def _run_batch(self, n: int, seed: int, db: ExampleDatabase | None, *, replay: bool,
                   t0: float) -> None:
        phases = [Phase.reuse] if replay else []
        phases += [Phase.generate, Phase.shrink]
        conf = settings(max_examples=n, deadline=None, database=db, phases=phases,
                        suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                        print_blob=False, report_multiple_bugs=True, derandomize=False)

        def differential(data: st.DataObject) -> None:
            self.example(data)

        test = conf(given(st.data())(differential))
        if db is None:  # Hypothesis uses no database under a fixed seed: seeded runs have none
            test = hypothesis_seed(seed)(test)
        self._counting = True
        self._raised = {}
        self._shrink_end = None
        try:
            test()
        except (KeyboardInterrupt, SystemExit, Interrupted):  # Interrupted: SIGTERM, SIGHUP
            raise
        except BaseException as exc:  # noqa: BLE001 - sorted out below
            problem = _problem(exc)
            if problem is not None:
                raise problem from None
        finally:
            for key, div in self._raised.items():
                if key not in self.found:
                    self.found[key] = div
                    self.first_found[key] = self._hit.get(key, time.monotonic() - t0)
                self.counts[key] += 1


def _problem(exc: BaseException) -> DiffError | None:
    """What to report from a Hypothesis run's exception: None for divergences (collected as
    they were raised) and for the flakiness that an exhausted shrinking budget or an
    implementation that does not answer the same way twice causes; else a DiffError."""
    from hypothesis.errors import Flaky, Unsatisfiable

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
    if isinstance(exc, Flaky):
        return None
    return DiffError(f"internal error: {type(exc).__name__}: {exc}")
