"""Compliance report of a third-party implementation, rendered from a JSON run report.

    uno-fsm conformance compliance --implementation rlcard --run
    uno-fsm conformance compliance --implementation rlcard --from docs/compliance/data/rlcard.json

Everything the report says about one implementation (its package, adapter, commands, how it is
driven, the adapter's decisions, what it lacks, its deviation catalogue with the matchers that
recognise each deviation's failures, the failures checked by hand) is data:
conformance/implementations/<name>.yaml, read through `conformance.knowledge`. This module is
generic.

The report counts pass, fail and unsupported per rule area (the `area` of the rule's file in
spec/rules), then lists each deviation: the implementation's code behind it (file and function),
its scenarios, and the rules it breaks with their statements and the clauses they cite, quoted
(original and English). A failure nobody has explained is listed as unclassified, never hidden.
The same attribution rewrites the expectation file, so that `conformance run` with it reports
only what changed.

The run's `outcome` field (the status before expectation files applied) is what is counted, so a
run with or without the expectation file gives the same report.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from conformance.knowledge import Deviation, Implementation, ImplementationError
from uno_spec.files import json_text, path_option, read_json

ROOT = Path(__file__).resolve().parent.parent
FAIL = ("failed", "errored")

Result = dict[str, Any]
UNCHECKED = " [attributed by its failure signature; not yet checked by hand]"

# --- attribution -------------------------------------------------------------------------------


@functools.cache
def _scenarios(file: str) -> dict[str, Any]:
    from conformance.scenario import ScenarioError, load_file

    path = Path(file)
    if not path.is_absolute() and not path.is_file():
        path = ROOT / file
    try:
        return {s.id: s for s in load_file(path)}
    except (ScenarioError, OSError):
        return {}


def scenario_of(r: Result) -> Any:
    return _scenarios(str(r.get("file", ""))).get(r["id"]) if r.get("file") else None


def outcome(r: Result) -> str:
    """The status before expectation files applied: passed, failed, errored or unsupported."""
    return str(r.get("outcome") or r["status"])


def _msg(r: Result) -> str:
    return str(r.get("message", ""))


@functools.cache
def _oracle() -> Any:
    """The reference engine declaring its `events` (the oracle of `conformance diff`), in
    process: it replays a failing scenario to its failing step (conformance.blame)."""
    from conformance.blame import reference_oracle

    return reference_oracle()


def broken(r: Result) -> Any:
    """The signature of a failing result (conformance.blame.Signature): what differs, the
    decision asked for and the rule broken. Read from the result's `broken` (written by
    `compliance --run`), else computed by replaying its scenario on the reference."""
    from conformance.blame import Signature, failure_signature

    if outcome(r) not in FAIL:
        return None
    stored = r.get("broken")
    if isinstance(stored, dict):
        try:
            return Signature(**{k: str(stored.get(k) or "")
                                for k in ("kind", "what", "decision", "rule")})
        except TypeError:
            pass
    sc = scenario_of(r)
    return failure_signature(r, sc, _oracle()) if sc is not None else None


def attribute(r: Result, impl: Implementation) -> Deviation | None:
    """The known deviation of `impl` whose recorded signature is the failing result's (None:
    unclassified)."""
    sc = scenario_of(r)
    sig = broken(r)
    for dev in impl.deviations:
        try:
            if dev.matches(r, sc, sig):
                return dev
        except Exception:  # noqa: BLE001 - a bad result shape is simply not matched
            continue
    return None


# --- expectation file --------------------------------------------------------------------------


def expectations_text(data: dict[str, Any], impl: Implementation,
                      previous: dict[str, str] | None = None) -> str:
    """The expectation file for the failing scenarios of a run, each with the reason."""
    previous = previous or {}
    hello = data.get("implementation") or {}
    lines = [
        f"# Known failures of {hello.get('name', impl.title)} {hello.get('version', '')} "
        "against the corpus, each with the",
        f"# {impl.label} code behaviour behind it ({impl.page} explains each one).",
        "# Generated; do not edit by hand. Regenerate with:",
        f"#   {impl.commands['run']}",
        f"#   {impl.commands['compliance']}",
        f"implementation: {impl.name}",
    ]
    entries = []
    for r in sorted(data["results"], key=lambda x: x["id"]):
        if outcome(r) not in FAIL:
            continue
        dev = attribute(r, impl)
        if dev is not None:
            reason = dev.reason + ("" if r["id"] in impl.verified else UNCHECKED)
        elif r["id"] in previous:
            reason = previous[r["id"]]
        else:
            reason = f"UNCLASSIFIED (check against {impl.label}'s code): {_msg(r)}"
        entries.append((r["id"], reason))
    if not entries:
        lines.append("failures: []")
    else:
        lines.append("failures:")
        for sid, reason in entries:
            # YAML's double-quoted scalars are JSON's strings (json_text: a lone surrogate of a
            # message escaped); an id that is not a plain scenario id is quoted too
            shown = sid if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", sid) else \
                json_text(sid, None)
            lines += [f"  - id: {shown}", f"    reason: {json_text(reason, None)}"]
    return "\n".join(lines) + "\n"


def _previous_reasons(path: Path) -> dict[str, str]:
    from conformance import expectations as exp

    if not path.is_file():
        return {}
    try:
        return {e.pattern: e.reason for e in exp.load(path).entries}
    except exp.ExpectationsError:
        return {}


# --- the Markdown report -----------------------------------------------------------------------


def _md(text: Any) -> str:
    from conformance.reports import md

    return md(text)


def _code(text: Any) -> str:
    """Inline code holding any text of the report (uno_spec.encoding.markdown_code)."""
    from conformance.reports import md_code

    return md_code(text)


def render_markdown(data: dict[str, Any], info: Implementation, site: str | None = None) -> str:
    """The compliance page; `site`: the base of its links into the rulebook site (the rule
    areas, rules and clauses it names; uno_spec.sitelinks), None for none."""
    from conformance import specdata
    from uno_spec import sitelinks
    from uno_spec.loader import load_rules

    impl = data.get("implementation") or {}
    all_rules = {r.id: r for r in load_rules()}
    area_titles = _area_titles()
    results = data["results"]
    attributed: dict[str, Deviation | None] = {
        r["id"]: attribute(r, info) for r in results if outcome(r) in FAIL}

    # rule status: fail if a failing scenario blames it, pass if a passing scenario lists it
    rule_status: dict[str, set[str]] = defaultdict(set)
    sigs = {r["id"]: broken(r) for r in results if outcome(r) in FAIL}
    for r in results:
        o = outcome(r)
        rules = list(r.get("rules", []))
        if o in FAIL:
            sig = sigs[r["id"]]
            for x in [sig.rule] if sig is not None and sig.rule else rules:
                rule_status[x].add("fail")
        elif o == "passed":
            for x in rules:
                rule_status[x].add("pass")
        elif o == "unsupported":
            for x in rules:
                rule_status[x].add("unsupported")

    def rule_verdict(rid: str) -> str:
        s = rule_status.get(rid, set())
        for v in ("fail", "pass", "unsupported"):
            if v in s:
                return v
        return "untested"

    declared = set(impl.get("rulesets") or ["classic-official"])
    areas: dict[str, dict[str, Counter[str]]] = defaultdict(
        lambda: {"scenarios": Counter(), "rules": Counter()})
    for rid, rule in all_rules.items():
        if rid in rule_status or declared & set(rule.rulesets):
            areas[rule.area]["rules"][rule_verdict(rid)] += 1
    for r in results:
        o = outcome(r)
        verdict = "fail" if o in FAIL else "pass" if o == "passed" else "unsupported"
        rules = list(r.get("rules", []))
        sig = sigs.get(r["id"])
        if verdict == "fail" and sig is not None and sig.rule in all_rules:
            rules = [sig.rule]  # a failure counts in the area of the rule it breaks
        for area in sorted({all_rules[x].area for x in rules if x in all_rules}):
            areas[area]["scenarios"][verdict] += 1

    s = Counter(outcome(r) for r in results)
    traced = sum(1 for k, d in attributed.items() if d is not None and k in info.verified)
    matched = sum(1 for k, d in attributed.items() if d is not None and k not in info.verified)
    unclassified = sum(1 for d in attributed.values() if d is None)
    name = f"{impl.get('name', '?')} {impl.get('version', '')}".strip()
    pkg = info.package
    kind = {"pypi": "Python package", "npm": "npm package"}.get(pkg["registry"], "package")
    module = f", module `{pkg['module']}`" if pkg.get("module") else ""
    out = [
        f"# Compliance report: {_md(name)}",
        "",
        "Generated from a conformance run; do not edit by hand. Produced with",
        "",
        "```sh",
        *info.commands["setup"],
        info.commands["run"],
        info.commands["compliance"],
        "```",
        "",
        f"Implementation: **{_md(name)}** ({kind} `{pkg['name']}` {pkg['version']}{module}), "
        f"adapter {_code(data.get('adapter'))} (`{info.adapter['file']}`), protocol "
        f"{_code(impl.get('protocol', '?'))}, run {_md(data.get('started', '?'))}. "
        f"Declared rulesets: {_md(', '.join(map(str, impl.get('rulesets', []))))}; features: "
        f"{_md(', '.join(map(str, impl.get('features', []))))}; observations: "
        f"{_md(', '.join(map(str, impl.get('observations', []))))}.",
        "",
        f"**{len(results)} scenarios: {s['passed']} pass, {s['failed'] + s['errored']} fail "
        f"({s['errored']} errored), {s['unsupported']} unsupported.**",
        "",
        f"Of the {len(attributed)} failures, {traced} traced by hand to {info.label}'s code, "
        f"{matched} matched by their signature to a deviation traced before (what differs "
        f"and the rule broken), {unclassified} unclassified.",
        "",
        f"## How {info.label} is driven",
        "",
        *(f"- {_md(b)}" for b in info.driven),
        f"- {_md(info.lacks)}",
        "",
        "## Adapter decisions",
        "",
        "Where the implementation's API and the protocol differ, the adapter bridges them. Each "
        "choice below is the adapter's, not the implementation's; the deviations further down "
        "are the implementation's own.",
        "",
        *(f"- **{_md(d.title)}** ({d.key}): {_md(d.text)}" for d in info.decisions),
        *(["- None."] if not info.decisions else []),
        "",
        "## Per rule area",
        "",
        "A passing or unsupported scenario counts once in each area of the rules it lists, a "
        "failing one in the area of the rule it breaks (the rule that governs what differs at "
        "the failing step, from the reference engine's events). A rule *fails* when a failing "
        "scenario breaks it, *passes* when a passing scenario lists it and none fails; rules of "
        "the declared rulesets with no scenario run are *untested*.",
        "",
        "| area | title | scenarios pass | fail | unsupported | rules pass | fail | "
        "unsupported | untested |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for area in sorted(areas):
        sc_c, ru_c = areas[area]["scenarios"], areas[area]["rules"]
        label = area if site is None else f"[{area}]({site}{sitelinks.area_path(area)})"
        out.append(f"| {label} | {_md(area_titles.get(area, ''))} | {sc_c['pass']} | "
                   f"{sc_c['fail']} | {sc_c['unsupported']} | {ru_c['pass']} | {ru_c['fail']} "
                   f"| {ru_c['unsupported']} | {ru_c['untested']} |")
    out.append("")

    out += ["## Deviations", ""]
    by_dev: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        if outcome(r) in FAIL:
            dev = attributed[r["id"]]
            by_dev[dev.key if dev else ""].append(r)
    if not by_dev:
        out += ["None: every scenario run passed.", ""]
    n = 0
    for dev in info.deviations:
        items = by_dev.get(dev.key)
        if not items:
            continue
        n += 1
        whose = "Adapter artefact, adapter code" if dev.artefact else f"{info.label} code"
        what = ", ".join(_code(w) for w in dev.signature.get("what") or [])
        out += [f"### {n}. {_md(dev.title)}", "",
                f"{whose}: `{info.code_path(dev)}` `{dev.code.function}` {dev.behaviour}.", "",
                f"Signature: {what} differs, breaking one of its rules.", "",
                f"Scenarios ({len(items)}): " + ", ".join(
                    _code(r["id"]) + ("" if r["id"] in info.verified
                                      else " (matched by signature, not yet checked by hand)")
                    for r in items), ""]
        out += ["Rules it breaks (with the clauses they cite):", ""]
        out += _rule_quotes(cited_rules(items, sigs, dev, all_rules), all_rules, specdata, site)
    rest = by_dev.get("")
    if rest:
        out += ["### Unclassified failures", "",
                f"Not explained by a known {info.label} behaviour yet: check each against "
                f"{info.label}'s code (an adapter mistake is fixed in the adapter, not listed "
                "here).", ""]
        for r in rest:
            sig = sigs.get(r["id"])
            where = f"{r.get('file')}:{r.get('step_line') or r.get('line')}"
            out += [f"- {_code(r['id'])} ({_md(where)}): "
                    f"{_md(_msg(r))}" + (f" (signature: {_md(sig.describe())})" if sig else "")]
            for q in (r.get("quotes") or {}).get("rules", []):
                out.append(f"  - rule {_code(q['id'])}: {_md(q['statement'])}")
        out.append("")

    out += _diff_section(info, all_rules, site)
    out += ["## Unsupported", "", f"| what {info.label} lacks | scenarios |", "|---|---:|"]
    missing: Counter[str] = Counter()
    for r in results:
        if outcome(r) == "unsupported":
            missing[_md(_msg(r).removeprefix("adapter does not declare "))] += 1
    out += [f"| {k} | {v} |" for k, v in missing.most_common()]
    out += ["", "## All scenarios", "", "<details><summary>"
            f"{len(results)} scenarios</summary>", "", "| scenario | ruleset | outcome |",
            "|---|---|---|"]
    out += [f"| {_code(r['id'])} | {_md(r.get('ruleset', ''))} | {_md(outcome(r))} |"
            for r in results]
    out += ["", "</details>", ""]
    return "\n".join(out)


def diff_report_path(info: Implementation) -> Path:
    """The stored `conformance diff` report of an implementation (JSON, `--format json`):
    docs/compliance/diff/<name>.json, beside the directory of the run reports."""
    return info.path(info.report).parent.parent / "diff" / f"{info.name}.json"


def _diff_section(info: Implementation, all_rules: dict[str, Any] | None = None,
                  site: str | None = None) -> list[str]:
    """The groups `conformance diff` reported, from the stored diff report (none: nothing)."""
    path = diff_report_path(info)
    if not path.is_file():
        return []
    data = read_json(path.read_text(encoding="utf-8"))
    s, cov = data["summary"], data["coverage"]
    out = ["## Differential fuzzing", "",
           f"`uno-fsm conformance diff --adapter {_md(data['adapter'])} --seed {data['seed']} "
           f"--no-database --format json -o {path.relative_to(ROOT)}` (the default budget, 200 "
           f"examples): {s['examples']} examples with shrinking and targeting replays, "
           f"{s['steps']} steps ({s['illegal_steps']} illegal) in {s['fuzz_seconds']:.0f} s of "
           f"fuzzing ({s['steps_per_second']:.0f} steps/s with shrinking, on a shared machine), "
           f"{s['seconds']:.0f} s with reduction and confirmation; {s['groups']} group(s) "
           f"reported, {s['dropped']} dropped as not reproducible; {cov['exercised']} of "
           f"{cov['rules_in_scope']} rules exercised. Each group's reduced scenario fails on "
           f"{info.label} and passes on the reference (docs/differential.md).", "",
           "| what differs | decision | rule broken | kind | examples | players / cards in "
           "hands / steps |", "|---|---|---|---|---:|---|"]
    for g in data["groups"]:
        sig, z = g["signature"], g["size"]
        rid, rule = sig["rule"], (all_rules or {}).get(sig["rule"] or "")
        name = f"`{_md(rid or '-')}`"
        if site is not None and rule is not None:
            from uno_spec import sitelinks

            name = f"[{name}]({site}{sitelinks.rule_path(rid, rule.area)})"
        out.append(f"| {_md(sig['what'] or '-')} | {_md(sig['decision'])} | "
                   f"{name} | {_md(g['kind'])} | {g['count']} | "
                   f"{z['players']} / {z['cards_in_hands']} / {z['steps']} |")
    out.append("")
    above = [g for g in data["groups"] if g.get("above_target")]  # the report says why
    out += [f"- {_md(g['signature']['what'] or '-')} ({_md(g['signature']['rule'] or '-')}): "
            f"{_md(g['above_target'])}." for g in above]
    return out + [""] if above else out


def cited_rules(items: list[Result], sigs: dict[str, Any], dev: Deviation | None = None,
                rule_ids: Any = ()) -> list[str]:
    """The rules a deviation's failures break (each failure's signature), sorted; a crash or
    hang observes nothing, so for it the deviation's own rules (`rule_ids`: the known ids)."""
    out: set[str] = set()
    for r in items:
        sig = sigs.get(r["id"])
        if sig is None:
            continue
        if sig.kind in ("crash", "hang") and dev is not None:
            out.update(x for x in rule_ids if dev.blames(x))
        elif sig.rule:
            out.add(sig.rule)
    return sorted(out)


