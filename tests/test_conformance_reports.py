"""Reports (JSON schema, JUnit, Markdown, console), `run`/`report` CLI and exit codes."""

from __future__ import annotations

import json
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from conformance import reports
from conformance.expectations import Entry, Expectations
from conformance.runner import Runner
from conformance.scenario import load_corpus
from uno_cli.main import main
from uno_spec.sitelinks import using

FIX = Path(__file__).parent / "fixtures" / "conformance"
sys.path.insert(0, str(FIX))

from tiny_engine import WrongAdapter  # noqa: E402

SCEN = FIX / "scenarios"
SCHEMA = json.loads((Path(__file__).resolve().parent.parent
                     / "conformance/schema/report.schema.json").read_text())


@pytest.fixture()
def wrong_report() -> dict:
    scs = load_corpus([SCEN / "tiny.yaml", SCEN / "unsupported.yaml"]).scenarios
    exp = Expectations("fake", [Entry("tiny.draw.*", "known", 1),
                                Entry("tiny.wild.*", "thought broken", 2)], "fake.yaml")
    return reports.to_json(Runner(WrongAdapter, adapter_name="module:x",
                                  expectations=exp).run(scs))


def test_json_report_matches_schema_and_counts(wrong_report: dict) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(wrong_report)
    assert list(wrong_report)[0] == "summary"
    assert wrong_report["summary"] == {"total": 8, "passed": 2, "failed": 1, "errored": 0,
                                       "unsupported": 3, "xfailed": 1, "xpassed": 1}
    assert reports.exit_code(wrong_report) == 1
    failed = next(r for r in wrong_report["results"] if r["status"] == "failed")
    assert failed["quotes"]["rules"][0]["id"] == "CL.PLAY.MATCH"
    assert failed["quotes"]["clauses"][0]["id"] == "classic-br:play:1"
    assert failed["quotes"]["clauses"][0]["text"]  # original text quoted
    passed = next(r for r in wrong_report["results"] if r["status"] == "passed")
    assert "quotes" not in passed


def test_junit_parses(wrong_report: dict) -> None:
    root = ET.fromstring(reports.render_junit(wrong_report))
    assert root.tag == "testsuites" and root.get("tests") == "8"
    assert root.get("failures") == "2" and root.get("skipped") == "4"
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert len(cases) == 8
    assert cases["tiny.play.reject-mismatch"].find("failure") is not None
    assert "CL.PLAY.MATCH" in (cases["tiny.play.reject-mismatch"].find("failure").text or "")
    assert cases["tiny.wild.colour"].find("failure").get("type") == "xpassed"
    assert cases["tiny.draw.passes"].find("skipped").get("message") == "xfail: known"
    assert {s.get("name") for s in root.iter("testsuite")} == {"classic-official", "flip"}


def test_markdown_and_console(wrong_report: dict) -> None:
    md = reports.render_markdown(wrong_report)
    assert md.startswith("# Conformance report: fake-wrong")
    assert "| 8 | 2 | 1 | 0 | 3 | 1 | 1 |" in md
    assert "### `tiny.play.reject-mismatch` (failed)" in md
    # each rule and clause links its place in the rulebook site (default: ./site/)
    site = (Path.cwd() / "site").as_uri()
    assert f"> **[classic-br:play:1]({site}/sources/classic-br.html#classic-br:play:1)**" in md
    assert f"rule [`CL.PLAY.MATCH`]({site}/rules/classic-play.html#CL.PLAY.MATCH)" in md
    text = reports.console_text(wrong_report)
    assert "FAILED tiny.play.reject-mismatch" in text and "UNEXPECTED RESULTS" in text
    assert "XPASSED tiny.wild.colour" in text
    with using("https://example.org/uno"):  # --site-url
        lines = reports.failure_lines(next(r for r in wrong_report["results"]
                                           if r["id"] == "tiny.play.reject-mismatch"))
    assert "      site: https://example.org/uno/rules/classic-play.html#CL.PLAY.MATCH" in lines
    assert ("      site: https://example.org/uno/sources/classic-br.html#classic-br:play:1"
            in lines)


