"""The compliance matrix: implementations x rule areas, rendered from JSON run reports.

    uno-fsm conformance site --output DIR [--from FILE_OR_DIR ...]
    uno-fsm conformance site --markdown docs/compliance/index.md [--check]

Input: JSON reports of `conformance run --no-expectations --format json` (the source of
truth), one per implementation, named `<implementation>.json` (default: every report in
`docs/compliance/data/`). The implementation's knowledge file
`conformance/implementations/<implementation>.yaml`, when there is one, gives its `title` and
`package`; a knowledge file with `no_engine` (why) names a package with no rules engine to
verify, listed apart.

Rows are the rule areas of spec/rules (one file each, e.g. `classic-wd4`). A scenario counts in
every area of the rules it lists (as on the compliance pages), so an area's cell answers "how do
the scenarios exercising these rules fare"; the implementation's totals count each scenario
once. Counts use the run's `outcome` (the status before expectation files), split into pass,
fail (failed or errored) and unsupported.

The HTML site is static: `index.html` (the matrix) and one page per implementation whose
sections, one per area, are what a cell opens (`<implementation>.html#area-<area>`). It works
from `file://`, loads nothing from outside, and escapes every string of a report: reports carry
what implementations answered, and implementations are untrusted.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from uno_spec.encoding import html
from uno_spec.files import path_option

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "docs" / "compliance" / "data"
IMPLEMENTATIONS_DIR = Path(__file__).resolve().parent / "implementations"
NO_AREA = "(no rule)"
VERDICTS = ("pass", "fail", "unsupported")
Result = dict[str, Any]


class SiteError(Exception):
    """Bad input (a report, a metadata file): one line, with the file."""


# --- the model -----------------------------------------------------------------------------


@dataclass
class Implementation:
    key: str  # file stem of its report: pages and metadata are found by it
    title: str
    version: str
    package: str
    report: dict[str, Any]
    by_area: dict[str, list[Result]] = field(default_factory=dict)

    @property
    def results(self) -> list[Result]:
        return list(self.report.get("results") or [])

    def counts(self, results: list[Result] | None = None) -> Counter[str]:
        return Counter(verdict(r) for r in (self.results if results is None else results))


@dataclass
class Matrix:
    implementations: list[Implementation]
    areas: dict[str, str]  # area id -> title, in row order (only areas with scenarios)
    not_verifiable: list[dict[str, str]]


def outcome(r: Result) -> str:
    """The status before expectation files applied."""
    return str(r.get("outcome") or r.get("status") or "")


def verdict(r: Result) -> str:
    o = outcome(r)
    if o == "passed":
        return "pass"
    if o == "unsupported":
        return "unsupported"
    return "fail"  # failed, errored (and anything unknown: never shown as a pass)


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def areas_of(r: Result, rule_area: dict[str, str]) -> list[str]:
    """The rule areas of a result's rules (NO_AREA for a scenario that lists none known)."""
    found = sorted({rule_area[x] for x in _strings(r.get("rules")) if x in rule_area})
    return found or [NO_AREA]


