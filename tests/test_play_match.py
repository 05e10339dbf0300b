"""`uno-fsm play --match NAME`: a person in a partner match, from scripted standard input.

The person always answers `1` (the first move offered, then the first colour, then "call
UNO"): the match played so must be the one `match.play_match` plays with that player's
decisions made by the same policy (`typing_one`, the terminal's own first entry) and the
bots at every other seat, hand for hand, tally for tally, winners included. Then the
tournament's other table, quitting, end of input, Ctrl-C, and every hostile option with its
exact outcome.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
import subprocess
import sys

import pytest

from uno_cli.main import build_parser, main
from uno_fsm import match as M
from uno_fsm.actions import Action
from uno_fsm.bots import basic_bot
from uno_fsm.cli import cmd_play
from uno_fsm.game import Game
from uno_fsm.terminal import Table
from uno_spec import matches
from uno_spec.matches import load_match

ROTATION = load_match("partners-rotation")
TOURNAMENT = load_match("partners-tournament")
ONES = "1\n" * 20_000  # far more answers than a match asks for
KNOWN = "(known: partners-rotation, partners-tournament)"


def play(capsys: pytest.CaptureFixture[str], argv: list[str], lines: str = ONES,
         max_bot_moves: int = 100_000) -> tuple[int, str, str]:
    """`uno-fsm play ARGV` with `lines` typed: (exit status, stdout, stderr)."""
    args = build_parser(["play"]).parse_args(["play", *argv])
    out = io.StringIO()
    code = cmd_play(args, io.StringIO(lines), out, max_bot_moves)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, out.getvalue(), err


def typing_one(game: Game, actions: list[Action]) -> Action:
    """What typing `1` at every question of the terminal plays: the first entry of the
    terminal's list of moves, then the first colour, then calling UNO."""
    seat = actions[0].player
    assert seat is not None and all(a.player == seat for a in actions)
    t = Table(game, seat, basic_bot, random.Random(0), io.StringIO("1\n1\n"), io.StringIO())
    got = t.settle(t.choices()[0])
    assert isinstance(got, Action) and got in actions
    return got


def driver(fmt: M.MatchFormat, seed: int, player: int, bots: str) -> M.MatchResult:
    """The match without a terminal: `player`'s decisions by typing_one, the bots elsewhere."""
    def hand(table: M.Table, hand_seed: int) -> tuple[int, int, int]:
        return M.play_hand(fmt.ruleset, table, hand_seed, bots, M.MAX_ACTIONS,
                           {player: typing_one})

    return M.play_match(fmt, seed, bots, play=hand)


def final_lines(result: M.MatchResult, player: int) -> list[str]:
    you = (f"You (P{player}) win the match"
           f"{' (a shared win)' if len(result.winners) > 1 else ''}."
           if player in result.winners else
           f"You (P{player}) finish with {result.totals[player]} points.")
    return ["", "The match is over.", *M.tally_lines(result), M.winner_line(result), you]


# ---- a whole match through standard input ------------------------------------------------------
@pytest.mark.parametrize(("seed", "player", "bots", "move"), [
    (5, 0, "basic", "  You play "),
    (0, 3, "random", "  You catch "),  # a window out of turn: asked before any bot moves
])
def test_a_whole_rotation_is_the_drivers_match(capsys: pytest.CaptureFixture[str], seed: int,
                                               player: int, bots: str, move: str) -> None:
    code, out, err = play(capsys, ["--match", "partners-rotation", "--seed", str(seed),
                                   "--player", str(player), "--bots", bots, "--rounds", "1"])
    assert (code, err) == (0, "")
    expected = driver(ROTATION, seed, player, bots)
    lines = out.splitlines()
    # each hand's result line is the driver's (who went out, points, seed, actions taken)
    assert [line for line in lines if re.match(r"  hand \d table \d: P\d out, ", line)] == \
        [M.result_line(r, 3) for r in expected.hands]
    # the tally after hands 1 and 2, then the final tally and the winners, are the driver's
    for k in (1, 2):
        so_far = M.so_far(ROTATION, seed, bots, expected.schedule, expected.hands[:k])
        at = lines.index(f"Hand {k} of 3 is over.")
        assert lines[at + 2:at + 9] == [*M.tally_lines(so_far),
                                        f"  you (P{player}): {so_far.totals[player]} points"]
    assert lines[-len(final_lines(expected, player)):] == final_lines(expected, player)
    # the person really played: their moves are in the game, and they matter
    assert move in out
    assert expected.hands != M.play_match(ROTATION, seed, bots).hands


