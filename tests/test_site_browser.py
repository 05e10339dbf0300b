"""The site in a real browser: Debian's headless Chromium driven by Playwright (never a browser
of Playwright's own), on the whole site built from the committed reports with its Pagefind
index (issue 27 item 5).

- search finds the rules about penalties whatever the word's form, folds accents, and says why
  it cannot work from a file;
- from the matrix a reader reaches a failing scenario, its rule, that rule's clauses in their
  own words beside English and the ruling that decides it, by clicking links;
- no page asks for anything outside the site or logs an error (a CSP violation included);
- every page passes axe-core's checks, in the light and the dark colour scheme;
- linkinator finds no broken link or anchor in the whole site, and every page is reached.

Chromium, Playwright, Pagefind (`uno-fsm[site]`) and the npm checkers (`npm ci` at the root:
.ci/setup-implementations) are installed by the README's test command; where one is missing,
these tests fail in CI and are skipped elsewhere (tests/ci_helpers.py).
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ci_helpers import chromium, unavailable

from conformance import site_search, specdata
from conformance.site import load
from conformance.site_html import verdict
from uno_cli.main import main

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
NPM_HOW = "npm ci at the repository's root (.ci/setup-implementations does)"

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # pragma: no cover - the test extra installs it
    unavailable("playwright is not installed", "pip install -e '.[test]'", module=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole site, as `uno-fsm conformance site` writes it."""
    try:
        site_search.executable()
    except site_search.SearchError as exc:
        unavailable(str(exc), "pip install -e '.[test]' (it brings uno-fsm[site])")
    out = tmp_path_factory.mktemp("site") / "site"
    assert main(["conformance", "site", "--output", str(out)]) == 0
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        pass


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    """The site served on the loopback (what search needs): its base URL."""
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    thread.join()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = chromium()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    yield context.new_page()
    context.close()


# --- search --------------------------------------------------------------------------------


def _search(page: Page, server: str, words: str) -> dict[str, list[tuple[str, str]]]:
    """Search as a reader does (search.html?q=...): kind -> [(title, link)] of the results."""
    page.goto(f"{server}search.html?q={words}")
    expect(page.locator("#search-status")).to_contain_text(
        re.compile(r"results? for|Nothing found|could not"), timeout=20_000)
    assert "could not" not in page.inner_text("#search-status")
    found: dict[str, list[tuple[str, str]]] = {}
    for kind in ("rule", "clause", "ruling"):
        found[kind] = page.eval_on_selector_all(
            f'ol[data-kind="{kind}"] li > a',
            "els => els.map(a => [a.textContent, a.getAttribute('href')])")
    return found


def _rules(found: dict[str, list[tuple[str, str]]]) -> set[str]:
    return {title for title, _ in found["rule"]}


def test_search_lists_the_rules_about_penalties_whatever_the_form_of_the_word(
        page: Page, server: str) -> None:
    rules = specdata.rules()
    penalties = {r.id for r in rules.values() if r.area == "classic-penalties"} | {
        "CL.UNO.CATCH-PENALTY", "CL.WD4.CHALLENGE.GUILTY"}  # the table's, UNO's, the bluff's
    penalidade = _search(page, server, "penalidade")
    assert penalties <= _rules(penalidade)
    assert _rules(_search(page, server, "penalidades")) == _rules(penalidade)
    penalty = _search(page, server, "penalty")
    # the English word finds every rule the Portuguese one does (and those whose statement or
    # clauses' English say it without a Portuguese "penalidade")
    assert _rules(penalidade) <= _rules(penalty)
    for title, href in penalidade["rule"]:  # each result opens its rule's anchor
        assert href == f"/rules/{rules[title].area}.html#{title}"
    assert {t for t, _ in penalidade["clause"]} >= {"classic-br:penalties:1",
                                                     "wiki-br:penalties:2"}


def test_search_ignores_accents_and_finds_nothing_for_nonsense(page: Page, server: str) -> None:
    plain, accented = _search(page, server, "pontuacao"), _search(page, server, "pontuação")
    assert plain == accented and plain["clause"]
    clauses = specdata.clauses()
    assert any("pontuação" in clauses[t].text.lower() for t, _ in plain["clause"])
    _search(page, server, "qqqqqq")
    assert page.inner_text("#search-status") == "Nothing found for “qqqqqq”."


def test_search_from_a_file_says_it_needs_http(page: Page, site: Path) -> None:
    page.goto((site / "search.html").as_uri() + "?q=penalidade")
    expect(page.locator("#search-status")).to_contain_text("Search reads its index over HTTP")


