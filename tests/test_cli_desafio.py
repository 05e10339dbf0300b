"""`uno-fsm play` and `uno-fsm simulate` with the Desafio variant: whole games to their end
(DESAFIO.WINNER), the eliminations told (DESAFIO.ELIMINATE), the scoreboard."""

from __future__ import annotations

import argparse
import io
import random
import re

import pytest
from engine_helpers import game

from uno_cli.main import main
from uno_fsm.bots import basic_bot
from uno_fsm.cli import cmd_play
from uno_fsm.terminal import Table


@pytest.mark.parametrize("ruleset", ["classic-official+desafio", "classic-2022+desafio"])
def test_simulate_plays_desafio_games_to_their_end(ruleset: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "3", "--ruleset", ruleset, "--players", "4",
                 "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ruleset {ruleset}, 4 players, 3 games, seed 1\n")
    assert "unfinished" not in out  # every game ended: one player left
    rounds = float(re.search(r"actions \(median [\d.]+\), ([\d.]+) rounds", out).group(1))
    assert rounds >= 3  # three eliminations of four players take three hands at least
    wins = [float(x) for x in re.findall(r"P\d (\d+\.\d)%", out)]
    assert len(wins) == 4 and sum(wins) == pytest.approx(100, abs=0.2)


@pytest.mark.parametrize("seat", [0, 2])
def test_play_a_whole_desafio_game(seat: int) -> None:
    """Always the first move offered: eliminations are told, the game reaches its end and the
    last player left wins (the human may be eliminated on the way: the bots play on)."""
    args = argparse.Namespace(ruleset="classic-official+desafio", players=3, seed=4,
                              seat=seat, bots="basic")
    out = io.StringIO()
    assert cmd_play(args, io.StringIO("1\n" * 20_000), out) == 0
    text = out.getvalue()
    assert len(re.findall(r"  (You are|Bot \d is) eliminated with \d+ points  "
                          r"\[DESAFIO\.(ELIMINATE|SIMULTANEOUS)\]\n", text)) == 2
    final = text[text.rindex("Final scores"):]
    assert final.startswith("Final scores (a player reaching 500 is eliminated; the last one "
                            "left wins):\n")
    assert final.count("  eliminated\n") == 2
    assert re.search(r"\nGame over: (You win|Bot [12] wins)\.\n$", text)
    assert "[DESAFIO.WINNER]" in text


def test_the_desafio_scoreboard_puts_the_lowest_first_and_marks_the_eliminated() -> None:
    g = game({0: ["R1"], 1: [], 2: ["B2"]}, ["R7"], ["Y1", "Y2"],
             ruleset="classic-official+desafio", scores={0: 300, 1: 512, 2: 100},
             eliminated=[1])
    out = io.StringIO()
    Table(g, 0, basic_bot, random.Random(0), io.StringIO(), out).scoreboard("Scores")
    assert out.getvalue().splitlines()[1:] == ["  Bot 2    100", "  You      300",
                                               "  Bot 1    512  eliminated"]
