"""The partners variant (PARTNERS.*): seat i partners seat i + n/2; the team of the player who
goes out scores the opponents' cards, both partners carrying the team total."""

from __future__ import annotations

from uno_fsm.oracle.base import Facts, check
from uno_fsm.state import State


def team(facts: Facts, seat: int, n: int) -> set[int]:
    """PARTNERS.SEATING: the seats scoring with `seat` (itself alone without partners)."""
    return {seat, (seat + n // 2) % n} if facts.plays("partners") else {seat}


def check_team_totals(st: State) -> None:
    """PARTNERS.TARGET: a partnership's points accumulate together: partners hold one total."""
    n = st.players
    check(all(st.scores[i] == st.scores[(i + n // 2) % n] for i in range(n)), "PARTNERS.TARGET",
          f"partners' totals differ: {st.scores}")
