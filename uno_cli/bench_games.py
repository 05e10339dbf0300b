"""Like-for-like game stepping: the reference engine against RLCard (docs/performance.md).

Every game is timed in parts on both sides: its **set-up** (the engine: `Game.new`, which
shuffles, deals and turns the first card; RLCard: `UnoGame(num_players=p)`, its numpy
`RandomState(seed)` and `init_game()`), the engine's **next deals** (an RLCard game is one
hand; an engine game is played hand after hand to its target score, and the `next-round`
action that deals the next hand is set-up too, timed apart: listing it, choosing it, applying
it), its **stepping** (within hands: listing the legal actions and applying one) and the
**decisions** (the policy choosing among the listed actions, timed around each call on every
side). `actions_per_s` is stepping only: actions within hands over stepping seconds. The set-up
(per game and per hand) and the decisions are reported beside it; `actions_per_s_with_setup`
is what a figure that folds everything into the loop says (how the first `bench` measured:
RLCard pays its set-up every ~50 actions, the engine every few thousand).

Sides (one action = one decision within a hand; the choice is timed apart on every side):

- `uno_fsm_rlcard_policy`: the engine driven by RLCard's policy, so that game lengths and legal
  actions per decision are comparable: the current player plays a random playable card (a Wild
  Draw Four only when nothing else is playable, UNO called with the play), draws only when it
  cannot play, plays a playable drawn card, accepts a Wild Draw Four, picks a random colour or
  swap target; `next-round` between rounds. The like-for-like side.
- `uno_fsm_random`: the engine, a uniformly random legal action each time (catches, late UNO
  calls, challenges, draws while holding a playable card... every official rule exercised).
- `rlcard_step`: RLCard's public stepping API, `state, _ = game.step(rng.choice(
  state["legal_actions"]))` (`step` builds the next player's state, legal actions included).
- `rlcard_round_loop`: RLCard's bare round loop, `round.get_legal_actions(players, current)` then
  `round.proceed_round(players, action)`, no state dict.

Every side does the same work: in each repetition it steps at least `actions` actions, in whole
games (game j of a side is always the same game: seed + j), and the sides take **turns** of
about `TURN` actions each (each side plays whole games until it has reached the turn's share of
`actions`, then the next side plays; the side that starts turns over turn by turn). A busy
moment of a shared machine, which lasts longer than a turn (~20 ms), hits every side alike;
ratios are taken per repetition and reported as median, min and max.

RLCard is imported here only (this module benchmarks it); without it the RLCard sides are
skipped with a note and the engine sides are still measured.
"""

from __future__ import annotations

import gc
import importlib.util
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from uno_fsm.rules import VARIANTS
from uno_spec.signals import raise_pending

RLCARD_MISSING = ("RLCard is not installed: the comparison with RLCard needs the `rlcard` "
                  "extra (pip install 'uno-fsm[rlcard]'); the engine was measured alone")
HEADLINE = "classic-official/4"  # every official rule on, 4 players


@dataclass(frozen=True)
class Config:
    name: str
    ruleset: str
    players: int
    rlcard: str | None  # None: RLCard plays this configuration; else why it is not compared


CONFIGS: tuple[Config, ...] = (
    Config("classic-official/2", "classic-official", 2, None),
    Config("classic-official/4", "classic-official", 4, None),
    Config("classic-official/10", "classic-official", 10, None),
    Config("flip/4", "flip", 4, "RLCard has no UNO Flip: the engine is measured alone"),
    # the variants that declare `Variant.bench` (uno_fsm/rules/), composed in the registry's
    # order: the house rules whose hooks sit on the engine's hot path
    Config("variants/4", "+".join(("classic-official", *(v.name for v in VARIANTS if v.bench))),
           4, "RLCard has none of these variants: the engine is measured alone"),
)


