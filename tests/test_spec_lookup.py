"""`uno-fsm rules show`, `rules search` and `spec stats` as a user sees them."""

from __future__ import annotations

from pathlib import Path

import pytest

from uno_cli.main import main
from uno_spec.loader import load_rules, load_sources
from uno_spec.lookup import fold

GOOD = Path(__file__).parent / "fixtures" / "spec" / "good"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_fold_ignores_accents_and_case() -> None:
    assert fold("PONTUAÇÃO") == fold("pontuacao") == "pontuacao"


def test_show_quotes_clauses_and_rulings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "show", "CL.DEAL.SEVEN", "--spec", str(GOOD))
    assert code == 0
    assert out.splitlines()[0].startswith("CL.DEAL.SEVEN  [deal]  ")
    assert "Each player is dealt seven cards." in out
    assert "rulesets: base-a" in out
    assert "demo:deal:1 (normative) from Regras de demonstração [pt-BR, seed 000_demo.txt]" in out
    assert "    > Cada jogador recebe 7 cartas." in out
    assert "    en: Each player receives 7 cards." in out
    assert "  RUL.DEAL.COUNT: How many cards does each player receive?" in out
    assert "    base-b -> ten (ten cards)" in out


def test_show_prints_the_site_anchor_of_the_rule_its_clauses_and_rulings(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # default: the folder `site/` here, as a file:// URL
    code, out, _ = run(capsys, "rules", "show", "CL.DEAL.SEVEN", "--spec", str(GOOD))
    site = (tmp_path / "site").as_uri()
    lines = out.splitlines()
    assert lines[3] == f"  site: {site}/rules/deal.html#CL.DEAL.SEVEN"
    assert f"    site: {site}/sources/demo.html#demo:deal:1" in lines
    assert f"    site: {site}/rulings.html#RUL.DEAL.COUNT" in lines
    monkeypatch.setenv("UNO_FSM_SITE_URL", "https://env.example/uno")
    code, out, _ = run(capsys, "rules", "show", "CL.DEAL.SEVEN", "--spec", str(GOOD))
    assert "  site: https://env.example/uno/rules/deal.html#CL.DEAL.SEVEN" in out
    code, out, _ = run(capsys, "rules", "show", "CL.DEAL.SEVEN", "--spec", str(GOOD),
                       "--site-url", "site/")  # the option wins; a relative base is kept
    assert "  site: site/rules/deal.html#CL.DEAL.SEVEN" in out.splitlines()


def test_show_unknown_rule_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "show", "CL.DEAL.SEVN", "--spec", str(GOOD))
    assert code == 2 and out == ""
    assert err.strip() == ("uno-fsm rules show: unknown rule 'CL.DEAL.SEVN'; close matches: "
                           "CL.DEAL.SEVEN")


def test_show_is_case_insensitive(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "show", "cl.deal.seven", "--spec", str(GOOD))
    assert code == 0 and out.startswith("CL.DEAL.SEVEN")


def test_search_fixture(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "search", "VARIACAO", "acumuladas", "--spec", str(GOOD))
    assert code == 0
    assert "clause demo:variants:1" in out and "\n  cited by: V.STACK.D2\n" in out
    assert out.rstrip().endswith("0 rule(s), 1 clause(s); 1 more rule(s) cite the clauses "
                                 "found: V.STACK.D2")
    code, out, _ = run(capsys, "rules", "search", "nowhere-to-be-found", "--spec", str(GOOD))
    assert code == 1 and "no rule or clause contains: nowhere-to-be-found" in out


def test_search_real_spec_accent_insensitive(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "search", "penalidade")
    assert code == 0
    assert "\n  PENALIDADE\n" in out  # the wiki-br heading, found lower case
    code, out, _ = run(capsys, "rules", "search", "pontuacao")
    assert code == 0
    assert "Pontuação" in out