def _rule_quotes(rule_ids: list[str], all_rules: dict[str, Any], specdata: Any,
                 site: str | None = None) -> list[str]:
    """Each rule with its statement and the clauses it cites; with `site`, the rule and each
    clause link to their anchors in the rulebook site."""
    from uno_spec import sitelinks

    out: list[str] = []
    for rid in rule_ids:
        rule = all_rules.get(rid)
        if rule is None:
            out += [f"- rule `{rid}`: (not found in spec/rules)", ""]
            continue
        name = f"`{rid}`" if site is None else \
            f"[`{rid}`]({site}{sitelinks.rule_path(rid, rule.area)})"
        out += [f"- rule {name} ({rule.area}): {_md(rule.statement)}", ""]
        for c in specdata.quote_clauses(list(rule.cites)):
            cid = c["id"] if site is None else \
                f"[{c['id']}]({site}{sitelinks.clause_path(c['id'])})"
            out.append(f"  > **{cid}**: {_md(c['text'])}")
            if c.get("en"):
                out.append(f"  > *{_md(c['en'])}*")
            out.append("")
    return out


def _area_titles() -> dict[str, str]:
    from uno_spec.loader import load_yaml, spec_root

    out: dict[str, str] = {}
    for path in sorted((spec_root() / "rules").glob("*.yaml")):
        doc = load_yaml(path)
        if isinstance(doc, dict):
            out[str(doc.get("area") or path.stem)] = str(doc.get("title", ""))
    return out


