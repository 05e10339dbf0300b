"""An implementation's endless loop found by what it does, not by how long it takes: the Python
calls of the thread that runs it counted (its profile function), and `Looping` raised inside
that code once they pass a budget no real step comes near. A busy machine cannot make a slow
step look like a loop, and a loop costs milliseconds, not a timeout. Used by the adapters of
implementations with such loops (uno-game's first Wild, skilluno's first card); a loop that
makes no Python call is left to their time limits."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class Looping(BaseException):
    """Raised inside the counted code: not an `Exception`, which the implementation's own
    `except Exception` loops would swallow."""


class CallBudget:
    """Counts the Python calls of the thread whose profile function `count` is; `Looping`
    past `budget` (0: never)."""

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
        restored after."""
        self.calls = 0
        previous = sys.getprofile()
        sys.setprofile(self.count)
        try:
            return fn()
        finally:
            sys.setprofile(previous)
