"""`uno-fsm conformance features | errors | rulesets`, and the implementer docs built from them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conformance import specdata
from conformance.features import required
from conformance.registries import docs_sections, fill_docs
from conformance.scenario import load_corpus
from uno_cli.main import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TINY = Path(__file__).parent / "fixtures" / "conformance" / "scenarios" / "tiny.yaml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["conformance", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_features_lists_every_feature_with_its_count(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "features", "--format", "json")
    assert (code, err) == (0, "")
    rows = json.loads(out)
    assert [r["id"] for r in rows] == list(specdata.features())
    corpus = load_corpus().scenarios
    for row in rows:
        assert row["scenarios"] == sum(row["id"] in required(sc) for sc in corpus), row["id"]
        assert row["description"] and row["needed_by"] != "(no definition)"
    by_id = {r["id"]: r for r in rows}
    assert by_id["desafio"]["scenarios"] >= 17 and by_id["basic-play"]["scenarios"] > 600


def test_features_text_and_counts_of_given_paths(capsys: pytest.CaptureFixture[str]) -> None:
    scenarios = load_corpus([TINY]).scenarios
    code, out, _ = run(capsys, "features", str(TINY))
    assert code == 0
    blocks = dict(re.findall(r"^(\S+)\n(?:    .*\n)*?    scenarios: (\d+)$", out, re.M))
    assert set(blocks) == set(specdata.features())
    assert {f: int(n) for f, n in blocks.items() if n != "0"} == {
        f: sum(f in required(sc) for sc in scenarios) for f in specdata.features()
        if any(f in required(sc) for sc in scenarios)}
    assert "    needed by: a `catch` action\n" in out


def test_features_markdown_is_the_docs_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "features", "--format", "markdown")
    assert code == 0 and out == docs_sections()["features"]
    assert out.count("\n") == len(specdata.features()) + 2  # header, rule, one row each


def test_errors_lists_every_code(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "errors", "--format", "json")
    assert (code, err) == (0, "")
    assert {r["id"]: r["description"] for r in json.loads(out)} == specdata.error_codes()
    code, text, _ = run(capsys, "errors")
    assert code == 0 and "not-challengeable\n    when it applies: " in text


def test_rulesets_lists_bases_and_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rulesets", "--format", "json")
    assert (code, err) == (0, "")
    rows = {r["id"]: r for r in json.loads(out)}
    assert set(rows) == specdata.rulesets()
    assert rows["classic-official"]["kind"] == "base" and rows["stacking"]["kind"] == "variant"
    assert rows["stacking"]["applies_to"] == ["classic-official", "classic-2022", "classic-guide"]
    assert rows["desafio"]["rules"] == 7 and rows["desafio"]["scenarios"] == sum(
        "desafio" in sc.ruleset.split("+") for sc in load_corpus().scenarios)
    corpus = load_corpus().scenarios
    assert rows["flip"]["scenarios"] == sum(sc.ruleset.split("+")[0] == "flip" for sc in corpus)
    code, md, _ = run(capsys, "rulesets", "--format", "markdown")
    assert code == 0 and md.startswith("| Ruleset | Kind | Title |")
    assert md.count("\n") == len(rows) + 2


@pytest.mark.parametrize("command", ["features", "rulesets"])
def test_a_missing_path_is_one_line_and_exit_2(command: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere"
    code, out, err = run(capsys, command, str(missing))
    assert (code, out) == (2, "")
    assert err == f"uno-fsm conformance {command}: {missing}: no such file or directory\n"


@pytest.mark.parametrize("command", ["features", "rulesets"])
def test_a_bad_scenario_file_is_one_line_and_exit_2(command: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("scenarios: 5\n")
    code, out, err = run(capsys, command, str(bad))
    assert (code, out) == (2, "")
    assert err == (f"uno-fsm conformance {command}: {bad}:1: `scenarios` must be a non-empty "
                   "list of scenarios (1 scenario file error(s))\n")


@pytest.mark.parametrize(("argv", "start"), [
    (["errors", "--format", "xml"],
     "uno-fsm conformance errors: argument --format: invalid choice"),
    (["features", "--format", "csv"],
     "uno-fsm conformance features: argument --format: invalid choice"),
    (["rulesets", "--bogus"], "uno-fsm conformance rulesets: unrecognized arguments: --bogus"),
    (["errors", "extra-argument"],
     "uno-fsm conformance errors: unrecognized arguments: extra-argument"),
])
def test_bad_options_exit_2(argv: list[str], start: str,
                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(start) and err.count("\n") == 1, err


# --- docs ----------------------------------------------------------------------------------

IMPLEMENTERS = DOCS / "implementers.md"


def test_implementers_tables_are_generated_from_spec() -> None:
    text = IMPLEMENTERS.read_text(encoding="utf-8")
    assert fill_docs(text) == text, ("docs/implementers.md is stale: python -c \"from "
                                     "conformance.registries import write_docs; write_docs()\"")


def test_every_error_code_and_feature_is_in_the_docs() -> None:
    text = IMPLEMENTERS.read_text(encoding="utf-8")
    for code, description in specdata.error_codes().items():
        assert f"| `{code}` | {description} |" in text, code
    for feature in specdata.features():
        assert f"| `{feature}` |" in text, feature


def test_implementers_page_is_linked() -> None:
    assert "docs/implementers.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(implementers.md)" in (DOCS / "adapter-protocol.md").read_text(encoding="utf-8")


def test_the_scenario_format_example_matches_the_corpus() -> None:
    # a third player's challenge is refused `not-challengeable` (CL.WD4.CHALLENGE.WHO), as the
    # corpus scenario of the same situation expects
    text = (DOCS / "scenario-format.md").read_text(encoding="utf-8")
    example = re.search(r"- act: \{player: 2, challenge: true\}.*\n\s+error: (\S+)", text)
    assert example and example.group(1) == "not-challengeable"
    (sc,) = [s for s in load_corpus().scenarios
             if s.id == "classic.wd4-challenge.wrong-player.third-seat"]
    errors = [st.error for st in sc.steps if st.act and st.act.get("challenge")]
    assert errors[0] == example.group(1)
