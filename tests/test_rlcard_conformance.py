"""RLCard verified with the conformance suite: the result must match its expectation file.

Any unexpected result (a failure not listed in conformance/expectations/rlcard.yaml, an error,
a listed failure that now passes, a stale entry) fails this test. After the corpus changed,
regenerate the expectation file and the report (docs/compliance/rlcard.md says how) and review
the diff: every new failure must be checked against RLCard's code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("rlcard", reason="RLCard is not installed (pip install '.[rlcard]')")

from conformance import compliance, knowledge, reports  # noqa: E402
from conformance import expectations as exp  # noqa: E402
from conformance.adapters import resolve  # noqa: E402
from conformance.runner import UNEXPECTED, Runner, RunReport  # noqa: E402
from conformance.scenario import load_corpus  # noqa: E402

EXPECTATIONS = exp.EXPECTATIONS_DIR / "rlcard.yaml"
RLCARD = knowledge.get("rlcard")


@pytest.fixture(scope="module")
def run() -> RunReport:
    corpus = load_corpus(None)
    assert not corpus.errors, [str(e) for e in corpus.errors]
    spec = resolve("rlcard")
    runner = Runner(spec.factory, adapter_name=spec.spec, timeout=30.0,
                    expectations=exp.load(EXPECTATIONS))
    return runner.run(corpus.scenarios)


def test_rlcard_result_matches_the_expectation_file(run: RunReport) -> None:
    unexpected = [f"{r.id}: {r.status}: {r.message}" for r in run.results
                  if r.status in UNEXPECTED]
    assert not unexpected, "\n".join(unexpected)
    assert not run.warnings, run.warnings
    assert run.implementation["name"] == "RLCard UNO"


# Failures whose signature (what differs, the rule broken: conformance.blame) matches no
# deviation of conformance/implementations/rlcard.yaml. None since the reference's events name
# a draw stopped short (CL.RESHUFFLE.BOTH-EMPTY), a top card reshuffled into the pile
# (CL.RESHUFFLE.KEEP-TOP) and a pile refilled at another moment (CL.RESHUFFLE.WHEN): the three
# reshuffle failures left before are the reshuffle deviation's. A new failure that is not
# explained fails.
UNCLASSIFIED: set[str] = set()


def test_every_known_failure_names_rlcards_code(run: RunReport) -> None:
    entries = exp.load(EXPECTATIONS).entries
    assert entries, "RLCard is known to deviate: the expectation file cannot be empty"
    for e in entries:  # an unclassified failure keeps the reason written for it before
        assert "round.py" in e.reason, e
        assert "UNCLASSIFIED" not in e.reason, e


def test_every_failure_is_explained_and_the_report_renders(run: RunReport,
                                                           tmp_path: Path) -> None:
    data: dict[str, Any] = reports.to_json(run)
    failing = [r for r in data["results"] if compliance.outcome(r) in compliance.FAIL]
    assert failing
    assert {r["id"] for r in failing if compliance.attribute(r, RLCARD) is None} == UNCLASSIFIED
    text = compliance.render_markdown(data, RLCARD)
    assert "## Per rule area" in text and "| classic-draw |" in text
    assert "UnoRound._perform_draw_action" in text
    assert f", {len(UNCLASSIFIED)} unclassified." in text
    # the expectation file is what the generator writes from this run (keeping the reasons
    # written before for the failures it cannot classify, as `compliance` does)
    previous = compliance._previous_reasons(EXPECTATIONS)
    assert compliance.expectations_text(data, RLCARD, previous) == \
        EXPECTATIONS.read_text(encoding="utf-8")


def test_the_compliance_command(run: RunReport, tmp_path: Path) -> None:
    from uno_cli.main import main

    source = tmp_path / "rlcard.json"
    source.write_text(reports.render(reports.to_json(run), "json"), encoding="utf-8")
    out, written = tmp_path / "rlcard.md", tmp_path / "rlcard.yaml"
    code = main(["conformance", "compliance", "--from", str(source), "--output", str(out),
                 "--write-expectations", str(written)])  # the implementation: by its adapter
    assert code == 0
    assert out.read_text(encoding="utf-8").startswith("# Compliance report: RLCard UNO")
    assert exp.load(written).implementation == "rlcard"
