"""The safe, line-keeping YAML loader and the typed accessors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from uno_spec.loader import SpecError, load_rules, load_rulings, load_sources, parse_yaml

GOOD = Path(__file__).parent / "fixtures" / "spec" / "good"


def test_mappings_know_their_lines() -> None:
    doc = parse_yaml("a: 1\nitems:\n  - id: x\n    v: 2\n  - id: y\n", "f.yaml")
    assert doc.line == 1 and doc.line_of("items") == 2
    assert [item.line for item in doc["items"]] == [3, 5]
    assert doc["items"][0].line_of("v") == 4


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a: 1\nb: 2\na: 3\n", 3, "duplicate key 'a' (first at line 1)"),
        ("x: !!python/object/new:os.system [ls]\n", 1, "tag 'tag:yaml.org,2002:python/object/new:"
         "os.system' is not allowed"),
        ("x: !custom 3\n", 1, "tag '!custom' is not allowed"),
        ("a: [1, 2\nb: 3\n", 2, "while parsing a flow sequence (started at line 1)"),
        ("a: 1\n  b: 2\n", 2, "mapping values are not allowed here"),
    ],
)
def test_yaml_problems_become_spec_errors(text: str, line: int, message: str) -> None:
    with pytest.raises(SpecError) as info:
        parse_yaml(text, "f.yaml")
    err = info.value
    assert (err.file, err.line) == ("f.yaml", line)
    assert message in err.message
    assert str(err).startswith(f"f.yaml:{line}: YAML error: " if "duplicate" not in message
                               else f"f.yaml:{line}: duplicate")


def test_typed_accessors_carry_file_and_line() -> None:
    (source,) = load_sources(GOOD)
    assert source.id == "demo" and source.language == "pt-BR"
    clause = source.clauses[1]
    assert (clause.id, clause.kind, clause.line) == ("demo:deal:1", "normative", 12)
    assert clause.file.endswith("sources/demo.yaml")
    rule = load_rules(GOOD)[0]
    assert (rule.id, rule.area, rule.cites, rule.line) == (
        "CL.DEAL.SEVEN", "deal", ("demo:deal:1",), 4)
    ruling = load_rulings(GOOD)[0]
    assert ruling.id == "RUL.DEAL.COUNT"
    assert ruling.decisions == (("base-a", "seven"), ("base-b", "ten"))
    assert [o.id for o in ruling.options] == ["seven", "ten"]


def test_loads_are_cached() -> None:
    assert load_rules(GOOD) is load_rules(GOOD)


def test_real_spec_loads() -> None:
    sources = load_sources()
    assert {s.id for s in sources} >= {"classic-br", "flip-pt", "flip-it", "guide-br", "wiki-br"}
    assert load_rules() and load_rulings()


LOADER_CASES = [
    "a: 1\nb: 2\na: 3\n",
    "x: !!python/object/new:os.system [ls]\n",
    "x: !custom 3\n",
    "a: [1, 2\nb: 3\n",
    "a: 1\n  b: 2\n",
    "a: 'open\n",
    "- a\nb: 1\n",
    "a: 1\nitems:\n  - id: x\n    v: 2\n  - id: y\n    w: {p: [1, {q: 2}]}\n",
]


@pytest.mark.parametrize("text", LOADER_CASES)
def test_libyaml_and_pure_python_loaders_agree(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Same data, same lines, same error (file, line, message) with and without libyaml."""
    from uno_spec import loader

    def outcome() -> Any:
        try:
            doc = parse_yaml(text, "f.yaml")
        except SpecError as exc:
            return ("error", exc.file, exc.line, exc.message)
        return ("ok", doc, _lines(doc))

    fast = outcome()
    monkeypatch.setattr(loader, "FAST_LOADER", None)
    assert outcome() == fast


def _lines(node: Any) -> Any:
    if isinstance(node, dict):
        return (getattr(node, "line", None), dict(getattr(node, "key_lines", {})),
                {k: _lines(v) for k, v in node.items()})
    if isinstance(node, list):
        return [_lines(v) for v in node]
    return None


def test_libyaml_is_used_when_available() -> None:
    import yaml

    from uno_spec import loader

    if not hasattr(yaml, "CSafeLoader"):
        pytest.skip("PyYAML without libyaml")
    assert loader.FAST_LOADER is not None and issubclass(loader.FAST_LOADER, yaml.CSafeLoader)


def test_bundled_scenarios_load_the_same_without_libyaml(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance.scenario import load_corpus
    from uno_spec import loader

    fast = load_corpus()
    monkeypatch.setattr(loader, "FAST_LOADER", None)
    pure = load_corpus()
    assert not fast.errors and not pure.errors
    assert fast.scenarios == pure.scenarios
    assert [(s.line, s.raw_lines, [st.line for st in s.steps]) for s in fast.scenarios] == \
        [(s.line, s.raw_lines, [st.line for st in s.steps]) for s in pure.scenarios]
