"""Match formats: several hands of a partners ruleset with changing partners (spec/matches/).

spec/matches/<id>.yaml names the ruleset each hand is dealt under, the players, the tables of
four, the hands each player plays with each partner in a round, and the rounds
(spec/schema/match.schema.json). The engine plays one hand; `uno_fsm.match` schedules and
tallies the hands of a format.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from uno_spec.loader import SpecError, YamlMap, display_path, load_yaml, yaml_files
from uno_spec.paths import spec_root

TABLE_SIZE = 4  # PARTNERS.ROTATION.PLAYERS, PARTNERS.TOURNAMENT.TABLES: two partnerships a table


@dataclass(frozen=True)
class MatchFormat:
    """One spec/matches/<id>.yaml file."""

    id: str
    title: str
    description: str
    ruleset: str
    players: int
    tables: int
    hands_per_partner: int
    rounds: int
    cites: tuple[str, ...]
    rules: tuple[str, ...]
    rulings: tuple[str, ...]
    file: str = ""
    line: int = 1

    @property
    def hands(self) -> int:
        """Hands each table deals (and each player plays): every other player partnered
        `hands_per_partner` times in each of the `rounds`."""
        return self.rounds * (self.players - 1) * self.hands_per_partner


def _strs(value: object) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def ruleset_problem(mid: str, name: str, params: Mapping[str, Any]) -> str | None:
    """PARTNERS.ROTATION.HAND: every hand of a match is dealt under a partners ruleset (its
    composed `params`); the problem, or None."""
    scoring = params.get("scoring")
    if not isinstance(scoring, Mapping) or scoring.get("method") != "partners":
        return (f"match {mid}: ruleset {name!r} is not a partners ruleset (scoring.method: "
                "partners)")
    return None


def check_match(doc: YamlMap) -> list[tuple[int, str]]:
    """(line, message) for what the schema cannot say: four players at each table."""
    players, tables = doc.get("players"), doc.get("tables")
    if type(players) is int and type(tables) is int and players != TABLE_SIZE * tables:
        return [(doc.line_of("tables"), f"match {doc.get('id')!r}: {tables} table(s) of "
                 f"{TABLE_SIZE} seat {TABLE_SIZE * tables} players, not {players}")]
    return []


@functools.lru_cache(maxsize=8)
def _match_files(root: Path) -> Mapping[str, MatchFormat]:
    from uno_spec.schema import schema_path, validate

    out: dict[str, MatchFormat] = {}
    for path in yaml_files(root, "matches"):
        doc = load_yaml(path)
        shown = display_path(path)
        if not isinstance(doc, YamlMap):
            raise SpecError(shown, 1, "expected a mapping at the top level")
        problems = [*validate(doc, schema_path(root, "matches")), *check_match(doc)]
        if problems:
            raise SpecError(shown, *problems[0])
        mid = str(doc["id"])
        if mid != path.stem:
            raise SpecError(shown, doc.line_of("id"),
                            f"match id {mid!r} differs from file name {path.stem!r}")
        out[mid] = MatchFormat(
            id=mid, title=str(doc["title"]), description=str(doc.get("description") or ""),
            ruleset=str(doc["ruleset"]), players=doc["players"], tables=doc["tables"],
            hands_per_partner=doc["hands_per_partner"], rounds=doc["rounds"],
            cites=_strs(doc.get("cites")), rules=_strs(doc.get("rules")),
            rulings=_strs(doc.get("rulings")), file=shown, line=doc.line)
    return MappingProxyType(out)


def match_files(root: Path | None = None) -> Mapping[str, MatchFormat]:
    """Every match format by id (SpecError, located, on a malformed file)."""
    return _match_files((root if root is not None else spec_root()).resolve())


def list_matches(root: Path | None = None) -> list[str]:
    """The ids of the match formats on disk, sorted."""
    return sorted(match_files(root))


def load_match(name: str, root: Path | None = None) -> MatchFormat:
    """The match format `name`, or SpecError naming the known ones."""
    files = match_files(root)
    if name in files:
        return files[name]
    import difflib

    known = sorted(files)
    close = difflib.get_close_matches(name, known, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    where = (root if root is not None else spec_root()) / "matches"
    raise SpecError(display_path(where), 0,
                    f"unknown match {name!r}{hint} (known: {', '.join(known) or 'none'})")


def clear_caches() -> None:
    _match_files.cache_clear()
