"""`conformance lint`: schema, ids, citations, features, coverage; and the layering rule."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.lint import lint
from uno_cli.main import main
from uno_spec.rulesets import list_rulesets

ROOT = Path(__file__).resolve().parent.parent
SCEN = Path(__file__).parent / "fixtures" / "conformance" / "scenarios"

BAD = """\
scenarios:
  - id: lint.bad.refs
    title: cites things that do not exist
    ruleset: classic-official
    cites: [classic-br:nowhere:99]
    rules: [CL.NO.SUCH.RULE]
    features: [no-such-feature]
    setup:
      players: 2
      dealer: 1
      current: 0
      hands: {0: [R7], 1: [Y3]}
      discard: [R5]
      draw: []
    steps:
      - act: {player: 0, play: R7}
        error: no-such-code
"""


def test_lint_reports_unknown_references(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(BAD)
    res = lint([tmp_path])
    text = "\n".join(res.errors)
    assert "bad.yaml:5: scenario lint.bad.refs: cited clause classic-br:nowhere:99" in text
    assert "bad.yaml:6: scenario lint.bad.refs: rule CL.NO.SUCH.RULE" in text
    assert "feature no-such-feature" in text
    assert "bad.yaml:16: scenario lint.bad.refs: step 1: error code no-such-code" in text
    assert not res.ok()


def test_lint_unknown_variant_is_a_load_error(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(BAD.replace("ruleset: classic-official",
                                                   "ruleset: classic-official+no-such-variant"))
    res = lint([tmp_path])
    assert len(res.errors) == 1
    # what is refused and why: the variant named, where; the variants it could have been are
    # those of spec/rulesets (listed, not spelled out here)
    head, _, known = res.errors[0].partition(" (known: ")
    assert head.endswith("bad.yaml:4: scenario lint.bad.refs: ruleset: unknown variant "
                         "'no-such-variant'")
    assert known.rstrip(")").split(", ") == list_rulesets("variant")


def test_lint_duplicates_and_schema_errors(tmp_path: Path) -> None:
    good = (SCEN / "tiny.yaml").read_text()
    (tmp_path / "a.yaml").write_text(good)
    (tmp_path / "b.yaml").write_text(good)
    (tmp_path / "c.yaml").write_text("id: x.y\ntitle: t\n")
    res = lint([tmp_path])
    assert any("duplicate scenario id" in e for e in res.errors)
    assert any(e.startswith("c.yaml:1:") or "/c.yaml:1:" in e for e in res.errors)


def test_coverage_warnings_and_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    res = lint([SCEN / "tiny.yaml"])
    # fixture rules exist or not: only the coverage list is checked here
    assert res.uncovered and res.edges_missing
    assert all(w.endswith(("has no scenario", "on the reference engine")) for w in res.warnings)
    assert "CL.PLAY.MATCH" not in res.uncovered
    only_coverage = [e for e in res.errors if "does not exist" not in e]
    assert not only_coverage or res.errors
    code = main(["conformance", "lint", str(SCEN / "tiny.yaml"), "--format", "json",
                 "--coverage"])
    data = json.loads(capsys.readouterr().out)
    assert data["uncovered"] == res.uncovered
    strict = main(["conformance", "lint", str(SCEN / "tiny.yaml"), "--strict"])
    assert strict == (2 if res.errors else 1)  # file errors (2) come before coverage (1)
    assert code == (0 if not res.errors else 2)


def test_own_corpus_lints_without_the_bundled_coverage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.yaml").write_text(BAD)
    assert main(["conformance", "lint", str(tmp_path)]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": scenario")[0] for line in lines[:-1]] == [
        f"error: {tmp_path}/bad.yaml:{n}" for n in (5, 6, 7, 16)]
    assert lines[-1] == "1 scenario, 4 error(s), rule coverage not checked (--coverage)"
    assert main(["conformance", "lint", str(tmp_path), "--format", "json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert (data["warnings"], data["uncovered"], data["coverage"]) == ([], None, None)
    # asked for: every rule of spec/ without a scenario, after the errors
    assert main(["conformance", "lint", str(tmp_path), "--coverage"]) == 2
    lines = capsys.readouterr().out.splitlines()
    kinds = [line.split(":")[0] for line in lines[:-1]]
    assert kinds == ["error"] * 4 + ["warning"] * (len(lines) - 5) and len(lines) > 100
    assert "rule(s) without a scenario (per ruleset" in lines[-1]
    # a clean corpus of one's own: exit 0 without coverage; --strict implies the coverage check
    (tmp_path / "bad.yaml").write_text(
        BAD.replace("classic-br:nowhere:99", "classic-br:play:1")
        .replace("CL.NO.SUCH.RULE", "CL.PLAY.MATCH")
        .replace("[no-such-feature]", "[basic-play, two-player]")
        .replace("        error: no-such-code\n", ""))
    assert main(["conformance", "lint", str(tmp_path)]) == 0
    assert capsys.readouterr().out == ("1 scenario, 0 error(s), rule coverage not checked "
                                       "(--coverage)\n")
    assert main(["conformance", "lint", str(tmp_path), "--strict"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert not [line for line in lines if line.startswith("error: rule CL.PLAY.MATCH ")]
    assert "error: rule CL.WD4.CHALLENGE.GUILTY (classic-2022, classic-guide, classic-official) " \
        "has no " \
        "scenario" in lines
    assert lint([tmp_path], coverage=False).uncovered == []


def test_bundled_corpus_lints_without_errors() -> None:
    res = lint()
    assert not res.errors, "\n".join(res.errors)


CORPUS = ROOT / "conformance" / "corpus"
JUMP_IN_EDGES = ["play --jump_in [jumper_goes_out]--> round_over",
                 "play --jump_in [needs_swap]--> swap", "play --jump_in--> play"]


def test_bundled_corpus_exercises_every_reachable_phase_edge(
        capsys: pytest.CaptureFixture[str]) -> None:
    from uno_fsm import modelcheck

    every = [label for label, _ in modelcheck.all_edges()]
    res = lint()
    assert res.edges_missing == []
    assert res.edges_unreachable == sorted(e for e in modelcheck.UNREACHABLE if e in every)
    assert res.edges_reachable == len(every) - len(res.edges_unreachable) > 30
    assert main(["conformance", "lint", "--format", "json"]) == 0
    edges = json.loads(capsys.readouterr().out)["edges"]
    assert (edges["reachable"], edges["exercised"], edges["missing"]) == (
        res.edges_reachable, res.edges_reachable, [])


def test_a_phase_edge_no_scenario_traverses_is_reported(
        capsys: pytest.CaptureFixture[str]) -> None:
    # the corpus without its Jump-In scenarios: exactly the jump_in edges are missing
    paths = [str(p) for p in sorted(CORPUS.rglob("*.yaml")) if p.name != "jump-in.yaml"]
    res = lint([Path(p) for p in paths])
    assert not res.errors, res.errors
    assert sorted(res.edges_missing) == JUMP_IN_EDGES
    assert res.ok() and not res.ok(strict=True)
    assert main(["conformance", "lint", *paths, "--coverage"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines[:-1] if "phase edge" in line] == [
        f"warning: phase edge {e} is not exercised by any scenario on the reference engine"
        for e in res.edges_missing]
    n = res.edges_reachable
    assert lines[-1].endswith(f"; phase edges exercised on the reference engine: {n - 3}/{n} "
                              f"reachable (not counted: {len(res.edges_unreachable)} that no "
                              "shipped ruleset reaches, uno-fsm check)")
    assert main(["conformance", "lint", *paths, "--strict"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "error: phase edge play --jump_in [needs_swap]--> swap is not exercised by any " \
        "scenario on the reference engine" in lines


def test_unreachable_edges_are_not_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    from uno_fsm import modelcheck

    # the catch window is never open while a first Wild's colour is pending: no scenario takes it
    edge = "choose_color --catch--> choose_color"
    assert edge in modelcheck.UNREACHABLE
    before = lint([CORPUS / "classic" / "wd4.yaml"])
    monkeypatch.setattr(modelcheck, "UNREACHABLE",
                        {e: why for e, why in modelcheck.UNREACHABLE.items() if e != edge})
    after = lint([CORPUS / "classic" / "wd4.yaml"])
    assert edge not in before.edges_missing and edge in before.edges_unreachable
    assert edge in after.edges_missing and edge not in after.edges_unreachable
    assert after.edges_reachable == before.edges_reachable + 1


RUNNER_SIDE = ["scenario.py", "features.py", "registries.py", "protocol.py", "runner.py",
               "compare.py", "reports.py", "expectations.py", "serve.py", "lint.py", "cli.py",
               "specdata.py",
               "adapters/__init__.py", "adapters/stdio.py", "adapters/module.py"]


@pytest.mark.parametrize("name", RUNNER_SIDE)
def test_runner_side_never_imports_the_engine(name: str) -> None:
    tree = ast.parse((ROOT / "conformance" / name).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not any(a.name.split(".")[0] == "uno_fsm" for a in node.names), name
        if isinstance(node, ast.ImportFrom):
            assert (node.module or "").split(".")[0] != "uno_fsm", name


def test_importing_the_runner_does_not_load_the_engine() -> None:
    code = ("import sys, conformance.runner, conformance.reports, conformance.lint, "
            "conformance.features, conformance.registries, "
            "conformance.serve, conformance.cli, conformance.adapters.stdio; "
            "print('uno_fsm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
