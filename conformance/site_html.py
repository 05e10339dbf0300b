"""What every page of the site shares: the style, the navigation, the escaping, the one script
of the static pages and the Content-Security-Policy that allows nothing else.

A page loads nothing from outside the site and runs only the scripts named here (by hash); it
works from `file://`. Every string is escaped (`e`): reports carry what implementations
answered, and implementations are untrusted.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any

from uno_spec import sitelinks
from uno_spec.encoding import html

CSS = """
:root{--bg:#fff;--fg:#1d2330;--muted:#535c6c;--line:#d5dae2;--head:#f4f6f9;--pass:#237a35;
--fail:#b83c0a;--uns:#6b7280;--link:#175bb8;--code:#f1f3f5;--mark:#fff3bf}
@media (prefers-color-scheme:dark){:root{--bg:#14161b;--fg:#e4e7ec;--muted:#a3acba;
--line:#2c313b;--head:#1c1f26;--pass:#51cf66;--fail:#ff8787;--uns:#adb5bd;--link:#74c0fc;
--code:#1f232b;--mark:#5c4b00}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
background:var(--bg);color:var(--fg)}
main{max-width:1200px;margin:0 auto;padding:16px 24px 48px}
a{color:var(--link);text-decoration:underline;text-underline-offset:2px}
header.site a,.matrix td.cell a,.matrix th a,nav ul a{text-decoration:none}
header.site a:hover,header.site a:focus,nav ul a:hover{text-decoration:underline}
h1{font-size:22px;margin:8px 0 4px}h2{font-size:17px;margin:28px 0 8px}
h3{font-size:15px;margin:20px 0 6px}
h1 code,h2 code,h3 code{font-size:inherit}
.muted{color:var(--muted)}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:var(--bg);
padding:4px 8px;z-index:9}
header.site{border-bottom:1px solid var(--line);background:var(--head)}
header.site nav{max-width:1200px;margin:0 auto;padding:8px 24px;display:flex;gap:18px;
align-items:center;flex-wrap:wrap}
header.site nav a[aria-current]{font-weight:600;color:var(--fg)}
header.site form{margin-left:auto;display:flex;gap:6px}
input[type=search]{font:inherit;padding:3px 8px;border:1px solid var(--muted);
border-radius:4px;background:var(--bg);color:var(--fg);min-width:220px}
button{font:inherit;padding:3px 10px;border:1px solid var(--muted);border-radius:4px;
background:var(--head);color:var(--fg);cursor:pointer}
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
@media (prefers-color-scheme:dark){.badge{color:#14161b}}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}
.badge.unsupported{background:var(--uns)}.badge.none{background:none;color:var(--muted)}
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
section.rule,section.ruling,article.clause,section.scenario{border-top:1px solid var(--line);
padding-top:4px;scroll-margin-top:8px}
:target{scroll-margin-top:8px}
section.rule:target,section.ruling:target,article.clause:target,section.scenario:target{
background:var(--head)}
.statement{font-size:15px}
article.clause>h3{display:inline-block;margin:12px 10px 2px 0}
article.clause>p.where{display:inline-block;margin:0}
article.clause>p{margin:2px 0}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:4px 16px;margin:4px 0 8px}
.pair p{margin:0}.pair .en{color:var(--muted)}
.cite{margin:10px 0}.cite .where{font-size:12px;color:var(--muted)}
.uncited-mark{display:inline-block;font-size:12px;padding:0 6px;border-radius:9px;
border:1px solid var(--muted);color:var(--muted)}
table.verdicts td{font-size:13px}table.verdicts td.v{white-space:nowrap}
table.verdicts details>summary{cursor:pointer;list-style:none}
table.verdicts details>summary::-webkit-details-marker{display:none}
.diff{white-space:normal;font-size:12px;max-width:320px}
ol.steps{margin:4px 0;padding-left:22px;font-size:13px}
.decisions{margin:4px 0;padding-left:18px}
pre.yaml{counter-reset:l;padding-left:0}
pre.yaml .l{display:block;padding-left:5.2em;text-indent:-4em}
pre.yaml .l::before{counter-increment:l;content:counter(l);display:inline-block;width:3em;
margin-right:1em;text-align:right;color:var(--muted)}
pre.yaml .l:target{background:var(--mark)}
ol.results{padding-left:22px}ol.results li{margin:6px 0}
mark{background:var(--mark);color:inherit}
@media (max-width:720px){.pair,.cmp{grid-template-columns:1fr}.failure{margin-left:0}}
"""

# Opens a <details> a fragment names (a matrix cell links to `<impl>.html#area-<area>`).
SCRIPT = ("function openTarget(){var id=decodeURIComponent(location.hash.slice(1));"
          "var el=id&&document.getElementById(id);if(el&&el.tagName==='DETAILS'){"
          "el.open=true;}}"
          "addEventListener('DOMContentLoaded',openTarget);"
          "addEventListener('hashchange',openTarget);")

NAV = (("index.html", "Matrix"), ("rules/index.html", "Rules"),
       ("sources/index.html", "Sources"), (sitelinks.RULINGS_PATH, "Rulings"),
       ("search.html", "Search"))


def e(value: Any) -> str:
    """Text for HTML content or a quoted attribute value (uno_spec.encoding.html: escaped;
    control characters and lone surrogates, which no page can hold, dropped)."""
    return html(value)


def script_hash(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"


def csp(script: str = SCRIPT, extra: str = "") -> str:
    """Nothing from outside; the page's own inline style and its one script (by hash)."""
    return (f"default-src 'none'; style-src 'unsafe-inline'; script-src {script_hash(script)}"
            f"{extra}; img-src data:")


def up(depth: int) -> str:
    """The way from a page `depth` folders deep back to the site's root."""
    return "../" * depth


def nav(depth: int, current: str) -> str:
    here = ' aria-current="page"'
    links = "".join(f'<a href="{up(depth)}{href}"{here if href == current else ""}>{label}</a>'
                    for href, label in NAV)
    return ('<header class="site"><nav aria-label="Site">'
            f'<a class="skip" href="#content">Skip to the content</a>{links}'
            f'<form role="search" aria-label="Search the site" action="{up(depth)}search.html" '
            'method="get">'
            '<label class="skip" for="q-nav">Search rules, clauses and rulings</label>'
            '<input type="search" id="q-nav" name="q" '
            'placeholder="Search rules, clauses, rulings"><button type="submit">Search</button>'
            "</form></nav></header>")


# Every page carries it: a rebuild removes the pages of an earlier one it no longer writes (a
# rule area renamed, a report gone), and only those.
GENERATOR = '<meta name="generator" content="uno-fsm conformance site">'


def page(title: str, body: str, *, depth: int = 0, current: str = "", script: str = SCRIPT,
         csp_extra: str = "", main_attrs: str = "") -> str:
    """A whole page: `body` inside <main>, the site's navigation above it."""
    return (
        f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">{GENERATOR}"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{e(csp(script, csp_extra))}\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{e(title)}</title><style>{CSS}</style><script>{script}</script></head>"
        f"<body>{nav(depth, current)}<main id=\"content\"{main_attrs}>{body}</main>"
        "</body></html>\n")


# --- verdicts: what the matrix counts -----------------------------------------------------

VERDICTS = ("pass", "fail", "unsupported")


def outcome(r: dict[str, Any]) -> str:
    """The status before expectation files applied."""
    return str(r.get("outcome") or r.get("status") or "")


def verdict(r: dict[str, Any]) -> str:
    o = outcome(r)
    if o == "passed":
        return "pass"
    if o == "unsupported":
        return "unsupported"
    return "fail"  # failed, errored (and anything unknown: never shown as a pass)


# --- links between the pages --------------------------------------------------------------


@dataclass
class Links:
    """What the site holds, to link it from any page (`depth` folders deep): None for a rule,
    clause, ruling or scenario the site has no page for (shown without a link)."""

    rule_area: dict[str, str] = field(default_factory=dict)  # rule id -> area
    clauses: set[str] = field(default_factory=set)
    rulings: set[str] = field(default_factory=set)
    scenario_file: dict[str, str] = field(default_factory=dict)  # id -> file under the corpus

    def rule(self, rule_id: str, depth: int) -> str | None:
        area = self.rule_area.get(rule_id)
        return None if area is None else up(depth) + sitelinks.rule_path(rule_id, area)

    def area(self, area: str, depth: int) -> str | None:
        return up(depth) + sitelinks.area_path(area) if area in self.rule_area.values() \
            else None

    def clause(self, clause_id: str, depth: int) -> str | None:
        return up(depth) + sitelinks.clause_path(clause_id) if clause_id in self.clauses \
            else None

    def ruling(self, ruling_id: str, depth: int) -> str | None:
        return up(depth) + sitelinks.ruling_path(ruling_id) if ruling_id in self.rulings \
            else None

    def scenario(self, scenario_id: str, depth: int) -> str | None:
        f = self.scenario_file.get(scenario_id)
        return None if f is None else up(depth) + sitelinks.scenario_path(f, scenario_id)

    def line(self, scenario_id: str, line: int | None, depth: int) -> str | None:
        """A line of a scenario's file (every line is anchored on the file's page)."""
        f = self.scenario_file.get(scenario_id)
        return None if f is None or not line else up(depth) + sitelinks.line_path(f, line)
