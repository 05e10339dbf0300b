"""Every verified third-party implementation against the corpus, with its expectation file.

conformance/implementations/<name>.yaml names each one's adapter and expectation file. A
failure not listed, an error, a listed failure that now passes or a stale entry fails the test:
after the corpus or the implementation changed, regenerate its page and expectation file
(`uno-fsm conformance compliance --implementation NAME --run`) and review the diff. An
implementation that is not installed here is skipped with the command that installs it
(`.ci/run` installs them all).
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from ci_helpers import unavailable

from conformance import expectations as exp
from conformance import knowledge
from conformance.adapters import resolve
from conformance.runner import UNEXPECTED, Runner
from conformance.scenario import load_corpus

ROOT = Path(__file__).resolve().parent.parent
VERIFIED = [i for i in knowledge.load_all() if not i.no_engine]


def _missing(impl: knowledge.Implementation) -> str | None:
    """Why the implementation cannot run here (None: it can)."""
    spec = impl.adapter["spec"]
    if impl.package["registry"] == "npm":
        if shutil.which("node") is None:
            return "node is not installed"
        where = ROOT / Path(impl.adapter["file"]).parent
        found = subprocess.run(["node", "-e", f"require.resolve({impl.package['name']!r})"],
                               cwd=where, capture_output=True, check=False)
        if found.returncode != 0:
            return f"{impl.package['name']} is not installed in {where.relative_to(ROOT)}"
    if spec.startswith("stdio:"):
        program = shlex.split(spec[len("stdio:"):])[0]
        if "/" in program and not (ROOT / program).exists():
            return f"{program} is missing"
        return None
    module = impl.package.get("module", impl.package["name"]).split(".")[0]
    if impl.package["registry"] == "pypi" and importlib.util.find_spec(module) is None:
        return f"{impl.package['name']} is not installed"
    return None


@pytest.fixture(scope="module")
def corpus() -> list[object]:
    loaded = load_corpus(None)
    assert not loaded.errors, [str(e) for e in loaded.errors]
    return list(loaded.scenarios)


@pytest.mark.parametrize("impl", VERIFIED, ids=[i.name for i in VERIFIED])
def test_result_matches_the_expectation_file(impl: knowledge.Implementation, corpus: list[object],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    if (why := _missing(impl)) is not None:
        unavailable(why, "; ".join(impl.commands["setup"]))  # .ci/run installs them all
    monkeypatch.chdir(ROOT)  # adapter commands are relative to the repository
    spec = resolve(impl.adapter["spec"], timeout=5.0)
    expectations = exp.load(ROOT / impl.expectations)
    assert expectations.implementation == impl.name
    run = Runner(spec.factory, adapter_name=spec.spec, timeout=5.0,
                 expectations=expectations).run(corpus)  # type: ignore[arg-type]
    unexpected = [f"{r.id}: {r.status}: {r.message}" for r in run.results
                  if r.status in UNEXPECTED]
    assert not unexpected, "\n".join(unexpected)
    assert not run.warnings, run.warnings
    assert run.implementation["name"] == impl.title
    assert run.implementation["version"] == impl.package["version"]
    # the published run (docs/compliance/data/<name>.json, from which its page and the matrix
    # are rendered) is this run: regenerate it when the corpus or the adapter changed
    published = json.loads((ROOT / impl.report).read_text(encoding="utf-8"))
    assert {r["id"]: r["outcome"] for r in published["results"]} == {
        r.id: r.outcome for r in run.results}, \
        f"stale {impl.report}: uno-fsm conformance compliance --implementation {impl.name} --run"
