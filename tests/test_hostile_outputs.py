"""Hostile inputs, third round (issue 26): what the commands write.

- An output that resolves to an input of the same command (a scenario file, a corpus file, the
  expectation file, the adapter's program, the report read with `--from`, a knowledge file,
  the example database), by its own name, a symbolic link or a hard link, is refused before
  anything runs: exit 2, one line, the input unchanged (uno_spec.files.clash).
- Every report format writes whatever strings an adapter sends (a lone surrogate, terminal
  escapes, HTML, Markdown): JSON reads back the same strings, the console shows escapes, JUnit
  parses, Markdown keeps its structure (uno_spec.encoding), in `run`, `report`, `compliance`,
  `site` and `diff` alike.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from harness_helpers import FIX, HOSTILE, no_process_left  # noqa: F401 - autouse fixture
from test_hostile_cli import one_line, scenario

from uno_cli.main import main
from uno_spec import sitelinks

ROOT = Path(__file__).resolve().parents[1]
HARNESS = FIX / "scenarios" / "harness.yaml"
sys.path.insert(0, str(FIX))
from hostile_stdio import HOSTILE_NAME  # noqa: E402

ESCAPES = ("\x1b", "\x07", "\x9b")  # no raw terminal control may reach the console
FAILING = ["--no-progress", "--no-expectations"]


def _adapter(*modes: str) -> str:
    return "stdio:" + shlex.join([*HOSTILE, "--mode", ",".join(modes), "--when", "hello"])


def _unchanged(path: Path, before: bytes) -> None:
    assert path.read_bytes() == before


def _published() -> dict[str, Any]:
    """RLCard's committed run report, to be made hostile."""
    return json.loads((ROOT / "docs/compliance/data/rlcard.json").read_text(encoding="utf-8"))


