"""`conformance diff --seed S --no-database` is reproducible (docs/differential.md, `--seed`):
two runs with the same seed, without shrinking (`--shrink-seconds 0`: shrinking is budgeted in
seconds), give the same report but for its timings, and Hypothesis gets the same target scores
(docs/differential.md "Steering"), whatever each process' string hash (PYTHONHASHSEED) and
whatever else it imported before; and an implementation in process and over stdio (where its
program pipelines) plays the same run."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ci_helpers import unavailable

ROOT = Path(__file__).resolve().parent.parent
MUTANT = ROOT / "tests" / "fixtures" / "mutant_serve.py"

# argv: the report's file, the target scores' file, the modules to import first, the
# implementation (an --adapter spec) and the Differ's options (JSON); the seed is 1, no
# shrinking, and a reduction budget that every reduction here finishes within
DRIVER = """
import importlib, json, sys
for name in filter(None, sys.argv[3].split(",")):
    importlib.import_module(name)
import conformance.diff as D
from conformance.adapters import resolve
from conformance.diff_cli import to_json
scores = []
real = D.target
def recording(value, label=""):
    scores.append(value.hex())
    return real(value, label=label)
D.target = recording
options = json.loads(sys.argv[5])
options["players"] = tuple(options["players"])
oracle = resolve("reference-oracle", isolate=False).factory
impl = resolve(sys.argv[4], isolate=False).factory
report = D.Differ(oracle, impl, shrink_seconds=0, reduce_seconds=120, **options
                  ).run(examples=50, seed=1)
with open(sys.argv[1], "w") as f:
    json.dump(to_json(report, 1), f)
with open(sys.argv[2], "w") as f:
    json.dump(scores, f)
"""
# modules a run imports only once under way (the engine, behind the oracle's first set-up;
# the reducer) and others: Hypothesis draws some values from the literals of the local modules
# the process has imported so far
OTHERS = "uno_fsm.modelcheck.run,uno_fsm.oracle,conformance.reduce,tests.test_diff"


def untimed(value: Any) -> Any:
    """A report without its timings (seconds, steps per second)."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items()
                if not (k.endswith("seconds") or k == "steps_per_second")}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def run(adapter: str, options: dict[str, Any], hashseed: int, tmp: Path, imported: str = ""
        ) -> tuple[Any, list[str]]:
    out, scores = tmp / f"report-{hashseed}.json", tmp / f"scores-{hashseed}.json"
    env = {**os.environ, "PYTHONHASHSEED": str(hashseed)}
    subprocess.run([sys.executable, "-c", DRIVER, str(out), str(scores), imported, adapter,
                    json.dumps(options)], cwd=ROOT, env=env, check=True, capture_output=True,
                   timeout=600)
    return json.loads(out.read_text()), json.loads(scores.read_text())


@pytest.mark.parametrize(("adapter", "options"), [
    ("reference", {"players": [2, 8]}),
    # the options of tests/test_diff.py's search for this planted bug
    (f"stdio:{shlex.quote(sys.executable)} {shlex.quote(str(MUTANT))} reshuffle",
     {"players": [10, 10], "max_prefix": 150, "max_steps": 20}),
], ids=["reference", "planted-bug"])
def test_the_same_seed_gives_the_same_report(adapter: str, options: dict[str, Any],
                                             tmp_path: Path) -> None:
    first, first_scores = run(adapter, options, 1, tmp_path)
    second, second_scores = run(adapter, options, 2, tmp_path, imported=OTHERS)
    assert first_scores and first_scores == second_scores
    assert untimed(first) == untimed(second)
    if adapter != "reference":  # the planted bug is found, and found alike
        assert first["groups"] and all(g["reduction"]["finished"] for g in first["groups"])


def test_rlcard_in_process_and_over_stdio_plays_the_same_run() -> None:
    """The same seed against RLCard in process and over stdio, where its program pipelines (a
    step's act and observation in one write, a resync's set-up with the next act): the same
    examples, steps, resyncs and groups with their counts. (A resync once pipelined an act
    chosen against the position before it, which the program carried out and the step then
    replaced: over stdio 852 resyncs and 19 groups, one of them an error code that RLCard
    gave only because of that act, against 850 and 18 in process.)"""
    try:
        import rlcard  # noqa: F401
    except ImportError:
        unavailable("rlcard is not installed", "pip install -e '.[rlcard]'")
    from conformance.adapters import resolve
    from conformance.diff import Differ

    serve = f"{shlex.quote(sys.executable)} -m uno_cli conformance serve --adapter rlcard"
    runs = []
    for make in (resolve("rlcard", isolate=False).factory, resolve(f"stdio:{serve}").factory):
        report = Differ(resolve("reference-oracle").factory, make, shrink_seconds=0,
                        confirm_runs=0).run(examples=200, seed=1)
        s = report.stats
        runs.append(((s.examples, s.steps, s.illegal, s.resyncs, s.shuffles, s.resumed,
                      s.advanced, s.unsupported, s.out_of_scope),
                     sorted((d.signature.describe(), n) for d, n in report.groups)))
    assert runs[0][1] and runs[0][0][3] > 100  # (divergences and resyncs to compare)
    assert runs[0] == runs[1]
