"""Imports point down only (docs/design: spec/ -> uno_spec -> uno_fsm and conformance ->
uno_cli; conformance imports the engine only in conformance/adapters/) and no module imports
itself back through others: the import-linter contracts of pyproject.toml
(`[tool.importlinter]`), run here with the `lint-imports` command of import-linter."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"


def _lint(cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([LINT, "--no-cache", "--no-logo"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def _contracts() -> str:
    """The `[tool.importlinter]` tables of pyproject.toml, as written there."""
    text = (ROOT / "pyproject.toml").read_text()
    return text[text.index("\n[tool.importlinter]\n"):]


def test_imports_point_down_and_never_cycle() -> None:
    run = _lint(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    kept = re.findall(r"^(.*) KEPT", run.stdout, re.M)
    assert len(kept) == 5, run.stdout  # every contract was checked


def test_the_contracts_catch_an_upward_import_and_a_cycle(tmp_path: Path) -> None:
    """The same contracts on four small packages with an upward import (the engine importing
    `uno_cli`) and a cycle (two engine modules importing each other): both are reported."""
    for pkg in ("uno_spec", "uno_fsm", "conformance", "uno_cli"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").write_text("")
    (tmp_path / "uno_fsm" / "cli.py").write_text("import uno_cli.options\n")
    (tmp_path / "uno_cli" / "options.py").write_text("")
    adapters = tmp_path / "conformance" / "adapters"  # the one place that knows the engine
    adapters.mkdir()
    (adapters / "__init__.py").write_text("")
    (adapters / "ref.py").write_text("import uno_fsm\nimport uno_fsm.a\n")
    (tmp_path / "uno_fsm" / "a.py").write_text("from uno_fsm import b\n")
    (tmp_path / "uno_fsm" / "b.py").write_text("def f() -> None:\n    from uno_fsm import a\n")
    (tmp_path / "pyproject.toml").write_text(_contracts())
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = _lint(tmp_path, env)
    assert run.returncode == 1, run.stdout + run.stderr
    broken = re.findall(r"^(.*) BROKEN", run.stdout, re.M)
    assert broken == ["uno_cli composes the packages' commands: nothing below imports it",
                      "no import cycle between the modules of a package"], run.stdout
    assert "uno_fsm.cli -> uno_cli.options" in run.stdout