def _site(tmp_path: Path, data: dict[str, Any], *output: str) -> int:
    """`conformance site` of one report (a folder holding it), to `output`."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "rlcard.json").write_text(json.dumps(data), encoding="utf-8")
    return main(["conformance", "site", "--from", str(folder), *output])


def _compliance(tmp_path: Path, data: dict[str, Any], *output: str) -> int:
    """`conformance compliance` of RLCard from one report, to `output`."""
    source = tmp_path / "rlcard.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    return main(["conformance", "compliance", "--implementation", "rlcard", "--from",
                 str(source), *output])


def _outside_code(markdown: str) -> str:
    """The Markdown text with its code spans left out (inside one, `<b>` is text)."""
    return re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", markdown)


def _link(markdown: str) -> bool:
    """Whether the Markdown text holds a link or an image other than the site's own links to
    a rule, clause or ruling (`](` with its `]` not escaped, its target not in the site)."""
    site = sitelinks.base()
    return any(not target.startswith((site, "../../site/"))
               for target in re.findall(r"(?<!\\)\]\(([^)]*)\)", _outside_code(markdown)))


# --- outputs over inputs: refused before anything runs ----------------------------------------


def test_run_refuses_to_write_its_report_over_the_scenario_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario(tmp_path)
    before = path.read_bytes()
    assert main(["conformance", "run", str(path), "-o", str(path)]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance: {path}: --output would overwrite a "
                                "scenario file of this run; choose another path")
    _unchanged(path, before)


@pytest.mark.parametrize("how", ["symlink", "hardlink", "inside"])
def test_run_refuses_an_output_that_is_a_scenario_file_under_another_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str) -> None:
    path = scenario(tmp_path)
    before = path.read_bytes()
    given = tmp_path  # the directory is given, the report would replace a file in it
    other = tmp_path / "other.yaml"
    if how == "symlink":
        other.symlink_to(path.name)
    elif how == "hardlink":
        os.link(path, other)
    else:
        other = path
    target = [str(given)] if how == "inside" else [str(path)]
    assert main(["conformance", "run", *target, "-o", str(other)]) == 2
    same = "" if how == "inside" else f" ({path}, the same file)"
    assert one_line(capsys) == (f"uno-fsm conformance: {other}: --output would overwrite a "
                                f"scenario file of this run{same}; choose another path")
    _unchanged(path, before)


def test_run_refuses_to_write_over_a_file_of_the_bundled_corpus(
        capsys: pytest.CaptureFixture[str]) -> None:
    draw = ROOT / "conformance" / "corpus" / "classic" / "draw.yaml"
    before = draw.read_bytes()
    assert main(["conformance", "run", "-o", str(draw), "--format", "json"]) == 2
    assert one_line(capsys).endswith(f"{draw}: --output would overwrite a scenario file of "
                                     "this run; choose another path")
    _unchanged(draw, before)


def test_run_refuses_to_write_over_its_expectation_file_and_its_program(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario(tmp_path)
    expectations = tmp_path / "known.yaml"
    expectations.write_text("implementation: x\nfailures: []\n", encoding="utf-8")
    assert main(["conformance", "run", str(path), "--expectations", str(expectations),
                 "-o", str(expectations)]) == 2
    assert one_line(capsys).endswith(f"{expectations}: --output would overwrite the expectation "
                                     "file of this run; choose another path")
    program = tmp_path / "engine.py"
    program.write_text("print('an engine')\n", encoding="utf-8")
    assert main(["conformance", "run", str(path), "--adapter",
                 f"stdio:{sys.executable} {program}", "-o", str(program)]) == 2
    assert one_line(capsys).endswith(f"{program}: --output would overwrite the adapter's "
                                     "program; choose another path")
    assert program.read_text(encoding="utf-8") == "print('an engine')\n"


def test_report_refuses_to_render_over_the_report_it_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.json"
    assert main(["conformance", "run", str(HARNESS), "--format", "json", "-o", str(report),
                 "-q"]) == 0
    capsys.readouterr()
    before = report.read_bytes()
    assert main(["conformance", "report", "--from", str(report), "--format", "markdown",
                 "-o", str(report)]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance: {report}: --output would overwrite the "
                                "report read with --from; choose another path")
    _unchanged(report, before)


@pytest.fixture
def rlcard_report(tmp_path: Path) -> Path:
    path = tmp_path / "rlcard.json"
    path.write_bytes((ROOT / "docs/compliance/data/rlcard.json").read_bytes())
    return path


@pytest.mark.parametrize(("options", "line"), [
    (["--output", "FROM"], "FROM: --output would overwrite the report read with --from; "
     "choose another path"),
    (["--write-expectations", "FROM"], "FROM: --write-expectations would overwrite the report "
     "read with --from; choose another path"),
    (["--output", "PAGE", "--write-expectations", "PAGE"], "PAGE: --write-expectations and "
     "--output name the same file"),
    (["--output", str(ROOT / "conformance/implementations/rlcard.yaml")],
     f"{ROOT / 'conformance/implementations/rlcard.yaml'}: --output would overwrite the "
     "implementation's knowledge file; choose another path"),
])
def test_compliance_refuses_outputs_over_its_inputs_and_each_other(
        rlcard_report: Path, capsys: pytest.CaptureFixture[str], options: list[str],
        line: str) -> None:
    page = rlcard_report.parent / "page.md"
    argv = [o.replace("FROM", str(rlcard_report)).replace("PAGE", str(page)) for o in options]
    before = rlcard_report.read_bytes()
    assert main(["conformance", "compliance", "--implementation", "rlcard", "--from",
                 str(rlcard_report), *argv]) == 2
    assert one_line(capsys) == "uno-fsm conformance compliance: " + line.replace(
        "FROM", str(rlcard_report)).replace("PAGE", str(page))
    _unchanged(rlcard_report, before)
    assert not page.exists()


def test_site_refuses_to_write_its_matrix_over_a_report(
        rlcard_report: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = rlcard_report.read_bytes()
    assert main(["conformance", "site", "--from", str(rlcard_report.parent), "--markdown",
                 str(rlcard_report)]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance site: {rlcard_report}: --markdown would "
                                "overwrite a report read with --from; choose another path")
    _unchanged(rlcard_report, before)


def test_site_refuses_a_page_over_a_report_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A report given by name that is where the site would write its index."""
    index = tmp_path / "index.html"
    index.write_bytes((ROOT / "docs/compliance/data/rlcard.json").read_bytes())
    before = index.read_bytes()
    assert main(["conformance", "site", "--from", str(index), "--output", str(tmp_path)]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance site: {index}: --output would overwrite "
                                "a report read with --from; choose another path")
    _unchanged(index, before)


