"""`uno-fsm play` from exact positions (in process): the late-UNO prompt, catches, who
challenged whom, drawn cards in classic and Flip, scores, the bots' strategy, `--help`."""

from __future__ import annotations

import argparse
import io
import random
import re
from pathlib import Path

import pytest
from engine_helpers import filler, game

from uno_cli.main import main
from uno_fsm import Action, Game
from uno_fsm.bots import CHALLENGE_AT, basic_bot, random_bot
from uno_fsm.cards import parse
from uno_fsm.terminal import Table, full_name, legend, play
from uno_spec.sitelinks import using


def run(g: Game, lines: str, me: int = 0, bots: str = "basic") -> tuple[int, str]:
    out = io.StringIO()
    code = play(g, me, bots, 1, io.StringIO(lines), out, max_bot_moves=1000)
    return code, out.getvalue()


# ---- the human's side --------------------------------------------------------------------
def test_the_late_uno_prompt_is_explained_and_calls_uno() -> None:
    g = game({0: ["R5", "R7"], 1: ["G1", "G2", "G3"]}, ["R1"], ["Y1", "Y2", "Y3"])
    code, text = run(g, "R5\n2\n1\nq\n")  # play R5, do not call UNO with it, then call it late
    assert code == 0
    assert "You will hold one card: call UNO as you play it?" in text
    assert ("  You have one card left and did not call UNO with your play. Call it now, before "
            "anyone catches you, or let it go.  [CL.UNO.CALL-LATE]\n"
            "   1. call UNO now\n   0. let it go\n") in text
    assert "  You call UNO!  [CL.UNO.CALL-LATE]\n" in text


def test_letting_the_window_go_lets_the_basic_bot_catch() -> None:
    g = game({0: ["R5", "R7"], 1: ["G1", "G2", "G3"]}, ["R1"], ["Y1", "Y2", "Y3"])
    code, text = run(g, "R5\nn\n0\nq\n")
    assert code == 0
    assert "  Bot 1 catches you without UNO  [CL.UNO.CATCH]\n" in text
    assert "  You draw Y1 Y2  [CL.UNO.CATCH-PENALTY]\n" in text


def test_catching_a_bot_that_did_not_call() -> None:
    g = game({0: ["G9", "B1"], 1: ["R5", "R7"]}, ["R1"], ["Y1", "Y2", "Y3"], current=1)
    g.apply(Action.play(1, parse("R5")))  # one card left, UNO not called
    code, text = run(g, "2\nq\n")
    assert ("  Bot 1 has one card left and did not call UNO: catch them and they draw 2."
            "  [CL.UNO.CATCH]\n   1. draw a card\n   2. catch Bot 1 (they did not call UNO)\n"
            ) in text
    assert "  You catch Bot 1 without UNO  [CL.UNO.CATCH]\n" in text
    assert "  Bot 1 draws 2 cards  [CL.UNO.CATCH-PENALTY]\n" in text


def test_who_challenged_whom_is_named_both_ways() -> None:
    # the bot has no red and no 3: its Wild Draw Four is legal; the human challenges and loses
    g = game({0: ["R9", "B2"], 1: ["W4", "G1", "G2"]}, ["R3"], [f"Y{i}" for i in range(9)],
             current=1)
    _, text = run(g, "1\nq\n")
    assert "  Bot 1 plays W4 and names green  [CL.PLAY.MATCH]\n" in text
    # the challenge said as the rulebooks say it (CL.WD4.LEGAL, CL.WD4.LEGAL-OTHER-MATCHES),
    # not "a card they could play instead": the colour before the Wild is what counts
    assert ("  Bot 1 played W4 on you. A Wild Draw Four may be played only by a player holding "
            "no card of the colour on the pile (red); cards of other colours matching its "
            "number or symbol, and Wilds, do not count. Challenge it if you think Bot 1 held a "
            "red card: if so they draw, if not you draw more.  [CL.WD4.LEGAL]\n") in text
    assert "  You challenge Bot 1's Wild Draw card  [CL.WD4.CHALLENGE.DECISION]\n" in text
    assert "  Bot 1 shows you their hand: G1 G2  [CL.WD4.CHALLENGE.SHOW]\n" in text
    assert re.search(r"  You draw( Y\d){6}  \[CL\.WD4\.CHALLENGE\.INNOCENT\]\n", text)
    # the human holds red and many cards: the basic bot challenges, and wins
    hand = ["W4", "R9", "B2", "B3", "B4", "B5", "B6"]
    assert len(hand) - 1 >= CHALLENGE_AT
    g = game({0: hand, 1: ["G1", "G2", "G3"]}, ["R3"], [f"Y{i}" for i in range(9)])
    _, text = run(g, "W4 blue\nq\n")
    assert "  You play W4 and name blue  [CL.PLAY.MATCH]\n" in text
    assert "  Bot 1 challenges your Wild Draw card  [CL.WD4.CHALLENGE.DECISION]\n" in text
    assert "  You show your hand to Bot 1  [CL.WD4.CHALLENGE.SHOW]\n" in text
    assert re.search(r"  You draw( Y\d){4}  \[CL\.WD4\.CHALLENGE\.GUILTY\]\n", text)


