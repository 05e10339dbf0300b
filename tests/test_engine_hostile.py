"""Hostile input to the engine: set-ups the rules cannot start from, and anything given to
`Game.apply` / `Action.from_dict` that is not a well-formed action (docs/robustness.md, "Engine").

Each case asserts the exact outcome: the error type, its code and rule, and that the state is
unchanged. A guard turns a hang into a failure after a few seconds (it is not a timing
assertion: every case here returns at once or loops for ever).
"""

from __future__ import annotations

import argparse
import io
import json
import signal
from collections.abc import Iterator, Mapping
from types import FrameType
from typing import Any

import pytest
from engine_helpers import game, refused
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.adapters.reference import ReferenceAdapter
from uno_fsm import Action, Game, IllegalAction
from uno_fsm import errors as E
from uno_fsm.cards import parse
from uno_fsm.cli import cmd_play
from uno_fsm.dispatch import EVENTLESS, EVENTLESS_DEPTH, Edge, eventless_depth
from uno_fsm.params import Params
from uno_fsm.rules import dealing as R

HANG_GUARD_S = 30


class Hang(Exception):
    pass


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    def alarm(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer within {HANG_GUARD_S}s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, HANG_GUARD_S)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def round_setup(draw: list[str], players: int = 2, **kw: Any) -> dict[str, Any]:
    hands = {s: [] for s in range(players)}
    return {"players": players, "start": "round", "hands": hands, "draw": draw, **kw}


def setup_error(ruleset: Any, setup: dict[str, Any]) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        Game.from_setup(ruleset, setup)
    return info.value


def thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


def custom(base: str, **over: Any) -> Params:
    """A ruleset's params with some top-level parameters replaced (a custom ruleset)."""
    raw = thaw(Params.of(base).raw)
    raw.update(over)
    return Params.of(raw)


# ---- loops that could not end: refused set-ups (CL.FIRST.UNRESOLVABLE, RUL.SETUP.UNRESOLVABLE) --
def test_first_card_only_wild_draw_fours_is_refused() -> None:
    err = setup_error("classic-official", round_setup(["W4"] * 4))  # every one of the deck
    assert type(err) is E.UnresolvableSetup
    assert (err.code, err.rule) == ("unresolvable-setup", "CL.FIRST.UNRESOLVABLE")
    assert "W4" in err.message


def test_flip_first_card_only_wild_draw_twos_is_refused() -> None:
    err = setup_error("flip", round_setup(["W2/P1", "W2/TSE", "W2/WDC"]))
    assert (err.code, err.rule) == ("unresolvable-setup", "CL.FIRST.UNRESOLVABLE")


def test_first_card_from_an_empty_draw_pile_is_refused() -> None:
    err = setup_error("classic-official", round_setup([]))
    assert (err.code, err.rule) == ("unresolvable-setup", "CL.DEAL.FIRST-DISCARD")


def test_ignored_then_returned_cards_are_refused() -> None:
    """A custom first-card rule: Skips ignored, WD4s returned; once the Skips are turned only
    WD4s would be left, returned for ever."""
    params = custom("classic-official", first_card={
        **Params.of("classic-official").first_card, "skip": "ignore-and-turn-again"})
    err = setup_error(params, round_setup(["RS", "GS", "W4", "W4"]))
    assert (err.code, err.rule) == ("unresolvable-setup", "CL.FIRST.UNRESOLVABLE")


def test_wild_draw_fours_and_one_number_card_start_on_the_number() -> None:
    g = Game.from_setup("classic-official", round_setup(["W4"] * 4 + ["R5"]), seed=3)
    st_ = g.state
    assert st_.discard == [parse("R5")] and st_.active_color == "R"
    assert sorted(c.text for c in st_.draw) == ["W4"] * 4 and st_.phase == "play"


