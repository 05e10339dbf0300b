"""Reduce and confirm the divergences of `conformance diff` (docs/differential.md).

A group of the fuzzer is a fact only once its written scenario, run by the runner, fails on the
implementation for the group's reason and passes on the reference (Csmith's rule: a divergence
is reported once it reproduces deterministically). Each group goes through three stages:

1. **interesting**: the scenario of its example (the smallest seen and the one Hypothesis
   shrank, each; conformance.diff_scenarios), run on the implementation, fails at its deciding step
   with the group's deviation (conformance.blame's `Group` of the failure's `Signature`: what
   differs and the rule broken; the decision may differ);
2. **reduced** (C-Reduce style, pass by pass: `PASSES`): fewer players, fewer steps, fewer
   cards in hands (every hand at once, then each in halves down to single cards), a shorter
   draw pile, a discard pile of its top card only, no scores, each candidate kept while its
   scenario stays interesting. A candidate's expectations are the oracle's, played again on the
   candidate (`record`); what the fuzzer compared after a shuffle is what the oracle observes
   alike under other seeds. `Reduction` says whether it finished (nothing smaller fails) or ran
   out of time; `above_target` turns that into the report's reason for a group larger than 3
   players and 16 cards in hands;
3. **confirmed**: the reduced scenario fails on the implementation with the deviation and
   passes on the reference on `runs` runs (with other seeds when it shuffles); else the group
   is dropped, and counted as not reproducible.

`Confirmation` keeps what was done, so that an interrupted run reports it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from conformance.blame import Group, Signature, replayed_refusal, result_signature
from uno_spec.signals import raise_pending

if TYPE_CHECKING:
    from conformance.diff import Differ
    from conformance.divergence import Divergence, Dropped, StepRecord

SEED_STEP = 7919  # other seeds tried for a scenario that shuffles
UNCITED = "uncited:none:0"  # the stand-in citation of a scenario run but never written


@dataclass
class _Verdict:
    ok: bool
    why: str = ""


class Checker:
    """Runs the scenarios of one group on the implementation and on the reference."""

    def __init__(self, differ: Differ, impl: Any, ref: Any) -> None:
        self.differ = differ
        self.impl = impl  # a Runner of the implementation
        self.ref = ref  # a Runner of the reference (the oracle)
        self.checks = 0
        self.message = ""  # the last failure's, on the implementation

    def _scenario(self, div: Divergence, seed: int | None = None) -> Any:
        from conformance.diff_scenarios import scenario
        from conformance.scenario import ScenarioError, parse_data

        raise_pending()  # each candidate a safe point (uno_spec.signals): a signal is acted on
        doc = scenario(div, "diff", 0)
        # after each step before the deciding one, the observation the group shows differ
        # (`Signature.what`) as the implementation matched it there (the fuzzer compared every
        # step): a candidate differing there earlier fails before its deciding step, and is
        # not the group (a reduction traded a deviation for another showing at the same last
        # step). Only that observation: another deviation earlier (a deck refilled from
        # nowhere) leaves the group's own, which a small scenario may show beside it.
        key = div.signature.what.split(".", 1)[0] if div.kind == "observation" else ""
        checked: list[dict[str, Any]] = []
        for i, step in enumerate(doc["steps"]):
            checked.append(step)
            seen = div.steps[i].expect if i < len(div.steps) - 1 else None
            if seen and key in seen:
                checked.append({"expect": {key: seen[key]}})
        doc["steps"] = checked
        if seed is not None:
            doc["seed"] = seed
        if not doc["cites"]:
            # no rule at stake (a crash, a hang or a protocol error at the set-up): the
            # scenario is run to confirm it all the same, under a stand-in citation the
            # schema accepts; it is never written (`write_all` skips what cites nothing), so
            # the stand-in is never shown (until 7 December such a group was always dropped,
            # and an implementation crashing at every set-up had "no divergence")
            doc["cites"] = [UNCITED]
        try:
            return parse_data(doc, "<diff>")
        except (ScenarioError, ValueError):
            return None

    def signature_on_impl(self, div: Divergence, seed: int | None = None) -> Signature | None:
        """The signature of the scenario's failure on the implementation, when it fails at
        its deciding step (None: it passed, or failed elsewhere, or could not be written)."""
        sc = self._scenario(div, seed)
        if sc is None:
            return None
        self.checks += 1
        res = self.impl.run_one(sc).to_json()
        self.message = str(res.get("message", ""))
        if res["outcome"] not in ("failed", "errored"):
            return None
        step = res.get("step")
        if div.steps:  # the deciding step: the last (a crash may come at the act before it)
            ok = step == len(sc.steps) or (div.kind in ("crash", "hang")
                                           and step == len(sc.steps) - 1)
        else:  # the set-up, or the expectation right after it
            ok = step in (None, 1)
        if not ok:
            return None
        last = div.steps[-1] if div.steps else None
        return result_signature(
            res, decision=last.decision if last else "setup",
            events=(last.events or [{"kind": "", "rule": r} for r in last.rules]) if last
            else div.setup_events,
            rejection=last.rejection if last else None, before=last.before if last else None,
            players=div.players, ruleset=div.ruleset, after=div.after,
            previous=_previous(div), action=last.act if last else None, at=div.expect,
            refusal=replayed_refusal(res, sc, self.differ.oracle))

    def passes_on_reference(self, div: Divergence, seed: int | None = None) -> bool:
        sc = self._scenario(div, seed)
        return sc is not None and self.ref.run_one(sc).outcome == "passed"

    def interesting(self, div: Divergence) -> bool:
        """Whether its scenario fails on the implementation with the same deviation (its
        group: the decision, or a two-player consequence of the rule, may differ)."""
        got = self.signature_on_impl(div)
        return got is not None and got.group == div.key

    def steady(self, div: Divergence) -> bool:
        """Whether a scenario that shuffles fails with the same deviation under the other
        seeds its confirmation will run (a small pile shuffled may turn up the very card the
        reference keeps: such a candidate is not kept); True for one that does not shuffle."""
        if not div.shuffled:
            return True
        message = self.message
        for i in range(1, max(self.differ.confirm_runs, 1)):
            got = self.signature_on_impl(div, div.seed + SEED_STEP * i)
            if got is None or got.group != div.key:
                return False
        self.message = message
        return True

    def reproduces(self, div: Divergence, runs: int) -> _Verdict:
        seeds = [div.seed + SEED_STEP * i if div.shuffled else div.seed for i in range(runs)]
        for s in seeds:
            if not self.passes_on_reference(div, s):
                return _Verdict(False, f"its scenario fails on the reference (seed {s})")
            got = self.signature_on_impl(div, s)
            if got is None or got.group != div.key:
                return _Verdict(False, "its scenario does not fail the same way on the "
                                f"implementation (seed {s}: "
                                + (got.describe() if got else "passed or failed elsewhere")
                                + ")")
        return _Verdict(True)


def _previous(div: Divergence) -> tuple[list[dict[str, Any]], str | None] | None:
    """The oracle's events and waited-for decision after the last accepted step before the
    deciding one (the set-up's when there is none)."""
    if not div.steps:
        return None
    accepted = [s for s in div.steps[:-1] if s.rejection is None]
    return (accepted[-1].events, accepted[-1].after) if accepted else \
        (div.setup_events, div.setup_after)


# --- playing a candidate on the oracle -----------------------------------------------------


def record(differ: Differ, div: Divergence, setup: dict[str, Any],
           acts: list[dict[str, Any]]) -> Divergence | None:
    """The divergence `div` as it would be found from `setup` and `acts`: the oracle's steps
    (rejections, rules, events) and its observations after the last one (after a shuffle, only
    what it leaves fixed). None when the oracle refuses the set-up."""
    from conformance.divergence import StepRecord, before_step

    o = differ.oracle
    keys = differ.oracle_keys
    params = {"ruleset": div.ruleset, "setup": setup, "seed": div.seed}
    if differ._o(o.setup, params) is not None:
        return None
    obs = differ._o(o.observe, keys)
    setup_events = list(obs.get("events") or []) or \
        [{"kind": "", "rule": r} for r in obs.get("rules_applied") or []]
    setup_after = (obs.get("pending") or {}).get("decision")
    steps: list[StepRecord] = []
    rules = tuple(obs.get("rules_applied") or ())
    compared = True  # the fuzzer compares each step as long as nothing shuffled
    for act in acts:
        pending = obs.get("pending") or {}
        before = before_step(obs)
        rej = differ._o(o.act, act)
        obs = differ._o(o.observe, keys)
        rules = tuple(obs["rules_applied"]) if rej is None else \
            ((rej["rule"],) if rej.get("rule") else ())
        compared = compared and not obs.get("shuffled")
        # what the fuzzer would have compared the implementation on after the act (not after
        # a rejection, nor after a play judged by its acceptance alone, `Differ._accepting`)
        expect = differ._expectation(div, obs, False, replayed=False) \
            if compared and rej is None and not differ._accepting(obs, div.ruleset) else None
        steps.append(StepRecord(act, rej, list(rules),
                                list(obs.get("events") or []) if rej is None else [],
                                str(pending.get("decision") or "none"), before,
                                (obs.get("pending") or {}).get("decision"), expect))
    shuffled = bool(obs.get("shuffled")) and (not steps or steps[-1].rejection is None)
    probe = replace(div, setup=setup, steps=steps, shuffled=shuffled)
    if shuffled:
        deal = not steps or bool(steps[-1].act.get("next_round"))
        expect = differ.shuffle_fixed(probe, obs, deal)
    else:
        expect = differ.expected(obs, div.ruleset)
    return replace(probe, rules=rules, expect=expect, setup_events=setup_events,
                   observed={}, after=(obs.get("pending") or {}).get("decision"),
                   setup_after=setup_after)


# --- candidates ------------------------------------------------------------------------------


def _renumber(value: Any, gone: int) -> Any:
    return value - 1 if isinstance(value, int) and value > gone else value


def _without_player(setup: dict[str, Any], acts: list[dict[str, Any]], gone: int
                    ) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The position without seat `gone` (the seats after it renumbered), and the acts that do
    not name it; None when the seat cannot go (the last two, the current player)."""
    n = int(setup.get("players") or 0)
    if n <= 2 or setup.get("eliminated"):
        return None
    kept = [a for a in acts if gone not in (a.get("player"), a.get("catch"), a.get("swap"))]
    if not kept and acts:
        return None
    out = dict(setup, players=n - 1)
    if "current" in setup:
        if setup["current"] == gone:
            return None
        out["current"] = _renumber(setup["current"], gone)
    if "dealer" in setup:
        out["dealer"] = setup["dealer"] if setup["dealer"] < gone else \
            (setup["dealer"] - 1) % (n - 1)
    for key in ("hands", "scores"):
        if isinstance(setup.get(key), dict):
            out[key] = {str(_renumber(int(s), gone)): v for s, v in setup[key].items()
                        if int(s) != gone}
    new_acts = [{k: _renumber(v, gone) if k in ("player", "catch", "swap") else v
                 for k, v in a.items()} for a in kept]
    return out, new_acts


def _chunks(items: list[Any], keep_last: bool = False) -> Iterator[tuple[str, list[Any]]]:
    """`items` without a run of them, the longest runs first (ddmin's order)."""
    body = items[:-1] if keep_last else items
    tail = items[-1:] if keep_last else []
    size = len(body)
    while size >= 1:
        for start in range(0, len(body) - size + 1, size):
            yield f"-{size}@{start}", body[:start] + body[start + size:] + tail
        size //= 2


Candidate = tuple[str, dict[str, Any], list[dict[str, Any]]]


def _seats(setup: dict[str, Any], acts: list[dict[str, Any]]) -> Iterator[Candidate]:
    """A seat fewer (the biggest cut: a whole hand), the last seats first."""
    for gone in range(int(setup.get("players") or 0) - 1, -1, -1):
        cut = _without_player(setup, acts, gone)
        if cut is not None:
            yield f"seat {gone}", cut[0], cut[1]


def _steps(setup: dict[str, Any], acts: list[dict[str, Any]]) -> Iterator[Candidate]:
    for what, fewer in _chunks(acts, keep_last=True):
        yield f"steps {what}", setup, fewer


def _table(setup: dict[str, Any], acts: list[dict[str, Any]]) -> Iterator[Candidate]:
    """No scores, the discard pile down to its top card, the draw pile cut in halves."""
    if setup.get("scores"):
        yield "scores", {k: v for k, v in setup.items() if k != "scores"}, acts
    if len(setup.get("discard") or []) > 1:
        yield "discard", dict(setup, discard=setup["discard"][-1:]), acts
    pile = list(setup.get("draw") or [])
    size = len(pile) // 2
    while size >= 1:
        yield f"draw pile to {len(pile) - size}", dict(setup, draw=pile[:len(pile) - size]), acts
        size //= 2


def _hands(setup: dict[str, Any], acts: list[dict[str, Any]]) -> Iterator[Candidate]:
    """Fewer cards in hands: every hand at once down to one card, then to half, then each hand
    on its own, runs of cards removed in ddmin's order down to single cards (a hand keeps one:
    an empty hand has gone out)."""
    hands: dict[str, Any] = dict(setup.get("hands") or {})
    if sum(len(h) > 1 for h in hands.values()) > 1:
        for what, keep in (("every hand to one card", lambda h: h[:1]),
                           ("every hand halved", lambda h: h[:max(1, (len(h) + 1) // 2)])):
            yield what, dict(setup, hands={s: keep(list(h)) for s, h in hands.items()}), acts
    for seat, hand in sorted(hands.items(), key=lambda kv: -len(kv[1])):
        for what, rest in _chunks(list(hand)):
            if rest:
                yield f"hand {seat} {what}", dict(setup, hands={**hands, seat: rest}), acts


def _draw_cards(setup: dict[str, Any], acts: list[dict[str, Any]]) -> Iterator[Candidate]:
    pile = list(setup.get("draw") or [])
    for what, rest in _chunks(pile):
        if len(rest) < len(pile) and what.startswith("-1@"):
            yield f"draw {what}", dict(setup, draw=rest), acts


PASSES = (_seats, _steps, _table, _hands, _draw_cards)  # after the set-up rerooted


def candidates(setup: dict[str, Any], acts: list[dict[str, Any]]) -> Iterator[Candidate]:
    """Smaller versions of (setup, acts), pass by pass (`PASSES`), the biggest cuts first."""
    for make in PASSES:
        yield from make(setup, acts)


def _rerooted(differ: Differ, div: Divergence) -> Iterator[Candidate]:
    """The position after the first k steps (the oracle's, as a `start: turn` set-up) with the
    steps after it, the latest first: the steps before the deciding one go into the set-up."""
    acts = [s.act for s in div.steps]
    for k in range(len(acts) - 1, 0, -1):
        params = {"ruleset": div.ruleset, "setup": div.setup, "seed": div.seed}
        if differ._o(differ.oracle.setup, params) is not None:
            return
        for a in acts[:k]:
            differ._o(differ.oracle.act, a)
        pos = differ._turn()
        if pos is not None:
            yield f"set-up after step {k}", pos, acts[k:]


@dataclass
class Reduction:
    """How a group's reduction ended: `finished` when no candidate stayed failing (removing
    any one seat, step or card, a hand keeping one, stops the failure: the scenario is as small
    as this reducer makes it), else it ran out of its time; the candidates tried, the seconds."""

    finished: bool
    tried: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"finished": self.finished, "candidates_tried": self.tried,
                "seconds": round(self.seconds, 3)}


TARGET_PLAYERS = 3  # issue 22: every group at most 3 players and 16 cards in hands ...
TARGET_CARDS = 16  # ... unless the deviation needs more, and then the report says why


def above_target(div: Divergence, how: Reduction | None) -> str | None:
    """Why a reported group is larger than the target (None when it is not): its reduction
    finished, and nothing smaller fails (the deviation needs this much), or it ran out of
    time (it may be smaller)."""
    players, cards = div.players, div.cards_in_hands
    if players <= TARGET_PLAYERS and cards <= TARGET_CARDS:
        return None
    size = f"{players} players and {cards} cards in hands, above the target of " \
        f"{TARGET_PLAYERS} and {TARGET_CARDS}"
    if how is None:
        return f"{size}: not reduced"
    if how.finished:
        return (f"{size}: the deviation needs them (the reduction finished: every smaller "
                "candidate, a seat or steps fewer, any one card fewer (a hand keeping one), "
                f"stops the failure; {how.tried} candidates tried)")
    return (f"{size}: the reduction ran out of its time ({how.seconds:.0f} s, {how.tried} "
            "candidates tried): it may be smaller (--reduce-seconds)")


def reduce(checker: Checker, div: Divergence, seconds: float
           ) -> tuple[Divergence, Reduction]:
    """The smallest version of `div` found within `seconds` that stays interesting (fails on
    the implementation with the same deviation), and how the reduction ended. Greedy, pass by
    pass (C-Reduce): a pass that made the scenario smaller starts again on it, until a round of
    every pass keeps nothing; a candidate already tried is not tried again."""
    t0 = time.monotonic()
    end = t0 + seconds
    best = div
    tried: set[str] = set()
    passes: list[Any] = [lambda d: _rerooted(checker.differ, d)]
    passes += [lambda d, make=make: make(d.setup, [s.act for s in d.steps]) for make in PASSES]
    progress = True
    while progress:
        progress = False
        for make in passes:
            cands = make(best)
            while (nxt := next(cands, None)) is not None:
                if time.monotonic() >= end:
                    return best, Reduction(False, len(tried), time.monotonic() - t0)
                _what, setup, acts = nxt
                key = json.dumps([setup, acts], sort_keys=True, default=str)
                if key in tried:
                    continue
                tried.add(key)
                cand = record(checker.differ, best, setup, acts)
                if cand is None:
                    continue
                got = checker.signature_on_impl(cand)
                if got is not None and got.group == best.key and checker.steady(cand):
                    best = replace(cand, message=checker.message, signature=got)
                    progress = True
                    cands = make(best)  # this pass again, on the smaller scenario
    return best, Reduction(True, len(tried), time.monotonic() - t0)


@dataclass
class Confirmation:
    """What `confirm_groups` has done so far (kept when a signal stops it midway): the groups
    confirmed (by deviation), those dropped, the groups done (confirmed or dropped), the stage
    it is at and how each confirmed group's reduction ended."""

    kept: dict[Group, tuple[Divergence, int]] = field(default_factory=dict)
    dropped: list[Dropped] = field(default_factory=list)
    done: set[Group] = field(default_factory=set)
    stage: str = "reduction"  # or "confirmation" (of the group being done)
    reductions: dict[Group, Reduction] = field(default_factory=dict)

    @property
    def groups(self) -> list[tuple[Divergence, int]]:
        return list(self.kept.values())


def confirm_groups(differ: Differ, groups: list[tuple[Divergence, int]],
                   state: Confirmation | None = None) -> Confirmation:
    """Each group reduced and confirmed, from the smallest example seen of it (`Differ.
    smallest`) and from the one found and shrunk, the smaller result kept; what reproduces
    from neither dropped. `state` records the progress (an interrupt leaves in it what was
    done)."""
    from conformance.divergence import Dropped
    from conformance.runner import Runner

    state = state if state is not None else Confirmation()
    differ.close()  # the fuzzing adapters: the runners start their own
    impl = Runner(differ.impl.factory, adapter_name=differ.adapter_name, timeout=differ.timeout)
    ref = Runner(differ.oracle.factory, adapter_name="reference", timeout=differ.timeout)
    checker = Checker(differ, impl, ref)
    try:
        for found, count in groups:
            why = ""
            # from the smallest example seen of the group and from the one Hypothesis shrank:
            # the smaller of what each reduces to and confirms (fewer cards may need more steps)
            for div in [d for d in (differ.smallest.get(found.key), found) if d is not None]:
                state.stage = "reduction"
                if not checker.interesting(div):
                    got = checker.signature_on_impl(div)
                    why = ("its scenario does not fail that way on the implementation ("
                           + (got.describe() if got else "passed or failed elsewhere") + ")")
                    continue
                small, how = reduce(checker, div, differ.reduce_seconds)
                state.stage = "confirmation"
                verdict = checker.reproduces(small, differ.confirm_runs)
                if not verdict.ok:
                    why = verdict.why
                    continue
                kept = state.kept.get(found.key)
                if kept is None or small.size < kept[0].size:
                    state.kept[found.key] = (small, count)
                    state.reductions[found.key] = how
            if found.key not in state.kept:
                state.dropped.append(Dropped(found.signature, count, why))
            state.done.add(found.key)
    finally:
        impl.close()
        ref.close()
        differ.close()
    return state
