"""The test session's on-disk cache (uno_spec/cache.py: scenarios and rules) lives in a
temporary directory, never in the user's cache; the processes the tests start inherit it."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from uno_spec import cache as spec_cache

_MADE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    # before collection: test modules load scenarios when they are imported
    folder = tempfile.mkdtemp(prefix="uno-fsm-test-cache-")
    _MADE.append(folder)
    os.environ[spec_cache.ENV_DIR] = folder
    os.environ.pop(spec_cache.ENV_OFF, None)


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _MADE:
        shutil.rmtree(folder, ignore_errors=True)
