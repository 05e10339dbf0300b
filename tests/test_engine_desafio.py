"""The Desafio elimination game (uno_fsm/rules/desafio.py): a test (at least) per rule ID DESAFIO.*
and ruling RUL.DESAFIO.*, each naming it; hostile set-ups of the `eliminated` field."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from engine_helpers import game as base_game
from engine_helpers import hand, refused

from uno_fsm import Action, Game, IllegalAction
from uno_fsm.cards import parse
from uno_fsm.deck import build_deck
from uno_fsm.errors import Eliminated, GameOver, MalformedAction
from uno_fsm.params import Params, ParamsError, from_mapping

C = parse
DE = "classic-official+desafio"
DE22 = "classic-2022+desafio"


def rest_of_deck(hands: dict[int, list[str]], discard: list[str]) -> list[str]:
    """The cards of the classic deck not in `hands` and `discard`, sorted (B0, B1, ...)."""
    deck = Counter(c.text for c in build_deck(Params.of(DE)))
    for cards in (*hands.values(), discard):
        deck -= Counter(cards)
    return sorted(deck.elements())


def game(hands: dict[int, list[str]], discard: list[str], draw: list[str] | None = None,
         ruleset: str = DE, **kw: Any) -> Game:
    """A `start: turn` position; the draw pile is the rest of the deck unless given."""
    return base_game(hands, discard, draw or rest_of_deck(hands, discard), ruleset, **kw)


def events(g: Game, action: Action) -> list[tuple[str, int | None, str]]:
    return [(e.kind, e.player, e.rule) for e in g.apply(action)]


# ---- parameters ----------------------------------------------------------------------
def test_elimination_is_played_with_the_designated_amount() -> None:
    """RUL.DESAFIO.THRESHOLD: the amount is the ruleset's `scoring.target`, 500 by default."""
    for ruleset in (DE, DE22):
        p = Params.of(ruleset)
        assert p.method == "elimination" and p.target == 500
    assert Params.of("classic-official").method == "winner-scores-others"
    raw = dict(Params.of(DE).raw)
    raw["scoring"] = {**raw["scoring"], "target": None}
    with pytest.raises(ParamsError, match="'elimination' needs scoring.target"):
        Game.new(from_mapping("no-amount", raw), players=3)  # the variant refuses it
    raw["scoring"] = {**raw["scoring"], "target": 120}
    assert from_mapping("small", raw).target == 120


# ---- DESAFIO.SCORE ---------------------------------------------------------------------
def test_DESAFIO_SCORE() -> None:
    """DESAFIO.SCORE (RUL.DESAFIO.SCORING): each player adds their own hand; the player who
    went out adds nothing and collects nothing."""
    g = game({0: ["R1"], 1: ["B5", "GS"], 2: ["W4", "Y9"]}, ["R7"],
             scores={0: 40, 1: 100, 2: 0})
    got = events(g, Action.play(0, C("R1")))
    assert g.scores == [40, 125, 59]
    assert g.round_over and not g.is_over and g.winner == 0 and g.state.eliminated == []
    assert ("went-out", 0, "DESAFIO.SCORE") in got


def test_DESAFIO_SCORE_last_draw_two_counts() -> None:
    """DESAFIO.SCORE with CL.END.LAST-D2: the cards the next player draws count for them."""
    g = game({0: ["RD2"], 1: ["B5"], 2: ["Y1"]}, ["R7"], draw=["G9", "G8", "G7"])
    g.apply(Action.play(0, C("RD2")))
    assert g.scores == [0, 5 + 9 + 8, 1]


# ---- DESAFIO.ELIMINATE / DESAFIO.SIMULTANEOUS -------------------------------------------
@pytest.mark.parametrize("before,out", [(491, True), (495, True), (490, False)])
def test_DESAFIO_ELIMINATE(before: int, out: bool) -> None:
    """DESAFIO.ELIMINATE (RUL.DESAFIO.THRESHOLD): reaching (491 + 9 = 500) or exceeding the
    amount eliminates at the end of the hand; 499 does not."""
    g = game({0: ["R1"], 1: ["B9"], 2: ["Y1"]}, ["R7"], scores={1: before})
    got = events(g, Action.play(0, C("R1")))
    assert g.state.eliminated == ([1] if out else [])
    assert (("eliminated", 1, "DESAFIO.ELIMINATE") in got) is out
    assert g.round_over and not g.is_over  # two are left: a head-to-head follows


