"""The reference engine (uno_fsm) behind the in-process adapter protocol `uno-conformance/2`.

This module is the only place that knows both the protocol (docs/contracts.md "Adapter
protocol") and the engine; it imports `uno_fsm` lazily, when an adapter is first set up.
The conformance runner loads `ReferenceAdapter` as its default adapter.
"""

from __future__ import annotations

import functools
import importlib
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from conformance.protocol import PROTOCOL, AdapterError, Unsupported, setup_request

# The observations the engine answers: the protocol's vocabulary and the optional ones of the
# `game-start` and `views` features, `events` and `legal_actions` (docs/adapter-protocol.md).
OBSERVATIONS = [
    "hands", "hand_sizes", "top", "active_color", "current", "pending", "direction", "side",
    "draw_size", "discard_size", "scores", "round_over", "game_over", "winner", "dealer",
    "total_cards", "card_counts", "views", "eliminated", "events", "legal_actions",
]
# docs/adapter-protocol.md "Differential fuzzing": what the oracle of `conformance diff` answers
# besides the scenario observations; declared by `ReferenceOracle` only, so that a corpus run's
# `state_unchanged` (which observes every declared key) does not compute them
ORACLE_OBSERVATIONS = ["rules_applied", "shuffled", "position", "turn_position"]
PLAYERS = (2, 10)  # CL.DECK.PLAYERS; a ruleset narrower still refuses the others at setup
POSITION_VERSION = 1  # the `position` observation's format (docs/adapter-protocol.md)
DECISION = {"play": "play", "play-drawn": "play-drawn", "color": "color",
            "challenge": "challenge", "swap": "swap", "round-over": "none"}
ACTION_KEYS = {"player", "play", "color", "uno", "draw", "pass", "challenge", "catch", "swap",
               "referee", "card", "next_round", "deal"}
# an action names one of these (or else `color` alone, or `uno` alone) ...
ACTION_KINDS = ("play", "draw", "pass", "challenge", "catch", "swap", "referee", "next_round")
# ... with only these keys beside it
COMPANIONS: dict[str, set[str]] = {
    "play": {"player", "color", "uno"}, "draw": {"player"}, "pass": {"player"},
    "challenge": {"player"}, "catch": {"player"}, "swap": {"player"},
    "referee": {"player", "card"}, "next_round": {"deal"}, "color": {"player"}, "uno": {"player"},
}


