"""Search across the rules, clauses (both languages) and rulings: `search.html` and the index
Pagefind builds from the site's pages (https://pagefind.app, the `pagefind` package of PyPI with
its binary: `pip install 'uno-fsm[site]'`).

Pagefind indexes the pages whose <main> carries `data-pagefind-body` (the rule, source and
rulings pages, conformance.site_rulebook), one sub-result per heading with an id: a rule, a
clause, a ruling. It folds accents (`penalizacao` finds `penalização`) and stems words, and
searches in the browser, with no server: the index is static files under `pagefind/`.
Browsers do not let a page read files from `file://`, so the search page needs the site served
over HTTP (`python -m http.server --directory site`); every other page works from the files.

`search.html?q=WORDS` searches at once (the search box of every page sends that).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from conformance.site_html import page

BUNDLE = "pagefind"  # the index's folder in the site
TIMEOUT = 120.0  # seconds Pagefind may take (the whole site takes well under one)


class SearchError(Exception):
    """The index could not be built: one line."""


SCRIPT = r"""addEventListener('DOMContentLoaded',function(){
var form=document.getElementById('search-form'),input=document.getElementById('q'),
status=document.getElementById('search-status'),out=document.getElementById('search-results'),
KINDS=[['rule','Rules'],['clause','Clauses'],['ruling','Rulings']],pf=null;
function say(t){status.textContent=t;}
function excerpt(html){var doc=new DOMParser().parseFromString('<p>'+html+'</p>','text/html'),
p=document.createElement('p');p.className='excerpt';
doc.body.firstChild.childNodes.forEach(function(n){if(n.nodeName==='MARK'){
var m=document.createElement('mark');m.textContent=n.textContent;p.appendChild(m);}else{
p.appendChild(document.createTextNode(n.textContent));}});return p;}
async function load(){if(!pf){pf=await import(new URL('pagefind/pagefind.js',location.href).href);
await pf.options({baseUrl:new URL('./',location.href).pathname,excerptLength:24});}return pf;}
async function run(q){out.textContent='';if(!q.trim()){say('');return;}
if(location.protocol==='file:'){say('Search reads its index over HTTP, which a page opened '+
'from a file cannot: serve the site\'s folder (python -m http.server --directory site) and '+
'open its search.html there. Every other page works from the files.');return;}
say('Searching\u2026');var p;try{p=await load();}catch(err){
say('The search index could not be loaded ('+err+').');return;}
var found=await p.search(q),data=await Promise.all(found.results.map(function(r){
return r.data();})),groups={},n=0;
data.forEach(function(d){var kind=(d.meta&&d.meta.kind)||'other',
subs=(d.sub_results||[]).filter(function(s){return s.url.indexOf('#')>=0;});
subs.forEach(function(s){(groups[kind]=groups[kind]||[]).push({s:s,page:d.meta.title});n++;});});
KINDS.forEach(function(k){var items=groups[k[0]];if(!items)return;
var sec=document.createElement('section'),h=document.createElement('h2'),
ol=document.createElement('ol');h.textContent=k[1]+' ('+items.length+')';
ol.className='results';ol.setAttribute('data-kind',k[0]);
items.forEach(function(it){var li=document.createElement('li'),a=document.createElement('a'),
c=document.createElement('code'),pg=document.createElement('span');a.href=it.s.url;
c.textContent=it.s.title;a.appendChild(c);pg.className='muted';pg.textContent=' '+it.page;
li.appendChild(a);li.appendChild(pg);li.appendChild(excerpt(it.s.excerpt||''));
ol.appendChild(li);});sec.appendChild(h);sec.appendChild(ol);out.appendChild(sec);});
say(n?n+' result'+(n===1?'':'s')+' for \u201c'+q+'\u201d':'Nothing found for \u201c'+q+
'\u201d.');}
form.addEventListener('submit',function(ev){ev.preventDefault();history.replaceState(null,'',
'?q='+encodeURIComponent(input.value));run(input.value);});
var q0=new URLSearchParams(location.search).get('q')||'';input.value=q0;run(q0);});"""

# Pagefind's script is a file of the site ('self'), compiles WebAssembly and fetches its index.
CSP_EXTRA = " 'self' 'wasm-unsafe-eval'; connect-src 'self'; worker-src 'self' blob:"


def render_page() -> str:
    body = ("<h1>Search the rulebook</h1>"
            '<p class="muted">Rules, the rulebooks\' clauses (in their own words and in '
            "English) and the rulings. Accents and word endings do not matter: "
            "<code>pontuacao</code> finds <code>pontuação</code>, <code>penalidade</code> finds "
            "<code>penalidades</code>; an English word finds the rules whose statements or "
            "clauses' English use it.</p>"
            '<form id="search-form" role="search" aria-label="Search the rulebook">'
            '<label for="q">Words</label> '
            '<input type="search" id="q" name="q" autofocus> <button type="submit">Search'
            "</button></form>"
            '<p id="search-status" role="status" aria-live="polite"></p>'
            '<div id="search-results"></div>')
    return page("Search: UNO rules", body, current="search.html", script=SCRIPT,
                csp_extra=CSP_EXTRA)


def executable() -> Path:
    """Pagefind's binary (the `pagefind[bin]` package, else `pagefind` on PATH); SearchError
    when there is none."""
    try:
        from pagefind.service import get_executable  # the PyPI package (uno-fsm[site])
    except ImportError:
        found = shutil.which("pagefind")
        path = Path(found) if found else None
    else:
        try:
            path = get_executable()
        except (OSError, ImportError):  # pagefind without its binary
            path = None
    if path is None or not path.is_file():
        raise SearchError("the search index needs Pagefind: pip install 'uno-fsm[site]' "
                          "(or --no-search for a site without search)")
    return path


def build_index(site: Path) -> int:
    """Index the site's pages into `site/pagefind/` (an earlier index there replaced); the
    number of pages indexed."""
    exe = executable()
    bundle = site / BUNDLE
    if (bundle / "pagefind-entry.json").is_file():  # ours, from an earlier build
        shutil.rmtree(bundle)
    try:
        proc = subprocess.run([str(exe), "--site", str(site), "--output-subdir", BUNDLE],
                              capture_output=True, text=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        raise SearchError(f"Pagefind did not finish within {TIMEOUT:g} s") from None
    except OSError as exc:
        raise SearchError(f"Pagefind could not start: {exc}") from None
    text = proc.stdout + proc.stderr
    if proc.returncode != 0 or not (bundle / "pagefind.js").is_file():
        last = " ".join(text.strip().splitlines()[-3:])
        raise SearchError(f"Pagefind failed (exit {proc.returncode}): {last}")
    for line in text.splitlines():  # "Indexed 41 pages"
        words = line.split()
        if len(words) >= 3 and words[0] == "Indexed" and words[2].startswith("page"):
            return int(words[1])
    return 0
