"""Reports: JSON (the source of truth), console, JUnit XML and Markdown.

Every renderer works from the JSON document, so `uno-fsm conformance report --from r.json`
re-renders a stored run exactly as the run itself would have. Results that did not pass carry
`quotes`: the cited clauses (original text and English) and the rules' statements.

Reports stay valid whatever an adapter or a scenario put in them: the JSON document never holds
NaN or Infinity (uno_spec.files.finite writes them as the strings "NaN", "Infinity" and
"-Infinity"; the JSON is dumped with allow_nan=False); JUnit XML drops the characters XML 1.0
cannot hold (control characters, lone surrogates); Markdown drops control characters, turns line
breaks into spaces and escapes `|`, backticks and `<`; every text is cut at `MAX_TEXT`
characters (`MAX_BODY` for a JUnit failure body).
"""

from __future__ import annotations

import io
import json
import math
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance import specdata
from conformance.runner import STATUSES, UNEXPECTED, Result, RunReport
from uno_spec import encoding
from uno_spec.encoding import markdown, markdown_code, terminal_line, xml
from uno_spec.files import finite, json_text

if TYPE_CHECKING:
    from rich.console import Console

# rich is imported by the console renderers only (about 30 ms): writing a JSON, JUnit or
# Markdown report, and `conformance run --quiet` to a file or a pipe, never import it.

FORMAT = "uno-conformance-report/1"
FORMATS = ("console", "json", "junit", "markdown")
QUOTED = ("failed", "errored", "xfailed", "xpassed")
STYLE = {"passed": "green", "failed": "red", "errored": "magenta", "unsupported": "yellow",
         "xfailed": "cyan", "xpassed": "bold red"}


# Longest text kept in a report field (a message, a title) and in a JUnit failure body;
# module constants, so that tests can lower them.
MAX_TEXT = 2_000
MAX_BODY = 64_000


class ReportError(Exception):
    """A file that is not a report; `line` is where (0: no line applies)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


def dumps(value: Any, indent: int | None = 2) -> str:
    """Strict JSON text of report data (no NaN or Infinity: uno_spec.files.json_text)."""
    return json_text(value, indent)


def cut(text: Any, limit: int | None = None, encode: Any = str) -> str:
    """`text` cut at `limit` (default MAX_TEXT) characters, marked when cut
    (`uno_spec.encoding.cut`)."""
    return encoding.cut(text, MAX_TEXT if limit is None else limit, encode)


def result_json(r: Result) -> dict[str, Any]:
    """One result of the JSON report; one that did not pass carries its `quotes`: the
    scenario's clauses and rules, and first the rules it breaks (`broken_quotes`)."""
    item = r.to_json()
    if r.status in QUOTED:
        item["quotes"] = {"clauses": specdata.quote_clauses(r.cites),
                          "rules": specdata.quote_rules(r.rules)}
        if r.broken is not None and (broken := broken_quotes(r.broken)):
            item["quotes"]["broken"] = broken
    return item


def broken_quotes(broken: dict[str, Any]) -> list[dict[str, Any]]:
    """The rules a failure breaks (`broken.observations`: what differs -> the rule that
    governs it, conformance.blame), in the order of what differs: each with its statement,
    what it governs and the clauses it cites in spec/rules, quoted (original and English)."""
    keys: dict[str, list[str]] = {}
    for key, rule in (broken.get("observations") or {}).items():
        if rule:
            keys.setdefault(str(rule), []).append(str(key))
    try:
        cites = specdata.rule_cites()
    except Exception:  # noqa: BLE001 - a broken spec must not stop a report
        cites = {}
    return [q | {"observations": keys[q["id"]],
                 "clauses": specdata.quote_clauses(list(cites.get(q["id"], ())))}
            for q in specdata.quote_rules(list(keys))]


