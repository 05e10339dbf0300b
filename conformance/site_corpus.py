"""The scenario corpus in the site: one page per scenario file (`corpus/<file>.html`), each
scenario with its rules and clauses (links), its steps in words, every implementation's
verdict, and its YAML lines (`#L<n>` anchors the lines a link names: the scenario's first line
and each step's); and the pieces the rule pages reuse (steps in words, verdict cells).

Steps in words follow docs/scenario-format.md: an action is what a player does ("player 0 plays
W4 naming green"), with the refusal it must meet ("refused: not-your-turn, nothing changes");
an expectation lists what must be observed ("current player: 2; hand sizes: 0: 2, 1: 8").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.site_html import Links, e, page, verdict
from uno_spec import sitelinks

if TYPE_CHECKING:
    from conformance.scenario import Scenario, Step
    from conformance.site import Implementation

Result = dict[str, Any]


@dataclass
class CorpusFile:
    relative: str  # under the corpus folder: `classic/wd4.yaml`
    shown: str  # as reports name it: `conformance/corpus/classic/wd4.yaml`
    lines: list[str]
    scenarios: list[Scenario] = field(default_factory=list)

    @property
    def href(self) -> str:
        return sitelinks.corpus_path(self.relative)


def load_files(root: Path | None = None) -> list[CorpusFile]:
    """Every scenario file of the corpus (default: the bundled one) with its scenarios; a bad
    file raises ValueError (one line, `file:line: ...`)."""
    from conformance.scenario import CORPUS_ROOT, load_corpus, scenario_files
    from uno_spec.files import read_text
    from uno_spec.loader import display_path

    folder = root or CORPUS_ROOT
    corpus = load_corpus([folder])
    if corpus.errors:
        raise ValueError(str(corpus.errors[0]))
    files: dict[str, CorpusFile] = {}
    for path in scenario_files([folder]):
        shown = display_path(path)
        files[shown] = CorpusFile(path.relative_to(folder).as_posix(), shown,
                                  read_text(path).splitlines())
    for sc in corpus.scenarios:
        if sc.file in files:
            files[sc.file].scenarios.append(sc)
    return list(files.values())


# --- steps in words ------------------------------------------------------------------------


def value_text(value: Any) -> str:
    """An observation's value in words: a seat map as `0: B5 W4, 1: 3`, lists space-joined."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return " ".join(value_text(v) for v in value) if value else "(empty)"
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {value_text(v)}" for k, v in value.items()) or "(empty)"
    return str(value)


LABELS = {"hand_sizes": "hand sizes", "top": "top card", "active_color": "colour",
          "current": "current player", "draw_size": "draw pile", "discard_size": "discard pile",
          "round_over": "hand over", "game_over": "game over", "total_cards": "cards in play",
          "card_counts": "card counts"}


def expect_text(expect: Mapping[str, Any]) -> str:
    parts = []
    for key, value in expect.items():
        if key == "pending" and isinstance(value, Mapping):
            who = value.get("player", "?") if "player" in value else None
            what = value.get("decision")
            words = " ".join(x for x in (f"player {who}" if who is not None else "",
                                         f"to {what}" if what else "") if x)
            parts.append(f"pending: {words or value_text(value)}")
        else:
            parts.append(f"{LABELS.get(key, key.replace('_', ' '))}: {value_text(value)}")
    return "; ".join(parts)


def action_text(act: Mapping[str, Any]) -> str:
    who = f"player {act.get('player')}"
    if act.get("next_round"):
        return "the next hand is dealt"
    if "referee" in act:
        card = f" {act['card']}" if act.get("card") else ""
        if act["referee"] == "hint":
            return f"referee: {who} gave a hint"
        if act["referee"] == "wrong-card":
            return f"referee: {who} tried the wrong card{card}"
        return f"referee ({act['referee']}): {who}{card}"
    if "play" in act:
        text = f"{who} plays {act['play']}"
        if act.get("color"):
            text += f" naming {act['color']}"
        return text + (" and calls UNO" if act.get("uno") else "")
    if "draw" in act:
        return f"{who} draws"
    if "pass" in act:
        return f"{who} keeps the drawn card (pass)"
    if "challenge" in act:
        return f"{who} challenges" if act["challenge"] else f"{who} accepts (no challenge)"
    if "catch" in act:
        return f"{who} catches player {act['catch']} (UNO not called)"
    if "swap" in act:
        return f"{who} swaps hands with player {act['swap']}"
    if act.get("uno"):
        return f"{who} calls UNO"
    if "color" in act:
        return f"{who} names {act['color']}"
    return json.dumps(dict(act), ensure_ascii=False)


