"""`uno-fsm spec docs`: generation, and `--check` failing on stale pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from uno_cli.main import main

GOOD = Path(__file__).parent / "fixtures" / "spec" / "good"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_generate_then_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rules"
    code, text = run(capsys, "spec", "docs", "--spec", str(GOOD), "--out", str(out))
    assert code == 0 and text.startswith("wrote 2 file(s)")
    assert sorted(p.name for p in out.iterdir()) == ["deal.md", "index.md"]
    page = (out / "deal.md").read_text(encoding="utf-8")
    assert "# Dealing" in page
    assert "### CL.DEAL.SEVEN" in page
    assert "  > Cada jogador recebe 7 cartas." in page
    assert "  > *en:* Each player receives 7 cards." in page
    # rule, clauses and rulings link their place in the site (`site/` beside `docs/`)
    assert ("- **[RUL.DEAL.COUNT](../../site/rulings.html#RUL.DEAL.COUNT)**: How many cards "
            "does each player receive?") in page
    assert ("In the site: [rules/deal.html#CL.DEAL.SEVEN](../../site/rules/deal.html"
            "#CL.DEAL.SEVEN)") in page
    assert "- [`demo:deal:1`](../../site/sources/demo.html#demo:deal:1) (normative)" in page
    assert "  - **base-b** decides `ten` (ten cards)" in page
    index = (out / "index.md").read_text(encoding="utf-8")
    assert "- [CL.DEAL.SEVEN](deal.md#CL.DEAL.SEVEN): Each player is dealt seven cards." in index
    code, text = run(capsys, "spec", "docs", "--check", "--spec", str(GOOD), "--out", str(out))
    assert code == 0 and text.startswith("docs up to date")
    # --site-url: the pages link a published site instead
    run(capsys, "spec", "docs", "--spec", str(GOOD), "--out", str(out), "--site-url",
        "https://example.org/uno/")
    assert "(https://example.org/uno/rules/deal.html#CL.DEAL.SEVEN)" in (
        out / "deal.md").read_text(encoding="utf-8")


def test_check_reports_stale_and_missing(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rules"
    run(capsys, "spec", "docs", "--spec", str(GOOD), "--out", str(out))
    page = out / "deal.md"
    page.write_text(page.read_text(encoding="utf-8") + "hand edit\n", encoding="utf-8")
    (out / "index.md").unlink()
    code, text = run(capsys, "spec", "docs", "--check", "--spec", str(GOOD), "--out", str(out))
    assert code == 1
    assert text.splitlines() == [
        f"{page}: stale (run `uno-fsm spec docs` to regenerate)",
        f"{out / 'index.md'}: stale (run `uno-fsm spec docs` to regenerate)",
    ]


def test_generation_does_not_depend_on_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "spec", "docs", "--spec", str(GOOD), "--out", str(tmp_path / "a"))
    monkeypatch.chdir(tmp_path)
    run(capsys, "spec", "docs", "--spec", str(GOOD), "--out", str(tmp_path / "b"))
    for page in (tmp_path / "a").iterdir():
        assert page.read_text(encoding="utf-8") == (tmp_path / "b" / page.name).read_text(
            encoding="utf-8")


def test_committed_rule_docs_are_fresh(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/rules/ matches the spec; regenerate with `uno-fsm spec docs` when it does not."""
    code, text = run(capsys, "spec", "docs", "--check")
    assert code == 0, text