def to_json(report: RunReport) -> dict[str, Any]:
    """The JSON report: `summary` first, then run metadata, then one result per scenario."""
    results = [result_json(r) for r in report.results]
    return finite({
        "summary": report.summary(),
        "format": FORMAT,
        "ok": report.ok,
        "adapter": report.adapter,
        "implementation": report.implementation,
        "started": report.started,
        "duration": round(report.duration, 3),
        "warnings": report.warnings,
        **({"stopped": report.stopped} if report.stopped else {}),
        # a run stopped by SIGINT, SIGTERM or SIGHUP: `ok` is false, the results are those judged
        **({"interrupted": True, "signal": report.interrupted, "not_run": report.not_run}
           if report.interrupted else {}),
        "results": results,
    })


def load_json(text: str) -> dict[str, Any]:
    """Read a JSON report back (checks the format marker, the summary and the schema). Strict
    JSON (uno_spec.files.read_json): NaN, `1e999`, a 100 000-digit integer or nesting 100 levels
    deep is refused with its line."""
    from uno_spec.files import InputError, read_json

    try:
        data = read_json(text)
    except InputError as exc:
        raise ReportError(f"not a JSON report: {exc.message}", exc.line) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReportError(f"not a {FORMAT} document")
    if not isinstance(data.get("summary"), dict) or not isinstance(data.get("results"), list):
        raise ReportError("report lacks `summary` or `results`")
    _check_schema(data)
    return data


SCHEMA = Path(__file__).resolve().parent / "schema" / "report.schema.json"


def _check_schema(data: dict[str, Any]) -> None:
    """A report read back matches conformance/schema/report.schema.json (so that a hand-edited
    or hostile file is named as such, not met by a renderer's KeyError)."""
    from uno_spec.schema import compile_schema

    schema = compile_schema(json.loads(SCHEMA.read_text(encoding="utf-8")))
    if schema.is_valid(data):
        return
    from jsonschema.exceptions import best_match  # only to explain a rejected report

    error = best_match(schema.iter_errors(data))
    if error is not None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        raise ReportError(f"not a valid report: {where.lstrip('.') or '(top)'}: "
                          f"{cut(error.message, 300)}")


def exit_code(data: dict[str, Any]) -> int:
    """0 when nothing unexpected happened (passed, xfailed, unsupported), else 1; 2 when the
    run stopped because the adapter never started (nothing was judged: most often a wrong
    command line; whatever the number of scenarios, Runner.run), 1 when it stopped after it
    had started (the implementation broke); 128 + the signal number (130, 143, 129) for a run
    interrupted by SIGINT, SIGTERM or SIGHUP."""
    if data.get("interrupted"):
        return 128 + _signal_number(data.get("signal"))
    stopped = data.get("stopped")
    if stopped:
        return 1 if stopped.get("ever_started") else 2
    s = data["summary"]
    return 1 if any(s.get(k, 0) for k in UNEXPECTED) else 0


# --- text helpers -----------------------------------------------------------------------------


def _j(value: Any) -> str:
    return cut(json_text(value, indent=None))


def _where(r: dict[str, Any]) -> str:
    loc = f"{r.get('file', '')}:{r.get('step_line') or r.get('line') or 0}"
    step = f", step {r['step']} ({r.get('step_kind')})" if r.get("step") else ""
    return f"{loc}{step}"


def failure_lines(r: dict[str, Any]) -> list[str]:
    """Plain-text lines describing a non-passing result (shared by console and JUnit)."""
    lines = [f"{r['id']}: {r['title']}", f"  at {_where(r)}", f"  {r['status']}: {r['message']}"]
    if r.get("reason"):
        lines.append(f"  known failure: {r['reason']}")
    if r.get("action") is not None:
        lines.append(f"  action:   {_j(r['action'])}")
    if r.get("expected") is not None:
        lines.append(f"  expected: {_j(r['expected'])}")
    if r.get("observed") is not None:
        lines.append(f"  observed: {_j(r['observed'])}")
    if r.get("detail"):
        lines.extend("  | " + d for d in str(r["detail"]).splitlines()[-8:])
    q = failure_quotes(r)
    for b, clauses in q.broken:  # the rules broken first, with their clauses
        lines.append(f"  rule broken: {b['id']} (it governs {q.governs(b)})")
        lines.append(f"      {b['statement']}")
        if link := specdata.rule_link(str(b["id"])):
            lines.append(f"      site: {link}")
        for c in clauses:
            lines += _clause_lines(c, "    ")
    if q.broken and q.others:
        lines.append("  the scenario's other rules:")
    for rule in q.others:
        lines.append(f"  {'  ' if q.broken else ''}rule {rule['id']}: {rule['statement']}")
        if link := specdata.rule_link(str(rule["id"])):
            lines.append(f"      site: {link}")
    if q.broken and q.rest:
        lines.append("  the scenario's other clauses:")
    for c in q.rest:
        lines += _clause_lines(c, "  " if q.broken else "")
    return lines


