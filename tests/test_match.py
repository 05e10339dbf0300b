"""Partner matches (uno_fsm/match.py, spec/matches/): the schedules, the tally, the winners,
the match formats' loading and lint, one test or more per rule of
spec/rules/classic-partners-match.yaml."""

from __future__ import annotations

import dataclasses
import itertools
import random
import shutil
from collections import Counter
from pathlib import Path
from typing import TypeVar

import pytest

from uno_fsm import match as M
from uno_fsm.actions import Action
from uno_fsm.bots import BOTS, decides
from uno_fsm.game import Game
from uno_spec.loader import SpecError
from uno_spec.matches import MatchFormat, clear_caches, list_matches, load_match
from uno_spec.paths import spec_root

T = TypeVar("T")
ROTATION = load_match("partners-rotation")
TOURNAMENT = load_match("partners-tournament")


def partner_counts(plan: list[M.ScheduledHand]) -> Counter[frozenset[int]]:
    return Counter(frozenset(team) for h in plan for t in h.tables for team in t.teams)


def batched(items: list[T], size: int) -> list[list[T]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def every_pair(n: int) -> set[frozenset[int]]:
    return {frozenset(p) for p in itertools.combinations(range(n), 2)}


# ---- the round-robin ------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 4, 6, 8, 10, 16])
def test_round_robin_meets_every_pair_once(n: int) -> None:
    pairings = M.round_robin(n)
    assert len(pairings) == n - 1
    for pairing in pairings:  # each pairing seats everybody once
        assert sorted(p for pair in pairing for p in pair) == list(range(n))
    met = Counter(frozenset(pair) for pairing in pairings for pair in pairing)
    assert set(met) == every_pair(n) and set(met.values()) == {1}


@pytest.mark.parametrize("n", [0, 1, 3, 7])
def test_round_robin_refuses_an_odd_count(n: int) -> None:
    with pytest.raises(ValueError, match="even number of players"):
        M.round_robin(n)


# ---- PARTNERS.ROTATION.* --------------------------------------------------------------------
def test_rotation_format_is_four_players_at_one_table() -> None:
    """PARTNERS.ROTATION.PLAYERS: four players, one table, two partnerships of two."""
    assert (ROTATION.players, ROTATION.tables, ROTATION.ruleset) == \
        (4, 1, "classic-official+partners")
    for hand in M.schedule(ROTATION):
        assert len(hand.tables) == 1
        assert sorted(hand.tables[0].seats) == [0, 1, 2, 3]


def test_rotation_round_is_three_hands_one_with_each_partner() -> None:
    """PARTNERS.ROTATION.SCHEDULE (RUL.PARTNERS.ROTATION-HANDS): three hands; every player
    partners each of the three others exactly once, so never the same partner twice running."""
    plan = M.schedule(ROTATION)
    assert [h.number for h in plan] == [1, 2, 3] and ROTATION.hands == 3
    assert partner_counts(plan) == Counter(dict.fromkeys(every_pair(4), 1))
    for a, b in itertools.pairwise(plan):
        assert not set(a.tables[0].teams) & set(b.tables[0].teams)


@pytest.mark.parametrize("rounds", [2, 5])
def test_rotation_rounds_repeat_the_rotation(rounds: int) -> None:
    """PARTNERS.ROTATION.ROUNDS: after R rounds each pair has partnered R times."""
    fmt = dataclasses.replace(ROTATION, rounds=rounds)
    plan = M.schedule(fmt)
    assert len(plan) == 3 * rounds == fmt.hands
    assert [h.round for h in plan] == [r for r in range(1, rounds + 1) for _ in range(3)]
    assert partner_counts(plan) == Counter(dict.fromkeys(every_pair(4), rounds))


def test_partners_sit_opposite_in_every_hand() -> None:
    """PARTNERS.ROTATION.PLAYERS, PARTNERS.TOURNAMENT.TABLES: a table's teams are its seats
    0+2 and 1+3 (PARTNERS.SEATING), which the engine's partners ruleset scores together (the
    next test)."""
    table = M.Table((5, 1, 7, 3))
    assert table.teams == ((5, 7), (1, 3))


def test_a_hand_is_one_deal_replayable_from_its_seed() -> None:
    """PARTNERS.ROTATION.HAND (RUL.PARTNERS.MATCH-HAND): one deal, over when a partner goes
    out; the going-out team's points are both partners' score in that game. The printed seed
    deals and plays the same hand again."""
    table = M.Table((0, 1, 2, 3))
    seat, points, actions = M.play_hand("classic-official+partners", table, 11)
    game = Game.new("classic-official+partners", 4, 11)
    rng = random.Random("bots 11")
    for _ in range(actions - 1):
        game.apply(BOTS["random"](game, game.legal_actions(), rng))
        assert not game.round_over
    game.apply(BOTS["random"](game, game.legal_actions(), rng))
    assert game.round_over and game.winner == seat
    assert not game.state.hands[seat]
    assert game.scores[seat] == game.scores[(seat + 2) % 4] == points > 0
    assert game.scores[(seat + 1) % 4] == game.scores[(seat + 3) % 4] == 0


def test_a_players_chooser_answers_their_decisions_and_only_theirs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """play_hand's choosers (what `uno-fsm play --match` relies on): a chooser is asked only
    when its player decides (their turn, a UNO call or catch of their own), with that
    player's legal actions; the bots move for the others and never for a chooser's player.
    With a chooser at every seat no bot moves at all."""
    table = M.Table((3, 0, 1, 2))
    asked: list[int] = []
    rng = random.Random(0)

    def chooser(game: Game, actions: list[Action]) -> Action:
        seat = actions[0].player
        assert seat is not None and decides(game, seat)
        assert actions == game.legal_actions(seat)
        asked.append(table.seats[seat])
        return rng.choice(actions)

    def bot(game: Game, actions: list[Action], rng: random.Random) -> Action:
        assert actions and all(table.seats[a.player or 0] != 1 for a in actions)
        return BOTS["random"](game, actions, rng)

    monkeypatch.setitem(BOTS, "test", bot)
    seat, points, actions = M.play_hand("classic-official+partners", table, 4, "test",
                                        choosers={1: chooser})
    assert asked and set(asked) == {1} and len(asked) < actions

    def never(game: Game, actions: list[Action], rng: random.Random) -> Action:
        raise AssertionError("a bot moved")

    monkeypatch.setitem(BOTS, "never", never)
    asked.clear()
    seat, points, actions = M.play_hand("classic-official+partners", table, 4, "never",
                                        choosers=dict.fromkeys(range(4), chooser))
    assert len(asked) == actions and set(asked) == {0, 1, 2, 3}


def test_a_hand_that_does_not_end_stops_the_match() -> None:
    with pytest.raises(M.HandUnfinished,
                       match=r"^hand 1 at table 1: the hand of seed 0 did not end within 3 "):
        M.play_match(ROTATION, seed=0, max_actions=3)


def scripted(monkeypatch: pytest.MonkeyPatch, outcomes: list[tuple[int, int]]) -> list[str]:
    """Replace the engine by a script: the k-th hand ends with seat outcomes[k][0] out for
    outcomes[k][1] points. Returns the log of the seatings played."""
    script = iter(outcomes)
    log: list[str] = []

    def hand(ruleset: str, table: M.Table, seed: int, bot: str = "random",
             max_actions: int = M.MAX_ACTIONS) -> tuple[int, int, int]:
        log.append(f"{table.seats} seed {seed}")
        seat, points = next(script)
        return seat, points, 1

    monkeypatch.setattr(M, "play_hand", hand)
    return log


def test_tally_keeps_each_partnership_and_the_greatest_total_wins(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """PARTNERS.ROTATION.TALLY, PARTNERS.ROTATION.WINNER: the team's points go to both
    partners, under each other; the total is the sum; the greatest wins."""
    # the rotation seats (0, 1, 3, 2), (0, 1, 2, 3), (0, 2, 1, 3): teams 0+3 v 1+2, 0+2 v 1+3,
    # 0+1 v 2+3; seat 0 (P0) goes out for 50, seat 1 (P1) for 30, seat 2 (P1) for 20
    log = scripted(monkeypatch, [(0, 50), (1, 30), (2, 20)])
    result = M.play_match(ROTATION, seed=2)
    assert log == ["(0, 1, 3, 2) seed 2000006", "(0, 1, 2, 3) seed 2000007",
                   "(0, 2, 1, 3) seed 2000008"]
    assert [(h.went_out, h.team, h.points) for h in result.hands] == \
        [(0, (0, 3), 50), (1, (1, 3), 30), (1, (1, 0), 20)]
    assert result.by_partner == [[0, 20, 0, 50], [20, 0, 0, 30], [0, 0, 0, 0], [50, 30, 0, 0]]
    assert result.totals == [70, 50, 0, 80]
    assert result.winners == [3]


def test_players_tied_on_the_greatest_total_share_the_win(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """PARTNERS.ROTATION.WINNER (RUL.PARTNERS.MATCH-TALLY: shared-win)."""
    scripted(monkeypatch, [(0, 50), (1, 20), (2, 20)])
    result = M.play_match(ROTATION)
    assert result.totals == [70, 40, 0, 70]
    assert result.winners == [0, 3]
    assert M.report_lines(result)[-1] == "winner: P0, P3 with 70 points (a shared win)"


def test_tally_of_given_hands_credits_both_partners() -> None:
    """PARTNERS.ROTATION.TALLY: the tally alone (what the conformance adapter's `match`
    answers): a hand's points go to the going-out player and the player opposite."""
    result = M.tally(4, [M.Hand((0, 1, 2, 3), 1, 40), M.Hand((0, 2, 1, 3), 2, 10)])
    assert result.by_partner == [[0, 0, 0, 0], [0, 0, 0, 40], [0, 0, 0, 10], [0, 40, 10, 0]]
    assert result.totals == [0, 40, 10, 50]
    assert result.winners == [3]
    assert M.tally(4, []).winners == [0, 1, 2, 3]  # no hand yet: everybody on 0


@pytest.mark.parametrize(("hand", "message"), [
    (M.Hand((0, 1, 2), 0, 5), r"^hand 1: 4 distinct players of 0\.\.3 sit at a table, not "
                               r"\[0, 1, 2\]$"),
    (M.Hand((0, 1, 2, 2), 0, 5), r"not \[0, 1, 2, 2\]$"),
    (M.Hand((0, 1, 2, 4), 0, 5), r"not \[0, 1, 2, 4\]$"),
    (M.Hand((0, 1, 2, 3), 7, 5), r"^hand 1: player 7 is not at the table \[0, 1, 2, 3\]$"),
    (M.Hand((0, 1, 2, 3), 0, -5), r"^hand 1: a team scores no negative points \(-5\)$"),
])
def test_tally_refuses_a_hand_that_cannot_be(hand: M.Hand, message: str) -> None:
    with pytest.raises(M.MatchError, match=message):
        M.tally(4, [hand])


def test_play_match_tallies_with_the_one_tally(monkeypatch: pytest.MonkeyPatch) -> None:
    """No second copy of the tally: play_match's totals are `tally`'s."""
    scripted(monkeypatch, [(0, 50), (1, 20), (2, 20)])
    seen: list[list[tuple[tuple[int, ...], int, int]]] = []

    def spy(players: int, hands: list[M.HandResult]) -> M.Tally:
        seen.append([(h.seats, h.went_out, h.points) for h in hands])
        return M.Tally([[0] * 4 for _ in range(4)], [1, 2, 3, 4], [3])

    monkeypatch.setattr(M, "tally", spy)
    result = M.play_match(ROTATION)
    assert seen == [[((0, 1, 3, 2), 0, 50), ((0, 1, 2, 3), 1, 20), ((0, 2, 1, 3), 1, 20)]]
    assert (result.totals, result.winners) == ([1, 2, 3, 4], [3])


def test_a_real_match_tallies_what_its_hands_scored() -> None:
    """PARTNERS.ROTATION.TALLY over the engine: every hand's points twice in the totals (both
    partners), the partnership table symmetric, its rows the totals."""
    result = M.play_match(ROTATION, seed=5, rounds=2)
    assert len(result.hands) == 6
    assert sum(result.totals) == 2 * sum(h.points for h in result.hands)
    for p, q in itertools.product(range(4), repeat=2):
        assert result.by_partner[p][q] == result.by_partner[q][p]
        assert result.by_partner[p][q] == sum(h.points for h in result.hands
                                             if set(h.team) == {p, q} and p != q)
    assert result.totals == [sum(row) for row in result.by_partner]
    assert result.winners == [p for p in range(4) if result.totals[p] == max(result.totals)]


def test_the_same_seed_plays_the_same_match() -> None:
    a, b = M.play_match(ROTATION, seed=9), M.play_match(ROTATION, seed=9)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict() != M.play_match(ROTATION, seed=10).to_dict()
    assert a.to_dict() != M.play_match(ROTATION, seed=9, bot="basic").to_dict()


# ---- PARTNERS.TOURNAMENT.* ------------------------------------------------------------------
def test_tournament_seats_eight_players_at_two_tables_every_hand() -> None:
    """PARTNERS.TOURNAMENT.TABLES: two tables of four, everybody at one of them in every
    hand; the players change tables, so everybody shares a table with all seven others."""
    plan = M.schedule(TOURNAMENT)
    met: dict[int, set[int]] = {p: set() for p in range(8)}
    for hand in plan:
        assert len(hand.tables) == 2
        seated = [p for t in hand.tables for p in t.seats]
        assert sorted(seated) == list(range(8))
        for table in hand.tables:
            for p in table.seats:
                met[p].update(set(table.seats) - {p})
    assert met == {p: set(range(8)) - {p} for p in range(8)}


def test_tournament_partners_every_pair_in_exactly_four_hands() -> None:
    """PARTNERS.TOURNAMENT.SCHEDULE (RUL.PARTNERS.TOURNAMENT-HANDS): 7 partners x 4 hands =
    28 hands per player and per table, 56 deals; each partnership's four hands in a row."""
    plan = M.schedule(TOURNAMENT)
    assert len(plan) == 28 == TOURNAMENT.hands
    assert sum(len(h.tables) for h in plan) == 56
    assert partner_counts(plan) == Counter(dict.fromkeys(every_pair(8), 4))
    for p in range(8):
        assert sum(p in t.seats for h in plan for t in h.tables) == 28
        partners = [next(q for team in t.teams if p in team for q in team if q != p)
                    for h in plan for t in h.tables if p in t.seats]
        assert [len(set(block)) for block in batched(partners, 4)] == [1] * 7
        assert len(set(partners)) == 7


def test_tournament_split_changes_from_hand_to_hand() -> None:
    """PARTNERS.TOURNAMENT.SCHEDULE (RUL.PARTNERS.TOURNAMENT-TABLES): within a pairing's four
    hands the partnerships are split over the tables differently each hand, so a partnership
    meets all three other partnerships of its pairing."""
    plan = M.schedule(TOURNAMENT)
    for block in batched(plan, 4):
        splits = [frozenset(frozenset(t.teams) for t in h.tables) for h in block]
        assert all(a != b for a, b in itertools.pairwise(splits))
        assert len(set(splits)) == 3
        teams = {team for t in block[0].tables for team in t.teams}
        for team in teams:
            met = {other for h in block for t in h.tables if team in t.teams
                   for other in t.teams if other != team}
            assert met == teams - {team}


def test_tournament_is_scored_as_the_rotation() -> None:
    """PARTNERS.TOURNAMENT.SCORE: the same tally and winner rule, over both tables."""
    fmt = dataclasses.replace(TOURNAMENT, hands_per_partner=1)  # 7 hands, 14 deals: quick
    result = M.play_match(fmt, seed=3)
    assert len(result.hands) == 14 and {h.table for h in result.hands} == {1, 2}
    assert sum(result.totals) == 2 * sum(h.points for h in result.hands)
    assert result.totals == [sum(row) for row in result.by_partner]
    assert result.winners == [p for p in range(8) if result.totals[p] == max(result.totals)]
    assert partner_counts(result.schedule) == Counter(dict.fromkeys(every_pair(8), 1))


def test_the_whole_tournament_plays() -> None:
    result = M.play_match(TOURNAMENT, seed=1)
    assert len(result.hands) == 56
    assert Counter(frozenset(h.team) for h in result.hands) <= \
        Counter(dict.fromkeys(every_pair(8), 4))


# ---- formats the engine refuses ---------------------------------------------------------
def test_a_format_without_a_partners_ruleset_is_refused() -> None:
    fmt = dataclasses.replace(ROTATION, ruleset="classic-official")
    with pytest.raises(M.MatchError, match="^match partners-rotation: ruleset classic-official "
                       "is not a partners ruleset$"):
        M.play_match(fmt)
    with pytest.raises(M.MatchError, match="cannot sit at 1 table"):
        M.play_match(dataclasses.replace(ROTATION, players=8))
    with pytest.raises(M.MatchError, match="at least one round and one hand"):
        M.play_match(ROTATION, rounds=0)
    with pytest.raises(M.MatchError, match="at least one round and one hand"):
        M.play_match(dataclasses.replace(TOURNAMENT, hands_per_partner=0))
    with pytest.raises(M.MatchError, match=r"^unknown bot 'clever' \(known: basic, random\)$"):
        M.play_match(ROTATION, bot="clever")
    with pytest.raises(SpecError, match="unknown variant 'nope'"):
        M.play_match(dataclasses.replace(ROTATION, ruleset="classic-official+nope"))


# ---- spec/matches/: loading and lint --------------------------------------------------------
def test_the_match_formats_on_disk() -> None:
    assert list_matches() == ["partners-rotation", "partners-tournament"]
    assert isinstance(TOURNAMENT, MatchFormat)
    assert (TOURNAMENT.players, TOURNAMENT.tables, TOURNAMENT.hands_per_partner,
            TOURNAMENT.rounds) == (8, 2, 4, 1)
    assert "PARTNERS.TOURNAMENT.SCHEDULE" in TOURNAMENT.rules
    assert "classic-br:partners-variation:5" in TOURNAMENT.cites


def test_an_unknown_match_names_the_known_ones() -> None:
    with pytest.raises(SpecError, match=r"unknown match 'partners-rotatio'; did you mean "
                       r"partners-rotation, partners-tournament\? \(known: partners-rotation, "
                       r"partners-tournament\)$"):
        load_match("partners-rotatio")


@pytest.fixture
def spec_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    tree = tmp_path / "spec"
    shutil.copytree(spec_root(), tree)
    monkeypatch.chdir(tmp_path)
    clear_caches()
    yield tree
    clear_caches()


ROTATION_FILE = "matches/partners-rotation.yaml"


@pytest.mark.parametrize(("old", "new", "where"), [
    ("tables: 1", "tables: 2", "spec/matches/partners-rotation.yaml:14: match "
     "'partners-rotation': 2 table(s) of 4 seat 8 players, not 4"),
    ("rounds: 1 ", "rounds: 0 ", "spec/matches/partners-rotation.yaml:16: schema: rounds: 0 is "
     "less than the minimum of 1"),
    ("players: 4", "players: 6", "spec/matches/partners-rotation.yaml:13: schema: players: 6 "
     "is not a multiple of 4"),
    ("id: partners-rotation", "id: rotation", "spec/matches/partners-rotation.yaml:1: match id "
     "'rotation' differs from file name 'partners-rotation'"),
    ("rounds: 1 ", "rounds: 1\nseats: 3\n#", "spec/matches/partners-rotation.yaml:1: schema: "
     "unknown field(s) ('seats' was unexpected)"),
])
def test_a_malformed_match_file_is_one_located_error(spec_copy: Path, old: str, new: str,
                                                     where: str) -> None:
    path = spec_copy / ROTATION_FILE
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(SpecError) as info:
        load_match("partners-rotation", spec_copy)
    assert str(info.value) == where


def test_spec_lint_checks_the_match_formats(spec_copy: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from uno_cli.main import main

    path = spec_copy / ROTATION_FILE
    text = path.read_text()
    text = text.replace("ruleset: classic-official+partners", "ruleset: classic-official")
    text = text.replace("PARTNERS.ROTATION.ROUNDS,", "PARTNERS.ROTATION.ROUND,")
    text = text.replace("tables: 1", "tables: 3")
    path.write_text(text)
    assert main(["spec", "lint", "--spec", str(spec_copy)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "spec/matches/partners-rotation.yaml:8: match partners-rotation references unknown "
        "rule 'PARTNERS.ROTATION.ROUND' (did you mean PARTNERS.ROTATION.ROUNDS?)",
        "spec/matches/partners-rotation.yaml:12: match partners-rotation: ruleset "
        "'classic-official' is not a partners ruleset (scoring.method: partners)",
        "spec/matches/partners-rotation.yaml:14: match 'partners-rotation': 3 table(s) of 4 "
        "seat 12 players, not 4",
    ]


def test_spec_lint_counts_the_match_formats(capsys: pytest.CaptureFixture[str]) -> None:
    from uno_cli.main import main

    assert main(["spec", "lint"]) == 0
    assert ", 2 match formats, " in capsys.readouterr().out
