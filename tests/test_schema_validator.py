"""The compiled JSON Schema validator (uno_spec.schema: jsonschema-rs) and jsonschema, which
explains what it rejects, agree; jsonschema is imported only for a rejected document."""

from __future__ import annotations

import copy
import datetime
import random
import subprocess
import sys
from typing import Any

import jsonschema
import pytest

from conformance import scenario
from conformance.scenario import ScenarioError, parse_text, scenario_files, to_json
from uno_spec.loader import load_yaml
from uno_spec.schema import compile_schema

ODD_VALUES: list[Any] = [None, True, False, 0, 1, -1, 99, 1.5, 2.0, "", "ZZ", "R7", "W4", [],
                         ["R7"], ["R7", "R7"], {}, {"0": ["R7"]}, {"x": 1}, 10**25]


def _corpus_docs() -> list[Any]:
    docs: list[Any] = []
    for path in scenario_files():
        doc = load_yaml(path)
        docs += [to_json(x) for x in (doc["scenarios"] if "scenarios" in doc else [doc])]
    return docs


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _mutate(doc: Any, rng: random.Random) -> Any:
    doc = copy.deepcopy(doc)
    path = rng.choice(_paths(doc)[1:])
    parent = doc
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    kind = rng.randrange(4)
    if kind == 0 and isinstance(parent, dict):
        del parent[last]
    elif kind == 0 and isinstance(parent, list):
        parent.pop(last)
    elif kind == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "error", "play", "draw", "color", "hands", "7"])] = \
            rng.choice(ODD_VALUES)
    elif kind == 2 and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[last]))
    else:
        parent[last] = copy.deepcopy(rng.choice(ODD_VALUES))
    return doc


def test_the_compiled_scenario_check_agrees_with_jsonschema_on_the_corpus_and_mutations() -> None:
    compiled = scenario._schema()
    full = jsonschema.Draft202012Validator(compiled.schema)
    docs = _corpus_docs()
    assert len(docs) >= 700
    for doc in docs:
        assert compiled.is_valid(doc) and full.is_valid(doc)
    rng = random.Random(20261201)
    invalid = 0
    for _ in range(1500):
        mutant = _mutate(rng.choice(docs), rng)
        expected = full.is_valid(mutant)
        assert compiled.is_valid(mutant) == expected, mutant
        invalid += not expected
    assert invalid > 400  # the mutations do exercise rejections


def test_a_value_json_does_not_have_is_invalid_and_explained() -> None:
    schema = compile_schema({"type": "object", "properties": {"when": {"type": "string"}}})
    doc = {"when": datetime.date(2026, 12, 1)}  # what YAML makes of `when: 2026-12-01`
    assert not schema.is_valid(doc)
    [error] = schema.iter_errors(doc)
    assert list(error.absolute_path) == ["when"] and "is not of type 'string'" in error.message


def test_a_document_jsonschema_rs_cannot_read_is_judged_by_jsonschema() -> None:
    # a ruleset's deck `numbers: {0: 1, 1: 2}`: YAML integer keys, which jsonschema-rs does not
    # take (only string keys); jsonschema judges it, and accepts it here
    schema = compile_schema({"type": "object", "additionalProperties": {"type": "integer"}})
    assert schema.is_valid({0: 1, 1: 2}) and list(schema.iter_errors({0: 1, 1: 2})) == []
    [error] = schema.iter_errors({0: 1, 1: "two"})
    assert list(error.absolute_path) == [1] and "is not of type 'integer'" in error.message


def test_an_invalid_schema_is_refused_with_jsonschemas_explanation() -> None:
    with pytest.raises(jsonschema.exceptions.SchemaError, match="'widget' is not valid"):
        compile_schema({"type": "widget"})


def test_a_valid_corpus_loads_without_importing_jsonschema() -> None:
    code = ("import sys\nfrom conformance.scenario import load_corpus\n"
            "c = load_corpus()\n"
            "print(len(c.scenarios), len(c.errors), 'jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    count, errors, imported = out.stdout.split()
    assert int(count) >= 700 and errors == "0" and imported == "False"


def test_a_rejected_scenario_is_explained_by_jsonschema() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_text(NEWLINE.replace('"R7\\n"', "ZZ"), "bad.yaml")
    assert str(info.value).startswith("bad.yaml:13: scenario demo.newline: steps[0].act.play: "
                                      "'ZZ' is not a card: a card is a colour letter")


NEWLINE = """\
id: demo.newline
title: t
ruleset: classic-official
cites: [classic-br:a:1]
rules: [CL.PLAY.MATCH]
features: [basic-play]
setup:
  players: 2
  current: 0
  discard: [R5]
  hands: {0: [R7], 1: [G1]}
steps:
  - act: {player: 0, play: "R7\\n"}
"""


def test_a_string_with_a_final_newline_breaks_a_pattern_ending_in_dollar() -> None:
    # JSON Schema patterns are ECMA 262: `$` is the end of the string. Python's `re` (hence
    # jsonschema) also matches `$` before a final newline and accepts "R7\n" as a card; the
    # compiled validator's verdict stands and its own error is reported.
    card = compile_schema(scenario._schema().schema["$defs"]["card"])
    assert not card.is_valid("R7\n")
    assert jsonschema.Draft202012Validator(card.schema).is_valid("R7\n")
    with pytest.raises(ScenarioError) as info:
        parse_text(NEWLINE, "newline.yaml")
    assert str(info.value).startswith("newline.yaml:13: scenario demo.newline: steps[0].act.play: "
                                      "'R7\\n' is not a card: a card is a colour letter")
    with pytest.raises(ScenarioError) as info:  # the message stays one line
        parse_text(NEWLINE.replace("id: demo.newline", 'id: "demo.newline\\n"'), "newline.yaml")
    assert str(info.value) == ('newline.yaml:1: id: "demo.newline\\n" does not match '
                               '"^[a-z0-9][a-z0-9_-]*(\\.[a-z0-9][a-z0-9_-]*)+$"')
