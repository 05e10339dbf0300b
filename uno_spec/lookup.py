"""Rule look-up: a rule with its quoted clauses and rulings, search, and counts."""

from __future__ import annotations

import difflib
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from uno_spec import sitelinks
from uno_spec.loader import (
    Clause,
    Rule,
    Ruling,
    Source,
    load_rules,
    load_rulings,
    load_sources,
)
from uno_spec.rulesets import ruleset_files


class UnknownRule(LookupError):
    """No rule has the asked id; the message lists close matches."""


@dataclass(frozen=True)
class Index:
    """Everything a look-up needs, by id."""

    sources: dict[str, Source]
    clauses: dict[str, Clause]
    rules: dict[str, Rule]
    rulings: dict[str, Ruling]

    @classmethod
    def load(cls, root: Path | None = None) -> Index:
        sources = {s.id: s for s in load_sources(root)}
        clauses = {c.id: c for s in sources.values() for c in s.clauses}
        rules = {r.id: r for r in load_rules(root)}
        rulings = {r.id: r for r in load_rulings(root)}
        return cls(sources, clauses, rules, rulings)

    def rulings_for(self, rule: Rule) -> list[Ruling]:
        """The rulings a rule names, then those deciding on a clause it cites."""
        named = [self.rulings[r] for r in rule.rulings if r in self.rulings]
        cites = set(rule.cites)
        touching = [r for r in self.rulings.values()
                    if r not in named and cites.intersection(r.clauses)]
        return named + touching


