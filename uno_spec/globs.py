"""Shell globs (`classic.wd4.*`, `CL.[A-Z]*`): `fnmatch.fnmatchcase`, on globs of a bounded
length.

Every glob a user gives (`conformance run --id`, `--ruleset`, `--feature`, `--rule`,
`--clause`; `pytest --uno-ruleset`; an expectation file's `id`) is capped at MAX_GLOB
characters (`glob_option`, `glob_problem`), and the globs of one command line or one
expectation file at MAX_GLOBS_TOTAL characters in all (`total_problem`), refused in one line.
`fnmatch.translate` (Python 3.11) looks for the `]` closing each `[` from that `[` to the end
of the pattern: N `[` cost N^2/2 steps (20,000 `[` in an `--id` took 15 s, 50,000 more than a
minute). At MAX_GLOB characters the worst glob measured costs about 1.3 ms to translate and
compile (`[[[...`; docs/robustness.md), and the options repeat: MAX_GLOBS_TOTAL bounds the sum
(100 such globs: about 0.13 s).
"""

from __future__ import annotations

import argparse
import fnmatch
from collections.abc import Iterable

# The longest glob a user may give (characters); the longest scenario id is under 100.
MAX_GLOB = 200
# The characters of every glob of one command line, or of one expectation file, in all
# (500 ids of 40 characters).
MAX_GLOBS_TOTAL = 20_000


def glob_problem(pattern: str) -> str | None:
    """Why `pattern` is refused as a glob (longer than MAX_GLOB), or None."""
    if len(pattern) > MAX_GLOB:
        return f"a glob of {len(pattern)} characters, more than {MAX_GLOB}"
    return None


def total_problem(patterns: Iterable[str]) -> str | None:
    """Why these globs, together, are refused (more than MAX_GLOBS_TOTAL characters), or
    None."""
    total = sum(len(p) for p in patterns)
    if total > MAX_GLOBS_TOTAL:
        return f"{total} characters of globs in all, more than {MAX_GLOBS_TOTAL}"
    return None


def glob_option(text: str) -> str:
    """An argparse type: a glob of at most MAX_GLOB characters."""
    if (problem := glob_problem(text)) is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


matches = fnmatch.fnmatchcase  # (name, pattern): the meaning of a glob here, case kept
