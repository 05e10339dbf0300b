"""The rulebook in the site, from spec/ (through conformance.specdata) and the run reports:

- `rules/index.html` and one page per rule area, `rules/<area>.html`: each rule (anchor: its
  id) with its statement, rulesets, the clauses it cites (original words and English side by
  side, with the source and its section), the rulings that decide it, and the scenarios that
  test it (file and line, steps in words) with every implementation's verdict;
- `sources/index.html` and one page per rulebook text, `sources/<source>.html`: its clauses in
  text order (anchor: the clause id) under their sections, each with the rules citing it; the
  clauses no rule cites are marked and listed;
- `rulings.html`: every ruling (anchor: its id) with its clauses, options, the decision of each
  ruleset, why, and the rules it decides.

Only these pages carry `data-pagefind-body`: the search index (conformance.site_search) holds
rules, clauses and rulings, with one sub-result per heading anchor (a rule, a clause, a ruling);
the scenario tables are left out of it (`data-pagefind-ignore`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from conformance.site_corpus import verdict_table
from conformance.site_html import Links, e, page, up
from uno_spec import sitelinks

if TYPE_CHECKING:
    from conformance.scenario import Scenario
    from conformance.site import Implementation
    from uno_spec.loader import Clause, Rule, Ruling, Source
    from uno_spec.lookup import Index


def _search_body(kind: str) -> str:
    """The attributes of a page's <main> that put it in the search index, as `kind`."""
    return f' data-pagefind-body data-pagefind-meta="kind:{kind}"'


@dataclass
class Rulebook:
    index: Index
    titles: dict[str, str]  # rule area -> title, in file order
    impls: list[Implementation]
    links: Links
    scenarios_of: dict[str, list[tuple[str, Scenario | None, str]]] = field(default_factory=dict)
    cited_by: dict[str, list[str]] = field(default_factory=dict)  # clause -> rule ids
    rulings_of: dict[str, list[Ruling]] = field(default_factory=dict)  # rule -> rulings
    decides: dict[str, list[str]] = field(default_factory=dict)  # ruling -> rule ids

    @classmethod
    def build(cls, index: Index, titles: dict[str, str], impls: list[Implementation],
              scenarios: Iterable[Scenario], links: Links) -> Rulebook:
        book = cls(index, titles, impls, links)
        for rule in index.rules.values():
            for cid in rule.cites:
                book.cited_by.setdefault(cid, []).append(rule.id)
            book.rulings_of[rule.id] = index.rulings_for(rule)
            for ruling in book.rulings_of[rule.id]:
                book.decides.setdefault(ruling.id, []).append(rule.id)
        known: set[str] = set()
        for sc in scenarios:
            known.add(sc.id)
            for rid in sc.rules:
                book.scenarios_of.setdefault(rid, []).append((sc.id, sc, sc.title))
        for impl in impls:  # a scenario only a report knows (another corpus): still listed
            for r in impl.results:
                sid = str(r.get("id"))
                if sid in known or not isinstance(r.get("rules"), list):
                    continue
                known.add(sid)
                for rid in r["rules"]:
                    book.scenarios_of.setdefault(str(rid), []).append(
                        (sid, None, str(r.get("title", ""))))
        return book

    def areas(self) -> dict[str, list[Rule]]:
        out: dict[str, list[Rule]] = {a: [] for a in self.titles}
        for rule in self.index.rules.values():
            out.setdefault(rule.area, []).append(rule)
        return {a: rules for a, rules in out.items() if rules}

    def section_head(self, source: Source, section: str) -> Clause | None:
        """The heading of a section: its first clause when that is informative (every section
        of the five texts but one starts with its title)."""
        first = next((c for c in source.clauses if c.section == section), None)
        return first if first is not None and first.kind == "informative" else None


def _lang(index: Index, clause: Clause) -> str:
    src = index.sources.get(clause.source)
    return src.language if src is not None else ""


def _pair(index: Index, clause: Clause) -> str:
    """The clause's own words and its English, side by side."""
    lang = _lang(index, clause)
    attr = f' lang="{e(lang)}"' if lang else ""
    return (f'<div class="pair"><p class="text"{attr}>{e(clause.text)}</p>'
            f'<p class="en" lang="en">{e(clause.en)}</p></div>')


def _section_anchor(section: str) -> str:
    return f"section-{section}"


def _code_link(text: str, href: str | None) -> str:
    return f'<a href="{e(href)}"><code>{e(text)}</code></a>' if href \
        else f"<code>{e(text)}</code>"


def _code_links(ids: Iterable[str], href: Callable[[str], str | None]) -> str:
    return ", ".join(_code_link(x, href(x)) for x in ids)