def test_site_names_a_device_given_as_a_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`site --from /dev/zero` said "no such file or directory"."""
    assert main(["conformance", "site", "--from", "/dev/zero", "--output",
                 str(tmp_path / "site")]) == 2
    assert one_line(capsys) == ("uno-fsm conformance site: /dev/zero: cannot read: a character "
                                "device, not a regular file or a directory")
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize(("options", "line"), [
    (["--database", "DB", "--output", "DB/r.json"],
     "DB/r.json: --output is inside the example database (--database); write the report "
     "elsewhere"),
    (["--database", "DB", "--write-scenarios", "DB"],
     "DB: --write-scenarios would overwrite the example database (--database); choose another "
     "path"),
    (["--write-scenarios", "DB", "--output", "DB/r.yaml"],
     "DB/r.yaml: --output is inside the scenario folder (--write-scenarios); write the report "
     "elsewhere"),
])
def test_diff_refuses_outputs_inside_its_database_or_scenario_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str],
        line: str) -> None:
    db = tmp_path / "db"
    db.mkdir()
    argv = [o.replace("DB", str(db)) for o in options]
    assert main(["conformance", "diff", "--adapter", "reference", "--examples", "1", *argv]) == 2
    assert one_line(capsys) == "uno-fsm conformance diff: " + line.replace("DB", str(db))
    assert list(db.iterdir()) == []


def test_pytest_junitxml_over_a_scenario_file_is_a_usage_error(tmp_path: Path) -> None:
    path = scenario(tmp_path)
    before = path.read_bytes()
    out = _pytest(tmp_path, "--uno-adapter", "reference", "--uno-corpus", str(path),
                  f"--junitxml={path}")
    assert out.returncode == 4, out.stderr
    assert out.stderr.strip().splitlines()[-1] == (
        f"ERROR: {path}: --junitxml would overwrite a scenario file of this run; choose "
        "another path")
    _unchanged(path, before)


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "--rootdir", str(tmp_path), *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)


# --- every format writes whatever an adapter sends ------------------------------------------


@pytest.mark.parametrize("fmt", ["console", "json", "junit", "markdown"])
def test_a_lone_surrogate_from_the_adapter_is_written_in_every_format(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    """`"\\ud800"` in an observation once made console and JSON exit 2 with `internal error:
    UnicodeEncodeError ... surrogates not allowed`, and no report was written."""
    out = tmp_path / f"report.{fmt}"
    assert main(["conformance", "run", str(HARNESS), "--adapter", _adapter("surrogate"),
                 "--format", fmt, "-o", str(out), *FAILING]) == 1
    capsys.readouterr()
    text = out.read_text(encoding="utf-8")
    if fmt == "json":
        data = json.loads(text)
        assert data["results"][0]["observed"] == {"current": 1, "top": "R7\ud800"}
    elif fmt == "junit":
        failure = ET.fromstring(text).find(".//failure")
        assert failure is not None and '"top": "R7\\ud800"' in (failure.text or "")
    elif fmt == "markdown":
        assert '- observed: `{"current": 1, "top": "R7\\ud800"}`' in text
    else:
        assert 'observed: {"current": 1, "top": "R7\\ud800"}' in text


def test_a_lone_surrogate_reaches_the_terminal_as_an_escape(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "run", str(HARNESS), "--adapter", _adapter("surrogate"),
                 *FAILING]) == 1
    out = capsys.readouterr().out
    out.encode("utf-8")  # printable on any UTF-8 console
    assert 'observed: {"current": 1, "top": "R7\\ud800"}' in out


def _hostile_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, dict]:
    report = tmp_path / "hostile.json"
    assert main(["conformance", "run", str(HARNESS), "--adapter", _adapter("hostile-name"),
                 "--format", "json", "-o", str(report), *FAILING]) == 1
    capsys.readouterr()
    return report, json.loads(report.read_text(encoding="utf-8"))


def test_a_hostile_implementation_name_and_code_never_reach_the_console_raw(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report, data = _hostile_json(tmp_path, capsys)
    assert data["implementation"]["name"] == HOSTILE_NAME  # the JSON keeps it exactly
    assert main(["conformance", "report", "--from", str(report)]) == 0
    out = capsys.readouterr().out
    assert not any(e in out for e in ESCAPES)
    assert "evil\\x1b]0;pwned\\x07\\x1b[2J" in out  # shown, as escapes
    assert main(["conformance", "run", str(HARNESS), "--adapter", _adapter("hostile-name"),
                 *FAILING]) == 1
    out = capsys.readouterr().out
    assert not any(e in out for e in ESCAPES)
    assert "action rejected with evil\\x1b]0;pwned\\x07\\x1b[2J" in out


def test_hostile_names_in_markdown_and_junit_reports(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report, _data = _hostile_json(tmp_path, capsys)
    md = tmp_path / "r.md"
    assert main(["conformance", "report", "--from", str(report), "--format", "markdown",
                 "-o", str(md)]) == 0
    text = md.read_text(encoding="utf-8")
    assert "<script>" not in _outside_code(text) and not _link(text)
    assert not any(e in text for e in ESCAPES)
    assert text.splitlines()[0] == ("# Conformance report: evil\\]0;pwned\\[2J &lt;script&gt;"
                                    "alert(1)&lt;/script&gt; \\[x\\](javascript:1) \\| \\`y\\`"
                                    " 0.0")
    xml = tmp_path / "r.xml"
    assert main(["conformance", "report", "--from", str(report), "--format", "junit",
                 "-o", str(xml)]) == 0
    failure = ET.fromstring(xml.read_text(encoding="utf-8")).find(".//failure")
    assert failure is not None and failure.get("message", "").startswith(
        "action rejected with evil\ufffd]0;pwned\ufffd\ufffd[2J <script>")


def test_compliance_page_escapes_what_the_report_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The compliance page copied an implementation's name and a result's id raw."""
    data = _published()
    data["implementation"]["name"] = HOSTILE_NAME
    data["implementation"]["rulesets"] = ["<img src=x onerror=alert(1)>"]
    data["results"][0]["id"] = "x` <script>alert(1)</script> `"
    data["results"][0]["ruleset"] = "[click](javascript:alert(1))"
    page = tmp_path / "page.md"
    assert _compliance(tmp_path, data, "--output", str(page)) == 0
    capsys.readouterr()
    text = page.read_text(encoding="utf-8")
    outside = _outside_code(text)
    assert "<script>" not in outside and "<img" not in outside and not _link(text)
    assert not any(e in text for e in ESCAPES)
    assert text.splitlines()[0].startswith(
        "# Compliance report: evil\\]0;pwned\\[2J &lt;script&gt;")
    assert "| `` x` <script>alert(1)</script> ` `` | \\[click\\](javascript:alert(1)) |" in text