def test_drawn_cards_are_shown_alike_in_classic_and_flip() -> None:
    g = game({0: ["G9"], 1: ["R5", "R7"]}, ["R1"], ["Y4", "Y2"])
    _, text = run(g, "draw\nq\n")
    assert "  You draw Y4  [CL.DRAW.UNABLE]\n" in text
    g = game({0: ["G9/O9"], 1: ["R5/P5", "R7/P7"]}, ["R1/T1"], ["Y4/V4", "Y2/V2"],
             ruleset="flip")
    _, text = run(g, "draw\nq\n")
    assert "  You draw Y4  [CL.DRAW.UNABLE]\n" in text  # the face in play, never the back
    g = game({0: ["G9/O9"], 1: ["R5/P5", "R7/P7"]}, ["R1/T1"], ["Y4/V4", "Y2/V2"],
             ruleset="flip", side="dark", active_color="teal")
    _, text = run(g, "draw\nq\n")
    assert "  You draw V4  [CL.DRAW.UNABLE]\n" in text


def test_scores_after_a_round_and_the_next_first_card() -> None:
    g = game({0: ["R5"], 1: ["G1", "G2", "B7"]}, ["R1"], filler(30, ["R5", "G1", "G2", "B7", "R1"]),
             ruleset="classic-official", scores={1: 5})
    code, text = run(g, "R5\nq\n")
    assert code == 0
    assert "  You go out and score 10 points  [CL.SCORE.WINNER]\n" in text
    assert ("Scores after round 1 (first to 500 wins):\n  You       10\n  Bot 1      5\n"
            "\nRound 2\n") in text
    assert re.search(r"\nRound 2\n(  .*\n)*  First card: \S+  \[CL\.DEAL\.FIRST-DISCARD\]\n",
                     text)


def test_the_end_of_the_game_names_the_winner_and_the_scores() -> None:
    g = game({0: ["R5"], 1: ["G1", "G2", "B7"]}, ["R1"], ["Y1"], scores={0: 495})
    code, text = run(g, "R5\n")
    assert code == 0
    assert text.endswith("Final scores (first to 500 wins):\n  You      505\n  Bot 1      0\n"
                         "Game over: You win.\n")


def test_why_quotes_the_rule_of_a_refusal() -> None:
    g = game({0: ["R5", "G7"], 1: ["G1", "G2"]}, ["R1"], ["Y1"])
    _, text = run(g, "G7\nwhy\nq\n")
    assert ("  Refused: G7 does not match the red 1: play a red card, a 1 or a Wild  "
            "[CL.PLAY.MATCH]\n") in text
    assert ("  Refused: G7 does not match the red 1: play a red card, a 1 or a Wild\n"
            "  CL.PLAY.MATCH: A coloured card may be "
            "played if it matches the top discard") in text
    # the clauses the rule cites, quoted with their English, without file paths
    assert ("  classic-br:play:10, Regras do Uno: Veja como jogar (regras oficiais):\n"
            "    > Ele/a deve coincidir com a carta no monte de DESCARTE, seja por número, cor "
            "ou símbolo.\n    en: He/she must match the card on the DISCARD pile") in text
    assert ".yaml" not in text
    # each rule and clause named, with its place in the rulebook site (default: ./site/)
    site = (Path.cwd() / "site").as_uri()
    assert f"\n    site: {site}/rules/classic-play.html#CL.PLAY.MATCH\n" in text
    assert f"\n    site: {site}/sources/classic-br.html#classic-br:play:10\n" in text


