"""The fast yes/no scenario check agrees with jsonschema (conformance/schemacheck.py)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from conformance import scenario
from conformance.scenario import scenario_files, to_json
from conformance.schemacheck import UnsupportedSchema, compile_schema, json_equal
from uno_spec.loader import load_yaml

ODD_VALUES: list[Any] = [None, True, False, 0, 1, -1, 99, 1.5, 2.0, "", "ZZ", "R7", "W4", [],
                         ["R7"], ["R7", "R7"], {}, {"0": ["R7"]}, {"x": 1}]


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


def test_fast_check_is_built_for_the_scenario_schema() -> None:
    assert scenario._validators().fast is not None


def test_fast_check_agrees_with_jsonschema_on_the_corpus_and_its_mutations() -> None:
    validators = scenario._validators()
    fast, full = validators.fast, validators.full
    assert fast is not None
    docs = _corpus_docs()
    assert len(docs) >= 400
    for doc in docs:
        assert fast(doc) and full.is_valid(doc)
    rng = random.Random(20261130)
    invalid = 0
    for _ in range(4000):
        mutant = _mutate(rng.choice(docs), rng)
        expected = full.is_valid(mutant)
        assert fast(mutant) == expected, mutant
        invalid += not expected
    assert invalid > 1000  # the mutations do exercise rejections


@pytest.mark.parametrize(("a", "b", "equal"), [
    (1, 1.0, True), (True, 1, False), (0, False, False), ([1, True], [1.0, True], True),
    ({"a": [1]}, {"a": [1]}, True), ({"a": 1}, {"b": 1}, False), ("1", 1, False),
])
def test_json_equality(a: Any, b: Any, equal: bool) -> None:
    assert json_equal(a, b) is equal


def test_unknown_keywords_are_refused_not_ignored() -> None:
    for schema in ({"$ref": "#/$defs/x"}, {"patternProperties": {}}, {"contains": {}},
                   {"type": "widget"}):
        with pytest.raises(UnsupportedSchema):
            compile_schema(schema)