@pytest.fixture()
def fake_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FIX))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(FIX), os.environ.get("PYTHONPATH",
                                                                                 "")]))


def run_cli(*args: str) -> int:
    return main(["conformance", *args])


def test_cli_run_exit_codes_and_formats(tmp_path: Path, fake_path: None,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    code = run_cli("run", str(SCEN / "tiny.yaml"), "--adapter", "module:tiny_engine:FakeAdapter",
                   "--format", "json", "--output", str(out), "--no-progress")
    assert code == 0
    data = json.loads(out.read_text())
    assert data["summary"]["passed"] == 5 and data["ok"]
    code = run_cli("run", str(SCEN / "tiny.yaml"), "--adapter",
                   "module:tiny_engine:WrongAdapter", "--format", "json", "--no-progress")
    assert code == 1
    stdout = capsys.readouterr().out
    assert json.loads(stdout)["summary"]["failed"] == 2
    # filters
    code = run_cli("run", str(SCEN / "tiny.yaml"), "--adapter",
                   "module:tiny_engine:WrongAdapter", "--id", "tiny.play.match-*",
                   "--format", "json", "--no-progress")
    assert code == 0
    assert json.loads(capsys.readouterr().out)["summary"]["total"] == 1
    # expectation file turns the failures into xfailed: exit 0
    exp = tmp_path / "exp.yaml"
    exp.write_text("implementation: fake-wrong\nfailures:\n"
                   "  - {id: tiny.play.reject-mismatch, reason: no matching}\n"
                   "  - {id: tiny.draw.passes, reason: draw keeps the turn}\n")
    code = run_cli("run", str(SCEN / "tiny.yaml"), "--adapter", "module:tiny_engine:WrongAdapter",
                   "--expectations", str(exp), "--format", "junit", "--no-progress")
    assert code == 0
    ET.fromstring(capsys.readouterr().out)
    # an xpass is unexpected: exit 1
    exp.write_text("failures:\n  - {id: tiny.play.match-colour, reason: wrong belief}\n")
    code = run_cli("run", str(SCEN / "tiny.yaml"), "--adapter", "module:tiny_engine:FakeAdapter",
                   "--expectations", str(exp), "--format", "markdown", "--no-progress")
    assert code == 1
    assert "(xpassed)" in capsys.readouterr().out


def test_cli_run_errored_stdio_exit_1(tmp_path: Path, fake_path: None) -> None:
    out = tmp_path / "r.json"
    code = run_cli("run", str(SCEN / "misbehave.yaml"), "--id", "bad.1-*", "--id", "bad.9-*",
                   "--adapter", f"stdio:{sys.executable} {FIX / 'fake_stdio.py'}",
                   "--format", "json", "-o", str(out), "--no-progress", "--timeout", "5")
    assert code == 1
    s = json.loads(out.read_text())["summary"]
    assert (s["total"], s["errored"], s["passed"]) == (2, 1, 1)


def test_cli_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: x\n")
    assert run_cli("run", str(bad), "--no-progress") == 2
    assert "bad.yaml:1:" in capsys.readouterr().err
    assert run_cli("run", str(SCEN / "tiny.yaml"), "--adapter", "bogus") == 2
    assert run_cli("report", "--from", str(bad)) == 2


def test_cli_report_rerenders(tmp_path: Path, wrong_report: dict,
                              capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "results.json"
    src.write_text(json.dumps(wrong_report))
    md = tmp_path / "out" / "rlcard.md"
    assert run_cli("report", "--from", str(src), "--format", "markdown", "-o", str(md)) == 0
    assert md.read_text() == reports.render_markdown(wrong_report)
    assert run_cli("report", "--from", str(src), "--format", "junit") == 0
    ET.fromstring(capsys.readouterr().out)
    assert run_cli("report", "--from", str(src), "--format", "json") == 0
    assert json.loads(capsys.readouterr().out) == wrong_report