# --- rule pages ----------------------------------------------------------------------------


def _cite(book: Rulebook, clause_id: str, depth: int) -> str:
    clause = book.index.clauses.get(clause_id)
    if clause is None:
        return f'<div class="cite"><code>{e(clause_id)}</code> (unknown clause)</div>'
    src = book.index.sources.get(clause.source)
    where = [_code_link(clause.id, book.links.clause(clause_id, depth)), e(clause.kind)]
    if src is not None:
        where.append(f'<span lang="{e(src.language)}">{e(src.title)}</span> '
                     f"({e(src.language)})")
        head = book.section_head(src, clause.section)
        section_href = (f"{up(depth)}{sitelinks.source_path(src.id)}#"
                        f"{_section_anchor(clause.section)}")
        section = f'section <a href="{e(section_href)}">{e(clause.section)}</a>'
        if head is not None and head.id != clause.id:
            section += (f': <span lang="{e(src.language)}">\u201c{e(head.text)}\u201d</span> '
                        f'<span lang="en">({e(head.en)})</span>')
        where.append(section)
    context = f'<p class="where">context: {e(clause.context)}</p>' if clause.context else ""
    return (f'<div class="cite"><p class="where">{" · ".join(where)}</p>{context}'
            f"{_pair(book.index, clause)}</div>")


def _decisions(ruling: Ruling) -> str:
    options = {o.id: o.text for o in ruling.options}
    items = "".join(f"<li><code>{e(rs)}</code>: {e(options.get(choice, choice))}</li>"
                    for rs, choice in ruling.decisions)
    return f'<ul class="decisions">{items}</ul>' if items else ""


def _rule(book: Rulebook, rule: Rule, depth: int) -> str:
    parts = [f'<section class="rule"><h2 id="{e(rule.id)}"><code>{e(rule.id)}</code></h2>',
             f'<p class="statement">{e(rule.statement)}</p>',
             f'<dl class="meta"><dt>rulesets</dt><dd>{e(", ".join(rule.rulesets))}</dd>'
             f"<dt>defined in</dt><dd><code>{e(rule.file)}:{rule.line}</code></dd></dl>",
             f"<h3>Cited clauses ({len(rule.cites)})</h3>",
             *(_cite(book, c, depth) for c in rule.cites)]
    rulings = book.rulings_of.get(rule.id, [])
    if rulings:
        parts.append(f"<h3>Rulings that decide it ({len(rulings)})</h3><ul>")
        for ruling in rulings:
            parts.append(f"<li>{_code_link(ruling.id, book.links.ruling(ruling.id, depth))}: "
                         f"{e(ruling.question)}{_decisions(ruling)}</li>")
        parts.append("</ul>")
    scenarios = book.scenarios_of.get(rule.id, [])
    parts.append(f'<div data-pagefind-ignore><h3>Scenarios that test it ({len(scenarios)}) '
                 "and each implementation's verdict</h3>"
                 f"{verdict_table(scenarios, book.impls, book.links, depth)}</div></section>")
    return "".join(parts)


def render_area(book: Rulebook, area: str, rules: list[Rule]) -> str:
    title = book.titles.get(area, area)
    toc = "".join(f'<li><a href="#{e(r.id)}"><code>{e(r.id)}</code></a></li>' for r in rules)
    body = [f"<h1>{e(title)}</h1>",
            f'<p class="muted">Rule area <code>{e(area)}</code>: {len(rules)} rule(s) of '
            f"<code>spec/rules/{e(area)}.yaml</code>, each citing the rulebook clauses it comes "
            'from. <a href="index.html">All areas</a></p>',
            f'<nav aria-label="Rules of this area"><ul class="toc">{toc}</ul></nav>',
            *(_rule(book, r, 1) for r in rules)]
    return page(f"{title}: UNO rules", "".join(body), depth=1, current="rules/index.html",
                main_attrs=_search_body("rule"))


def render_rules_index(book: Rulebook, areas: dict[str, list[Rule]]) -> str:
    body = ["<h1>The rules, by area</h1>",
            f'<p class="muted">{len(book.index.rules)} rules in {len(areas)} areas, each stated '
            "in English and citing the clauses of the rulebooks it comes from; each rule's page "
            "lists the scenarios that test it and every implementation's verdict.</p>"]
    for area, rules in areas.items():
        items = "".join(f'<li><a href="{e(sitelinks.rule_path(r.id, area).split("/", 1)[1])}">'
                        f"<code>{e(r.id)}</code></a>: {e(r.statement)}</li>" for r in rules)
        body.append(f'<h2><a href="{e(area)}.html">{e(book.titles.get(area, area))}</a> '
                    f'<span class="area-id">{e(area)}</span></h2><ul>{items}</ul>')
    return page("UNO rules by area", "".join(body), depth=1, current="rules/index.html")


