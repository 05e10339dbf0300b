"""The Desafio variant fuzzed (uno_fsm/fuzz.py, `ci` profile): the base postconditions with the
eliminated seats skipped, the Desafio scoring and eliminations, and the invariants (eliminated
players hold no cards and no turn, every card stays in the game). A small elimination amount
makes games reach their eliminations and their end within the profile's steps."""

from __future__ import annotations

import pytest

from uno_fsm import fuzz


@pytest.mark.parametrize("ruleset,players", [
    ("classic-official+desafio", (2, 6)),
    ("classic-2022+desafio", (3, 10)),
])
def test_desafio_state_machine(ruleset: str, players: tuple[int, int]) -> None:
    fuzz.STATS.reset()
    fuzz.run(fuzz.make_machine(ruleset, players, target=40), "ci")
    # the runs went through positions with eliminated players, and games ended
    assert fuzz.STATS.checked["DESAFIO.ELIMINATED-OUT"] > 0
    assert fuzz.STATS.checked["DESAFIO.WINNER"] > 0


def test_the_desafio_rulesets_are_fuzzed_with_the_others() -> None:
    assert {"classic-official+desafio", "classic-2022+desafio"} <= set(fuzz.VARIANT_RULESETS)
    assert fuzz.unsupported_reason("classic-official+desafio") is None
