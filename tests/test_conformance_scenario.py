"""Scenario files: schema, loader errors with file:line, corpus validity."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from conformance.scenario import (
    CORPUS_ROOT,
    Filters,
    ScenarioError,
    load_corpus,
    load_file,
    parse_text,
)

FIX = Path(__file__).parent / "fixtures" / "conformance"
ROOT = Path(__file__).resolve().parent.parent

GOOD = """\
id: demo.play.one
title: demo
ruleset: classic-official
cites: [classic-br:play:1]
rules: [CL.PLAY.MATCH]
features: [basic-play]
setup:
  players: 2
  dealer: 1
  current: 0
  hands: {0: [R7], 1: [Y3]}
  discard: [R5]
  draw: []
steps:
  - act: {player: 0, play: R7}
  - expect: {current: 1}
"""


def test_schema_is_valid_draft_2020_12() -> None:
    schema = json.loads((ROOT / "spec/schema/scenario.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"].endswith("2020-12/schema")


def test_single_scenario_file_loads_to_json_payload() -> None:
    [sc] = parse_text(GOOD, "demo.yaml")
    assert sc.id == "demo.play.one"
    assert sc.setup["hands"] == {"0": ["R7"], "1": ["Y3"]}  # seat keys as strings
    assert sc.setup_params() == {"ruleset": "classic-official", "setup": sc.setup, "seed": 0}
    assert [s.kind for s in sc.steps] == ["act", "expect"]
    assert sc.steps[0].line == 15 and sc.steps[1].index == 2
    assert sc.observation_keys() == {"current"}


def test_scenarios_list_file() -> None:
    scs = load_file(FIX / "scenarios" / "tiny.yaml")
    assert len(scs) == 5 and scs[1].steps[0].state_unchanged


@pytest.mark.parametrize(("text", "line", "needle"), [
    (GOOD.replace("play: R7}", "play: X9}"), 15, "steps[0].act"),
    (GOOD.replace("players: 2", "players: 1"), 8, "setup.players"),
    (GOOD.replace("  - expect: {current: 1}", "  - expect: {current: 5}"), 16, "seat 5"),
    (GOOD.replace("hands: {0: [R7], 1: [Y3]}", "hands: {0: [R7]}"), 11, "seat(s) [1]"),
    (GOOD.replace("title: demo", "title: demo\ntitle: again"), 3, "duplicate key"),
    (GOOD.replace("steps:", "steps: [oops"), 15, "YAML"),
    (GOOD.replace("features: [basic-play]", "features: [basic-play]\nphase: AwaitPlay"), 7,
     "phase"),
    (GOOD.replace("  - act: {player: 0, play: R7}",
                  "  - act: {player: 0, play: R7, draw: true}"), 15, "steps[0]"),
    (GOOD.replace("  - act: {player: 0, play: R7}",
                  "  - act: {player: 0, draw: true}\n    state_unchanged: true"), 15, "error"),
])
def test_errors_name_file_and_line(text: str, line: int, needle: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_text(text, "bad.yaml")
    assert info.value.file == "bad.yaml"
    assert info.value.line == line, str(info.value)
    assert needle in str(info.value)
    assert str(info.value).startswith(f"bad.yaml:{line}: ")


def test_duplicate_ids_across_files(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(GOOD)
    corpus = load_corpus([tmp_path])
    assert len(corpus.scenarios) == 1
    [err] = corpus.errors
    assert "duplicate scenario id 'demo.play.one'" in str(err) and "a.yaml:1" in str(err)


def test_filters_are_globs_anded_across_kinds() -> None:
    scs = load_file(FIX / "scenarios" / "tiny.yaml")
    assert [s.id for s in Filters(ids=("tiny.play.*",)).apply(scs)] == [
        "tiny.play.match-colour", "tiny.play.reject-mismatch"]
    assert len(Filters(features=("wild",)).apply(scs)) == 1
    assert len(Filters(rules=("CL.PLAY.*",)).apply(scs)) == 3
    assert len(Filters(rules=("CL.PLAY.*",), ids=("*turn*",)).apply(scs)) == 1
    assert len(Filters(clauses=("classic-br:*",), rulesets=("flip",)).apply(scs)) == 0


def test_bundled_corpus_validates() -> None:
    corpus = load_corpus([CORPUS_ROOT])
    assert not corpus.errors, "\n".join(map(str, corpus.errors))
