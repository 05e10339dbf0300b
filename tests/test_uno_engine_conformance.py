"""uno-engine (npm) verified with the conformance suite through its Node stdio adapter.

The run must match conformance/expectations/uno-engine.yaml exactly: a failure not listed, an
error, a listed failure that now passes or a stale entry fails this test; so does a published
report (docs/compliance/data/uno-engine.json) that no longer matches the run. After the corpus or
the adapter changed, regenerate both with the commands of conformance/implementations/
uno-engine.yaml and check every new failure against uno-engine's code.
"""

from __future__ import annotations

import json
import shlex

import pytest
from uno_engine_helpers import ADAPTER, ROOT, node

from conformance import expectations as exp
from conformance.adapters import resolve
from conformance.runner import UNEXPECTED, Runner, RunReport
from conformance.scenario import load_corpus

EXPECTATIONS = exp.EXPECTATIONS_DIR / "uno-engine.yaml"
REPORT = ROOT / "docs" / "compliance" / "data" / "uno-engine.json"
BUNDLE = "dist/uno-engine.cjs.js"


@pytest.fixture(scope="module")
def run() -> RunReport:
    corpus = load_corpus(None)
    assert not corpus.errors, [str(e) for e in corpus.errors]
    spec = resolve(f"stdio:{shlex.quote(node())} {shlex.quote(str(ADAPTER))}", timeout=30.0)
    runner = Runner(spec.factory, adapter_name=spec.spec, timeout=30.0,
                    expectations=exp.load(EXPECTATIONS))
    return runner.run(corpus.scenarios)


def test_uno_engine_result_matches_the_expectation_file(run: RunReport) -> None:
    unexpected = [f"{r.id}: {r.status}: {r.message}" for r in run.results
                  if r.status in UNEXPECTED]
    assert not unexpected, "\n".join(unexpected)
    assert not run.warnings, run.warnings
    assert (run.implementation["name"], run.implementation["version"]) == ("uno-engine", "2.0.3")
    summary = run.summary()
    assert summary["passed"] > 0 and summary["xfailed"] == len(exp.load(EXPECTATIONS).entries)


def test_every_known_failure_names_uno_engines_code() -> None:
    entries = exp.load(EXPECTATIONS).entries
    assert entries, "uno-engine is known to deviate: the expectation file cannot be empty"
    for e in entries:
        assert e.reason.startswith(f"{BUNDLE} "), e
        assert "adapter artefact" not in e.reason and "not yet checked" not in e.reason, e


def test_the_published_report_is_this_run(run: RunReport) -> None:
    published = json.loads(REPORT.read_text(encoding="utf-8"))
    assert published["implementation"]["name"] == "uno-engine"
    assert {r["id"]: r["outcome"] for r in published["results"]} == {
        r.id: r.outcome for r in run.results}
