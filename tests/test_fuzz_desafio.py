"""The Desafio variant fuzzed (uno_fsm/fuzz.py, `ci` profile; its oracle: uno_fsm/oracle/
desafio.py and the eliminated seats skipped by `oracle.base.step_seat`): the base
postconditions with the eliminated seats not counted, the Desafio scoring and eliminations, and
the invariants (eliminated players hold no cards and no turn, every card stays in the game). A
small elimination amount makes games reach their eliminations and their end within the
profile's steps. Desafio rules broken on purpose in the engine are found."""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings

from uno_fsm import fuzz
from uno_fsm.rules import Rules
from uno_fsm.rules.desafio import Desafio

BUDGET = settings(settings.get_profile("ci"), max_examples=40, stateful_step_count=120,
                  phases=[Phase.explicit, Phase.generate], derandomize=True, database=None)


@pytest.mark.parametrize("ruleset,players", [
    ("classic-official+desafio", (2, 6)),
    ("classic-2022+desafio", (3, 6)),
])
def test_desafio_state_machine(ruleset: str, players: tuple[int, int]) -> None:
    fuzz.STATS.reset()
    # more examples than the `ci` profile's 25: which games a derandomized run plays differs
    # with the modules the process has imported, and a whole Desafio game is long (one player
    # left), so the coverage below needs a margin
    # (an amount of 25 and at most six players: a game ends within the steps of most examples)
    fuzz.run(fuzz.make_machine(ruleset, players, target=25), "ci", max_examples=80)
    # the runs went through positions with eliminated players (these checks are made only
    # then), eliminated players at the end of a hand, and games ended (DESAFIO.WINNER is
    # checked only at a game's end)
    assert fuzz.STATS.checked["DESAFIO.ELIMINATED-OUT"] > 0
    assert fuzz.STATS.checked["DESAFIO.SCORE"] > 0
    assert fuzz.STATS.checked["DESAFIO.WINNER"] > 0


def test_the_desafio_rulesets_are_fuzzed_with_the_others() -> None:
    assert {"classic-official+desafio", "classic-2022+desafio"} <= set(fuzz.VARIANT_RULESETS)
    assert fuzz.unsupported_reason("classic-official+desafio") is None


def test_the_smaller_amount_is_read_by_the_oracle() -> None:
    machine = fuzz.make_machine("classic-official+desafio", (3, 4), target=40)
    assert machine.facts.plays("desafio") and machine.facts.target == 40
    assert fuzz.make_machine("classic-official+desafio", 3).facts.target == 500
    assert not fuzz.make_machine("classic-official", 3).facts.plays("desafio")


def test_nobody_eliminated_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    def on_scored(self: Desafio, winner: int) -> None:
        pass  # BUG: DESAFIO.ELIMINATE ignored, nobody reaching the amount is eliminated

    monkeypatch.setattr(Desafio, "on_scored", on_scored)
    machine = fuzz.make_machine("classic-official+desafio", (3, 4), target=40)
    with pytest.raises(fuzz.FuzzFailure, match=r"\[DESAFIO\.(ELIMINATE|SIMULTANEOUS)\]"):
        fuzz.run(machine, BUDGET)


def test_final_pair_without_the_two_player_rules_is_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def seated(self: Rules) -> int:
        return self.st.players  # BUG: the eliminated counted, CL.TWO.* never apply to the pair

    monkeypatch.setattr(Rules, "seated", seated)
    machine = fuzz.make_machine("classic-official+desafio", 3, target=40)
    with pytest.raises(fuzz.FuzzFailure, match=r"\[CL\.TWO\.REVERSE-SKIP\]"):
        fuzz.run(machine, BUDGET)