# --- source pages --------------------------------------------------------------------------


def _clause(book: Rulebook, clause: Clause) -> str:
    rules = book.cited_by.get(clause.id, [])
    rulings = [r.id for r in book.index.rulings.values() if clause.id in r.clauses]
    if rules:
        cited = ("<p>cited by " + _code_links(rules, lambda x: book.links.rule(x, 1)) + "</p>")
    else:
        why = f": {e(clause.uncited)}" if clause.uncited else ""
        cited = f'<p><span class="uncited-mark">cited by no rule</span>{why}</p>'
    about = ("<p>rulings on it: " + _code_links(rulings, lambda x: book.links.ruling(x, 1))
             + "</p>") if rulings else ""
    context = f'<p class="muted">context: {e(clause.context)}</p>' if clause.context else ""
    state = "cited" if rules else "uncited"
    return (f'<article class="clause {state}" data-kind="{e(clause.kind)}">'
            f'<h3 id="{e(clause.id)}"><code>{e(clause.id)}</code></h3>'
            f'<p class="where">{e(clause.kind)}</p>{context}'
            f"{_pair(book.index, clause)}{cited}{about}</article>")


def render_source(book: Rulebook, source: Source) -> str:
    kinds = Counter(c.kind for c in source.clauses)
    uncited = [c for c in source.clauses if c.id not in book.cited_by]
    sections = list(dict.fromkeys(c.section for c in source.clauses))
    lang = e(source.language)
    body = [f'<h1 lang="{lang}">{e(source.title)}</h1>',
            f'<dl class="meta"><dt>source</dt><dd><code>{e(source.id)}</code> '
            f"(<code>{e(source.file)}</code>)</dd><dt>language</dt><dd>{lang}</dd>"
            f"<dt>edition</dt><dd>{e(source.edition)}</dd><dt>seed text</dt>"
            f"<dd><code>spec/seeds/{e(source.seed)}</code></dd><dt>clauses</dt>"
            f"<dd>{len(source.clauses)} ("
            + ", ".join(f"{n} {e(k)}" for k, n in sorted(kinds.items()))
            + f"); {len(source.clauses) - len(uncited)} cited by a rule, "
            f'<a href="#uncited">{len(uncited)} cited by none</a></dd></dl>',
            '<p class="muted">The text, sentence by sentence, as the project cut it into '
            "clauses: each clause in its original words beside an English rendering, with the "
            "rules that cite it.</p>",
            '<nav aria-label="Sections"><h2>Sections</h2><ul>'
            + "".join(f'<li><a href="#{e(_section_anchor(s))}">{e(s)}</a></li>'
                      for s in sections) + "</ul></nav>"]
    for section in sections:  # (the anchors of sections are not headings: no search result)
        head = book.section_head(source, section)
        title = f' <span lang="{lang}">{e(head.text)}</span>' if head is not None else ""
        body.append(f'<section id="{e(_section_anchor(section))}"><h2 data-pagefind-ignore>'
                    f'<span class="area-id">§ {e(section)}</span>{title}</h2>')
        body += [_clause(book, c) for c in source.clauses if c.section == section]
        body.append("</section>")
    body.append(f'<section id="uncited" data-pagefind-ignore><h2>Clauses no rule cites '
                f"({len(uncited)})</h2>"
                + (_uncited_list(uncited, lambda c: f"#{c.id}") if uncited
                   else "<p>Every clause is cited.</p>") + "</section>")
    return page(f"{source.title}: UNO rulebook text", "".join(body), depth=1,
                current="sources/index.html", main_attrs=_search_body("clause"))


def _uncited_list(clauses: list[Clause], href: Callable[[Clause], str]) -> str:
    items = "".join(f"<li>{_code_link(c.id, href(c))} "
                    f'<span class="muted">{e(c.kind)}</span>: {e(c.en)}</li>' for c in clauses)
    return f'<ul class="uncited">{items}</ul>'


def _in_sources_folder(c: Clause) -> str:
    return sitelinks.clause_path(c.id).split("/", 1)[1]