def safe_key(text: str) -> str:
    """A file and fragment name: letters, digits, `.`, `_`, `-` only."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", text).strip(".") or "-"


def report_files(sources: list[Path]) -> list[Path]:
    files: list[Path] = []
    for src in sources:
        if src.is_dir():
            files.extend(sorted(p for p in src.iterdir() if p.suffix == ".json"))
        elif src.is_file():
            files.append(src)
        else:
            raise SiteError(f"{src}: no such file or directory")
    return files


REGISTRIES = {"pypi": "PyPI", "npm": "npm"}


def load_metadata(folder: Path = IMPLEMENTATIONS_DIR) -> dict[str, dict[str, Any]]:
    """Every `<name>.yaml` of conformance/implementations (the knowledge files), by file stem.
    Only `title`, `package` (`registry`, `name`, `version`) and `no_engine` are read here."""
    if not folder.is_dir():
        return {}
    from uno_spec.loader import SpecError, line_of, load_yaml

    out: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.yaml")):
        try:
            doc = load_yaml(path)
        except SpecError as exc:
            raise SiteError(str(exc)) from None
        if not isinstance(doc, dict):
            raise SiteError(f"{path}:1: expected a mapping")
        if doc.get("package") is not None and not isinstance(doc.get("package"), dict):
            raise SiteError(f"{path}:{line_of(doc, 'package')}: `package` must be a mapping "
                            "(registry, name, version)")
        out[safe_key(path.stem)] = doc
    return out


def package_label(meta: dict[str, Any]) -> str:
    """`rlcard 1.2.0 (PyPI)` from a knowledge file's `package`."""
    pkg = _mapping(meta.get("package"))
    if not pkg.get("name"):
        return ""
    registry = str(pkg.get("registry", ""))
    where = f" ({REGISTRIES.get(registry, registry)})" if registry else ""
    return f"{pkg['name']} {pkg.get('version', '')}".strip() + where


def not_verifiable(metadata: dict[str, dict[str, Any]]) -> list[dict[str, str]]:
    """Packages presented as UNO implementations with no rules engine (`no_engine`: why)."""
    out = []
    for key, meta in metadata.items():
        if isinstance(meta.get("no_engine"), str) and meta["no_engine"].strip():
            pkg = _mapping(meta.get("package"))
            registry = str(pkg.get("registry", ""))
            out.append({"name": str(pkg.get("name") or key),
                        "registry": REGISTRIES.get(registry, registry),
                        "version": str(pkg.get("version", "")),
                        "reason": " ".join(meta["no_engine"].split())})
    return out


def load(sources: list[Path] | None = None, *,
         metadata_dir: Path = IMPLEMENTATIONS_DIR) -> Matrix:
    """Read the reports and metadata; raises SiteError on the first bad file."""
    from conformance import reports, specdata
    from conformance.cli import read_report

    files = report_files(sources or [DATA_DIR])
    if not files:
        raise SiteError("no JSON report found in " + ", ".join(map(str, sources or [DATA_DIR])))
    metadata = load_metadata(metadata_dir)
    impls: dict[str, Implementation] = {}
    for path in files:
        try:  # read as `report --from` reads (no FIFO waited on, size capped, strict JSON)
            data = read_report(path)
        except reports.ReportError as exc:
            raise SiteError(str(exc)) from None
        if data.get("interrupted"):  # a matrix of part of the corpus would mislead
            raise SiteError(f"{path}: {reports.interruption(data)}: run the corpus again whole")
        key = safe_key(path.stem)
        if key in impls:
            raise SiteError(f"{path}: a second report for implementation {key!r}")
        hello = _mapping(data.get("implementation"))
        meta = metadata.get(key, {})
        impls[key] = Implementation(
            key=key, title=str(meta.get("title") or hello.get("name") or key),
            version=str(hello.get("version") or _mapping(meta.get("package")).get("version")
                        or ""),
            package=package_label(meta), report=data)
    try:
        rule_area = {rid: r.area for rid, r in specdata.rules().items()}
        titles = specdata.rule_areas()
    except Exception as exc:  # noqa: BLE001 - a broken spec: say so in one line
        raise SiteError(f"cannot read spec/rules: {exc}") from None
    used: set[str] = set()
    for impl in impls.values():
        for r in impl.results:
            if not isinstance(r, dict):
                raise SiteError(f"{impl.key}: a result that is not an object")
            for area in areas_of(r, rule_area):
                impl.by_area.setdefault(area, []).append(r)
                used.add(area)
    areas = {a: t for a, t in titles.items() if a in used}
    if NO_AREA in used:
        areas[NO_AREA] = "Scenarios that list no rule"
    order = sorted(impls, key=lambda k: (k != "reference", k))
    return Matrix([impls[k] for k in order], areas, not_verifiable(metadata))


