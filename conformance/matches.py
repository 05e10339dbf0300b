"""Judging match scenarios (feature `partners-match`): the answer to the adapter's `match`.

A match scenario (docs/scenario-format.md "Matches") names a match format of spec/matches/ and
asks the implementation for it: `{"format", "rounds"?, "results"?}`. The answer
(docs/adapter-protocol.md "Matches") is the schedule the implementation plays for the format,
and, when `results` fixes what each hand came to, its tally:

    {"schedule": [{"round": 1, "tables": [{"seats": [0, 1, 2, 3],
                                           "teams": [[0, 2], [1, 3]]}]}, ...],
     "totals": {"0": 35, ...}, "by_partner": {"0": {"2": 35}, ...}, "winners": [0, 2]}

The rulebook leaves the order of the pairings to the table, so no schedule is expected as
such: the scenario names properties the rules state (`expect.schedule`) and each is checked
on the schedule reported. The tally's expectations are compared as observations are: the
players (and pairs) listed only, `winners` as a set. Nothing here imports the engine.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from conformance.compare import MISSING, Mismatch, same
from conformance.protocol import MAX_OBSERVATION, ProtocolError, check_json_object

TABLE_SIZE = 4  # seats at a table of a partner match (PARTNERS.SEATING: 0+2 against 1+3)
MAX_SCHEDULE = 100_000  # hands in a reported schedule, at most (the answer's size caps it too)


def check_answer(answer: Any, limit: int = MAX_OBSERVATION) -> dict[str, Any]:
    """A `match` answer of the right shape (a ProtocolError, naming the place, otherwise):
    an object of at most `limit` bytes as JSON whose `schedule` is a list of hands, each with
    an integer `round` and a list of `tables`, each with four integer `seats` and two `teams`
    of two integers. `totals`, `by_partner` and `winners` are checked when compared."""
    check_json_object(answer, "match", limit)
    schedule = answer.get("schedule")
    if not isinstance(schedule, list) or len(schedule) > MAX_SCHEDULE:
        raise ProtocolError(f"match: `schedule` must be a list of at most {MAX_SCHEDULE} "
                            "hands")
    for i, hand in enumerate(schedule):
        where = f"match: schedule[{i}]"
        if not isinstance(hand, dict) or not _int(hand.get("round")) \
                or not isinstance(hand.get("tables"), list):
            raise ProtocolError(f"{where} must be an object with an integer `round` and a "
                                "list of `tables`")
        for j, table in enumerate(hand["tables"]):
            if not isinstance(table, dict) or not _ints(table.get("seats"), TABLE_SIZE) \
                    or not isinstance(table.get("teams"), list) or len(table["teams"]) != 2 \
                    or not all(_ints(team, 2) for team in table["teams"]):
                raise ProtocolError(f"{where}.tables[{j}] must be an object with four integer "
                                    "`seats` and two `teams` of two integers")
    return answer


def _int(value: Any) -> bool:
    return type(value) is int


def _ints(value: Any, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(map(_int, value))


def judge(expect: dict[str, Any], answer: dict[str, Any]) -> list[Mismatch]:
    """Every expectation of a match scenario that the answer does not meet; empty when all
    are met. Schedule properties are checked in a fixed order, each at its first violation."""
    out: list[Mismatch] = []
    wanted = expect.get("schedule") or {}
    for prop, check in SCHEDULE_CHECKS.items():
        if prop in wanted:
            problem = check(answer["schedule"], wanted[prop], wanted)
            if problem is not None:
                out.append(Mismatch(f"schedule.{prop}", wanted[prop], problem))
    if "totals" in expect:
        got = _by_player(answer.get("totals", MISSING))
        for player, want in expect["totals"].items():
            value = got.get(player, MISSING) if isinstance(got, dict) else MISSING
            if not same(value, want):  # `true` is not 1
                out.append(Mismatch(f"totals.{player}", want, value))
    if "by_partner" in expect:
        got = _by_player(answer.get("by_partner", MISSING))
        for player, partners in expect["by_partner"].items():
            row = _by_player(got.get(player, MISSING)) if isinstance(got, dict) else MISSING
            for partner, want in partners.items():
                value = row.get(partner, MISSING) if isinstance(row, dict) else MISSING
                if not same(value, want):
                    out.append(Mismatch(f"by_partner.{player}.{partner}", want, value))
    if "winners" in expect:
        value = answer.get("winners", MISSING)
        if not isinstance(value, list) or not all(map(_int, value)) \
                or sorted(value) != sorted(expect["winners"]) or len(set(value)) != len(value):
            out.append(Mismatch("winners", expect["winners"], value))
    return out


def _by_player(value: Any) -> Any:
    """A map keyed by player (string keys), or a list indexed by player, as a dict."""
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    return value


def restrict(expect: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """What the expectations looked at, for the report: the tally's values of the players
    listed, the schedule's length and rounds (the whole schedule is in the adapter's answer,
    not repeated)."""
    out: dict[str, Any] = {}
    if "schedule" in expect:
        schedule = answer["schedule"]
        out["schedule"] = {"hands": len(schedule),
                           "rounds": sorted({h["round"] for h in schedule})}
    for key in ("totals", "by_partner"):
        if key in expect:
            got = _by_player(answer.get(key, MISSING))
            out[key] = {p: got.get(p, MISSING) for p in expect[key]} \
                if isinstance(got, dict) else got
    if "winners" in expect:
        out["winners"] = answer.get("winners", MISSING)
    return out


# --- the schedule's properties (docs/scenario-format.md "Matches") --------------------------
# Each takes (the reported schedule, the expected value, every schedule expectation) and
# returns what was observed where the property fails, or None when it holds.

Schedule = list[dict[str, Any]]


def _hands(schedule: Schedule, want: int, _expect: dict[str, Any]) -> Any:
    return None if len(schedule) == want else len(schedule)


def _tables(schedule: Schedule, want: int, _expect: dict[str, Any]) -> Any:
    for i, hand in enumerate(schedule, 1):
        if len(hand["tables"]) != want:
            return {"hand": i, "tables": len(hand["tables"])}
    return None


def _players(schedule: Schedule, want: int, _expect: dict[str, Any]) -> Any:
    """PARTNERS.ROTATION.PLAYERS, PARTNERS.TOURNAMENT.TABLES: every player 0..n-1 sits at a
    table in every hand, once."""
    for i, hand in enumerate(schedule, 1):
        seated = sorted(s for table in hand["tables"] for s in table["seats"])
        if seated != list(range(want)):
            return {"hand": i, "seated": seated}
    return None


def _opposite(schedule: Schedule, _want: bool, _expect: dict[str, Any]) -> Any:
    """PARTNERS.SEATING (classic-br:partners:2): partners sit facing each other."""
    for i, hand in enumerate(schedule, 1):
        for t, table in enumerate(hand["tables"], 1):
            s = table["seats"]
            if sorted(map(sorted, table["teams"])) != sorted([sorted((s[0], s[2])),
                                                              sorted((s[1], s[3]))]):
                return {"hand": i, "table": t, "seats": s, "teams": table["teams"]}
    return None


def _round_numbers(schedule: Schedule) -> list[int]:
    return [hand["round"] for hand in schedule]


def _rounds(schedule: Schedule, want: int, _expect: dict[str, Any]) -> Any:
    """PARTNERS.ROTATION.ROUNDS: rounds 1..R in order, each as many hands as the others."""
    numbers = _round_numbers(schedule)
    lengths = Counter(numbers)
    if numbers != sorted(numbers) or sorted(lengths) != list(range(1, want + 1)) \
            or len(set(lengths.values())) > 1:
        return {"rounds": dict(sorted(lengths.items()))}
    return None


def _partner_hands(schedule: Schedule, want: int, expect: dict[str, Any]) -> Any:
    """PARTNERS.ROTATION.SCHEDULE, PARTNERS.TOURNAMENT.SCHEDULE: in each round every pair of
    players partners (is one of a table's teams) in exactly `want` hands."""
    players = expect["players"]  # the schema requires it beside partner_hands: the pairs
    by_round: dict[int, Counter[tuple[int, int]]] = {}  # counted are C(players, 2), at most
    for i, hand in enumerate(schedule, 1):  # 2016 (64 players), whatever the answer holds
        count = by_round.setdefault(hand["round"], Counter())
        for table in hand["tables"]:
            for a, b in table["teams"]:
                if not (0 <= a < players and 0 <= b < players) or a == b:
                    return {"hand": i, "team": [a, b]}
                count[(min(a, b), max(a, b))] += 1
    for rnd, count in sorted(by_round.items()):
        # a pair partnering too often first (the schedule's own error), then too rarely
        wrong = sorted(((pair, count[pair]) for pair in combinations(range(players), 2)
                        if count[pair] != want), key=lambda item: item[1] < want)
        if wrong:
            (a, b), n = wrong[0]
            out: dict[str, Any] = {"round": rnd, "players": [a, b], "hands": n}
            if len(wrong) > 1:
                out["other_pairs"] = len(wrong) - 1
            return out
    return None


SCHEDULE_CHECKS = {"players": _players, "tables": _tables, "hands": _hands,
                   "rounds": _rounds, "partners_opposite": _opposite,
                   "partner_hands": _partner_hands}