def test_why_prints_site_links_under_the_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNO_FSM_SITE_URL", "https://example.org/uno")  # a long one: unwrapped
    g = game({0: ["R5", "G7"], 1: ["G1", "G2"]}, ["R1"], ["Y1"])
    with using("https://rules.example.org/a/very/long/path/to/the/uno/rulebook/site/"):
        _, text = run(g, "G7\nwhy\nq\n")
    assert ("\n    site: https://rules.example.org/a/very/long/path/to/the/uno/rulebook/site/"
            "rules/classic-play.html#CL.PLAY.MATCH\n") in text
    _, text = run(g, "G7\nwhy\nq\n")
    assert ("\n    site: https://example.org/uno/sources/classic-br.html#classic-br:play:10\n"
            in text)


def test_full_names_and_the_legend() -> None:
    assert [full_name(parse(t).light) for t in ("R5", "GS", "YD2", "W4", "WDC", "PSE")] == [
        "red 5", "green Skip", "yellow Draw Two", "Wild Draw Four", "Wild Draw Colour",
        "pink Skip Everyone"]
    text = legend()
    for code in ("R red", "P pink", "S Skip", "D2 Draw Two", "SE Skip Everyone",
                 "W4 Wild Draw Four", "WDC Wild Draw Colour"):
        assert code in text


def test_seat_names_follow_the_humans_seat() -> None:
    g = Game.new("classic-official", 4, 1)
    t = Table(g, 2, random_bot, random.Random(0), io.StringIO(), io.StringIO())
    assert [t.name(s) for s in range(4)] == ["Bot 1", "Bot 2", "You", "Bot 3"]


# ---- the bots ----------------------------------------------------------------------------
def basic(g: Game) -> Action:
    actions = [a for a in g.legal_actions() if a.player != 0 or g.state.current == 0]
    return basic_bot(g, actions, random.Random(0))


def test_basic_plays_a_matching_card_before_a_wild_and_a_wild_draw_four_last() -> None:
    g = game({0: ["W4", "W", "B5", "R9", "R2"], 1: ["G1"]}, ["R3"], ["Y1"])
    assert basic(g) == Action.play(0, parse("R9"))  # red, the colour held most, highest
    g = game({0: ["W4", "W", "B5", "G2", "B6"], 1: ["G1"]}, ["R3"], ["Y1"])
    assert basic(g) == Action.play(0, parse("W"), "B")  # no match: Wild, the colour held most
    g = game({0: ["W4", "W", "B5", "G2"], 1: ["G1"]}, ["R3"], ["Y1"])
    assert basic(g) == Action.play(0, parse("W"), "G")  # a tie: the first in the deck's order
    g = game({0: ["W4", "B5", "B6"], 1: ["G1"]}, ["R3"], ["Y1"])
    assert basic(g) == Action.play(0, parse("W4"), "B")
    g = game({0: ["B5", "G6"], 1: ["G1"]}, ["R3"], ["Y1"])
    assert basic(g) == Action.draw(0)


def test_basic_calls_uno_and_catches() -> None:
    g = game({0: ["R5", "R7"], 1: ["G1"]}, ["R1"], ["Y1"])
    assert basic(g) == Action.play(0, parse("R7"), None, True)
    g = game({0: ["R5", "R7"], 1: ["G1", "G2"]}, ["R1"], ["Y1", "Y2"])
    g.apply(Action.play(0, parse("R5")))  # P0 forgot UNO: P0 calls at once, else P1 catches
    assert basic_bot(g, g.legal_actions(), random.Random(0)) == Action.call_uno(0)
    assert basic_bot(g, g.legal_actions(1), random.Random(0)) == Action.catch(1, 0)


@pytest.mark.parametrize("held,expected", [(CHALLENGE_AT, "challenge"),
                                           (CHALLENGE_AT - 1, "accept")])
def test_basic_challenges_only_a_player_holding_many_cards(held: int, expected: str) -> None:
    hand = ["W4"] + [f"B{i}" for i in range(held)]
    g = game({0: hand, 1: ["G1", "G2"]}, ["R3"], [f"Y{i}" for i in range(9)])
    g.apply(Action.play(0, parse("W4"), "B"))
    assert basic_bot(g, g.legal_actions(1), random.Random(0)).kind == expected


