"""Invariants of every reachable position, and of every refused action (docs/fuzzing.md
"Invariants"). One copy, shared by the fuzzer (`uno_fsm.fuzz`), the model checker
(`uno_fsm.modelcheck`) and the tests (tests/test_engine_game.py).

- every card in exactly one place, the deck complete (`CL.DECK.TOTAL`);
- one well-formed pending decision owed by a seat, or game over with nothing pending and
  nothing legal; `legal_actions()` non-empty until then, turn actions owed by the pending
  player (other seats' only as a variant lists them: `Oracle.listed_out_of_turn`);
- the side and the active colour consistent; Flip cards double-faced and shown by the side in
  play; and each variant's own (`Variant.oracle`, `Oracle.position`: e.g. a team holding
  one total, the eliminated seats of an elimination game), the state only a variant sets
  left alone by the games without it (`Oracle.own_state`);
- an action outside `legal_actions()` refused with an `IllegalAction` whose code is in
  spec/errors.yaml and whose rule is in spec/rules, the state (RNG included) and the log
  unchanged.
"""

from __future__ import annotations

import functools
from collections import Counter
from operator import attrgetter
from typing import TYPE_CHECKING

from uno_fsm.actions import Action
from uno_fsm.errors import IllegalAction
from uno_fsm.oracle.base import CLASSIC_COLORS, DARK_COLORS, Facts, check, face_on, tally
from uno_fsm.phase_table import DEALING, DECISIONS, GAME_OVER
from uno_fsm.state import State

if TYPE_CHECKING:
    from uno_fsm.game import Game

# the decisions a position can wait for (the machine's: uno_fsm.phases.DECISIONS), not the
# transient deal nor the end of the game
DECISION_NAMES = frozenset(DECISIONS[p] for p in DECISIONS if p not in (DEALING, GAME_OVER))
_TEXT = attrgetter("text")
_WINDOW_KINDS = frozenset({"uno", "catch", "next-round"})


# ---- spec registries ---------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def error_codes() -> frozenset[str]:
    """Codes of spec/errors.yaml (read here, not from the engine's own list)."""
    from uno_spec.loader import load_yaml
    from uno_spec.paths import spec_root

    doc = load_yaml(spec_root() / "errors.yaml")  # the one hardened YAML loader
    return frozenset(str(e["code"]) for e in doc["errors"])


@functools.lru_cache(maxsize=1)
def rule_ids() -> frozenset[str]:
    """IDs of spec/rules/*.yaml."""
    from uno_spec.loader import load_rules

    return frozenset(r.id for r in load_rules())


