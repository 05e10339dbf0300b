"""The missing-tool policy of the tests (tests/ci_helpers.py): a failure in CI, a skip with
the way to install it elsewhere, never a pass."""

from __future__ import annotations

import pytest
from ci_helpers import unavailable


def test_missing_in_ci_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"^CI: gizmo is not installed: apt-get"):
        unavailable("gizmo is not installed", "apt-get install gizmo")


@pytest.mark.parametrize("ci", [None, "false", "1"])
def test_missing_elsewhere_is_a_skip(monkeypatch: pytest.MonkeyPatch, ci: str | None) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception, match=r"^gizmo is not installed: apt-get") as got:
        unavailable("gizmo is not installed", "apt-get install gizmo", module=True)
    assert got.value.allow_module_level
