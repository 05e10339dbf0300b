"""Issue 24 item 1: `params:` in a scenario, parameter overrides on top of its ruleset,
validated against the ruleset schema's parameters (one error, file:line); the `params`
capability of the protocol (an adapter declares the parameters it can set; a scenario
needing others is unsupported)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from conformance.adapters.reference import ReferenceAdapter
from conformance.runner import Runner, missing_capabilities
from conformance.scenario import ScenarioError, load_corpus, parse_text
from uno_spec.parameters import leaves
from uno_spec.rulesets import load_ruleset

BASE = """\
id: mine.params.one
title: Desafio to 250
ruleset: classic-official+desafio
params: {scoring: {target: 250}}
cites: [classic-br:desafio:3]
rules: [DESAFIO.ELIMINATE]
features: [basic-play, scoring, desafio]
setup:
  players: 3
  dealer: 2
  current: 0
  hands: {0: [R1], 1: [B9], 2: [Y1]}
  discard: [R7]
  active_color: red
  draw: [B1, B2, B3]
  scores: {1: 241}
steps:
  - act: {player: 0, play: R1}
  - expect: {eliminated: [1]}
"""


def test_params_are_sent_with_the_setup() -> None:
    sc = parse_text(BASE, "s.yaml")[0]
    assert sc.params == {"scoring": {"target": 250}}
    assert sc.param_paths() == ["scoring.target"]
    assert sc.setup_params()["params"] == {"scoring": {"target": 250}}
    plain = parse_text(BASE.replace("params: {scoring: {target: 250}}\n", ""), "s.yaml")[0]
    assert "params" not in plain.setup_params()


@pytest.mark.parametrize(("params", "line", "message"), [
    ("{scoring: {targt: 250}}", 4,
     "params.scoring.targt: unknown parameter 'scoring.targt'; did you mean scoring.target?"),
    ("{scoring: {target: many}}", 4,
     "params.scoring.target: parameter scoring.target: 'many' is not of type 'integer', 'null'"),
    ("{scoring: {target: 0}}", 4,
     "params.scoring.target: parameter scoring.target: 0 is less than the minimum of 1"),
    ("{hand_size: -1}", 4, "parameter hand_size: -1 is less than the minimum of 0"),
    ("{nonsense: 1}", 4, "unknown parameter 'nonsense'"),
    ("{deck: {name: x}}", 4, "deck: a scenario's params do not change the game, its deck"),
    ("{stacking: {enabled: true}}", 4, "stacking is the stacking variant's parameter group: "
     "name the variant in the ruleset (classic-official+desafio+stacking)"),
    ("{}", 4, "should be non-empty"),
    # an empty group sets nothing; as the parameter path `scoring` it left the scenario
    # unsupported by every adapter (the reference's too), silently
    ("{scoring: {}}", 4, "params.scoring: an empty parameter group sets nothing: remove it, "
     "or set one of its parameters"),
    ("{scoring: {points: {}}}", 4, "params.scoring.points: an empty parameter group sets "
     "nothing"),
    ("{first_card: {}}", 4, "params.first_card: an empty parameter group sets nothing"),
    # an empty mapping where a value is asked is the wrong type, not an empty group
    ("{wild: {must_change_color: {}}}", 4,
     "parameter wild.must_change_color: {} is not of type 'boolean'"),
])
def test_bad_params_are_one_error_at_their_line(params: str, line: int, message: str) -> None:
    text = BASE.replace("{scoring: {target: 250}}", params)
    with pytest.raises(ScenarioError) as exc:
        parse_text(text, "s.yaml")
    assert exc.value.line == line
    assert message in exc.value.message, exc.value.message


def test_multiline_params_point_at_the_parameter() -> None:
    text = BASE.replace("params: {scoring: {target: 250}}",
                        "params:\n  scoring:\n    target: 0")
    with pytest.raises(ScenarioError) as exc:
        parse_text(text, "s.yaml")
    assert exc.value.line == 6


def test_an_adapter_not_declaring_the_parameter_is_unsupported() -> None:
    sc = parse_text(BASE, "s.yaml")[0]
    caps = ReferenceAdapter().hello()
    assert "scoring.target" in caps["params"]
    assert missing_capabilities(sc, caps) == []
    assert missing_capabilities(sc, {**caps, "params": []}) == ["parameter(s) scoring.target"]
    without = {k: v for k, v in caps.items() if k != "params"}

    class Plain(ReferenceAdapter):
        def hello(self) -> dict[str, object]:
            return without

    result = Runner(Plain).run([sc]).results[0]
    assert result.status == "unsupported"
    assert "parameter(s) scoring.target" in result.message


def _sets_other_values(sc: Any) -> bool:
    """Whether a scenario's `params` change a value of its ruleset (not only state one)."""
    own = dict(leaves(load_ruleset(sc.ruleset).params))
    return any(own.get(path) != value for path, value in leaves(sc.params))