# ---- positions -----------------------------------------------------------------------------
def check_invariants(game: Game, facts: Facts, deck: Counter[str],
                     legal: list[Action] | None = None) -> None:
    """The invariants of the position `game` is in; `deck` is the deck dealt (by card text);
    `legal` is `game.legal_actions()` when the caller has it."""
    s = game.state
    counted = tally(map(_TEXT, s.all_cards()))
    # CL.DECK.TOTAL / CL18.DECK / FL deck: each card in exactly one place, the deck complete
    # (dict equality first: C code, and exact for counts without zeros; `Counter ==`, which
    # reads a missing card as a zero count, decides when it says no)
    same = dict.__eq__(counted, deck) or Counter(counted) == deck
    check(same, "CL.DECK.TOTAL", "" if same else _deck_difference(deck, Counter(counted)))
    if s.drawn is not None and s.phase == "play_drawn" and s.current is not None:
        check(s.drawn in s.hands[s.current], "CL.DRAW.ONLY-DRAWN", "drawn card not in the hand")
    pend = game.pending
    if legal is None:
        legal = game.legal_actions()
    for o in facts.oracles:  # the variants' own invariants
        o.position(facts, game, legal)
    # (each message is built only for a failure: this runs in every state of a model check)
    for name, rule in facts.idle_state:  # the state of a variant the ruleset does not play
        if getattr(s, name):
            check(False, rule, f"{name} is {getattr(s, name)!r} in {facts.name}, which does "
                  "not play the variant that sets it")
    if game.is_over:
        ok = pend is None and not legal
        check(ok, "CL.END.NO-PENDING",
              "" if ok else f"game over with pending {pend} and {len(legal)} legal actions")
        return
    ok = pend is not None and pend.decision in DECISION_NAMES
    check(ok, "CL.PLAY.TURN-OPTIONS", "" if ok else f"malformed pending decision {pend}")
    assert pend is not None
    if pend.decision == "round-over":
        ok = pend.player is None
        check(ok, "CL.END.OUT", "" if ok else f"round over, pending {pend}")
    else:
        ok = pend.player is not None and 0 <= pend.player < s.players
        check(ok, "CL.PLAY.TURN-OPTIONS", "" if ok else f"pending {pend}")
    check(bool(legal), "CL.PLAY.TURN-OPTIONS", "" if legal else
          f"no legal action while pending {pend}")
    top = face_on(s.discard[-1], s.side) if s.discard else None
    for a in legal:
        # CL.PLAY.OUT-OF-TURN: another seat's turn action only as a variant lists it
        if a.player != pend.player and a.kind not in _WINDOW_KINDS and not any(
                o.listed_out_of_turn(facts, a, pend.decision, pend.player, s, top)
                for o in facts.oracles):
            check(False, "CL.PLAY.OUT-OF-TURN", f"{a} listed while P{pend.player} owes the "
                  "decision")
    # side consistency: the active colour is a colour of the side in play (FL.* / CL.WILD)
    ok = s.side in ("light", "dark")
    check(ok, "FL.FLIP.SIDE-CHANGE", "" if ok else f"side {s.side!r}")
    if facts.flip:
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
        ok = s.active_color in colours
        check(ok, "CL.WILD.FOUR-COLOURS",
              "" if ok else f"active colour {s.active_color} on the {s.side} side")
    elif pend.decision not in ("color", "round-over"):
        ok = facts.flip and top is not None and top.is_wild
        check(ok, "CL.WILD.COLOUR", "" if ok else f"no active colour while pending {pend}")


def _deck_difference(deck: Counter[str], cards: Counter[str]) -> str:
    return (f"cards in play differ from the deck: missing {dict(deck - cards)}, "
            f"extra {dict(cards - deck)}")


# ---- refused actions -----------------------------------------------------------------------
def _shown(action: Action) -> str:
    """The action as text, even a malformed one (hostile input)."""
    try:
        return str(action)
    except Exception:  # noqa: BLE001 - a field of the wrong type
        return repr(action)


def check_rejected(game: Game, action: Action, before: State, log_len: int,
                   exc: BaseException | None) -> None:
    """An action outside legal_actions() is refused with a coded error; nothing changes.
    `before` is a copy of the state before the attempt (`State.copy()`). (Messages are built
    only for a failure: a hostile action may not even print.)"""
    if exc is None:
        check(False, "CL.PLAY.ILLEGAL-REJECTED",
              f"{_shown(action)} is not in legal_actions() but apply() accepted it")
    if not isinstance(exc, IllegalAction):
        check(False, "CL.PLAY.ILLEGAL-REJECTED",
              f"{_shown(action)} raised {type(exc).__name__}: {exc}, not an IllegalAction")
    assert isinstance(exc, IllegalAction)
    ok = bool(exc.code) and exc.code in error_codes()
    check(ok, "CL.PLAY.ILLEGAL-REJECTED", "" if ok else
          f"{_shown(action)}: error code {exc.code!r} is not in spec/errors.yaml")
    ok = bool(exc.rule) and exc.rule in rule_ids()
    check(ok, "CL.PLAY.ILLEGAL-REJECTED", "" if ok else
          f"{_shown(action)}: rule {exc.rule!r} ({exc.code}) is not in spec/rules")
    ok = game.state.same(before) and len(game.log) == log_len
    check(ok, exc.rule, "" if ok else
          f"{_shown(action)} was refused ({exc.code}) but the state changed")
