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
    assert "  Bot 1 played W4 on you. Challenge it if you think" in text
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
    assert "  Refused: G7 does not match R1 / R  [CL.PLAY.MATCH]\n" in text
    assert ("  Refused: G7 does not match R1 / R\n  CL.PLAY.MATCH: A coloured card may be "
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