# --- by links alone ------------------------------------------------------------------------


def _failing_case() -> tuple[str, str, str, str]:
    """(implementation, area, scenario, rule): the first implementation's first failing
    scenario whose rule has a ruling."""
    index = specdata.spec_index()
    matrix = load()
    for impl in matrix.implementations:
        for r in sorted(impl.results, key=lambda r: str(r.get("id"))):
            if verdict(r) != "fail":
                continue
            for rid in r.get("rules") or []:
                rule = index.rules.get(rid)
                if rule is not None and index.rulings_for(rule):
                    return impl.key, rule.area, str(r["id"]), rid
    raise AssertionError("no failing scenario with a ruled rule in the committed reports")


def _click(page: Page, selector: str) -> None:
    page.locator(selector).first.click()
    page.wait_for_load_state()


def test_from_the_matrix_to_a_failing_scenario_its_rule_clauses_and_ruling(
        page: Page, site: Path) -> None:
    impl, area, scenario, rule = _failing_case()
    index = specdata.spec_index()
    page.goto((site / "index.html").as_uri())
    _click(page, f'td.cell[data-impl="{impl}"][data-area="{area}"] a')
    assert page.url.endswith(f"/{impl}.html#area-{area}")
    failure = page.locator(f'details[id="area-{area}"] li.scenario.fail[data-id="{scenario}"]')
    expect(failure).to_be_visible()  # the cell opened its area

    # the failing scenario's page, then its rule
    failure.locator("a.sid").click()
    page.wait_for_load_state()
    assert page.url.endswith(f"#{scenario}")
    expect(page.locator(f'section.scenario[id="{scenario}"] td.v.fail')).to_have_count(
        sum(1 for i in load().implementations
            if verdict(i.by_id.get(scenario) or {"outcome": "passed"}) == "fail"))
    _click(page, f'section.scenario[id="{scenario}"] dd a[href$="#{rule}"]')
    assert page.url.endswith(f"/rules/{area}.html#{rule}")

    # the rule's clauses: their own words (Portuguese or Italian) beside English
    section = page.locator("section.rule", has=page.locator(f'h2[id="{rule}"]'))
    pairs = section.locator("div.cite div.pair")
    expect(pairs).to_have_count(len(index.rules[rule].cites))
    first = index.clauses[index.rules[rule].cites[0]]
    own = pairs.first.locator("p.text")
    assert own.get_attribute("lang") in {"pt-BR", "pt-PT", "it"}
    assert own.inner_text() == " ".join(first.text.split())
    assert pairs.first.locator('p.en[lang="en"]').inner_text() == " ".join(first.en.split())

    # the ruling that decides it, and back to the rules it decides
    ruling = index.rulings_for(index.rules[rule])[0]
    section.locator(f'a[href$="rulings.html#{ruling.id}"]').click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/rulings.html#{ruling.id}")
    decided = page.locator("section.ruling", has=page.locator(f'h3[id="{ruling.id}"]'))
    expect(decided).to_contain_text(" ".join(ruling.question.split()))
    expect(decided.locator(f'a[href$="#{rule}"]')).to_have_count(1)

    # and the clause on its rulebook's page, with the rules citing it
    decided.locator(f'a[href$="#{first.id}"]').first.click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/sources/{first.source}.html#{first.id}")
    expect(page.locator("article.clause", has=page.locator(f'h3[id="{first.id}"]'))
           .locator(f'a[href$="#{rule}"]')).to_have_count(1)


# --- offline, errors, accessibility --------------------------------------------------------

PAGES = ["index.html", "rlcard.html", "rules/index.html", "rules/classic-draw.html",
         "sources/index.html", "sources/flip-it.html", "rulings.html",
         "corpus/classic/draw.html"]


def test_pages_load_nothing_from_outside_and_log_no_error(browser: Browser, site: Path,
                                                          server: str) -> None:
    context = browser.new_context()
    outside: list[str] = []
    errors: list[str] = []

    def guard(route: Any) -> None:
        url = route.request.url
        if url.startswith((server, "file://")):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    for path in PAGES:
        page.goto((site / path).as_uri())  # from the files
        page.goto(server + path)  # and served
    page.goto(server + "search.html?q=wild")
    expect(page.locator("ol.results").first).to_be_visible(timeout=20_000)
    assert (outside, errors) == ([], [])
    # the guard sees a request that leaves the site (aborted: nothing goes out); the pages'
    # own policy would refuse one before it reached the guard (connect-src, img-src...)
    with pytest.raises(PlaywrightError, match="net::ERR_FAILED"):
        page.goto("https://example.invalid/x.html")
    context.close()
    assert outside == ["https://example.invalid/x.html"]