def test_site_markdown_escapes_what_the_reports_say(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _published()
    data["implementation"]["version"] = "1 <script>alert(1)</script> | `x`"
    data["adapter"] = "x` <b>y</b>"
    out = tmp_path / "index.md"
    assert _site(tmp_path, data, "--markdown", str(out)) == 0
    capsys.readouterr()
    [row] = [line for line in out.read_text(encoding="utf-8").splitlines()
             if line.startswith("| RLCard UNO | 1 ")]
    outcomes = Counter("failed" if r["outcome"] == "errored" else r["outcome"]
                       for r in data["results"])
    assert row == ("| RLCard UNO | 1 &lt;script&gt;alert(1)&lt;/script&gt; \\| \\`x\\` | "
                   "rlcard 1.2.0 (PyPI) | "
                   f"``x` <b>y</b>`` | {len(data['results'])} | {outcomes['passed']} | "
                   f"{outcomes['failed']} | {outcomes['unsupported']} |")


def test_diff_reports_escape_what_the_implementation_says() -> None:
    """The diff Markdown report copied the implementation's name and the messages raw."""
    from conformance.diff_cli import render

    data = {"format": "uno-conformance-diff/2",
            "summary": {"divergences": 1, "groups": 1, "examples": 1, "steps": 1,
                        "illegal_steps": 0, "unsupported": 0, "out_of_scope": 0,
                        "seconds": 1.0, "fuzz_seconds": 1.0, "steps_per_second": 1.0,
                        "dropped": 1},
            "coverage": {"exercised": 1, "rules_in_scope": 2},
            "implementation": {"name": HOSTILE_NAME, "version": "\ud800"},
            "adapter": "stdio:x` <b>", "seed": 1, "rulesets": ["classic-official"],
            "starts": ["turn"], "compared": [], "warnings": ["<i>w</i>"],
            "dropped": [{"count": 1, "reason": "<i>not</i> [r](javascript:1)"}],
            "groups": [{"kind": "observation", "rules": ["CL.PLAY.MATCH"], "count": 1,
                        "signature": {"kind": "observation", "what": "top <u>",
                                      "decision": "play", "rule": "CL.PLAY.MATCH"},
                        "size": {"players": 2, "cards_in_hands": 3, "steps": 1},
                        "first_found_seconds": 0.5, "scenario_rules": [],
                        "example": {"message": "top: <script>x</script> | \x1b[2J"}}]}
    md = render(data, "markdown")
    outside = _outside_code(md)
    assert "<script>" not in outside and "<b>" not in outside and "<i>" not in outside
    assert "<u>" not in outside
    assert "\x1b" not in md and "``stdio:x` <b>``" in md and not _link(md)
    assert md.splitlines()[0] == ("# Differential fuzzing: evil\\]0;pwned\\[2J &lt;script&gt;"
                                  "alert(1)&lt;/script&gt; \\[x\\](javascript:1) \\| \\`y\\` ")
    assert "| top: &lt;script&gt;x&lt;/script&gt; \\| \\[2J |" in md
    console = render(data, "console")
    assert not any(e in console for e in ESCAPES) and "\\ud800" in console
    console.encode("utf-8")
    back = json.loads(render(data, "json"))
    assert back["implementation"] == {"name": HOSTILE_NAME, "version": "\ud800"}


def test_the_html_site_holds_what_a_report_sends(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A lone surrogate or a control character in a report stopped the site's writer
    (`UnicodeEncodeError`, no page); every text is escaped for HTML."""
    data = _published()
    data["implementation"]["version"] = "1\ud800\x1b[2J <script>alert(1)</script>"
    failing = next(r for r in data["results"] if r["outcome"] == "failed")
    failing["message"] = "observed \ud800 <img src=x onerror=alert(1)>"
    out = tmp_path / "site"
    assert _site(tmp_path, data, "--output", str(out)) == 0
    capsys.readouterr()
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "<img" not in text and "\x1b" not in text
    assert "1[2J &lt;script&gt;alert(1)&lt;/script&gt;" in (out / "index.html").read_text(
        encoding="utf-8")


def test_an_expectation_file_holds_any_message_and_any_id(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unclassified failure's message with a lone surrogate, an id that YAML would read as
    markup: the expectation file is written, and reads back as it was meant."""
    from conformance import expectations

    data = _published()
    failing = [r for r in data["results"] if r["outcome"] == "failed"]
    failing[0] |= {"id": "hostile.unknown", "file": "", "rules": [], "mismatches": [],
                   "message": "observed \ud800"}  # no known deviation: the message is the reason
    failing[1]["id"] = "x\n    reason: forged"
    written = tmp_path / "e.yaml"
    assert _compliance(tmp_path, data, "--write-expectations", str(written)) == 0
    capsys.readouterr()
    back = {e.pattern: e.reason for e in expectations.load(written).entries}
    assert "x\n    reason: forged" in back
    assert any(reason.endswith("observed \ud800") for reason in back.values())


@pytest.mark.parametrize("command", ["compliance", "site"])
def test_an_interrupted_report_makes_no_page(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             command: str) -> None:
    """A report of part of the corpus was rendered as if whole."""
    data = _published()
    data |= {"ok": False, "interrupted": True, "signal": "SIGTERM", "not_run": 700}
    data["results"] = data["results"][:93]
    data["summary"] = {k: sum(r["status"] == k for r in data["results"])
                       for k in data["summary"]} | {"total": 93}
    source = tmp_path / "rlcard.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    page = tmp_path / "page.md"
    argv = ["compliance", "--implementation", "rlcard", "--from", str(source), "-o", str(page)] \
        if command == "compliance" else ["site", "--from", str(source), "--markdown", str(page)]
    assert main(["conformance", *argv]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance {command}: {source}: interrupted by "
                                "SIGTERM: 93 of 793 scenarios judged: run the corpus again whole")
    assert not page.exists()


def test_rules_and_spec_commands_escape_what_a_spec_file_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    spec = tmp_path / "spec"
    shutil.copytree(Path(__file__).parent / "fixtures" / "spec" / "good", spec)
    rules = spec / "rules" / "deal.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "statement: Each player is dealt seven cards.",
        'statement: "Each player is dealt seven cards.\\e]0;pwned\\a\\e[2J"'), encoding="utf-8")
    assert main(["rules", "show", "CL.DEAL.SEVEN", "--spec", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "Each player is dealt seven cards.\\x1b]0;pwned\\x07\\x1b[2J" in out
    assert main(["rules", "search", "seven", "--spec", str(spec)]) == 0
    assert "\x1b" not in capsys.readouterr().out


# --- the site's base: written as it is into every link ----------------------------------------

PERCENT = "(a link's base is written as it is)"
SCHEME = "a site's base is an http://, https:// or file:// URL, or a path"
BAD_URLS = [
    ("http://x/\n# Injected\n", r"'http://x/\n# Injected\n' holds a line break: "
     f"percent-encode it {PERCENT}"),
    ("javascript:alert%281%29//", f"'javascript:alert%281%29//': {SCHEME}; not a javascript: "
     "URL"),
    ("JavaScript:x", f"'JavaScript:x': {SCHEME}; not a javascript: URL"),
    ("data:text/html,x", f"'data:text/html,x': {SCHEME}; not a data: URL"),
    ("http://x/<script>alert(1)</script>", "'http://x/<script>alert(1)</script>' holds '<': "
     f"percent-encode it {PERCENT}"),
    ("http://x/)[evil](http://e.org/", "'http://x/)[evil](http://e.org/' holds ')': "
     f"percent-encode it {PERCENT}"),
    ('http://x/"onclick=', f"'http://x/\"onclick=' holds '\"': percent-encode it {PERCENT}"),
    ("javascript&#58;alert", f"'javascript&#58;alert' holds '&': percent-encode it {PERCENT}"),
    ("http://x/a b", f"'http://x/a b' holds whitespace: percent-encode it {PERCENT}"),
    ("http://x/\u202e", "'http://x/\\u202e' holds a control character (U+202E): percent-encode "
     f"it {PERCENT}"),
    ("site/a[b", "'site/a[b' holds a bracket outside its host: percent-encode it"),
    ("https://x.org/u?q=1", "'https://x.org/u?q=1': a site's base is a folder: no query (?) or "
     "fragment (#), the links add their own"),
    ("https://x.org/u#top", "'https://x.org/u#top': a site's base is a folder: no query (?) or "
     "fragment (#), the links add their own"),
    ("//evil.org/", "'//evil.org/': a URL without its scheme: give https://... or a path"),
    ("http:///srv/site", "'http:///srv/site': an http:// URL names its host"),
    ("https://" + "x" * 2041, "a URL of 2049 characters: at most 2048"),
]


@pytest.mark.parametrize(("url", "why"), BAD_URLS, ids=range(len(BAD_URLS)))
def test_a_hostile_site_url_is_refused_in_one_line(
        url: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--site-url` was written raw into every link: a line break and `# Injected` made a
    heading of the Markdown report, `javascript:`, `<script>` and `)[evil](` passed."""
    out = tmp_path / "report.md"
    assert main(["conformance", "report", "--from", str(ROOT / "docs/compliance/data/rlcard.json"),
                 "--format", "markdown", "-o", str(out), "--site-url", url]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance report: argument --site-url: {why} (see "
                                "`uno-fsm conformance report --help`)")
    assert not out.exists()


def _site_url_commands(tmp_path: Path) -> dict[str, tuple[list[str], Path | None]]:
    """Each command that writes site links: its arguments and what it would write."""
    data = str(ROOT / "docs/compliance/data/rlcard.json")
    failing = scenario(tmp_path, current=0)  # expects the wrong seat
    return {
        "conformance report": (["conformance", "report", "--from", data, "--format",
                                "markdown", "-o", str(tmp_path / "r.md")], tmp_path / "r.md"),
        "conformance run": (["conformance", "run", str(failing), "--format", "markdown", "-o",
                             str(tmp_path / "run.md"), *FAILING], tmp_path / "run.md"),
        "conformance compliance": (["conformance", "compliance", "--implementation", "rlcard",
                                    "--from", data, "-o", str(tmp_path / "c.md")],
                                   tmp_path / "c.md"),
        "conformance site": (["conformance", "site", "--from", data, "--markdown",
                              str(tmp_path / "index.md")], tmp_path / "index.md"),
        "spec docs": (["spec", "docs", "--out", str(tmp_path / "rules")], tmp_path / "rules"),
        "rules show": (["rules", "show", "CL.PLAY.MATCH"], None),
    }


COMMANDS = ["conformance report", "conformance run", "conformance compliance",
            "conformance site", "spec docs", "rules show"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_writing_site_links_refuses_a_hostile_site_url(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv, written = _site_url_commands(tmp_path)[command]
    assert main([*argv, "--site-url", "http://x/\n# Injected\n"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"uno-fsm {command}: argument --site-url: {BAD_URLS[0][1]} (see "
                              f"`uno-fsm {command} --help`)\n")
    assert written is None or not written.exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_hostile_site_url_in_the_environment_is_refused_naming_it(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """$UNO_FSM_SITE_URL was written raw too, for every command that prints links."""
    argv, written = _site_url_commands(tmp_path)[command]
    monkeypatch.setenv(sitelinks.ENV, "javascript:alert%281%29//")
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"uno-fsm {command}: $UNO_FSM_SITE_URL: {BAD_URLS[1][1]}\n")
    assert written is None or not written.exists()


def test_the_site_url_check_accepts_urls_and_paths_and_is_kept_by_the_api(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The one check (uno_spec.sitelinks.url_problem): what a site's base may be; the API
    refuses what the command line refuses (`base()` under `using`, or with the variable)."""
    for good in ("https://example.org/uno", "http://[::1]:8000/u/", "HTTPS://X.ORG/",
                 "file:///srv/site", "site/", "../../site", "/srv/site", "a%20b/%28x%29",
                 "https://example.org/~me/uno-fsm_1.0/caf\u00e9"):
        assert sitelinks.url_problem(good) is None, good
    with sitelinks.using("javascript:x"), pytest.raises(sitelinks.SiteURLError) as info:
        sitelinks.base()
    assert str(info.value) == f"--site-url: 'javascript:x': {SCHEME}; not a javascript: URL"
    monkeypatch.setenv(sitelinks.ENV, "https://x.org/(y)")
    with pytest.raises(sitelinks.SiteURLError) as info:
        sitelinks.rule_url("CL.PLAY.MATCH")
    assert str(info.value) == (f"$UNO_FSM_SITE_URL: 'https://x.org/(y)' holds '(': "
                               f"percent-encode it {PERCENT}")
    with sitelinks.using("https://ok.example/u"):  # the option wins over the variable
        assert sitelinks.base() == "https://ok.example/u/"