# --- command line ------------------------------------------------------------------------------


def register(csub: Any) -> None:
    """Add `uno-fsm conformance compliance` (called from conformance.cli.register)."""
    from conformance.cli import memory_limit_option, timeout_option

    p = csub.add_parser(
        "compliance", help="compliance page (Markdown) and expectation file of an "
        "implementation, from a JSON run report",
        description="Render docs/compliance/<name>.md and conformance/expectations/<name>.yaml "
        "from a JSON run report, with what conformance/implementations/<name>.yaml knows about "
        "the implementation. With neither --output nor --write-expectations both go to the "
        "paths the implementation file names; with either, only what is asked is written.")
    p.add_argument("--implementation", metavar="NAME",
                   help="conformance/implementations/NAME.yaml (default: the implementation "
                   "whose adapter ran the report)")
    p.add_argument("--from", dest="source", type=path_option, metavar="FILE",
                   help="JSON report of `conformance run --format json` (default: the "
                   "implementation's committed report)")
    p.add_argument("--run", action="store_true",
                   help="first run the corpus against the implementation (its adapter, no "
                   "expectation file) and write the JSON report to --from or its default")
    timeout_option(p, "scenario, with --run")
    memory_limit_option(p)  # with --run
    p.add_argument("--output", "-o", type=path_option, metavar="FILE",
                   help="write the Markdown page here ('-': stdout)")
    p.add_argument("--write-expectations", type=path_option, metavar="FILE",
                   help="rewrite this expectation file from the run's failures")
    from uno_spec import sitelinks

    sitelinks.add_option(p, "the `site/` folder beside `docs/`, relative to the page (on "
                         "stdout: `site/` in the working directory)")
    p.set_defaults(handler=cmd_compliance)


