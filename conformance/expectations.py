"""Per-implementation expectation files: known failures with a reason.

conformance/expectations/<implementation>.yaml:

    implementation: rlcard
    failures:
      - id: classic.wd4.challenge.*      # scenario id or glob
        reason: RLCard has no Wild Draw Four challenge

A listed scenario that fails or errors is `xfailed`; one that passes is `xpassed` (reported,
so the list can shrink). Entries matching no scenario of the run are reported as stale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from uno_spec import globs

EXPECTATIONS_DIR = Path(__file__).resolve().parent / "expectations"


class ExpectationsError(Exception):
    pass


@dataclass(frozen=True)
class Entry:
    pattern: str
    reason: str
    line: int


@dataclass
class Expectations:
    implementation: str = ""
    entries: list[Entry] = field(default_factory=list)
    file: str = ""

    def lookup(self, scenario_id: str) -> Entry | None:
        for entry in self.entries:
            if globs.matches(scenario_id, entry.pattern):
                return entry
        return None

    def stale(self, scenario_ids: list[str]) -> list[Entry]:
        return [e for e in self.entries
                if not any(globs.matches(i, e.pattern) for i in scenario_ids)]


def load(path: Path) -> Expectations:
    """Read an expectation file; raises ExpectationsError with file:line on a bad one: a
    document of the wrong shape (a list, `failures` not a list, an entry not a mapping, an
    `id` or `reason` missing or not a string, an unknown key) or an `id` longer than a glob may
    be (uno_spec.globs.MAX_GLOB; MAX_GLOBS_TOTAL for all the `id`s) is named with its line, in
    one line."""
    from uno_spec.loader import SpecError, line_of, load_yaml

    try:
        doc = load_yaml(path)
    except SpecError as exc:
        raise ExpectationsError(str(exc)) from None
    if doc is None:
        return Expectations(file=str(path))
    if not isinstance(doc, dict):
        raise ExpectationsError(f"{path}:1: an expectation file is a mapping (`implementation:`, "
                                f"`failures:`), not {_shown(doc)}")
    unknown = sorted(str(k) for k in doc if k not in ("implementation", "failures"))
    if unknown:
        raise ExpectationsError(f"{path}:1: unknown key(s): {', '.join(unknown)}")
    implementation = doc.get("implementation")
    if implementation is not None and not isinstance(implementation, str):
        raise ExpectationsError(f"{path}:{line_of(doc, 'implementation')}: `implementation` "
                                f"must be a string, not {_shown(implementation)}")
    failures = doc.get("failures")
    if failures is None:  # `failures:` left empty, or no such key: nothing is expected to fail
        failures = []
    if not isinstance(failures, list):
        raise ExpectationsError(f"{path}:{line_of(doc, 'failures')}: `failures` must be a list "
                                f"of `- id: ...` / `reason: ...` entries, not "
                                f"{_shown(failures)}")
    entries = []
    total = 0  # characters of the globs so far (uno_spec.globs.MAX_GLOBS_TOTAL)
    for number, item in enumerate(failures, 1):
        if not isinstance(item, dict):  # a list item carries no line: that of `failures:`
            raise ExpectationsError(f"{path}:{line_of(doc, 'failures')}: `failures` entry "
                                    f"{number} must be a mapping with `id` and `reason`, not "
                                    f"{_shown(item)}")
        line = line_of(item)
        extra = sorted(str(k) for k in item if k not in ("id", "reason"))
        if extra:
            raise ExpectationsError(f"{path}:{line_of(item, str(extra[0]))}: `failures` entry "
                                    f"{number}: unknown key(s): {', '.join(extra)} (an entry "
                                    "has `id` and `reason`)")
        pattern = item.get("id")
        if not isinstance(pattern, str) or not pattern:
            what = " needs an `id`" if pattern is None else " has an empty `id`" \
                if pattern == "" else f": `id` must be a string, not {_shown(pattern)}"
            raise ExpectationsError(f"{path}:{line_of(item, 'id')}: `failures` entry {number}"
                                    f"{what} (a scenario id or glob)")
        if (problem := globs.glob_problem(pattern)) is not None:
            raise ExpectationsError(f"{path}:{line_of(item, 'id')}: `failures` entry {number}: "
                                    f"`id` is {problem}")
        total += len(pattern)
        if total > globs.MAX_GLOBS_TOTAL:
            raise ExpectationsError(f"{path}:{line_of(item, 'id')}: `failures` entry {number}: "
                                    f"the `id`s so far hold {total} characters of globs in "
                                    f"all, more than {globs.MAX_GLOBS_TOTAL}")
        reason = item.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise ExpectationsError(f"{path}:{line_of(item, 'reason')}: failure {pattern!r}: "
                                    f"`reason` must be a string, not {_shown(reason)}")
        if reason is None or not reason.strip():
            raise ExpectationsError(f"{path}:{line}: failure {pattern!r} needs a `reason`")
        entries.append(Entry(pattern, reason.strip(), line))
    return Expectations(implementation or "", entries, str(path))


def _shown(value: object) -> str:
    """What a YAML value of the wrong type is, for a message: `a number (5)`, `a string
    ('abc')`, `a list`, `a mapping`."""
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int | float):
        text = repr(value)
        return f"a number ({text if len(text) <= 40 else text[:40] + '...'})"
    if isinstance(value, str):
        return f"a string ({value[:40]!r}{'...' if len(value) > 40 else ''})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"  # a date, bytes


def default_path(implementation: str) -> Path | None:
    """conformance/expectations/<implementation>.yaml if it exists."""
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in implementation)
    path = EXPECTATIONS_DIR / f"{safe}.yaml"
    return path if path.is_file() else None