# --- HTML ----------------------------------------------------------------------------------

CSS = """
:root{--bg:#fff;--fg:#1d2330;--muted:#5b6475;--line:#dde1e8;--head:#f4f6f9;--pass:#2f9e44;
--fail:#d9480f;--uns:#adb5bd;--link:#1c64c8;--code:#f1f3f5}
@media (prefers-color-scheme:dark){:root{--bg:#14161b;--fg:#e4e7ec;--muted:#9aa3b2;
--line:#2c313b;--head:#1c1f26;--pass:#51cf66;--fail:#ff8787;--uns:#5c636e;--link:#74c0fc;
--code:#1f232b}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
background:var(--bg);color:var(--fg)}
main{max-width:1200px;margin:0 auto;padding:24px}
a{color:var(--link);text-decoration:none}a:hover{text-decoration:underline}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.muted{color:var(--muted)}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
thead th{background:var(--head);position:sticky;top:0;z-index:1}
.matrix td.cell{text-align:center;white-space:nowrap;min-width:120px}
.matrix td.cell a{display:block;color:inherit}
.bar{display:flex;height:7px;border-radius:4px;overflow:hidden;background:var(--line);
margin:3px 0}
.bar i{display:block}.bar .pass{background:var(--pass)}.bar .fail{background:var(--fail)}
.bar .unsupported{background:var(--uns)}
.n{font-variant-numeric:tabular-nums;font-size:12px}
.rate{display:block;font-size:15px;font-variant-numeric:tabular-nums}
.n .pass{color:var(--pass)}.n .fail{color:var(--fail)}.n .unsupported{color:var(--muted)}
.area-id{font-family:ui-monospace,monospace;font-size:12px;color:var(--muted)}
.badge{display:inline-block;min-width:84px;padding:1px 6px;border-radius:9px;font-size:12px;
text-align:center;color:#fff}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}
.badge.unsupported{background:var(--uns)}
details.area{border:1px solid var(--line);border-radius:6px;margin:8px 0}
details.area>summary{cursor:pointer;padding:8px 12px;background:var(--head);
border-radius:6px;display:flex;gap:12px;align-items:center}
details.area[open]>summary{border-bottom:1px solid var(--line);border-radius:6px 6px 0 0}
details.area:target>summary{outline:2px solid var(--link)}
details.area>summary .bar{width:140px}
ul.scenarios{list-style:none;margin:0;padding:8px 12px}
ul.scenarios>li{padding:4px 0;border-bottom:1px dashed var(--line)}
ul.scenarios>li:last-child{border-bottom:0}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
pre{background:var(--code);padding:6px 8px;border-radius:4px;overflow:auto;margin:4px 0;
white-space:pre-wrap;word-break:break-word}
.failure{margin:6px 0 6px 92px}
.cmp{display:grid;grid-template-columns:1fr 1fr;gap:8px}
blockquote{margin:4px 0;padding:2px 10px;border-left:3px solid var(--line)}
blockquote .en{color:var(--muted);font-style:italic}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0}
"""

# Opens the area a fragment names (a matrix cell links to `<impl>.html#area-<area>`).
SCRIPT = ("function openTarget(){var id=decodeURIComponent(location.hash.slice(1));"
          "var el=id&&document.getElementById(id);if(el&&el.tagName==='DETAILS'){"
          "el.open=true;}}"
          "addEventListener('DOMContentLoaded',openTarget);"
          "addEventListener('hashchange',openTarget);")


def _e(value: Any) -> str:
    """HTML text or attribute (uno_spec.encoding.html: escaped; control characters and lone
    surrogates, which no page can hold, dropped)."""
    return html(value)


def _csp() -> str:
    digest = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
    return (f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'; "
            "img-src data:")


def _page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{_e(_csp())}\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{_e(title)}</title><style>{CSS}</style><script>{SCRIPT}</script></head>"
        f"<body><main>{body}</main></body></html>\n")