# The checks that depend on the colours, the only ones run again in the dark scheme, on pages
# that show every colour of the style (badges, links, muted text, marks, the YAML listing).
COLOUR_CHECKS = ["color-contrast", "link-in-text-block"]
DARK_PAGES = ["index.html", "rules/classic-draw.html", "sources/flip-it.html",
              "corpus/classic/draw.html"]


def _axe(page: Page, only: list[str] | None) -> list[str]:
    page.add_script_tag(path=str(NODE_MODULES / "axe-core" / "axe.min.js"))
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if only:
        options["runOnly"] = {"type": "rule", "values": only}
    result = page.evaluate("options => axe.run(document, options)", options)
    return [f"{v['id']} ({v['impact']}): {v['help']}: "
            + ", ".join(str(n["target"]) for n in v["nodes"][:5])
            for v in result["violations"]]


@pytest.mark.parametrize("scheme, only", [("light", None), ("dark", COLOUR_CHECKS)])
def test_pages_pass_axe_core(browser: Browser, site: Path, server: str, scheme: str,
                             only: list[str] | None) -> None:
    """Every check of axe-core in the light scheme, the colour checks in the dark one; with
    what a reader opens shown (a rule's verdicts, the matrix cell's area, a failure)."""
    if not (NODE_MODULES / "axe-core" / "axe.min.js").is_file():
        unavailable("axe-core is not installed", NPM_HOW)
    impl, area, _, _ = _failing_case()
    context = browser.new_context(bypass_csp=True, color_scheme=scheme)  # to inject axe-core
    page = context.new_page()
    problems = {}
    for path in PAGES if only is None else DARK_PAGES:
        if path == "rlcard.html":
            path = f"{impl}.html#area-{area}"  # the area a matrix cell opens
        page.goto((site / path.split("#")[0]).as_uri() + path[len(path.split("#")[0]):])
        if "#" not in path:
            page.eval_on_selector_all("main details", "els => els.forEach(d => d.open = true)")
        problems[path] = _axe(page, only)
    page.goto(server + "search.html?q=penalidade")
    expect(page.locator("ol.results").first).to_be_visible(timeout=20_000)
    problems["search.html?q=penalidade"] = _axe(page, only)
    context.close()
    assert {p: v for p, v in problems.items() if v} == {}


# --- every link and anchor -----------------------------------------------------------------


def _linkinator(folder: Path) -> list[dict[str, Any]]:
    cli = NODE_MODULES / "linkinator" / "build" / "src" / "cli.js"
    node = shutil.which("node")
    if node is None or not cli.is_file():
        unavailable("linkinator (npm, on Node) is not installed", NPM_HOW)
    proc = subprocess.run([node, str(cli), str(folder), "--recurse", "--check-fragments",
                           "--format", "json"], capture_output=True, text=True, timeout=300,
                          check=False)
    try:
        links: list[dict[str, Any]] = json.loads(proc.stdout)["links"]
    except (json.JSONDecodeError, KeyError):
        raise AssertionError(f"linkinator: {proc.stdout[-500:]} {proc.stderr[-1500:]}") from None
    return links


def test_the_link_checker_sees_a_broken_anchor(tmp_path: Path) -> None:
    """The checker itself, on two pages: a missing anchor and a missing page are reported."""
    (tmp_path / "index.html").write_text(
        '<!DOCTYPE html><html lang="en"><title>t</title><a href="b.html#CL.X:1">a</a>'
        '<a href="b.html#CL.Y:1">b</a><a href="c.html">c</a></html>', encoding="utf-8")
    (tmp_path / "b.html").write_text('<!DOCTYPE html><html lang="en"><title>b</title>'
                                     '<h2 id="CL.X:1">x</h2></html>', encoding="utf-8")
    broken = {link["url"].removeprefix(str(tmp_path) + "/") for link in _linkinator(tmp_path)
              if link["state"] == "BROKEN"}
    assert broken == {"b.html#CL.Y:1", "c.html"}


def test_every_link_and_anchor_of_the_site_resolves(site: Path) -> None:
    links = _linkinator(site)
    broken = [f"{link['url']} (from {link.get('parent')})" for link in links
              if link["state"] != "OK"]
    assert broken == []
    reached = {link["url"].split("#")[0] for link in links}
    pages = {str(p) for p in site.rglob("*.html") if p.parent.name != "pagefind"}
    # from index.html, links reach every page (its index.html as the folder itself)
    assert pages - reached <= {str(site / "index.html")} and str(site) in reached