def test_DESAFIO_SIMULTANEOUS() -> None:
    """DESAFIO.SIMULTANEOUS (RUL.DESAFIO.THRESHOLD, RUL.DESAFIO.NO-FINAL): all who reach the
    amount in the same hand go together, tied or not; the winner never does."""
    g = game({0: ["R1"], 1: ["B9"], 2: ["Y1"], 3: ["W"]}, ["R7"],
             scores={0: 499, 1: 491, 2: 499, 3: 460})
    got = events(g, Action.play(0, C("R1")))
    assert g.state.eliminated == [1, 2, 3]  # 491 + 9, 499 + 1, 460 + 50
    assert g.scores == [499, 500, 500, 510]
    assert [e for e in got if e[0] == "eliminated"] == [
        ("eliminated", s, "DESAFIO.SIMULTANEOUS") for s in (1, 2, 3)]
    # RUL.DESAFIO.NO-FINAL: only the hand's winner is left, so that hand was the last one
    assert g.is_over and g.winner == 0 and g.winners == [0]


# ---- DESAFIO.ELIMINATED-OUT ------------------------------------------------------------
def test_DESAFIO_ELIMINATED_OUT_turn_order() -> None:
    """DESAFIO.ELIMINATED-OUT (RUL.DESAFIO.ELIMINATED): an eliminated seat has no turn; the
    next seat in play follows, in either direction; a Skip skips the next seat in play."""
    hands = {0: ["R1", "RS", "R3"], 1: [], 2: ["R4", "R5", "R8"], 3: ["R6", "RR"]}
    g = game(hands, ["R7"], eliminated=[1], scores={1: 500})
    g.apply(Action.play(0, C("R1")))
    assert g.pending is not None and g.pending.player == 2
    g.apply(Action.play(2, C("R4")))
    g.apply(Action.play(3, C("RR")))  # counterclockwise now: 3 -> 2
    assert g.pending is not None and g.pending.player == 2
    g.apply(Action.play(2, C("R5"), uno=True))
    assert g.pending is not None and g.pending.player == 0  # 2 -> 1 (out) -> 0
    g.apply(Action.play(0, C("RS")))  # skips 3, the next in play counterclockwise
    assert g.pending is not None and g.pending.player == 2


def test_DESAFIO_ELIMINATED_OUT_actions_refused() -> None:
    """DESAFIO.ELIMINATED-OUT (RUL.DESAFIO.OUT-ACTIONS): nothing by or naming an eliminated
    player is accepted: code `eliminated`, state unchanged; nor listed."""
    g = game({0: ["R1", "R2"], 1: [], 2: ["B4", "B5"]}, ["R7"], eliminated=[1],
             scores={1: 612})
    g.apply(Action.play(0, C("R1")))  # one card left, UNO not called: catchable
    legal = g.legal_actions()
    assert Action.catch(2, 0) in legal and all(1 not in (a.player, a.target) for a in legal)
    for action in (Action.catch(1, 0), Action.call_uno(1), Action.hint(1), Action.draw(1),
                   Action.play(1, C("B4"))):
        err = refused(g, action)
        assert (err.code, err.rule) == ("eliminated", "DESAFIO.ELIMINATED-OUT"), action
    assert isinstance(refused(g, Action.wrong_card(1)), Eliminated)


