"""The test session's on-disk cache (uno_spec/cache.py: scenarios and rules) lives in a
temporary directory, never in the user's cache; the processes the tests start inherit it.

The programs the tests interrupt start with SIGINT's default action (Python's
KeyboardInterrupt), whatever this process inherited: a shell without job control starts a
background command (`pytest &`) with SIGINT ignored, an ignored signal stays ignored across
exec (POSIX), and a program started so rightly goes on when sent SIGINT (`uno-fsm play` at
Ctrl-C, `conformance diff` before its run holds `uno_spec.signals.interrupts`), so that the
tests that send it would wait for nothing. A handler of Python's own is not inherited: a
child gets the default action.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile

import pytest

from uno_spec import cache as spec_cache

_MADE: list[str] = []

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config: pytest.Config) -> None:
    # before collection: test modules load scenarios when they are imported
    folder = tempfile.mkdtemp(prefix="uno-fsm-test-cache-")
    _MADE.append(folder)
    os.environ[spec_cache.ENV_DIR] = folder
    os.environ.pop(spec_cache.ENV_OFF, None)


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _MADE:
        shutil.rmtree(folder, ignore_errors=True)
