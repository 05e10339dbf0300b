"""Where the uno-engine (npm) adapter lives, and when its tests may be skipped.

The tests run the Node adapter `conformance/adapters/uno-engine/adapter.mjs` against uno-engine
installed by `npm ci --prefix conformance/adapters/uno-engine` (`.ci/run` does it). They are
skipped only on a machine without Node outside CI; in CI (`CI=true`) a missing `node` or a
missing `node_modules` fails them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ci_helpers import unavailable

ROOT = Path(__file__).resolve().parent.parent
ADAPTER_DIR = ROOT / "conformance" / "adapters" / "uno-engine"
ADAPTER = ADAPTER_DIR / "adapter.mjs"
ENGINE_PACKAGE = ADAPTER_DIR / "node_modules" / "uno-engine" / "package.json"
NPM_CI = "npm ci --prefix conformance/adapters/uno-engine"


def node() -> str:
    """The `node` executable; skips the test outside CI when there is none, fails in CI or when
    uno-engine is not installed."""
    found = shutil.which("node")
    if found is None:
        unavailable("node is not installed", "the uno-engine adapter is a Node program: "
                    "apt-get install nodejs npm")
    if not ENGINE_PACKAGE.is_file():
        pytest.fail(f"uno-engine is not installed: run `{NPM_CI}`")
    return found


def command() -> list[str]:
    return [node(), str(ADAPTER)]


def request(rid: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": rid, "method": method}
    if params is not None:
        out["params"] = params
    return out


def exchange(requests: list[dict[str, Any] | str], timeout: float = 20.0) -> list[dict[str, Any]]:
    """Send every request at once (a str is sent as a raw line), close stdin, return the answers
    in order."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    proc = subprocess.run(command(), input="\n".join(lines) + "\n", capture_output=True,
                          text=True, timeout=timeout, check=False)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]
