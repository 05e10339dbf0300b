"""Shell globs (`classic.wd4.*`, `CL.[A-Z]*`), matched in time linear in the pattern's length.

`fnmatch.fnmatchcase` has the meaning wanted (`*`, `?`, `[seq]`, `[!seq]`, case kept), but its
`fnmatch.translate` (Python 3.11) looks for the `]` closing each `[` from that `[` to the end
of the pattern: a pattern of N `[` and no `]` costs N^2/2 steps (20 000 `[` in an `--id` took
15 s, 50 000 more than a minute). `translate` here is the same translation, with each closing
`]` found once (the last `]` of the pattern is known: a `[` after it is a literal), so it is
linear; tests/test_globs.py checks it gives fnmatch's own regular expression.

Every glob a user gives (`conformance run --id`, `--ruleset`, `--feature`, `--rule`,
`--clause`; `pytest --uno-ruleset`; an expectation file's `id`) is also capped at MAX_GLOB
characters (`glob_option`, `glob_problem`), and the globs of one command line or one
expectation file at MAX_GLOBS_TOTAL characters in all (`total_problem`), refused in one line:
the options repeat, and compiling a glob's regular expression, though linear, costs up to
about 16 microseconds a character (`*a*a...`), so 1 800 globs of 1 000 characters (a 2 MiB
command line) would take about 30 s to compile.
"""

from __future__ import annotations

import argparse
import functools
import re
from collections.abc import Callable, Iterable

# The longest glob a user may give (characters); the longest scenario id is under 100.
MAX_GLOB = 1000
# The characters of every glob of one command line, or of one expectation file, in all
# (2 500 ids of 40 characters).
MAX_GLOBS_TOTAL = 100_000

_SET_OPERATION = re.compile(r"([&~|])")


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


def matches(name: str, pattern: str) -> bool:
    """`fnmatch.fnmatchcase(name, pattern)`, the pattern translated in linear time."""
    return _compiled(pattern)(name) is not None


@functools.lru_cache(maxsize=32768)  # as fnmatch's own cache
def _compiled(pattern: str) -> Callable[[str], re.Match[str] | None]:
    return re.compile(translate(pattern)).match


def translate(pat: str) -> str:
    """`fnmatch.translate(pat)` (Python 3.11), in time linear in `len(pat)`."""
    star = object()
    res: list[object] = []
    add = res.append
    last_close = pat.rfind("]")  # a `[` whose search starts after it closes nothing
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        i = i + 1
        if c == "*":
            if not res or res[-1] is not star:  # consecutive `*` are one
                add(star)
        elif c == "?":
            add(".")
        elif c == "[":
            j = i
            if j < n and pat[j] == "!":
                j = j + 1
            if j < n and pat[j] == "]":
                j = j + 1
            # fnmatch walks j up to the next `]` (or the end) one character at a time
            j = pat.find("]", j) if j <= last_close else n
            if j >= n:
                add("\\[")
            else:
                stuff = pat[i:j]
                if "-" not in stuff:
                    stuff = stuff.replace("\\", r"\\")
                else:
                    chunks = []
                    k = i + 2 if pat[i] == "!" else i + 1
                    while True:
                        k = pat.find("-", k, j)
                        if k < 0:
                            break
                        chunks.append(pat[i:k])
                        i = k + 1
                        k = k + 3
                    chunk = pat[i:j]
                    if chunk:
                        chunks.append(chunk)
                    else:
                        chunks[-1] += "-"
                    for k in range(len(chunks) - 1, 0, -1):  # empty ranges: invalid in RE
                        if chunks[k - 1][-1] > chunks[k][0]:
                            chunks[k - 1] = chunks[k - 1][:-1] + chunks[k][1:]
                            del chunks[k]
                    stuff = "-".join(s.replace("\\", r"\\").replace("-", r"\-")
                                     for s in chunks)
                stuff = _SET_OPERATION.sub(r"\\\1", stuff)  # &&, ~~ and || are set operations
                i = j + 1
                if not stuff:
                    add("(?!)")  # an empty set: never matches
                elif stuff == "!":
                    add(".")  # a negated empty set: any character
                else:
                    if stuff[0] == "!":
                        stuff = "^" + stuff[1:]
                    elif stuff[0] in ("^", "["):
                        stuff = "\\" + stuff
                    add(f"[{stuff}]")
        else:
            add(re.escape(c))
    # `*`: fixed pieces at the start, then `STAR fixed` pairs as atomic minimal matches (no
    # backtracking), a final `STAR` as `.*`
    out: list[str] = []
    i, n = 0, len(res)
    while i < n and res[i] is not star:
        out.append(str(res[i]))
        i += 1
    while i < n:
        i += 1  # the STAR
        if i == n:
            out.append(".*")
            break
        fixed = []
        while i < n and res[i] is not star:
            fixed.append(str(res[i]))
            i += 1
        text = "".join(fixed)
        if i == n:
            out.append(".*")
            out.append(text)
        else:
            out.append(f"(?>.*?{text})")
    return rf"(?s:{''.join(out)})\Z"
