"""Which rule a failure breaks: the rule that governs a differing observation at a step.

A scenario lists every rule it touches; a failure breaks one of them. Given what the reference
engine did at the failing step (its `events` observation: each event's kind, player, rule and
card, docs/adapter-protocol.md "Differential fuzzing"), `governing_rule` names the rule that
decides the observation that differs: the last event of the step that changes that observation
(for a seat's hand, an event of that seat), refined where the engine applies a rule inside
another's event (a two-player Reverse acts as a Skip inside `reversed`; a first card's effect
follows its `first-card` event; a Wild Draw Four bluff is a `played` like any card). For an
action one side accepts and the other refuses, the rule is the reference's refusal, or the rule
that allows what the reference did.

`signature` is what identifies a deviation: the kind of divergence, what differs (the first
observation in `KEY_ORDER` that differs, or the error codes), the decision the position asked
for, and the governing rule. `conformance diff` groups and reduces by it, and
`result_signature` computes it for a `conformance run` result, so that a scenario written by the
fuzzer is known to fail for the reason it was written for.

Nothing here simulates a rule: the rules are the reference's, named by its events; this module
only chooses among them, from the protocol's vocabulary (event kinds, observation keys).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance import compare as cmp

# The order in which differing observations are reported: the first that differs is "what
# differs". What the step did to the cards and the table comes before whose turn follows, which
# is often its consequence (a challenge judged the wrong way gives the cards and the turn to the
# wrong player: the cards say which rule was broken). A hand's scores come before whether the
# game is over and who won it, which they decide (CL.SCORE.TARGET).
KEY_ORDER = ("side", "direction", "active_color", "top", "hand_sizes", "hands", "pending",
             "current", "draw_size", "discard_size", "round_over", "scores", "game_over",
             "winner", "eliminated", "dealer", "total_cards", "card_counts", "views")
SEAT_KEYS = ("hands", "hand_sizes", "scores", "views")
TURN = frozenset({"current", "pending"})

CATCH_RULE = "CL.UNO.CATCH"  # whom a catch takes (the rule of the reference's `caught` event)
OWN_DRAW = ("CL.DRAW.UNABLE", "CL.DRAW.UNWILLING")  # the turn owner's draw, not a penalty
DRAWN_RULE = "CL.DRAW.PLAY-DRAWN"  # the drawn card's decision: the player may play it

# event kind (the reference's vocabulary, docs/engine.md) -> the observations it changes
EFFECTS: dict[str, frozenset[str]] = {
    "played": frozenset({"top", "hands", "hand_sizes", "discard_size", "active_color",
                         "current", "pending", "views"}),
    # a draw by the turn owner: what follows is the drawn card's decision (top, colour and
    # direction change only if it is played)
    "drew": frozenset({"hands", "hand_sizes", "draw_size", "current", "pending", "views", "top",
                       "active_color", "direction", "discard_size"}),
    "skipped": TURN,
    "skipped-everyone": TURN,
    "reversed": TURN | {"direction"},
    "color": TURN | {"active_color"},
    "passed": TURN,
    "reshuffled": frozenset({"draw_size", "discard_size", "top", "active_color"}),
    # a draw stopped short, nothing left to draw: how many cards the hand got, what is left in
    # both piles, and the top card, its colour and the direction, which stay: play continues
    # (CL.RESHUFFLE.BOTH-EMPTY; rlcard-uno draws the Reverse on top back and plays it)
    "exhausted": frozenset({"hands", "hand_sizes", "draw_size", "discard_size", "top",
                            "active_color", "direction", "views"}),
    "first-card": TURN | {"top", "active_color", "discard_size", "draw_size", "direction"},
    "dealt": frozenset({"hands", "hand_sizes", "draw_size", "views"}),
    "dealer": TURN | {"dealer"},
    "uno": frozenset(),  # a call changes nothing observable but the catch window
    "caught": frozenset({"hands", "hand_sizes", "draw_size", "views"}),
    "shown": frozenset({"views"}),
    "went-out": TURN | {"scores", "round_over", "winner", "game_over"},
    "game-over": TURN | {"game_over", "winner", "round_over"},
    "eliminated": TURN | {"eliminated"},
    "flipped": TURN | {"side", "top", "active_color", "direction", "hands", "views"},
    "stacked": TURN,
    "jumped-in": TURN | {"top", "hands", "hand_sizes", "discard_size", "active_color"},
    "hands-swapped": frozenset({"hands", "hand_sizes", "views"}),
    "hands-rotated": frozenset({"hands", "hand_sizes", "views"}),
    # a Wild Shuffle Hands' deal, then whose turn it is (CL18.WSH.NEXT, `TURN_AFTER`)
    "hands-shuffled": TURN | {"hands", "hand_sizes", "views"},
}

# an action -> the event that records it (a draw may first reshuffle: the draw is the action)
ACTION_EVENTS = {"play": "played", "draw": "drew", "pass": "passed", "catch": "caught",
                 "swap": "hands-swapped", "color": "color", "uno": "uno"}
# Rules the classic engine applies inside another rule's event: (rule of the event, the kind
# of observation) -> the rule that decides it with exactly two players (CL.TWO.SCOPE)
TWO_PLAYERS = {
    ("CL.REVERSE.EFFECT", "turn"): "CL.TWO.REVERSE-SKIP",
    ("CL.REVERSE.EFFECT", "direction"): "CL.TWO.REVERSE-DIRECTION",
    ("CL.SKIP.EFFECT", "turn"): "CL.TWO.SKIP-AGAIN",
    ("CL.D2.EFFECT", "turn"): "CL.TWO.D2-AGAIN",
    ("CL.WD4.ACCEPT", "turn"): "CL.TWO.WD4-AGAIN",
    ("CL.WD4.CHALLENGE.INNOCENT", "turn"): "CL.TWO.WD4-AGAIN",
    # with two players a 0 that rotates the hands swaps the two (V.SEVENO.TWO-PLAYERS)
    ("V.SEVENO.ZERO-ROTATE", "hands"): "V.SEVENO.TWO-PLAYERS",
    ("V.SEVENO.ZERO-ROTATE", "hand_sizes"): "V.SEVENO.TWO-PLAYERS",
}
# The two-player rules that state what the general rule gives with two seats (the next player
# loses a turn and the one after, the card's player, plays; the direction toggles): a deviation
# from them is the general rule's, one group whatever the player count (`Signature.group`).
# CL.TWO.REVERSE-SKIP is not among them: a general Reverse gives the turn to the other player,
# the two-player rule changes that outcome, and an implementation may break it alone (RLCard).
CONSEQUENCES = frozenset({"CL.TWO.SKIP-AGAIN", "CL.TWO.D2-AGAIN", "CL.TWO.WD4-AGAIN",
                          "CL.TWO.REVERSE-DIRECTION"})
# The rule that decides whose play follows an event whose own rule decides something else:
# a card played with no turn effect (its event's rule is what lets it be played,
# CL.PLAY.MATCH), a Flip card (its `flipped` event's rule is the side change) and a Wild
# Shuffle Hands (its `hands-shuffled` event's rule is the deal, CL18.WSH.DEAL)
TURN_AFTER = {"played": "CL.PLAY.ONE-CARD", "flipped": "FL.FLIP.NEXT-PLAYER",
              "hands-shuffled": "CL18.WSH.NEXT"}
# The decision a played card opens (the reference's `after`) -> (the card's symbol, '' any,
# the rule that opens it), the first that applies to the ruleset: no event names these
ASKED = {"swap": (("7", "V.SEVENO.SEVEN-PENDING"), ("", "V.SWAP.TARGET")),
         "challenge": (("W4", "CL.WD4.CHALLENGE.DECISION"),)}
# A card turned first: the rule of its kind's `first_card` policy in the ruleset
# (spec/rulesets), the first that applies to the ruleset: Flip's (FL.FIRST.*), the guide's,
# classic-official's, the 2022 edition's. A variant's Wild, turned first as a plain Wild,
# under the variant's own rule first (CL18.FIRST-CARD, V.SWAP.FIRST-CARD); a Flip card with
# no effect, FL.FIRST.FLIP.
FIRST_CARD_RULES = {
    "none": ("FL.FIRST.NUMBER", "GUIDE.FIRST.COLOUR-ONLY", "CL.FIRST.NUMBER"),
    "skip-first-player": ("FL.FIRST.SKIP", "CL.FIRST.SKIP"),
    "dealer-starts-reversed": ("FL.FIRST.REVERSE", "CL.FIRST.REVERSE"),
    "first-player-draws-and-is-skipped": ("FL.FIRST.DRAW-ONE", "CL.FIRST.D2"),
    "first-player-chooses-color": ("FL.FIRST.WILD", "CL.FIRST.WILD"),
    "return-shuffle-and-turn-again": ("FL.FIRST.WILD-DRAW-TWO", "GUIDE.FIRST.WILD-BACK",
                                      "CL.FIRST.WD4"),
    "ignore-and-turn-again": ("CL22.FIRST.IGNORE",),
}
FIRST_CARD_OWN = {"flip": ("FL.FIRST.FLIP",),
                  "special_wild": ("CL18.FIRST-CARD", "V.SWAP.FIRST-CARD")}
# Flip: the rules of a Wild Draw card's challenge (the prefix of its outcome's rule, as the
# reference's `drew` event names it) -> the rule that lets its victim challenge it
FLIP_CHALLENGER = {"FL.LIGHT.W2.": "FL.LIGHT.W2.CHALLENGER",
                   "FL.DARK.WDC.": "FL.DARK.WDC.CHALLENGER"}


@dataclass(frozen=True)
class Group:
    """One deviation: what `conformance diff` groups by (docs/differential.md "Groups"). The
    kind, what differs and the rule broken; not the decision the position asked for (one
    deviation shows at a play and at a challenge alike: a Wild Draw Four's draw and a Draw
    Two's both reshuffle), and a two-player consequence counted as its general rule
    (`CONSEQUENCES`)."""

    kind: str
    what: str
    rule: str

    def describe(self) -> str:
        return f"{self.kind}: {self.what or '-'}" + (f" ({self.rule})" if self.rule else "")

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "what": self.what, "rule": self.rule}


@dataclass(frozen=True)
class Signature:
    """How one divergence shows: the reason a written scenario must fail for. Its `group` is
    the deviation it belongs to."""

    kind: str  # observation, accepted, rejected, error-code, state-changed, setup-refused, ...
    what: str  # the first differing observation (`pending.decision`, `hand_sizes`), or codes
    decision: str  # the decision the position asked for (`play`, `play-drawn`, ... `setup`)
    rule: str  # the rule that governs it ('' when none is known)
    # the general rule when `rule` is its two-player consequence (`CONSEQUENCES`), else ''
    general: str = field(default="", compare=False)

    @property
    def group(self) -> Group:
        return Group(self.kind, self.what, self.general or self.rule)

    def describe(self) -> str:
        return (f"{self.kind}: {self.what or '-'} at a {self.decision} decision"
                + (f" ({self.rule})" if self.rule else ""))

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "what": self.what, "decision": self.decision,
                "rule": self.rule}


def general_rule(rule: str, events: Sequence[Mapping[str, Any]]) -> str:
    """The general rule of which `rule` is the two-player consequence (`CONSEQUENCES`): the
    one `TWO_PLAYERS` refines into it that the step's events name (an accepted Wild Draw Four's
    or an innocent challenge's); '' when `rule` is not a consequence."""
    if rule not in CONSEQUENCES:
        return ""
    named = {str(e.get("rule")) for e in events}
    bases = [base for (base, _aspect), two in TWO_PLAYERS.items() if two == rule]
    return next((b for b in bases if b in named), bases[0])


def first_key(keys: Sequence[str]) -> str:
    """The first of the mismatched keys (`hand_sizes.1`, `pending.decision`) in KEY_ORDER:
    the top-level key, with the sub-key for `pending` (whose decision, or which)."""
    def top(k: str) -> str:
        return k.split(".", 1)[0]

    if not keys:
        return ""
    best = min(keys, key=lambda k: (_ORDER.get(top(k), len(_ORDER)), k))
    return best if top(best) == "pending" else top(best)


_ORDER = {k: i for i, k in enumerate(KEY_ORDER)}  # `first_key`: a key's place in KEY_ORDER


def asked(after: str | None, mismatches: Sequence[str]) -> bool:
    """Whether what differs is the decision asked next, whatever else differs: the reference
    asks a decision other than a turn's play (`after`: the drawn card's, a challenge, a
    colour) and the implementation asks another. It did something else instead, and what that
    changed on the table (the top, the colour, the direction, a hand: whichever the card it
    played touches) is its consequence: one deviation, whatever card shows it. Not when the
    hand or the game ended on one side: the end decides the rest."""
    keys = {k.split(".", 1)[0] for k in mismatches}
    return after not in (None, "play", "none") and "pending.decision" in mismatches and \
        not keys & {"round_over", "game_over"}


def _seat_of(key: str) -> str | None:
    parts = key.split(".")
    return parts[1] if len(parts) > 1 and parts[0] in SEAT_KEYS else None


def _symbol(card: str) -> str:
    card = card.upper()
    return card if card.startswith("W") else card[1:]


def _applies(rule: str, ruleset: str | None) -> bool:
    from conformance.specdata import rules  # (a module: no package's import machinery)

    known = rules().get(rule)
    return known is not None and (ruleset is None or not known.rulesets  # base or variant
                                  or bool(set(ruleset.split("+")) & set(known.rulesets)))


def governing_rule(key: str, events: Sequence[Mapping[str, Any]], *, players: int | None = None,
                   ruleset: str | None = None, after: str | None = None,
                   extra: bool = False) -> str | None:
    """The rule that governs the observation `key` (a mismatch key: `current`, `hand_sizes.2`,
    `pending.decision`) after a step whose reference events are `events` (dicts with `kind`,
    `player`, `rule`, optionally `card`), or None when no event changes it. `after`: the
    decision the reference waits for after the step; `extra`: the implementation shows more
    cards there than the reference (`more_cards`)."""
    top = key.split(".", 1)[0]
    seat = _seat_of(key)
    if seat is not None and extra:
        # the seat called UNO at this step (with its play, or late) and holds more cards on the
        # implementation: penalised for all its call (CL.UNO.CALL-WITH-PLAY, CL.UNO.CALL-LATE:
        # called, the player is safe), not by the play's or any other rule (a call changes
        # nothing else observable: `EFFECTS["uno"]` is empty)
        called = [e for e in events if e.get("kind") == "uno" and e.get("rule")
                  and str(e.get("player")) == seat]
        if called:
            return str(called[-1]["rule"])
    cands = [e for e in events if e.get("rule") and top in EFFECTS.get(str(e.get("kind")),
                                                                     frozenset(KEY_ORDER))
             and not (e.get("kind") == "drew" and e.get("rule") not in OWN_DRAW
                      and top in ("top", "active_color", "direction", "discard_size"))]
    if seat is not None:  # that seat's events, and those of no seat: every hand's (a rotation)
        own = [e for e in cands if str(e.get("player")) == seat or e.get("player") is None]
        if not own:
            # a hand the step leaves alone changed on the implementation. At a catch: the rule
            # of whom a catch takes (CL.UNO.CATCH: a player holding one card, uncalled, while
            # the window is open), not the penalty the player caught draws; at an UNO call, for
            # a player holding more cards: the same rule (a call takes nobody, only a catch
            # does), not the play the call came with
            took = [e for e in events if e.get("kind") == "caught" and e.get("rule")]
            if took:
                return str(took[-1]["rule"])
            if extra and any(e.get("kind") == "uno" for e in events):
                return CATCH_RULE
        cands = own or cands
    # a draw stopped short decides both piles and the top card; and a hand holding more than
    # the reference's drew what was not there to draw (fewer: the draw's own rule decides how
    # many); else a reshuffle decides the piles' sizes
    short = [e for e in cands if e.get("kind") == "exhausted"
             and (seat is None or str(e.get("player")) == seat)]  # that seat's draw stopped
    if short and (top not in ("hands", "hand_sizes", "views") or extra):
        cands = short
    elif top in ("draw_size", "discard_size"):
        cands = [e for e in cands if e.get("kind") == "reshuffled"] or cands
    if not cands:
        return None
    event = cands[-1]
    turned = [e for e in cands if e.get("kind") == "first-card"]
    if top == "top" and len(turned) > 1:
        # the first card turned was returned (CL.FIRST.WD4: a Wild Draw Four goes back) or
        # ignored, and another turned: the rule that did not leave it on top decides the top
        event = turned[0]
    rule = str(event["rule"])
    kind = event.get("kind")
    if kind == "drew" and top == "draw_size" and not any(
            e.get("kind") in ("reshuffled", "exhausted") for e in events):
        # The draw pile's size differs after a draw that refilled nothing (the hands, before
        # it in KEY_ORDER, agree): a pile refilled, rebuilt or reshuffled at another moment
        # than when a card must be drawn from an empty pile
        rule = "CL.RESHUFFLE.WHEN"
    classic = (ruleset or "classic").startswith("classic")
    if kind == "played" and top in ("top", "discard_size"):
        rule = "CL.PLAY.DISCARD-FACE-UP"
    elif kind == "played" and top == "active_color" and classic and \
            str(event.get("card") or "").upper().startswith("W"):
        rule = "CL.WILD.COLOUR"
    elif kind == "drew" and rule in OWN_DRAW and \
            top in (*TURN, "top", "hands", "hand_sizes", "active_color", "direction") and \
            after is not None and not (extra and top in ("hands", "hand_sizes")):
        # what follows a draw: the drawn card's decision (a hand holding more cards than the
        # reference's drew more than the one card the draw's own rule allows)
        rule = "CL.DRAW.PLAY-DRAWN" if after == "play-drawn" else "CL.DRAW.UNPLAYABLE-PASSES"
    if top in TURN and after == "play" and kind in TURN_AFTER:
        rule = TURN_AFTER[str(kind)]  # whose play follows a card with no turn effect
    elif top == "pending" and kind == "played" and after in ASKED:
        # the decision the card opens, which no event of the reference names
        symbol = _symbol(str(event.get("card") or ""))
        rule = next((r for s, r in ASKED[str(after)] if s in ("", symbol)
                     and _applies(r, ruleset)), rule)
    if top in ("game_over", "round_over") and kind == "went-out" and classic and \
            not any(e.get("kind") == "game-over" for e in events):
        rule = "CL.SCORE.TARGET"  # the hand is over, the game goes on to the target
    if event.get("kind") == "first-card" and event.get("card"):
        rule = first_card_rule(str(event["card"]), ruleset) or rule
    if rule == "CL.WD4.CHALLENGE.GUILTY" and top in TURN:
        rule = "CL.WD4.CHALLENGE.GUILTY-TURN"  # who plays after a guilty challenge
    if players == 2:
        aspect = "turn" if top in TURN else top
        rule = TWO_PLAYERS.get((rule, aspect), rule)
    return rule if _applies(rule, ruleset) else str(event["rule"])


def first_card_rule(card: str, ruleset: str | None) -> str | None:
    """The rule of `card` turned first (a Flip card by its light face, as a hand starts light)
    in `ruleset`: that of the ruleset's policy for its kind (`FIRST_CARD_RULES`; the kinds of
    the card notation, uno_spec.notation); None for a ruleset not known or a card the notation
    does not name."""
    from conformance import specdata
    from uno_spec import notation
    from uno_spec.loader import SpecError

    if not ruleset:
        return None
    faces = card.upper().split("/")
    if len(faces) > 2:
        return None  # no card of the notation (a light face and a dark one at most)
    face = faces[0]
    try:
        ranks = {k.rank: k for k in notation.kinds()}
        policies = specdata.ruleset_params(ruleset).get("first_card") or {}
    except SpecError:
        return None
    colours = (*notation.LIGHT_COLORS, *notation.DARK_COLORS)
    rank = face[1:] if face[:1] in colours and face[1:] else face
    if rank.isdigit():
        keys: tuple[str, ...] = (notation.NUMBER,)
    elif rank in ranks:  # its own kind, then the policy key it is turned by (as the engine)
        keys = tuple(k for k in (ranks[rank].kind, ranks[rank].first_card) if k)
    else:
        return None
    # a kind the ruleset does not name has no effect (`none`, as the engine reads it)
    policy = next((str(policies[k]) for k in keys if policies.get(k)), "none")
    rules = FIRST_CARD_RULES.get(policy)
    if rules is None:
        return None
    rules = (*FIRST_CARD_OWN.get(keys[-1], ()), *rules)
    return next((r for r in rules if _applies(r, ruleset)), None)


def wd4_rule(position: Mapping[str, Any], player: Any, others: bool) -> str:
    """The rule that lets `player` play a Wild Draw Four at `position` (its `hands` and
    `active_color`): a bluff while holding a card of the colour in force, which the rules
    accept (CL.WD4.BLUFF-ACCEPTED); else a legal one, CL.WD4.LEGAL-OTHER-MATCHES when `others`
    (other cards could be played), CL.WD4.LEGAL when not."""
    hands = cmp.normalize("hands", position.get("hands") or {})
    own = hands.get(str(player), []) if isinstance(hands, dict) else []
    color = str(position.get("active_color") or "")[:1].upper()
    if any(str(c)[:1] == color and not str(c).startswith("W") for c in own):
        return "CL.WD4.BLUFF-ACCEPTED"
    return "CL.WD4.LEGAL-OTHER-MATCHES" if others else "CL.WD4.LEGAL"


def allowing_rule(action: Mapping[str, Any], events: Sequence[Mapping[str, Any]], *,
                  before: Mapping[str, Any] | None = None,
                  ruleset: str | None = None) -> str | None:
    """The rule that allows an action the reference accepted (its first event's rule), refined
    where the event names the general rule: a Wild Draw Four played while holding a card of
    the colour in force is a bluff the rules accept (CL.WD4.BLUFF-ACCEPTED), else a legal one
    (CL.WD4.LEGAL-OTHER-MATCHES when other cards could be played: `before["playable"]`, the
    cards the reference listed; else CL.WD4.LEGAL); a Wild Draw Four accepted, its victim's
    draw (CL.WD4.ACCEPT), not a reshuffle before it; the drawn card played at once
    (CL.DRAW.PLAY-DRAWN); a challenge, the rule that lets the victim challenge
    (CL.WD4.CHALLENGE.DECISION; Flip: the card's FL.LIGHT.W2.CHALLENGER,
    FL.DARK.WDC.CHALLENGER)."""

    before = before or {}
    which = next((k for k in ACTION_EVENTS if k in action), "")
    # a Wild Draw Four accepted is its victim's draw (CL.WD4.ACCEPT), a reshuffle perhaps first
    kind = "drew" if action.get("challenge") is False else ACTION_EVENTS.get(which)
    mine = [e for e in events if e.get("rule") and e.get("kind") == kind]
    rule = next((str(e["rule"]) for e in mine or events if e.get("rule")), None)
    card = str(action.get("play") or "").upper()
    pending: Mapping[str, Any] = before.get("pending") or {}
    if card and (ruleset or "classic").startswith("classic"):
        if card == "W4" and pending.get("decision") == "play":
            others = [c for c in before.get("playable") or [] if str(c).upper() != "W4"]
            rule = wd4_rule(before, action.get("player"), bool(others))
        elif pending.get("decision") == "play-drawn":
            rule = "CL.DRAW.PLAY-DRAWN"
    elif action.get("challenge") is True:
        # the victim may challenge; its events are the outcome (the hand shown first, under
        # the classic rule CL.WD4.CHALLENGE.SHOW even in Flip), not what allows the challenge
        if (ruleset or "classic").startswith("classic"):
            rule = "CL.WD4.CHALLENGE.DECISION"
        else:
            rule = next((who for e in events for prefix, who in FLIP_CHALLENGER.items()
                         if str(e.get("rule") or "").startswith(prefix)), rule)
    return rule


# The rule the reference refuses an action by, at the position a listing was made in (None:
# it does not refuse it, or cannot tell): `reference_refusal`
Refusal = Callable[[Mapping[str, Any]], "str | None"]


def listing_rule(listed: tuple[Any, Any], at: Mapping[str, Any] | None,
                 ruleset: str | None = None, refusal: Refusal | None = None) -> str | None:
    """The rule of a difference in the listed actions (`legal_actions`: the reference's list, the
    implementation's), at the position they were listed in (`at`: its `top`, `active_color`,
    `pending`, `legal_actions` and `hands`): the first action of the player to play (in the
    normal form's order, `compare.legal_actions`) that one side lists alone and a rule names.
    At the drawn card's decision, that decision's rule, either side (`_after_draw`). Listed by
    the reference alone, the rule that allows it there: a draw, by one who could play instead,
    CL.DRAW.UNWILLING; a plain Wild CL.PLAY.WILD-ANYTIME, a card of the colour in force
    CL.PLAY.MATCH-COLOUR (on a Wild, CL.PLAY.MATCH-ON-WILD), of the top's number
    CL.PLAY.MATCH-NUMBER, of its symbol CL.PLAY.MATCH-SYMBOL, a Wild Draw Four the rule that
    lets it be played there (`wd4_rule`, from `at`'s `hands`: the bluff, CL.WD4.BLUFF-ACCEPTED);
    listed by the implementation alone, at any decision and by any seat, the rule the
    reference refuses it by (`refusal`: a variant's, V.STACK.NO-CROSS, V.NOFINISH.LAST-CARD,
    V.JUMPIN.NOT-MATCHING; playing out of turn, CL.PLAY.OUT-OF-TURN; the matching rule);
    without it, at a play decision a coloured card CL.PLAY.MATCH. Classic decks only; None
    otherwise (a play by another seat than the one to act but as its refusal names it, a
    Wild or Wild Draw Four listed by the implementation alone with no refusal known: the
    step's rule)."""
    if not (ruleset or "classic").startswith("classic") or not at:
        return None
    # each side's normal form keyed by each action's JSON text (`compare.listing`)
    ref, imp = (cmp.listing(side) if isinstance(side, list) else {} for side in listed)
    waiting = at.get("pending")
    pending: Mapping[str, Any] = waiting if isinstance(waiting, Mapping) else {}
    top = str(at.get("top") or "").upper()
    colour = str(at.get("active_color") or "")[:1].upper()
    # all the reference lists there (`at`'s own `legal_actions`; else its side of the difference)
    whole = at.get("legal_actions")
    everything = whole if isinstance(whole, list) else list(ref.values())
    for key in sorted(ref.keys() ^ imp.keys()):
        action = ref.get(key) or imp[key]
        drawn = _after_draw(action, key in ref, pending, everything)
        if drawn is not None and _applies(drawn, ruleset):
            return drawn
        if key in ref and action.get("draw") is True and pending.get("decision") == "play" \
                and str(action.get("player")) == str(pending.get("player")) and any(
                    (isinstance(a, dict) or isinstance(a, Mapping)) and "play" in a and
                    str(a.get("player")) == str(action["player"]) for a in everything):
            return "CL.DRAW.UNWILLING"  # a draw refused to one who could play instead
        card = str(action.get("play") or "").upper()
        if not card:
            continue
        refused = refusal(action) if key in imp and refusal is not None else None
        if refused is not None and _applies(refused, ruleset):
            return refused  # listed by the implementation alone: the reference's refusal's rule
        if pending.get("decision") != "play" or \
                str(action.get("player")) != str(pending.get("player")):
            continue
        rule: str | None
        if key in imp:  # (the reference's refusal not known) a coloured card: the matching rule
            rule = None if card.startswith("W") else "CL.PLAY.MATCH"
        elif card == "W4":
            if not isinstance(at.get("hands"), Mapping):
                continue  # (the reference lists every Wild Draw Four held: the bluff too)
            others = any((isinstance(a, dict) or isinstance(a, Mapping))
                         and str(a.get("play") or "W4").upper() != "W4"
                         and str(a.get("player")) == str(action["player"]) for a in everything)
            rule = wd4_rule(at, action["player"], others)
        elif card == "W":
            rule = "CL.PLAY.WILD-ANYTIME"
        elif top.startswith("W"):
            rule = "CL.PLAY.MATCH-ON-WILD" if card[:1] == colour else None
        elif card[:1] == colour:
            rule = "CL.PLAY.MATCH-COLOUR"
        elif _symbol(card) == _symbol(top):
            rule = "CL.PLAY.MATCH-NUMBER" if _symbol(card).isdigit() else "CL.PLAY.MATCH-SYMBOL"
        else:
            rule = None
        if rule is not None and _applies(rule, ruleset):
            return rule
    return None


def _after_draw(action: Mapping[str, Any], by_reference: bool, pending: Mapping[str, Any],
                everything: Sequence[Any]) -> str | None:
    """The rule of an action of the player who drew a playable card (a `play-drawn` decision)
    that one side alone lists (`by_reference`: the reference; `everything`: all it lists
    there): a pass, keeping the card, CL.DRAW.KEEP; the drawn card played, CL.DRAW.PLAY-DRAWN;
    listed by the implementation alone, a card the reference does not let be played (not the
    drawn one) or a second draw, CL.DRAW.ONLY-DRAWN (the reference's own rule for refusing
    either). None for any other action or decision."""
    if pending.get("decision") != "play-drawn" or \
            str(action.get("player")) != str(pending.get("player")):
        return None
    if by_reference:
        if action.get("pass") is True:
            return "CL.DRAW.KEEP"
        return "CL.DRAW.PLAY-DRAWN" if "play" in action else None
    drawn = {a.get("play") for a in cmp.legal_actions(list(everything)) if "play" in a}
    if action.get("draw") is True or ("play" in action and action["play"] not in drawn):
        return "CL.DRAW.ONLY-DRAWN"
    return None


def _counted(mismatches: Sequence[Any]) -> list[tuple[str, int, int]]:
    """(key, the reference's count, the implementation's) of the mismatches (`compare.Mismatch`,
    or their JSON form) that count cards: a hand, a hand size, the discard pile's size."""
    def count(value: Any) -> int | None:
        if isinstance(value, list):
            return len(value)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    out = []
    for m in mismatches:
        get = m.get if isinstance(m, dict) or isinstance(m, Mapping) else \
            lambda k, m=m: getattr(m, k, None)
        key = str(get("key") or "")
        want, got = count(get("expected")), count(get("observed"))
        if key.split(".", 1)[0] in ("hands", "hand_sizes", "discard_size") and \
                want is not None and got is not None:
            out.append((key, want, got))
    return out


def more_cards(mismatches: Sequence[Any]) -> tuple[str, ...]:
    """The keys of `mismatches` (`compare.Mismatch`, or their JSON form) where the
    implementation shows more cards than the reference: a longer hand, a larger hand size, a
    larger discard pile."""
    return tuple(key for key, want, got in _counted(mismatches) if got > want)


def fewer_cards(mismatches: Sequence[Any]) -> dict[str, int]:
    """The keys of `mismatches` where the implementation shows fewer cards than the reference
    (`more_cards`, the other way), each with how many fewer."""
    return {key: want - got for key, want, got in _counted(mismatches) if got < want}


PLAYED_MARKS = frozenset({"top", "active_color", "direction"})  # what a card played may change


def played_drawn(action: Mapping[str, Any] | None, events: Sequence[Mapping[str, Any]],
                 mismatches: Sequence[str], more: Sequence[str],
                 fewer: Mapping[str, int]) -> bool:
    """Whether the implementation played, by itself, the card its draw gave the turn owner
    (whether to play it is the player's decision, CL.DRAW.PLAY-DRAWN): the step is the
    player's own draw, which the reference made in full (no pile ran out), the player's hand
    holds one card fewer on the implementation (`fewer`: `fewer_cards`; a whole hand gone is
    something else: skilluno lays a hand over its limit on the pile), and the table shows a
    card played: another top, colour or direction, or a larger discard pile (`more`), not a
    draw that gave nothing. Without a reshuffle the decision the reference asks next differs
    too (`asked`); after one, the card each side drew differs, the decision is not compared,
    and this is what shows the deviation, whatever card was drawn (RLCard's drawn card seen as
    a `top`, an `active_color` and a `direction` group)."""
    act = action or {}
    seat = str(act.get("player"))
    if act.get("draw") is not True or any(e.get("kind") == "exhausted" for e in events):
        return False
    if not any(e.get("kind") == "drew" and str(e.get("player")) == seat
               and e.get("rule") in OWN_DRAW for e in events):
        return False
    if not any(_seat_of(k) == seat and k.split(".", 1)[0] in ("hands", "hand_sizes")
               and short == 1 for k, short in fewer.items()):
        return False
    return bool({k.split(".", 1)[0] for k in mismatches} & PLAYED_MARKS) or \
        "discard_size" in more


def top_taken(mismatches: Sequence[Any]) -> bool:
    """Whether `mismatches` (`compare.Mismatch`, or their JSON form) show an implementation
    whose discard pile is empty where the reference's holds its top card."""
    for m in mismatches:
        get = m.get if isinstance(m, dict) or isinstance(m, Mapping) else \
            lambda k, m=m: getattr(m, k, None)
        want, got = get("expected"), get("observed")
        if get("key") == "discard_size" and isinstance(want, int) and want >= 1 and got == 0:
            return True
    return False


COUNTS = frozenset({"hand_sizes", "draw_size", "discard_size"})  # how many cards are where
TOP_EVENTS = frozenset({"played", "first-card", "flipped", "jumped-in"})  # a new top card


def replaced(mismatches: Sequence[str], events: Sequence[Mapping[str, Any]],
             more: Sequence[str] = ()) -> bool:
    """Whether the top card differs because this step's reshuffle replaced it: the top
    differs, as many cards are in each hand and pile as on the reference (`more`: no hand
    holds more; which cards may differ: the old top drawn into a hand) and no event after the
    reference's last reshuffle put a card on top. Only a reshuffle exchanges the top for
    another card without a play."""
    keys = {k.split(".", 1)[0] for k in mismatches}
    kinds = [str(e.get("kind")) for e in events]
    if "top" not in keys or keys & COUNTS or more or "reshuffled" not in kinds:
        return False
    last = len(kinds) - 1 - kinds[::-1].index("reshuffled")
    return not set(kinds[last + 1:]) & TOP_EVENTS


def rebuilt(mismatches: Sequence[str], events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the draw pile differs because this step's reshuffle made it of other cards
    than the discard pile below its top (a fresh deck, say): the reference reshuffled, the draw
    pile's size differs, and as many cards are in each hand and on the discard pile, under the
    same top, as on the reference. Which cards a hand then drew (`hands`) follows from that
    pile, whatever rule made the hand draw."""
    keys = {k.split(".", 1)[0] for k in mismatches}
    kinds = {str(e.get("kind")) for e in events}
    return "reshuffled" in kinds and "draw_size" in keys and \
        not keys & {"hand_sizes", "discard_size", "top"}


TURN_CODE = "not-your-turn"
TURN_ORDER = "CL.PLAY.OUT-OF-TURN"  # the refusal that says only whose turn it is (the code's)


def turn_dispute(codes: tuple[str, str], rejection: Mapping[str, Any] | None,
                 action: Mapping[str, Any] | None, before: Mapping[str, Any] | None) -> bool:
    """Whether one side answering `not-your-turn` and the other not (`codes`: the reference's,
    the implementation's) means they disagree on whose turn it is, so that the rule broken is
    the one that gave the turn: the reference refused the seat only because another owes the
    decision (its refusal's rule is the turn order, CL.PLAY.OUT-OF-TURN), or the
    implementation refused the seat the reference says owes it (`before["pending"]`). Not
    when the reference's refusal names a rule of its own (V.JUMPIN.NOT-MATCHING: a play out
    of turn needs an identical card) nor when it let another seat act out of turn (such a play, a
    catch, an UNO call): that rule is the one broken, whoever's turn it is."""
    if (codes[0] == TURN_CODE) == (codes[1] == TURN_CODE) or codes[0] in ("round-over",
                                                                            "game-over"):
        return False  # (the hand is over: that is what they disagree on)
    if codes[0] == TURN_CODE:
        return (rejection or {}).get("rule") in (None, TURN_ORDER)
    owner = ((before or {}).get("pending") or {}).get("player")
    seat = (action or {}).get("player")
    return owner is None or seat is None or str(owner) == str(seat)


def signature(kind: str, *, mismatches: Sequence[str] = (), codes: tuple[str, str] = ("", ""),
              decision: str, events: Sequence[Mapping[str, Any]] = (),
              rejection: Mapping[str, Any] | None = None, action: Mapping[str, Any] | None = None,
              before: Mapping[str, Any] | None = None, players: int | None = None,
              ruleset: str | None = None, after: str | None = None,
              previous: tuple[Sequence[Mapping[str, Any]], str | None] | None = None,
              more: Sequence[str] = (), taken: bool = False,
              listed: tuple[Any, Any] | None = None,
              at: Mapping[str, Any] | None = None,
              refusal: Refusal | None = None,
              fewer: Mapping[str, int] | None = None) -> Signature:
    """The signature of one divergence. `mismatches`: the mismatched observation keys
    (`observation`, `state-changed`); `codes`: (the reference's, the implementation's) error
    codes ('' for accepted); `events`: the reference's at the step; `rejection`: the
    reference's refusal of the action, if it refused it; `previous`: the reference's events
    after the step before and the decision it then waited for (when one side answers
    `not-your-turn` and the other does not, they disagree on whose turn it is: the rule is the
    one that governed the turn after that step); `more`: the mismatched keys where the
    implementation shows more cards (`more_cards`), `fewer` fewer (`fewer_cards`); `taken`: its
    discard pile lost the top
    card the reference keeps (`top_taken`); `listed`: (the reference's, the implementation's)
    `legal_actions` where they differ, listed at `at` (the reference's observations after the
    step: `listing_rule`, with `refusal`, the reference's refusals there)."""
    drawn_played = decision == "play-drawn" and action is not None and "play" in action
    if drawn_played:
        decision = "play"  # the drawn card played: a play like any other
    rule: str | None = None
    what = ""
    if kind in ("observation", "state-changed"):
        what = first_key(mismatches)
        if kind == "observation" and asked(after, mismatches):
            what = "pending.decision"
        if kind == "observation" and taken and any(
                e.get("kind") in ("reshuffled", "exhausted") for e in events):
            # the top card went into the draw pile at this step's reshuffle: whatever it
            # leads to (a colour, a hand holding it, the piles' sizes), the top stays
            return Signature(kind, "discard_size", decision, "CL.RESHUFFLE.KEEP-TOP")
        if kind == "observation" and what != "pending.decision" and \
                replaced(mismatches, events, more):
            # the top card replaced at this step's reshuffle, no card moved otherwise than on
            # the reference: the top stays, whatever the step went on to (a draw, a drawn
            # card's decision, a draw stopped short, a Wild Draw Four's four)
            return Signature(kind, "top", decision, "CL.RESHUFFLE.KEEP-TOP")
        if kind == "observation" and what != "pending.decision" and \
                rebuilt(mismatches, events):
            # CL.RESHUFFLE.KEEP-TOP: the new draw pile is not the rest of the discard pile;
            # the cards a hand drew from it differ as a consequence (uno-engine's fresh deck
            # was blamed on CL.D2.EFFECT when the Draw Two's two came from it)
            return Signature(kind, "draw_size", decision, "CL.RESHUFFLE.KEEP-TOP")
        if kind == "observation" and played_drawn(action, events, mismatches, more,
                                                  fewer or {}):
            # the drawn card played without the player's decision: one deviation, whichever
            # observation the card played changed first
            return Signature(kind, "pending.decision", decision, DRAWN_RULE)
        if kind == "observation" and "top" in {k.split(".", 1)[0] for k in mismatches} and \
                sum(e.get("kind") == "first-card" for e in events) > 1:
            # a first card returned (or ignored) and another turned, and the tops differ: the
            # card on top decides what the rest differs by (a Reverse turned after a Wild Draw
            # Four that one side left on top: the direction, the turn)
            what = "top"
        if kind == "observation":
            key = min(mismatches, key=lambda k: (first_key([k]) != what, k)) if mismatches \
                else what
            told = events
            if key == "top" and "discard_size" in more:
                # the implementation's discard pile holds more cards: cards covered the top
                # (skilluno lays an eliminated hand on it), which this step's reshuffle, keeping
                # the top (CL.RESHUFFLE.KEEP-TOP), did not do
                told = [e for e in events if e.get("kind") != "reshuffled"]
            rule = governing_rule(key, told, players=players, ruleset=ruleset, after=after,
                                  extra=key in more) or \
                next((str(e["rule"]) for e in told if e.get("rule")), None)
            if drawn_played and rule == "CL.PLAY.MATCH":
                rule = DRAWN_RULE  # what playing the drawn card does to the table
            listing = listing_rule(listed, at, ruleset, refusal) \
                if what == "legal_actions" and listed is not None else None
            if listing is not None:
                # named by the position listed at: its decision is the one that differs
                rule = listing
                waiting = (at or {}).get("pending")
                if isinstance(waiting, Mapping) and waiting.get("decision"):
                    decision = str(waiting["decision"])
        else:
            rule = (rejection or {}).get("rule")
    elif kind in ("accepted", "error-code"):
        what = "/".join(c for c in codes if c) or codes[0]
        rule = (rejection or {}).get("rule")
    elif kind == "rejected":
        what = codes[1]
        rule = allowing_rule(action or {}, events, before=before, ruleset=ruleset)
    else:  # setup-refused, crash, hang: the rule of what the step was to do next; at a deal
        # whose first card was returned (CL.FIRST.WD4) and another turned, that return, the
        # first thing the deal did that an implementation may not (loop on it, refuse it)
        what = codes[1] if kind == "setup-refused" else ""  # a crash is a crash, whatever said
        returned = sum(e.get("kind") == "first-card" for e in events) > 1
        rule = governing_rule("top" if returned else "pending", events, players=players,
                              ruleset=ruleset)
        short = [e for e in events if e.get("kind") == "exhausted" and e.get("rule")]
        if kind in ("crash", "hang") and short:
            # a draw stopped short, both piles empty (CL.RESHUFFLE.BOTH-EMPTY): the edge of
            # the step an implementation may not handle (RLCard pops its empty deck), rather
            # than whatever the step went on to do (the turn passed, a hand won)
            rule = str(short[0]["rule"])
    if kind in ("accepted", "rejected", "error-code") and previous is not None and \
            turn_dispute(codes, rejection, action, before):
        rule = governing_rule("current", previous[0], players=players, ruleset=ruleset,
                              after=previous[1]) or rule
    if rule is None:
        rule = next((str(e["rule"]) for e in events if e.get("rule")), "")
    return Signature(kind, what, decision, rule or "", general_rule(rule or "", events))


def result_signature(result: Mapping[str, Any], *, decision: str,
                     events: Sequence[Mapping[str, Any]] = (),
                     rejection: Mapping[str, Any] | None = None,
                     before: Mapping[str, Any] | None = None, players: int | None = None,
                     ruleset: str | None = None, after: str | None = None,
                     previous: tuple[Sequence[Mapping[str, Any]], str | None] | None = None,
                     action: Mapping[str, Any] | None = None,
                     at: Mapping[str, Any] | None = None,
                     refusal: Refusal | None = None) -> Signature | None:
    """The signature of a `conformance run` result (its JSON form, conformance.runner's
    `Result.to_json`) that did not pass; `events`, `rejection`, `before` and `decision` are the
    reference's at the failing step, `at` its observations after it and `refusal` its
    refusals there (`listing_rule`). None for a result that passed or was not judged."""
    status = str(result.get("outcome") or result.get("status"))
    if action is None:  # the failing step's act (an `expect` step has none: give the last act)
        action = result.get("action") if isinstance(result.get("action"), dict) else None
    expected, observed = result.get("expected"), result.get("observed")
    common: dict[str, Any] = {"decision": decision, "events": events, "rejection": rejection,
                              "action": action, "before": before, "players": players,
                              "ruleset": ruleset, "after": after, "previous": previous}
    if status == "errored":
        msg = str(result.get("message", ""))
        kind = "hang" if msg.startswith("timeout") else "crash"
        return signature(kind, codes=("", msg.split(":", 1)[0]), **common)
    if status != "failed":
        return None
    keys = [str(m.get("key", "")) for m in result.get("mismatches") or []]
    common["listed"] = next((_listed(m.get("expected"), m.get("observed"))
                             for m in result.get("mismatches") or []
                             if m.get("key") == "legal_actions"), None)
    common["at"] = at
    common["refusal"] = refusal
    more = more_cards(result.get("mismatches") or [])
    fewer = fewer_cards(result.get("mismatches") or [])
    taken = top_taken(result.get("mismatches") or [])
    if result.get("step_kind") == "expect" or (keys and result.get("step") is None):
        return signature("observation", mismatches=keys, more=more, fewer=fewer, taken=taken,
                         **common)
    if isinstance(expected, dict) and "setup_error" not in expected and keys:
        return signature("state-changed", mismatches=keys, **common)
    if expected == "accepted" and isinstance(observed, dict):
        code = str((observed.get("error") or {}).get("code", ""))
        if result.get("step") is None:
            return signature("setup-refused", codes=("", code), **common)
        return signature("rejected", codes=("", code), **common)
    if isinstance(expected, dict) and "error" in expected:
        want = str(expected["error"])
        if observed == "accepted":
            return signature("accepted", codes=(want, ""), **common)
        got = str(((observed or {}).get("error") or {}).get("code", "")) \
            if isinstance(observed, dict) else ""
        return signature("error-code", codes=(want, got), **common)
    return signature("observation", mismatches=keys, more=more, fewer=fewer, taken=taken,
                     **common)


def _listed(expected: Any, observed: Any) -> tuple[Any, Any]:
    """A `legal_actions` mismatch of a run (`compare`: what the reference lists and the
    implementation does not, `{"not listed": [...]}`, and the other way, `{"listed": [...]}`)
    as the two sides' lists that differ by exactly those (`listing_rule` reads only that)."""
    def part(value: Any, name: str) -> Any:
        return value.get(name) if isinstance(value, Mapping) else value

    return part(expected, "not listed"), part(observed, "listed")


ORACLE_VIEW = ["events", "rules_applied", "pending", "hands", "active_color", "legal_actions",
               "top"]
AT = ("top", "active_color", "pending", "legal_actions", "hands")  # `listing_rule` reads


@dataclass(frozen=True)
class Blame:
    """What a failure breaks: its `signature` (the rule broken is `signature.rule`) and, for
    each thing that differs, the rule that governs it at the failing step: each mismatched
    observation key (`current`, `hand_sizes.1`), or `action` (accepted by one side, refused
    by the other, or refused with another code) or `setup` (a set-up refused). Empty for a
    crash or a hang: nothing was compared."""

    signature: Signature
    observations: Mapping[str, str]

    @property
    def rules(self) -> list[str]:
        """The rules broken, in the order of what differs, once each."""
        return list(dict.fromkeys(r for r in self.observations.values() if r))

    def to_json(self) -> dict[str, Any]:
        return self.signature.to_json() | {"observations": dict(self.observations)}


def failure_signature(result: Mapping[str, Any], scenario: Any, oracle: Any
                      ) -> Signature | None:
    """The signature of a `conformance run` failure (the result's JSON form) of `scenario`,
    with the reference's events at the failing step: `oracle` (an adapter declaring `events`,
    such as the reference's `ReferenceOracle`) plays the scenario up to that step. None for a
    result that passed or was not judged, or when the reference cannot play it."""
    found = failure_blame(result, scenario, oracle)
    return None if found is None else found.signature


def failure_blame(result: Mapping[str, Any], scenario: Any, oracle: Any) -> Blame | None:
    """The `Blame` of a `conformance run` failure (the result's JSON form) of `scenario`: the
    reference (`oracle`, as for `failure_signature`) replays the scenario to the failing step,
    and each differing observation gets the rule its events say governs it there. None as
    for `failure_signature`."""
    if str(result.get("outcome") or result.get("status")) not in ("failed", "errored"):
        return None
    context = _replay(result, scenario, oracle)
    if context is None:
        return None
    context["refusal"] = reference_refusal(oracle)  # the oracle is at the failing step
    sig = result_signature(result, **context)
    if sig is None:
        return None
    keys = list(dict.fromkeys(str(m.get("key", "")) for m in result.get("mismatches") or []
                              if isinstance(m, Mapping)))
    per: dict[str, str] = {}
    if sig.kind == "observation":
        for key in keys:  # (its own mismatch kept: a listing's rule reads what differs)
            own = [m for m in result.get("mismatches") or []
                   if isinstance(m, Mapping) and str(m.get("key", "")) == key]
            one = result_signature({**result, "mismatches": own or [{"key": key}]}, **context)
            per[key] = (one or sig).rule
    elif sig.kind == "state-changed":
        per = dict.fromkeys(keys, sig.rule)
    elif sig.kind in ("accepted", "rejected", "error-code"):
        per = {"action": sig.rule}
    elif sig.kind == "setup-refused":
        per = {"setup": sig.rule}
    return Blame(sig, per)


def _replay(result: Mapping[str, Any], scenario: Any, oracle: Any) -> dict[str, Any] | None:
    """The reference's context at the failing step of `result` (`result_signature`'s keyword
    arguments): `oracle` plays `scenario` up to that step. None when it cannot."""
    from conformance.protocol import AdapterError, Unsupported

    step = result.get("step")
    try:
        if oracle.setup(scenario.setup_params()) is not None:
            return None
        obs = oracle.observe(ORACLE_VIEW)
        ctx: dict[str, Any] = {"decision": "setup", "events": list(obs.get("events") or []),
                               "rejection": None, "before": None, "action": None,
                               "after": (obs.get("pending") or {}).get("decision")}
        prev: tuple[list[Any], Any] | None = None
        for s in scenario.steps:
            if step is None or s.index > step:  # None: it failed at the set-up
                break
            if s.act is None:
                continue
            before = {k: obs.get(k) for k in ("hands", "pending", "active_color")}
            before["playable"] = sorted({a["play"] for a in obs.get("legal_actions") or []
                                         if "play" in a})
            if ctx["rejection"] is None:
                prev = (ctx["events"], ctx["after"])
            rejection = oracle.act(s.act)
            obs = oracle.observe(ORACLE_VIEW)
            pending = before.get("pending") or {}
            ctx = {"decision": str(pending.get("decision") or "none"),
                   "events": list(obs.get("events") or []) if rejection is None else [],
                   "rejection": rejection, "before": before, "action": s.act,
                   "after": (obs.get("pending") or {}).get("decision")}
    except (AdapterError, Unsupported):
        return None
    return ctx | {"players": scenario.setup.get("players"), "ruleset": scenario.ruleset,
                  "previous": prev, "at": {k: obs.get(k) for k in AT}}


class reference_refusal:  # noqa: N801 - used as a function: the refusal of `oracle`
    """The rule `oracle` (an adapter at the position a listing was made in) refuses an action
    by (a `Refusal`): its error's `rule`, asked once per action (a refusal changes nothing, so
    the next is asked at the same position); None for an action it accepts, and then for
    every one after it (`moved`: the oracle is no longer at that position), or when it fails."""

    def __init__(self, oracle: Any) -> None:
        self.oracle = oracle
        self.asked: dict[str, str | None] = {}
        self.moved = False

    def __call__(self, action: Mapping[str, Any]) -> str | None:
        from conformance.protocol import AdapterError, Unsupported

        key = json.dumps(action, sort_keys=True, default=str)
        if key not in self.asked:
            got: str | None = None
            if not self.moved:
                try:
                    out = self.oracle.act(dict(action))
                except (AdapterError, Unsupported):
                    out = {}
                if out is None:
                    self.moved = True
                elif isinstance(out, Mapping) and isinstance(out.get("rule"), str):
                    got = out["rule"] or None
            self.asked[key] = got
        return self.asked[key]


class replayed_refusal:  # noqa: N801 - used as a function, like `reference_refusal`
    """The refusals of the reference at the failing step of `result` (a run's result, JSON
    form) of `scenario`: at the first action asked, `oracle` replays the scenario up to that
    step (`_replay`), then answers as `reference_refusal` (no rule when it cannot replay it).
    For a run whose oracle was not left at that position: the reduction's."""

    def __init__(self, result: Mapping[str, Any], scenario: Any, oracle: Any) -> None:
        self.result, self.scenario, self.oracle = result, scenario, oracle
        self.inner: Refusal | None = None

    def __call__(self, action: Mapping[str, Any]) -> str | None:
        if self.inner is None:
            replayed = _replay(self.result, self.scenario, self.oracle) is not None
            self.inner = reference_refusal(self.oracle) if replayed else (lambda _a: None)
        return self.inner(action)


def reference_oracle() -> Any:
    """The reference engine declaring its `events` (`reference-oracle`), in this process:
    the oracle a failure is replayed on (conformance.adapters, the one door to the engine)."""
    from conformance.adapters import resolve

    return resolve("reference-oracle", isolate=False).factory()


def blame_failures(results: Sequence[Any], scenarios: Sequence[Any],
                   oracle: Callable[[], Any] = reference_oracle) -> int:
    """Set `broken` (`Blame.to_json`) on each result (conformance.runner.Result) that failed
    or errored before expectation files applied, from the reference's replay of its scenario
    (`failure_blame`); `oracle` makes the reference adapter declaring `events`, once, and only
    when a result needs it. A scenario the reference cannot replay gets no `broken`. Returns
    how many results got one."""
    failing = [r for r in results if (r.outcome or r.status) in ("failed", "errored")]
    if not failing:
        return 0
    by_id = {s.id: s for s in scenarios}
    made = oracle()
    done = 0
    try:
        for r in failing:
            sc = by_id.get(r.id)
            if sc is None or getattr(sc, "match", None) is not None:
                continue  # a match scenario has no steps to replay
            try:
                found = failure_blame(r.to_json(), sc, made)
            except Exception:  # noqa: BLE001 - a position the reference cannot replay: no blame
                found = None
            if found is not None:
                r.broken = found.to_json()
                done += 1
    finally:
        close = getattr(made, "close", None)
        if callable(close):
            close()
    return done
