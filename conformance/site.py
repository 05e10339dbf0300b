"""The site: the compliance matrix and the rulebook, rendered from the JSON run reports (the
source of truth) and spec/, never edited by hand.

    uno-fsm conformance site [--output DIR] [--from FILE_OR_DIR ...] [--no-search]
    uno-fsm conformance site --markdown docs/compliance/index.md [--check]

Input: JSON reports of `conformance run --no-expectations --format json`, one per
implementation, named `<implementation>.json` (default: every report in
`docs/compliance/data/`). The implementation's knowledge file
`conformance/implementations/<implementation>.yaml`, when there is one, gives its `title` and
`package`; a knowledge file with `no_engine` (why) names a package with no rules engine to
verify, listed apart.

The matrix: rows are the rule areas of spec/rules (one file each, e.g. `classic-wd4`). A
scenario counts in every area of the rules it lists, a failure in the area of the rule it breaks
(`broken.rule`, as on the compliance pages), so an area's cell answers "how do the scenarios
exercising these rules fare"; the implementation's totals count each scenario once. Counts use
the run's `outcome` (the status before expectation files), split into pass, fail (failed or
errored) and unsupported.

The site (default folder `site/`): `index.html` (the matrix) and one page per implementation
whose sections, one per area, are what a cell opens (`<implementation>.html#area-<area>`); the
rule, source and rulings pages (conformance.site_rulebook); one page per scenario file
(conformance.site_corpus); the search page and its index (conformance.site_search). The URL
scheme is uno_spec.sitelinks. It loads nothing from outside, works from `file://` (search
needs HTTP), and escapes every string of a report: reports carry what implementations
answered, and implementations are untrusted.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.site_html import VERDICTS, Links, outcome, page, verdict
from conformance.site_html import e as _e
from uno_spec import sitelinks
from uno_spec.files import path_option

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "docs" / "compliance" / "data"
IMPLEMENTATIONS_DIR = Path(__file__).resolve().parent / "implementations"
NO_AREA = "(no rule)"
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
    _by_id: dict[str, Result] | None = field(default=None, repr=False)

    @property
    def results(self) -> list[Result]:
        return list(self.report.get("results") or [])

    @property
    def by_id(self) -> dict[str, Result]:
        """Its result of each scenario, by scenario id."""
        if self._by_id is None:
            self._by_id = {str(r.get("id")): r for r in self.results}
        return self._by_id

    def counts(self, results: list[Result] | None = None) -> Counter[str]:
        return Counter(verdict(r) for r in (self.results if results is None else results))


@dataclass
class Matrix:
    implementations: list[Implementation]
    areas: dict[str, str]  # area id -> title, in row order (only areas with scenarios)
    not_verifiable: list[dict[str, str]]


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def areas_of(r: Result, rule_area: dict[str, str]) -> list[str]:
    """The rule areas of a result's rules (NO_AREA for a scenario that lists none known); for
    a failure whose report names the rule it breaks (`broken.rule`, written by `conformance
    compliance --run`), that rule's area only."""
    broken = r.get("broken")
    rule = broken.get("rule") if isinstance(broken, dict) else None
    if str(r.get("outcome") or r.get("status")) in ("failed", "errored") and rule in rule_area:
        return [rule_area[str(rule)]]
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
        elif src.exists():  # a device, a FIFO, a socket: read as none of them (/dev/zero)
            from uno_spec.files import kind_of

            raise SiteError(f"{src}: cannot read: {kind_of(src.stat().st_mode)}, not a "
                            "regular file or a directory")
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

    if not sources and not DATA_DIR.is_dir():  # an installed package: no committed reports
        raise SiteError("no JSON report to render: give --from FILE_OR_DIR (reports of "
                        "`uno-fsm conformance run --no-expectations --format json`)")
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


