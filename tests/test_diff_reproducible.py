"""`conformance diff --seed S --no-database` is reproducible (docs/differential.md, `--seed`):
two runs with the same seed, without shrinking (`--shrink-seconds 0`: shrinking is budgeted in
seconds), give the same report but for its timings, and Hypothesis gets the same target scores
(docs/differential.md "Steering"), whatever each process' string hash (PYTHONHASHSEED)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
MUTANT = ROOT / "tests" / "fixtures" / "mutant_serve.py"

# runs `conformance diff` with the arguments after the first two, writing the scores given to
# Hypothesis' target() to the first
DRIVER = """
import json, sys
import conformance.diff as D
from uno_cli.main import main
scores = []
real = D.target
def recording(value, label=""):
    scores.append(value.hex())
    return real(value, label=label)
D.target = recording
try:
    main(sys.argv[2:])
except SystemExit:
    pass
with open(sys.argv[1], "w") as f:
    json.dump(scores, f)
"""


def untimed(value: Any) -> Any:
    """A report without its timings (seconds, steps per second)."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items()
                if not (k.endswith("seconds") or k == "steps_per_second")}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def run(adapter: str, hashseed: int, tmp: Path) -> tuple[Any, list[str]]:
    out, scores = tmp / f"report-{hashseed}.json", tmp / f"scores-{hashseed}.json"
    args = ["conformance", "diff", "--adapter", adapter, "--seed", "1", "--no-database",
            "--examples", "50", "--shrink-seconds", "0", "--reduce-seconds", "120",
            "--format", "json", "-o", str(out)]
    env = {**os.environ, "PYTHONHASHSEED": str(hashseed)}
    subprocess.run([sys.executable, "-c", DRIVER, str(scores), *args], cwd=ROOT, env=env,
                   check=True, capture_output=True, timeout=600)
    return json.loads(out.read_text()), json.loads(scores.read_text())


@pytest.mark.parametrize("adapter", [
    "reference",
    f"stdio:{shlex.quote(sys.executable)} {shlex.quote(str(MUTANT))} draw-two",
], ids=["reference", "planted-bug"])
def test_the_same_seed_gives_the_same_report(adapter: str, tmp_path: Path) -> None:
    first, first_scores = run(adapter, 1, tmp_path)
    second, second_scores = run(adapter, 2, tmp_path)
    assert first_scores and first_scores == second_scores
    assert untimed(first) == untimed(second)
    if adapter != "reference":  # the planted bug is found, and found alike
        assert first["groups"] and all(g["reduction"]["finished"] for g in first["groups"])
