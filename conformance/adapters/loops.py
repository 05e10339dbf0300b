"""An implementation's endless loop found by what it does, not by how long it takes: the Python
calls of the thread that runs it counted (its profile function), and `Looping` raised inside
that code once they pass a budget no real step comes near. A busy machine cannot make a slow
step look like a loop, and a loop costs milliseconds, not a timeout. Used by the adapters of
implementations with such loops (uno-game's first Wild, skilluno's first card); a loop that
makes no Python call is left to their time limits."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from conformance.protocol import AdapterError

T = TypeVar("T")


class Looping(BaseException):
    """Raised inside the counted code: not an `Exception`, which the implementation's own
    `except Exception` loops would swallow."""


def env_budget(name: str, default: int) -> int:
    """The budget the environment variable `name` sets: a whole number of calls, 0 for none
    counted; `default` when it is unset or empty. Anything else is the adapter error
    `bad-environment`, before anything runs."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise AdapterError("bad-environment", f"{name} must be a whole number of calls (0: "
                           f"not counted), not {text[:40]!r}")
    return int(text)


class CallBudget:
    """Counts the Python calls of the thread whose profile function `count` is; `Looping`
    past `budget` (0: not counted at all)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.calls = 0

    def count(self, frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            self.calls += 1
            if self.calls > self.budget > 0:
                sys.setprofile(None)
                raise Looping

    def run(self, fn: Callable[[], T]) -> T:
        """`fn()` with this thread's calls counted (from 0); the profile function before it
        restored after; without counting when the budget is 0."""
        self.calls = 0
        if self.budget <= 0:
            return fn()
        previous = sys.getprofile()
        sys.setprofile(self.count)
        try:
            return fn()
        finally:
            sys.setprofile(previous)