@dataclass
class Tally:
    """One repetition of one side: what was played and how long it took."""

    games: int = 0
    hands: int = 0  # an RLCard game is one hand; an engine game is played to its target score
    actions: int = 0  # decisions within hands (the engine's `next-round` deals are set-up)
    legal: int = 0  # legal actions listed, summed over those decisions
    setup_s: float = 0.0  # each game's set-up (its first deal included)
    deal_s: float = 0.0  # the engine's next hands: listing, choosing and applying `next-round`
    step_s: float = 0.0  # the whole loop after the set-up (deals and decisions included)
    decide_s: float = 0.0  # of which: the policy choosing among the legal actions in hands

    def add(self, other: Tally) -> None:
        """Count the games of `other` in this tally too."""
        self.games += other.games
        self.hands += other.hands
        self.actions += other.actions
        self.legal += other.legal
        self.setup_s += other.setup_s
        self.step_s += other.step_s
        self.decide_s += other.decide_s
        self.deal_s += other.deal_s

    def add_game(self, hands: int, actions: int, legal: int, setup_s: float, step_s: float,
                 decide_s: float, deal_s: float = 0.0) -> None:
        """Count one game played (outside the timed loop)."""
        self.games += 1
        self.hands += hands
        self.actions += actions
        self.legal += legal
        self.setup_s += setup_s
        self.step_s += step_s
        self.decide_s += decide_s
        self.deal_s += deal_s

    @property
    def stepping_s(self) -> float:
        """The implementation's own time in hands: listing the legal actions, applying one."""
        return self.step_s - self.decide_s - self.deal_s


def rlcard_available() -> bool:
    try:
        return importlib.util.find_spec("rlcard") is not None
    except (ImportError, ValueError):
        return False


