"""`uno-fsm conformance features | errors | rulesets`: every id an implementer declares or meets.

    uno-fsm conformance features [PATHS...] [--format text|json|markdown]
    uno-fsm conformance errors   [--format text|json|markdown]
    uno-fsm conformance rulesets [PATHS...] [--format text|json|markdown]

`features`: each feature of spec/features.yaml, what it is, what a scenario uses that needs it
(conformance/features.py) and how many scenarios need it (not in Markdown: that is the table
docs/implementers.md embeds, which must not change with every new scenario). `errors`: each
error code of spec/errors.yaml and when it applies. `rulesets`: each base and variant of
spec/rulesets/, what it applies to and conflicts with, how many rules and scenarios it has
(also `uno-fsm rulesets`). The scenario counts
are those of the bundled corpus, or of PATHS. Exit status 0; 2 when a scenario file or the spec
cannot be read (one line on stderr). docs/implementers.md embeds the Markdown of `features` and
`errors`; a test keeps the two equal.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from uno_spec.files import path_option

FORMATS = ("text", "json", "markdown")


def register(csub: Any) -> None:
    """Add the three listing commands (called from conformance.cli.register)."""
    feats = csub.add_parser("features", help="list every feature id: its meaning, what needs "
                            "it, how many scenarios need it")
    feats.add_argument("paths", nargs="*", type=path_option,
                       help="scenario files or directories to count (default: the corpus)")
    feats.add_argument("--format", choices=FORMATS, default="text")
    feats.set_defaults(handler=cmd_features)
    errs = csub.add_parser("errors", help="list every error code and when it applies")
    errs.add_argument("--format", choices=FORMATS, default="text")
    errs.set_defaults(handler=cmd_errors)
    add_rulesets_parser(csub)


RULESETS_HELP = ("list every ruleset and variant: what it is, what it applies to and "
                 "conflicts with, its rules and scenarios")


def add_rulesets_parser(sub: Any) -> None:
    """`rulesets`, under `uno-fsm conformance` and as `uno-fsm rulesets` (uno_cli/rulesets.py):
    one command, one output."""
    rsets = sub.add_parser("rulesets", help=RULESETS_HELP)
    rsets.add_argument("paths", nargs="*", type=path_option,
                       help="scenario files or directories to count (default: the corpus)")
    rsets.add_argument("--format", choices=FORMATS, default="text")
    rsets.set_defaults(handler=cmd_rulesets)


def _fail(command: str, message: str) -> int:
    from uno_spec.encoding import terminal_line

    print(f"uno-fsm conformance {command}: {terminal_line(message)}", file=sys.stderr)
    return 2


def _scenarios(command: str, paths: list[Path]) -> tuple[list[Any], str | None]:
    from conformance.scenario import load_corpus

    missing = [p for p in paths if not p.exists()]
    if missing:
        return [], f"{missing[0]}: no such file or directory"
    corpus = load_corpus(paths or None)
    if corpus.errors:
        return [], f"{corpus.errors[0]} ({len(corpus.errors)} scenario file error(s))"
    return corpus.scenarios, None


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(rows: list[dict[str, Any]], columns: list[tuple[str, str]]) -> str:
    """A Markdown table of `rows`, the first column as code."""
    lines = ["| " + " | ".join(title for _, title in columns) + " |",
             "|" + "---|" * len(columns)]
    for row in rows:
        cells = [f"`{row[k]}`" if i == 0 else _cell(_text(row[k]))
                 for i, (k, _) in enumerate(columns)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _emit(rows: list[dict[str, Any]], fmt: str, columns: list[tuple[str, str]]) -> None:
    if fmt == "json":
        print(json.dumps(rows, indent=2))
    elif fmt == "markdown":
        sys.stdout.write(markdown(rows, columns))
    else:
        from uno_spec.encoding import terminal_line  # texts of files: no raw controls

        for row in rows:
            key, *rest = columns
            print(terminal_line(row[key[0]]))
            for k, title in rest:
                print(terminal_line(f"    {title.lower()}: {_text(row[k])}"))


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "-"
    return str(value)


def feature_rows(scenarios: list[Any]) -> list[dict[str, Any]]:
    from conformance import specdata
    from conformance.features import NEEDS, required

    counts = Counter(f for sc in scenarios for f in required(sc))
    return [{"id": fid, "description": desc,
             "needed_by": NEEDS[fid][0] if fid in NEEDS else "(no definition)",
             "scenarios": counts[fid]} for fid, desc in specdata.features().items()]


def error_rows() -> list[dict[str, Any]]:
    from conformance import specdata

    return [{"id": code, "description": desc} for code, desc in specdata.error_codes().items()]


def ruleset_rows(scenarios: list[Any]) -> list[dict[str, Any]]:
    from conformance import specdata

    rules = specdata.rules().values()
    used = Counter(part for sc in scenarios for part in sc.ruleset.split("+"))
    out = []
    for rid, info in specdata.ruleset_info().items():
        out.append({**info, "rules": sum(1 for r in rules if rid in r.rulesets),
                    "scenarios": used[rid]})
    return out


def cmd_features(args: argparse.Namespace) -> int:
    scenarios, problem = _scenarios("features", list(args.paths))
    if problem:
        return _fail("features", problem)
    try:
        rows = feature_rows(scenarios)
    except Exception as exc:  # a broken spec/ is one line, not a traceback
        return _fail("features", f"cannot read spec data: {exc}")
    columns = list(FEATURE_COLUMNS)
    if args.format != "markdown":
        columns.append(("scenarios", "Scenarios"))
    _emit(rows, args.format, columns)
    return 0


def cmd_errors(args: argparse.Namespace) -> int:
    try:
        rows = error_rows()
    except Exception as exc:
        return _fail("errors", f"cannot read spec data: {exc}")
    _emit(rows, args.format, ERROR_COLUMNS)
    return 0


def cmd_rulesets(args: argparse.Namespace) -> int:
    scenarios, problem = _scenarios("rulesets", list(args.paths))
    if problem:
        return _fail("rulesets", problem)
    try:
        rows = ruleset_rows(scenarios)
    except Exception as exc:
        return _fail("rulesets", f"cannot read spec data: {exc}")
    _emit(rows, args.format, RULESET_COLUMNS)
    return 0


RULESET_COLUMNS = [("id", "Ruleset"), ("kind", "Kind"), ("title", "Title"),
                   ("applies_to", "Applies to"), ("conflicts", "Conflicts with"),
                   ("description", "Description"), ("rules", "Rules"), ("scenarios", "Scenarios")]
FEATURE_COLUMNS = [("id", "Feature"), ("description", "Meaning"), ("needed_by", "Needed by")]
ERROR_COLUMNS = [("id", "Code"), ("description", "When it applies")]


def docs_sections() -> dict[str, str]:
    """The generated tables of docs/implementers.md, by marker name."""
    return {"features": markdown(feature_rows([]), FEATURE_COLUMNS),
            "errors": markdown(error_rows(), ERROR_COLUMNS)}


def fill_docs(text: str) -> str:
    """`text` with each `<!-- NAME:begin ... -->` ... `<!-- NAME:end -->` section regenerated.

    Refresh the page with: python -c "from conformance.registries import write_docs; write_docs()"
    """
    for name, table in docs_sections().items():
        pattern = re.compile(rf"(<!-- {name}:begin[^>]*-->\n).*?(<!-- {name}:end -->)", re.S)
        text = pattern.sub(_between(table), text)
    return text


def _between(table: str) -> Callable[[re.Match[str]], str]:
    return lambda m: m.group(1) + table + m.group(2)


def write_docs(path: Path | None = None) -> None:
    """Regenerate the tables of docs/implementers.md in place."""
    target = path or Path(__file__).resolve().parent.parent / "docs" / "implementers.md"
    target.write_text(fill_docs(target.read_text(encoding="utf-8")), encoding="utf-8")