def fold(text: str) -> str:
    """Accent- and case-insensitive form of a text (NFKD without combining marks, casefolded)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def find_rule(index: Index, rule_id: str) -> Rule:
    """The rule with this id (case-insensitive), or UnknownRule with close matches."""
    if rule_id in index.rules:
        return index.rules[rule_id]
    by_upper = {k.upper(): v for k, v in index.rules.items()}
    if rule_id.upper() in by_upper:
        return by_upper[rule_id.upper()]
    close = difflib.get_close_matches(rule_id.upper(), list(index.rules), n=5, cutoff=0.5)
    hint = f"; close matches: {', '.join(close)}" if close else ""
    raise UnknownRule(f"unknown rule {rule_id!r}{hint}")


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line for line in text.splitlines() or [""])


def format_clause(index: Index, clause_id: str) -> str:
    clause = index.clauses.get(clause_id)
    if clause is None:
        return f"  {clause_id}: (unknown clause)"
    src = index.sources.get(clause.source)
    named = f"{src.title} [{src.language}, seed {src.seed}]" if src else clause.source
    context = f"{_indent(clause.context, '    context: ')}\n" if clause.context else ""
    return (f"  {clause.id} ({clause.kind}) from {named}\n"
            f"    {clause.file}:{clause.line}\n"
            f"{context}"
            f"{_indent(clause.text, '    > ')}\n"
            f"{_indent(clause.en, '    en: ')}")


def format_ruling(ruling: Ruling) -> str:
    options = {o.id: o.text for o in ruling.options}
    lines = [f"  {ruling.id}: {ruling.question}", f"    {ruling.file}:{ruling.line}"]
    lines += [f"    - {o.id}: {o.text}" for o in ruling.options]
    for ruleset, choice in ruling.decisions:
        lines.append(f"    {ruleset} -> {choice}" + (f" ({options[choice]})"
                                                       if choice in options else ""))
    if ruling.reason:
        lines.append(_indent(ruling.reason, "    why: "))
    return "\n".join(lines)


def show_rule(rule_id: str, root: Path | None = None) -> str:
    """The text `uno-fsm rules show` prints (with the rule's, each clause's and each ruling's
    place in the rulebook site: uno_spec.sitelinks)."""
    index = Index.load(root)
    rule = find_rule(index, rule_id)
    site = sitelinks.base()

    def clause(cid: str) -> str:
        text = format_clause(index, cid)
        return f"{text}\n    site: {site}{sitelinks.clause_path(cid)}" if cid in index.clauses \
            else text

    parts = [
        f"{rule.id}  [{rule.area}]  {rule.file}:{rule.line}",
        _indent(rule.statement, "  "),
        f"  rulesets: {', '.join(rule.rulesets)}",
        f"  site: {site}{sitelinks.rule_path(rule.id, rule.area)}",
        "",
        "Cited clauses:",
        *[clause(c) for c in rule.cites],
    ]
    rulings = index.rulings_for(rule)
    parts += ["", "Rulings:"] + ([f"{format_ruling(r)}\n    site: {site}"
                                  f"{sitelinks.ruling_path(r.id)}" for r in rulings]
                                 or ["  (none)"])
    return "\n".join(parts)


@dataclass(frozen=True)
class Hit:
    kind: str  # rule | clause
    id: str
    text: str
    en: str
    file: str
    line: int
    anchor: str = ""  # its place in the rulebook site (uno_spec.sitelinks), from the site's root
    cited_by: tuple[str, ...] = ()  # a clause: the rules citing it (spec/rules), in file order


# Quotation marks a word may carry (typed inside shell quotes, or pasted): they mark nothing
QUOTES = "\"'\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e`"


def query_words(words: list[str]) -> list[str]:
    """The words of a query, as `rules search` reads them: every argument split at white
    space, quotation marks around a word dropped, so that `"wild draw four"` (one argument) is
    the four words `wild draw four` are; empty when there are none."""
    return [w.strip(QUOTES) for arg in words for w in arg.split() if w.strip(QUOTES)]


def normalize(text: str) -> str:
    """The form every text is compared in (`fold`, its white space runs one space): where a
    word or a phrase of a query is looked for."""
    return " ".join(fold(text).split())


def matches(hay: str, words: Sequence[str], phrases: Sequence[str] = ()) -> bool:
    """Whether `hay` (a `normalize`d text) contains every word and every phrase (its words
    in order, as `normalize` writes them), ignoring accents, case and line breaks."""
    return all(normalize(w) in hay for w in words) and \
        all(normalize(p) in hay for p in phrases)


def search(words: list[str], root: Path | None = None,
           phrases: list[str] | None = None) -> list[Hit]:
    """Rules and clauses whose text contains every word (`query_words`) and every phrase,
    ignoring accents and case (`matches`); each clause found with the rules citing it."""
    index = Index.load(root)
    wanted = query_words(words)
    exact = [p for p in (" ".join(x.strip(QUOTES).split()) for x in phrases or []) if p]
    citing: dict[str, list[str]] = {}
    for rule in index.rules.values():
        for cid in rule.cites:
            citing.setdefault(cid, []).append(rule.id)
    hits: list[Hit] = []
    for rule in index.rules.values():
        if matches(normalize(f"{rule.id} {rule.statement}"), wanted, exact):
            hits.append(Hit("rule", rule.id, rule.statement, "", rule.file, rule.line,
                            sitelinks.rule_path(rule.id, rule.area)))
    for clause in index.clauses.values():
        if matches(normalize(f"{clause.id} {clause.text} {clause.en}"), wanted, exact):
            hits.append(Hit("clause", clause.id, clause.text, clause.en, clause.file,
                            clause.line, sitelinks.clause_path(clause.id),
                            tuple(dict.fromkeys(citing.get(clause.id, ())))))
    return hits


def format_hits(hits: list[Hit], words: list[str], phrases: list[str] | None = None) -> str:
    asked = " ".join([*query_words(words), *(f'"{p}"' for p in phrases or [])])
    if not hits:
        return f"no rule or clause contains: {asked}"
    lines: list[str] = []
    site = sitelinks.base()
    for hit in hits:
        lines.append(f"{hit.kind} {hit.id}  {hit.file}:{hit.line}")
        lines.append(_indent(hit.text, "  "))
        if hit.en:
            lines.append(_indent(hit.en, "  en: "))
        if hit.kind == "clause":
            lines.append("  cited by: " + (", ".join(hit.cited_by) or "no rule"))
        if hit.anchor:
            lines.append(f"  site: {site}{hit.anchor}")
    n_rules = sum(h.kind == "rule" for h in hits)
    found = {h.id for h in hits if h.kind == "rule"}
    citing = [r for r in dict.fromkeys(r for h in hits for r in h.cited_by) if r not in found]
    summary = f"{n_rules} rule(s), {len(hits) - n_rules} clause(s)"
    if citing:
        summary += (f"; {len(citing)} more rule(s) cite the clauses found: "
                    + ", ".join(citing))
    lines.append(summary)
    return "\n".join(lines)


def stats(root: Path | None = None) -> str:
    """The text `uno-fsm spec stats` prints."""
    index = Index.load(root)
    lines = ["Clauses per source and kind:"]
    for src in index.sources.values():
        kinds = Counter(c.kind for c in src.clauses)
        detail = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        lines.append(f"  {src.id:<12} {len(src.clauses):>4}  ({detail})")
    lines.append(f"  {'total':<12} {len(index.clauses):>4}")
    lines.append("Rules per area:")
    for area, n in sorted(Counter(r.area for r in index.rules.values()).items()):
        lines.append(f"  {area:<24} {n:>4}")
    lines.append("Rules per ruleset:")
    per_ruleset = Counter(rs for r in index.rules.values() for rs in r.rulesets)
    for name, n in sorted(per_ruleset.items()):
        lines.append(f"  {name:<24} {n:>4}")
    lines.append(f"  {'total rules':<24} {len(index.rules):>4}")
    files = ruleset_files(root)
    bases = sum(f.kind == "base" for f in files.values())
    lines.append(f"Rulings: {len(index.rulings)}")
    lines.append(f"Rulesets: {len(files)} ({bases} base, {len(files) - bases} variant)")
    return "\n".join(lines)