def _fail(message: str) -> int:
    from uno_spec.encoding import terminal_line

    print(f"uno-fsm conformance compliance: {terminal_line(message)}", file=sys.stderr)
    return 2


def _implementation_of(args: argparse.Namespace, data: dict[str, Any] | None) -> Implementation:
    from conformance import knowledge

    if args.implementation:
        return knowledge.get(args.implementation)
    adapter = (data or {}).get("adapter")
    impl = knowledge.by_adapter(adapter)
    if impl is not None:
        return impl
    raise ImplementationError(f"no implementation file has adapter {adapter!r}: name one with "
                              "--implementation")


def _run(impl: Implementation, timeout: float, memory_limit: int) -> dict[str, Any]:
    """Run the whole corpus against the implementation, without expectations."""
    from conformance import reports
    from conformance.adapters import resolve
    from conformance.blame import blame_failures
    from conformance.runner import Runner
    from conformance.scenario import load_corpus

    corpus = load_corpus(None)
    if corpus.errors:
        raise ImplementationError(f"{len(corpus.errors)} scenario file error(s): "
                                  f"{corpus.errors[0]}")
    spec = resolve(impl.adapter["spec"], timeout=timeout, memory_limit=memory_limit)
    report = Runner(spec.factory, adapter_name=spec.spec, timeout=timeout).run(corpus.scenarios)
    # the rule each failure breaks, for the pages and the matrix
    blame_failures(report.results, corpus.scenarios, _oracle)
    return reports.to_json(report)


