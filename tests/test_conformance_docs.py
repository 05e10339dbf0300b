"""The documentation's examples work: the minimal adapter program and the scenario example."""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

import pytest
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
    example = _blocks("scenario-format.md", "yaml")[0]
    assert yaml.safe_load(example)["scenarios"]
    [sc] = parse_text(example, "scenario-format.md")
    assert sc.steps[2].error == "not-challengeable"  # only the victim may challenge


def _whole_scenarios(doc: str) -> list[str]:
    """The YAML blocks of `doc` that are whole scenarios (a list of them, or under
    `scenarios:`), as a file holds them; not fragments (a block with a `...` line is one)."""
    whole = []
    for block in _blocks(doc, "yaml"):
        if any(line.strip() == "..." for line in block.splitlines()):
            continue
        data = yaml.safe_load(block)
        items = data.get("scenarios") if isinstance(data, dict) else data
        if not isinstance(items, list):
            continue
        if all(isinstance(i, dict) and "id" in i and "title" in i for i in items):
            # a list shown alone is what a file holds under `scenarios:`
            whole.append(block if isinstance(data, dict)
                         else "scenarios:\n" + textwrap.indent(block, "  "))
    return whole


def test_every_whole_scenario_in_the_docs_lints_and_passes(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    """A scenario shown whole in docs/scenario-format.md is one a reader may copy: it cites
    clauses that exist, declares the features it uses (`conformance lint`, exit 0) and passes
    on the reference engine (`conformance run`, exit 0)."""
    from uno_cli.main import main

    blocks = _whole_scenarios("scenario-format.md")
    assert len(blocks) >= 3  # the first example, the refused set-up, the match
    for i, block in enumerate(blocks):
        path = tmp_path / f"example-{i}.yaml"
        path.write_text(block, encoding="utf-8")
        assert main(["conformance", "lint", str(path)]) == 0, capsys.readouterr()
        assert main(["conformance", "run", str(path), "--no-progress", "-q"]) == 0, \
            capsys.readouterr()


def test_every_pytest_plugin_option_is_in_the_docs_table() -> None:
    plugin = (ROOT / "conformance" / "pytest_plugin.py").read_text(encoding="utf-8")
    options = re.findall(r'addoption\("(--uno-[a-z-]+)"', plugin)
    table = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    assert len(options) >= 6
    assert [o for o in options if not re.search(rf"^\| `{o}[ `]", table, flags=re.M)] == []
