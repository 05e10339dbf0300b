"""`uno-fsm conformance site`: the compliance matrix (HTML and Markdown) from JSON reports.

The reports here are written by hand (and checked against the report schema) so that every
count is known; strings an implementation controls carry markup that must come out as text.
The browser test renders the site in headless Chromium (Debian's `chromium`): it is skipped
only where Chromium is absent and CI is not set.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from ci_helpers import chromium

from conformance import specdata
from uno_cli.main import main

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "conformance" / "schema" / "report.schema.json").read_text())
HOSTILE = "<script>document.title='pwned'</script><img src=x onerror=\"document.title='img'\">"
WD4 = "CL.WD4.CHALLENGE.GUILTY"  # area classic-wd4
MATCH = "CL.PLAY.MATCH-NUMBER"  # area classic-play
CLAUSE = "classic-br:play:10"


def result(sid: str, status: str, rules: list[str], **extra: Any) -> dict[str, Any]:
    r: dict[str, Any] = {
        "id": sid, "title": f"title of {sid}", "status": status, "outcome": status,
        "file": "conformance/corpus/classic/x.yaml", "line": 3, "ruleset": "classic-official",
        "step": None, "step_line": None, "step_kind": None, "action": None, "expected": None,
        "observed": None, "mismatches": [], "message": "", "detail": "", "reason": "",
        "rules": rules, "cites": [CLAUSE], "features": ["basic-play"], "duration": 0.001}
    r.update(extra)
    return r


def report(name: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    counts = {"total": len(results)} | {s: 0 for s in
                                        ("passed", "failed", "errored", "unsupported", "xfailed",
                                         "xpassed")}
    for r in results:
        counts[r["status"]] += 1
    data = {"summary": counts, "format": "uno-conformance-report/1",
            "ok": not (counts["failed"] or counts["errored"] or counts["xpassed"]),
            "adapter": "stdio:./x", "implementation": {"name": name, "version": "9.9"},
            "started": "2026-12-01T00:00:00+00:00", "duration": 0.1, "warnings": [],
            "results": results}
    jsonschema.validate(data, SCHEMA)
    return data


def write_reports(folder: Path) -> Path:
    """alpha: classic-play 1 pass 1 fail; classic-wd4 1 fail (listing MATCH too), 1 unsupported.
    beta: everything passes except one errored scenario."""
    folder.mkdir(parents=True, exist_ok=True)
    failing = result("t.play.fail", "failed", [MATCH], step=2, step_line=9, step_kind="expect",
                     expected={"top": "R5"}, observed={"top": "B5" + HOSTILE},
                     message="top: expected R5, observed " + HOSTILE)
    both = result("t.wd4.fail", "failed", [WD4, MATCH], step=1, step_line=5, step_kind="act",
                  action={"player": 0, "challenge": True}, expected="accepted",
                  observed={"error": {"code": "not-your-turn"}}, message="rejected",
                  quotes={"clauses": [{"id": CLAUSE, "text": "quoted " + HOSTILE, "en": "EN"}],
                          "rules": [{"id": WD4, "statement": "statement " + HOSTILE}]})
    alpha = [result("t.play.pass", "passed", [MATCH]), failing, both,
             result("t.wd4.unsupported", "unsupported", [WD4],
                    message="adapter does not declare feature(s) wd4-challenge")]
    beta = [result("t.play.pass", "passed", [MATCH]),
            result("t.play.fail", "passed", [MATCH]),
            result("t.wd4.fail", "errored", [WD4, MATCH], message="timeout"),
            result("t.wd4.unsupported", "passed", [WD4])]
    (folder / "alpha.json").write_text(json.dumps(report("Alpha " + HOSTILE, alpha)))
    (folder / "beta.json").write_text(json.dumps(report("Beta", beta)))
    return folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["conformance", "site", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- Markdown -------------------------------------------------------------------------------


def test_markdown_matrix_counts_links_and_not_verifiable(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_reports(tmp_path / "data")
    out = tmp_path / "docs" / "index.md"
    out.parent.mkdir()
    (out.parent / "beta.md").write_text("# beta\n")  # alpha has no page: no link
    code, text, err = run(capsys, "--from", str(data), "--markdown", str(out))
    assert (code, err) == (0, "")
    md = out.read_text(encoding="utf-8")
    titles = specdata.rule_areas()
    # each area links its page of the site (`site/` beside `docs/`, relative to the file)
    assert (f"| [{titles['classic-play']}](../../site/rules/classic-play.html) (`classic-play`) "
            "| 1 / 2 / 0 | 2 / 1 / 0 |") in md
    assert (f"| [{titles['classic-wd4']}](../../site/rules/classic-wd4.html) (`classic-wd4`) "
            "| 0 / 1 / 1 | 1 / 1 / 0 |") in md
    assert "([../../site/index.html](../../site/index.html))" in md
    assert "| Alpha &lt;script&gt;" in md and "<script>" not in md
    assert "| [Beta](beta.md) | 9.9 |  | `stdio:./x` | 4 | 3 | 1 | 0 |" in md
    assert "| `unointerface` | PyPI | 1.0 | No rules engine to verify: its one module" in md


def test_markdown_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_reports(tmp_path / "data")
    out = tmp_path / "index.md"
    assert run(capsys, "--from", str(data), "--markdown", str(out), "--check")[:2] == (
        1, f"{out}: stale (run `uno-fsm conformance site --markdown {out}` to regenerate)\n")
    assert not out.exists()
    run(capsys, "--from", str(data), "--markdown", str(out))
    assert run(capsys, "--from", str(data), "--markdown", str(out), "--check")[:2] == (
        0, f"{out}: up to date\n")


def test_committed_index_is_fresh(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/compliance/index.md matches docs/compliance/data/; regenerate with
    `uno-fsm conformance site --markdown docs/compliance/index.md` when it does not."""
    code, out, err = run(capsys, "--markdown", str(ROOT / "docs/compliance/index.md"), "--check")
    assert code == 0, out + err