def _bar(c: Counter[str]) -> str:
    total = sum(c.values()) or 1
    parts = "".join(f'<i class="{v}" style="width:{100 * c[v] / total:.2f}%"></i>'
                    for v in VERDICTS if c[v])
    return f'<div class="bar">{parts}</div>'


def _rate(c: Counter[str]) -> str:
    """Pass rate of the scenarios judged (unsupported ones left out), as test262.fyi shows."""
    judged = c["pass"] + c["fail"]
    text = f"{100 * c['pass'] / judged:.0f}%" if judged else "—"
    return f'<b class="rate" title="passed of the scenarios judged">{text}</b>'


def _numbers(c: Counter[str]) -> str:
    return (f'<span class="n"><span class="pass" title="pass">{c["pass"]} pass</span> · '
            f'<span class="fail" title="fail">{c["fail"]} fail</span> · '
            f'<span class="unsupported" title="unsupported">{c["unsupported"]} unsup.</span>'
            "</span>")


def area_anchor(area: str) -> str:
    return "area-" + safe_key(area)


def _impl_label(impl: Implementation) -> str:
    version = f' <span class="muted">{_e(impl.version)}</span>' if impl.version else ""
    return f'<a href="{_e(impl.key)}.html">{_e(impl.title)}</a>{version}'


def render_index(m: Matrix) -> str:
    head = "".join(f'<th class="impl" data-impl="{_e(i.key)}">{_impl_label(i)}</th>'
                   for i in m.implementations)
    totals = "".join(
        f'<td class="cell total" data-impl="{_e(i.key)}">{_rate(i.counts())}'
        f"{_bar(i.counts())}{_numbers(i.counts())}</td>" for i in m.implementations)
    rows = []
    for area, title in m.areas.items():
        cells = []
        for impl in m.implementations:
            results = impl.by_area.get(area, [])
            if not results:
                cells.append(f'<td class="cell empty" data-impl="{_e(impl.key)}">'
                             '<span class="muted">—</span></td>')
                continue
            c = impl.counts(results)
            cells.append(
                f'<td class="cell" data-impl="{_e(impl.key)}" data-area="{_e(area)}" '
                f'data-pass="{c["pass"]}" data-fail="{c["fail"]}" '
                f'data-unsupported="{c["unsupported"]}"><a href="{_e(impl.key)}.html#'
                f'{_e(area_anchor(area))}" title="{_e(impl.title)}: {_e(title)}">'
                f"{_rate(c)}{_bar(c)}{_numbers(c)}</a></td>")
        rows.append(f'<tr data-area="{_e(area)}"><th scope="row">{_e(title)}<br>'
                    f'<span class="area-id">{_e(area)}</span></th>{"".join(cells)}</tr>')
    body = [
        "<h1>UNO conformance: compliance matrix</h1>",
        '<p class="muted">Each implementation played the scenario corpus of uno-fsm; every '
        "scenario cites the rulebook clauses it checks. Rows are rule areas (a scenario counts "
        "in each area of the rules it lists); a cell opens its scenarios, each failure with "
        "expected against observed and the clauses quoted. <em>fail</em> counts failed and "
        "errored scenarios; <em>unsupported</em> ones need a ruleset, feature or observation "
        "the implementation does not declare. The percentage is passed of the scenarios judged "
        "(unsupported ones left out).</p>",
        '<table class="matrix"><thead><tr><th>rule area</th>' + head + "</tr></thead><tbody>",
        '<tr class="totals"><th scope="row">all scenarios</th>' + totals + "</tr>",
        *rows, "</tbody></table>"]
    if m.not_verifiable:
        body += ["<h2>Packages with no rules engine to verify</h2>",
                 '<table class="not-verifiable"><thead><tr><th>package</th><th>registry</th>'
                 "<th>version</th><th>why it cannot be verified</th></tr></thead><tbody>"]
        body += [f"<tr><td><code>{_e(p['name'])}</code></td><td>{_e(p['registry'])}</td>"
                 f"<td>{_e(p['version'])}</td><td>{_e(p['reason'])}</td></tr>"
                 for p in m.not_verifiable]
        body.append("</tbody></table>")
    return _page("UNO conformance: compliance matrix", "".join(body))