def render_index(m: Matrix, links: Links | None = None) -> str:
    links = links or Links()
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
        href = links.area(area, 0)
        name = f'<a href="{_e(href)}">{_e(title)}</a>' if href else _e(title)
        rows.append(f'<tr data-area="{_e(area)}"><th scope="row">{name}<br>'
                    f'<span class="area-id">{_e(area)}</span></th>{"".join(cells)}</tr>')
    body = [
        "<h1>UNO conformance: compliance matrix</h1>",
        '<p class="muted">Each implementation played the scenario corpus of uno-fsm; every '
        "scenario cites the rulebook clauses it checks. Rows are rule areas (a scenario counts "
        "in each area of the rules it lists, a failure in the area of the rule it breaks, and "
        "an area's name opens its rules); a cell opens its scenarios, each failure with expected "
        "against observed, its rules and the clauses quoted, linked to their pages. "
        "<em>fail</em> counts failed and "
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
    return page("UNO conformance: compliance matrix", "".join(body), current="index.html")


def _json_block(label: str, value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)
    return f'<div class="{_e(label)}"><b>{_e(label)}</b><pre>{_e(text)}</pre></div>'


def _code(text: str, href: str | None) -> str:
    return f'<a href="{_e(href)}"><code>{_e(text)}</code></a>' if href \
        else f"<code>{_e(text)}</code>"


def _quotes(r: Result, links: Links) -> str:
    from conformance import specdata
    from conformance.reports import failure_quotes

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
    ordered = failure_quotes(r, rules, clauses)  # the rules broken first (conformance.blame)
    for b, _ in ordered.broken:
        rid = str(b.get("id", ""))
        what = ", ".join(str(k) for k in b.get("observations") or [] if isinstance(k, str))
        out.append(f'<p class="rule broken">rule broken {_code(rid, links.rule(rid, 0))}'
                   f'{f" (it governs {_e(what)})" if what else ""}: '
                   f'{_e(b.get("statement", ""))}</p>')
    for q in ordered.others:
        rid = str(q.get("id", ""))
        out.append(f'<p class="rule">rule {_code(rid, links.rule(rid, 0))}: '
                   f'{_e(q.get("statement", ""))}</p>')
    for q in [c for _, own in ordered.broken for c in own] + ordered.rest:
        cid = str(q.get("id", ""))
        lang = langs.get(cid.split(":")[0], "")
        lang_attr = f' lang="{_e(lang)}"' if lang else ""
        en = f'<br><span class="en" lang="en">{_e(q.get("en", ""))}</span>' if q.get("en") \
            else ""
        out.append(f'<blockquote class="clause" data-clause="{_e(cid)}">'
                   f"{_code(cid, links.clause(cid, 0))} "
                   f'<span class="text"{lang_attr}>\u201c{_e(q.get("text", ""))}\u201d</span>'
                   f"{en}</blockquote>")
    return "".join(out)


def _where(r: Result) -> str:
    loc = f"{r.get('file', '')}:{r.get('step_line') or r.get('line') or 0}"
    if r.get("step"):
        loc += f", step {r.get('step')} ({r.get('step_kind')})"
    return loc


def _scenario(r: Result, links: Links) -> str:
    v = verdict(r)
    label = outcome(r)
    sid = str(r.get("id"))
    href = links.scenario(sid, 0)
    name = f'<a class="sid" href="{_e(href)}"><code>{_e(sid)}</code></a>' if href \
        else f'<code class="sid">{_e(sid)}</code>'
    head = (f'<span class="badge {v}">{_e(label)}</span> {name} '
            f'<span class="title">{_e(r.get("title", ""))}</span>')
    if v == "pass":
        return f'<li class="scenario pass" data-id="{_e(r.get("id"))}">{head}</li>'
    if v == "unsupported":
        return (f'<li class="scenario unsupported" data-id="{_e(r.get("id"))}">{head}'
                f'<div class="failure muted">{_e(r.get("message", ""))}</div></li>')
    line = links.line(sid, r.get("step_line") or r.get("line"), 0)
    parts = [f'<p class="message">{_e(r.get("message", ""))}</p>',
             f'<p class="muted">at {_code(_where(r), line)}</p>']
    if r.get("action") is not None:
        parts.append(_json_block("action", r.get("action")))
    parts.append('<div class="cmp">' + _json_block("expected", r.get("expected"))
                 + _json_block("observed", r.get("observed")) + "</div>")
    if r.get("detail"):
        parts.append(f'<pre class="detail">{_e(str(r["detail"])[-4000:])}</pre>')
    parts.append(_quotes(r, links))
    return (f'<li class="scenario fail" data-id="{_e(r.get("id"))}">{head}'
            f'<div class="failure">{"".join(parts)}</div></li>')


def render_implementation(m: Matrix, impl: Implementation, links: Links | None = None) -> str:
    links = links or Links()
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
            f'<ul class="scenarios">{"".join(_scenario(r, links) for r in items)}</ul>'
            "</details>")
    return page(f"{impl.title}: UNO conformance", "".join(body))