def cmd_compliance(args: argparse.Namespace) -> int:
    from conformance import reports
    from conformance.adapters import AdapterSpecError
    from conformance.cli import memory_limit_bytes, output_problem, read_report, write_file

    if args.implementation is not None and not args.implementation.strip():
        return _fail("--implementation is empty: name an implementation "
                     "(conformance/implementations/NAME.yaml)")
    try:
        impl = _implementation_of(args, None) if args.implementation or args.run else None
    except ImplementationError as exc:
        return _fail(str(exc))
    if impl is not None and impl.no_engine:
        return _fail(f"{impl.name}: no rules engine to verify ({impl.no_engine})")
    source: Path | None = args.source
    if source is None:
        if impl is None:
            return _fail("--from FILE or --implementation NAME is required")
        source = impl.path(impl.report)
    if args.run:  # every output checked before the corpus is run (uno_spec.files.clash)
        assert impl is not None
        page, written = _outputs(args, impl)
        for path in (source, None if str(page) == "-" else page, written):
            if (problem := output_problem(path)) is not None:
                return _fail(problem)
        from conformance.cli import clash, scenario_inputs

        problem = clash([("--from", source), ("--output", _file(page)),
                         ("--write-expectations", written)],
                        [("the implementation's knowledge file", impl.file),
                         *scenario_inputs(None)])
        if problem is not None:
            return _fail(problem)
        try:
            data = _run(impl, args.timeout, memory_limit_bytes(args))
        except (AdapterSpecError, ImplementationError) as exc:
            return _fail(str(exc))
        if data.get("interrupted"):  # a partial run replaces neither the report nor the page
            _fail(f"{reports.interruption(data)}; nothing written")
            return reports.exit_code(data)
        if (problem := write_file(source, reports.render(data, "json"))) is not None:
            return _fail(problem)
    else:
        try:
            data = read_report(source)
        except reports.ReportError as exc:
            return _fail(str(exc))
        if data.get("interrupted"):  # a page of part of the corpus would mislead
            return _fail(f"{source}: {reports.interruption(data)}: run the corpus again whole")
    try:
        impl = impl or _implementation_of(args, data)
    except ImplementationError as exc:
        return _fail(str(exc))
    page, written = _outputs(args, impl)
    for path in (_file(page), written):  # before anything is written
        if (problem := output_problem(path)) is not None:
            return _fail(problem)
    from conformance.cli import clash

    inputs: list[tuple[str, Path | None]] = [
        ("the implementation's knowledge file", impl.file),
        *(("a scenario file the report names", Path(f)) for f in _report_files(data))]
    if not args.run:
        inputs.append(("the report read with --from", source))
    problem = clash([("--output", _file(page)), ("--write-expectations", written)], inputs)
    if problem is not None:
        return _fail(problem)
    if page is not None:
        from conformance.site import markdown_site_base
        from uno_spec import sitelinks

        # the links into the rulebook site: --site-url, else the `site/` folder beside `docs/`,
        # relative to the page (as docs/compliance/index.md links it)
        site = sitelinks.base() if _file(page) is None else markdown_site_base(page)
        text = render_markdown(data, impl, site)
        if str(page) == "-":
            sys.stdout.write(text)
        elif (problem := write_file(page, text)) is not None:
            return _fail(problem)
    if written is not None:
        previous = _previous_reasons(written)
        problem = write_file(written, expectations_text(data, impl, previous))
        if problem is not None:
            return _fail(problem)
    unexplained = [r["id"] for r in data["results"]
                   if outcome(r) in FAIL and attribute(r, impl) is None]
    if unexplained:
        _fail(f"{len(unexplained)} unclassified failure(s): " + ", ".join(unexplained))
    return 0


def _outputs(args: argparse.Namespace, impl: Implementation) -> tuple[Path | None, Path | None]:
    """The page and the expectation file to write: those asked for, else both at the paths the
    implementation file names."""
    page, written = args.output, args.write_expectations
    if page is None and written is None:
        page, written = impl.path(impl.page), impl.path(impl.expectations)
    return page, written


def _file(page: Path | None) -> Path | None:
    """The page's path, None for stdout (`-`)."""
    return None if page is None or str(page) == "-" else page


def _report_files(data: dict[str, Any]) -> set[str]:
    """The scenario files a report's results name (read to attribute failures)."""
    out = set()
    for r in data["results"]:
        name = r.get("file") if isinstance(r, dict) else None
        if isinstance(name, str) and name:
            path = Path(name)
            out.add(str(path if path.is_absolute() or path.is_file() else ROOT / name))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.compliance")
    sub = parser.add_subparsers(dest="cmd", required=True)
    register(sub)
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    raise SystemExit(main())