def step_text(step: Step) -> str:
    if step.act is None:
        text = "expect " + expect_text(step.expect or {})
    else:
        text = action_text(step.act)
        if step.error is not None:
            text += f": refused with {step.error}"
            if step.state_unchanged:
                text += ", nothing changes"
    return text + (f" ({step.note})" if step.note else "")


def steps_html(sc: Scenario, links: Links | None = None, depth: int = 0) -> str:
    """The scenario's steps in words (with `links`: each linked to its line)."""
    if sc.expect_setup_error:
        return (f'<ol class="steps"><li>the set-up must be refused with '
                f'<code>{e(sc.expect_setup_error)}</code></li></ol>')
    if sc.match is not None:
        m = sc.match
        items = [f"match format <code>{e(m.get('format', ''))}</code>"
                 + (f", {e(m['rounds'])} round(s)" if "rounds" in m else "")
                 + (f", {len(m.get('results') or [])} hand result(s) given"
                    if m.get("results") else "")]
        items += [f"expect {e(k)}: {e(value_text(v))}" for k, v in
                  (m.get("expect") or {}).items()]
        return '<ol class="steps">' + "".join(f"<li>{i}</li>" for i in items) + "</ol>"
    out = []
    for step in sc.steps:
        href = links.line(sc.id, step.line, depth) if links is not None else None
        text = e(step_text(step))
        out.append(f'<li><a href="{e(href)}">{text}</a></li>' if href else f"<li>{text}</li>")
    return '<ol class="steps">' + "".join(out) + "</ol>"


# --- verdicts ------------------------------------------------------------------------------


def difference(r: Result) -> str:
    """What a failed scenario observed against what it expected, in words."""
    where = f"step {r['step']} ({r.get('step_kind')}): " if r.get("step") else ""
    mismatches = r.get("mismatches")
    if isinstance(mismatches, list) and mismatches:
        parts = []
        for m in mismatches[:8]:
            if isinstance(m, dict):
                parts.append(f"{m.get('key')}: expected {value_text(m.get('expected'))}, "
                             f"observed {value_text(m.get('observed'))}")
        more = f"; and {len(mismatches) - 8} more" if len(mismatches) > 8 else ""
        return where + "; ".join(parts) + more
    return where + str(r.get("message") or outcome_word(r))


def outcome_word(r: Result) -> str:
    return str(r.get("outcome") or r.get("status") or "")


def verdict_cell(r: Result | None) -> str:
    """One implementation's verdict of one scenario: pass; fail with the observed difference;
    unsupported with the reason (a <details> opens them)."""
    if r is None:
        return '<td class="v none"><span class="badge none">not run</span></td>'
    v = verdict(r)
    if v == "pass":
        return '<td class="v pass"><span class="badge pass">pass</span></td>'
    label = "unsupported" if v == "unsupported" else outcome_word(r) or "fail"
    why = str(r.get("message") or "") if v == "unsupported" else difference(r)
    return (f'<td class="v {v}"><details><summary><span class="badge {v}">{e(label)}</span>'
            f'</summary><div class="diff">{e(why[:2000])}</div></details></td>')