def test_the_corpus_table_options_need_their_params() -> None:
    """The bundled scenarios that set parameters pass on the reference engine, and fail with
    the ruleset's own values where they change one: the option is what they test. (A scenario
    may also state the ruleset's own value, `wild.must_change_color: false`, to say which side
    of a table option it plays.)"""
    with_params = [sc for sc in load_corpus().scenarios if sc.params]
    assert {sc.id for sc in with_params} >= {"variant.desafio.eliminate.table-amount-250",
                                             "classic.two-player.reverse.plain-reverse-table",
                                             "classic.wild.must-change-table.same-colour-refused",
                                             "classic.wild.must-change-off.same-colour-accepted"}
    runner = Runner(ReferenceAdapter)
    assert [r.status for r in runner.run(with_params).results] == ["passed"] * len(with_params)
    changing = [sc for sc in with_params if _sets_other_values(sc)]
    assert "classic.wild.must-change-off.same-colour-accepted" not in {sc.id for sc in changing}
    stripped = [dataclasses.replace(sc, params={}) for sc in changing]
    assert all(r.status == "failed" for r in Runner(ReferenceAdapter).run(stripped).results)


def test_params_file_line_through_the_cli(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from uno_cli.main import main

    (tmp_path / "s.yaml").write_text(BASE.replace("target: 250", "targt: 250"))
    assert main(["conformance", "run", str(tmp_path / "s.yaml"), "-q"]) == 2
    assert "s.yaml:4: scenario mine.params.one: params.scoring.targt: unknown parameter" \
        in capsys.readouterr().err


@pytest.mark.parametrize(("params", "message"), [
    ("{scoring: {target: {a: {b: {c: 1}}}}}", "parameter scoring.target: {'a': {'b': {'c': 1}}} "
     "is not of type 'integer', 'null'"),
    ("{scoring: [250]}", "parameter scoring: [250] is not of type 'object'"),
    ("{uno: {penalty: true}}", "parameter uno.penalty: True is not of type 'integer'"),
    ("{scoring: {target: 2.5}}", "2.5 is not a whole number"),
    ("{'': 1}", "unknown parameter ''"),
])
def test_hostile_params_are_one_error(params: str, message: str) -> None:
    with pytest.raises(ScenarioError) as exc:
        parse_text(BASE.replace("{scoring: {target: 250}}", params), "s.yaml")
    assert message in exc.value.message, exc.value.message
    assert exc.value.line == 4


def test_hello_params_must_be_a_list_of_strings() -> None:
    from conformance.protocol import PROTOCOL, ProtocolError, check_hello

    assert check_hello({"protocol": PROTOCOL})["params"] == []
    for bad in ("scoring.target", [1], {"scoring.target": True}):
        with pytest.raises(ProtocolError, match="'params' must be a list of strings"):
            check_hello({"protocol": PROTOCOL, "params": bad})


def test_the_reference_declares_the_settable_parameters() -> None:
    caps = ReferenceAdapter().hello()
    assert {"scoring.target", "two_player.reverse_acts_as_skip"} <= set(caps["params"])
    assert not any(p.split(".")[0] in ("game", "deck", "players") for p in caps["params"])
    a = ReferenceAdapter()
    with pytest.raises(Exception, match="params must be an object"):
        a.setup({"ruleset": "classic-official", "setup": {"players": 2}, "params": [1]})
