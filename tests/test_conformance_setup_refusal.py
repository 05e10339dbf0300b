"""Scenarios whose set-up must be refused (`expect_setup_error`): format, lint and verdicts."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.stdio import StdioAdapter
from conformance.lint import lint
from conformance.runner import Runner
from conformance.scenario import Filters, ScenarioError, load_corpus, parse_text

CORPUS = load_corpus().scenarios
REFUSED = Filters(ids=("*setup.refused*",)).apply(CORPUS)
ORDINARY = Filters(ids=("classic.deal.dealer.action-cards-count-zero",)).apply(CORPUS)

SCENARIO = """
id: t.refused
title: eleven players
ruleset: classic-official
cites: ['wiki-br:title:6']
rules: [CL.DECK.PLAYERS]
features: [deal, setup-refusal, game-start]
setup:
  players: 11
  start: game
"""


def test_the_corpus_has_the_refused_set_ups() -> None:
    assert {sc.id: sc.expect_setup_error for sc in REFUSED} == {
        "classic.setup.refused.one-player": "wrong-player-count",
        "classic.setup.refused.eleven-players": "wrong-player-count",
        "classic.setup.refused.first-card-only-wild-draw-fours": "unresolvable-setup",
        "classic.setup.refused.first-card-empty-draw-pile": "unresolvable-setup",
        "classic.setup.refused.dealer-draw-cannot-break-a-tie": "unresolvable-setup",
        "variants.partners.setup.refused.odd-count": "wrong-player-count",
        "flip.setup.refused.first-card-only-wild-draw-twos": "unresolvable-setup",
        "flip.setup.refused.eleven-players": "wrong-player-count",
        "flip.setup.refused.one-player": "wrong-player-count",
        "classicguide.setup.refused.only-wilds": "unresolvable-setup",
    }
    assert all(sc.steps == () and sc.cites and sc.rules for sc in REFUSED)


def test_a_refused_set_up_loads_without_steps() -> None:
    [sc] = parse_text(SCENARIO + "expect_setup_error: wrong-player-count\n", "t.yaml")
    assert sc.expect_setup_error == "wrong-player-count" and sc.steps == ()


@pytest.mark.parametrize("extra,message", [
    # without expect_setup_error an 11-player table is the first problem, named as such
    ("", "t.yaml:9: scenario t.refused: setup.players: 11 players: UNO is played by 2 to 10 "
     "players (seats 0 to 9)"),
    ("steps:\n- expect: {current: 0}\n",
     "t.yaml:9: scenario t.refused: setup.players: 11 players: UNO is played by 2 to 10 "
     "players (seats 0 to 9)"),
    ("expect_setup_error: wrong-player-count\nsteps:\n- expect: {current: 0}\n",
     "t.yaml:12: scenario t.refused: steps: [{'expect': {'current': 0}}] is expected to be "
     "empty"),
    ("expect_setup_error: Wrong\n", "t.yaml:11: scenario t.refused: expect_setup_error: 'Wrong'"
     " does not match"),
])
def test_format_errors(extra: str, message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_text(SCENARIO + extra, "t.yaml")
    assert str(info.value).startswith(message), str(info.value)


def test_lint_names_an_unknown_code(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(SCENARIO + "expect_setup_error: no-such-code\n")
    res = lint([path])
    assert res.errors == [f"{path}:11: scenario t.refused: error code no-such-code is not in "
                          "spec/errors.yaml"]


class Accepting(ReferenceAdapter):
    """Plays whatever it is given: never refuses a set-up."""

    def setup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        super().setup(params)
        return None


class Refusing(ReferenceAdapter):
    """Refuses every set-up, always with the same code."""

    def __init__(self, code: str = "unresolvable-setup") -> None:
        super().__init__()
        self.code = code

    def setup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        return {"code": self.code, "rule": "CL.FIRST.UNRESOLVABLE"}


def verdicts(factory: Any, scenarios: Any) -> dict[str, tuple[str, str]]:
    return {r.id: (r.status, r.message) for r in Runner(factory).run(scenarios).results}


def test_the_reference_refuses_each_with_its_code() -> None:
    assert {s for s, _ in verdicts(ReferenceAdapter, REFUSED).values()} == {"passed"}


def test_the_reference_over_stdio_refuses_each_with_its_code() -> None:
    cmd = [sys.executable, "-m", "uno_cli", "conformance", "serve", "--adapter", "reference"]
    got = verdicts(lambda: StdioAdapter(cmd, timeout=10), REFUSED)
    assert {s for s, _ in got.values()} == {"passed"}, got


def test_accepting_a_set_up_that_must_be_refused_fails() -> None:
    got = verdicts(Accepting, REFUSED)
    assert got["classic.setup.refused.eleven-players"] == (
        "failed", "set-up accepted; expected error wrong-player-count")


def test_refusing_with_another_code_fails() -> None:
    got = verdicts(Refusing, REFUSED)
    assert got["classic.setup.refused.one-player"] == (
        "failed", "set-up rejected with unresolvable-setup (rule CL.FIRST.UNRESOLVABLE), "
        "expected wrong-player-count")
    assert got["classic.setup.refused.first-card-only-wild-draw-fours"][0] == "passed"


def test_refusing_an_ordinary_set_up_fails() -> None:
    got = verdicts(lambda: Refusing("wrong-player-count"), ORDINARY)
    assert got == {"classic.deal.dealer.action-cards-count-zero": (
        "failed", "set-up rejected with wrong-player-count (rule CL.FIRST.UNRESOLVABLE)")}


class Garbage(ReferenceAdapter):
    def setup(self, params: dict[str, Any]) -> Any:
        return True


def test_a_set_up_answer_that_is_not_an_error_object_is_a_protocol_error() -> None:
    got = verdicts(Garbage, ORDINARY)
    assert got == {"classic.deal.dealer.action-cards-count-zero": (
        "errored", "protocol-error: setup must return null or an error object with a code, "
        "got True")}


def test_steps_are_required_without_expect_setup_error() -> None:
    text = SCENARIO.replace("players: 11", "players: 3")
    with pytest.raises(ScenarioError) as exc:
        parse_text(text, "t.yaml")
    assert str(exc.value) == ("t.yaml:2: scenario t.refused: (scenario): 'steps' is a required "
                              "property")