def _json_block(label: str, value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)
    return f'<div class="{_e(label)}"><b>{_e(label)}</b><pre>{_e(text)}</pre></div>'


def _quotes(r: Result) -> str:
    from conformance import specdata

    quotes = _mapping(r.get("quotes"))
    rules: list[Any] = quotes["rules"] if isinstance(quotes.get("rules"), list) else \
        specdata.quote_rules(_strings(r.get("rules")))
    clauses: list[Any] = quotes["clauses"] if isinstance(quotes.get("clauses"), list) else \
        specdata.quote_clauses(_strings(r.get("cites")))
    try:
        langs = specdata.source_languages()
    except Exception:  # noqa: BLE001 - the language attribute is a nicety
        langs = {}
    out = []
    for q in rules:
        if isinstance(q, dict):
            out.append(f'<p class="rule">rule <code>{_e(q.get("id", ""))}</code>: '
                       f'{_e(q.get("statement", ""))}</p>')
    for q in clauses:
        if not isinstance(q, dict):
            continue
        cid = str(q.get("id", ""))
        lang = langs.get(cid.split(":")[0], "")
        lang_attr = f' lang="{_e(lang)}"' if lang else ""
        en = f'<br><span class="en" lang="en">{_e(q.get("en", ""))}</span>' if q.get("en") \
            else ""
        out.append(f'<blockquote class="clause" data-clause="{_e(cid)}"><code>{_e(cid)}</code> '
                   f'<span class="text"{lang_attr}>\u201c{_e(q.get("text", ""))}\u201d</span>'
                   f"{en}</blockquote>")
    return "".join(out)


def _where(r: Result) -> str:
    loc = f"{r.get('file', '')}:{r.get('step_line') or r.get('line') or 0}"
    if r.get("step"):
        loc += f", step {r.get('step')} ({r.get('step_kind')})"
    return loc


def _scenario(r: Result) -> str:
    v = verdict(r)
    label = outcome(r)
    head = (f'<span class="badge {v}">{_e(label)}</span> <code class="sid">{_e(r.get("id"))}'
            f'</code> <span class="title">{_e(r.get("title", ""))}</span>')
    if v == "pass":
        return f'<li class="scenario pass" data-id="{_e(r.get("id"))}">{head}</li>'
    if v == "unsupported":
        return (f'<li class="scenario unsupported" data-id="{_e(r.get("id"))}">{head}'
                f'<div class="failure muted">{_e(r.get("message", ""))}</div></li>')
    parts = [f'<p class="message">{_e(r.get("message", ""))}</p>',
             f'<p class="muted">at <code>{_e(_where(r))}</code></p>']
    if r.get("action") is not None:
        parts.append(_json_block("action", r.get("action")))
    parts.append('<div class="cmp">' + _json_block("expected", r.get("expected"))
                 + _json_block("observed", r.get("observed")) + "</div>")
    if r.get("detail"):
        parts.append(f'<pre class="detail">{_e(str(r["detail"])[-4000:])}</pre>')
    parts.append(_quotes(r))
    return (f'<li class="scenario fail" data-id="{_e(r.get("id"))}">{head}'
            f'<div class="failure">{"".join(parts)}</div></li>')