def render_site(m: Matrix, links: Links | None = None) -> dict[str, str]:
    """The matrix pages: file name -> HTML text."""
    pages = {"index.html": render_index(m, links)}
    for impl in m.implementations:
        pages[f"{impl.key}.html"] = render_implementation(m, impl, links)
    return pages


def render_all(m: Matrix) -> dict[str, str]:
    """Every page of the site but the search index: site path -> HTML text. The rulebook
    comes from spec/ (conformance.specdata), the scenarios from the bundled corpus."""
    from conformance import site_corpus, site_rulebook, site_search, specdata

    try:
        index = specdata.spec_index()
        files = site_corpus.load_files()
    except Exception as exc:  # noqa: BLE001 - a broken spec or corpus: one line
        raise SiteError(f"cannot read spec/ or the corpus: {exc}") from None
    links = Links(rule_area={r.id: r.area for r in index.rules.values()},
                  clauses=set(index.clauses), rulings=set(index.rulings),
                  scenario_file={sc.id: f.relative for f in files for sc in f.scenarios})
    book = site_rulebook.Rulebook.build(index, specdata.rule_areas(), m.implementations,
                                        (sc for f in files for sc in f.scenarios), links)
    pages = render_site(m, links)
    pages.update(site_rulebook.render(book))
    pages.update(site_corpus.render(files, m.implementations, links))
    pages["search.html"] = site_search.render_page()
    return pages


# --- Markdown ------------------------------------------------------------------------------


def _md(text: Any) -> str:
    from uno_spec.encoding import markdown

    return markdown(text)


