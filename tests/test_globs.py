"""uno_spec.globs: fnmatch's meaning, in time linear in the pattern (fnmatch.translate is
quadratic in the `[` that close nothing: 20 000 of them in `conformance run --id` took 15 s)."""

from __future__ import annotations

import fnmatch
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uno_spec import globs

# the characters translate treats apart, and a few plain ones
TRICKY = "[]!-^*?\\&~|ab.z"

EDGES = ["", "*", "**a", "a*b*c", "[", "]", "[]", "[]]", "[!]", "[!]]", "[a-]", "[-a]", "[z-a]",
         "[a-c-e]", "[!a-c]", "[^a]", "[[]", "[&&a]", "[a\\]", "[\\-]", "][", "[!", "[a-z",
         "x[[[[]", "[]" + "[" * 50, "]" + "[" * 50, "[!]" * 5 + "]", "*[*]*", "?[?]?"]


@pytest.mark.parametrize("pattern", EDGES)
def test_the_translation_is_fnmatchs(pattern: str) -> None:
    assert globs.translate(pattern) == fnmatch.translate(pattern)


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=TRICKY, max_size=40))
def test_any_pattern_translates_as_fnmatch_does(pattern: str) -> None:
    assert globs.translate(pattern) == fnmatch.translate(pattern)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=TRICKY, max_size=12), st.text(alphabet="[]!-^ab.z", max_size=8))
def test_matches_is_fnmatchcase(pattern: str, name: str) -> None:
    assert globs.matches(name, pattern) is fnmatch.fnmatchcase(name, pattern)


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail (not hang) past `seconds`."""
    def expire(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("pattern", ["[" * 200_000, "]" + "[" * 200_000, "[!" * 100_000,
                                     "[a-" * 70_000])
def test_translation_is_linear(pattern: str) -> None:
    """200 000 characters in about a second (fnmatch.translate: 2 * 10^10 steps, hours)."""
    globs._compiled.cache_clear()
    start = time.monotonic()
    with within(20):
        assert not globs.matches("classic.wd4.challenge", pattern)
    assert time.monotonic() - start < 20


def test_the_cap() -> None:
    assert globs.glob_problem("x" * globs.MAX_GLOB) is None
    assert globs.glob_problem("x" * (globs.MAX_GLOB + 1)) == \
        "a glob of 1001 characters, more than 1000"
