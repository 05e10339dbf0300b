"""What each feature of spec/features.yaml demands: the features a scenario's steps use.

A scenario requires exactly the features its setup, actions and observations use; an adapter
that does not declare one of them gets `unsupported` for it. `conformance lint` compares each
scenario's declared `features` with `required(scenario)` and reports any difference, so a tag
can neither hide a deviation (a Wild Draw Four play tagged with the challenge it never makes)
nor be forgotten. `NEEDS` is the one definition: `uno-fsm conformance features` prints it and
docs/implementers.md explains it.

Cards count by the face in play: in Flip the side is followed through the steps (a played Flip
card turns it over). A card counts when it is played, even in an action the scenario expects to
be rejected (the implementation must still know the card to refuse it), and when it is turned
as the first card of a `start: round` set-up (the top of `draw`), and a played Flip card's other
face counts too (it is the new top once everything is turned over).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conformance import specdata
from conformance.scenario import Scenario

ACTION_FACES = ("S", "R", "D2", "D1", "D5", "SE", "F")  # colour + symbol
WILD_FACES = ("W", "W4", "W2", "WDC", "WSH", "WC", "WSW")
_CHALLENGED = {"W4", "W2", "WDC"}  # a challengeable play (CL.WD4.*, FL.*.W2/WDC.*)
# The ruleset parameter holding the cards each effect takes from the draw pile (spec/rulesets/;
# the Wild Draw Colour takes cards until the named colour).
_DRAW_PARAMS = {"D2": "draw2", "D1": "draw1", "D5": "draw5", "W4": "wd4", "W2": "wd2"}
VARIANT_FEATURES = {"cards-2018": "cards-2018", "stacking": "stacking", "seven-o": "seven-o",
                    "jump-in": "jump-in", "swap-hands": "swap-hands", "partners": "partners",
                    "desafio": "desafio", "flip-alt-scoring": "alt-scoring",
                    "flip-light-scoring": "light-scoring"}


def symbol(face: str) -> str:
    """`W4` -> `W4`, `RD2` -> `D2`, `R5` -> `5`, `TSE` -> `SE` (a face without its colour)."""
    face = face.upper()
    if face in WILD_FACES:
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
    eliminated: bool = False  # Desafio: `eliminated` set up or observed
    match: bool = False  # a match scenario: the `match` operation, no game set up


def _face(card: str, dark: bool) -> str:
    faces = str(card).upper().split("/")
    return faces[1] if dark and len(faces) > 1 else faces[0]


_DARK = {"pink": "P", "teal": "T", "orange": "O", "purple": "V"}


@dataclass
class _Pile:
    """The draw pile as the accepted steps take from it, to see whether it runs out."""

    cards: list[str]
    out: bool = False  # more was asked of it than it held: the discards were reshuffled
    known: bool = True  # False once a new hand is dealt from a shuffled deck

    def take(self, n: int) -> None:
        if not self.known:
            return
        if n > len(self.cards):
            self.out = True
        del self.cards[:n]

    def until(self, color: str | None) -> None:
        """A Wild Draw Colour: cards are drawn until one of the named colour (dark faces)."""
        letter = _DARK.get(str(color or "").lower())
        if not self.known:
            return
        for i, card in enumerate(self.cards):
            face = _face(card, True)
            if letter and face[:1] == letter and face not in WILD_FACES:
                del self.cards[:i + 1]
                return
        self.take(len(self.cards) + 1)


def facts(sc: Scenario) -> Facts:
    parts = tuple(sc.ruleset.split("+"))
    game = "flip" if parts[0] == "flip" else "classic"
    setup = sc.setup
    try:
        params: Any = specdata.ruleset_params(sc.ruleset)
    except Exception:  # an unknown ruleset is lint's error already
        params = {}
    target = (params.get("scoring") or {}).get("target", 0) is not None
    draws = {sym: int((params.get(key) or {}).get("draw", 0)) for sym, key in _DRAW_PARAMS.items()}
    penalties = params.get("penalties") or {}
    penalty = {"catch": int((params.get("uno") or {}).get("penalty", 0)),
               "hint": int(penalties.get("hint", 0)),
               "wrong-card": int(penalties.get("wrong_card", 0))}
    f = Facts(game=game, parts=parts, players=int(setup.get("players", 0)),
              start=str(setup.get("start", "turn")), target=target,
              setup_scores=bool(setup.get("scores")),
              refused=sc.expect_setup_error is not None,
              eliminated="eliminated" in setup, match=sc.match is not None)
    pile = _Pile([str(c) for c in setup.get("draw") or []])
    held: dict[Any, int] = {int(s): len(cards) for s, cards in (setup.get("hands") or {}).items()}
    discard = setup.get("discard") or []
    if discard:
        f.top = _face(discard[-1], setup.get("side") == "dark")
    dark = setup.get("side") == "dark"
    if f.start == "round" and pile.cards:
        first = _face(pile.cards[0], False)  # a Flip round starts on the light side
        f.faces.append(first)
        pile.take(1)
        dark = symbol(first) == "F"
    drawer: Any = None  # the seat whose accepted draw is the last accepted action
    owed: tuple[str, Any] | None = None  # a challengeable play's draw, due when answered
    for step in sc.steps:
        if step.expect is not None:
            _observe(f, step.expect)
            continue
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
        elif owed is not None and not accepted:
            f.challenged = True  # refused because the victim owes the challenge decision
        if "play" in act:
            face = _face(act["play"], dark)
            f.faces.append(face)
        if not accepted:
            continue
        if "play" in act:
            sym = symbol(face)
            held[seat] = held.get(seat, 0) - 1
            if sym in _CHALLENGED and held[seat] > 0:
                owed = (sym, act.get("color"))
            elif sym == "WDC":
                pile.until(act.get("color"))
            else:
                pile.take(draws.get(sym, 0))
            if sym == "F":
                dark = not dark
                pile.cards.reverse()  # the draw pile is turned over too
                f.faces.append(_face(act["play"], dark))  # its other face is the new top
        if "challenge" in act and owed is not None:
            sym, color = owed
            pile.until(color) if sym == "WDC" else pile.take(draws[sym])
            owed = None
        if "draw" in act:
            pile.take(int((params.get("draw") or {}).get("count", 1)))
            held[seat] = held.get(seat, 0) + 1
        if "catch" in act or "referee" in act:
            pile.take(penalty["catch"] if "catch" in act else penalty.get(str(act["referee"]), 0))
        if "next_round" in act:
            pile.known = False  # a new hand is dealt from the shuffled cards
        drawer = seat if "draw" in act else None
    f.reshuffled = pile.out
    return f


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


def _variant(part: str) -> Callable[[Facts], bool]:
    return lambda f: part in f.parts


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
                     lambda f: bool(_symbols(f) & set(ACTION_FACES))),
    "wild": ("a Wild of any kind (W, W4, W2, WDC, WSH, WC, WSW) played or turned first, or on "
             "top of the set-up's discard pile (its named colour in force), a colour named "
             "alone (`{player, color}`), or a `pending.decision: color` expectation",
             lambda f: bool(_symbols(f) & set(WILD_FACES)) or "color-choice" in f.actions
             or "color" in f.decisions or f.top in WILD_FACES),
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
    **{feature: (f"the ruleset includes the `{part}` variant", _variant(part))
       for part, feature in VARIANT_FEATURES.items()},
    # DESAFIO.*: the set-up field and the observation exist only in the elimination game
    "desafio": ("the ruleset includes the `desafio` variant, a set-up `eliminated` or an "
                "`eliminated` expectation",
                lambda f: "desafio" in f.parts or f.eliminated or "eliminated" in f.observed),
    # PARTNERS.ROTATION.*, PARTNERS.TOURNAMENT.*: a match of several hands, no game set up
    "partners-match": ("a `match` block: a match format's schedule or the tally of hands it "
                       "fixes, asked of the adapter's `match` operation",
                       lambda f: f.match),
}


def required(sc: Scenario) -> list[str]:
    """The features a scenario uses, in the order of NEEDS."""
    f = facts(sc)
    return [feature for feature, (_, test) in NEEDS.items() if test(f)]
