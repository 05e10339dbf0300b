"""`uno-fsm spec lint` over deliberately broken spec trees, and over the real spec.

Each case in tests/fixtures/spec/broken/<case>/ holds the files that replace those of the
good tree (tests/fixtures/spec/good/); the lint must name each problem as `file:line: message`
and exit 1, never with a traceback.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from uno_cli.main import main

FIXTURES = Path(__file__).parent / "fixtures" / "spec"
REPO = Path(__file__).resolve().parent.parent


def broken_tree(case: str, into: Path) -> Path:
    """The good tree with one case's files laid over it, at into/spec."""
    tree = into / "spec"
    shutil.copytree(FIXTURES / "good", tree)
    shutil.copytree(FIXTURES / "broken" / case, tree, dirs_exist_ok=True)
    return tree


def lint_lines(capsys: pytest.CaptureFixture[str], spec: str = "spec") -> tuple[int, list[str]]:
    code = main(["spec", "lint", "--spec", spec])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out.splitlines()


def test_good_tree_lints_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = lint_lines(capsys, str(FIXTURES / "good"))
    assert code == 0
    assert lines == ["spec lint OK: 1 sources, 4 clauses, 2 rules, 2 rulings, 5 rulesets"]


CASES = {
    "malformed-yaml": [
        "spec/rules/deal.yaml:7: YAML error: while parsing a flow sequence (started at line 6):"
        " expected ',' or ']', but got ':'",
    ],
    "duplicate-id": [
        "spec/rules/deal.yaml:9: duplicate rule id 'CL.DEAL.SEVEN'"
        " (first at spec/rules/deal.yaml:4)",
    ],
    "duplicate-key": [
        "spec/rulesets/base-b.yaml:7: duplicate key 'hand_size' (first at line 5)",
    ],
    "unknown-clause": [
        "spec/rules/deal.yaml:6: rule CL.DEAL.SEVEN cites unknown clause 'demo:deal:9'"
        " (did you mean demo:deal:2?)",
        "spec/sources/demo.yaml:12: normative clause demo:deal:1 is cited by no rule"
        " (cite it from a rule or give it an `uncited: \"<reason>\"`)",
    ],
    "python-tag": [
        "spec/rulings/deal.yaml:2: YAML error: tag"
        " 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed:"
        " spec files hold plain data only (no Python objects, no custom tags)",
    ],
    "orphan-ruling": [
        "spec/rulings/deal.yaml:19: ruling RUL.UNUSED is orphaned:"
        " no rule and no ruleset references it",
    ],
    "uncited-normative": [
        "spec/sources/demo.yaml:17: normative clause demo:deal:2 is cited by no rule"
        " (cite it from a rule or give it an `uncited: \"<reason>\"`)",
    ],
    "clause-not-in-seed": [
        "spec/sources/demo.yaml:14: clause demo:deal:1: text does not occur verbatim"
        " in seed 000_demo.txt",
        "spec/sources/demo.yaml:14: seed 000_demo.txt is not partitioned by its clauses:"
        " clause demo:deal:1 diverges from the seed, which continues here with"
        " 'Cada jogador recebe 7 cartas. O primeiro a ficar sem cartas '",
    ],
    "bad-decision": [
        "spec/rulings/deal.yaml:8: ruling RUL.DEAL.COUNT decides for unknown ruleset 'base-c'"
        " (did you mean base-b?)",
        "spec/rulings/deal.yaml:8: ruling RUL.DEAL.COUNT: decision 'eleven' for base-c"
        " is not one of its options (seven, ten)",
    ],
    "unknown-parameter": [
        # what is refused and where; the parameters known there are checked apart
        # (test_an_unknown_parameter_lists_the_tree_s_own_parameters)
        "spec/rulesets/base-b.yaml:6: schema: params: unknown parameter(s) 'first_player': the"
        " engine reads none such (known here: ...)",
        "spec/rulesets/base-b.yaml:7: schema: params.draw: unknown parameter(s)"
        " 'may_draw_when_able': the engine reads none such (known here: count)",
    ],
    "unknown-ruling-parameter": [
        "spec/rulings/deal.yaml:10: ruling RUL.DEAL.COUNT names unknown ruleset parameter"
        " 'hand_sise' (did you mean hand_size?) (not in ruleset.schema.json)",
    ],
    "unknown-parameter-rule": [
        "spec/schema/ruleset.schema.json:9: parameter hand_size names unknown rule"
        " 'CL.DEAL.SEVN' (did you mean CL.DEAL.SEVEN?)",
    ],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_tree(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str]) -> None:
    broken_tree(case, tmp_path)
    monkeypatch.chdir(tmp_path)
    code, lines = lint_lines(capsys)
    assert code == 1
    assert [_known_elided(line) for line in lines] == CASES[case]


def _known_elided(line: str) -> str:
    """A message of an unknown top-level parameter without the list of those known there."""
    head, sep, _ = line.partition(" (known here: ")
    return f"{head}{sep}...)" if sep and "schema: params: unknown" in line else line