@dataclass
class FailureQuotes:
    """What a failure quotes, in the order every rendering gives it: the rules broken
    (`quotes.broken`, conformance.blame), each with the clauses it cites not quoted before;
    the scenario's other rules; the scenario's clauses not quoted under a rule broken."""

    result: dict[str, Any]
    broken: list[tuple[dict[str, Any], list[dict[str, Any]]]]
    others: list[dict[str, Any]]
    rest: list[dict[str, Any]]

    def governs(self, rule: dict[str, Any]) -> str:
        """What a rule broken governs, in words (`differs`)."""
        return "; ".join(differs(self.result, str(k)) for k in rule.get("observations") or [])


def failure_quotes(r: dict[str, Any], rules: list[Any] | None = None,
                   clauses: list[Any] | None = None) -> FailureQuotes:
    """The quotes of a result (`r["quotes"]`; `rules` and `clauses` instead of its own), in
    order (`FailureQuotes`). Entries that are not objects are skipped."""
    quotes = r.get("quotes") if isinstance(r.get("quotes"), dict) else {}
    assert isinstance(quotes, dict)
    listed = quotes.get("broken")
    broken = [b for b in listed if isinstance(b, dict)] if isinstance(listed, list) else []
    seen: set[str] = set()
    ordered = []
    for b in broken:
        own = [c for c in b.get("clauses") or [] if isinstance(c, dict)
               and str(c.get("id")) not in seen]
        seen.update(str(c.get("id")) for c in own)
        ordered.append((b, own))
    named = {str(b.get("id")) for b in broken}
    rules = quotes.get("rules", []) if rules is None else rules
    clauses = quotes.get("clauses", []) if clauses is None else clauses
    return FailureQuotes(
        r, ordered,
        [q for q in rules or [] if isinstance(q, dict) and str(q.get("id")) not in named],
        [c for c in clauses or [] if isinstance(c, dict) and str(c.get("id")) not in seen])


def _clause_lines(c: dict[str, Any], indent: str) -> list[str]:
    out = [f"  {indent}clause {c['id']}: \u201c{c['text']}\u201d"]
    if c.get("en"):
        out.append(f"      {indent}({c['en']})")
    if link := specdata.clause_link(str(c["id"])):
        out.append(f"      {indent}site: {link}")
    return out


def differs(r: dict[str, Any], key: str) -> str:
    """What differs, in words, for one key of `broken.observations` (conformance.blame): an
    observation with its two values, or the action's or the set-up's outcome."""
    kind = str((r.get("broken") or {}).get("kind") or "")
    if key == "action":
        return "the action's error code" if kind == "error-code" else \
            "whether the action is accepted"
    if key == "setup":
        return "whether the set-up is accepted"
    for m in r.get("mismatches") or []:
        if isinstance(m, dict) and m.get("key") == key:
            return f"{key}: expected {_j(m.get('expected'))}, observed {_j(m.get('observed'))}"
    return key


# --- console ----------------------------------------------------------------------------------