def test_search_finds_rules_by_statement(capsys: pytest.CaptureFixture[str]) -> None:
    rule = next(r for r in load_rules() if "CL.PLAY.MATCH" == r.id)
    code, out, _ = run(capsys, "rules", "search", "MATCHES", "top", "discard")
    assert code == 0
    assert f"rule {rule.id}  " in out
    site = (Path.cwd() / "site").as_uri()  # each hit with its place in the site
    assert f"\n  site: {site}/rules/classic-play.html#CL.PLAY.MATCH\n" in out
    code, out, _ = run(capsys, "rules", "search", "COINCIDIR", "--site-url", "https://x.org/u")
    assert "\n  site: https://x.org/u/sources/classic-br.html#classic-br:play:10\n" in out


def test_show_real_rule_quotes_its_clauses(capsys: pytest.CaptureFixture[str]) -> None:
    rule = load_rules()[0]
    clauses = {c.id: c for s in load_sources() for c in s.clauses}
    code, out, _ = run(capsys, "rules", "show", rule.id)
    assert code == 0
    for cid in rule.cites:
        if cid in clauses:
            first_line = clauses[cid].text.splitlines()[0]
            assert f"    > {first_line}" in out


def test_stats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "spec", "stats", "--spec", str(GOOD))
    assert code == 0
    assert "  demo            4  (informative 1, normative 2, variant 1)" in out
    assert "Rulings: 2" in out
    assert "Rulesets: 5 (2 base, 3 variant)" in out


def test_stats_real_spec(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "spec", "stats")
    assert code == 0
    for source in ("classic-br", "flip-pt", "flip-it", "guide-br", "wiki-br"):
        assert f"  {source}" in out