def test_committed_reference_report_is_the_corpus_run() -> None:
    """docs/compliance/data/reference.json (the matrix's first column) is a run of today's
    corpus; the third-party reports are checked in tests/test_implementations_conformance.py.
    Regenerate with `uno-fsm conformance run --no-expectations --format json --output
    docs/compliance/data/reference.json`."""
    from conformance.adapters import resolve
    from conformance.runner import Runner
    from conformance.scenario import load_corpus

    published = json.loads((ROOT / "docs/compliance/data/reference.json").read_text("utf-8"))
    spec = resolve("reference")
    run = Runner(spec.factory, adapter_name=spec.spec).run(load_corpus(None).scenarios)
    assert {r["id"]: r["outcome"] for r in published["results"]} == {
        r.id: r.outcome for r in run.results}


# --- bad input: exit 2, one line -------------------------------------------------------------


@pytest.mark.parametrize("content, message", [
    ("{not json", ":1: not a JSON report: Expecting property name"),
    ('{"format": "other"}', ": not a uno-conformance-report/1 document"),
])
def test_bad_report(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                    message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    code, out, err = run(capsys, "--from", str(bad), "--output", str(tmp_path / "site"))
    assert (code, out) == (2, "")
    assert err.startswith(f"uno-fsm conformance site: {bad}{message}")
    assert err.count("\n") == 1
    assert not (tmp_path / "site").exists()


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope"
    assert run(capsys, "--from", str(missing), "--output", str(tmp_path / "s")) == (
        2, "", f"uno-fsm conformance site: {missing}: no such file or directory\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(capsys, "--from", str(empty), "--output", str(tmp_path / "s")) == (
        2, "", f"uno-fsm conformance site: no JSON report found in {empty}\n")
    assert run(capsys, "--output", str(tmp_path / "s"), "--check")[0] == 2


def test_knowledge_files_give_title_package_and_no_engine(tmp_path: Path) -> None:
    from conformance.site import load, render_markdown

    meta = tmp_path / "implementations"
    meta.mkdir()
    (meta / "alpha.yaml").write_text(
        "name: alpha\ntitle: The Alpha Engine\nlabel: Alpha\n"
        "package: {registry: npm, name: alpha-uno, version: 2.0.3}\n")
    (meta / "cards-only.yaml").write_text(
        "name: cards-only\ntitle: cards-only\nlabel: c\n"
        "package: {registry: pypi, name: cards-only, version: '1.0'}\n"
        "no_engine: >-\n  Card classes only,\n  no turns.\n")
    m = load([write_reports(tmp_path / "data")], metadata_dir=meta)
    alpha = m.implementations[0]
    assert (alpha.key, alpha.title, alpha.version, alpha.package) == (
        "alpha", "The Alpha Engine", "9.9", "alpha-uno 2.0.3 (npm)")
    assert m.not_verifiable == [{"name": "cards-only", "registry": "PyPI", "version": "1.0",
                                 "reason": "Card classes only, no turns."}]
    md = render_markdown(m, tmp_path)
    assert "| The Alpha Engine | 9.9 | alpha-uno 2.0.3 (npm) | `stdio:./x` | 4 | 1 | 2 | 1 |" in md
    assert "| `cards-only` | PyPI | 1.0 | Card classes only, no turns. |" in md


def test_bad_knowledge_file(tmp_path: Path) -> None:
    from conformance.site import SiteError, load_metadata

    (tmp_path / "x.yaml").write_text("name: x\ntitle: x\npackage: x 1.0\n")
    with pytest.raises(SiteError, match=re.escape(f"{tmp_path / 'x.yaml'}:3: `package` must be")):
        load_metadata(tmp_path)


# --- HTML ----------------------------------------------------------------------------------


def test_html_escapes_every_report_string(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    code, out, _ = run(capsys, "--from", str(write_reports(tmp_path / "data")),
                       "--output", str(site), "--no-search")
    assert code == 0 and re.fullmatch(rf"wrote \d+ page\(s\) to {re.escape(str(site))} in "
                                      r"\d+\.\d s\n", out), out
    assert {"alpha.html", "beta.html", "index.html", "rulings.html", "search.html", "rules",
            "sources", "corpus"} == {p.name for p in site.iterdir()}
    pages = list(site.rglob("*.html"))
    assert len(pages) == int(out.split()[1])
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert text.count("<script") == 1, page  # only the page's own script
        assert "<img" not in text
        assert "http://" not in text and "https://" not in text  # no external asset
    escaped = "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;"
    assert escaped in (site / "alpha.html").read_text(encoding="utf-8")
    # the report's strings reach the rule pages too (a failure's observed difference), escaped
    assert escaped in (site / "rules" / "classic-play.html").read_text(encoding="utf-8")


class _Cells(HTMLParser):
    """The matrix cells (attributes and link) and the open state of area sections."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[dict[str, str | None]] = []
        self.details: dict[str, bool] = {}
        self.title = ""
        self._in_title = False
        self._cell: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "td" and "data-area" in a:
            self._cell = a
            self.cells.append(a)
        elif tag == "a" and self._cell is not None:
            self._cell["href"] = a.get("href")
        elif tag == "details" and a.get("id"):
            self.details[str(a["id"])] = "open" in a
        elif tag == "title":
            self._in_title = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self._cell = None
        elif tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def test_no_chromium_fails_in_ci_and_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="chromium is not installed"):
        chromium()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="chromium is not installed"):
        chromium()


def dump_dom(chromium: str, url: str, profile: Path) -> str:
    proc = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={profile}", "--dump-dom", url],
        capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_matrix_and_drill_down_in_chromium(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    browser = chromium()
    site = tmp_path / "site"
    assert run(capsys, "--from", str(write_reports(tmp_path / "data")),
               "--output", str(site))[0] == 0

    index = _Cells()
    index.feed(dump_dom(browser, (site / "index.html").as_uri(), tmp_path / "profile"))
    assert index.title == "UNO conformance: compliance matrix"
    cells = {(c["data-impl"], c["data-area"]): (c["data-pass"], c["data-fail"],
                                                 c["data-unsupported"], c["href"])
             for c in index.cells}
    assert cells == {
        ("alpha", "classic-play"): ("1", "2", "0", "alpha.html#area-classic-play"),
        ("alpha", "classic-wd4"): ("0", "1", "1", "alpha.html#area-classic-wd4"),
        ("beta", "classic-play"): ("2", "1", "0", "beta.html#area-classic-play"),
        ("beta", "classic-wd4"): ("1", "1", "0", "beta.html#area-classic-wd4"),
    }

    # the cell's link, followed as a click would: its area opens, the others stay closed
    href = cells[("alpha", "classic-wd4")][3]
    assert href is not None
    dom = dump_dom(browser, (site / href.split("#")[0]).as_uri() + "#" + href.split("#")[1],
                   tmp_path / "profile")
    page = _Cells()
    page.feed(dom)
    assert page.details == {"area-classic-play": False, "area-classic-wd4": True}
    assert page.title.startswith("Alpha <script>")  # the injected script did not run
    wd4 = dom[dom.index('id="area-classic-wd4"'):]
    assert '<li class="scenario fail" data-id="t.wd4.fail">' in wd4
    assert '<li class="scenario unsupported" data-id="t.wd4.unsupported">' in wd4
    assert "adapter does not declare feature(s) wd4-challenge" in wd4
    assert '<b>expected</b><pre>"accepted"</pre>' in wd4
    assert '"code": "not-your-turn"' in wd4
    assert "statement &lt;script&gt;document.title=" in wd4
    # the rule and the clause link their pages
    assert f'rule <a href="rules/classic-wd4.html#{WD4}"><code>{WD4}</code></a>: statement' in wd4
    assert (f'<a href="sources/classic-br.html#{CLAUSE}"><code>{CLAUSE}</code></a> '
            '<span class="text" lang="pt-BR">“quoted &lt;script&gt;') in wd4
    # a failure without stored quotes is quoted from spec/: original text and English
    play = dom[dom.index('id="area-classic-play"'):dom.index('id="area-classic-wd4"')]
    clause = specdata.clauses()[CLAUSE]
    assert f"“{clause.text}”" in play and clause.en in play
    assert "&lt;img src=x" in play
    assert dom.count("<script") == 1 and "<img" not in dom