def test_random_bots_play_only_legal_moves_to_the_end() -> None:
    for bot in (random_bot, basic_bot):
        g = Game.new("classic-official+seven-o+stacking", 3, 5)
        rng = random.Random(5)
        for _ in range(20_000):
            if g.is_over:
                break
            g.apply(bot(g, g.legal_actions(), rng))
        assert g.is_over


# ---- the command line --------------------------------------------------------------------
def test_play_help_shows_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    text = "".join(capsys.readouterr().out.split())  # argparse wraps lines, even at a hyphen
    for default in ("(default: classic-official):", "(default: 4)", "(default: a random seed",
                    "(default: 0)", "{basic,random}", "(default: basic)"):
        assert "".join(default.split()) in text
    assert "variants,composedasBASE+VARIANT+...:" in text  # the rulesets listed from spec/


def test_an_unknown_bot_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bots", "clever"]) == 2
    assert capsys.readouterr().err == (
        "uno-fsm play: argument --bots: invalid choice: 'clever' (choose from 'basic', 'random') "
        "(see `uno-fsm play --help`)\n")


@pytest.mark.parametrize("ruleset,first", [("flip", "You"), ("flip+flip-alt-scoring", "Bot 1")])
def test_the_scoreboard_puts_the_leader_first(ruleset: str, first: str) -> None:
    """FLALT.OWN-HAND: with the alternative scoring the lowest total leads."""
    g = game({0: ["G9/O9"], 1: ["R5/P5"]}, ["R1/T1"], ["Y4/V4"], ruleset=ruleset,
             scores={0: 30, 1: 10})
    out = io.StringIO()
    Table(g, 0, basic_bot, random.Random(0), io.StringIO(), out).scoreboard("Scores")
    assert out.getvalue().splitlines()[1].startswith(f"  {first} ")


@pytest.mark.parametrize("bots", ["random", "basic"])
def test_a_whole_flip_game_ends_with_either_bots(bots: str) -> None:
    """Always the first move offered, against each kind of bot: the game reaches its end."""
    from uno_fsm.cli import cmd_play

    args = argparse.Namespace(ruleset="flip", players=3, seed=2, seat=1, bots=bots)
    out = io.StringIO()
    assert cmd_play(args, io.StringIO("1\n" * 5000), out) == 0
    text = out.getvalue()
    assert re.search(r"\nGame over: (You win|Bot [12] wins)\.\n$", text)
    assert f", {bots} bots, seed 2. You are seat 1." in text


# ---- words, not codes (issue 24 item 9) ----------------------------------------------------
def lines_with(text: str, mark: str) -> list[str]:
    return [line.strip().removeprefix(">").strip() for line in text.splitlines() if mark in line]


def three_cards() -> Game:
    return game({0: ["R9", "B2", "W4"], 1: ["G1", "G2"]}, ["R3"], [f"Y{i}" for i in range(9)])


@pytest.mark.parametrize(("typed", "said"), [
    ("Y3 green", "? Y3 is not a Wild and takes no colour: type Y3, or Y3 uno to call UNO "
                 "with it"),
    ("r9 GREEN uno", "? R9 is not a Wild and takes no colour: type R9, or R9 uno to call UNO "
                     "with it"),
    ("R9 foo", "? 'foo' is neither a colour nor `uno`: type R9, or R9 uno to call UNO with it"),
    ("W4 red blue", "? name one colour, not 2: type W4 and a colour (red, yellow, green or "
                    "blue), and uno to call UNO with it"),
    ("R9 uno uno", "? say `uno` once: type R9, or R9 uno to call UNO with it"),
    ("draw 2", "? `draw` takes nothing after it ('2'): type draw"),
    ("draw " + "x" * 100_000, "? `draw` takes nothing after it ('xxxxxxxxxxxx...'): type draw"),
    # a right-to-left override is repeated escaped, never raw
    ("R9 " + "\u202e" * 50, "? '" + "\\u202e" * 12 + "...' is neither a colour nor `uno`: "
                            "type R9, or R9 uno to call UNO with it"),
])
def test_extra_words_in_a_move_are_refused_with_the_right_form(typed: str, said: str) -> None:
    """`Y3 green` dropped the colour and played Y3."""
    g = three_cards()
    code, text = run(g, f"{typed}\nq\n")
    assert code == 0 and lines_with(text, "? ") == [said]
    assert "You play" not in text and g.state.hands[0] == [parse(c) for c in ("R9", "B2", "W4")]