# ---- the engine ----------------------------------------------------------------------------
def _random_policy(game: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    return rng.choice(legal)


def _rlcard_policy(game: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    """RLCard's policy on the engine's legal actions (see the module docstring)."""
    cur = game.state.current
    phase = game.state.phase
    mine = [a for a in legal if a.player == cur and a.kind not in ("uno", "catch")]
    if phase in ("play", "play_drawn"):
        plays = [a for a in mine if a.kind == "play"]
        if plays:
            called = [a for a in plays if a.uno]
            plays = called or plays
            # RLCard lists a Wild Draw Four only when nothing else is playable
            face = game._rules.face
            plain = [a for a in plays if face(a.card).kind not in _DRAW_WILDS]
            return rng.choice(plain or plays)
        return next(a for a in mine if a.kind in ("draw", "pass"))
    if phase == "challenge":
        for a in mine:
            if a.kind == "accept":
                return a
    return rng.choice(mine or legal)


_DRAW_WILDS = frozenset({"wd4", "wd2", "wdc"})  # the Wilds with a penalty (and a challenge)

POLICIES: dict[str, Callable[[Any, Sequence[Any], random.Random], Any]] = {
    "uno_fsm_rlcard_policy": _rlcard_policy,
    "uno_fsm_random": _random_policy,
}


def engine_games(ruleset: str, players: int, games: int, seed: int,
                 policy: Callable[[Any, Sequence[Any], random.Random], Any]) -> Tally:
    from uno_fsm.game import Game

    clock = time.perf_counter
    rng = random.Random(seed)
    t = Tally()
    for i in range(games):
        t0 = clock()
        game = Game.new(ruleset, players=players, seed=seed + i)
        t1 = clock()
        legal_actions, apply, st = game.legal_actions, game.apply, game.state
        actions = legal = hands = 0
        decide = deal = 0.0
        while not game.is_over:
            if st.phase == "round_over":  # the next hand's deal: set-up, as RLCard's init_game
                d0 = clock()
                apply(policy(game, legal_actions(), rng))
                deal += clock() - d0
                hands += 1
                continue
            options = legal_actions()
            legal += len(options)
            d0 = clock()
            action = policy(game, options, rng)
            decide += clock() - d0
            apply(action)
            actions += 1
        t2 = clock()
        t.add_game(hands + 1, actions, legal, t1 - t0, t2 - t1, decide, deal)
    return t


# ---- RLCard --------------------------------------------------------------------------------
def _rlcard_setup(players: int, seed: int) -> tuple[Any, Any]:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)
    state, _ = game.init_game()
    return game, state


def rlcard_step_games(players: int, games: int, seed: int) -> Tally:
    clock = time.perf_counter
    rng = random.Random(seed)
    t = Tally()
    for i in range(games):
        t0 = clock()
        game, state = _rlcard_setup(players, seed + i)
        t1 = clock()
        step, is_over, choice = game.step, game.is_over, rng.choice
        actions = legal = 0
        decide = 0.0
        while not is_over():
            options = state["legal_actions"]
            legal += len(options)
            d0 = clock()
            action = choice(options)
            decide += clock() - d0
            state, _ = step(action)
            actions += 1
        t2 = clock()
        t.add_game(1, actions, legal, t1 - t0, t2 - t1, decide)
    return t


def rlcard_round_games(players: int, games: int, seed: int) -> Tally:
    clock = time.perf_counter
    rng = random.Random(seed)
    t = Tally()
    for i in range(games):
        t0 = clock()
        game, _ = _rlcard_setup(players, seed + i)
        t1 = clock()
        rnd, hands = game.round, game.players
        get_legal, proceed, choice = rnd.get_legal_actions, rnd.proceed_round, rng.choice
        actions = legal = 0
        decide = 0.0
        while not rnd.is_over:
            options = get_legal(hands, rnd.current_player)
            legal += len(options)
            d0 = clock()
            action = choice(options)
            decide += clock() - d0
            proceed(hands, action)
            actions += 1
        t2 = clock()
        t.add_game(1, actions, legal, t1 - t0, t2 - t1, decide)
    return t


# ---- measuring -----------------------------------------------------------------------------
def _spread(values: Sequence[float], digits: int) -> dict[str, float]:
    return {"median": round(float(statistics.median(values)), digits),
            "min": round(min(values), digits), "max": round(max(values), digits)}


def _side_stats(runs: Sequence[Tally]) -> dict[str, Any]:
    first = runs[0]
    return {
        "games": first.games,
        "hands": first.hands,
        "actions": first.actions,
        "actions_per_game": round(first.actions / first.games, 1),
        "hands_per_game": round(first.hands / first.games, 2),
        "actions_per_hand": round(first.actions / first.hands, 1),
        "legal_per_decision": round(first.legal / first.actions, 2) if first.actions else 0.0,
        "actions_per_s": _spread([r.actions / r.stepping_s for r in runs], 0),
        "us_per_action": _spread([1e6 * r.stepping_s / r.actions for r in runs], 2),
        "decide_us_per_action": _spread([1e6 * r.decide_s / r.actions for r in runs], 2),
        "setup_us_per_game": _spread([1e6 * r.setup_s / r.games for r in runs], 1),
        "setup_us_per_hand": _spread([1e6 * (r.setup_s + r.deal_s) / r.hands for r in runs], 1),
        "actions_per_s_with_setup": _spread([_rate_with_setup(r) for r in runs], 0),
        "repetitions": len(runs),
    }


def _rate_with_setup(r: Tally) -> float:
    """The first bench's figure: every action (`next-round` too) over all the time, set-up and
    decisions included."""
    return (r.actions + r.hands - r.games) / (r.step_s + r.setup_s)


def _ratio(ours: Sequence[Tally], theirs: Sequence[Tally],
           rate: Callable[[Tally], float] = lambda r: r.actions / r.stepping_s,
           ) -> dict[str, float]:
    return _spread([rate(a) / rate(b) for a, b in zip(ours, theirs, strict=True)], 3)


TURN = 2_000  # actions a side steps in one turn, before the next side's turn (about 20 ms)


def _repetition(sides: dict[str, Callable[[int], Tally]], names: Sequence[str], actions: int,
                first: int) -> dict[str, Tally]:
    """One repetition: every side steps at least `actions` actions in whole games, the sides
    taking turns of about TURN actions; `first` rotates which side starts each turn."""
    done = {n: Tally() for n in names}
    turns = max(1, -(-actions // TURN))
    gc.collect()
    for k in range(1, turns + 1):
        raise_pending()  # each turn a safe point: a signal whose exception vanished (in a
        # collection's callback: uno_spec.signals) ends the benchmark here
        share = -(-actions * k // turns)  # at least `actions` after the last turn
        at = (first + k) % len(names)
        for name in [*names[at:], *names[:at]]:
            t = done[name]
            while t.actions < share:
                t.add(sides[name](t.games))  # game j of a side is always the same game
    return done


def bench_config(cfg: Config, repeat: int, actions: int, with_rlcard: bool,
                 seed: int = 1) -> dict[str, Any]:
    def engine(policy: Callable[[Any, Sequence[Any], random.Random], Any],
               j: int) -> Tally:
        return engine_games(cfg.ruleset, cfg.players, 1, seed + j, policy)

    sides: dict[str, Callable[[int], Tally]] = {
        name: partial(engine, policy) for name, policy in POLICIES.items()}
    compared = with_rlcard and cfg.rlcard is None
    if compared:
        sides["rlcard_step"] = lambda j: rlcard_step_games(cfg.players, 1, seed + j)
        sides["rlcard_round_loop"] = lambda j: rlcard_round_games(cfg.players, 1, seed + j)
    # warm-up: imports, the ruleset's parameters, interned cards and actions
    for name in sides:
        if name.startswith("uno_fsm"):
            engine_games(cfg.ruleset, cfg.players, 1, seed + 10_000, POLICIES[name])
    if compared:
        rlcard_step_games(cfg.players, 20, seed + 10_000)
        rlcard_round_games(cfg.players, 20, seed + 10_000)
    names = list(sides)
    runs: dict[str, list[Tally]] = {n: [] for n in names}
    for i in range(repeat):
        for name, tally in _repetition(sides, names, actions, i).items():
            runs[name].append(tally)
    out: dict[str, Any] = {"ruleset": cfg.ruleset, "players": cfg.players,
                           "sides": {n: _side_stats(runs[n]) for n in names}}
    ours = runs["uno_fsm_rlcard_policy"]
    if compared:
        step, rnd = _ratio(ours, runs["rlcard_step"]), _ratio(ours, runs["rlcard_round_loop"])
        out["ratio_step_like_for_like"] = step["median"]
        out["ratio_round_loop_like_for_like"] = rnd["median"]
        out["ratios"] = {
            "step_like_for_like": step,
            "round_loop_like_for_like": rnd,
            "step_random_policy": _ratio(runs["uno_fsm_random"], runs["rlcard_step"]),
            "round_loop_random_policy": _ratio(runs["uno_fsm_random"],
                                               runs["rlcard_round_loop"]),
            # the first bench's method: set-up inside the per-action figure, random policy
            "step_with_setup_random_policy": _ratio(runs["uno_fsm_random"],
                                                    runs["rlcard_step"], _rate_with_setup),
        }
    else:
        out["ratio_step_like_for_like"] = out["ratio_round_loop_like_for_like"] = None
        out["rlcard"] = {"compared": False,
                         "reason": cfg.rlcard if cfg.rlcard is not None else RLCARD_MISSING}
    return out


def bench_like_for_like(repeat: int, actions: int, with_rlcard: bool,
                        configs: Sequence[Config] = CONFIGS) -> dict[str, Any]:
    return {cfg.name: bench_config(cfg, repeat, actions, with_rlcard) for cfg in configs}


def render_text(results: dict[str, Any]) -> list[str]:
    lines = ["like-for-like stepping (set-up timed apart; medians, [min-max] over repetitions)",
             f"  {'configuration':20} {'side':22} {'actions/hand':>12} {'hands/game':>10} "
             f"{'legal/dec':>9} {'actions/s':>10} {'[min-max]':>17} {'set-up us/hand':>14}"]
    for name, entry in results.items():
        for side, s in entry["sides"].items():
            a = s["actions_per_s"]
            span = f"[{a['min']:.0f}-{a['max']:.0f}]"
            lines.append(f"  {name:20} {side:22} {s['actions_per_hand']:>12} "
                         f"{s['hands_per_game']:>10} {s['legal_per_decision']:>9} "
                         f"{a['median']:>10.0f} {span:>17} "
                         f"{s['setup_us_per_hand']['median']:>14.1f}")
        if entry.get("ratios"):
            r = entry["ratios"]
            lines.append(f"  {name:20} ratio, same policy: step "
                         f"{_fmt(r['step_like_for_like'])}, round loop "
                         f"{_fmt(r['round_loop_like_for_like'])}; random policy: step "
                         f"{_fmt(r['step_random_policy'])}, round loop "
                         f"{_fmt(r['round_loop_random_policy'])}; set-up folded in (old "
                         f"method): {_fmt(r['step_with_setup_random_policy'])}")
        else:
            lines.append(f"  {name:20} {entry['rlcard']['reason']}")
    return lines


def _fmt(s: dict[str, float]) -> str:
    return f"{s['median']} [{s['min']}-{s['max']}]"
