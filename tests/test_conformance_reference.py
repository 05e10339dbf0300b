"""The bundled corpus against the reference engine, in process and through the stdio path.

Both must agree scenario by scenario, and nothing may fail, error or xpass: every scenario the
reference engine declares support for passes (`unsupported` covers what it does not implement
yet, e.g. Flip while the engine's Flip support is being written).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import jsonschema
import pytest

from conformance import reports
from conformance.adapters import resolve
from conformance.runner import Runner
from conformance.scenario import load_corpus

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not (ROOT / "conformance/adapters/reference.py").is_file(),
                                reason="the reference adapter is not there yet")


@pytest.fixture(scope="module")
def corpus() -> list:
    loaded = load_corpus()
    assert not loaded.errors, "\n".join(map(str, loaded.errors))
    return loaded.scenarios


def _check(report: object) -> dict[str, str]:
    results = report.results  # type: ignore[attr-defined]
    bad = [f"{r.id}: {r.status}: {r.message}" for r in results
           if r.status in ("failed", "errored", "xpassed")]
    assert not bad, "\n".join(bad)
    return {r.id: r.status for r in results}


def test_reference_in_process_passes_everything_it_supports(corpus: list) -> None:
    spec = resolve("reference")
    report = Runner(spec.factory, adapter_name=spec.spec, timeout=30).run(corpus)
    data = reports.to_json(report)
    jsonschema.Draft202012Validator(json.loads(
        (ROOT / "conformance/schema/report.schema.json").read_text())).validate(data)
    statuses = _check(report)
    assert report.summary()["passed"] > 0
    assert set(statuses.values()) <= {"passed", "unsupported"}


def test_reference_through_stdio_agrees_with_in_process(corpus: list) -> None:
    command = shlex.join([sys.executable, "-m", "uno_cli", "conformance", "serve",
                          "--adapter", "reference"])
    spec = resolve(f"stdio:{command}", timeout=30)
    made = []

    def factory() -> object:
        made.append(spec.factory())
        return made[-1]

    stdio = _check(Runner(factory, adapter_name=spec.spec, timeout=30).run(corpus))
    ref = resolve("reference")
    in_process = _check(Runner(ref.factory, timeout=30).run(corpus))
    assert stdio == in_process
    assert len(made) == 1  # one server process for the whole corpus
