"""UNO Flip in the reference engine: one or more tests per FL.* / FLALT.* rule."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from uno_fsm import Action, Game
from uno_fsm.cards import parse
from uno_fsm.deck import build_deck
from uno_fsm.errors import ColorRequired, NotChallengeable
from uno_fsm.params import Params


def game(ruleset: str = "flip", **setup: Any) -> Game:
    base: dict[str, Any] = {"players": 3, "dealer": 2, "current": 0, "side": "light",
                            "discard": ["B2/T6", "G4/O9", "R5/P3"], "active_color": "red",
                            "draw": ["Y6/P6", "B3/O3", "G9/V9"]}
    base.update(setup)
    return Game.from_setup(ruleset, base)


def play(g: Game, player: int, card: str, color: str | None = None, uno: bool = False) -> None:
    g.apply(Action.play(player, parse(card), color, uno))


def hands(g: Game) -> list[list[str]]:
    return [[c.text for c in h] for h in g.state.hands]


# ---- deck ----------------------------------------------------------------------------------
def test_deck_112_double_faced() -> None:  # FL.DECK.SIZE
    deck = build_deck(Params.of("flip"))
    assert len(deck) == 112 and all(c.dark is not None for c in deck)


def test_deck_faces_per_side() -> None:
    """FL.DECK.LIGHT.*, FL.DECK.DARK.* (FL.DECK.DARK.SKIP-EVERYONE: 8, not 81), FL.DECK.NO-ZERO,
    FL.DECK.LIGHT.COLOURS, FL.DECK.DARK.COLOURS."""
    deck = build_deck(Params.of("flip"))
    light = Counter(c.light.kind for c in deck)
    dark = Counter(c.face("dark").kind for c in deck)
    assert light == {"number": 72, "draw1": 8, "reverse": 8, "skip": 8, "flip": 8, "wild": 4,
                     "wd2": 4}
    assert dark == {"number": 72, "draw5": 8, "reverse": 8, "skip_everyone": 8, "flip": 8,
                    "wild": 4, "wdc": 4}
    assert {c.light.color for c in deck} == {"R", "Y", "G", "B", None}
    assert {c.face("dark").color for c in deck} == {"P", "T", "O", "V", None}
    assert 0 not in {c.light.number for c in deck} | {c.face("dark").number for c in deck}
    for side in ("light", "dark"):
        numbers = Counter(c.face(side).text for c in deck if c.face(side).number is not None)
        assert set(numbers.values()) == {2} and len(numbers) == 36


def test_pairing_is_fixed_by_the_ruleset_seed() -> None:  # FL.DECK.PAIRING
    p = Params.of("flip")
    assert build_deck(p) == build_deck(p)
    raw = dict(p.raw)
    raw["deck"] = {**raw["deck"], "pairing": {"method": "shuffled", "seed": 1}}
    other = build_deck(Params.of(raw))
    assert Counter(c.light.text for c in other) == Counter(c.light.text for c in build_deck(p))
    assert [c.text for c in other] != [c.text for c in build_deck(p)]
    g1, g2 = Game.new("flip", 3, seed=1), Game.new("flip", 3, seed=2)
    assert Counter(c.text for c in g1.state.all_cards()) == Counter(
        c.text for c in g2.state.all_cards())


# ---- the Flip card -------------------------------------------------------------------------
def test_flip_turns_everything_over() -> None:
    """FL.FLIP.SIDE-CHANGE, FL.FLIP.DISCARD-TURNED, FL.FLIP.DRAW-TURNED, FL.FLIP.HANDS-TURNED,
    FL.FLIP.NEXT-PLAYER, FL.FLIP.MATCH, FL.FLIP.NEW-TOP-NO-EFFECT."""
    g = game(hands={0: ["RF/O4", "G2/P9", "B4/V1"], 1: ["Y3/T7"], 2: ["B9/P1"]})
    play(g, 0, "RF/O4")
    st = g.state
    assert st.side == "dark"
    assert [c.text for c in st.discard] == ["RF/O4", "R5/P3", "G4/O9", "B2/T6"]
    assert [c.text for c in reversed(st.draw)] == ["G9/V9", "B3/O3", "Y6/P6"]
    assert st.active_color == "T" and g.pending is not None and g.pending.player == 1
    assert g._rules.face(st.hands[0][0]).text == "P9"


def test_flip_persists_and_dark_faces_play() -> None:  # FL.FLIP.PERSISTS, FL.PLAY.ACTIVE-SIDE
    g = game(hands={0: ["RF/O4", "G2/P9"], 1: ["Y3/T7", "G6/O2"], 2: ["B9/P1"]})
    play(g, 0, "RF/O4")
    play(g, 1, "Y3/T7")  # T7 on T6: colour teal
    assert g.state.side == "dark" and g.state.active_color == "T"


def test_flip_new_top_wild_means_no_colour() -> None:  # FL.FLIP.NEW-TOP-WILD
    g = game(hands={0: ["RF/O4", "G2/P9"], 1: ["Y3/T7", "G6/O2"], 2: ["B9/P1"]},
             discard=["B2/W", "R5/P3"])
    play(g, 0, "RF/O4")
    assert g.state.active_color is None
    cards = {a.card.text for a in g.legal_actions() if a.kind == "play" and a.card}
    assert cards == {"Y3/T7", "G6/O2"}  # anything may be played
    play(g, 1, "G6/O2")
    assert g.state.active_color == "O"


def test_drawn_cards_face_the_active_side() -> None:  # FL.PLAY.DRAW-FACING
    g = game(side="dark", hands={0: ["Y3/P5", "B2/O9"], 1: ["R7/T7"], 2: ["B9/P1"]},
             discard=["G8/V5", "B5/P6"], active_color="pink", draw=["Y1/V2"])
    play(g, 0, "Y3/P5")
    g.apply(Action.draw(1))  # V2 does not match P5: the turn passes
    assert g.pending is not None and g.pending.player == 2


def test_going_out_on_flip_flips_then_scores() -> None:  # FL.END.GO-OUT-FLIP, FL.SCORE.SIDE
    g = game(hands={0: ["RF/O4"], 1: ["W2/P3", "Y5/WDC"], 2: ["B9/P1"]})
    play(g, 0, "RF/O4")
    assert g.state.side == "dark" and g.scores == [3 + 60 + 1, 0, 0]


# ---- light side ----------------------------------------------------------------------------
def test_draw_one() -> None:  # FL.LIGHT.D1.EFFECT, FL.LIGHT.D1.MATCH
    g = game(hands={0: ["RD1/O4", "G2/P9"], 1: ["Y3/T7"], 2: ["B9/P1"]})
    play(g, 0, "RD1/O4")
    assert len(g.state.hands[1]) == 2 and g.pending is not None and g.pending.player == 2


def test_skip_and_reverse() -> None:  # FL.LIGHT.SKIP.EFFECT, FL.LIGHT.REVERSE.EFFECT
    g = game(hands={0: ["RS/O4", "G2/P9"], 1: ["Y3/T7"], 2: ["B9/P1", "RR/P2"]})
    play(g, 0, "RS/O4")
    assert g.pending is not None and g.pending.player == 2
    play(g, 2, "RR/P2")
    assert g.state.direction == -1 and g.pending is not None and g.pending.player == 1


def test_wild_names_a_light_colour() -> None:  # FL.LIGHT.WILD.COLOUR, RUL.FLIP.WILD-COLOURS
    g = game(hands={0: ["W/O4", "G2/P9"], 1: ["Y3/T7"], 2: ["B9/P1"]})
    assert not g.is_legal(Action.play(0, parse("W/O4"), "P"))
    play(g, 0, "W/O4", "B")
    assert g.state.active_color == "B"


W2_HANDS = {0: ["W2/O4", "R2/P9"], 1: ["Y3/T7"], 2: ["B9/P1"]}


def test_wd2_accept() -> None:  # FL.LIGHT.W2.EFFECT, FL.LIGHT.W2.ACCEPT
    g = game(hands=W2_HANDS)
    play(g, 0, "W2/O4", "G")
    assert g.pending is not None and g.pending.decision == "challenge"
    g.apply(Action.accept(1))
    assert len(g.state.hands[1]) == 3 and g.state.active_color == "G"
    assert g.pending is not None and g.pending.player == 2


def test_wd2_guilty() -> None:  # FL.LIGHT.W2.LEGAL, FL.LIGHT.W2.BLUFF, FL.LIGHT.W2.GUILTY
    g = game(hands=W2_HANDS)  # holds a red card: a bluff, accepted when played
    play(g, 0, "W2/O4", "G")
    with pytest.raises(NotChallengeable):  # FL.LIGHT.W2.CHALLENGER
        g.apply(Action.challenge(2))
    events = g.apply(Action.challenge(1))
    # FL.LIGHT.W2.SHOW-HAND: the hand shown under Flip's own rule, not the classic one
    assert [e.rule for e in events if e.kind == "shown"] == ["FL.LIGHT.W2.SHOW-HAND"]
    assert [len(h) for h in g.state.hands] == [3, 1, 1]
    assert g.state.active_color == "G"  # FL.LIGHT.W2.COLOUR-STANDS
    assert g.pending is not None and g.pending.player == 1


def test_wd2_innocent() -> None:  # FL.LIGHT.W2.INNOCENT
    g = game(hands={0: ["W2/O4", "Y2/P9"], 1: ["Y3/T7"], 2: ["B9/P1"]},
             draw=["Y6/P6", "B3/O3", "G9/V9", "R1/T1", "R2/T2"])
    play(g, 0, "W2/O4", "G")
    g.apply(Action.challenge(1))
    assert [len(h) for h in g.state.hands] == [1, 5, 1]
    assert g.pending is not None and g.pending.player == 2


# ---- dark side -----------------------------------------------------------------------------
def dark(**setup: Any) -> Game:
    base: dict[str, Any] = {"side": "dark", "discard": ["G8/V5", "B5/P6"],
                            "active_color": "pink"}
    return game(**{**base, **setup})


def test_draw_five() -> None:  # FL.DARK.D5.EFFECT, FL.DARK.D5.MATCH
    g = dark(hands={0: ["R3/PD5", "R4/TD5"], 1: ["Y3/T7"], 2: ["B9/P1"]},
             draw=["Y6/P6", "B3/O3", "G9/V9", "R1/T1", "R2/T2", "B1/O1"])
    assert not g.is_legal(Action.play(0, parse("R4/TD5")))
    play(g, 0, "R3/PD5")
    assert len(g.state.hands[1]) == 6 and g.pending is not None and g.pending.player == 2


def test_skip_everyone_plays_again() -> None:  # FL.DARK.SE.EFFECT, FL.DARK.SE.MATCH
    g = dark(hands={0: ["R3/PSE", "R4/P2"], 1: ["Y3/T7"], 2: ["B9/P1"]})
    play(g, 0, "R3/PSE")
    assert g.pending is not None and (g.pending.player, g.pending.decision) == (0, "play")


def test_dark_reverse() -> None:  # FL.DARK.REVERSE.EFFECT
    g = dark(hands={0: ["R3/PR", "R4/P2"], 1: ["Y3/T7"], 2: ["B9/P1"]})
    play(g, 0, "R3/PR")
    assert g.state.direction == -1 and g.pending is not None and g.pending.player == 2


def test_wdc_draws_until_the_colour() -> None:
    """FL.DARK.WDC.EFFECT, FL.DARK.WDC.DRAW-UNTIL (a Wild face does not stop it), FL.DARK.WDC.
    ACCEPT, FL.DARK.WILD.COLOUR."""
    g = dark(hands={0: ["R3/WDC", "R4/O2"], 1: ["Y3/T7"], 2: ["B9/P1"]},
             draw=["Y6/W", "B3/O3", "G9/T9", "R1/T1"])
    play(g, 0, "R3/WDC", "T")
    g.apply(Action.accept(1))
    assert hands(g)[1] == ["Y3/T7", "Y6/W", "B3/O3", "G9/T9"]
    assert g.state.active_color == "T" and g.pending is not None and g.pending.player == 2


def test_wdc_at_least_one_card() -> None:  # FL.DARK.WDC.DRAW-UNTIL (RUL.FLIP.WDC.UNTIL-DRAWN)
    g = dark(hands={0: ["R3/WDC", "R4/O2"], 1: ["Y3/T7"], 2: ["B9/P1"]},
             draw=["G9/T9", "R1/T1"])
    play(g, 0, "R3/WDC", "T")
    g.apply(Action.accept(1))
    assert len(g.state.hands[1]) == 2


def test_wdc_exhausted_reshuffles_and_stops() -> None:  # FL.DARK.WDC.EXHAUSTED
    g = dark(hands={0: ["R3/WDC", "R4/O2"], 1: ["Y3/T7"], 2: ["B9/P1"]},
             discard=["G1/O7", "G8/V5", "B5/P6"], draw=["Y6/P1"])
    play(g, 0, "R3/WDC", "T")
    g.apply(Action.accept(1))  # no teal card anywhere: everything is drawn, then it stops
    st = g.state
    assert len(st.hands[1]) == 5 and not st.draw and [c.text for c in st.discard] == ["R3/WDC"]
    assert sum(len(h) for h in st.hands) + len(st.draw) + len(st.discard) == 8


def test_wdc_legal_challenge_innocent_plus_two() -> None:
    """FL.DARK.WDC.LEGAL, FL.DARK.WDC.INNOCENT (RUL.FLIP.WDC.INNOCENT-EXTRA)."""
    g = dark(hands={0: ["R3/WDC", "R4/O2"], 1: ["Y3/T7"], 2: ["B9/P1"]},
             draw=["Y6/O6", "B3/T3", "G9/P9", "R1/T1", "R2/V2"])
    play(g, 0, "R3/WDC", "T")
    g.apply(Action.challenge(1))
    assert hands(g)[1] == ["Y3/T7", "Y6/O6", "B3/T3", "G9/P9", "R1/T1"]
    assert g.pending is not None and g.pending.player == 2


def test_wdc_guilty() -> None:  # FL.DARK.WDC.GUILTY, FL.DARK.WDC.BLUFF, FL.DARK.WDC.COLOUR-STANDS
    g = dark(hands={0: ["R3/WDC", "R4/P2"], 1: ["Y3/T7"], 2: ["B9/P1"]},
             draw=["Y6/O6", "B3/T3", "G9/P9"])
    play(g, 0, "R3/WDC", "T")
    events = g.apply(Action.challenge(1))
    # FL.DARK.WDC.CHALLENGER: "the challenged player shows them their hand"
    assert [e.rule for e in events if e.kind == "shown"] == ["FL.DARK.WDC.CHALLENGER"]
    assert hands(g)[0] == ["R4/P2", "Y6/O6", "B3/T3"] and g.state.active_color == "T"
    assert g.pending is not None and g.pending.player == 1


def test_last_wdc_needs_a_colour_and_the_victim_draws() -> None:
    """FL.END.GO-OUT-DRAW, FL.END.GO-OUT-NO-CHALLENGE, FL.END.GO-OUT-COUNT."""
    g = dark(hands={0: ["R3/WDC"], 1: ["Y3/T7"], 2: ["B9/P1"]},
             draw=["Y6/O6", "B3/T3", "G9/P9"])
    with pytest.raises(ColorRequired):
        play(g, 0, "R3/WDC")
    play(g, 0, "R3/WDC", "T")
    assert g.round_over and hands(g)[1] == ["Y3/T7", "Y6/O6", "B3/T3"]
    assert g.scores[0] == 7 + 6 + 3 + 1


def test_last_draw_one_counts() -> None:  # FL.END.GO-OUT-DRAW, FL.END.GO-OUT-COUNT
    g = game(hands={0: ["RD1/O4"], 1: ["Y3/T7"], 2: ["B9/P1"]})
    play(g, 0, "RD1/O4")
    assert g.round_over and g.scores[0] == 3 + 6 + 9


# ---- two players ---------------------------------------------------------------------------
@pytest.mark.parametrize("card,side", [("RR/O4", "light"), ("RS/O4", "light"),
                                       ("RD1/O4", "light"), ("Y4/PSE", "dark"),
                                       ("Y4/PR", "dark"), ("Y4/PD5", "dark")])
def test_two_players_play_again(card: str, side: str) -> None:
    """FL.TWO.REVERSE, FL.TWO.PLAY-AGAIN."""
    setup: dict[str, Any] = {"players": 2, "dealer": 0, "hands": {0: [card, "G2/P9"],
                                                                  1: ["Y3/T7"]}}
    if side == "dark":
        setup.update(side="dark", discard=["G8/V5", "B5/P6"], active_color="pink",
                     draw=["Y6/P6", "B3/O3", "G9/V9", "R1/T1", "R2/T2", "B1/O1"])
    g = game(**setup)
    play(g, 0, card)
    assert g.pending is not None and g.pending.player == 0


# ---- first card ----------------------------------------------------------------------------
@pytest.mark.parametrize("first,current,direction,sizes,decision", [
    ("R5/P3", 0, 1, [7, 7, 7], "play"),     # FL.FIRST.NUMBER
    ("RD1/P3", 1, 1, [8, 7, 7], "play"),    # FL.FIRST.DRAW-ONE
    ("RS/P3", 1, 1, [7, 7, 7], "play"),     # FL.FIRST.SKIP
    ("RR/P3", 2, -1, [7, 7, 7], "play"),    # FL.FIRST.REVERSE
    ("RF/P3", 0, 1, [7, 7, 7], "play"),     # FL.FIRST.FLIP
    ("W/P3", 0, 1, [7, 7, 7], "color"),     # FL.FIRST.WILD
])
def test_first_card(first: str, current: int, direction: int, sizes: list[int],
                    decision: str) -> None:
    """FL.SETUP.FIRST-DISCARD, FL.FIRST.ACTION-SEE-CARD, FL.SETUP.START-LIGHT."""
    deck = [f"{c}{n}/{d}{n}" for c, d in zip("RYGB", "PTOV", strict=True) for n in range(1, 8)]
    g = Game.from_setup("flip", {
        "players": 3, "dealer": 2, "start": "round",
        "hands": {s: deck[7 * s:7 * s + 7] for s in range(3)},
        "draw": [first, "G9/V9", "B9/P9", "Y9/T9"]})
    assert g.state.side == "light" and g.pending is not None
    assert (g.pending.player, g.pending.decision) == (current, decision)
    assert g.state.direction == direction and [len(h) for h in g.state.hands] == sizes


def test_first_card_wd2_is_returned() -> None:  # FL.FIRST.WILD-DRAW-TWO
    g = Game.from_setup("flip", {"players": 2, "dealer": 1, "start": "round",
                                 "hands": {0: ["R1/P1"], 1: ["R2/P2"]},
                                 "draw": ["W2/P3", "G9/V9"]})
    assert g.state.discard[-1].text == "G9/V9" and g.state.draw[0].text == "W2/P3"


# ---- scoring and game ----------------------------------------------------------------------
def test_score_dark_values() -> None:
    """FL.SCORE.SIDE, FL.SCORE.DRAW-FIVE, FL.SCORE.SKIP-EVERYONE, FL.SCORE.WILD-DRAW-COLOUR,
    FL.SCORE.FLIP, FL.SCORE.REVERSE, FL.SCORE.WILD, FL.SCORE.NUMBER, FL.SCORE.WINNER."""
    g = dark(hands={0: ["R3/P2"], 1: ["R1/TD5", "R2/TSE", "R3/WDC"],
                    2: ["R4/TF", "R5/TR", "R6/W", "R7/T9"]})
    play(g, 0, "R3/P2")
    assert g.scores == [20 + 30 + 60 + 20 + 20 + 40 + 9, 0, 0]


def test_score_light_values() -> None:
    """FL.SCORE.DRAW-ONE, FL.SCORE.SKIP, FL.SCORE.WILD-DRAW-TWO; FL.GAME.ACCUMULATE."""
    g = game(hands={0: ["R3/P2"], 1: ["GD1/T5", "GS/T2"], 2: ["W2/T4"]}, scores={0: 100})
    play(g, 0, "R3/P2")
    assert g.scores == [100 + 10 + 20 + 50, 0, 0]


def test_the_hand_won_is_scored_under_flips_own_rule() -> None:
    """FL.SCORE.WINNER: a Flip hand's scoring event cites Flip's rule, not the classic
    CL.SCORE.WINNER, which no Flip ruleset has (conformance diff named a Flip scoring bug
    by the classic rule)."""
    g = game(hands={0: ["R3/P2"], 1: ["W2/T4"], 2: ["G1/T1"]})
    events = g.apply(Action.play(0, parse("R3/P2")))
    assert [(e.player, e.count, e.rule) for e in events if e.kind == "went-out"] == \
        [(0, 50 + 1, "FL.SCORE.WINNER")]


def test_game_to_500() -> None:  # FL.GAME.TARGET-500
    g = game(hands={0: ["R3/P2"], 1: ["W2/T4"], 2: ["G1/T1"]}, scores={0: 449})
    play(g, 0, "R3/P2")
    assert g.is_over and g.winner == 0 and g.scores[0] == 500


def test_alt_scoring_own_hands() -> None:
    """FLALT.OWN-HAND, FLALT.NO-COLLECT, FLALT.VALUES, FLALT.GO-OUT-DRAWS."""
    g = game("flip+flip-alt-scoring",
             hands={0: ["RD1/P2"], 1: ["W2/T4"], 2: ["G1/T1"]})
    events = g.apply(Action.play(0, parse("RD1/P2")))
    assert g.round_over and not g.is_over and g.scores == [0, 50 + 6, 1]
    # the scoring event cites the variant's rule, with the going-out player's points (none)
    assert [(e.player, e.count, e.rule) for e in events if e.kind == "went-out"] == \
        [(0, 0, "FLALT.OWN-HAND")]


def test_alt_scoring_lowest_wins_and_ties_share() -> None:
    """FLALT.END-500, FLALT.LOWEST-WINS, FLALT.TIE (RUL.FLALT.TIE)."""
    g = game("flip+flip-alt-scoring", hands={0: ["R3/P2"], 1: ["W2/T4"], 2: ["G1/T1"]},
             scores={0: 101, 1: 460, 2: 100})
    play(g, 0, "R3/P2")
    assert g.is_over and g.scores == [101, 510, 101] and g.winners == [0, 2]
    assert g.winner == 0


# ---- views ---------------------------------------------------------------------------------
def test_view_shows_backs_of_others_never_own() -> None:
    """FL.INFO.NO-PEEK, FL.INFO.OPPONENT-BACKS, FL.SETUP.HOLD, FL.SETUP.DRAW-PILE."""
    g = game(hands={0: ["RF/O4", "G2/P9"], 1: ["Y3/T7"], 2: ["B9/P1"]})
    v = g.view(0)
    assert sorted(v["hand"]) == ["G2", "RF"] and v["top"] == "R5"
    assert v["backs"] == {1: ["T7"], 2: ["P1"]} and v["draw_back"] == "P6"
    text = repr(v)
    assert "O4" not in text and "P9" not in text
    play(g, 0, "RF/O4")
    v = g.view(0)
    assert v["hand"] == ["P9"] and v["backs"] == {1: ["Y3"], 2: ["B9"]}
    assert v["draw_back"] == "G9" and v["top"] == "T6"
    assert "G2" not in repr(v)


# ---- command line --------------------------------------------------------------------------
def test_simulate_flip(capsys: pytest.CaptureFixture[str]) -> None:
    from uno_cli.main import main

    assert main(["simulate", "--games", "3", "--ruleset", "flip", "--players", "3",
                 "--seed", "1", "--no-progress"]) == 0
    assert "mean game length" in capsys.readouterr().out


def test_play_flip_hides_own_backs() -> None:
    """FL.INFO.NO-PEEK in `uno-fsm play --ruleset flip`: the human's own cards and moves are
    written by their active faces only."""
    import argparse
    import io

    from uno_fsm.cli import cmd_play

    args = argparse.Namespace(ruleset="flip", players=3, seed=7, seat=0)
    out = io.StringIO()
    assert cmd_play(args, io.StringIO("1\n" * 80 + "q\n"), out) == 0
    text = out.getvalue()
    assert "your hand (light side):" in text and "backs:" in text
    for line in text.splitlines():
        if line.startswith("your hand") or line.lstrip()[:3].rstrip(".").isdigit():
            assert "/" not in line, line