def test_an_unknown_parameter_lists_the_tree_s_own_parameters(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The parameters known in a tree are its schema's and those its variants declare (the
    good tree's `stacking` variant declares the group `stacking`)."""
    broken_tree("unknown-parameter", tmp_path)
    monkeypatch.chdir(tmp_path)
    _, lines = lint_lines(capsys)
    known = lines[0].partition(" (known here: ")[2].rstrip(")").split(", ")
    assert {"hand_size", "draw", "scoring", "stacking"} <= set(known)
    assert "jump_in" not in known  # a group only the real spec's variant declares


def test_a_hundred_thousand_unknown_keys_make_short_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Every unknown key was named: 100,000 of them made one error line of about 1 MB (an
    unknown field of a source, an unknown parameter of a ruleset alike)."""
    tree = broken_tree("orphan-ruling", tmp_path)
    keys = "".join(f"k{i:06d}: 1\n" for i in range(100_000))
    src = tree / "sources" / "demo.yaml"
    src.write_text(src.read_text(encoding="utf-8") + keys, encoding="utf-8")
    ruleset = tree / "rulesets" / "base-b.yaml"
    text = ruleset.read_text(encoding="utf-8")
    assert "\nparams:\n" in text
    ruleset.write_text(text.replace("\nparams:\n", "\nparams:\n" + "".join(
        f"  p{i:06d}: 1\n" for i in range(100_000)), 1), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, lines = lint_lines(capsys)
    assert code == 1
    named = ", ".join(f"'k{i:06d}'" for i in range(10))
    assert any(line.endswith(f"schema: unknown field(s) ({named} and 99,990 more were "
                             "unexpected)") for line in lines), lines
    params = ", ".join(f"'p{i:06d}'" for i in range(10))
    assert any(f"schema: params: unknown parameter(s) {params} and 99,990 more: the engine "
               "reads none such (known here: " in line for line in lines), lines
    assert max(map(len, lines)) < 1_000


def test_every_broken_case_is_tested() -> None:
    assert sorted(p.name for p in (FIXTURES / "broken").iterdir()) == sorted(CASES)


def test_schema_violation_names_field_and_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    tree = broken_tree("orphan-ruling", tmp_path)
    src = tree / "sources" / "demo.yaml"
    src.write_text(src.read_text(encoding="utf-8").replace("kind: variant", "kind: varient"),
                   encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, lines = lint_lines(capsys)
    assert code == 1
    assert ("spec/sources/demo.yaml:27: schema: clauses[3].kind: 'varient' is not one of"
            " ['normative', 'variant', 'informative']") in lines


def test_not_a_spec_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spec", "lint", "--spec", str(tmp_path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == (f"uno-fsm spec lint: {tmp_path}: not a spec directory (no sources/ and "
                       "rules/ in it)\n")


def test_lint_through_a_subprocess(tmp_path: Path) -> None:
    broken_tree("python-tag", tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "uno_cli", "spec", "lint", "--spec", "spec"],
                          cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stdout.startswith("spec/rulings/deal.yaml:2: YAML error: tag "
                                  "'tag:yaml.org,2002:python/object/apply:os.system'")
    assert "1 problem(s)" in done.stderr


def test_real_spec_lints_clean(capsys: pytest.CaptureFixture[str]) -> None:
    """The acceptance test: the spec shipped in spec/ has no problem at all."""
    code = main(["spec", "lint"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.startswith("spec lint OK:")


def test_a_variant_declares_its_feature_and_parameters_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A variant's `feature` and `parameters` (its own declarations, spec/rulesets/) may not
    take a feature id or a parameter group someone else declared; a malformed one is a schema
    error at its line."""
    tree = tmp_path / "spec"
    shutil.copytree(FIXTURES / "good", tree)
    (tree / "features.yaml").write_text(
        "features:\n  - {id: basic-play, description: Matching.}\n", encoding="utf-8")
    big = tree / "rulesets" / "big-hand.yaml"
    big.write_text(big.read_text(encoding="utf-8") + (
        "feature: {id: basic-play, description: Big hands.}\n"
        "parameters:\n"
        "  hand_size: {type: object, description: again, properties: {}}\n"
        "  stacking: {type: object, description: again, properties: {}}\n"), encoding="utf-8")
    no = tree / "rulesets" / "no-stacking.yaml"
    no.write_text(no.read_text(encoding="utf-8") + "feature: {id: Not An Id}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, lines = lint_lines(capsys)
    assert code == 1
    assert lines == [
        "spec/rulesets/big-hand.yaml:8: variant big-hand: feature 'basic-play' is already "
        "declared by spec/features.yaml",
        "spec/rulesets/big-hand.yaml:10: variant big-hand: parameter group 'hand_size' is "
        "already declared by the ruleset schema",
        "spec/rulesets/no-stacking.yaml:9: schema: feature.id: 'Not An Id' does not match the "
        "expected form ^[a-z0-9]+(-[a-z0-9]+)*$",
        "spec/rulesets/no-stacking.yaml:9: schema: feature: 'description' is a required property",
        # the variants in id order: the second to declare a group is the one refused
        "spec/rulesets/stacking.yaml:9: variant stacking: parameter group 'stacking' is already "
        "declared by variant big-hand",
    ]