def test_DESAFIO_ELIMINATED_OUT_swap_and_jump_in() -> None:
    """DESAFIO.ELIMINATED-OUT with the variants: a swap target and a jumper must be in play;
    a 0 rotates the hands among the players in play only (V.SEVENO.ZERO-ROTATE)."""
    g = game({0: ["R7", "R2"], 1: [], 2: ["B4"], 3: ["G1", "G2"]}, ["R9"],
             ruleset="classic-official+seven-o+desafio", eliminated=[1], scores={1: 520})
    g.apply(Action.play(0, C("R7")))
    assert {a.target for a in g.legal_actions() if a.kind == "swap"} == {2, 3}
    assert refused(g, Action.swap(0, 1)).code == "eliminated"
    g.apply(Action.swap(0, 2))
    assert hand(g, 0) == ["B4"] and hand(g, 2) == ["R2"]
    g = game({0: ["R0", "R2"], 1: [], 2: ["B4"], 3: ["G1", "G2"]}, ["R9"],
             ruleset="classic-official+seven-o+desafio", eliminated=[1], scores={1: 520})
    g.apply(Action.play(0, C("R0")))
    assert [hand(g, s) for s in range(4)] == [["G1", "G2"], [], ["R2"], ["B4"]]
    g = game({0: ["R5", "R2"], 1: [], 2: ["B4"], 3: ["G1", "R9"]}, ["R9"],
             ruleset="classic-official+jump-in+desafio", eliminated=[1], scores={1: 520},
             current=2)
    assert Action.play(3, C("R9")) in g.legal_actions()
    g.apply(Action.play(3, C("R9")))  # V.JUMPIN.CONTINUES: the next seat in play after 3
    assert g.pending is not None and g.pending.player == 0


def test_DESAFIO_ELIMINATED_OUT_deal() -> None:
    """DESAFIO.ELIMINATED-OUT, RUL.DESAFIO.DEALER: the next hand is dealt to the players in
    play only, by a dealer in play, and play starts left of the dealer at a seat in play."""
    for seed in range(40):
        g = game({0: ["R1"], 1: ["B9"], 2: ["Y1"], 3: ["G2"]}, ["R7"],
                 scores={1: 495, 3: 499}, seed=seed)
        g.apply(Action.play(0, C("R1")))
        assert g.state.eliminated == [1, 3]
        g.apply(Action.next_round())
        st = g.state
        assert [len(h) for h in st.hands][1::2] == [0, 0]
        # 7 each (16: a Draw Two turned first, CL.FIRST.D2)
        assert sum(len(h) for h in st.hands) in (14, 16)
        assert st.dealer in (0, 2)
        assert g.pending is not None and g.pending.player in (0, 2)
        assert len(st.all_cards()) == 108


def test_RUL_DESAFIO_DEALER_draw_among_the_players_in_play() -> None:
    """RUL.DESAFIO.DEALER (CL.DEALER.HIGHEST): only the players in play draw for the deal, in
    seat order; seat 1, eliminated, would have drawn the 9."""
    numbers = [f"{c}{d}" for c in "YGB" for d in range(1, 10)]  # a first card of no effect
    g = Game.from_setup(DE, {"players": 3, "start": "game", "eliminated": [1],
                             "scores": {1: 530}, "draw": ["R2", "R3", "R9", *numbers]})
    # seat 0 draws R2, seat 2 draws R3: seat 2 deals (the R9 is not drawn by seat 1)
    assert g.state.dealer == 2 and [len(h) for h in g.state.hands] == [7, 0, 7]
    assert g.pending is not None and g.pending.player == 0  # left of 2
    for seed in range(30):  # classic-2022: random among those in play
        g = Game.from_setup(DE22, {"players": 4, "start": "game", "eliminated": [0, 2],
                                   "scores": {0: 500, 2: 600}, "seed": seed})
        assert g.state.dealer in (1, 3)


# ---- DESAFIO.HEAD-TO-HEAD ---------------------------------------------------------------
@pytest.mark.parametrize("card,rule", [("RR", "CL.TWO.REVERSE-SKIP"),
                                       ("RS", "CL.TWO.SKIP-AGAIN"),
                                       ("RD2", "CL.TWO.D2-AGAIN")])
def test_DESAFIO_HEAD_TO_HEAD(card: str, rule: str) -> None:
    """DESAFIO.HEAD-TO-HEAD (RUL.TWO.SCOPE): with two left of four seats, the two-player rules
    apply: after a Reverse, Skip or Draw Two the same player plays again."""
    g = game({0: [], 1: ["G5", card, "R3"], 2: [], 3: ["B5", "B6"]}, ["R7"],
             eliminated=[0, 2], scores={0: 500, 2: 510}, current=1, dealer=3)
    g.apply(Action.play(1, C(card)))
    assert g.pending is not None and g.pending.player == 1, rule
    assert len(hand(g, 3)) == (4 if card == "RD2" else 2)