def verdict_table(scenarios: Iterable[tuple[str, Scenario | None, str]],
                  impls: list[Implementation], links: Links, depth: int) -> str:
    """Rows of (scenario id, scenario or None when only a report knows it, title): the
    scenario linked to its page and line, its steps in words, one verdict per implementation."""
    head = "".join(f'<th scope="col">{e(i.title)}</th>' for i in impls)
    rows = []
    counts = {i.key: {"pass": 0, "fail": 0, "unsupported": 0} for i in impls}
    for sid, sc, title in scenarios:
        page_href = links.scenario(sid, depth)
        name = f'<a href="{e(page_href)}"><code>{e(sid)}</code></a>' if page_href \
            else f"<code>{e(sid)}</code>"
        place = ""
        if sc is not None:
            href = links.line(sid, sc.line, depth)
            where = f"{sc.file}:{sc.line}"
            place = (f' <a class="muted" href="{e(href)}">{e(where)}</a>' if href
                     else f' <span class="muted">{e(where)}</span>')
            n = len(sc.steps)
            steps = (f"<details><summary>{n} step{'' if n == 1 else 's'} in words</summary>"
                     f"{steps_html(sc)}</details>")
        else:
            steps = '<span class="muted">(not in the corpus)</span>'
        cells = []
        for impl in impls:
            r = impl.by_id.get(sid)
            if r is not None:
                counts[impl.key][verdict(r)] += 1
            cells.append(verdict_cell(r))
        rows.append(f'<tr data-scenario="{e(sid)}"><td>{name}{place}<br>{e(title)}{steps}</td>'
                    f'{"".join(cells)}</tr>')
    if not rows:
        return '<p class="muted">No scenario of the corpus tests this rule yet.</p>'
    foot = "".join(
        f'<td class="n">{c["pass"]} pass · {c["fail"]} fail · {c["unsupported"]} unsup.</td>'
        for c in counts.values())
    return (f'<table class="verdicts"><thead><tr><th scope="col">scenario</th>{head}</tr>'
            f'</thead><tbody>{"".join(rows)}</tbody><tfoot><tr><th scope="row">'
            f"{len(rows)} scenario(s)</th>{foot}</tr></tfoot></table>")


# --- the pages -----------------------------------------------------------------------------


def _listing(f: CorpusFile, first: int, last: int) -> str:
    """Lines first..last (1-based) of the file, each with its anchor `L<n>`."""
    out = [f'<span class="l" id="L{n}">{e(f.lines[n - 1])}</span>'
           for n in range(first, min(last, len(f.lines)) + 1)]
    return f'<pre class="yaml" style="counter-reset:l {first - 1}">{"".join(out)}</pre>'


def render_file(f: CorpusFile, impls: list[Implementation], links: Links) -> str:
    depth = f.href.count("/")
    body = [f"<h1><code>{e(f.shown)}</code></h1>",
            f'<p class="muted">{len(f.scenarios)} scenario(s), each with its rules, the clauses '
            "it cites, its steps in words, every implementation's verdict and its lines of the "
            "file (the format: docs/scenario-format.md).</p>"]
    starts = [sc.line for sc in f.scenarios]
    if starts and starts[0] > 1:  # the file's head (comments, `scenarios:`)
        body.append(f"<h2>Head of the file</h2>{_listing(f, 1, starts[0] - 1)}")
    for i, sc in enumerate(f.scenarios):
        last = (starts[i + 1] - 1) if i + 1 < len(starts) else len(f.lines)
        rules = ", ".join(
            f'<a href="{e(href)}"><code>{e(r)}</code></a>' if (href := links.rule(r, depth))
            else f"<code>{e(r)}</code>" for r in sc.rules) or "—"
        cites = ", ".join(
            f'<a href="{e(href)}"><code>{e(c)}</code></a>' if (href := links.clause(c, depth))
            else f"<code>{e(c)}</code>" for c in sc.cites) or "—"
        head = "".join(f'<th scope="col">{e(i.title)}</th>' for i in impls)
        cells = "".join(verdict_cell(i.by_id.get(sc.id)) for i in impls)
        body.append(
            f'<section class="scenario" id="{e(sc.id)}"><h2><code>{e(sc.id)}</code></h2>'
            f"<p>{e(sc.title)}</p>"
            f'<dl class="meta"><dt>ruleset</dt><dd><code>{e(sc.ruleset)}</code></dd>'
            f"<dt>rules</dt><dd>{rules}</dd><dt>cites</dt><dd>{cites}</dd>"
            f'<dt>features</dt><dd>{e(", ".join(sc.features) or "—")}</dd></dl>'
            f"<h3>Steps</h3>{steps_html(sc, links, depth)}"
            f'<h3>Verdicts</h3><table class="verdicts"><thead><tr>{head}</tr></thead><tbody>'
            f"<tr>{cells}</tr></tbody></table>"
            f"<h3>In the file</h3>{_listing(f, sc.line, last)}</section>")
    return page(f"{f.shown}: UNO conformance scenarios", "".join(body), depth=depth)


def render(files: list[CorpusFile], impls: list[Implementation], links: Links) -> dict[str, str]:
    return {f.href: render_file(f, impls, links) for f in files}