@functools.cache
def capabilities() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(rulesets, features) the engine plays, read from spec/ rather than listed here.

    Rulesets: every base and variant of spec/rulesets that the engine accepts (a variant is tried
    composed with the first base it applies to; the runner accepts base+variant+... when each
    part is declared). Features: every entry of spec/features.yaml except one named after a
    ruleset the engine refuses (uno_fsm.rules.check_params refuses a scoring method it does
    not play).
    """
    from conformance import specdata
    from uno_fsm.params import Params
    from uno_fsm.rules import check_params
    from uno_spec.loader import SpecError
    from uno_spec.rulesets import ruleset_files

    played: list[str] = []
    refused: set[str] = set()
    for rid, rf in sorted(ruleset_files().items()):
        name = rid if rf.kind == "base" or not rf.applies_to else f"{rf.applies_to[0]}+{rid}"
        try:
            check_params(Params.of(name))
        except (ValueError, SpecError):
            refused.add(rid)
            continue
        played.append(rid)
    return tuple(played), tuple(f for f in specdata.features() if f not in refused)


@functools.cache
def settable_params() -> tuple[str, ...]:
    """The parameters a scenario may set (docs/scenario-format.md `params`): every leaf of the
    ruleset schema (uno_spec.parameters) but the game, deck and player counts, which a
    scenario does not change. The engine reads every declared parameter (tests/test_params.py)."""
    from conformance.scenario import FIXED_PARAMS
    from uno_spec.parameters import parameters

    return tuple(path for path, p in parameters().items()
                 if p.leaf and path.split(".")[0] not in FIXED_PARAMS)


@functools.cache
def _engine(module: str) -> Any:
    """The engine's module `uno_fsm.<module>`, imported at its first use and then looked up
    here: what this adapter calls at every step of the fuzzer would otherwise run an import
    statement each time (about 8,000 instructions in CPython 3.11, which looks the module's
    `__path__` up and fails, formatting the error, on every run of it)."""
    return importlib.import_module(f"uno_fsm.{module}")


def _error(code: str, rule: str | None = None, message: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"code": code}
    if rule:
        out["rule"] = rule
    if message:
        out["message"] = message
    return out


class ReferenceAdapter:
    """uno_fsm as an implementation under test."""

    def __init__(self) -> None:
        self.game: Any = None
        self.applied: list[str] = []  # rule IDs of the events of the last accepted action
        self.events: list[Any] = []  # those events (the setup's after `setup`)
        self.shuffled = False  # whether that action (or the setup) drew on the random source

    def hello(self) -> dict[str, Any]:
        import uno_fsm  # noqa: F401 - proves the engine imports

        return {
            "protocol": PROTOCOL,
            "name": "uno-fsm reference engine",
            "version": "0.1.0",
            "rulesets": list(capabilities()[0]),
            "features": list(capabilities()[1]),
            "observations": list(OBSERVATIONS),
            "players": {"min": PLAYERS[0], "max": PLAYERS[1]},
            "params": list(settable_params()),
        }

    def setup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        errors = _engine("errors")
        Game, Params = _engine("game").Game, _engine("params").Params  # noqa: N806 - classes

        ruleset, setup = setup_request(params)
        try:
            p = Params.of(ruleset)
        except Exception as exc:  # unknown ruleset or composition error
            raise Unsupported(f"ruleset {ruleset!r}: {exc}") from exc
        if p.game not in ("classic", "flip"):
            raise Unsupported(f"ruleset {ruleset!r}: game {p.game!r} is not implemented yet")
        overrides = params.get("params")
        if overrides is not None:  # table options over the ruleset's parameters
            from uno_fsm.rules import check_params

            if not isinstance(overrides, dict):
                raise AdapterError("bad-request", "setup: params must be an object")
            try:
                p = check_params(p.override(overrides))
            except (ValueError, KeyError, TypeError) as exc:
                raise Unsupported(f"params {overrides!r}: {exc}") from exc
        self.game = None
        try:
            seed = int(params.get("seed") or 0)
            self.game = Game.from_setup(p, setup, seed=seed)
        except NotImplementedError as exc:
            raise Unsupported(str(exc)) from exc
        except (errors.UnresolvableSetup, errors.WrongPlayerCount) as exc:
            # a set-up the rules refuse (RUL.SETUP.UNRESOLVABLE, RUL.PLAYERS.COUNT): answered
            # like a refused action, with its code (docs/adapter-protocol.md)
            return _error(exc.code, exc.rule, exc.message)
        except (errors.IllegalAction, errors.CardNotationError, ValueError, KeyError,
                TypeError) as exc:
            raise AdapterError("bad-request", f"setup: {exc}") from exc
        self.events = list(self.game.setup_events)
        self.applied = _rules_of(self.events)
        state = self.game.state.rng.getstate()
        self.shuffled = state != _fresh_rng_state(seed)
        self.game.state.rng = _Watched(state)
        return None

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        errors = _engine("errors")
        if self.game is None:
            raise AdapterError("bad-request", "act before setup")
        try:
            engine_action = _remembered(self._to_engine, action)
        except errors.CardNotationError as exc:
            return _error("malformed-action", MALFORMED_RULE, str(exc))
        except _Malformed as exc:
            return _error(exc.code, exc.rule, str(exc))
        st = self.game.state
        rng = st.rng
        draws = rng.draws if isinstance(rng, _Watched) else -1
        try:
            if isinstance(engine_action, _Dealt):  # feature next-hand-deal
                events = self.game.next_round_dealt(engine_action.hands, engine_action.draw,
                                                    engine_action.dealer)
            else:
                events = self.game.apply(engine_action)
        except errors.IllegalAction as exc:
            return _error(exc.code, exc.rule, exc.message)
        except NotImplementedError as exc:
            raise Unsupported(str(exc)) from exc
        self.events = list(events)
        self.applied = _rules_of(events)
        now = st.rng
        if now is rng and draws >= 0:
            self.shuffled = rng.draws != draws
        else:  # the engine replaced its random source (with a copy of it, then drawn on?)
            self.shuffled = now.getstate() != rng.getstate()
            st.rng = _Watched(now.getstate())
        return None

    def act_observe(self, action: dict[str, Any], keys: list[str]
                    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """`act`, then `observe` of `keys`, in one call (docs/adapter-protocol.md "In
        process": a caller wrapping each call, with a deadline say, wraps one)."""
        return self.act(action), self.observe(keys)

    def _to_engine(self, a: Any) -> Any:
        """The engine Action of a protocol action (docs/scenario-format.md "Actions"): one
        action key, only its companion keys, values of their JSON types; anything else is
        `malformed-action` (an unknown colour name: `invalid-color`)."""
        from uno_fsm import Action
        from uno_fsm.cards import COLOR_LETTERS, COLOR_NAMES, parse

        if not isinstance(a, dict) or set(a) - ACTION_KEYS:
            raise _Malformed("malformed-action", f"an action is an object with known keys, "
                             f"not {a!r}")
        kinds = [k for k in ACTION_KINDS if k in a]
        if not kinds:
            kinds = [k for k in ("color", "uno") if k in a]
        if len(kinds) != 1:
            raise _Malformed("malformed-action", f"one action expected in {a!r}")
        kind = kinds[0]
        extra = set(a) - {kind} - COMPANIONS[kind]
        if extra:
            raise _Malformed("malformed-action", f"{kind} takes no {', '.join(sorted(extra))}")

        def seat(value: Any, what: str) -> int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise _Malformed("malformed-action", f"{what} must be a seat number")
            return value

        def flag(key: str, default: bool | None = None) -> bool:
            value = a.get(key, default)
            if not isinstance(value, bool):
                raise _Malformed("malformed-action", f"{key} must be true or false")
            return value

        def card(key: str) -> Any:
            value = a[key]
            if not isinstance(value, str):
                raise _Malformed("malformed-action", f"{key} must be a card in notation")
            return parse(value)

        def color() -> str | None:
            if "color" not in a:
                return None
            value = a["color"]
            if not isinstance(value, str):
                raise _Malformed("malformed-action", f"color must be a colour name, not {value!r}")
            letter = COLOR_LETTERS.get(value.lower())
            if letter is None and value in COLOR_NAMES:
                letter = value  # a colour letter
            if letter is None:
                raise _Malformed("invalid-color", f"unknown colour {value!r}",
                                 "CL.WILD.FOUR-COLOURS")
            return letter

        if kind == "next_round":
            if a["next_round"] is not True:
                raise _Malformed("malformed-action", "next_round must be true")
            if "deal" in a:
                return _dealt(a["deal"])
            return Action.next_round()
        player = seat(a.get("player"), "player")
        if kind == "referee":
            if a["referee"] == "hint" and "card" not in a:
                return Action.hint(player)
            if a["referee"] == "wrong-card":
                return Action.wrong_card(player, card("card") if "card" in a else None)
            raise _Malformed("malformed-action", f"unknown referee action {a['referee']!r}")
        if kind == "play":
            return Action.play(player, card("play"), color(), flag("uno", False))
        if kind in ("draw", "pass"):
            if a[kind] is not True:
                raise _Malformed("malformed-action", f"{kind} must be true")
            return Action.draw(player) if kind == "draw" else Action.keep(player)
        if kind == "challenge":
            return Action.challenge(player) if flag("challenge") else Action.accept(player)
        if kind == "catch":
            return Action.catch(player, seat(a["catch"], "catch"))
        if kind == "swap":
            return Action.swap(player, seat(a["swap"], "swap"))
        if kind == "color":
            return Action.choose_color(player, color() or "")
        if not flag("uno"):
            raise _Malformed("malformed-action", "uno must be true")
        return Action.call_uno(player)

    def observe(self, keys: list[str]) -> dict[str, Any]:
        g = self.game
        if g is None:
            raise AdapterError("bad-request", "observe before setup")
        out: dict[str, Any] = {}
        for key in keys:
            answer = _OBSERVERS.get(key)
            if answer is None:
                raise Unsupported(f"observation {key!r}")
            out[key] = answer(self, g)
        return out

    def match(self, params: dict[str, Any]) -> dict[str, Any]:
        """docs/adapter-protocol.md "Matches": the schedule uno_fsm.match plays for the format
        (`rounds` instead of the format's, if given) and, with `results`, their tally by
        uno_fsm.match.tally, the one `play_match` keeps (feature partners-match)."""
        import dataclasses

        from uno_fsm import match as M
        from uno_spec.loader import SpecError
        from uno_spec.matches import load_match

        name, rounds, results = params.get("format"), params.get("rounds"), \
            params.get("results")
        if not isinstance(name, str) or set(params) - {"format", "rounds", "results"}:
            raise AdapterError("bad-request", "match takes a format name, and optionally "
                               "rounds and results")
        try:
            fmt = load_match(name)
        except SpecError as exc:
            raise Unsupported(exc.message) from None
        if rounds is not None:
            if type(rounds) is not int or not 1 <= rounds <= MAX_MATCH_ROUNDS:
                raise AdapterError("bad-request", f"rounds: a whole number from 1 to "
                                   f"{MAX_MATCH_ROUNDS}, not {rounds!r}")
            fmt = dataclasses.replace(fmt, rounds=rounds)
        try:
            M.check_format(fmt)
            out: dict[str, Any] = {"schedule": M.schedule_json(M.schedule(fmt))}
            if results is None:
                return out
            if not isinstance(results, list):
                raise AdapterError("bad-request", "results must be a list")
            tally = M.tally(fmt.players, [_hand(r) for r in results])
        except (M.MatchError, SpecError) as exc:
            raise AdapterError("bad-request", f"match: {exc}") from None
        return out | {
            "totals": dict(enumerate(tally.totals)),
            "by_partner": {p: {q: v for q, v in enumerate(row) if q != p}
                           for p, row in enumerate(tally.by_partner)},
            "winners": list(tally.winners)}

    def _card_counts(self) -> dict[str, Any]:
        """Every card in the game counted; in Flip per side, by face."""
        g = self.game
        cards = g.state.all_cards()
        if g.params.game == "flip":
            return {side: dict(Counter(c.face(side).text for c in cards))
                    for side in ("light", "dark")}
        return dict(Counter(map(attrgetter("text"), cards)))  # observed at every step

    def _turn_position(self) -> dict[str, Any] | None:
        """The position as a `start: turn` setup, or None when that cannot express it: another
        decision than play-or-draw is pending, an UNO window or a stacked penalty is open, or a
        hand shown by a challenge is still visible (docs/scenario-format.md `setup`; written
        by `uno_fsm.export`, the engine's one scenario writer)."""
        g = self.game
        return _engine("export").turn_setup(g.state, g.params.game == "flip")  # type: ignore[no-any-return]

    def _deal_position(self) -> dict[str, Any] | None:
        """A `start: round` setup dealing a new hand from every card of this game: the dealer
        chosen, the cards shuffled and dealt by the engine's own rules (CL.DEALER.*,
        CL.DEAL.SEVEN), the first card not turned yet. None once the game is over, or when
        its cards cannot deal a hand."""
        from uno_fsm.errors import UnresolvableSetup, WrongPlayerCount
        from uno_fsm.export import round_setup
        from uno_fsm.rules import Rules

        g = self.game
        if g.is_over:
            return None
        st = g.state.copy()
        try:
            Rules(st, g.params, {}).deal(None)  # not the first card: the setup turns it
        except (UnresolvableSetup, WrongPlayerCount):
            return None  # too few cards in the game to deal a hand (a made position's)
        return round_setup(st.players, st.dealer, st.hands, st.draw[::-1], st.scores,
                           st.eliminated)

    def close(self) -> None:
        self.game = None


def _pending(_a: ReferenceAdapter, g: Any) -> dict[str, Any]:
    pending = g.pending
    if pending is None or pending.player is None:
        return {"player": None, "decision": "none"}
    return {"player": pending.player, "decision": DECISION.get(pending.decision, pending.decision)}


def _active_color(_a: ReferenceAdapter, g: Any) -> str | None:
    return _engine("cards").color_name(g.state.active_color)  # type: ignore[no-any-return]


def _views(_a: ReferenceAdapter, g: Any) -> dict[int, Any]:
    from uno_fsm.view import cards_seen

    return {s: cards_seen(g, s) for s in range(g.state.players)}


# observation key -> its answer from the adapter and its game (`ReferenceAdapter.observe`: one
# lookup per key rather than a chain of comparisons, at every step of the fuzzer)
_OBSERVERS: dict[str, Callable[[ReferenceAdapter, Any], Any]] = {
    "hands": lambda _a, g: {s: [c.text for c in h] for s, h in enumerate(g.state.hands)},
    "hand_sizes": lambda _a, g: {s: len(h) for s, h in enumerate(g.state.hands)},
    "top": lambda _a, g: g.state.discard[-1].text if g.state.discard else None,
    "active_color": _active_color,
    "current": lambda _a, g: None if (p := g.pending) is None else p.player,
    "pending": _pending,
    "direction": lambda _a, g: "clockwise" if g.state.direction == 1 else "counterclockwise",
    "side": lambda _a, g: g.state.side,
    "draw_size": lambda _a, g: len(g.state.draw),
    "discard_size": lambda _a, g: len(g.state.discard),
    "scores": lambda _a, g: dict(enumerate(g.state.scores)),
    "round_over": lambda _a, g: g.round_over,
    "game_over": lambda _a, g: g.is_over,
    "dealer": lambda _a, g: g.state.dealer,
    "total_cards": lambda _a, g: len(g.state.all_cards()),
    "card_counts": lambda a, _g: a._card_counts(),
    "views": _views,
    "legal_actions": lambda _a, g: [_act_dict(x) for x in g.legal_actions()],
    "rules_applied": lambda a, _g: list(a.applied),
    "events": lambda a, _g: [_event_dict(e) for e in a.events],
    "shuffled": lambda a, _g: a.shuffled,
    "position": lambda a, _g: {"version": POSITION_VERSION, "turn": a._turn_position(),
                               "deal": a._deal_position()},
    "turn_position": lambda a, _g: a._turn_position(),  # `position`'s `turn` alone: no deal
    "eliminated": lambda _a, g: list(g.state.eliminated),  # DESAFIO.ELIMINATE: seats out
    # FLALT.TIE: a shared win is reported as the list of the tied seats
    "winner": lambda _a, g: g.winners if len(g.winners) > 1 else g.winner,
}


@dataclass(frozen=True)
class _Dealt:
    """`{next_round: true, deal: {hands, draw}}`: the next hand given (Game.next_round_dealt)."""

    hands: list[Any]
    draw: list[Any]
    dealer: int | None


def _dealt(deal: Any) -> _Dealt:
    """The fixed deal of a `next_round` action (docs/scenario-format.md): `hands` (seat ->
    cards, every seat) and `draw` (top first), in notation; else malformed-action."""
    from uno_fsm.cards import parse_many

    if not isinstance(deal, dict) or not {"hands", "draw"} <= set(deal) <= {"hands", "draw",
                                                                           "dealer"} \
            or not isinstance(deal["hands"], dict) or not isinstance(deal["draw"], list):
        raise _Malformed("malformed-action", "deal: {hands: {seat: [cards]}, draw: [cards], "
                         "dealer?: seat}")
    dealer = deal.get("dealer")
    if dealer is not None and (type(dealer) is not int or not 0 <= dealer < len(deal["hands"])):
        raise _Malformed("malformed-action", f"deal: dealer {dealer!r} is not a seat")
    hands = deal["hands"]
    seats = sorted(int(k) for k in hands if str(k).isdigit())
    if seats != list(range(len(hands))) or not all(isinstance(v, list) for v in hands.values()):
        raise _Malformed("malformed-action", "deal: hands lists every seat from 0, each a list")
    by_seat = {int(k): v for k, v in hands.items()}
    return _Dealt([parse_many(by_seat[s]) for s in seats], parse_many(deal["draw"]), dealer)


MALFORMED_RULE = "CL.PLAY.TURN-OPTIONS"  # uno_fsm.errors.MalformedAction's rule
MAX_MATCH_ROUNDS = 100  # the scenario schema's bound on `match.rounds`


def _hand(result: Any) -> Any:
    """One `results` entry as the tally's hand (bad-request when it is not one)."""
    from uno_fsm.match import Hand

    if not isinstance(result, dict) or set(result) != {"seats", "went_out", "points"} \
            or not isinstance(result["seats"], list) \
            or not all(type(v) is int for v in [*result["seats"], result["went_out"],
                                                 result["points"]]):
        raise AdapterError("bad-request", f"a result is {{seats, went_out, points}} of whole "
                           f"numbers, not {result!r}")
    return Hand(tuple(result["seats"]), result["went_out"], result["points"])


def _rules_of(events: Any) -> list[str]:
    """The rule IDs the events carry, in order, once each."""
    return list(dict.fromkeys(e.rule for e in events if e.rule))


def _event_dict(e: Any) -> dict[str, Any]:
    """An engine event as the `events` observation gives it: kind, player, rule, the card it
    names (a draw: the last card drawn), its colour and its count of cards or points
    (docs/adapter-protocol.md "Events and later hands")."""
    out: dict[str, Any] = {"kind": e.kind, "player": e.player, "rule": e.rule}
    if e.card is not None:
        out["card"] = e.card.text
    elif e.kind == "drew" and e.cards:  # the last card drawn (the one a draw-until stops at)
        out["card"] = e.cards[-1].text
    if e.color is not None:
        out["color"] = _engine("cards").color_name(e.color)
    if e.count and e.kind in COUNTED_EVENTS:
        out["count"] = e.count
    return out


# the events whose `count` is a number of cards or points (docs/adapter-protocol.md "Events");
# the engine's other events use the field for a seat, which the observation does not give
COUNTED_EVENTS = frozenset(("drew", "dealt", "reshuffled", "exhausted", "went-out", "stacked",
                            "hands-shuffled", "eliminated"))


class _Watched(random.Random):
    """The engine's random source, counting what is drawn from it (`shuffled`: whether an
    action drew on it, without copying the generator's state before and after each one).
    Every method of `random.Random` draws through `random` or `getrandbits`; overriding
    `getrandbits` keeps `_randbelow_with_getrandbits`, so the numbers are those of the
    generator it copies."""

    def __init__(self, state: Any) -> None:  # noqa: D107 - no seeding from the OS
        self.setstate(state)  # the state of the generator it copies
        self.draws = 0

    def random(self) -> float:
        self.draws += 1
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self.draws += 1
        return super().getrandbits(k)


_ACTIONS: dict[tuple[Any, ...], Any] = {}  # a protocol action's items -> its engine Action
ACTIONS_KEPT = 4096


def _remembered(to_engine: Any, action: Any) -> Any:
    """`to_engine(action)`, remembered for an action of plain values (the fuzzer's oracle
    converts the same few actions at every step): keyed by each item's type too (`true` is
    not `1`); a refused action is converted (and refused) again each time."""
    try:
        key = tuple((k, v, type(v)) for k, v in action.items())
        got = _ACTIONS.get(key)
    except (AttributeError, TypeError):  # not an object, or a `deal`'s lists: not kept
        return to_engine(action)
    if got is None:
        got = to_engine(action)
        if len(_ACTIONS) >= ACTIONS_KEPT:
            _ACTIONS.clear()
        _ACTIONS[key] = got
    return got


@functools.lru_cache(maxsize=64)  # an example's set-ups, resyncs and replays share its seeds
def _fresh_rng_state(seed: int) -> Any:
    return random.Random(seed).getstate()


# an engine action `legal_actions` listed -> (it, its `act`): the listed actions are interned
# (`uno_fsm.actions.interned`, kept for ever: an id is never another's), and the oracle
# observes the same few hundred of them at every step
_ACTS: dict[int, tuple[Any, dict[str, Any]]] = {}


def _act_dict(a: Any) -> dict[str, Any]:
    """An engine action in the scenario `act` vocabulary (docs/scenario-format.md), written by
    `uno_fsm.export.act_dict` (a copy: the caller's to change)."""
    got = _ACTS.get(id(a))
    if got is not None and got[0] is a:
        return got[1].copy()
    from uno_fsm.actions import FORMED
    from uno_fsm.export import NoActForm, act_dict

    try:
        made = act_dict(a)
    except NoActForm as exc:
        raise Unsupported(f"legal action {a.kind!r} has no `act` form") from exc
    if FORMED[False].get(id(a)) is a or FORMED[True].get(id(a)) is a:  # interned
        _ACTS[id(a)] = (a, made.copy())
    return made


@dataclass(frozen=True)
class PhaseEdges:
    """The `TurnPhases` edges a run of scenarios traversed on the reference engine."""

    reachable: tuple[str, ...]  # every edge but those no shipped ruleset can reach
    unreachable: dict[str, str]  # edge -> why no shipped ruleset reaches it
    exercised: frozenset[str]

    @property
    def missing(self) -> list[str]:
        return [e for e in self.reachable if e not in self.exercised]


@dataclass
class StepTrace:
    """What the reference engine did with one `act` of a scenario (conformance.features)."""

    accepted: bool
    rules: tuple[str, ...]  # the rule IDs of its events, or of its refusal
    face: str | None  # the face in play of the card the action names (its text if unparsed)
    decision: str | None  # the decision pending before it (`pending.decision`), None: none
    turned: tuple[str, ...]  # faces turned up by it: a next hand's first card, a flip's top


@dataclass
class Trace:
    """What the reference engine did with one scenario: its set-up (the rule IDs of the
    set-up's events, the faces turned first) and each `act` in order; `ran` is False when
    no set-up was played (a match scenario, a refused set-up)."""

    ran: bool = False
    setup_rules: tuple[str, ...] = ()
    turned: tuple[str, ...] = ()
    steps: list[StepTrace] = field(default_factory=list)


class TracingReference(ReferenceAdapter):
    """The reference engine recording a `Trace` of what it does (`reference_run`)."""

    def __init__(self, sink: list[Trace]) -> None:
        super().__init__()
        self.sink = sink

    def setup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        out = super().setup(params)
        trace = Trace()
        if self.game is not None and out is None:
            events = self.game.setup_events
            trace = Trace(True, tuple(_rules_of(events)), _turned(self.game, events))
        self.sink.append(trace)
        return out

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        g = self.game
        decision = face = None
        if g is not None:
            pending = g.pending
            decision = None if pending is None else pending.decision
            face = _face_of(g, action.get("play") if isinstance(action, dict) else None)
        out = super().act(action)
        rules: tuple[str, ...] = tuple(self.applied) if out is None else tuple(
            [out["rule"]] if out.get("rule") else [])
        turned = _turned(self.game, self.events) if out is None else ()
        if self.sink:
            self.sink[-1].steps.append(StepTrace(out is None, rules, face, decision, turned))
        return out


def _face_of(game: Any, card: Any) -> str | None:
    """The face in play of a card named in notation, as the engine reads it (its text when it
    is not a card of this game)."""
    from uno_fsm.cards import CardNotationError, parse

    if not isinstance(card, str):
        return None
    try:
        return str(parse(card).face(game.state.side).text)
    except (CardNotationError, ValueError, AttributeError):
        return card.upper().split("/")[0]


def _turned(game: Any, events: Any) -> tuple[str, ...]:
    """The faces the events turned up: a first card (`first-card`), a flip's new top."""
    out: list[str] = []
    for e in events or ():
        if e.kind == "first-card" and e.card is not None:
            out.append(e.card.light.text)  # FL.SETUP.FIRST-DISCARD: turned light side up
        elif e.kind == "flipped" and e.card is not None:
            out.append(e.card.face(game.state.side).text)
    return tuple(out)


def reference_run(scenarios: Sequence[Any]) -> tuple[PhaseEdges, dict[str, Trace]]:
    """Run `scenarios` on the reference engine in this process: the phase edges its dispatch
    table takes (issue 15 item 3; the recording is `uno-fsm check`'s,
    uno_fsm.modelcheck.traced) and, per scenario id, the `Trace` of what it did (the
    features a scenario needs: conformance.features). Outcomes are not judged here:
    `conformance run` does that."""
    from uno_fsm import modelcheck

    cov = modelcheck.Coverage()
    with modelcheck.traced(cov):
        traces = reference_traces(scenarios)
    every = [label for label, _ in modelcheck.all_edges()]
    # UNREACHABLE also lists guard outcomes (`edge/guard=value`): only its edges count here
    unreachable = {e: why for e, why in modelcheck.UNREACHABLE.items() if e in every}
    edges = PhaseEdges(reachable=tuple(e for e in every if e not in unreachable),
                       unreachable=unreachable,
                       exercised=frozenset(e for e, n in cov.edges.items() if n))
    return edges, traces


def reference_traces(scenarios: Sequence[Any]) -> dict[str, Trace]:
    """`reference_run`'s traces alone, without counting the phase edges (`conformance diff`
    asks for one scenario's features at each new divergence group)."""
    from conformance.runner import Runner

    sink: list[Trace] = []
    traces: dict[str, Trace] = {}

    def done(result: Any) -> None:
        traces[result.id] = sink.pop() if sink else Trace()
        sink.clear()

    runner = Runner(lambda: TracingReference(sink), adapter_name="reference", on_result=done)
    try:
        runner.run(scenarios)
    finally:
        runner.close()
    return traces


def phase_edges(scenarios: Sequence[Any]) -> PhaseEdges:
    """The phase edges `scenarios` traverse on the reference engine (`reference_run`)."""
    return reference_run(scenarios)[0]


class ReferenceOracle(ReferenceAdapter):
    """The reference engine as the oracle of `conformance diff`: it also declares the
    observations `rules_applied`, `shuffled` and `position` (`legal_actions` is declared
    by the plain reference too)."""

    def hello(self) -> dict[str, Any]:
        caps = super().hello()
        caps["observations"] = [*caps["observations"], *ORACLE_OBSERVATIONS]
        return caps


class _Malformed(Exception):
    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule or (MALFORMED_RULE if code == "malformed-action" else None)