def render_markdown(m: Matrix, pages_dir: Path, site: str = "../../site/") -> str:
    """docs/compliance/index.md: links `<key>.md` beside it when that page exists, and each
    area's page of the site (`site`: the base of those links, markdown_site_base)."""
    from uno_spec.encoding import markdown_code

    def name(impl: Implementation) -> str:
        label = _md(impl.title)
        return f"[{label}]({impl.key}.md)" if (pages_dir / f"{impl.key}.md").is_file() \
            else label

    out = ["# Compliance matrix", "",
           "Generated by `uno-fsm conformance site --markdown docs/compliance/index.md` from the "
           "JSON reports in `docs/compliance/data/` (`uno-fsm conformance run "
           "--no-expectations --format json`); do not edit by hand. `uno-fsm conformance site` "
           f"renders the same data as a static HTML site ([{site}index.html]({site}index.html)), "
           "where each cell opens its scenarios with expected against observed and the clauses "
           "quoted, and each rule area its rules with their clauses, rulings, scenarios and "
           "verdicts (see docs/site.md).", "",
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
            "the rules it lists, a failure in the area of the rule it breaks; *fail* includes "
            "errored scenarios. Areas are the files of "
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
        label = f"[{_md(title)}]({site}{sitelinks.area_path(area)})" if area != NO_AREA \
            else _md(title)
        out.append(f"| {label} (`{_md(area)}`) | " + " | ".join(cells) + " |")
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
    p = csub.add_parser(
        "site", help="the rulebook site: rules, sources, rulings, scenarios, the compliance "
        "matrix and search, from spec/ and JSON run reports",
        description="Render the site from spec/ and the JSON reports of `conformance run "
        "--no-expectations --format json`: the compliance matrix (implementations x rule "
        "areas) and each implementation's page; one page per rule area (each rule with its "
        "statement, rulesets, cited clauses in their own words beside English, rulings, and "
        "the scenarios testing it with every implementation's verdict); one page per rulebook "
        "text (its clauses, each with the rules citing it; the uncited ones listed); the "
        "rulings; one page per scenario file; and a search page with its Pagefind index. "
        "Every page works from the files (search needs them served over HTTP: python -m "
        "http.server --directory DIR). The Markdown matrix is docs/compliance/index.md.",
        epilog="exit status: 0 written (or up to date with --check); 1 stale with --check; "
        "2 bad input or usage (also: Pagefind missing or failing)")
    p.add_argument("--from", dest="sources", type=path_option, action="append", default=[],
                   metavar="FILE_OR_DIR",
                   help="JSON report or directory of them, named <implementation>.json "
                   "(repeatable; default: docs/compliance/data/)")
    p.add_argument("--output", "-o", type=path_option, metavar="DIR",
                   help=f"write the HTML site here (default, without --markdown: "
                   f"{sitelinks.DEFAULT_DIR}/, where `rules show`, `why` and the reports "
                   "link by default)")
    p.add_argument("--no-search", action="store_true",
                   help="no search index (the site without Pagefind)")
    p.add_argument("--markdown", type=path_option, metavar="FILE",
                   help="write the Markdown matrix here (docs/compliance/index.md)")
    p.add_argument("--check", action="store_true",
                   help="with --markdown: write nothing, exit 1 if FILE is not up to date")
    sitelinks.add_option(p, "the `site/` folder beside `docs/`, relative to FILE: the links "
                         "of --markdown")
    p.set_defaults(handler=cmd_site)


def _err(message: str) -> int:
    from uno_spec.encoding import terminal_line

    print(f"uno-fsm conformance site: {terminal_line(message)}", file=sys.stderr)
    return 2


def markdown_site_base(markdown: Path) -> str:
    """The base of the site links of the Markdown matrix (docs/compliance/index.md): the
    --site-url, else the `site/` folder beside `docs/`, relative to the file."""
    folder = markdown.absolute().parent
    return sitelinks.base(relative_to=folder, site_dir=folder.parent.parent / sitelinks.DEFAULT_DIR)


def _stale(out: Path, pages: dict[str, str]) -> list[Path]:
    """Pages of an earlier build under `out` that this one does not write (they carry the
    generator mark; any other file is left alone). The folder is walked without recursion
    (uno_spec.files.walk; `Path.rglob` met RecursionError in a tree 1 500 levels deep); a
    directory that cannot be listed is passed over."""
    from conformance.site_html import GENERATOR
    from uno_spec.files import walk

    found = []
    html = (Path(folder, name) for folder, _depth, names in (walk(out, strict=False)
                                                              if out.is_dir() else ())
            for name in names if name.endswith(".html"))
    for path in html:
        if path.relative_to(out).as_posix() in pages or not path.is_file():
            continue
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                head = fh.read(200)
        except OSError:
            continue
        if GENERATOR in head:
            found.append(path)
    return found


def write_site(out: Path, pages: dict[str, str]) -> str | None:
    """Write the pages under `out` (and remove the stale ones of an earlier build); the problem
    in one line, or None."""
    from uno_spec.files import write_text_atomic

    if out.exists() and not out.is_dir():
        return f"{out}: not a directory"
    for path in _stale(out, pages):
        try:
            path.unlink()
        except OSError as exc:
            return f"{path}: cannot remove a page of an earlier build: {exc.strerror or exc}"
    for name, text in pages.items():
        path = out / name
        try:  # a generated site: atomic for readers, not fsynced (100+ files)
            write_text_atomic(path, text, sync=False)
        except OSError as exc:
            return f"{path}: cannot write: {exc.strerror or exc}"
    return None


def cmd_site(args: argparse.Namespace) -> int:
    from conformance.cli import write_file

    started = time.monotonic()
    if args.check and (args.markdown is None or args.output is not None):
        return _err("--check goes with --markdown FILE alone")
    if args.output is None and args.markdown is None:
        args.output = Path(sitelinks.DEFAULT_DIR)
    from uno_spec.files import directory_problem

    if args.output is not None and (problem := directory_problem(args.output, "--output")):
        return _err(problem)
    try:
        matrix = load(args.sources or None)
    except SiteError as exc:
        return _err(str(exc))
    from conformance import site_search

    try:
        if args.output is not None and not args.no_search:
            site_search.executable()  # missing Pagefind: say so before writing anything
        pages = render_all(matrix) if args.output is not None else {}
    except (SiteError, site_search.SearchError) as exc:
        return _err(str(exc))
    from conformance.cli import clash

    problem = clash(  # nothing written over a report or a knowledge file the site is made of
        [("--markdown", None if args.check else args.markdown),
         *(("--output", args.output / name) for name in pages)],
        [*(("a report read with --from", p) for p in report_files(args.sources or [DATA_DIR])),
         *(("a knowledge file", p) for p in sorted(IMPLEMENTATIONS_DIR.glob("*.yaml")))])
    if problem is not None:
        return _err(problem)
    if args.markdown is not None:
        text = render_markdown(matrix, args.markdown.parent, markdown_site_base(args.markdown))
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
    if args.output is None:
        return 0
    if (problem := write_site(args.output, pages)) is not None:
        return _err(problem)
    indexed = ""
    if not args.no_search:
        try:
            n = site_search.build_index(args.output)
        except site_search.SearchError as exc:
            return _err(str(exc))
        indexed = f", a search index of {n} page(s)"
    print(f"wrote {len(pages)} page(s) to {args.output}{indexed} in "
          f"{time.monotonic() - started:.1f} s")
    return 0
