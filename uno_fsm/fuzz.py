"""Stateful fuzzing of the engine with Hypothesis (docs/fuzzing.md).

`make_machine(ruleset, players)` builds a `hypothesis.stateful.RuleBasedStateMachine` that plays
random games through the public API (`Game.new`, `legal_actions`, `apply`, `to_json`...) with
random legal actions, random illegal actions and table penalties, and checks after every step:

- invariants: every card in exactly one place and the deck complete; one well-formed pending
  decision or game over; `legal_actions()` non-empty and accepted; the active colour belongs to
  the side in play;
- postconditions per action kind, computed from the position *before* the action with the small
  independent logic of this module (it never calls the engine's rule helpers), each naming the
  rule ID it checks;
- every illegal action rejected with an `IllegalAction` whose code is in spec/errors.yaml and
  whose rule is in spec/rules, the state unchanged;
- the JSON round trip (and continuing play identically) and replay determinism.

A failed check raises `FuzzFailure`, whose message carries a ready-to-paste conformance scenario
(docs/contracts.md) for the position before the failing action.

`register(sub)` adds the `uno-fsm fuzz` sub-command: a long run against a Hypothesis example
database, with a progress display on stderr.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import yaml
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
from uno_fsm.cards import Card, Face
from uno_fsm.errors import IllegalAction
from uno_fsm.game import Game
from uno_fsm.state import State

T = TypeVar("T")

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
CLASSIC_RULESETS = (
    "classic-official", "classic-2022", "classic-official+cards-2018", "classic-2022+cards-2018",
    "classic-guide",
)
FLIP_RULESET = "flip"
VARIANT_RULESETS = ("classic-official+seven-o", "classic-2022+seven-o", "flip+flip-alt-scoring",
                    "classic-official+stacking", "classic-2022+stacking",
                    "classic-official+jump-in", "classic-2022+jump-in",
                    "classic-official+swap-hands", "classic-2022+swap-hands")
ALL_RULESETS = (*CLASSIC_RULESETS, FLIP_RULESET, *VARIANT_RULESETS)


def stacking(ruleset: str) -> bool:
    """The stacking variant (V.STACK.*): a Draw Two / Wild Draw Four penalty may be passed on."""
    return "stacking" in ruleset.split("+")


def jump_in(ruleset: str) -> bool:
    """The Jump-In variant (V.JUMPIN.*): an identical card may be played out of turn."""
    return "jump-in" in ruleset.split("+")


def seven_o(ruleset: str) -> bool:
    """The Seven-O variant (V.SEVENO.*): a 7 swaps hands with a chosen player, a 0 rotates."""
    return "seven-o" in ruleset.split("+")


@functools.lru_cache(maxsize=8)
def unsupported_reason(ruleset: str) -> str | None:
    """None when the engine can deal and play `ruleset`, else why not (Flip until it lands)."""
    try:
        g = Game.new(ruleset, players=3, seed=0)
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


def expected_deck(ruleset: str) -> Counter[str] | None:
    """The deck by card text, written here from the rules (CL.DECK.*, CL18.DECK), independent
    of the engine's deck builder; None when only the size is known (Flip pairs faces by a
    shuffle)."""
    if ruleset.split("+")[0] == FLIP_RULESET:
        return None
    deck: Counter[str] = Counter()
    for c in "RYGB":  # CL.DECK.COLOURS
        deck[f"{c}0"] += 1  # CL.DECK.NUMBERS: one 0, two of 1..9 per colour
        for d in range(1, 10):
            deck[f"{c}{d}"] += 2
        for r in ("S", "R", "D2"):  # CL.DECK.ACTIONS: two of each per colour
            deck[c + r] += 2
    deck["W"] += 4  # CL.DECK.WILDS
    deck["W4"] += 4
    if "cards-2018" in ruleset.split("+"):  # CL18.DECK: one Shuffle Hands, three custom Wilds
        deck["WSH"] += 1
        deck["WC"] += 3
    if "swap-hands" in ruleset.split("+"):  # V.SWAP.CARD (RUL.SWAP.CARD): one Swap Hands Wild
        deck["WSW"] += 1
    return deck


def expected_faces(ruleset: str) -> tuple[Counter[str], Counter[str]] | None:
    """Flip: the light faces and the dark faces of the 112 cards (FL.DECK.*), whatever the
    pairing; None for classic rulesets."""
    if ruleset.split("+")[0] != FLIP_RULESET:
        return None
    light: Counter[str] = Counter()
    dark: Counter[str] = Counter()
    for lc, dc in zip(CLASSIC_COLORS, DARK_COLORS, strict=True):
        for d in range(1, 10):  # two of 1..9 per colour, no 0
            light[f"{lc}{d}"] += 2
            dark[f"{dc}{d}"] += 2
        for r in ("D1", "R", "S", "F"):
            light[lc + r] += 2
        for r in ("D5", "R", "SE", "F"):
            dark[dc + r] += 2
    light["W"] += 4
    light["W2"] += 4
    dark["W"] += 4
    dark["WDC"] += 4
    return light, dark


def deck_size(ruleset: str) -> int:
    """108 classic (CL.DECK.TOTAL), 112 with cards-2018 (CL18.DECK), 112 Flip (FL.DECK.*),
    109 with swap-hands (V.SWAP.CARD)."""
    deck = expected_deck(ruleset)
    return 112 if deck is None else sum(deck.values())


# ---- spec registries ---------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def error_codes() -> frozenset[str]:
    """Codes of spec/errors.yaml."""
    from uno_spec.loader import load_yaml
    from uno_spec.paths import spec_root

    doc = load_yaml(spec_root() / "errors.yaml")  # the one hardened YAML loader
    return frozenset(str(e["code"]) for e in doc["errors"])


@functools.lru_cache(maxsize=1)
def rule_cites() -> dict[str, tuple[str, ...]]:
    """Rule ID -> the clause IDs it cites (spec/rules/*.yaml)."""
    from uno_spec.loader import load_rules

    return {r.id: tuple(r.cites) for r in load_rules()}


def rule_ids() -> frozenset[str]:
    """IDs of spec/rules/*.yaml."""
    return frozenset(rule_cites())


# ---- independent rule logic (from the rule texts, not from uno_fsm.rules) ----------------
CLASSIC_COLORS = ("R", "Y", "G", "B")
DARK_COLORS = ("P", "T", "O", "V")


def step_seat(seat: int, direction: int, k: int, n: int) -> int:
    """The seat k places from `seat` in the direction of play (CL.SEAT.LEFT, CL.PLAY.DIRECTION)."""
    return (seat + direction * k) % n


def face_on(card: Card, side: str) -> Face:
    return card.dark if side == "dark" and card.dark is not None else card.light


def playable(f: Face, active: str | None, top: Face | None) -> bool:
    """CL.PLAY.MATCH (colour, number or symbol), CL.PLAY.WILD-ANYTIME; FL.FLIP.NEW-TOP-WILD:
    with no colour active (a Wild face turned up by a flip) any card may be played."""
    if f.is_wild or f.color == active or active is None:
        return True
    return top is not None and not top.is_wild and f.rank == top.rank


def points(f: Face, ruleset: str) -> int:
    """CL.SCORE.NUMBERS, CL.SCORE.ACTIONS, CL.SCORE.WILDS, CL18.SCORE (40; 50 in 2022)."""
    if f.number is not None:
        return f.number
    if f.kind in ("skip", "reverse", "draw2"):
        return 20
    if f.kind in ("wild", "wd4", "wild_swap_hands"):  # V.SWAP.POINTS: 50 in both bases
        return 50
    if f.kind in ("wild_shuffle_hands", "custom_wild"):
        return 50 if ruleset.startswith("classic-2022") else 40
    raise NotImplementedError(f"points of {f.kind}")


def one_round_game(ruleset: str) -> bool:
    """CL22.SCORE.ONE-HAND, GUIDE.END.FIRST-OUT: classic-2022 and classic-guide without
    play-for-points end after one hand."""
    parts = ruleset.split("+")
    return parts[0] in ("classic-2022", "classic-guide") and "play-for-points" not in parts


TARGET = 500  # CL.SCORE.TARGET
HAND = 7  # CL.DEAL.SEVEN


@dataclass
class Snap:
    """The public position before an action (copies), for postconditions and scenarios."""

    players: int
    decision: str | None
    current: int | None
    direction: int
    side: str
    hands: list[list[Card]]
    draw: list[Card]  # top last
    discard: list[Card]  # top last
    active_color: str | None
    scores: list[int]
    dealer: int
    catchable: frozenset[int]
    log_len: int
    stack: int = 0  # V.STACK.ACCUMULATE: the penalty the turn owner faces

    @staticmethod
    def of(game: Game) -> Snap:
        s = game.state
        p = game.pending
        catchable = frozenset(a.target for a in game.legal_actions()
                              if a.kind == "catch" and a.target is not None)
        return Snap(s.players, None if p is None else p.decision, None if p is None else p.player,
                    s.direction, s.side, [list(h) for h in s.hands], list(s.draw),
                    list(s.discard), s.active_color, list(s.scores), s.dealer, catchable,
                    len(game.log), s.stack)

    def top(self) -> Face | None:
        return face_on(self.discard[-1], self.side) if self.discard else None

    def turn_position(self) -> bool:
        """Whether `start: turn` (docs/contracts.md) can express this position."""
        return (self.decision == "play" and not self.catchable and bool(self.discard)
                and not self.stack)


class FuzzFailure(AssertionError):
    """A broken invariant or postcondition; the message ends with a conformance scenario."""


def check(cond: bool, rule_id: str, message: str) -> None:
    """Fail with `[rule_id] message` unless `cond`. `rule_id` is a rule of spec/rules, or
    `ENGINE.*` for a property of the engine's API (JSON, replay, the two dispatch paths)."""
    STATS.checked[rule_id] += 1
    if not cond:
        raise AssertionError(f"[{rule_id}] {message}")


def _gain(before: Snap, after: State, seat: int) -> int:
    return len(after.hands[seat]) - len(before.hands[seat])


def _available(before: Snap, played: bool) -> int:
    """Cards a draw can reach: the draw pile, then the discard pile minus the top
    (CL.RESHUFFLE.KEEP-TOP); after a play the old top is no longer the top."""
    return len(before.draw) + max(len(before.discard) - (0 if played else 1), 0)


def postconditions(ruleset: str, before: Snap, action: Action, game: Game,
                   wd4_record: tuple[int, bool, str, str | None] | None,
                   hand: int = HAND, target: int = TARGET) -> None:
    """Check what the rules say `action` (accepted) must have done to the position `before`.
    `hand` and `target` are the ruleset's hand size and target score (CL.DEAL.SEVEN,
    CL.SCORE.TARGET), smaller in the model checker's reduced games (uno_fsm/modelcheck.py)."""
    after = game.state
    n = before.players
    pend = game.pending
    kind = action.kind
    d = before.direction
    new_round = kind == "next-round"
    round_ended = pend is None or pend.decision == "round-over"
    # scores change only at the end of a round (CL.SCORE.WINNER, CL.SCORE.ACCUMULATE)
    if not (kind == "play" and round_ended and before.decision != "round-over"):
        check(list(after.scores) == before.scores, "CL.SCORE.ACCUMULATE",
              f"scores changed from {before.scores} to {after.scores} outside a round end")
    if new_round:  # CL.END.NEW-HAND, CL.DEALER.EACH-HAND
        check(pend is not None and pend.decision in ("play", "color"), "CL.END.NEW-HAND",
              f"no new hand after next-round: pending {pend}")
        check_deal(game, ruleset, hand)
        return
    # a reshuffle keeps the top discard (CL.RESHUFFLE.KEEP-TOP)
    played = kind == "play"
    expected_top = action.card if played else (before.discard[-1] if before.discard else None)
    if played and action.card is not None and before.discard \
            and face_on(action.card, before.side).kind == "flip":
        expected_top = before.discard[0]  # FL.FLIP.DISCARD-TURNED
    if len(after.discard) < len(before.discard) + (1 if played else 0):
        check(len(after.discard) == 1 and after.discard[0] is expected_top,
              "CL.RESHUFFLE.KEEP-TOP",
              f"after a reshuffle the discard pile is {[c.text for c in after.discard]}, "
              f"expected only {expected_top}")
    if kind == "play" and action.player != before.current:
        _post_jump(ruleset, before, action, game, target)
    elif kind == "play":
        _post_play(ruleset, before, action, game, target)
    elif kind == "draw" and before.stack:
        # V.STACK.TAKE-ALL: the whole accumulated penalty, the turn passes, nothing to play
        p = before.current
        assert p is not None
        want = min(before.stack, _available(before, False))
        check(_gain(before, after, p) == want, "V.STACK.TAKE-ALL",
              f"P{p} drew {_gain(before, after, p)} cards facing {before.stack}, expected {want}")
        nxt = step_seat(p, d, 1, n)
        check(pend is not None and pend.player == nxt and pend.decision == "play"
              and after.stack == 0, "V.STACK.TAKE-ALL",
              f"after taking the stack: pending {pend}, stack {after.stack}, expected P{nxt}")
    elif kind == "draw":
        p = before.current
        assert p is not None
        want = min(1, _available(before, False))
        # CL.DRAW.UNABLE / CL.DRAW.UNWILLING: exactly one card (CL.RESHUFFLE.BOTH-EMPTY: none)
        check(_gain(before, after, p) == want, "CL.DRAW.UNABLE",
              f"P{p} drew {_gain(before, after, p)} cards, expected {want}")
        if want:
            got = Counter(after.hands[p]) - Counter(before.hands[p])
            drawn = next(iter(got))
            top = before.top()
            if playable(face_on(drawn, before.side), before.active_color, top):
                # CL.DRAW.PLAY-DRAWN: the player may now play the drawn card or keep it
                check(pend is not None and pend.player == p and pend.decision == "play-drawn",
                      "CL.DRAW.PLAY-DRAWN", f"after drawing playable {drawn}: pending {pend}")
            else:
                # CL.DRAW.UNPLAYABLE-PASSES
                nxt = step_seat(p, d, 1, n)
                check(pend is not None and pend.player == nxt and pend.decision == "play",
                      "CL.DRAW.UNPLAYABLE-PASSES",
                      f"after drawing unplayable {drawn}: pending {pend}, expected P{nxt}")
    elif kind == "pass":
        p = before.current
        assert p is not None
        nxt = step_seat(p, d, 1, n)
        check(pend is not None and pend.player == nxt, "CL.DRAW.KEEP",
              f"after keeping the drawn card: pending {pend}, expected P{nxt}")
        check(after.hands[p] == before.hands[p], "CL.DRAW.KEEP", "the hand changed on a pass")
    elif kind == "color":
        check(after.active_color == action.color, "CL.FIRST.WILD",
              f"active colour {after.active_color}, named {action.color}")
        check(pend is not None and pend.player == before.current and pend.decision == "play",
              "CL.FIRST.WILD", f"after naming the colour: pending {pend}")
    elif kind in ("accept", "challenge"):
        _post_challenge(before, action, game, wd4_record)
    elif kind == "swap":  # V.SEVENO.SEVEN-SWAP, V.SEVENO.CONTINUE, V.SEVENO.UNO
        p, t = before.current, action.target
        assert p is not None and t is not None
        check(Counter(after.hands[p]) == Counter(before.hands[t])
              and Counter(after.hands[t]) == Counter(before.hands[p]), "V.SEVENO.SEVEN-SWAP",
              f"P{p} and P{t} did not exchange hands")
        nxt = step_seat(p, d, 1, n)
        check(pend is not None and pend.player == nxt and pend.decision == "play",
              "V.SEVENO.CONTINUE", f"after the swap: pending {pend}, expected P{nxt}")
        check(not any(a.kind == "catch" for a in game.legal_actions()), "V.SEVENO.UNO",
              "a catch is possible after a swap")
    elif kind in ("catch", "hint"):
        t = action.target
        assert t is not None
        rid = "CL.UNO.CATCH-PENALTY" if kind == "catch" else "CL.PEN.HINT"
        want = min(2, _available(before, False))
        check(_gain(before, after, t) == want, rid,
              f"P{t} grew by {_gain(before, after, t)}, expected {want}")
        check(pend is not None and (pend.player, pend.decision) == (before.current,
                                                                     before.decision),
              rid, f"turn order changed: pending {pend}")
    elif kind == "uno":
        check(after.hands == before.hands, "CL.UNO.CALL-LATE", "hands changed on an UNO call")
        check(not any(a.kind == "catch" and a.target == action.player
                      for a in game.legal_actions()), "CL.UNO.CALL-LATE",
              f"P{action.player} can still be caught after calling UNO")
    elif kind == "wrong-card":
        t = action.target
        assert t is not None
        # V.STACK.TAKE-ALL: a pending penalty is taken too
        want = min(2 + before.stack, _available(before, False))
        check(_gain(before, after, t) == want, "CL.PEN.WRONG-CARD",
              f"P{t} grew by {_gain(before, after, t)}, expected {want}")
        nxt = step_seat(t, d, 1, n)
        check(pend is not None and pend.player == nxt and pend.decision == "play",
              "CL.PEN.WRONG-CARD", f"pending {pend}, expected P{nxt} to play")


# penalty cards: kind -> (cards the victim draws, rule of the effect, rule when going out)
DRAW_CARDS: dict[str, tuple[int, str, str]] = {
    "draw2": (2, "CL.D2.EFFECT", "CL.END.LAST-D2"),
    "draw1": (1, "FL.LIGHT.D1.EFFECT", "FL.END.GO-OUT-DRAW"),
    "draw5": (5, "FL.DARK.D5.EFFECT", "FL.END.GO-OUT-DRAW"),
}
# challengeable cards: kind -> (accept, guilty, innocent) draws; -1: until the named colour
CHALLENGEABLE: dict[str, tuple[int, int, int, str]] = {
    "wd4": (4, 4, 6, "CL.WD4."),
    "wd2": (2, 2, 4, "FL.LIGHT.W2."),
    "wdc": (-1, -1, -1, "FL.DARK.WDC."),
}
FLIP_POINTS = {"draw1": 10, "draw5": 20, "reverse": 20, "skip": 20, "skip_everyone": 30,
               "flip": 20, "wild": 40, "wd2": 50, "wdc": 60}  # FL.SCORE.*


def _drew_until(before: Snap, after: State, seat: int, color: str | None, extra: int,
                avail: int, rid: str) -> None:
    """FL.DARK.WDC.DRAW-UNTIL: at least one card, up to the first of the named colour (then
    `extra` more); FL.DARK.WDC.EXHAUSTED: fewer when the piles run out."""
    got = list((Counter(after.hands[seat]) - Counter(before.hands[seat])).elements())
    gained = _gain(before, after, seat)
    hits = sum(1 for c in got if face_on(c, "dark").color == color)
    if gained < avail:  # the colour was found (then `extra` more)
        check(gained >= 1 + extra and hits >= 1, rid,
              f"P{seat} drew {gained} cards ({hits} {color}) for a Wild Draw Colour")
    if extra == 0:
        check(hits <= 1 and (hits == 1 or gained == avail), rid,
              f"P{seat} drew {gained} cards with {hits} of {color}: drawing stops at the first")


def _post_play(ruleset: str, before: Snap, action: Action, game: Game,
               target: int = TARGET) -> None:
    after = game.state
    pend = game.pending
    n = before.players
    d = before.direction
    p = before.current
    card = action.card
    assert p is not None and card is not None
    f = face_on(card, before.side)
    flip = ruleset.split("+")[0] == FLIP_RULESET
    kind = f.kind
    if kind == "flip":
        # FL.FLIP.DISCARD-TURNED: the whole pile is turned over, the Flip card at the bottom
        want_pile = [*before.discard, card][::-1]
        check(after.discard == want_pile, "FL.FLIP.DISCARD-TURNED",
              f"discard pile after a Flip: {[c.text for c in after.discard]}, expected "
              f"{[c.text for c in want_pile]}")
    else:  # CL.PLAY.DISCARD-FACE-UP: the card leaves the hand and becomes the top
        check(bool(after.discard) and after.discard[-1] is card, "CL.PLAY.DISCARD-FACE-UP",
              f"top is {after.discard[-1] if after.discard else None}, played {card}")
    rotated = seven_o(ruleset) and f.rank == "0" and len(before.hands[p]) > 1
    if rotated:  # V.SEVENO.ZERO-ROTATE: each hand passes on in the direction of play
        for seat in range(n):
            held = Counter(before.hands[seat])
            if seat == p:
                held[card] -= 1
            check(Counter(after.hands[step_seat(seat, d, 1, n)]) == +held,
                  "V.SEVENO.ZERO-ROTATE" if n > 2 else "V.SEVENO.TWO-PLAYERS",
                  f"P{seat}'s hand did not pass to P{step_seat(seat, d, 1, n)} after a 0")
    elif kind != "wild_shuffle_hands":
        check(Counter(after.hands[p])[card] == Counter(before.hands[p])[card] - 1,
              "CL.PLAY.DISCARD-FACE-UP", f"{card} did not leave P{p}'s hand")
    if kind == "flip":
        # FL.FLIP.SIDE-CHANGE; FL.FLIP.DRAW-TURNED: the draw pile is turned over
        other = "dark" if before.side == "light" else "light"
        check(after.side == other, "FL.FLIP.SIDE-CHANGE", f"side {after.side} after a Flip")
        if len(after.draw) == len(before.draw):
            check(after.draw == before.draw[::-1], "FL.FLIP.DRAW-TURNED",
                  "the draw pile was not turned over")
    else:
        check(after.side == before.side, "FL.FLIP.PERSISTS", "the side changed without a Flip")
    victim = step_seat(p, d, 1, n)
    avail = _available(before, True)
    if before.stack:  # V.STACK.D2-ON-D2, V.STACK.W4-ON-W4, V.STACK.NO-CROSS
        top = before.top()
        check(top is not None and kind == top.kind, "V.STACK.NO-CROSS",
              f"{card} played on a pending {top} penalty")
    if len(before.hands[p]) == 1:  # CL.END.OUT
        check(not after.hands[p], "CL.END.OUT", f"P{p} went out but holds {after.hands[p]}")
        if kind in DRAW_CARDS or kind == "wd4" or kind == "wd2":
            k, _, rid = DRAW_CARDS.get(kind, (4 if kind == "wd4" else 2, "", ""))
            rid = rid or ("CL.END.LAST-WD4" if kind == "wd4" else "FL.END.GO-OUT-DRAW")
            if before.stack:  # V.STACK.GO-OUT: the whole accumulated penalty
                k, rid = k + before.stack, "V.STACK.GO-OUT"
            check(_gain(before, after, victim) == min(k, avail), rid,
                  f"P{victim} grew by {_gain(before, after, victim)} on a last {card}")
        elif kind == "wdc":
            _drew_until(before, after, victim, action.color, 0, avail, "FL.END.GO-OUT-DRAW")
        # FL.SCORE.SIDE, FL.END.GO-OUT-FLIP; FL.SCORE.LIGHT-SIDE: always the light faces
        side = "light" if light_scoring(ruleset) else after.side

        def hand_points(h: list[Card]) -> int:
            return sum(flip_points(face_on(c, side)) if flip
                       else points(face_on(c, side), ruleset) for c in h)

        if alt_scoring(ruleset):
            # FLALT.OWN-HAND, FLALT.NO-COLLECT: every player scores their own hand (drawn
            # cards of a last Draw card included: FLALT.GO-OUT-DRAWS); the player who went
            # out holds nothing and collects nothing
            for s_, h in enumerate(after.hands):
                own = hand_points(h)
                check(after.scores[s_] == before.scores[s_] + own,
                      "FLALT.NO-COLLECT" if s_ == p else "FLALT.OWN-HAND",
                      f"P{s_} scored {after.scores[s_] - before.scores[s_]}, holds {own}")
            over = max(after.scores) >= target
            rid = "FLALT.END-500"
        else:
            # PARTNERS.SEATING: seat i partners seat i + n/2; PARTNERS.SCORE: the team scores
            # the opponents' cards only (both partners carry the team total, PARTNERS.TARGET)
            team = {p, (p + n // 2) % n} if partners(ruleset) else {p}
            gained = sum(hand_points(h) for s_, h in enumerate(after.hands) if s_ not in team)
            rid = "PARTNERS.SCORE" if partners(ruleset) else (
                "FL.SCORE.WINNER" if flip else "CL.SCORE.WINNER")
            check(all(after.scores[s_] == before.scores[s_] + gained for s_ in team), rid,
                  f"P{p} scored {after.scores[p] - before.scores[p]}, the opponents hold "
                  f"{gained}")
            check(all(after.scores[s_] == before.scores[s_] for s_ in range(n)
                      if s_ not in team), rid, "a loser's score changed")
            over = one_round_game(ruleset) or after.scores[p] >= target
            one_hand = ("GUIDE.END.FIRST-OUT" if ruleset.startswith("classic-guide")
                        else "CL22.SCORE.ONE-HAND")
            rid = one_hand if one_round_game(ruleset) else (
                "FL.GAME.TARGET-500" if flip else "CL.SCORE.TARGET")
        if over:
            check(pend is None and game.is_over, rid, f"the game should be over: pending {pend}")
        else:
            check(pend is not None and pend.decision == "round-over" and pend.player is None,
                  "CL.END.OUT", f"the round should be over: pending {pend}")
        return
    if kind == "flip":  # FL.FLIP.NEW-TOP-NO-EFFECT, FL.FLIP.NEW-TOP-WILD
        new_top = face_on(before.discard[0] if before.discard else card, after.side)
        check(after.active_color == new_top.color, "FL.FLIP.NEW-TOP-WILD" if new_top.is_wild
              else "FL.FLIP.NEW-TOP-NO-EFFECT",
              f"active colour {after.active_color} after flipping to {new_top}")
    elif f.is_wild:  # CL.WILD.COLOUR, FL.LIGHT.WILD.COLOUR, FL.DARK.WILD.COLOUR
        check(after.active_color == action.color, "CL.WILD.COLOUR",
              f"active colour {after.active_color}, named {action.color}")
    else:  # CL.PLAY.MATCH-COLOUR: the card's colour is the colour now
        check(after.active_color == f.color, "CL.PLAY.MATCH",
              f"active colour {after.active_color} after {card}")
    check(pend is not None, "CL.END.OUT", "the game ended without anyone going out")
    assert pend is not None
    if kind == "skip":  # CL.SKIP.EFFECT, FL.LIGHT.SKIP.EFFECT; CL.TWO.SKIP-AGAIN
        want = step_seat(p, d, 2, n)
        rid = "CL.TWO.SKIP-AGAIN" if n == 2 else ("FL.LIGHT.SKIP.EFFECT" if flip
                                                   else "CL.SKIP.EFFECT")
        check(pend.player == want, rid,
              f"after P{p}'s Skip with {n} players: pending {pend}, expected P{want}")
    elif kind == "skip_everyone":  # FL.DARK.SE.EFFECT
        check(pend.player == p and pend.decision == "play", "FL.DARK.SE.EFFECT",
              f"after P{p}'s Skip Everyone: pending {pend}")
    elif kind == "reverse":  # CL.REVERSE.EFFECT; CL.TWO.REVERSE-SKIP
        rid = ("FL.LIGHT.REVERSE.EFFECT" if before.side == "light" else
               "FL.DARK.REVERSE.EFFECT") if flip else "CL.REVERSE.EFFECT"
        check(after.direction == -d, rid, "the direction did not change")
        want = step_seat(p, d, -1, n) if n > 2 else p
        check(pend.player == want, "CL.REVERSE.NEXT" if n > 2 else "CL.TWO.REVERSE-SKIP",
              f"after P{p}'s Reverse with {n} players: pending {pend}, expected P{want}")
    elif kind == "draw2" and stacking(ruleset):
        # V.STACK.ACCUMULATE, V.STACK.OPTIONAL: nobody draws yet; the victim stacks or draws
        check(_gain(before, after, victim) == 0 and after.stack == before.stack + 2
              and pend.player == victim and pend.decision == "play", "V.STACK.ACCUMULATE",
              f"after P{p}'s {card} on a stack of {before.stack}: stack {after.stack}, "
              f"P{victim} grew by {_gain(before, after, victim)}, pending {pend}")
    elif kind in DRAW_CARDS:  # CL.D2.EFFECT, FL.LIGHT.D1.EFFECT, FL.DARK.D5.EFFECT
        k, rid, _ = DRAW_CARDS[kind]
        check(_gain(before, after, victim) == min(k, avail), rid,
              f"{card} victim P{victim} grew by {_gain(before, after, victim)}, "
              f"expected {min(k, avail)}")
        want = step_seat(p, d, 2, n)
        check(pend.player == want and (pend.player != victim or n == 1), rid,
              f"after P{p}'s {card}: pending {pend}, expected P{want}")
    elif kind in CHALLENGEABLE:  # CL.WD4.CHALLENGE.DECISION, FL.*.CHALLENGER
        rid = CHALLENGEABLE[kind][3]
        rid = "CL.WD4.CHALLENGE.DECISION" if kind == "wd4" else rid + "CHALLENGER"
        check(pend.player == victim and pend.decision == "challenge", rid,
              f"after a {card}: pending {pend}")
        check(_gain(before, after, victim) == 0, rid, "the victim drew before deciding")
        if stacking(ruleset) and kind == "wd4":  # V.STACK.ACCUMULATE
            check(after.stack == before.stack + 4, "V.STACK.ACCUMULATE",
                  f"stack {after.stack} after a Wild Draw Four on {before.stack}")
    elif seven_o(ruleset) and f.rank == "7":  # V.SEVENO.SEVEN-PENDING
        check(pend.player == p and pend.decision == "swap", "V.SEVENO.SEVEN-PENDING",
              f"after P{p}'s 7: pending {pend}, expected P{p} to choose a swap")
    elif kind == "wild_swap_hands":  # V.SWAP.WILD, V.SWAP.TARGET: colour named, swap owed
        check(pend.player == p and pend.decision == "swap", "V.SWAP.TARGET",
              f"after P{p}'s Swap Hands: pending {pend}, expected P{p} to choose a swap")
        check(after.active_color == action.color, "V.SWAP.WILD",
              f"active colour {after.active_color}, named {action.color}")
    elif kind == "wild_shuffle_hands":  # CL18.WSH.COLLECT, CL18.WSH.DEAL
        total_before = sum(len(h) for h in before.hands) - 1
        sizes = [len(h) for h in after.hands]
        check(sum(sizes) == total_before and max(sizes) - min(sizes) <= 1, "CL18.WSH.DEAL",
              f"hands after Wild Shuffle Hands: {sizes}")
        check(pend.player == victim, "CL18.WSH.NEXT", f"pending {pend}, expected P{victim}")
    else:  # numbers, Wild, custom Wild, Flip: CL.PLAY.ONE-CARD, FL.FLIP.NEXT-PLAYER
        check(pend.player == victim and pend.decision == "play",
              "FL.FLIP.NEXT-PLAYER" if kind == "flip" else "CL.PLAY.ONE-CARD",
              f"after P{p}'s {card}: pending {pend}, expected P{victim}")
    if rotated:  # V.SEVENO.UNO: nobody can be caught after a rotation
        check(not any(a.kind == "catch" for a in game.legal_actions()), "V.SEVENO.UNO",
              "a catch is possible after a rotation")
        return
    # CL.UNO.MUST-CALL / CL.UNO.CALL-WITH-PLAY
    if len(after.hands[p]) == 1 and kind != "wild_shuffle_hands":
        can_catch = any(a.kind == "catch" and a.target == p for a in game.legal_actions())
        check(can_catch != action.uno, "CL.UNO.MUST-CALL" if not action.uno
              else "CL.UNO.CALL-WITH-PLAY",
              f"P{p} holds one card, called UNO: {action.uno}, catchable: {can_catch}")


def _post_jump(ruleset: str, before: Snap, action: Action, game: Game,
               target: int = TARGET) -> None:
    """V.JUMPIN.*: an out-of-turn play was accepted; it must have been an identical coloured
    card while the turn owner's play decision was pending, and it acts as if the jumper had
    played in turn (V.JUMPIN.CONTINUES, V.JUMPIN.EFFECTS): the in-turn postconditions hold
    from the jumper's seat."""
    card = action.card
    assert card is not None and action.player is not None
    check(jump_in(ruleset), "CL.PLAY.OUT-OF-TURN", f"out-of-turn {action} accepted")
    top = before.top()
    f = face_on(card, before.side)
    check(top is not None and not f.is_wild and f.color == top.color and f.kind == top.kind
          and f.rank == top.rank, "V.JUMPIN.IDENTICAL", f"{card} jumped in on {top}")
    check(before.decision == "play" and not before.stack, "V.JUMPIN.TIMING",
          f"jump-in while {before.decision} pending (stack {before.stack})")
    _post_play(ruleset, replace(before, current=action.player), action, game, target)


def partners(ruleset: str) -> bool:
    """PARTNERS.*: the partners variant is composed in."""
    return "partners" in ruleset.split("+")[1:]


def alt_scoring(ruleset: str) -> bool:
    """FLALT.*: the flip-alt-scoring variant is composed in."""
    return "flip-alt-scoring" in ruleset.split("+")[1:]


def light_scoring(ruleset: str) -> bool:
    """FL.SCORE.LIGHT-SIDE: the flip-light-scoring variant is composed in."""
    return "flip-light-scoring" in ruleset.split("+")[1:]


def flip_points(f: Face) -> int:
    """FL.SCORE.NUMBER and the FL.SCORE.* values of action and Wild faces."""
    return f.number if f.number is not None else FLIP_POINTS[f.kind]


def _post_challenge(before: Snap, action: Action, game: Game,
                    record: tuple[int, bool, str, str | None] | None) -> None:
    """CL.WD4.ACCEPT / CHALLENGE.*, FL.LIGHT.W2.*, FL.DARK.WDC.*: who draws, who plays."""
    after = game.state
    pend = game.pending
    n, d = before.players, before.direction
    victim = before.current
    check(record is not None, "CL.WD4.CHALLENGE.WHO", f"{action} with no card to challenge")
    assert victim is not None and record is not None
    by, legal, kind, color = record
    accept_n, guilty_n, innocent_n, prefix = CHALLENGEABLE[kind]
    wd4 = kind == "wd4"
    check(after.active_color == before.active_color,
          "CL.WD4.CHALLENGE.COLOUR" if wd4 else prefix + "COLOUR-STANDS",
          "the colour named with the card changed")
    nxt = step_seat(victim, d, 1, n)
    avail = _available(before, False)
    if action.kind == "accept":
        seat, k, extra, rid, want = victim, accept_n, 0, \
            "CL.WD4.ACCEPT" if wd4 else prefix + "ACCEPT", nxt
    elif not legal:
        seat, k, extra, rid, want = by, guilty_n, 0, \
            "CL.WD4.CHALLENGE.GUILTY" if wd4 else prefix + "GUILTY", victim
    else:
        seat, k, extra, rid, want = victim, innocent_n, 2, \
            "CL.WD4.CHALLENGE.INNOCENT" if wd4 else prefix + "INNOCENT", nxt
    if before.stack:
        # V.STACK.W4-CHALLENGE (RUL.STACK.WD4-CHALLENGE), V.STACK.TAKE-ALL: the accumulated
        # penalty, plus 2 for a wrong challenger
        k = before.stack + (2 if action.kind == "challenge" and legal else 0)
        rid = "V.STACK.TAKE-ALL" if action.kind == "accept" else "V.STACK.W4-CHALLENGE"
    if k >= 0:
        check(_gain(before, after, seat) == min(k, avail), rid,
              f"P{seat} grew by {_gain(before, after, seat)}, expected {min(k, avail)}")
    else:
        _drew_until(before, after, seat, color, extra, avail, rid)
    check(pend is not None and pend.player == want, rid, f"pending {pend}, expected P{want}")


Record = tuple[int, bool, str, str | None]


def next_record(record: Record | None, before: Snap, action: Action,
                game: Game) -> Record | None:
    """The challengeable card pending after `action` (accepted): (its player, played legally?,
    kind, colour named), computed from the position before it, for `_post_challenge`."""
    if action.kind == "play" and game.pending is not None \
            and game.pending.decision == "challenge":
        # CL.WD4.LEGAL: legal only without a card of the active colour (Wilds aside)
        assert action.card is not None
        hand = list(before.hands[action.player or 0])
        hand.remove(action.card)
        # (Wild faces have no colour; with no colour active nothing disqualifies it)
        legal = not any(not face_on(c, before.side).is_wild
                        and face_on(c, before.side).color == before.active_color
                        for c in hand)
        return (action.player or 0, legal, face_on(action.card, before.side).kind,
                action.color)
    if action.kind in ("challenge", "accept", "next-round"):
        return None
    return record


def check_deal(game: Game, ruleset: str, hand: int = 7) -> None:
    """Right after a deal: `hand` (seven) cards each and the first-card rule of the ruleset."""
    s = game.state
    pend = game.pending
    base = ruleset.split("+")[0]
    if base == FLIP_RULESET or pend is None:
        return
    n = s.players
    left = (s.dealer + 1) % n  # CL.DEAL.FIRST-PLAYER (left = next seat clockwise)
    top = s.discard[-1].light
    sizes = [len(h) for h in s.hands]
    if base == "classic-2022":
        # CL22.FIRST.IGNORE, CL22.FIRST.STAYS: turned until a number card shows, the others stay
        check(top.kind == "number", "CL22.FIRST.IGNORE", f"first card {top} in classic-2022")
        check(pend.player == left and s.direction == 1, "CL22.FIRST.LEFT-PLAYS",
              f"first card {top}: pending {pend}, dealer P{s.dealer}")
        check(sizes == [hand] * n, "CL.DEAL.SEVEN", f"hands dealt: {sizes}")
        return
    if base == "classic-guide":
        # GUIDE.FIRST.WILD-BACK: a Wild or Wild Draw Four went back, the pile holds one card;
        # GUIDE.FIRST.COLOUR-ONLY: whatever it is, it has no effect
        check(len(s.discard) == 1 and not top.is_wild, "GUIDE.FIRST.WILD-BACK",
              f"discard after the deal: {s.discard}")
        check((pend.player, pend.decision, s.direction) == (left, "play", 1),
              "GUIDE.FIRST.COLOUR-ONLY", f"first card {top}: pending {pend}, dealer P{s.dealer}")
        check(sizes == [hand] * n, "GUIDE.FIRST.COLOUR-ONLY", f"hands dealt: {sizes}")
        return
    check(len(s.discard) == 1, "CL.FIRST.WD4", f"discard after the deal: {s.discard}")
    want_sizes = [hand] * n
    if top.kind == "number":
        want = (left, "play", 1, "CL.FIRST.NUMBER")
    elif top.kind == "skip":
        want = ((left + 1) % n, "play", 1, "CL.FIRST.SKIP")
    elif top.kind == "reverse":
        want = (s.dealer, "play", -1, "CL.FIRST.REVERSE")
    elif top.kind == "draw2":
        want = ((left + 1) % n, "play", 1, "CL.FIRST.D2")
        # CL.RESHUFFLE.BOTH-EMPTY: a reduced deck may hold fewer than two cards to draw
        # (then the draw pile is empty and the player drew what there was)
        want_sizes[left] = hand + 2 if s.draw else max(hand, min(sizes[left], hand + 2))
    elif top.kind == "wd4":
        want = (-1, "", 0, "CL.FIRST.WD4")
    else:  # Wild and the 2018 special Wilds
        want = (left, "color", 1, "CL.FIRST.WILD")
    who, decision, direction, rid = want
    check((pend.player, pend.decision, s.direction) == (who, decision, direction), rid,
          f"first card {top}, dealer P{s.dealer}: pending {pend}, direction {s.direction}")
    check(sizes == want_sizes, rid if top.kind == "draw2" else "CL.DEAL.SEVEN",
          f"hands after the deal: {sizes}")


# ---- invariants --------------------------------------------------------------------------
DECISION_NAMES = frozenset({"play", "play-drawn", "color", "challenge", "swap", "round-over"})


def check_invariants(game: Game, ruleset: str, deck: Counter[str]) -> None:
    s = game.state
    cards = Counter(c.text for c in s.all_cards())
    # CL.DECK.TOTAL / CL18.DECK / FL deck: each card in exactly one place, the deck complete
    check(cards == deck, "CL.DECK.TOTAL",
          f"cards in play differ from the deck: missing {dict(deck - cards)}, "
          f"extra {dict(cards - deck)}")
    if s.drawn is not None and s.phase == "play_drawn" and s.current is not None:
        check(s.drawn in s.hands[s.current], "CL.DRAW.ONLY-DRAWN", "drawn card not in the hand")
    pend = game.pending
    legal = game.legal_actions()
    if game.is_over:
        check(pend is None and not legal, "CL.END.NO-PENDING",
              f"game over with pending {pend} and {len(legal)} legal actions")
        return
    check(pend is not None and pend.decision in DECISION_NAMES, "CL.PLAY.TURN-OPTIONS",
          f"malformed pending decision {pend}")
    assert pend is not None
    if pend.decision == "round-over":
        check(pend.player is None, "CL.END.OUT", f"round over, pending {pend}")
    else:
        check(pend.player is not None and 0 <= pend.player < s.players, "CL.PLAY.TURN-OPTIONS",
              f"pending {pend}")
    check(bool(legal), "CL.PLAY.TURN-OPTIONS", f"no legal action while pending {pend}")
    top = face_on(s.discard[-1], s.side) if s.discard else None
    for a in legal:
        if a.kind not in ("uno", "catch", "next-round") and a.player != pend.player:
            # V.JUMPIN.IDENTICAL, V.JUMPIN.TIMING: only identical cards, only on a play decision
            f = face_on(a.card, s.side) if a.card is not None else None
            check(jump_in(ruleset) and a.kind == "play" and pend.decision == "play"
                  and not s.stack and f is not None and top is not None and not f.is_wild
                  and (f.color, f.kind, f.rank) == (top.color, top.kind, top.rank),
                  "CL.PLAY.OUT-OF-TURN" if not jump_in(ruleset) else "V.JUMPIN.IDENTICAL",
                  f"{a} listed while P{pend.player} owes the decision")
        elif s.stack and a.kind == "play" and a.card is not None and top is not None:
            # V.STACK.NO-CROSS, V.STACK.D2-ON-D2, V.STACK.W4-ON-W4
            check(face_on(a.card, s.side).kind == top.kind, "V.STACK.NO-CROSS",
                  f"{a} listed on a pending {top} penalty")
    if s.stack:  # V.STACK.WHO: a penalty is pending on the turn owner's decision only
        check(stacking(ruleset) and pend.decision in ("play", "challenge"), "V.STACK.WHO",
              f"stack {s.stack} while pending {pend}")
    # side consistency: the active colour is a colour of the side in play (FL.* / CL.WILD)
    check(s.side in ("light", "dark"), "FL.FLIP.SIDE-CHANGE", f"side {s.side!r}")
    if ruleset.split("+")[0] == FLIP_RULESET:
        # FL.FLIP.HANDS-TURNED, FL.FLIP.DISCARD-TURNED: every card is double-faced and every
        # pile and hand shows the face of the one side in play
        check(all(c.dark is not None for c in s.all_cards()), "FL.FLIP.HANDS-TURNED",
              "a card without a dark face in a Flip game")
        view = game.view(pend.player if pend.player is not None else 0)
        shown = s.discard[-1].face(s.side).text if s.discard else None
        check(view["side"] == s.side and view["top"] == shown, "FL.FLIP.DISCARD-TURNED",
              f"view shows {view['top']} on the {view['side']} side; the pile's top face is "
              f"{shown} on the {s.side} side")
    else:
        check(s.side == "light", "CL.DECK.COLOURS", "a classic game left the light side")
    colours = DARK_COLORS if s.side == "dark" else CLASSIC_COLORS
    if s.active_color is not None:
        check(s.active_color in colours, "CL.WILD.FOUR-COLOURS",
              f"active colour {s.active_color} on the {s.side} side")
    elif pend.decision not in ("color", "round-over"):
        top_face = face_on(s.discard[-1], s.side) if s.discard else None
        check(ruleset.split("+")[0] == FLIP_RULESET and top_face is not None
              and top_face.is_wild,
              "CL.WILD.COLOUR", f"no active colour while pending {pend}")


def check_rejected(game: Game, action: Action, before: dict[str, Any], log_len: int,
                   exc: BaseException | None) -> None:
    """An action outside legal_actions() is refused with a coded error; nothing changes."""
    check(exc is not None, "CL.PLAY.ILLEGAL-REJECTED",
          f"{action} is not in legal_actions() but apply() accepted it")
    check(isinstance(exc, IllegalAction), "CL.PLAY.ILLEGAL-REJECTED",
          f"{action} raised {type(exc).__name__}: {exc}, not an IllegalAction")
    assert isinstance(exc, IllegalAction)
    check(bool(exc.code) and exc.code in error_codes(), "CL.PLAY.ILLEGAL-REJECTED",
          f"{action}: error code {exc.code!r} is not in spec/errors.yaml")
    check(bool(exc.rule) and exc.rule in rule_ids(), "CL.PLAY.ILLEGAL-REJECTED",
          f"{action}: rule {exc.rule!r} ({exc.code}) is not in spec/rules")
    check(game.state.to_dict() == before and len(game.log) == log_len, exc.rule,
          f"{action} was refused ({exc.code}) but the state changed")


# ---- illegal action candidates -----------------------------------------------------------
Pick = Callable[[Sequence[Any]], Any]
ILLEGAL_KINDS: tuple[str, ...] = (
    "play", "play", "play", "draw", "pass", "color", "challenge", "accept", "uno", "catch",
    "swap", "next-round",
)


def illegal_candidate(game: Game, pick: Pick, deck_cards: Sequence[Card],
                      kinds: Sequence[str] = ILLEGAL_KINDS) -> Action:
    """A random action of a random kind by a random player, with cards from other hands,
    cards that do not match, wrong decisions and wrong colours. May happen to be legal: the
    caller compares with legal_actions()."""
    s = game.state
    n = s.players
    pend = game.pending
    cur = pend.player if pend is not None and pend.player is not None else 0
    kind = pick(kinds)
    who = pick(("current", "current", "other", "other", "any", "no-seat"))
    player = cur if who == "current" else (
        (cur + pick(range(1, n))) % n if who == "other" else
        pick(range(n)) if who == "any" else pick((n, n + 3, -1)))  # no such seat: malformed
    colours = CLASSIC_COLORS if s.side == "light" else DARK_COLORS
    wrong_colours = DARK_COLORS if s.side == "light" else CLASSIC_COLORS
    if kind == "play":
        own = list(s.hands[player]) if 0 <= player < n else []
        others = [c for i, h in enumerate(s.hands) if i != player for c in h]
        top = face_on(s.discard[-1], s.side) if s.discard else None
        nonmatching = [c for c in own if not playable(face_on(c, s.side), s.active_color, top)]
        pools = [p for p in (own, others, nonmatching, list(s.discard[-1:]), list(deck_cards))
                 if p]
        card = pick(pick(pools))
        color: str | None = pick((None, None, *colours, *wrong_colours[:1]))
        return Action("play", player, card, color, bool(pick((False, False, True))))
    if kind == "color":
        return Action("color", player, color=pick((*colours, *wrong_colours[:1])))
    if kind in ("catch", "swap"):
        return Action(kind, player, target=pick((*range(n), None, n)))
    if kind == "next-round":  # seatless is legal at round over; a named seat is malformed
        return Action("next-round", pick((None, None, player)))
    return Action(kind, player)


# ---- scenarios ---------------------------------------------------------------------------
_COLOR_NAME = {"R": "red", "Y": "yellow", "G": "green", "B": "blue",
               "P": "pink", "T": "teal", "O": "orange", "V": "purple"}


def act_dict(a: Action) -> dict[str, Any]:
    """An action in the scenario `act` vocabulary of docs/contracts.md."""
    d: dict[str, Any] = {}
    if a.kind in ("hint", "wrong-card"):
        d = {"referee": a.kind, "player": a.target}
        if a.card is not None:
            d["card"] = a.card.text
        return d
    d["player"] = a.player
    if a.kind == "play":
        assert a.card is not None
        d["play"] = a.card.text
        if a.color is not None:
            d["color"] = _COLOR_NAME.get(a.color, a.color)
        if a.uno:
            d["uno"] = True
    elif a.kind == "draw":
        d["draw"] = True
    elif a.kind == "pass":
        d["pass"] = True
    elif a.kind == "color":
        d["color"] = _COLOR_NAME.get(a.color or "", a.color)
    elif a.kind in ("challenge", "accept"):
        d["challenge"] = a.kind == "challenge"
    elif a.kind == "uno":
        d["uno"] = True
    elif a.kind in ("catch", "swap"):
        d[a.kind] = a.target
    else:
        d["next_round"] = True  # not in the contract vocabulary: a human has to rewrite it
    return d


def _flow(obj: Any) -> str:
    text = yaml.safe_dump(obj, default_flow_style=True, sort_keys=False, width=10_000).strip()
    return text.removesuffix("...").strip()


def scenario_yaml(ruleset: str, players: int, seed: int, mark: Snap | None,
                  log: Sequence[Action], failing: Action, message: str,
                  origin: Sequence[str] | None = None,
                  deal: dict[str, Any] | None = None) -> str:
    """A conformance scenario for a human to finish: the position before the failing action
    (`start: turn` from the last position that allows it), the actions since, the failing
    action and, as a TODO comment, what the fuzzer expected (never as an `expect`)."""
    found = re.match(r"\[([A-Z0-9.-]+)\]", message)
    rid = found.group(1) if found else ""
    cites = rule_cites().get(rid, ())
    head = list(origin) if origin is not None else [
        "# Found by `uno-fsm fuzz`. Reproduce with:",
        f"#   Game.replay({ruleset!r}, players={players}, seed={seed}, log=[...])",
    ]
    tool = "check" if origin is not None else "fuzz"
    lines = [
        *head,
        "#   log: " + json.dumps([a.to_dict() for a in log]),
        f"#   failing action: {json.dumps(failing.to_dict())}",
        f"id: {tool}.{ruleset.replace('+', '.')}.seed{seed}.step{len(log)}  # TODO: a stable id",
        "title: TODO describe the rule at stake",
        f"ruleset: {ruleset}",
        f"cites: {_flow(list(cites))}  # TODO: check" if cites else "cites: []  # TODO",
        f"rules: [{rid}]  # the rule the fuzzer checked" if cites else "rules: []  # TODO",
        "features: []  # TODO: from spec/features.yaml",
    ]
    if mark is None and deal is not None:
        # the deal itself (docs/contracts.md, `start: round`): hands and draw pile, nothing
        # turned yet; the engine turns the first card from the top of `draw`
        lines += ["setup:"] + [f"  {k}: {_flow(v)}" for k, v in deal.items()]
        lines.append("steps:")
        since: Sequence[Action] = log
    elif mark is None:
        lines += [
            "# No position of this round can be written with `start: turn`; set up the deal",
            "# from the seed and the action log above.",
            f"setup: {{players: {players}}}  # TODO",
            "steps:",
        ]
        since = log
    else:
        assert mark.current is not None
        setup: dict[str, Any] = {
            "players": players, "dealer": mark.dealer, "start": "turn", "current": mark.current,
            "direction": "clockwise" if mark.direction == 1 else "counterclockwise",
        }
        if ruleset.split("+")[0] == FLIP_RULESET:
            setup["side"] = mark.side
        lines += ["setup:"] + [f"  {k}: {_flow(v)}" for k, v in setup.items()]
        lines.append("  hands: " + _flow({i: [c.text for c in h]
                                           for i, h in enumerate(mark.hands)}))
        lines.append("  discard: " + _flow([c.text for c in mark.discard]) + "  # bottom ... top")
        if mark.active_color is not None:
            lines.append(f"  active_color: {_COLOR_NAME.get(mark.active_color)}")
        lines.append("  draw: " + _flow([c.text for c in reversed(mark.draw)]) + "  # top first")
        if any(mark.scores):
            lines.append("  scores: " + _flow(dict(enumerate(mark.scores))))
        lines.append("steps:")
        since = log[mark.log_len:]
    for a in since:
        lines.append(f"  - act: {_flow(act_dict(a))}")
    lines.append(f"  - act: {_flow(act_dict(failing))}")
    for i, text in enumerate(message.splitlines()):
        lines.append(("  # TODO(human): the fuzzer reports: " if i == 0 else "  #   ") + text)
    lines.append("  # TODO(human): write the expected behaviour as `expect:` / `error:` from the"
                 " rules, after checking them")
    return "\n".join(lines) + "\n"


# ---- the state machine -------------------------------------------------------------------
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
ROUND_TRIP_EVERY = 25  # actions between two JSON round trips of one game (they cost O(log))


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


def _copy(game: Game) -> Game:
    return Game(State.from_dict(game.state.to_dict()), game.params, dict(game.origin))


class UnoMachine(RuleBasedStateMachine):
    """Base class; `make_machine` fixes the ruleset and the player counts."""

    ruleset: str = "classic-official"
    illegal_kinds: tuple[str, ...] = ILLEGAL_KINDS

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.seed = 0
        self.players = 0
        self.deck: Counter[str] = Counter()
        self.deck_cards: list[Card] = []
        # the challengeable card just played: (its player, legal?, kind, colour named)
        self.wd4_record: tuple[int, bool, str, str | None] | None = None
        self.mark: Snap | None = None
        self.tick = 0
        self.round_trip_at = 0

    # -- set-up -------------------------------------------------------------------------
    def _start(self, seed: int, players: int) -> None:
        self.seed, self.players = seed, players
        g = Game.new(self.ruleset, players=players, seed=seed)
        self.game = g
        self.wd4_record = None
        self.mark = None
        self.round_trip_at = 0
        STATS.games += 1
        cards = g.state.all_cards()
        want = expected_deck(self.ruleset)
        faces = expected_faces(self.ruleset)
        got = Counter(c.text for c in cards)
        check(want is None or got == want, "CL.DECK.TOTAL",
              f"the deck differs from the rules: missing {dict((want or got) - got)}, "
              f"extra {dict(got - (want or got))}")
        check(len(cards) == deck_size(self.ruleset),
              "FL.DECK.SIZE" if faces is not None else "CL.DECK.TOTAL",
              f"{len(cards)} cards, expected {deck_size(self.ruleset)}")
        if faces is not None:
            light = Counter(c.light.text for c in cards)
            dark = Counter(c.dark.text for c in cards if c.dark is not None)
            check((light, dark) == faces, "FL.DECK.PAIRING",
                  f"Flip faces differ: light {dict(light)}, dark {dict(dark)}")
        self.deck = got
        check_deal(g, self.ruleset)
        self.deck_cards = sorted({c.text: c for c in cards}.values(), key=lambda c: c.text)

    @property
    def g(self) -> Game:
        assert self.game is not None
        return self.game

    def _fail(self, exc: AssertionError, action: Action, log_len: int) -> FuzzFailure:
        text = scenario_yaml(self.ruleset, self.players, self.seed, self.mark,
                             self.g.log[:log_len], action, str(exc))
        return FuzzFailure(f"{exc}\n\nConformance scenario (paste and finish):\n{text}")

    # -- acting -------------------------------------------------------------------------
    def apply_legal(self, action: Action) -> list[Event]:
        g = self.g
        before = Snap.of(g)
        if before.turn_position():
            self.mark = before
        try:
            try:
                events = g.apply(action)
            except IllegalAction as exc:
                raise AssertionError(f"[{exc.rule}] listed action {action} refused: "
                                     f"{exc.code}: {exc.message}") from exc
            postconditions(self.ruleset, before, action, g, self.wd4_record)
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
        before = g.state.to_dict()
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
        STATS.steps += 1
        STATS.illegal += 1

    # -- the invariants -----------------------------------------------------------------
    def check_all(self) -> None:
        if self.game is None:
            return
        g = self.game
        check_invariants(g, self.ruleset, self.deck)
        legal = g.legal_actions()
        if legal:  # every listed action is accepted: sample one per step on a copy
            self.tick += 1
            a = legal[(self.tick * 7919) % len(legal)]
            try:
                _copy(g).apply(a)
            except IllegalAction as exc:
                raise AssertionError(f"[CL.PLAY.TURN-OPTIONS] listed action {a} refused "
                                     f"({exc.rule}): {exc.code}") from exc


def make_machine(ruleset: str, players: int | Sequence[int] = (2, 10),
                 kinds: Sequence[str] = ILLEGAL_KINDS) -> type[UnoMachine]:
    """A state machine class for `ruleset`; `players` is a count or an inclusive range."""
    lo, hi = (players, players) if isinstance(players, int) else (players[0], players[1])

    class Machine(UnoMachine):
        @initialize(seed=st.integers(0, 2**32 - 1), players=st.integers(lo, hi))
        def start(self, seed: int, players: int) -> None:
            self._start(seed, players)

        @precondition(lambda self: self.game is not None and not self.game.is_over)
        @rule(picks=st.lists(st.integers(0, 1023), min_size=1, max_size=8))
        def play_legal(self, picks: list[int]) -> None:
            for i in picks:
                legal = self.g.legal_actions()
                if not legal:
                    break
                self.apply_legal(choose(legal, i))

        @rule(data=st.data())
        def illegal_action(self, data: st.DataObject) -> None:
            g = self.g
            listed = set(g.legal_actions())
            for _ in range(3):
                a = illegal_candidate(g, lambda seq: data.draw(st.sampled_from(seq)),
                                      self.deck_cards, self.illegal_kinds)
                if a not in listed:
                    self.apply_illegal(a)
                    return

        @precondition(lambda self: self.game is not None and not self.game.round_over)
        @rule(seat=st.integers(0, 9), wrong=st.booleans(), data=st.data())
        def referee(self, seat: int, wrong: bool, data: st.DataObject) -> None:
            """Table penalties (never listed): a hint anytime, a wrong card by the owner."""
            g = self.g
            t = seat % g.state.players
            if not wrong:
                self.apply_legal(Action.hint(t))
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
                self.apply_legal(Action.wrong_card(cur, data.draw(st.sampled_from(bad))))

        @precondition(lambda self: self.game is not None
                      and len(self.game.log) >= self.round_trip_at)
        @rule(picks=st.lists(st.integers(0, 1023), max_size=4))
        def json_round_trip(self, picks: list[int]) -> None:
            """to_json/from_json lose nothing and play on identically."""
            g = self.g
            text = g.to_json()
            h = Game.from_json(text)
            check(h.state == g.state and h.to_json() == text, "ENGINE.JSON",
                  "the JSON round trip changed the game")
            for i in picks:
                legal = g.legal_actions()
                check(legal == h.legal_actions(), "ENGINE.JSON",
                      "legal actions differ after a JSON round trip")
                if not legal:
                    break
                a = choose(legal, i)
                e1 = self.apply_legal(a)
                e2 = h.apply(a)
                check(e1 == e2 and g.state == h.state, "ENGINE.JSON",
                      f"after a JSON round trip {a} played differently")
            self.game = h  # go on with the restored game
            self.round_trip_at = len(h.log) + ROUND_TRIP_EVERY

        @precondition(lambda self: self.game is not None and self.game.is_over)
        @rule(seed=st.integers(0, 2**32 - 1))
        def new_game(self, seed: int) -> None:
            self._check_replay()
            self._start(seed, self.players)

        @invariant()
        def every_step(self) -> None:
            self.check_all()

        def _check_replay(self) -> None:
            g = self.g
            again = Game.replay(self.ruleset, self.players, self.seed, g.log)
            check(again.state == g.state, "ENGINE.REPLAY",
                  "seed + action log did not reproduce the game")

        def teardown(self) -> None:
            if self.game is not None:
                self._check_replay()

    Machine.ruleset = ruleset
    Machine.illegal_kinds = tuple(kinds)
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
        check(fast.state == slow.state, "ENGINE.PATHS",
              f"{action}: the states differ between the paths")
        done += 1
    return done


# ---- CLI ---------------------------------------------------------------------------------
def register(sub: Any) -> None:
    """Add `uno-fsm fuzz`."""
    from uno_cli.options import count, positive_number

    p = sub.add_parser("fuzz", help="stateful fuzzing of the engine (Hypothesis)",
                       description="Play random legal and illegal actions against the engine "
                       "for M minutes, checking invariants and rule postconditions.")
    p.add_argument("--minutes", type=positive_number, default=1.0,
                   help="how long to run (default 1)")
    p.add_argument("--ruleset", action="append",
                   help="ruleset (repeatable; default: every supported one of "
                   f"{', '.join(ALL_RULESETS)})")
    p.add_argument("--players", type=count(2, 10),
                   help="player count (default: 2..10 at random)")
    p.add_argument("--seed", type=int, help="seed of the first batch (default: random)")
    p.add_argument("--database", default=".hypothesis/",
                   help="Hypothesis example database directory (default .hypothesis/)")
    p.add_argument("--coverage", action="store_true",
                   help="list the rule IDs checked and how often")
    p.set_defaults(handler=_cmd_fuzz)


class _Progress:
    def __init__(self, label: Callable[[], str]) -> None:
        self.label = label

    def __rich__(self) -> str:
        el = time.monotonic() - STATS.started
        return (f"[bold]fuzz[/] {self.label()}  elapsed {el:6.1f}s  steps {STATS.steps}  "
                f"({STATS.legal} legal, {STATS.illegal} illegal)  games {STATS.games}  "
                f"{STATS.rate():7.0f} steps/s")


def _print_failure(exc: BaseException, depth: int = 0) -> None:
    """The failure with Hypothesis' notes (the minimal program); each one of a group."""
    if isinstance(exc, BaseExceptionGroup):
        print(f"{len(exc.exceptions)} distinct failures:")
        for i, sub in enumerate(exc.exceptions, 1):
            print(f"\n--- failure {i} of {len(exc.exceptions)} ---")
            _print_failure(sub, depth + 1)
        return
    print(f"{type(exc).__name__}: {exc}")
    for note in getattr(exc, "__notes__", ()):
        print(note)


def _cmd_fuzz(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.live import Live

    err = Console(stderr=True)
    names: list[str] = list(args.ruleset or ALL_RULESETS)
    rulesets: list[str] = []
    for name in names:
        why = unsupported_reason(name)
        if why is None:
            rulesets.append(name)
        elif args.ruleset:  # a ruleset asked for by name that cannot be fuzzed: bad input
            print(f"uno-fsm fuzz: cannot fuzz {name}: {why}", file=sys.stderr)
            return 2
        else:
            err.print(f"[yellow]skipped[/] {name}: {why}")
    if not rulesets:
        print("uno-fsm fuzz: no supported ruleset to fuzz", file=sys.stderr)
        return 2
    database = Path(args.database)
    if database.exists() and not database.is_dir():
        print(f"uno-fsm fuzz: --database {database}: not a directory", file=sys.stderr)
        return 2
    players: int | tuple[int, int] = args.players if args.players is not None else (2, 10)
    machines = [make_machine(r, players) for r in rulesets]
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    deadline = time.monotonic() + args.minutes * 60
    STATS.reset()
    current = [rulesets[0]]
    batch = 0
    failure: BaseException | None = None
    live = Live(_Progress(lambda: current[0]), console=err, refresh_per_second=4) \
        if err.is_terminal else None
    if live is not None:
        live.start()
    try:
        while time.monotonic() < deadline:
            m = machines[batch % len(machines)]
            current[0] = m.ruleset
            try:
                run(m, LONG_PROFILE, database=args.database, seed=seed * 1_000_003 + batch)
            except Exception as exc:  # noqa: BLE001 - report any failure
                failure = exc
                break
            batch += 1
            if live is None:
                err.print(_Progress(lambda: current[0]).__rich__(), highlight=False)
    finally:
        if live is not None:
            live.stop()
    elapsed = time.monotonic() - STATS.started
    err.print(f"{STATS.steps} steps in {elapsed:.1f}s: {STATS.rate():.0f} steps/second "
              f"(seed {seed}, {batch} batches); {len(STATS.checked)} rule IDs checked")
    if args.coverage:
        for rid, count in sorted(STATS.checked.items()):
            err.print(f"  {rid:32} {count}", highlight=False)
    if failure is not None:
        print(f"FAILURE in {current[0]} (seed {seed}, batch {batch}):")
        _print_failure(failure)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    from uno_cli.main import main

    sys.exit(main(["fuzz", *sys.argv[1:]]))