def test_DESAFIO_HEAD_TO_HEAD_wd4_plays_again() -> None:
    """DESAFIO.HEAD-TO-HEAD with CL.TWO.WD4-AGAIN: an accepted WD4, then the player again."""
    g = game({0: [], 1: ["G5", "W4", "R3"], 2: ["B5"], 3: []}, ["Y7"],
             eliminated=[0, 3], scores={0: 500, 3: 510}, current=1, dealer=2)
    g.apply(Action.play(1, C("W4"), "R"))
    assert g.pending is not None and (g.pending.player, g.pending.decision) == (2, "challenge")
    g.apply(Action.accept(2))
    assert g.pending is not None and g.pending.player == 1 and len(hand(g, 2)) == 5


# ---- DESAFIO.WINNER ----------------------------------------------------------------------
def test_DESAFIO_WINNER() -> None:
    """DESAFIO.WINNER (RUL.DESAFIO.FINAL): the final pair play until one reaches the amount;
    the other, the winner of that last hand, wins; then nothing more is accepted."""
    g = game({0: ["R1"], 1: [], 2: ["B9", "B8"]}, ["R7"], eliminated=[1],
             scores={0: 480, 1: 530, 2: 490})
    got = events(g, Action.play(0, C("R1")))
    assert g.is_over and g.winner == 0 and g.winners == [0] and g.pending is None
    assert g.scores == [480, 530, 507] and g.state.eliminated == [1, 2]
    assert ("game-over", 0, "DESAFIO.WINNER") in got
    assert isinstance(refused(g, Action.next_round()), GameOver)


def test_DESAFIO_WINNER_final_goes_on_below_the_amount() -> None:
    """RUL.DESAFIO.FINAL: the final is not one hand; below the amount another hand is dealt."""
    g = game({0: ["R1"], 1: [], 2: ["B9"]}, ["R7"], eliminated=[1], scores={1: 530})
    g.apply(Action.play(0, C("R1")))
    assert g.round_over and not g.is_over and g.scores == [0, 530, 9]
    g.apply(Action.next_round())
    assert [len(h) for h in g.state.hands][1] == 0 and not g.round_over


@pytest.mark.parametrize("ruleset", [DE, DE22])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_whole_games_end_with_one_player_left(ruleset: str, players: int) -> None:
    """DESAFIO.* over whole random games: eliminated seats hold no cards and no turn while a
    hand is played, the totals only grow, every card stays in the game, one winner is left."""
    rng = random.Random(players)
    g = Game.new(ruleset, players, seed=players)
    totals = g.scores
    for _ in range(100_000):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
        st = g.state
        assert len(st.all_cards()) == 108
        assert all(a >= b for a, b in zip(g.scores, totals, strict=True))
        totals = g.scores
        if not g.round_over:
            assert all(not st.hands[s] for s in st.eliminated)
            assert g.pending is not None and g.pending.player not in st.eliminated
            assert all(a.player not in st.eliminated for a in g.legal_actions())
    assert g.is_over
    st = g.state
    assert sorted([*st.eliminated, g.winner]) == list(range(players))
    assert all(g.scores[s] >= 500 for s in st.eliminated) and g.scores[g.winner] < 500
    again = Game.from_json(g.to_json())
    assert again.state == g.state and again.state.eliminated == st.eliminated


# ---- the set-up field `eliminated`: hostile cases --------------------------------------
BASE: dict[str, Any] = {"players": 4, "dealer": 3, "current": 0, "discard": ["R7"],
                        "hands": {0: ["R1"], 1: [], 2: ["B2"], 3: ["G3"]},
                        "scores": {1: 500}, "eliminated": [1]}


def test_setup_eliminated_is_played() -> None:
    g = Game.from_setup(DE, BASE)
    assert g.state.eliminated == [1] and g.scores == [0, 500, 0, 0]
    g = Game.from_setup(DE, {**BASE, "eliminated": [], "hands": {**BASE["hands"], 1: ["Y1"]},
                             "scores": {1: 499}})
    assert g.state.eliminated == [] and g.state.to_dict()["eliminated"] == []