def render_implementation(m: Matrix, impl: Implementation) -> str:
    hello = _mapping(impl.report.get("implementation"))

    def joined(key: str) -> str:
        return ", ".join(_strings(hello.get(key))) or "—"

    meta = [("package", impl.package or "—"), ("version", impl.version or "—"),
            ("adapter", impl.report.get("adapter", "")), ("run", impl.report.get("started", "")),
            ("rulesets", joined("rulesets")), ("features", joined("features")),
            ("observations", joined("observations"))]
    c = impl.counts()
    body = [f'<p><a href="index.html">← compliance matrix</a></p><h1>{_e(impl.title)} '
            f'<span class="muted">{_e(impl.version)}</span></h1>',
            '<dl class="meta">' + "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in meta)
            + "</dl>", f'<div class="summary">{_bar(c)}{_numbers(c)} '
            f'<span class="muted">({len(impl.results)} scenarios)</span></div>',
            "<h2>By rule area</h2>"]
    for area, title in m.areas.items():
        results = impl.by_area.get(area, [])
        if not results:
            continue
        ac = impl.counts(results)
        order = {"fail": 0, "unsupported": 1, "pass": 2}
        items = sorted(results, key=lambda r: (order[verdict(r)], str(r.get("id"))))
        body.append(
            f'<details class="area" id="{_e(area_anchor(area))}" data-area="{_e(area)}">'
            f'<summary><b>{_e(title)}</b> <span class="area-id">{_e(area)}</span>'
            f"{_bar(ac)}{_numbers(ac)}</summary>"
            f'<ul class="scenarios">{"".join(_scenario(r) for r in items)}</ul></details>')
    return _page(f"{impl.title}: UNO conformance", "".join(body))


def render_site(m: Matrix) -> dict[str, str]:
    """File name -> HTML text."""
    pages = {"index.html": render_index(m)}
    for impl in m.implementations:
        pages[f"{impl.key}.html"] = render_implementation(m, impl)
    return pages


# --- Markdown ------------------------------------------------------------------------------


def _md(text: Any) -> str:
    from uno_spec.encoding import markdown

    return markdown(text)


def render_markdown(m: Matrix, pages_dir: Path) -> str:
    """docs/compliance/index.md: links `<key>.md` beside it when that page exists."""
    from uno_spec.encoding import markdown_code

    def name(impl: Implementation) -> str:
        label = _md(impl.title)
        return f"[{label}]({impl.key}.md)" if (pages_dir / f"{impl.key}.md").is_file() \
            else label

    out = ["# Compliance matrix", "",
           "Generated by `uno-fsm conformance site --markdown docs/compliance/index.md` from the "
           "JSON reports in `docs/compliance/data/` (`uno-fsm conformance run "
           "--no-expectations --format json`); do not edit by hand. `uno-fsm conformance site "
           "--output DIR` renders the same data as a static HTML site, where each cell opens its "
           "scenarios with expected against observed and the clauses quoted.", "",
           "![The compliance matrix in a browser](matrix.png)", "",
           "## Implementations", "",
           "| implementation | version | package | adapter | scenarios | pass | fail | "
           "unsupported |", "|---|---|---|---|---:|---:|---:|---:|"]
    for impl in m.implementations:
        c = impl.counts()
        out.append(f"| {name(impl)} | {_md(impl.version)} | {_md(impl.package)} | "
                   f"{markdown_code(impl.report.get('adapter', ''))} | {len(impl.results)} | "
                   f"{c['pass']} | {c['fail']} | {c['unsupported']} |")
    out += ["", "## By rule area", "",
            "Each cell: pass / fail / unsupported scenarios. A scenario counts in every area of "
            "the rules it lists; *fail* includes errored scenarios. Areas are the files of "
            "`spec/rules/` (see [the rules](../rules/index.md)).", "",
            "| rule area | " + " | ".join(name(i) for i in m.implementations) + " |",
            "|---|" + "---:|" * len(m.implementations)]
    for area, title in m.areas.items():
        cells = []
        for impl in m.implementations:
            results = impl.by_area.get(area, [])
            if not results:
                cells.append("—")
                continue
            c = impl.counts(results)
            cells.append(f"{c['pass']} / {c['fail']} / {c['unsupported']}")
        out.append(f"| {_md(title)} (`{_md(area)}`) | " + " | ".join(cells) + " |")
    if m.not_verifiable:
        out += ["", "## Packages with no rules engine to verify", "",
                "Published as UNO packages, but they hold no game to drive (no turns, no card "
                "effects), so the suite has nothing to judge (data: `no_engine` in "
                "`conformance/implementations/<name>.yaml`).", "",
                "| package | registry | version | why |", "|---|---|---|---|"]
        out += [f"| {markdown_code(p['name'])} | {_md(p['registry'])} | {_md(p['version'])} | "
                f"{_md(p['reason'])} |" for p in m.not_verifiable]
    out.append("")
    return "\n".join(out)