def test_the_header_schedule_and_each_hands_partnerships(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = play(capsys, ["--match", "partners-rotation", "--seed", "4", "--player", "1"])
    assert code == 0
    lines = out.splitlines()
    assert lines[:2] == [
        "UNO match partners-rotation: Partners rotation (four players)",
        "ruleset classic-official+partners, 4 players at 1 table(s) of 4, 1 round(s), 3 hands "
        "per table, seed 4, basic bots. You are P1; the other players are bots."]
    assert lines[4:8] == M.schedule_lines(M.schedule(ROTATION))
    # before each hand: the person's partner (opposite), the opponents, the seats
    for hand in M.schedule(ROTATION):
        seats = hand.tables[0].seats
        me = seats.index(1)
        partner, left, right = (seats[(me + k) % 4] for k in (2, 1, 3))
        at = lines.index(f"Hand {hand.number} of 3 (round 1): your partner is P{partner}, "
                         f"sitting opposite you; against you P{min(left, right)} and "
                         f"P{max(left, right)}.")
        names = [("you (P1)" if p == 1 else f"P{p}") for p in seats]
        assert lines[at + 1] == "  seats: " + ", ".join(f"{s} {n}" for s, n in enumerate(names))
    # the table line names the hand, the bots by their match player
    assert re.search(r"\nHand 2 \| top: \S+  colour: ", out) and "\nRound " not in out
    assert "Bot " not in out


def test_the_same_seed_plays_the_same_match(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--match", "partners-rotation", "--seed", "8"]
    first = play(capsys, argv)
    assert first[0] == 0 and play(capsys, argv) == first
    assert play(capsys, ["--match", "partners-rotation", "--seed", "9"])[1] != first[1]


def test_without_a_seed_the_match_prints_the_one_that_plays_it_again(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = play(capsys, ["--match", "partners-rotation"])
    found = re.search(r", seed (\d+), basic bots\. You are P0;", out)  # --player 0 by default
    assert code == 0 and found
    assert play(capsys, ["--match", "partners-rotation", "--seed", found[1]])[1] == out


def test_rounds_play_the_rotation_again(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = play(capsys, ["--match", "partners-rotation", "--rounds", "2", "--seed", "1"])
    assert code == 0
    assert "  hand 6 (round 2)  table 1: P0+P1 vs P2+P3" in out.splitlines()
    assert "Hand 6 of 6 is over." in out
    assert out.splitlines()[-len(final_lines(driver(dataclasses.replace(ROTATION, rounds=2),
                                                    1, 0, "basic"), 0)):] == \
        final_lines(driver(dataclasses.replace(ROTATION, rounds=2), 1, 0, "basic"), 0)


# ---- the tournament: the other table is played by the bots -------------------------------------
def test_the_tournaments_other_table_is_played_by_bots_and_reported(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament of one hand with each partner (7 hands, 14 deals), for time: the person
    plays the 7 hands of their table; the 7 of the other table are the bots', each reported
    beside theirs, and the winners are the driver's over both tables."""
    short = dataclasses.replace(TOURNAMENT, hands_per_partner=1)
    monkeypatch.setattr(matches, "load_match", lambda name: short)
    code, out, err = play(capsys, ["--match", "partners-tournament", "--seed", "3",
                                   "--player", "6"])
    assert (code, err) == (0, "")
    expected = driver(short, 3, 6, "basic")
    assert len(expected.hands) == 14
    lines = out.splitlines()
    for hand in expected.schedule:
        mine = next(t for t in hand.tables if 6 in t.seats)
        other = next(t for t in hand.tables if 6 not in t.seats)
        at = next(i for i, line in enumerate(lines)
                  if line.startswith(f"Hand {hand.number} of 7 (round 1), table "
                                     f"{hand.tables.index(mine) + 1}: your partner is "))
        assert lines[at + 2] == (f"  table {hand.tables.index(other) + 1} (bots): "
                                 f"P{other.teams[0][0]}+P{other.teams[0][1]} vs "
                                 f"P{other.teams[1][0]}+P{other.teams[1][1]}")
        over = lines.index(f"Hand {hand.number} of 7 is over.")
        assert lines[over + 1:over + 3] == [M.result_line(r, 7) for r in expected.hands
                                            if r.number == hand.number]
    assert lines[-len(final_lines(expected, 6)):] == final_lines(expected, 6)
    # the bots' table is never shown move by move: in each hand only the person's table moves
    for hand in expected.schedule:
        other = next(t for t in hand.tables if 6 not in t.seats)
        section = out.split(f"\nHand {hand.number} of 7 (round 1)")[1].split(
            f"\nHand {hand.number} of 7 is over.")[0]
        movers = {int(n) for n in re.findall(r"\bP(\d) (?:plays|draws|deals)", section)}
        assert movers and not movers & set(other.seats)


def test_a_bots_hand_that_does_not_end_stops_the_match(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The bots' table of hand 1 is played first when the person sits at table 2; its hand
    is bounded like the bots' moves at the person's table: exit 1, one line."""
    first = M.schedule(TOURNAMENT)[0]
    player = first.tables[1].seats[0]
    code, out, err = play(capsys, ["--match", "partners-tournament", "--seed", "0", "--player",
                                   str(player)], max_bot_moves=5)
    assert code == 1
    assert err == ("uno-fsm play: --match partners-tournament: hand 1 at table 1: the hand of "
                   "seed 0 did not end within 5 actions\n")
    assert "Hand 1 of 28" not in out  # stopped before the person's table was dealt


def test_bots_that_never_hand_over_at_the_persons_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play(capsys, ["--match", "partners-rotation", "--seed", "0"],
                          max_bot_moves=1)
    assert (code, err) == (1, "")
    assert out.endswith("\nThe bots made 1 moves without you; the match is stopped.\n")


# ---- leaving: q, end of input, Ctrl-C ----------------------------------------------------------
def prompts_in_hand_one(capsys: pytest.CaptureFixture[str], argv: list[str]) -> int:
    out = play(capsys, argv)[1]
    return out.split("Hand 1 of 3 is over.")[0].count("> ")


def test_q_at_the_first_prompt_ends_the_match_with_status_0(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play(capsys, ["--match", "partners-rotation", "--seed", "4"], "q\n")
    assert (code, err) == (0, "")
    assert out.endswith("> \nbye\nThe match is abandoned after 0 of 3 hands.\n")


def test_q_in_the_second_hand_keeps_the_first_hands_result(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--match", "partners-rotation", "--seed", "4"]
    n = prompts_in_hand_one(capsys, argv)
    code, out, err = play(capsys, argv, "1\n" * n + "q\n")
    assert (code, err) == (0, "")
    expected = driver(ROTATION, 4, 0, "basic")
    assert M.result_line(expected.hands[0], 3) in out.splitlines()
    assert "Hand 2 of 3 (round 1): your partner is" in out
    assert out.endswith("> \nbye\nThe match is abandoned after 1 of 3 hands.\n")
    assert "The match is over." not in out


@pytest.mark.parametrize("extra", [0, 1])
def test_end_of_input_mid_hand_is_status_2_and_one_line(capsys: pytest.CaptureFixture[str],
                                                        extra: int) -> None:
    """In hand 1 after three answers, and in hand 2 at its first prompt."""
    argv = ["--match", "partners-rotation", "--seed", "4"]
    typed = 3 if not extra else prompts_in_hand_one(capsys, argv)
    code, out, err = play(capsys, argv, "1\n" * typed)
    assert (code, err) == (2, "uno-fsm play: end of input before the match ended (type q to "
                           "quit)\n")
    assert out.endswith("> ") and out.count("> ") == typed + 1
    assert ("Hand 1 of 3 is over." in out) == bool(extra)


def test_ctrl_c_is_status_130_and_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    class Interrupted(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise KeyboardInterrupt

    args = build_parser(["play"]).parse_args(["play", "--match", "partners-rotation"])
    assert cmd_play(args, Interrupted(), io.StringIO()) == 130
    assert capsys.readouterr().err == "uno-fsm play: interrupted, match abandoned\n"


def test_bad_input_is_asked_again(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = play(capsys, ["--match", "partners-rotation", "--seed", "4"],
                        "xyzzy\n99\nq\n")
    assert code == 0
    assert "  ? 'xyzzy' is not a move here: type a number from the list" in out
    assert "  ? '99' is not a move here: " in out
    assert out.endswith("\nbye\nThe match is abandoned after 0 of 3 hands.\n")


# ---- hostile options: one line on stderr, exit 2, nothing played -------------------------------
@pytest.mark.parametrize(("argv", "line"), [
    (["--match", "nope"], f"spec/matches: unknown match 'nope' {KNOWN}"),
    (["--match", "partners-rotatio"], "spec/matches: unknown match 'partners-rotatio'; did "
     f"you mean partners-rotation, partners-tournament? {KNOWN}"),
    (["--match", "../rulesets/partners"], "spec/matches: unknown match "
     f"'../rulesets/partners' {KNOWN}"),
    (["--match"], "argument --match: expected one argument (see `uno-fsm play --help`)"),
    (["--match", "partners-rotation", "--player", "4"], "--player 4 does not exist in "
     "partners-rotation (players 0 to 3)"),
    (["--match", "partners-tournament", "--player", "8"], "--player 8 does not exist in "
     "partners-tournament (players 0 to 7)"),
    (["--match", "partners-rotation", "--player", str(10 ** 30)], f"--player {10 ** 30} does "
     "not exist in partners-rotation (players 0 to 3)"),
    (["--match", "partners-rotation", "--player", "-1"], "argument --player: -1 is not at "
     "least 0 (see `uno-fsm play --help`)"),
    (["--match", "partners-rotation", "--player", "1.5"], "argument --player: not a whole "
     "number: '1.5' (see `uno-fsm play --help`)"),
    (["--match", "partners-rotation", "--ruleset", "flip"], "--ruleset does not go with "
     "--match (the match format names its ruleset and players)"),
    (["--players", "4", "--match", "partners-rotation"], "--players does not go with --match "
     "(the match format names its ruleset and players)"),
    (["--match", "partners-rotation", "--seat", "1"], "--seat does not go with --match (the "
     "schedule seats you; --player chooses which player you are)"),
    (["--match", "nope", "--seat", "1"], "--seat does not go with --match (the schedule seats "
     "you; --player chooses which player you are)"),
    (["--player", "1"], "--player goes with --match NAME"),
    (["--rounds", "2", "--players", "3"], "--rounds goes with --match NAME"),
    (["--match", "partners-rotation", "--rounds", "0"], "argument --rounds: 0 is not from 1 "
     "to 100 (see `uno-fsm play --help`)"),
    (["--match", "partners-rotation", "--rounds", "101"], "argument --rounds: 101 is not from "
     "1 to 100 (see `uno-fsm play --help`)"),
    (["--match", "partners-rotation", "--bots", "clever"], "argument --bots: invalid choice: "
     "'clever' (choose from 'basic', 'random') (see `uno-fsm play --help`)"),
    (["--match", "partners-rotation", "--seed", "x"], "argument --seed: invalid int value: "
     "'x' (see `uno-fsm play --help`)"),
])
def test_hostile_options_are_one_line(argv: list[str], line: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *argv]) == 2
    out = capsys.readouterr()
    assert (out.out, out.err) == ("", f"uno-fsm play: {line}\n")


def test_a_match_whose_ruleset_is_no_partners_ruleset(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    broken = dataclasses.replace(ROTATION, ruleset="classic-official")
    monkeypatch.setattr(matches, "load_match", lambda name: broken)
    code, out, err = play(capsys, ["--match", "partners-rotation"])
    assert (code, out) == (2, "")
    assert err == ("uno-fsm play: --match partners-rotation: match partners-rotation: ruleset "
                   "classic-official is not a partners ruleset\n")


def test_standard_input_not_a_terminal_is_refused() -> None:
    """As `play`: interactive only (a subprocess: its standard input is /dev/null)."""
    done = subprocess.run([sys.executable, "-m", "uno_cli", "play", "--match",
                           "partners-rotation"], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("uno-fsm play: standard input is not a terminal; play is "
                           "interactive (`uno-fsm simulate` plays unattended games)\n")


def test_play_help_describes_matches(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "2000")
    assert main(["play", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--match NAME play the match format NAME: partners-rotation, partners-tournament" \
        in text
    assert "--player PLAYER the player of the match you are, 0 to players-1 (default: 0)" in text
    assert "--rounds ROUNDS rounds of the rotation to play instead of the format's" in text
    assert "so --ruleset, --players and --seat do not apply" in text


# ---- what the terminal shows differently in a match --------------------------------------------
def test_scores_in_a_hand_show_the_match_tally(capsys: pytest.CaptureFixture[str]) -> None:
    """`scores` during hand 2: the tally after hand 1, not the game's race to 500."""
    argv = ["--match", "partners-rotation", "--seed", "4"]
    n = prompts_in_hand_one(capsys, argv)
    code, out, _ = play(capsys, argv, "1\n" * n + "scores\nq\n")
    assert code == 0
    after_one = M.so_far(ROTATION, 4, "basic", M.schedule(ROTATION),
                         driver(ROTATION, 4, 0, "basic").hands[:1])
    typed = out.rsplit("> ", 2)[1].splitlines()  # what `scores` printed, up to the next prompt
    assert typed[:len(M.tally_lines(after_one))] == M.tally_lines(after_one)
    assert "first to 500" not in out


def test_a_hand_that_reaches_the_games_target_is_only_a_hand() -> None:
    """PARTNERS.ROTATION.HAND: the ruleset's 500 plays no part in a match, so a hand that ends
    the game (a team past 500) is told as a player going out, never as winning the game."""
    from engine_helpers import game

    from uno_fsm.terminal import run

    def position() -> Game:
        return game({0: ["R5"], 1: ["G1", "G2"], 2: ["B1"], 3: ["Y1", "Y2"]}, ["R1"],
                    ["Y3", "Y4", "Y5", "Y6"], ruleset="classic-official+partners",
                    scores={0: 495, 1: 0, 2: 495, 3: 0})

    told = []
    for match_lines in (None, lambda: ["tally"]):
        g = position()
        out = io.StringIO()
        t = Table(g, 0, basic_bot, random.Random(0), io.StringIO("R5\n"), out,
                  match_lines=match_lines)
        assert run(t, 10, "match" if match_lines else "game") is None and g.is_over
        told.append(out.getvalue())
    assert "  You go out and score 6 points  [PARTNERS.SCORE]\n" in told[0]
    assert "You win the game" in told[0]
    assert "  You go out and score 6 points  [PARTNERS.SCORE]\n" in told[1]
    assert "win the game" not in told[1]
