"""The rulebook pages of `uno-fsm conformance site` (in process, no browser): every rule, clause,
ruling and scenario has its anchor, the uncited clauses are listed, a rule page shows what a
rule is and how each implementation fares on it, the steps read as words; the command's
options and its failures. The browser tests are tests/test_site_browser.py.

The verdicts come from reports written here (checked against the report schema), on real
scenario ids of the corpus, so that every cell is known.
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from deep_tree import deep_tree

from conformance import site_search, specdata
from conformance.scenario import Step, load_corpus
from conformance.site import load, render_all
from conformance.site_corpus import action_text, expect_text, step_text
from uno_cli.main import main
from uno_spec import sitelinks

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "conformance" / "schema" / "report.schema.json").read_text())
HOSTILE = "<script>document.title='pwned'</script>"
RULE = "CL.DRAW.UNABLE"  # area classic-draw
FAILING = "classic.draw.unable.play-drawn"  # conformance/corpus/classic/draw.yaml:33
UNSUPPORTED = "classic.draw.unable.keep-drawn"
PASSING = "classic.draw.unable.unplayable-passes"


def _result(sid: str, status: str, **extra: Any) -> dict[str, Any]:
    sc = next(s for s in load_corpus(None).scenarios if s.id == sid)
    r: dict[str, Any] = {
        "id": sid, "title": sc.title, "status": status, "outcome": status, "file": sc.file,
        "line": sc.line, "ruleset": sc.ruleset, "step": None, "step_line": None,
        "step_kind": None, "action": None, "expected": None, "observed": None,
        "mismatches": [], "message": "", "detail": "", "reason": "", "rules": list(sc.rules),
        "cites": list(sc.cites), "features": list(sc.features), "duration": 0.001}
    r.update(extra)
    return r


def _report(name: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    counts = {"total": len(results)} | dict.fromkeys(
        ("passed", "failed", "errored", "unsupported", "xfailed", "xpassed"), 0)
    for r in results:
        counts[r["status"]] += 1
    data = {"summary": counts, "format": "uno-conformance-report/1", "ok": False,
            "adapter": "stdio:./x", "implementation": {"name": name, "version": "1.0"},
            "started": "2026-12-01T00:00:00+00:00", "duration": 0.1, "warnings": [],
            "results": results}
    jsonschema.validate(data, SCHEMA)
    return data


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """alpha: FAILING failed at step 2 (two differences, one hostile), UNSUPPORTED unsupported,
    PASSING passed; beta ran PASSING only."""
    folder = tmp_path_factory.mktemp("data")
    alpha = [
        _result(FAILING, "failed", step=2, step_line=54, step_kind="expect",
                expected={"current": 0}, observed={"current": 1},
                mismatches=[{"key": "current", "expected": 0, "observed": 1},
                            {"key": "hands.0", "expected": ["B5", "G2", "R4"],
                             "observed": ["B5", HOSTILE]}],
                message="current: expected 0, observed 1"),
        _result(UNSUPPORTED, "unsupported",
                message="adapter does not declare feature(s) draw-then-play"),
        _result(PASSING, "passed")]
    (folder / "alpha.json").write_text(json.dumps(_report("Alpha", alpha)), encoding="utf-8")
    (folder / "beta.json").write_text(json.dumps(_report("Beta", [_result(PASSING, "passed")])),
                                      encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def pages(reports: Path) -> dict[str, str]:
    return render_all(load([reports]))


def _ids(text: str) -> set[str]:
    return {html.unescape(m) for m in re.findall(r'\sid="([^"]*)"', text)}


def _section(text: str, anchor: str) -> str:
    """The rule section whose heading has this id."""
    start = text.index(f'<h2 id="{anchor}">')
    end = text.find('<section class="rule">', start)
    return text[start:end if end > 0 else len(text)]


# --- every rule, clause, ruling and scenario has its anchor --------------------------------


def test_every_rule_clause_ruling_and_scenario_has_its_anchor(pages: dict[str, str]) -> None:
    index = specdata.spec_index()
    ids = {path: _ids(text) for path, text in pages.items()}
    for rule in index.rules.values():
        assert rule.id in ids[sitelinks.area_path(rule.area)], rule.id
        assert f'href="{sitelinks.rule_path(rule.id, rule.area)[len("rules/"):]}"' in pages[
            "rules/index.html"]  # and the index of the rules links each
    for clause in index.clauses.values():
        assert clause.id in ids[sitelinks.source_path(clause.source)], clause.id
    assert set(index.rulings) <= ids[sitelinks.RULINGS_PATH]
    from conformance.scenario import CORPUS_ROOT

    for sc in load_corpus(None).scenarios:
        relative = Path(sc.file).resolve().relative_to(CORPUS_ROOT).as_posix()
        assert {sc.id, f"L{sc.line}", *(f"L{s.line}" for s in sc.steps)} <= ids[
            sitelinks.corpus_path(relative)], sc.id
    for source in index.sources.values():  # the sources' index links each text's page
        assert f'href="{source.id}.html"' in pages["sources/index.html"]
    for path, found in ids.items():  # no page holds an id twice
        assert len(found) == len(re.findall(r'\sid="', pages[path])), path


def test_the_compliance_pages_link_their_areas_rules_and_clauses_to_their_anchors(
        pages: dict[str, str]) -> None:
    """docs/compliance/<name>.md (issue 27, links from everywhere): every rule area, rule and
    clause it names links into the site beside docs/, and every link lands on its anchor."""
    from urllib.parse import unquote

    from conformance import knowledge

    checked = 0
    for impl in knowledge.load_all():
        if impl.no_engine:
            continue
        text = (ROOT / impl.page).read_text(encoding="utf-8")
        links = re.findall(r"\]\(\.\./\.\./site/([^)#]+)(?:#([^)]*))?\)", text)
        kinds = {path.split("/", 1)[0] for path, _ in links}
        assert {"rules", "sources"} <= kinds, impl.name
        for path, fragment in links:
            assert path in pages, (impl.name, path)
            if fragment:
                assert unquote(fragment) in _ids(pages[path]), (impl.name, path, fragment)
            checked += 1
        # no rule is quoted without its link
        assert not re.search(r"^- rule `[A-Z]", text, re.M), impl.name
    assert checked > 100


def test_uncited_clauses_are_marked_and_listed(pages: dict[str, str]) -> None:
    index = specdata.spec_index()
    cited = {c for r in index.rules.values() for c in r.cites}
    uncited = [c for c in index.clauses.values() if c.id not in cited]
    assert uncited  # headings, examples, the app: the texts have some
    listing = pages["sources/index.html"]
    assert f"Clauses no rule cites ({len(uncited)})" in listing
    for clause in uncited:
        page = pages[sitelinks.source_path(clause.source)]
        at = page.index(f'<h3 id="{html.escape(clause.id)}">')
        assert '<span class="uncited-mark">cited by no rule</span>' in page[at:at + 3000]
        assert f'href="{sitelinks.clause_path(clause.id)[len("sources/"):]}"' in listing
        assert f'href="#{clause.id}"' in page[page.index('id="uncited"'):]
    some_cited = next(c for c in index.clauses.values() if c.id in cited)
    page = pages[sitelinks.source_path(some_cited.source)]
    at = page.index(f'<h3 id="{some_cited.id}">')
    rule = next(r for r in index.rules.values() if some_cited.id in r.cites)
    assert (f'<a href="../{sitelinks.rule_path(rule.id, rule.area)}"><code>{rule.id}</code></a>'
            in page[at:page.index("</article>", at)])


# --- a rule's page ------------------------------------------------------------------------


def test_a_rule_shows_statement_rulesets_clauses_side_by_side_and_rulings(
        pages: dict[str, str]) -> None:
    index = specdata.spec_index()
    rule = index.rules[RULE]
    text = _section(pages["rules/classic-draw.html"], RULE)
    assert f'<p class="statement">{html.escape(rule.statement)}</p>' in text
    assert f"<dd>{', '.join(rule.rulesets)}</dd>" in text
    for cid in rule.cites:
        clause = index.clauses[cid]
        source = index.sources[clause.source]
        assert f'<a href="../sources/{source.id}.html#{cid}"><code>{cid}</code></a>' in text
        assert (f'<div class="pair"><p class="text" lang="{source.language}">'
                f'{html.escape(clause.text)}</p><p class="en" lang="en">'
                f"{html.escape(clause.en)}</p></div>") in text
        assert html.escape(source.title) in text
        assert (f'section <a href="../sources/{source.id}.html#section-{clause.section}">'
                f"{clause.section}</a>") in text
    for ruling in index.rulings_for(rule):
        assert (f'<a href="../rulings.html#{ruling.id}"><code>{ruling.id}</code></a>: '
                f"{html.escape(ruling.question)}") in text


def test_a_rule_lists_its_scenarios_with_file_line_steps_and_every_verdict(
        pages: dict[str, str]) -> None:
    text = _section(pages["rules/classic-draw.html"], RULE)
    scenarios = [s for s in load_corpus(None).scenarios if RULE in s.rules]
    assert f"Scenarios that test it ({len(scenarios)})" in text
    row = text[text.index(f'<tr data-scenario="{FAILING}">'):]
    row = row[:row.index("</tr>")]
    sc = next(s for s in scenarios if s.id == FAILING)
    assert (f'<a href="../corpus/classic/draw.html#{FAILING}"><code>{FAILING}</code></a> '
            f'<a class="muted" href="../corpus/classic/draw.html#L33">{sc.file}:33</a>') in row
    assert ("<li>player 0 draws</li><li>expect current player: 0; pending: player 0 to "
            "play-drawn; hand sizes: 0: 3; hands: 0: B5 G2 R4; draw pile: 2</li>"
            "<li>player 0 plays R4</li>") in row
    # alpha failed: the observed difference, the hostile one escaped; beta did not run it
    cells = re.findall(r'<td class="v[^"]*">.*?</td>', row)
    assert len(cells) == 2  # one per implementation of the reports: alpha, beta
    assert cells[0] == ('<td class="v fail"><details><summary><span class="badge fail">failed'
                        '</span></summary><div class="diff">step 2 (expect): current: expected '
                        "0, observed 1; hands.0: expected B5 G2 R4, observed B5 "
                        "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;</div>"
                        "</details></td>")
    assert cells[1] == '<td class="v none"><span class="badge none">not run</span></td>'
    unsupported = text[text.index(f'<tr data-scenario="{UNSUPPORTED}">'):]
    assert ('<span class="badge unsupported">unsupported</span></summary><div class="diff">'
            "adapter does not declare feature(s) draw-then-play</div>") in unsupported[
        :unsupported.index("</tr>")]
    passing = text[text.index(f'<tr data-scenario="{PASSING}">'):]
    assert passing[:passing.index("</tr>")].count('<span class="badge pass">pass</span>') == 2
    # the totals per implementation, under the table
    assert ('<td class="n">1 pass · 1 fail · 1 unsup.</td><td class="n">1 pass · 0 fail · '
            "0 unsup.</td>") in text


def test_only_rules_clauses_and_rulings_are_indexed_for_search(pages: dict[str, str]) -> None:
    for path, text in pages.items():
        indexed = "data-pagefind-body" in text
        kind = re.search(r'data-pagefind-meta="kind:(\w+)"', text)
        if path.startswith("rules/") and path != "rules/index.html":
            assert indexed and kind and kind[1] == "rule", path
            # the scenario tables stay out of the index
            assert text.count("<div data-pagefind-ignore><h3>Scenarios") == text.count(
                '<section class="rule">')
        elif path.startswith("sources/") and path != "sources/index.html":
            assert indexed and kind and kind[1] == "clause", path
        elif path == sitelinks.RULINGS_PATH:
            assert indexed and kind and kind[1] == "ruling"
        else:
            assert not indexed, path


def test_a_report_scenario_the_corpus_lacks_is_listed_under_its_rule(
        tmp_path: Path) -> None:
    r = _result(PASSING, "failed", message="boom")
    r.update(id="elsewhere.only-in-this-report", title="from another corpus " + HOSTILE,
             rules=[RULE, "NO.SUCH.RULE"])
    (tmp_path / "gamma.json").write_text(json.dumps(_report("Gamma", [r])), encoding="utf-8")
    text = _section(render_all(load([tmp_path]))["rules/classic-draw.html"], RULE)
    row = text[text.index('<tr data-scenario="elsewhere.only-in-this-report">'):]
    assert row.startswith('<tr data-scenario="elsewhere.only-in-this-report"><td><code>'
                          "elsewhere.only-in-this-report</code><br>from another corpus "
                          "&lt;script&gt;")
    assert '<span class="muted">(not in the corpus)</span>' in row[:row.index("</tr>")]


# --- steps in words ------------------------------------------------------------------------


@pytest.mark.parametrize("act, words", [
    ({"player": 0, "play": "W4", "color": "green"}, "player 0 plays W4 naming green"),
    ({"player": 0, "play": "R7", "uno": True}, "player 0 plays R7 and calls UNO"),
    ({"player": 0, "draw": True}, "player 0 draws"),
    ({"player": 0, "pass": True}, "player 0 keeps the drawn card (pass)"),
    ({"player": 1, "challenge": True}, "player 1 challenges"),
    ({"player": 1, "challenge": False}, "player 1 accepts (no challenge)"),
    ({"player": 0, "uno": True}, "player 0 calls UNO"),
    ({"player": 2, "catch": 0}, "player 2 catches player 0 (UNO not called)"),
    ({"player": 0, "swap": 2}, "player 0 swaps hands with player 2"),
    ({"player": 1, "color": "green"}, "player 1 names green"),
    ({"referee": "hint", "player": 1}, "referee: player 1 gave a hint"),
    ({"referee": "wrong-card", "player": 0, "card": "R7"},
     "referee: player 0 tried the wrong card R7"),
    ({"next_round": True}, "the next hand is dealt"),
])
def test_every_action_reads_as_words(act: dict[str, Any], words: str) -> None:
    assert action_text(act) == words


def test_expectations_and_refusals_read_as_words() -> None:
    assert expect_text({"pending": {"player": 1, "decision": "challenge"}, "hand_sizes":
                        {"0": 2, "1": 8}, "active_color": "green", "round_over": True,
                        "winner": None, "hands": {"2": []}}) == (
        "pending: player 1 to challenge; hand sizes: 0: 2, 1: 8; colour: green; hand over: "
        "yes; winner: none; hands: 2: (empty)")
    step = Step(index=3, line=9, act={"player": 2, "challenge": True},
                error="not-your-decision", state_unchanged=True, note="only the victim")
    assert step_text(step) == ("player 2 challenges: refused with not-your-decision, nothing "
                               "changes (only the victim)")


# --- the command ---------------------------------------------------------------------------


def _site(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["conformance", "site", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_without_options_the_site_goes_to_site_here(
        reports: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = _site(capsys, "--from", str(reports), "--no-search")
    assert (code, err) == (0, "")
    assert out.startswith("wrote ") and " page(s) to site in " in out
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "rules" / "classic-draw.html").is_file()
    assert not (tmp_path / "site" / "pagefind").exists()


def test_missing_or_failing_pagefind_is_one_line_and_exit_2(
        reports: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def missing() -> Path:
        raise site_search.SearchError("the search index needs Pagefind: pip install "
                                      "'uno-fsm[site]' (or --no-search for a site without "
                                      "search)")

    monkeypatch.setattr(site_search, "executable", missing)
    out_dir = tmp_path / "a"
    assert _site(capsys, "--from", str(reports), "-o", str(out_dir)) == (
        2, "", "uno-fsm conformance site: the search index needs Pagefind: pip install "
        "'uno-fsm[site]' (or --no-search for a site without search)\n")
    assert not out_dir.exists()  # said before anything was written
    fake = tmp_path / "pagefind"
    fake.write_text("#!/bin/sh\necho 'Error: the index is on fire' >&2\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setattr(site_search, "executable", lambda: fake)
    code, out, err = _site(capsys, "--from", str(reports), "-o", str(tmp_path / "b"))
    assert (code, out) == (2, "")
    assert err == ("uno-fsm conformance site: Pagefind failed (exit 3): Error: the index is on "
                   "fire\n")


def test_an_output_that_is_a_file_is_refused(reports: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "f").write_text("x")
    assert _site(capsys, "--from", str(reports), "-o", str(tmp_path / "f"), "--no-search") == (
        2, "", f"uno-fsm conformance site: --output {tmp_path / 'f'}: not a directory (a file)\n")


def test_help_describes_the_site(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "site", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for words in ("--no-search", "--site-url URL", "default, without --markdown: site/",
                  "one page per rule area", "search needs them served over HTTP"):
        assert words in text, words


def test_hostile_ids_in_a_report_come_out_as_text(tmp_path: Path) -> None:
    r = _result(PASSING, "failed", message="m" * 100_000)  # a huge message is cut
    r.update(id='x"><script>alert(1)</script>', title='<img src=x onerror="alert(2)">',
             rules=[RULE, '"><img src=x onerror=alert(3)>'], cites=['"><script>alert(4)'])
    (tmp_path / "evil.json").write_text(json.dumps(_report("<b>Evil</b>", [r])),
                                        encoding="utf-8")
    for path, text in render_all(load([tmp_path])).items():
        assert text.count("<script") == 1 and "<img" not in text and "<b>Evil" not in text, path
    row = _section(render_all(load([tmp_path]))["rules/classic-draw.html"], RULE)
    row = row[row.index('<tr data-scenario="x&quot;&gt;&lt;script&gt;'):]
    assert '<div class="diff">' + "m" * 2000 + "</div>" in row[:row.index("</tr>")]


def test_a_hanging_pagefind_is_stopped(reports: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    fake = tmp_path / "pagefind"
    fake.write_text("#!/bin/sh\nexec sleep 60\n")
    fake.chmod(0o755)
    monkeypatch.setattr(site_search, "executable", lambda: fake)
    monkeypatch.setattr(site_search, "TIMEOUT", 0.5)
    assert _site(capsys, "--from", str(reports), "-o", str(tmp_path / "s")) == (
        2, "", "uno-fsm conformance site: Pagefind did not finish within 0.5 s\n")


def test_a_rebuild_removes_its_own_stale_pages_and_nothing_else(
        reports: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "site"
    assert _site(capsys, "--from", str(reports), "-o", str(out), "--no-search")[0] == 0
    old = (out / "rules" / "classic-draw.html").read_text(encoding="utf-8")
    (out / "rules" / "renamed-area.html").write_text(old, encoding="utf-8")  # an earlier build's
    (out / "alpha-gone.html").write_text(old, encoding="utf-8")
    mine = out / "rules" / "notes.html"
    mine.write_text("<!DOCTYPE html><p>my notes</p>", encoding="utf-8")
    assert _site(capsys, "--from", str(reports), "-o", str(out), "--no-search")[0] == 0
    assert not (out / "rules" / "renamed-area.html").exists()
    assert not (out / "alpha-gone.html").exists()
    assert mine.read_text(encoding="utf-8") == "<!DOCTYPE html><p>my notes</p>"


def test_a_rebuild_over_a_tree_1500_levels_deep(reports: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The output folder is walked for stale pages without recursion: `Path.rglob` gave
    `internal error: RecursionError`. A stale page at the bottom is found and removed, a
    file of the user's kept."""
    out = tmp_path / "site"
    assert _site(capsys, "--from", str(reports), "-o", str(out), "--no-search")[0] == 0
    old = (out / "rules" / "classic-draw.html").read_bytes()
    mine = b"<!DOCTYPE html><p>my notes</p>"
    with deep_tree(out / "deep", 1500, {"gone.html": old, "notes.html": mine}):
        code, said, err = _site(capsys, "--from", str(reports), "-o", str(out), "--no-search")
        assert (code, err) == (0, "") and said.startswith("wrote ")
        bottom = out.joinpath("deep", *["d"] * 1500)
        assert sorted(os.listdir(bottom)) == ["notes.html"]


def test_an_installed_package_without_reports_asks_for_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from conformance import site

    monkeypatch.setattr(site, "DATA_DIR", tmp_path / "docs" / "compliance" / "data")
    assert _site(capsys, "-o", str(tmp_path / "s"), "--no-search") == (
        2, "", "uno-fsm conformance site: no JSON report to render: give --from FILE_OR_DIR "
        "(reports of `uno-fsm conformance run --no-expectations --format json`)\n")
