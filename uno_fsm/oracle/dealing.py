"""Dealing and the first card (CL.DEAL.*, CL.FIRST.*, CL22.FIRST.*): right after a deal, the
hands and the effect of the first card turned, by the policy the ruleset names for its kind
(`first_card` in spec/rulesets)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from uno_fsm.oracle.base import Facts, check, step_seat

if TYPE_CHECKING:
    from uno_fsm.actions import Event
    from uno_fsm.game import Game

IGNORE = "ignore-and-turn-again"  # CL22.FIRST.IGNORE
RETURNED = "return-shuffle-and-turn-again"  # CL.FIRST.WD4, GUIDE.FIRST.WILD-BACK
# the rule a first card that leaves the discard pile breaks, by its policy
_STAYS_RULE = {"first-player-chooses-color": "CL.FIRST.WILD", IGNORE: "CL22.FIRST.STAYS"}


def policy_key(facts: Facts, kind: str) -> str:
    """The `first_card` key of a card kind: its own, or the one a variant's card is turned
    first by (`Oracle.first_card`)."""
    return next((key for o in facts.oracles if (key := o.first_card(kind)) is not None), kind)


def check_deal(game: Game, facts: Facts, dealt_events: Sequence[Event] = ()) -> None:
    """Right after a deal: `facts.hand` (seven) cards each and the first-card rule of the
    ruleset; the eliminated seats (DESAFIO.ELIMINATED-OUT) are dealt nothing, never deal and
    are not counted. (Flip's first card is checked by the corpus, not here.) With the deal's
    events (`dealt_events`, `Game.setup_events`: the model checker's deals), also that the
    first card turned stayed unless its policy returns it."""
    s = game.state
    pend = game.pending
    if facts.flip or pend is None:
        return
    first = next((e.card for e in dealt_events if e.kind == "first-card"), None)
    if first is not None:
        # CL.DEAL.FIRST-DISCARD: the top card of the draw pile starts the discard pile; only a
        # card the ruleset returns leaves it (CL.FIRST.WD4, GUIDE.FIRST.WILD-BACK); a Wild
        # stays for its colour (CL.FIRST.WILD), an ignored card under the next (CL22.FIRST.STAYS)
        policy = facts.first_card.get(policy_key(facts, first.light.kind), "none")
        if policy != RETURNED:
            check(bool(s.discard) and s.discard[0] is first,
                  _STAYS_RULE.get(policy, "CL.DEAL.FIRST-DISCARD"),
                  f"first card turned {first.text}; discard after the deal "
                  f"{[c.text for c in s.discard]}")
    hand = facts.hand
    n = s.players
    out = frozenset(s.eliminated)
    if out:  # DESAFIO.ELIMINATED-OUT: no part in the deal
        check(s.dealer not in out, "DESAFIO.ELIMINATED-OUT", f"eliminated P{s.dealer} deals")
    # CL.DEAL.FIRST-PLAYER (left = the next seat in the game clockwise)
    left = step_seat(s.dealer, 1, 1, n, out)
    dealt = [0 if seat in out else hand for seat in range(n)]  # CL.DEAL.SEVEN
    top = s.discard[-1].light
    sizes = [len(h) for h in s.hands]
    ignored = {k for k, v in facts.first_card.items() if v == IGNORE}
    if ignored:
        # CL22.FIRST.IGNORE, CL22.FIRST.STAYS: turned until a card of a kind not ignored
        # shows, the others stay
        check(policy_key(facts, top.kind) not in ignored, "CL22.FIRST.IGNORE",
              f"first card {top} in {facts.name}")
        if facts.first_card.get(policy_key(facts, top.kind), "none") == "none":
            check(pend.player == left and s.direction == 1, "CL22.FIRST.LEFT-PLAYS",
                  f"first card {top}: pending {pend}, dealer P{s.dealer}")
            check(sizes == dealt, "CL.DEAL.SEVEN", f"hands dealt: {sizes}")
            return
    else:
        check(len(s.discard) == 1, "CL.FIRST.WD4", f"discard after the deal: {s.discard}")
    want_sizes = dealt
    policy = facts.first_card.get(policy_key(facts, top.kind), "none")
    if policy == "none":  # GUIDE.FIRST.COLOUR-ONLY: classic-guide's action cards too
        want = (left, "play", 1,
                "CL.FIRST.NUMBER" if top.kind == "number" else "GUIDE.FIRST.COLOUR-ONLY")
    elif policy == "skip-first-player":
        want = (step_seat(left, 1, 1, n, out), "play", 1, "CL.FIRST.SKIP")
    elif policy == "dealer-starts-reversed":
        want = (s.dealer, "play", -1, "CL.FIRST.REVERSE")
    elif policy == "first-player-draws-and-is-skipped":
        want = (step_seat(left, 1, 1, n, out), "play", 1, "CL.FIRST.D2")
        # CL.RESHUFFLE.BOTH-EMPTY: a reduced deck may hold fewer than two cards to draw
        # (then the draw pile is empty and the player drew what there was)
        want_sizes[left] = hand + 2 if s.draw else max(hand, min(sizes[left], hand + 2))
    elif policy == "first-player-chooses-color":
        want = (left, "color", 1, "CL.FIRST.WILD")
    else:  # return-shuffle-and-turn-again: such a card never stays turned (CL.FIRST.WD4,
        # GUIDE.FIRST.WILD-BACK: classic-guide's Wilds too)
        want = (-1, "", 0, "CL.FIRST.WD4" if top.kind == "wd4" else "GUIDE.FIRST.WILD-BACK")
    who, decision, direction, rid = want
    check((pend.player, pend.decision, s.direction) == (who, decision, direction), rid,
          f"first card {top}, dealer P{s.dealer}: pending {pend}, direction {s.direction}")
    check(sizes == want_sizes, rid if rid == "CL.FIRST.D2" else "CL.DEAL.SEVEN",
          f"hands after the deal: {sizes}")