# --- command line --------------------------------------------------------------------------


def register(csub: Any) -> None:
    """Add `uno-fsm conformance site` (called from conformance.cli.register)."""
    p = csub.add_parser("site", help="compliance matrix (static HTML site and/or Markdown) "
                        "from JSON run reports",
                        description="Render the compliance matrix, implementations x rule "
                        "areas, from JSON reports of `conformance run --format json`.",
                        epilog="exit status: 0 written (or up to date with --check); 1 stale "
                        "with --check; 2 bad input or usage")
    p.add_argument("--from", dest="sources", type=path_option, action="append", default=[],
                   metavar="FILE_OR_DIR",
                   help="JSON report or directory of them, named <implementation>.json "
                   "(repeatable; default: docs/compliance/data/)")
    p.add_argument("--output", "-o", type=path_option, metavar="DIR",
                   help="write the HTML site here (index.html and one page per implementation)")
    p.add_argument("--markdown", type=path_option, metavar="FILE",
                   help="write the Markdown matrix here (docs/compliance/index.md)")
    p.add_argument("--check", action="store_true",
                   help="with --markdown: write nothing, exit 1 if FILE is not up to date")
    p.set_defaults(handler=cmd_site)


def _err(message: str) -> int:
    from uno_spec.encoding import terminal_line

    print(f"uno-fsm conformance site: {terminal_line(message)}", file=sys.stderr)
    return 2


def cmd_site(args: argparse.Namespace) -> int:
    from conformance.cli import write_file

    if args.output is None and args.markdown is None:
        return _err("nothing to do: give --output DIR and/or --markdown FILE")
    if args.check and (args.markdown is None or args.output is not None):
        return _err("--check goes with --markdown FILE alone")
    from uno_spec.files import directory_problem

    if args.output is not None and (problem := directory_problem(args.output, "--output")):
        return _err(problem)
    try:
        matrix = load(args.sources or None)
    except SiteError as exc:
        return _err(str(exc))
    pages = render_site(matrix) if args.output is not None else {}
    from conformance.cli import clash

    problem = clash(  # nothing written over a report or a knowledge file the site is made of
        [("--markdown", None if args.check else args.markdown),
         *(("--output", args.output / name) for name in pages)],
        [*(("a report read with --from", p) for p in report_files(args.sources or [DATA_DIR])),
         *(("a knowledge file", p) for p in sorted(IMPLEMENTATIONS_DIR.glob("*.yaml")))])
    if problem is not None:
        return _err(problem)
    if args.markdown is not None:
        text = render_markdown(matrix, args.markdown.parent)
        if args.check:
            try:
                current = args.markdown.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                current = None
            if current != text:
                print(f"{args.markdown}: stale (run `uno-fsm conformance site --markdown "
                      f"{args.markdown}` to regenerate)")
                return 1
            print(f"{args.markdown}: up to date")
            return 0
        if (problem := write_file(args.markdown, text)) is not None:
            return _err(problem)
    if args.output is not None:
        for name, page in pages.items():
            if (problem := write_file(args.output / name, page)) is not None:
                return _err(problem)
        print(f"wrote {len(matrix.implementations) + 1} page(s) to {args.output}")
    return 0