def test_classic_2022_ignored_cards_only_are_turned_until_the_pile_is_empty() -> None:
    """CL22.FIRST.IGNORE with no number card: not refused; the last card stays on top
    (RUL.SETUP.UNRESOLVABLE, corpus classic2022.deal.first-card.every-hand)."""
    g = Game.from_setup("classic-2022", round_setup(["GS", "W4", "YR"]))
    assert [c.text for c in g.state.discard] == ["GS", "W4", "YR"]
    assert g.state.draw == [] and g.state.active_color == "Y" and g.pending is not None


def test_first_card_loop_gives_up_at_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound (FIRST_CARD_TURNS turns per card) raises the same error; with the real bound
    reaching it has a chance below e^-64, so it is lowered here."""
    monkeypatch.setattr(R, "FIRST_CARD_TURNS", 0)
    err = setup_error("classic-official", round_setup(["W4", "R5"]))
    assert (err.code, err.rule) == ("unresolvable-setup", "CL.FIRST.UNRESOLVABLE")
    assert "after 0 turns" in err.message


@pytest.mark.parametrize("deck,why", [
    (["R5", "G7", "B1"], "3 cards for 4 players"),
    (["R5", "Y5", "G5", "B5"] * 2, "every card of the deck counts the same"),
    (["W4", "W", "RS", "GR", "BD2"] * 2, "every card of the deck counts the same"),
])
def test_dealer_draw_that_cannot_choose_is_refused(deck: list[str], why: str) -> None:
    err = setup_error("classic-official", {"players": 4, "start": "game", "draw": deck})
    assert (err.code, err.rule) == ("unresolvable-setup", "CL.DEALER.UNRESOLVABLE")
    assert why in err.message


def test_dealer_draw_gives_up_at_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(R, "DEALER_DRAWS", 1)  # the first round ties: 5 and 5
    deck = ["R5", "G5"] + ["R1", "G2", "B3", "Y4", "R6", "G7"] * 2 + ["B8", "Y9", "R2", "G3",
                                                                     "B4", "Y6"]
    err = setup_error("classic-official", {"players": 2, "start": "game", "draw": deck})
    assert (err.code, err.rule) == ("unresolvable-setup", "CL.DEALER.UNRESOLVABLE")
    assert "still tied after 1 rounds" in err.message


def test_next_round_that_cannot_start_is_refused_unchanged() -> None:
    """A toy deck of Wild Draw Fours only: the hand ends, the next cannot start. next-round
    raises, and the finished hand is exactly as it was (it can still be inspected)."""
    colors = Params.of("classic-official").raw["deck"]["colors"]  # a deck of 40 Wild Draw Fours
    params = custom("classic-official", dealer="random", deck={"colors": colors,
                                                               "wilds": {"wd4": 40}})
    # 16 cards, enough to deal 2 x 7 and turn one (CL.DEAL.SEVEN)
    g = game({0: ["W4"], 1: ["W4"]}, ["W4"], ["W4"] * 13, ruleset=params, active_color="red")
    g.apply(Action.play(0, parse("W4")))  # CL.END.LAST-WD4: P1 draws 4; P0 wins the hand
    assert g.round_over and not g.is_over and g.winner == 0 and g.scores == [250, 0]
    err = refused(g, Action.next_round())
    assert (err.code, err.rule) == ("unresolvable-setup", "CL.FIRST.UNRESOLVABLE")
    assert g.round_over and g.state.round == 1 and Action.next_round() in g.legal_actions()


def test_surely_starts_reads_the_light_faces_and_the_deal() -> None:
    """The next-round snapshot is skipped only for a deck that starts whatever the shuffle."""
    g = Game.new("flip", players=2, seed=0)
    r = g._rules
    g.state.side = "dark"  # a hand that ended on the dark side: the next starts light
    assert not r.surely_starts([parse("W2/PD5")] * 30)  # light faces: all Wild Draw Twos
    assert r.surely_starts([parse("R1/PD5")] * 14 + [parse("R2/P3")])  # numbers, 15 > 14
    # 14 cards that stand, 14 dealt: the deal may take them all and leave Wild Draw Twos
    assert not r.surely_starts([parse("R1/P2")] * 13 + [parse("R2/P3")] + [parse("W2/P1")] * 5)
    assert not r.surely_starts([parse("R5/P5")] * 30)  # the dealer draw cannot choose
    assert r.surely_starts(g.state.all_cards())  # the real deck


def test_game_new_with_a_deck_of_wild_draw_fours_is_refused() -> None:
    raw = thaw(Params.of("classic-official").raw)
    raw["deck"] = {"colors": raw["deck"]["colors"], "wilds": {"wd4": 40}}
    raw["dealer"] = "random"
    with pytest.raises(E.UnresolvableSetup) as info:
        Game.new(Params.of(raw), players=3, seed=1)
    assert info.value.rule == "CL.FIRST.UNRESOLVABLE"


def test_a_huge_hand_size_deals_the_deck_and_stops() -> None:
    """The deal is bounded by the cards, not by `hand_size`: a custom ruleset asking for 10^12
    cards a hand deals the whole deck, then no first card is left to turn."""
    params = custom("classic-official", hand_size=10**12, dealer="random")
    with pytest.raises(E.UnresolvableSetup) as info:
        Game.new(params, players=3, seed=0)
    assert info.value.rule == "CL.DEAL.FIRST-DISCARD"


def test_a_huge_draw_penalty_draws_what_there_is_and_stops() -> None:
    """give() is bounded by the cards: a Draw Two worth 10^12 cards takes the draw pile and
    every discard under the top (CL.RESHUFFLE.KEEP-TOP), then stops (RUL.RESHUFFLE.BOTH-EMPTY)."""
    params = custom("classic-official", draw2={"draw": 10**12})
    g = game({0: ["RD2", "G1"], 1: ["B1"]}, ["Y7", "R5"], ["B2", "B3"], ruleset=params)
    g.apply(Action.play(0, parse("RD2")))
    assert sorted(c.text for c in g.state.hands[1]) == ["B1", "B2", "B3", "R5", "Y7"]
    assert g.state.draw == [] and [c.text for c in g.state.discard] == ["RD2"]


def test_eventless_transitions_are_acyclic() -> None:
    """Game._settle follows at most EVENTLESS_DEPTH transitions; a cycle is refused at import."""
    assert EVENTLESS_DEPTH == eventless_depth(EVENTLESS) == 1
    loop = {"a": (Edge("a", "", (), "b", (), False),), "b": (Edge("b", "", (), "a", (), False),)}
    with pytest.raises(TypeError, match="a -> b -> a"):
        eventless_depth(loop)


def test_play_stops_when_the_bots_never_hand_over() -> None:
    """uno-fsm play: at most max_bot_moves bot moves between two decisions of the human."""
    out = io.StringIO()
    args = argparse.Namespace(ruleset="classic-official", players=4, seed=1, seat=0)
    assert cmd_play(args, io.StringIO(""), out, max_bot_moves=2) == 1
    assert out.getvalue().splitlines()[-1] == (
        "The bots made 2 moves without you; the game is stopped.")


# ---- player counts (CL.DECK.PLAYERS, FL.SETUP.PLAYERS, PARTNERS.EVEN: wrong-player-count) --
@pytest.mark.parametrize("ruleset,players,rule", [
    ("classic-official", 1, "CL.DECK.PLAYERS"),
    ("classic-official", 11, "CL.DECK.PLAYERS"),
    ("classic-guide", 11, "CL.DECK.PLAYERS"),
    ("flip", 0, "FL.SETUP.PLAYERS"),
    ("flip", 11, "FL.SETUP.PLAYERS"),
    ("classic-official+partners", 5, "PARTNERS.EVEN"),
    ("classic-official+partners", 2, "CL.DECK.PLAYERS"),
])
def test_wrong_player_count(ruleset: str, players: int, rule: str) -> None:
    for start in ("game", "turn"):
        setup: dict[str, Any] = {"players": players, "start": start}
        if start == "turn":
            setup |= {"hands": {}, "discard": ["R5"]}
        err = setup_error(ruleset, setup)
        assert type(err) is E.WrongPlayerCount and (err.code, err.rule) == (
            "wrong-player-count", rule)
    with pytest.raises(E.WrongPlayerCount):  # also a ValueError, as before
        Game.new(ruleset, players)


@pytest.mark.parametrize("players", ["3", 3.0, True, None, [3]])
def test_players_not_an_integer_is_malformed(players: Any) -> None:
    err = setup_error("classic-official", {"players": players, "start": "game"})
    assert type(err) is E.MalformedAction


@pytest.mark.parametrize("key,value", [
    ("dealer", True), ("dealer", 1.0), ("current", "0"), ("scores", {0: 2.5}),
    ("scores", {"\u0661": 5}),  # an Arabic-Indic digit one is not a seat number
])
def test_setup_numbers_of_the_wrong_type_are_malformed(key: str, value: Any) -> None:
    setup = {"players": 2, "hands": {0: ["R1"], 1: ["G1"]}, "discard": ["R5"], key: value}
    err = setup_error("classic-official", setup)
    assert type(err) is E.MalformedAction and key in err.message


def test_the_same_seat_twice_is_malformed() -> None:
    setup = {"players": 2, "hands": {1: ["R1"], "1": ["R2"], 0: []}, "discard": ["R5"]}
    err = setup_error("classic-official", setup)
    assert type(err) is E.MalformedAction and "given twice" in err.message


# ---- Game.apply: anything that is not a well-formed action -------------------------------
def position() -> Game:
    """P0 to play on R5 with a Wild and a red card; a round in progress."""
    return game({0: ["W", "R7", "G2"], 1: ["B1", "Y3"], 2: ["G9"]}, ["R5"], ["B2", "B3"])


W, R7 = parse("W"), parse("R7")


@pytest.mark.parametrize("action", [
    None, {"kind": "draw", "player": 0}, "draw", ["draw", 0], 0, ("play", 0, W),
    Action.draw,  # the constructor, not an action
])
def test_apply_refuses_what_is_not_an_action(action: Any) -> None:
    err = refused(position(), action)
    assert type(err) is E.MalformedAction and err.rule == "CL.PLAY.TURN-OPTIONS"


@pytest.mark.parametrize("action", [
    Action("draw", True), Action("draw", 2.0), Action("draw", "0"),  # type: ignore[arg-type]
    Action("draw", -1), Action("draw", 99), Action("draw"),
    Action("catch", 1, target=True), Action("catch", 1, target=0.0),  # type: ignore[arg-type]
    Action("hint", None, target=-3),
])
def test_apply_refuses_a_seat_that_is_not_a_seat(action: Action) -> None:
    err = refused(position(), action)
    assert type(err) is E.MalformedAction


@pytest.mark.parametrize("action", [
    Action("play", 0, "R7"),  # type: ignore[arg-type]  # a string, not a Card
    Action("play", 0, parse("R7/PD5")),  # a Flip card in a classic game
    Action("play", 0, parse("RD1")),  # a Flip light face, single-faced
    Action("play", 0, parse("W2")),
    Action("play", 0, W, color=5),  # type: ignore[arg-type]  # a colour that is not a string
    Action("play", 0, W, color=["R"]),  # type: ignore[arg-type]
    Action("play", 0, R7, uno=1),  # type: ignore[arg-type]
    Action("play", 0, R7, target=1),  # a field the kind does not take
    Action("draw", 0, card=R7), Action("draw", 0, color="R"), Action("draw", 0, uno=True),
    Action("next-round", 0), Action("hint", 0, target=1),
    Action("fly", 0), Action(["play"], 0, R7),  # type: ignore[arg-type]
    Action(None, 0),  # type: ignore[arg-type]
])
def test_apply_refuses_a_malformed_action(action: Action) -> None:
    err = refused(position(), action)
    assert type(err) is E.MalformedAction and err.code == "malformed-action"


def test_apply_in_flip_refuses_a_classic_card() -> None:
    g = Game.new("flip", players=3, seed=4)
    p = g.pending
    assert p is not None and p.player is not None
    for card in ("R5", "W4", "RD2"):
        err = refused(g, Action.play(p.player, parse(card)))
        assert type(err) is E.MalformedAction and "not a card of UNO Flip" in err.message


def test_a_listed_action_of_a_classic_game_is_malformed_in_flip() -> None:
    """Listed (interned) actions skip the form check only in a game of their own kind."""
    plays = [a for a in position().legal_actions() if a.kind == "play"]
    g = Game.new("flip", players=3, seed=4)
    for a in plays:
        err = refused(g, a)
        assert type(err) is E.MalformedAction and "not a card of UNO Flip" in err.message


@pytest.mark.parametrize("ruleset,where,card", [
    ("classic-official", "draw", "R5/PD5"), ("classic-official", "discard", "RF"),
    ("classic-official", "hands", "W2"), ("flip", "draw", "R5"), ("flip", "hands", "W4"),
])
def test_setup_with_a_card_of_the_other_game_is_malformed(ruleset: str, where: str,
                                                          card: str) -> None:
    flip = ruleset == "flip"
    setup: dict[str, Any] = {"players": 2, "hands": {0: ["R1/P2" if flip else "R1"], 1: []},
                             "discard": ["R5/PD5" if flip else "R5"], "draw": []}
    if where == "hands":
        setup["hands"][1] = [card]
    else:
        setup[where] = [*setup[where], card]
    err = setup_error(ruleset, setup)
    assert type(err) is E.MalformedAction and card in err.message


def test_a_true_seat_is_refused_and_a_saved_game_loads() -> None:
    """Before: Action('draw', True) was accepted, and the saved game then failed to load."""
    g = position()
    err = refused(g, Action("draw", True))  # type: ignore[arg-type]
    assert type(err) is E.MalformedAction
    g.apply(Action.draw(0))
    back = Game.from_json(g.to_json())
    assert back.state == g.state and back.log == g.log == [Action.draw(0)]
    tampered = json.loads(g.to_json())
    tampered["log"]["actions"][0] = {"kind": "draw", "player": True}
    with pytest.raises(E.MalformedAction, match="player True"):
        Game.from_json(json.dumps(tampered))


# ---- Action.from_dict: strict ------------------------------------------------------------
@pytest.mark.parametrize("d,why", [
    (None, "a mapping"), ("draw", "a mapping"), ([], "a mapping"),
    ({}, "kind"), ({"player": 0}, "kind"), ({"kind": 5, "player": 0}, "kind"),
    ({"kind": "fly", "player": 0}, "kind"),
    ({"kind": "draw", "player": 0, "extra": 1}, "unknown action key(s) extra"),
    ({"kind": "draw", "player": True}, "player True"),
    ({"kind": "draw", "player": 1.0}, "player 1.0"),
    ({"kind": "draw", "player": "1"}, "player '1'"),
    ({"kind": "play", "player": 0, "card": "ZZ"},
     "play: 'ZZ' is not a card (unknown colour letter 'Z'): a card is a colour letter (R red"),
    ({"kind": "play", "player": 0, "card": 5}, "not a card notation"),
    ({"kind": "play", "player": 0, "card": "R5", "uno": "yes"}, "uno 'yes'"),
    ({"kind": "color", "player": 0, "color": 1}, "color 1"),
    ({"kind": "draw", "player": 0, "target": 1}, "target 1"),
])
def test_from_dict_refuses(d: Any, why: str) -> None:
    with pytest.raises(E.MalformedAction) as info:
        Action.from_dict(d)
    assert why in info.value.message


def test_from_dict_round_trips_every_legal_action() -> None:
    g = Game.new("classic-official+jump-in", players=4, seed=2)
    for a in g.legal_actions():
        assert Action.from_dict(a.to_dict()) == a


# ---- the reference adapter: codes, never exceptions --------------------------------------
OBSERVE = ["hands", "top", "current", "pending", "draw_size", "active_color"]


def adapter() -> ReferenceAdapter:
    a = ReferenceAdapter()
    a.hello()
    assert a.setup({"ruleset": "classic-official", "seed": 0, "setup": {
        "players": 2, "current": 0, "hands": {"0": ["W", "R7"], "1": ["B1"]},
        "discard": ["R5"], "draw": ["B2"]}}) is None
    return a


@pytest.mark.parametrize("act", [
    None, 5, "draw", [], {}, {"player": True, "draw": True}, {"player": 0.0, "draw": True},
    {"player": 0, "draw": "yes"}, {"player": 0, "play": 5}, {"player": 0, "play": "ZZ"},
    {"player": 0, "play": "R7/PD5"}, {"player": 0, "play": "W", "color": ["red"]},
    {"player": 0, "play": "R7", "uno": "yes"}, {"player": 0, "play": "R7", "draw": True},
    {"player": 0, "draw": True, "color": "red"}, {"player": 0, "challenge": "no"},
    {"next_round": 1}, {"player": 0, "referee": "hint", "card": "R7"},
    {"player": 0, "play": "R7", "bogus": 1}, {"player": 0, "color": None},
    {"player": 0, "play": "W", "color": None},
])
def test_reference_adapter_act_answers_malformed_action(act: Any) -> None:
    a = adapter()
    before = a.observe(OBSERVE)
    got = a.act(act)
    assert got is not None and (got["code"], got["rule"]) == (
        "malformed-action", "CL.PLAY.TURN-OPTIONS")
    assert a.observe(OBSERVE) == before


@pytest.mark.parametrize("setup,code,rule", [
    (round_setup(["W4", "W4"]), "unresolvable-setup", "CL.FIRST.UNRESOLVABLE"),
    ({"players": 11, "start": "game"}, "wrong-player-count", "CL.DECK.PLAYERS"),
    ({"players": 1, "start": "game"}, "wrong-player-count", "CL.DECK.PLAYERS"),
])
def test_reference_adapter_setup_answers_the_code(setup: dict[str, Any], code: str,
                                                  rule: str) -> None:
    a = ReferenceAdapter()
    a.hello()
    got = a.setup({"ruleset": "classic-official", "seed": 0, "setup": setup})
    assert got is not None and (got["code"], got["rule"]) == (code, rule)
    assert a.game is None


# ---- property: garbage never gets through, never changes anything ------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=True)
    | st.sampled_from(["", "R5", "W4", "R7/PD5", "red", "play", "draw", "0"]) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["kind", "player", "card", "color", "uno", "target", "x"]), inner,
        max_size=4),
    max_leaves=8,
)
KINDS = st.sampled_from(["play", "draw", "pass", "color", "challenge", "accept", "swap", "uno",
                         "catch", "hint", "wrong-card", "next-round"]) | JSON
CARDS = st.none() | st.sampled_from(["R5", "W", "W4", "R7/PD5", "W2/WDC", "RD1"]).map(parse) | JSON
GARBAGE_ACTIONS = st.builds(Action, kind=KINDS, player=JSON, card=CARDS, color=JSON, uno=JSON,
                            target=JSON)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(ruleset=st.sampled_from(["classic-official", "flip", "classic-official+seven-o"]),
       seed=st.integers(0, 50), moves=st.integers(0, 40), junk=JSON | GARBAGE_ACTIONS,
       via_dict=st.booleans())
def test_garbage_actions_raise_and_change_nothing(ruleset: str, seed: int, moves: int,
                                                  junk: Any, via_dict: bool) -> None:
    g = Game.new(ruleset, players=3, seed=seed)
    for i in range(moves):
        if g.is_over:
            break
        legal = g.legal_actions()
        g.apply(legal[(seed + i) % len(legal)])
    before = g.state.to_dict()
    legal = g.legal_actions()
    if via_dict:
        try:
            junk = Action.from_dict(junk)
        except E.MalformedAction:
            return
        except IllegalAction as exc:  # pragma: no cover - the assertion explains it
            raise AssertionError(f"from_dict raised {exc.code}, not malformed-action") from exc
    try:
        g.apply(junk)
    except IllegalAction:
        assert g.state.to_dict() == before
        return
    # accepted: it was a well-formed legal action after all (referee actions are not listed)
    assert isinstance(junk, Action) and (junk in legal or junk.kind in ("hint", "wrong-card"))
    assert Action.from_dict(junk.to_dict()) == junk
