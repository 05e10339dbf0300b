"""The documentation's examples work: the minimal adapter program and the scenario example."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

from conformance.adapters.stdio import StdioAdapter
from conformance.runner import Runner
from conformance.scenario import load_corpus, parse_text

ROOT = Path(__file__).resolve().parent.parent
FIX = Path(__file__).parent / "fixtures" / "conformance"


def _blocks(doc: str, lang: str) -> list[str]:
    text = (ROOT / "docs" / doc).read_text()
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def test_minimal_adapter_program_in_the_docs_works(tmp_path: Path) -> None:
    [program] = [b for b in _blocks("adapter-protocol.md", "python") if "mini_uno" in b]
    path = tmp_path / "mini_uno.py"
    path.write_text(program)
    scenarios = load_corpus([FIX / "scenarios" / "tiny.yaml"]).scenarios
    report = Runner(lambda: StdioAdapter([sys.executable, str(path)], timeout=10)).run(scenarios)
    st = {r.id: r.status for r in report.results}
    assert st["tiny.play.reject-mismatch"] == "passed"
    assert st["tiny.turn.not-your-turn"] == "passed"
    assert set(st.values()) == {"passed", "unsupported"}, report.results


def test_scenario_example_in_the_docs_validates() -> None:
    example = _blocks("scenario-format.md", "yaml")[0].replace("  - id: ...\n", "")
    assert yaml.safe_load(example)["scenarios"]
    [sc] = parse_text(example, "scenario-format.md")
    assert sc.steps[2].error == "not-challengeable"  # only the victim may challenge