def render_sources_index(book: Rulebook) -> str:
    rows, lists = [], []
    total = uncited_total = 0
    for source in book.index.sources.values():
        uncited = [c for c in source.clauses if c.id not in book.cited_by]
        total += len(source.clauses)
        uncited_total += len(uncited)
        page_href = sitelinks.source_path(source.id).split("/", 1)[1]
        rows.append(f'<tr><td><a href="{e(page_href)}" lang="{e(source.language)}">'
                    f"{e(source.title)}</a></td><td><code>{e(source.id)}</code></td>"
                    f"<td>{e(source.language)}</td><td>{e(source.edition)}</td>"
                    f'<td class="n">{len(source.clauses)}</td>'
                    f'<td class="n">{len(source.clauses) - len(uncited)}</td>'
                    f'<td class="n"><a href="#uncited-{e(source.id)}">{len(uncited)}</a></td>'
                    "</tr>")
        lists.append(f'<h3 id="uncited-{e(source.id)}">{e(source.id)} ({len(uncited)})</h3>'
                     + (_uncited_list(uncited, _in_sources_folder)
                        if uncited else "<p>Every clause is cited.</p>"))
    body = ["<h1>The rulebook texts</h1>",
            f'<p class="muted">The five texts the project is built on, cut into {total} clauses '
            "with stable ids; each page gives every clause in its original words and in English, "
            f"with the rules that cite it. {total - uncited_total} clauses are cited by a rule; "
            f"{uncited_total} are cited by none (headings, examples, the app, trivia), listed "
            "below.</p>",
            '<table><thead><tr><th scope="col">text</th><th scope="col">id</th>'
            '<th scope="col">language</th><th scope="col">edition</th>'
            '<th scope="col">clauses</th><th scope="col">cited</th>'
            '<th scope="col">cited by no rule</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>",
            f'<h2 id="uncited">Clauses no rule cites ({uncited_total})</h2>', *lists]
    return page("UNO rulebook texts", "".join(body), depth=1, current="sources/index.html")


# --- rulings -------------------------------------------------------------------------------


def _ruling(book: Rulebook, ruling: Ruling) -> str:
    clauses = []
    for cid in ruling.clauses:
        clause = book.index.clauses.get(cid)
        pair = _pair(book.index, clause) if clause is not None else ""
        clauses.append(f"<li>{_code_link(cid, book.links.clause(cid, 0))}{pair}</li>")
    options = "".join(f"<li><code>{e(o.id)}</code>: {e(o.text)}</li>" for o in ruling.options)
    rules = book.decides.get(ruling.id, [])
    params = f"<p>parameters: {e(', '.join(ruling.params))}</p>" if ruling.params else ""
    return (f'<section class="ruling"><h3 id="{e(ruling.id)}"><code>{e(ruling.id)}</code></h3>'
            f"<p>{e(ruling.question)}</p>"
            f"<h4>The clauses</h4><ul>{''.join(clauses)}</ul>"
            f"<h4>Options</h4><ul>{options}</ul>"
            f"<h4>Decided, per ruleset</h4>{_decisions(ruling)}"
            + (f"<h4>Why</h4><p>{e(ruling.reason)}</p>" if ruling.reason else "")
            + params
            + "<h4>The rules it decides</h4><p>"
            + (_code_links(rules, lambda x: book.links.rule(x, 0)) or "none") + "</p>"
            f'<p class="muted"><code>{e(ruling.file)}:{ruling.line}</code></p></section>')


def render_rulings(book: Rulebook) -> str:
    by_file: dict[str, list[Ruling]] = {}
    for ruling in book.index.rulings.values():
        by_file.setdefault(ruling.file, []).append(ruling)
    body = ["<h1>Rulings</h1>",
            f'<p class="muted">{len(book.index.rulings)} places where the sources contradict '
            "each other, leave a gap or can be read two ways: the clauses involved, the options, "
            "the decision each ruleset takes, why, and the rules it decides.</p>",
            '<nav aria-label="Files"><ul>'
            + "".join(f'<li><a href="#file-{e(_stem(f))}"><code>{e(f)}</code></a> '
                      f"({len(rs)})</li>" for f, rs in by_file.items()) + "</ul></nav>"]
    for file, rulings in by_file.items():
        body.append(f'<section id="file-{e(_stem(file))}"><h2 data-pagefind-ignore>'
                    f"<code>{e(file)}</code></h2>")
        body += [_ruling(book, r) for r in rulings]
        body.append("</section>")
    return page("UNO rulings", "".join(body), current=sitelinks.RULINGS_PATH,
                main_attrs=_search_body("ruling"))


def _stem(file: str) -> str:
    return file.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def render(book: Rulebook) -> dict[str, str]:
    """Site path -> HTML of every rulebook page."""
    areas = book.areas()
    pages = {sitelinks.area_path(a): render_area(book, a, rules) for a, rules in areas.items()}
    pages["rules/index.html"] = render_rules_index(book, areas)
    for source in book.index.sources.values():
        pages[sitelinks.source_path(source.id)] = render_source(book, source)
    pages["sources/index.html"] = render_sources_index(book)
    pages[sitelinks.RULINGS_PATH] = render_rulings(book)
    return pages
