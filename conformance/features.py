"""What each feature of the registry (spec/features.yaml, and each variant's `feature` in
spec/rulesets/) demands: the features a scenario uses.

A scenario requires exactly the features its setup, actions and observations use; an adapter
that does not declare one of them gets `unsupported` for it. `conformance lint` compares each
scenario's declared `features` with `required(scenario, trace)` and reports any difference, so
a tag can neither hide a deviation (a Wild Draw Four play tagged with the challenge it never
makes) nor be forgotten. `NEEDS` is the one definition: `uno-fsm conformance features` prints
it and docs/implementers.md explains it.

Two sources, and no rule coded here: what the scenario says (its set-up, with the first card
of a `start: round` set-up, the top of its `draw`; the actions it names; the observations it
expects), and what the reference engine did when it was run (`trace`:
conformance.adapters.reference.reference_run, the same run that measures the phase edges):
the face in play of each card an action names (the engine's side, so a Flip card played turns
it for the next actions), the new top a Flip card turned up, the decision pending before each
action (an action refused while a Wild Draw card awaits its victim's answer), and the rule
IDs of its events (the draw pile running out: the discards reshuffled, CL.RESHUFFLE.KEEP-TOP,
or nothing left, CL.RESHUFFLE.BOTH-EMPTY). A card counts when it is named by a play, even in
an action the scenario expects to be rejected (the implementation must still know the card to
refuse it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from conformance import specdata
from conformance.scenario import Scenario
from uno_spec import notation

if TYPE_CHECKING:
    from conformance.adapters.reference import Trace



@functools.cache
def action_faces() -> frozenset[str]:
    """The symbols of the coloured cards that are not numbers (the notation, uno_spec.notation,
    a variant's cards included): written after a colour letter."""
    return frozenset(k.rank for k in notation.kinds() if not k.wild)


@functools.cache
def wild_faces() -> frozenset[str]:
    """The Wilds of the notation, a variant's included (no colour letter)."""
    return frozenset(k.rank for k in notation.kinds() if k.wild)

# the rules of the engine's events when the draw pile runs out: the discards reshuffled into
# it (`reshuffled`), or nothing left to draw (`exhausted`)
EXHAUSTED = frozenset({"CL.RESHUFFLE.KEEP-TOP", "CL.RESHUFFLE.BOTH-EMPTY"})


def symbol(face: str) -> str:
    """`W4` -> `W4`, `RD2` -> `D2`, `R5` -> `5`, `TSE` -> `SE` (a face without its colour)."""
    face = face.upper()
    if face in wild_faces():
        return face
    return face[1:]


@dataclass
class Facts:
    """What a scenario uses, gathered in one walk through its steps."""

    game: str  # classic | flip
    parts: tuple[str, ...]  # the ruleset's base and variants
    players: int
    start: str  # turn | round | game
    target: bool  # the ruleset plays to a target score (not one hand)
    faces: list[str] = field(default_factory=list)  # played or turned first, face in play
    actions: set[str] = field(default_factory=set)  # play draw pass uno challenge catch ...
    challenged: bool = False  # `challenge: true`, a refused `challenge: false`, or an action
    # refused while a Wild Draw Four (W2, WDC) awaits its victim's answer
    uno: bool = False  # `uno: true` with a play or alone
    drew_then_acted: bool = False  # the drawer acted again before anyone else's accepted action
    observed: set[str] = field(default_factory=set)
    decisions: set[str] = field(default_factory=set)  # pending.decision values expected
    shown: bool = False  # a views.<seat>.shown expectation naming a hand
    setup_scores: bool = False
    errors: set[str] = field(default_factory=set)  # error codes the steps expect
    top: str = ""  # the face on top of the set-up's discard pile
    reshuffled: bool = False  # the accepted steps take more cards than the draw pile holds
    refused: bool = False  # the set-up itself must be refused (`expect_setup_error`)
    setup_keys: frozenset[str] = frozenset()  # the keys of the set-up
    match: bool = False  # a match scenario: the `match` operation, no game set up


def facts(sc: Scenario, trace: Trace | None = None) -> Facts:
    """What `sc` uses: read from the scenario, and from the reference engine's `trace` of it
    (without one, only what the scenario says: no faces, reshuffles or pending challenges)."""
    parts = tuple(sc.ruleset.split("+"))
    game = "flip" if parts[0] == "flip" else "classic"
    setup = sc.setup
    try:
        params: Any = specdata.ruleset_params(sc.ruleset)
    except Exception:  # an unknown ruleset is lint's error already
        params = {}
    target = (params.get("scoring") or {}).get("target", 0) is not None
    f = Facts(game=game, parts=parts, players=int(setup.get("players", 0)),
              start=str(setup.get("start", "turn")), target=target,
              setup_scores=bool(setup.get("scores")),
              refused=sc.expect_setup_error is not None,
              setup_keys=frozenset(setup), match=sc.match is not None)
    discard = setup.get("discard") or []
    steps = list(trace.steps) if trace is not None else []
    draw = setup.get("draw") or []
    if f.start == "round" and draw:  # the first card turned from `draw` (a round starts light)
        f.faces.append(_written(draw[0], False))
    if trace is not None and trace.ran:
        f.reshuffled |= bool(EXHAUSTED & set(trace.setup_rules))
    if discard:
        f.top = _written(discard[-1], setup.get("side") == "dark")
    drawer: Any = None  # the seat whose accepted draw is the last accepted action
    done = iter(steps)  # the engine's record of each act, in order (it stops at a failure)
    for step in sc.steps:
        if step.expect is not None:
            _observe(f, step.expect)
            continue
        did = next(done, None)
        act = step.act or {}
        accepted = step.error is None
        if step.error is not None:
            f.errors.add(step.error)
        keys = set(act) - {"player", "card", "color", "uno"}
        if not keys and "color" in act:
            keys = {"color-choice"}  # the colour of a Wild turned first, named alone
        if not keys and "uno" in act:
            keys = {"uno"}
        f.actions |= keys
        f.uno |= act.get("uno") is True
        seat = act.get("player")
        if drawer is not None and seat == drawer:
            f.drew_then_acted = True
        if "challenge" in act:
            if act["challenge"] is True or not accepted:
                f.challenged = True  # a challenge, or a refused answer to none
        elif did is not None and not accepted and did.decision == "challenge":
            f.challenged = True  # refused because the victim owes the challenge decision
        if "play" in act and (did is None or did.face is None):
            # not run on the engine (no trace, or it stopped at an earlier step): the card as
            # written, by its face of the set-up's side
            f.faces.append(_written(act["play"], setup.get("side") == "dark"))
        if did is not None:
            if "play" in act and did.face is not None:
                f.faces.append(did.face)
            if did.accepted and "next_round" not in act:  # a next hand's cards are shuffled
                f.faces.extend(did.turned)
            if did.accepted:
                f.reshuffled |= bool(EXHAUSTED & set(did.rules))
        if accepted:
            drawer = seat if "draw" in act else None
    return f


def _written(card: Any, dark: bool) -> str:
    """A card as the scenario writes it, by its face of a side (`R5`, `RF/W`)."""
    faces = str(card).upper().split("/")
    return faces[1] if dark and len(faces) > 1 else faces[0]


def _observe(f: Facts, expect: dict[str, Any]) -> None:
    f.observed |= set(expect)
    pending = expect.get("pending")
    if isinstance(pending, dict) and "decision" in pending:
        f.decisions.add(str(pending["decision"]))
    for view in (expect.get("views") or {}).values():
        if isinstance(view, dict) and view.get("shown"):
            f.shown = True


def _symbols(f: Facts) -> set[str]:
    return {symbol(face) for face in f.faces}


def _challenge(f: Facts) -> bool:
    return f.challenged or "challenge" in f.decisions or f.shown


def _target(f: Facts) -> bool:
    """Scores or a game played to a target: the points of a hand are part of what is judged."""
    return ("scores" in f.observed or f.setup_scores or "next_round" in f.actions
            or (f.target and ("game_over" in f.observed or "round-over" in f.errors)))


def _variant(part: str, setup: frozenset[str], observed: frozenset[str]
             ) -> Callable[[Facts], bool]:
    return lambda f: part in f.parts or bool(f.setup_keys & setup or f.observed & observed)


def _variant_need(part: str, setup: frozenset[str], observed: frozenset[str]) -> str:
    also = [*(f"a set-up `{k}`" for k in sorted(setup)),
            *(f"an `{k}` expectation" for k in sorted(observed))]
    return f"the ruleset includes the `{part}` variant" + (
        f", {', '.join(also[:-1])} or {also[-1]}" if len(also) > 1 else
        f", or {also[0]}" if also else "")


# feature id -> (what a scenario uses that needs it, the test). One definition per feature.
NEEDS: dict[str, tuple[str, Callable[[Facts], bool]]] = {
    "basic-play": ("any `play`, `draw` or `pass` action",
                   lambda f: bool(f.actions & {"play", "draw", "pass"})),
    "draw-then-play": ("a player acting again after their own accepted `draw` (playing the drawn "
                       "card, `pass`, or a refused attempt) before any other accepted action, "
                       "or a `pending.decision: play-drawn` expectation",
                       lambda f: f.drew_then_acted or "play-drawn" in f.decisions),
    "action-cards": ("a Skip, Reverse or Draw Two (Flip: Draw One, Draw Five, Skip Everyone, "
                     "Flip, Reverse, Skip) played or turned first",
                     lambda f: bool(_symbols(f) & action_faces())),
    "wild": ("a Wild of any kind (W, W4, W2, WDC, or a variant's) played or turned first, or on "
             "top of the set-up's discard pile (its named colour in force), a colour named "
             "alone (`{player, color}`), or a `pending.decision: color` expectation",
             lambda f: bool(_symbols(f) & wild_faces()) or "color-choice" in f.actions
             or "color" in f.decisions or f.top in wild_faces()),
    "wd4": ("a Wild Draw Four (W4) played or turned first; declining its challenge "
            "(`challenge: false`, taking the four cards) is part of it",
            lambda f: "W4" in _symbols(f)),
    "wd4-challenge": ("classic rulesets: a `challenge: true` action (or a refused `challenge: "
                      "false`), any action refused while a Wild Draw Four awaits its victim's "
                      "answer, a `pending.decision: challenge` expectation, or a view's `shown` "
                      "hand",
                      lambda f: f.game == "classic" and _challenge(f)),
    "flip-challenge": ("Flip: a `challenge: true` action (or a refused `challenge: false`), "
                       "any action refused while a Wild Draw Two or Wild Draw Colour awaits its "
                       "victim's answer, a `pending.decision: challenge` expectation, or a "
                       "view's `shown` hand",
                       lambda f: f.game == "flip" and _challenge(f)),
    "uno-call": ("`uno: true`, with a play or alone", lambda f: f.uno),
    "uno-catch": ("a `catch` action", lambda f: "catch" in f.actions),
    "first-card": ("`start: round` (the first card turned from `draw`), or a `next_round` "
                   "action (the next hand's first card)",
                   lambda f: f.start == "round" or "next_round" in f.actions),
    "deal": ("the implementation deals: `start: game`, or a `next_round` action; `start: round` "
             "does not (its hands are given)",
             lambda f: f.start == "game" or "next_round" in f.actions),
    "setup-refusal": ("`expect_setup_error`: the set-up itself must be refused with a code",
                      lambda f: f.refused),
    "game-start": ("`start: game`: the dealer chosen from the given deck order, then shuffle, "
                   "deal and first card", lambda f: f.start == "game"),
    "views": ("a `views` expectation", lambda f: "views" in f.observed),
    "reshuffle": ("the accepted steps take more cards than `draw` holds (a draw, a draw card's "
                  "effect, a penalty): the pile runs out and the discards are reshuffled",
                  lambda f: f.reshuffled),
    "scoring": ("a `scores` expectation or set-up, a `next_round` action, or, in a ruleset "
                "played to a target score (not classic-2022's one hand), a `game_over` "
                "expectation or an expected `round-over` error (the game goes on after the "
                "hand)", _target),
    "two-player": ("a table of two players (`players: 2`)", lambda f: f.players == 2),
    "referee-penalties": ("a `referee` action", lambda f: "referee" in f.actions),
    "flip": ("the ruleset is UNO Flip (base `flip`)", lambda f: f.game == "flip"),
    # each variant's own feature (spec/rulesets/<variant>.yaml, `feature`: with the set-up
    # fields and observations only that variant gives meaning to)
    **{v.feature: (_variant_need(part, v.setup, v.observations),
                   _variant(part, v.setup, v.observations))
       for part, v in specdata.variant_features().items()},
    # PARTNERS.ROTATION.*, PARTNERS.TOURNAMENT.*: a match of several hands, no game set up
    "partners-match": ("a `match` block: a match format's schedule or the tally of hands it "
                       "fixes, asked of the adapter's `match` operation",
                       lambda f: f.match),
}


def required(sc: Scenario, trace: Trace | None = None) -> list[str]:
    """The features a scenario uses, in the order of NEEDS (`trace`: the reference engine's
    run of it; `conformance lint` passes it)."""
    f = facts(sc, trace)
    return [feature for feature, (_, test) in NEEDS.items() if test(f)]