class ProgressBar:
    """A rich progress bar on stderr, fed by the runner's callbacks."""

    def __init__(self, console: Console | None = None) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self.console = console or Console(stderr=True)
        # the scenario id is shown as text (markup=False): it may hold `[...]` or `:name:`
        self.progress = Progress(TextColumn("[bold]conformance"), BarColumn(),
                                 MofNCompleteColumn(),
                                 TextColumn("{task.fields[last]}", markup=False),
                                 TimeElapsedColumn(), console=self.console, transient=True)
        self.task: Any = None

    def start(self, total: int) -> None:
        self.progress.start()
        self.task = self.progress.add_task("run", total=total, last="")

    def advance(self, result: Result) -> None:
        self.progress.update(self.task, advance=1, last=f"{result.status} {result.id}")

    def stop(self) -> None:
        self.progress.stop()


UNDECLARED = "adapter does not declare "  # conformance.runner: what a scenario needs, lacking
LISTED = {"feature(s) ": "feature ", "observation(s) ": "observation "}
REASONS_SHOWN = 12  # reasons of unsupported scenarios the console lists, the most frequent


def unsupported_reasons(results: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """Why scenarios were unsupported, with how many, the most frequent first: each thing the
    adapter does not declare (`ruleset flip`, `feature wd4-challenge`, `observation scores`,
    `5 players (plays 2 to 4)`) counts every scenario that needs it (a scenario may lack
    several); an adapter's own answer (`adapter: ...`) is one reason as it said it."""
    counts: Counter[str] = Counter()
    for r in results:
        if str(r.get("outcome") or r.get("status")) != "unsupported":
            continue
        message = str(r.get("message", ""))
        if not message.startswith(UNDECLARED):
            counts[message or "unsupported"] += 1
            continue
        reasons: list[str] = []
        for part in message.removeprefix(UNDECLARED).split("; "):
            prefix = next((p for p in LISTED if part.startswith(p)), None)
            if prefix is None:
                reasons.append(part)
            else:
                reasons += [LISTED[prefix] + x for x in part.removeprefix(prefix).split(", ")]
        counts.update(dict.fromkeys(reasons, 1))
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def unsupported_lines(data: dict[str, Any], limit: int | None = REASONS_SHOWN) -> list[str]:
    """The console's lines on unsupported scenarios, grouped by reason with counts (none when
    every scenario was supported)."""
    reasons = unsupported_reasons(data["results"])
    if not reasons:
        return []
    total = sum(1 for r in data["results"]
                if str(r.get("outcome") or r.get("status")) == "unsupported")
    shown = reasons if limit is None else reasons[:limit]
    lines = [f"unsupported: {total} scenario(s); what the adapter does not support, with the "
             "scenarios needing it (a scenario may need several):"]
    width = len(str(shown[0][1]))
    lines += [f"  {n:>{width}}  {cut(reason, 300)}" for reason, n in shown]
    if len(reasons) > len(shown):
        lines.append(f"  ... and {len(reasons) - len(shown)} other reason(s) (each scenario's "
                     "is in the JSON report)")
    return lines


# How much `render_console` prints: every unexpected result, the warnings, the table and the
# verdict ("full"); the warnings, the table and the verdict ("summary"); the verdict line
# alone ("line").
DETAILS = ("full", "summary", "line")


def scenarios(n: int) -> str:
    """`1 scenario`, `2 scenarios`."""
    return f"{n} scenario" if n == 1 else f"{n} scenarios"


def summary_line(data: dict[str, Any]) -> str:
    """The one-line verdict: `OK in 5.70s: N scenarios (P passed, X xfailed)`;
    `INTERRUPTED by SIGTERM in 0.43s: J of N scenarios judged (J passed)` (the counts are the
    run's)."""
    s = data["summary"]
    code = exit_code(data)
    counts = ", ".join(f"{s[k]} {k}" for k in STATUSES if s.get(k))
    if data.get("interrupted"):
        signal_name, judged, selected = _interrupted(data)
        return (f"INTERRUPTED by {signal_name} in {_number(data.get('duration')):.2f}s: "
                f"{judged} of {scenarios(selected)} judged" + (f" ({counts})" if counts else ""))
    verdict = "OK" if code == 0 else "STOPPED" if data.get("stopped") else "UNEXPECTED RESULTS"
    return (f"{verdict} in {_number(data.get('duration')):.2f}s: {scenarios(s.get('total', 0))}"
            + (f" ({counts})" if counts else ""))


def interruption(data: dict[str, Any]) -> str | None:
    """`interrupted by SIGTERM: J of N scenarios judged` for a run stopped by a signal,
    else None."""
    if not data.get("interrupted"):
        return None
    signal_name, judged, selected = _interrupted(data)
    return f"interrupted by {signal_name}: {judged} of {scenarios(selected)} judged"


def _interrupted(data: dict[str, Any]) -> tuple[str, int, int]:
    """The signal, the scenarios judged and those selected, of an interrupted run."""
    judged = _count(data["summary"].get("total"))
    return terminal_line(data.get("signal", "?")), judged, judged + _count(data.get("not_run"))


def _signal_number(name: Any) -> int:
    """The number of a signal named in a report (`SIGTERM`: 15); SIGINT's for anything else."""
    import signal

    try:
        return int(signal.Signals[str(name)])
    except KeyError:
        return int(signal.SIGINT)


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def stop_line(data: dict[str, Any]) -> str | None:
    """The one line saying why the run stopped early (repeated failed starts), or None."""
    stopped = data.get("stopped")
    if not stopped:
        return None
    left = len(data["results"]) - int(stopped.get("after", 0))
    return (f"stopped: {stopped.get('reason', '')}; {left} scenario(s) not judged "
            "(listed as errored in the report)")


def render_console(data: dict[str, Any], console: Console, detail: str = "full",
                   show_stop: bool = True) -> None:
    """The report for a terminal (`detail`: one of DETAILS). Every text from the spec, the
    corpus or the adapter is printed as text (rich Text objects: no markup, no `:emoji:`
    codes), its control characters escaped (uno_spec.encoding.terminal: a title or a name cannot
    send terminal commands). The results after a stop (repeated failed starts) are not listed:
    `stop_line` says why, unless `show_stop` is False (`conformance run` says it on stderr)."""
    from rich.table import Table
    from rich.text import Text

    say = console.print
    stopped = data.get("stopped") or {}
    judged = data["results"][:int(stopped.get("after", len(data["results"])))] \
        if stopped else data["results"]
    if detail == "full":
        for r in judged:
            if r["status"] in ("failed", "errored", "xpassed"):
                head, *rest = failure_lines(r)
                say(Text.assemble((r["status"].upper(), STYLE[r["status"]]), " ",
                                  terminal_line(head)))
                for line in rest:
                    say(Text(terminal_line(line)))
                say()
    if detail != "line":
        for line in unsupported_lines(data):
            say(Text(terminal_line(line), style="yellow"))
        for w in data.get("warnings", []):
            say(Text.assemble(("warning:", "yellow"), " ", terminal_line(w)))
    if show_stop and detail != "line" and (stop := stop_line(data)) is not None:
        say(Text(terminal_line(stop), style="red"))
    if detail != "line":
        impl = data.get("implementation") or {}
        name = f"{impl.get('name', '?')} {impl.get('version', '')}".strip()
        table = Table(title=Text(terminal_line(f"conformance: {name} via {data.get('adapter')}")),
                      show_header=True)
        for key in ("total",) + STATUSES:
            table.add_column(key, justify="right", style=STYLE.get(key, "bold"))
        s = data["summary"]
        table.add_row(*(str(s.get(k, 0)) for k in ("total",) + STATUSES))
        say(table)
    say(Text(summary_line(data), style="green" if exit_code(data) == 0 else "red"))


def console_text(data: dict[str, Any], width: int = 100, detail: str = "full") -> str:
    """The console rendering as plain text (no colours)."""
    from rich.console import Console

    buf = io.StringIO()
    render_console(data, Console(file=buf, width=width, force_terminal=False, color_system=None,
                                 highlight=False), detail)
    return buf.getvalue()


# --- JUnit ------------------------------------------------------------------------------------


def _x(text: Any, limit: int | None = None) -> str:
    """Text for XML: cut, and every character XML cannot hold replaced by U+FFFD."""
    return xml(cut(text, limit))


def render_junit(data: dict[str, Any]) -> str:
    """JUnit XML: one testsuite per ruleset, one testcase per scenario."""
    by_suite: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in data["results"]:
        by_suite[r.get("ruleset") or "default"].append(r)
    s = data["summary"]
    cut_short = bool(data.get("interrupted"))  # one error more: the run, stopped by a signal
    root = ET.Element("testsuites", name="uno-conformance", tests=str(s["total"] + cut_short),
                      failures=str(s["failed"] + s["xpassed"]),
                      errors=str(s["errored"] + cut_short),
                      skipped=str(s["unsupported"] + s["xfailed"]),
                      time=_seconds(data.get("duration")))
    for suite_name, results in sorted(by_suite.items()):
        counts: dict[str, int] = defaultdict(int)
        for r in results:
            counts[r["status"]] += 1
        suite = ET.SubElement(
            root, "testsuite", name=_x(suite_name), tests=str(len(results)),
            failures=str(counts["failed"] + counts["xpassed"]), errors=str(counts["errored"]),
            skipped=str(counts["unsupported"] + counts["xfailed"]),
            time=_seconds(sum(_number(r.get("duration")) for r in results)))
        for r in results:
            case = ET.SubElement(suite, "testcase", classname=_x(f"conformance.{suite_name}"),
                                 name=_x(r["id"]), file=_x(r.get("file", "")),
                                 line=_x(r.get("line", 0)), time=_x(_seconds(r.get("duration"))))
            text = _x("\n".join(failure_lines(r)), MAX_BODY)
            status = r["status"]
            message = _x(r["message"])
            if status == "failed":
                ET.SubElement(case, "failure", message=message, type="failed").text = text
            elif status == "xpassed":
                ET.SubElement(case, "failure", message=message, type="xpassed").text = text
            elif status == "errored":
                ET.SubElement(case, "error", message=message, type="errored").text = text
            elif status == "unsupported":
                ET.SubElement(case, "skipped", message=f"unsupported: {message}")
            elif status == "xfailed":
                ET.SubElement(case, "skipped",
                              message=_x(f"xfail: {r.get('reason', '')}")).text = text
    if cut_short:  # CI must not read an interrupted run as green: the run itself is an error
        suite = ET.SubElement(root, "testsuite", name="interrupted", tests="1", failures="0",
                              errors="1", skipped="0", time="0.000")
        case = ET.SubElement(suite, "testcase", classname="conformance", name="run", time="0.000")
        ET.SubElement(case, "error", message=_x(summary_line(data)), type="interrupted").text = \
            _x("\n".join(str(w) for w in data.get("warnings", [])))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _number(value: Any) -> float:
    """A finite number of a report (a duration), 0 for anything else."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return float(value) if ok else 0.0


def _seconds(value: Any) -> str:
    """A duration for JUnit's `time` attribute."""
    return f"{_number(value):.3f}"


# --- Markdown ---------------------------------------------------------------------------------

def md(text: Any) -> str:
    """Text for one Markdown line or table cell: cut, then uno_spec.encoding.markdown (control
    characters dropped, line breaks as spaces, markup escaped)."""
    return cut(text, encode=markdown)


def md_code(text: Any) -> str:
    """Inline code holding any text (uno_spec.encoding.markdown_code), cut."""
    return markdown_code(cut(text))


_md = md


def render_markdown(data: dict[str, Any], title: str | None = None) -> str:
    s = data["summary"]
    impl = data.get("implementation") or {}
    name = f"{impl.get('name', '?')} {impl.get('version', '')}".strip()
    out = [f"# {md(title or 'Conformance report: ' + name)}", ""]
    out.append(f"Adapter {md_code(data.get('adapter'))}, protocol "
               f"{md_code(impl.get('protocol', '?'))}, "
               f"run {md(data.get('started', '?'))} ({_number(data.get('duration')):.2f}s). "
               f"Result: **{_verdict(data)}**.")
    out += ["", "| " + " | ".join(("total",) + STATUSES) + " |",
            "|" + "---:|" * (len(STATUSES) + 1),
            "| " + " | ".join(str(s.get(k, 0)) for k in ("total",) + STATUSES) + " |", ""]
    sections = [("Failures", ("failed", "errored", "xpassed")),
                ("Known failures", ("xfailed",))]
    for heading, statuses in sections:
        items = [r for r in data["results"] if r["status"] in statuses]
        if not items:
            continue
        out += [f"## {heading}", ""]
        for r in items:
            out += [f"### {md_code(r['id'])} ({md(r['status'])})", "", md(r["title"]), "",
                    f"- at {md_code(_where(r))}", f"- {_md(r['message'])}"]
            if r.get("reason"):
                out.append(f"- known failure: {_md(r['reason'])}")
            for key in ("action", "expected", "observed"):
                if r.get(key) is not None:
                    out.append(f"- {key}: {md_code(_j(r[key]))}")
            q = failure_quotes(r)
            for b, clauses in q.broken:  # the rules broken first, with their clauses
                out.append(f"- **rule broken** {_md_rule(b, f'(it governs {q.governs(b)})')}")
                for c in clauses:
                    out += _md_clause(c, "  ")
            if q.broken and q.others:
                out.append("- the scenario's other rules:")
            for rule in q.others:
                out.append(f"{'  ' if q.broken else ''}- rule {_md_rule(rule)}")
            if q.broken and q.rest:
                out += ["", "The scenario's other clauses:"]
            for c in q.rest:
                out += _md_clause(c, "")
            out.append("")
    unsupported = [r for r in data["results"] if r["status"] == "unsupported"]
    if unsupported:
        out += ["## Unsupported", "", "| what the adapter does not support | scenarios |",
                "|---|---:|"]
        out += [f"| {md(reason)} | {n} |" for reason, n in unsupported_reasons(unsupported)]
        out.append("")
        out += [f"- {md_code(r['id'])}: {_md(r['message'])}" for r in unsupported]
        out.append("")
    if data.get("warnings"):
        out += ["## Warnings", ""] + [f"- {_md(w)}" for w in data["warnings"]] + [""]
    out += ["## All scenarios", "", "<details><summary>"
            f"{s['total']} scenarios</summary>", "", "| scenario | ruleset | status |",
            "|---|---|---|"]
    out += [f"| {md_code(r['id'])} | {md(r.get('ruleset', ''))} | {md(r['status'])} |"
            for r in data["results"]]
    out += ["", "</details>", ""]
    return "\n".join(out)


def _md_rule(rule: dict[str, Any], note: str = "") -> str:
    """`[`ID`](link) note: statement` for a Markdown list item."""
    link = specdata.rule_link(str(rule["id"]))
    rid = f"[{md_code(rule['id'])}]({link})" if link else md_code(rule["id"])
    return f"{rid}{' ' + md(note) if note else ''}: {_md(rule['statement'])}"


def _md_clause(c: dict[str, Any], indent: str) -> list[str]:
    """A clause quoted (original, then English) as a Markdown block quote."""
    link = specdata.clause_link(str(c["id"]))
    cid = f"[{md(c['id'])}]({link})" if link else md(c["id"])
    out = ["" if not indent else indent.rstrip() or "", f"{indent}> **{cid}**: {_md(c['text'])}"]
    if c.get("en"):
        out.append(f"{indent}> *{_md(c['en'])}*")
    return out


def _verdict(data: dict[str, Any]) -> str:
    stop = interruption(data)
    if stop is not None:
        return md(stop)
    return "OK" if exit_code(data) == 0 else "unexpected results"


def render(data: dict[str, Any], fmt: str) -> str:
    if fmt == "json":
        return dumps(data) + "\n"
    if fmt == "junit":
        return render_junit(data)
    if fmt == "markdown":
        return render_markdown(data)
    if fmt == "console":
        return console_text(data)
    raise ReportError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