def test_broken_spec_gives_one_line_not_a_traceback(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    tree = tmp_path / "spec"
    shutil.copytree(GOOD, tree)
    (tree / "rules" / "deal.yaml").write_text("rules:\n  - !!python/name:os.system\n")
    code, out, err = run(capsys, "rules", "show", "CL.DEAL.SEVEN", "--spec", str(tree))
    assert code == 2 and "Traceback" not in err
    [line] = err.splitlines()
    assert line.endswith(
        "deal.yaml:2: YAML error: tag 'tag:yaml.org,2002:python/name:os.system' is not allowed:"
        " spec files hold plain data only (no Python objects, no custom tags)"
        " (run `uno-fsm spec lint` for every problem)")


def test_show_gives_the_context_a_split_clause_lost(capsys: pytest.CaptureFixture[str]) -> None:
    """RUL.FIRST-CARD.LOST-HEADING: the first-card sentence of the Skip entry carries, in its
    `context`, the heading the seed lost; `rules show` prints it between the place and the
    verbatim text."""
    code, out, _ = run(capsys, "rules", "show", "CL.FIRST.SKIP")
    assert code == 0
    lines = out.splitlines()
    at = lines.index("    > O jogador à esquerda do dealer perde a vez.")
    assert lines[at - 1].startswith("    context: Skip turned as the first card of the discard "
                                    "pile")
    assert lines[at - 2].startswith("    spec/sources/wiki-br.yaml:")


def test_first_card_sentences_name_what_they_belong_to() -> None:
    """Every clause cited by a classic first-card rule that does not name its card in its own
    text says in `context` which card and moment it describes (text unchanged)."""
    clauses = {c.id: c for s in load_sources() for c in s.clauses}
    rules = [r for r in load_rules() if r.id.startswith("CL.FIRST.") and r.id not in
             ("CL.FIRST.NUMBER", "CL.FIRST.UNRESOLVABLE", "CL.FIRST.REPEAT")]
    cited = {cid for r in rules for cid in r.cites if cid.startswith(("wiki-br:", "classic-br:"))}
    lost = {"wiki-br:official:18": "Skip", "wiki-br:official:20": "Reverse",
            "wiki-br:official:22": "Draw Two", "wiki-br:official:24": "Wild",
            "wiki-br:official:27": "Wild Draw Four", "classic-br:actions:5": "Wild Draw Four"}
    assert set(lost) <= cited
    for cid, card in lost.items():
        context = clauses[cid].context or ""
        assert context.startswith(f"{card} turned as the first card"), cid
    assert clauses["classic-br:actions:5"].text.startswith("Se esta carta for virada")


def test_search_names_the_rules_citing_each_clause_found(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`rules search penalidade` printed `0 rule(s), 15 clause(s)` and no rule id (issue 24)."""
    code, out, _ = run(capsys, "rules", "search", "penalidade")
    assert code == 0
    rules = {r.id: r for r in load_rules()}
    blocks = out.split("\nclause ")[1:]
    assert blocks
    for block in blocks:  # each clause, with exactly the rules of spec/rules citing it
        cid = block.split()[0]
        citing = [r.id for r in rules.values() if cid in r.cites]
        line = next(x for x in block.splitlines() if x.startswith("  cited by: "))
        assert line == "  cited by: " + (", ".join(citing) or "no rule")
    summary = out.rstrip().splitlines()[-1]
    assert summary.startswith("0 rule(s), ") and "more rule(s) cite the clauses found: " in summary
    assert "CL.UNO.CATCH-PENALTY" in summary.split(": ", 1)[1].split(", ")


@pytest.mark.parametrize("query", [['"wild draw four challenge"'], ["wild draw four challenge"],
                                   ["\u201cwild", "draw", "four", "challenge\u201d"],
                                   ["wild", "draw four", "'challenge'"]])
def test_quoted_and_unquoted_words_mean_the_same(capsys: pytest.CaptureFixture[str],
                                                 query: list[str]) -> None:
    """A quoted query was searched as one phrase: nothing found, where its words found 13."""
    code, plain, _ = run(capsys, "rules", "search", "wild", "draw", "four", "challenge")
    assert code == 0 and "rule CL.WD4.CHALLENGE.DECISION  " in plain
    code, out, _ = run(capsys, "rules", "search", *query)
    assert code == 0 and out == plain


def test_a_phrase_is_asked_for_with_phrase(capsys: pytest.CaptureFixture[str]) -> None:
    # "challenge" anywhere, and "draw four" in that order: all must hold
    code, out, _ = run(capsys, "rules", "search", "--phrase", "draw four", "challenge")
    assert code == 0
    ids = [line.split()[1] for line in out.splitlines() if line.startswith(("rule ", "clause "))]
    hay = {r.id: f"{r.id} {r.statement}" for r in load_rules()}
    hay |= {c.id: f"{c.id} {c.text} {c.en}" for s in load_sources() for c in s.clauses}
    for i in ids:
        text = " ".join(hay[i].lower().split())
        assert "draw four" in text and "challenge" in text
    # the same words out of order are not the phrase
    code, out, _ = run(capsys, "rules", "search", "--phrase", "four draw")
    assert code == 1 and out.strip() == 'no rule or clause contains: "four draw"'
    # accents, case, line breaks and quotation marks around it do not count
    code, accented, _ = run(capsys, "rules", "search", "--phrase", "COMPRA   QUATRO")
    code2, plain, _ = run(capsys, "rules", "search", "--phrase", '"compra quatro"')
    assert code == code2 == 0 and accented == plain


@pytest.mark.parametrize(("argv", "message"), [
    ([], "name a word to look for, or a --phrase (see `uno-fsm rules search --help`)"),
    (["--phrase", ""], "an empty --phrase; name the words to find in that order"),
    (["--phrase", ' "" '], "an empty --phrase; name the words to find in that order"),
    (["wild", "--phrase", "\t"], "an empty --phrase; name the words to find in that order"),
    (['""'], "an empty word; name what to look for"),
    (["x" * 10_001], "the query is longer than 10000 characters; no clause is"),
    (["--phrase", "draw " * 2_001], "the query is longer than 10000 characters; no clause is"),
])
def test_hostile_queries_are_refused(capsys: pytest.CaptureFixture[str], argv: list[str],
                                     message: str) -> None:
    code, out, err = run(capsys, "rules", "search", *argv)
    assert code == 2 and out == "" and err.strip() == f"uno-fsm rules search: {message}"


@pytest.mark.parametrize("word", ["x" * 9_000, "\x00", "\u202e", "%s%n", "a.*z", "[^x]", "\\"])
def test_odd_words_find_nothing_and_say_so(capsys: pytest.CaptureFixture[str],
                                           word: str) -> None:
    code, out, _ = run(capsys, "rules", "search", word)  # a word is text, never a pattern
    assert code == 1 and out.startswith("no rule or clause contains: ")
    assert "\x00" not in out and "\u202e" not in out  # printed escaped