@pytest.mark.parametrize(("typed", "said"), [
    ("4", "? 4 is not in the list: type a number from 1 to 3"),
    ("-1", "? -1 is not in the list: type a number from 1 to 3"),
    ("0", "? 0 is not in the list: type a number from 1 to 3"),  # 0 lets a window go only
    ("9" * 5000, "? 999999999999... is not in the list: type a number from 1 to 3"),
    ("\u00b2", "? '\u00b2' is not a move here: type a number from the list, a card code (R5, "
               "W4 green, R7 uno), `draw`, or `help`"),  # a superscript two is not a number
])
def test_a_bad_number_is_told_the_valid_range(typed: str, said: str) -> None:
    """`²` and a 5000-digit number crashed the game (int() of them raises)."""
    code, text = run(three_cards(), f"{typed}\nq\n")
    assert code == 0 and lines_with(text, "? ") == [said]


def test_a_bad_number_in_a_follow_up_question_is_told_the_range() -> None:
    code, text = run(three_cards(), "W4\n7\n\u00b2\n1\nq\n")  # the Wild, then its colour
    assert code == 0
    assert lines_with(text, "? ") == ["? 7 is not in the list: type a number from 1 to 4",
                                      "? '\u00b2' is not one of these: type its number, from 1 "
                                      "to 4"]
    assert "  You play W4 and name red  [CL.PLAY.MATCH]\n" in text


def test_a_refused_play_is_said_in_words() -> None:
    """`R7 does not match YD2 / Y`."""
    g = game({0: ["R7", "Y1"], 1: ["G1", "G2"]}, ["YD2"], ["Y5"], active_color="yellow")
    _, text = run(g, "R7\nq\n")
    assert ("  Refused: R7 does not match the yellow Draw Two: play a yellow card, a Draw Two "
            "or a Wild  [CL.PLAY.MATCH]\n") in text
    g = game({0: ["R7", "Y1"], 1: ["G1", "G2"]}, ["R3", "W"], ["Y5"], active_color="green")
    _, text = run(g, "R7\nq\n")
    assert ("  Refused: R7 does not match the green named for the Wild: play a green card or a "
            "Wild  [CL.PLAY.MATCH-ON-WILD]\n") in text
    g = game({0: ["G7", "Y1"], 1: ["G1", "G2"]}, ["R8"], ["Y5"])
    _, text = run(g, "G7\nq\n")
    assert "  Refused: G7 does not match the red 8: play a red card, an 8 or a Wild" in text


def test_the_flip_challenge_hint_names_its_card_and_the_colour_before_it() -> None:
    g = game({0: ["R9/O9", "B2/P2"], 1: ["W2/T3", "G1/V1", "G2/V2"]}, ["B3/T7"],
             [f"Y{i}/V{i}" for i in range(1, 9)], ruleset="flip", current=1,
             active_color="blue")
    _, text = run(g, "2\nq\n")
    assert ("A Wild Draw Two may be played only by a player holding no card of the colour on "
            "the pile (blue); cards of other colours matching its number or symbol, and Wilds, "
            "do not count. Challenge it if you think Bot 1 held a blue card: if so they draw, "
            "if not you draw more.  [FL.LIGHT.W2.LEGAL]\n") in text


def test_a_table_whose_wild_must_change_the_colour_is_told_so() -> None:
    """`wild.must_change_color` (CL.WILD.MUST-CHANGE): the form of a Wild lists the colours it
    may name (the engine's `Game.wild_colors`, not the side's four), and naming the colour in
    force is refused in words with its rule."""
    from uno_fsm.params import Params

    table = Params.of("classic-official").override({"wild": {"must_change_color": True}})
    g = game({0: ["R9", "B2", "W4"], 1: ["G1", "G2"]}, ["R3"], [f"Y{i}" for i in range(9)],
             ruleset=table)
    _, text = run(g, "W4 red blue\nW4 red\nq\n")
    assert lines_with(text, "? ") == ["? name one colour, not 2: type W4 and a colour (yellow, "
                                      "green or blue), and uno to call UNO with it"]
    assert ("  Refused: red is the colour in force: this table's Wild must change it  "
            "[CL.WILD.MUST-CHANGE]\n") in text
    assert g.state.hands[0] == [parse(c) for c in ("R9", "B2", "W4")]
