"""`uno-fsm play` driven through a pseudo-terminal (pexpect), as a person plays it: a whole
game against bots, Ctrl-C, Ctrl-D, garbage, the help, the names, `why`, colours and NO_COLOR.

Seed 4 with two players deals the human R1 RS Y6 G1 B6 B7 W4 under a B6 (classic-official);
the game against the basic bots, always taking the first move offered, ends in round 8.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

import pytest
from ci_helpers import unavailable

try:
    import pexpect
except ImportError:  # pexpect is in the `test` extra
    unavailable("pexpect is not installed", "pip install -e '.[test]'", module=True)

PROMPT = "> "
GAME = ["-m", "uno_cli", "play", "--players", "2", "--seed", "4", "--bots", "basic"]


SPAWNED: list[object] = []


@pytest.fixture(autouse=True)
def _reap() -> object:
    """No game is left running, whatever a test does."""
    yield
    while SPAWNED:
        SPAWNED.pop().close(force=True)  # type: ignore[attr-defined]


def spawn(*extra: str, colour: bool = False, command: list[str] | None = None) -> object:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["TERM"] = "xterm-256color"
    env["COLUMNS"] = "200"
    if not colour:
        env["NO_COLOR"] = "1"
    if command is None:
        command = [sys.executable, *GAME, *extra]
    child = pexpect.spawn(command[0], command[1:], env=env, encoding="utf-8", timeout=10,
                          dimensions=(50, 200))
    child.delaybeforesend = None  # no pause before each line typed: the game waits anyway
    SPAWNED.append(child)
    return child


def finish(child: object) -> str:
    """The rest of the output; the child has exited."""
    child.expect(pexpect.EOF)  # type: ignore[attr-defined]
    child.close()  # type: ignore[attr-defined]
    return child.before  # type: ignore[attr-defined,no-any-return]


def first_move_to_the_end(child: Any) -> str:
    """Answer `1` (the first move) at every prompt until the program exits; its whole output.
    It must exit 0, without a traceback, within 1000 prompts."""
    out = []
    prompts = 0
    while True:
        i = child.expect([PROMPT, pexpect.EOF])
        out.append(child.before)
        if i == 1:
            break
        prompts += 1
        assert prompts < 1000, "the program should end well before this"
        child.sendline("1")
    child.close()
    text = "".join(out).replace("\r\n", "\n")
    assert child.exitstatus == 0, text[-2000:]
    assert "Traceback" not in text
    return text


def test_a_whole_game_against_basic_bots_reaches_the_end() -> None:
    text = first_move_to_the_end(spawn())
    rounds = re.findall(r"Scores after round (\d+) \(first to 500 wins\):", text)
    assert rounds == [str(n) for n in range(1, len(rounds) + 1)] and len(rounds) == 7
    # every new round shows its first card before anyone moves
    for n in range(2, len(rounds) + 2):
        after = text.split(f"\nRound {n}\n", 1)[1]
        assert re.match(r"(  .*\n)*?  First card: \S+  \[CL\.DEAL\.FIRST-DISCARD\]", after)
    assert "Final scores (first to 500 wins):" in text
    assert re.search(r"Game over: (You win|Bot 1 wins)\.\n", text)
    # seats are You and Bot 1, never written like a card (P1 is a pink 1 in UNO Flip)
    assert not re.search(r"\bP\d", text)


def test_ctrl_c_leaves_with_one_line() -> None:
    child = spawn()
    child.expect(PROMPT)
    child.sendintr()
    rest = finish(child)
    assert child.exitstatus == 130
    # the terminal echoes ^C; then one line, no traceback
    assert rest.strip().splitlines() == ["^C", "uno-fsm play: interrupted, game abandoned"]


def test_ctrl_d_is_end_of_input() -> None:
    child = spawn()
    child.expect(PROMPT)
    child.sendeof()
    rest = finish(child)
    assert child.exitstatus == 2
    assert rest.strip().splitlines() == [
        "uno-fsm play: end of input before the game ended (type q to quit)"]


def test_garbage_is_answered_with_a_hint_and_the_question_again() -> None:
    child = spawn()
    child.expect(PROMPT)
    hint = "type a number from the list, a card code (R5, W4 green, R7 uno), `draw`, or `help`"
    for junk, why in [("xyzzy", f"'xyzzy' is not a move here: {hint}"),
                      ("99", "99 is not in the list: type a number from 1 to 5"),
                      ("Z9", f"'Z9' is not a move here: {hint}"),
                      ("B6 sideways", "'sideways' is neither a colour nor `uno`: type B6, or B6 "
                                      "uno to call UNO with it")]:
        child.sendline(junk)
        child.expect_exact(f"? {why}")
        child.expect_exact("5. draw a card")
        child.expect(PROMPT)
    child.sendline("R5")  # a card, but not one held: the engine refuses it, naming the rule
    child.expect_exact("Refused: You hold no R5  [CL.PLAY.TURN-OPTIONS]")
    child.expect(PROMPT)
    child.sendline("q")
    assert finish(child).replace("\r\n", "\n") == "q\n\nbye\n"
    assert child.exitstatus == 0


def test_a_wild_is_chosen_in_two_steps() -> None:
    child = spawn()
    child.expect_exact("4. play W4 (then choose a colour)")
    child.expect(PROMPT)
    child.sendline("4")
    child.expect_exact("Which colour?")
    for i, name in enumerate(("red", "yellow", "green", "blue"), 1):
        child.expect_exact(f"{i}. {name}")
    child.expect(PROMPT)
    child.sendline("purple")  # not a colour of this game: asked again
    child.expect_exact("'purple' is not one of these: type its number")
    child.sendline("green")
    child.expect_exact("You play W4 and name green  [CL.PLAY.MATCH]")
    child.sendline("q")
    finish(child)


def test_help_legend_names_and_why() -> None:
    child = spawn()
    child.expect(PROMPT)
    child.sendline("help")
    child.expect_exact("why             the rule behind the last thing that happened")
    child.expect_exact("Card codes: a colour letter then a rank: R5 is a red 5, GS a green Skip.")
    child.expect_exact("W4 Wild Draw Four")
    child.expect(PROMPT)
    child.sendline("names")
    child.expect_exact("full card names on")
    child.expect_exact("your hand: red 1 red Skip yellow 6 green 1 blue 6 blue 7 Wild Draw Four")
    child.expect_exact("4. play Wild Draw Four (then choose a colour)")
    child.expect(PROMPT)
    child.sendline("why")  # the last event: the first card turned
    child.expect_exact("First card: B6")
    child.expect_exact("CL.DEAL.FIRST-DISCARD: ")
    child.expect(r"> \S")  # a clause quoted from the rulebook...
    child.expect_exact("en: ")  # ...and its English
    child.sendline("q")
    finish(child)
    assert child.exitstatus == 0


def test_cards_are_coloured_on_a_terminal_unless_no_color() -> None:
    sgr = re.compile(r"\x1b\[([0-9;]*)m")

    def colours(text: str) -> set[int]:
        codes = {int(c) for m in sgr.finditer(text) for c in m[1].split(";") if c}
        return {c for c in codes if 30 <= c <= 38 or 90 <= c <= 97}

    child = spawn(colour=True)
    child.expect(PROMPT)
    assert {31, 33, 32, 34} <= colours(child.before)  # red, yellow, green and blue cards
    child.sendline("q")
    finish(child)
    child = spawn()  # NO_COLOR
    child.expect(PROMPT)
    assert "your hand: R1 RS Y6 G1 B6 B7 W4" in child.before and not colours(child.before)
    child.sendline("q")
    finish(child)
    # not a terminal (the output piped): plain text
    child = spawn(colour=True, command=["sh", "-c", " ".join(
        [sys.executable, *GAME, "| cat"])])
    child.expect(PROMPT)
    assert "your hand: R1 RS Y6 G1 B6 B7 W4" in child.before and not sgr.search(child.before)
    child.sendline("q")
    finish(child)


def test_a_whole_match_in_a_terminal() -> None:
    """`play --match`: every hand of the rotation at a real terminal, always the first move,
    to the winners; the same seed and moves as tests/test_play_match.py checks in process."""
    text = first_move_to_the_end(spawn(command=[sys.executable, "-m", "uno_cli", "play",
                                                "--match", "partners-rotation", "--seed", "5"]))
    assert [int(n) for n in re.findall(r"\nHand (\d) of 3 is over\.\n", text)] == [1, 2, 3]
    assert "\nThe match is over.\n" in text
    assert re.search(r"\nwinner: P\d(, P\d)* with \d+ points( \(a shared win\))?\n"
                     r"You \(P0\) (win the match( \(a shared win\))?|finish with \d+ points)"
                     r"\.\n$", text)
