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

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path

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
            if fnmatch.fnmatchcase(scenario_id, entry.pattern):
                return entry
        return None

    def stale(self, scenario_ids: list[str]) -> list[Entry]:
        return [e for e in self.entries
                if not any(fnmatch.fnmatchcase(i, e.pattern) for i in scenario_ids)]


def load(path: Path) -> Expectations:
    """Read an expectation file; raises ExpectationsError with file:line on a bad one."""
    from uno_spec.loader import SpecError, load_yaml

    try:
        doc = load_yaml(path)
    except SpecError as exc:
        raise ExpectationsError(str(exc)) from None
    if doc is None:
        return Expectations(file=str(path))
    if not isinstance(doc, dict):
        raise ExpectationsError(f"{path}:1: expected a mapping with `failures:`")
    unknown = sorted(str(k) for k in doc if k not in ("implementation", "failures"))
    if unknown:
        raise ExpectationsError(f"{path}:1: unknown key(s): {', '.join(unknown)}")
    entries = []
    for item in doc.get("failures") or []:
        line = int(getattr(item, "line", 0) or 0)
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise ExpectationsError(f"{path}:{line}: each failure needs an `id` (string)")
        reason = item.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise ExpectationsError(f"{path}:{line}: failure {item['id']!r} needs a `reason`")
        entries.append(Entry(item["id"], reason.strip(), line))
    return Expectations(str(doc.get("implementation", "")), entries, str(path))


def default_path(implementation: str) -> Path | None:
    """conformance/expectations/<implementation>.yaml if it exists."""
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in implementation)
    path = EXPECTATIONS_DIR / f"{safe}.yaml"
    return path if path.is_file() else None
