"""The one policy for something a test needs and this machine lacks (a program, a package, a
compiler): in CI (`CI=true`) a failure, since .ci/run installs everything the tests need; on
a developer's machine a skip saying how to install it. Never a pass."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def unavailable(what: str, how: str, module: bool = False) -> NoReturn:
    """Fail in CI, else skip (the whole module if `module`): `what` is missing, `how` gets it."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI: {what}: {how}")
    pytest.skip(f"{what}: {how}", allow_module_level=module)


def chromium() -> str:
    """Debian's Chromium (`chromium`, headless with --no-sandbox): the browser of the site's
    tests (tests/test_conformance_site.py, tests/test_site_browser.py)."""
    import shutil

    for name in ("chromium", "chromium-browser"):
        if path := shutil.which(name):
            return path
    unavailable("chromium is not installed", "apt-get install chromium (.ci/run does)")