@pytest.mark.parametrize("change,message", [
    ({"eliminated": "1"}, "setup: eliminated must be a list of seats, not '1'"),
    ({"eliminated": {1: True}}, "setup: eliminated must be a list of seats, not {1: True}"),
    ({"eliminated": 1}, "setup: eliminated must be a list of seats, not 1"),
    ({"eliminated": [True]}, "setup: eliminated: True is not a seat of 4 players"),
    ({"eliminated": [1.0]}, "setup: eliminated: 1.0 is not a seat of 4 players"),
    ({"eliminated": ["1"]}, "setup: eliminated: '1' is not a seat of 4 players"),
    ({"eliminated": [4]}, "setup: eliminated: 4 is not a seat of 4 players"),
    ({"eliminated": [-1]}, "setup: eliminated: -1 is not a seat of 4 players"),
    ({"eliminated": [1, 1]}, "setup: eliminated: seat 1 given twice"),
    ({"eliminated": [0, 1, 2, 3], "hands": {0: [], 1: [], 2: [], 3: []}},
     "setup: eliminated: 0 player(s) left of 4; a hand needs two (with one left the game is "
     "over)"),
    ({"eliminated": [1, 2, 3]},
     "setup: eliminated: 1 player(s) left of 4; a hand needs two (with one left the game is "
     "over)"),
    ({"hands": {0: ["R1"], 1: ["Y5"], 2: ["B2"], 3: ["G3"]}},
     "setup: eliminated seat 1 holds cards"),
    ({"scores": {1: 499}},
     "setup: eliminated seat 1 has 499 points, below the amount 500 that eliminates"),
    ({"scores": {1: 500, 2: 500}},
     "setup: seat 2 has 500 points, at or over the amount 500: it is eliminated "
     "(DESAFIO.ELIMINATE)"),
])
def test_setup_eliminated_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(MalformedAction) as info:
        Game.from_setup(DE, {**BASE, **change})
    assert info.value.message == message and info.value.code == "malformed-action"


@pytest.mark.parametrize("change,code,message", [
    ({"dealer": 1}, "eliminated", "setup: dealer 1 is eliminated (cannot deal)"),
    ({"current": 1}, "eliminated", "setup: current 1 is eliminated (has no turn)"),
])
def test_setup_seat_of_an_eliminated_player_refused(change: dict[str, Any], code: str,
                                                    message: str) -> None:
    with pytest.raises(IllegalAction) as info:
        Game.from_setup(DE, {**BASE, **change})
    assert (info.value.code, info.value.rule, info.value.message) == (
        code, "DESAFIO.ELIMINATED-OUT", message)


def test_setup_eliminated_outside_desafio_refused() -> None:
    with pytest.raises(MalformedAction) as info:
        Game.from_setup("classic-official", BASE)
    # refused for what it names: the set-up field, and the variant that would read it
    assert info.value.code == "malformed-action"
    assert "eliminated" in info.value.message and "desafio" in info.value.message


def test_setup_eliminated_default_current_is_left_of_the_dealer_in_play() -> None:
    """CL.SEAT.LEFT with DESAFIO.ELIMINATED-OUT: without `current`, the next seat in play."""
    setup = {k: v for k, v in BASE.items() if k != "current"}
    g = Game.from_setup(DE, {**setup, "dealer": 0})
    assert g.pending is not None and g.pending.player == 2


def test_the_view_names_the_eliminated() -> None:
    """DESAFIO.ELIMINATE is public: every player's view lists the seats out of the game; an
    eliminated seat has no legal action in its view."""
    g = game({0: ["R1", "R2"], 1: [], 2: ["B4"]}, ["R7"], eliminated=[1], scores={1: 612})
    assert g.view(0)["eliminated"] == [1] and g.view(1)["eliminated"] == [1]
    assert g.view(1)["legal_actions"] == [] and g.view(1)["hand"] == []
    assert Game.from_setup(DE, {"players": 2, "hands": {0: ["R1"], 1: ["B2"]},
                                "discard": ["R7"], "current": 0}).view(0)["eliminated"] == []
