"""The README's commands are real (issue 17 item 5): every `uno-fsm` line parses with the CLI's
parser, each task an implementer comes for is five lines, the set-up times are filled in."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from uno_cli.main import build_parser

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"(?:^    .*\n)+", README, re.M)  # the indented code blocks
COMMANDS = [line.strip() for block in BLOCKS for line in block.splitlines()
            if line.strip().startswith("uno-fsm ")]


def test_the_readme_has_commands() -> None:
    assert len(COMMANDS) > 25


@pytest.mark.parametrize("line", COMMANDS)
def test_every_uno_fsm_line_of_the_readme_parses(line: str) -> None:
    words = shlex.split(line, comments=True)
    args = build_parser(words[1:]).parse_args(words[1:])
    assert callable(args.handler)


@pytest.mark.parametrize("task", ["Run the suite on my engine", "Read why a scenario failed",
                                  "Add a scenario"])
def test_each_task_is_five_lines(task: str) -> None:
    after = README.split(f"\n{task}", 1)[1]
    block = re.search(r"\n\n((?:    .*\n)+)", after)
    assert block is not None and block.start() == after.index("\n\n")
    assert len(block.group(1).splitlines()) == 5


def test_the_set_up_times_are_measured() -> None:
    section = README.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    assert "TIME" not in section
    assert re.search(r"the first command \d+ s \(\d+ s to install, \d+(\.\d)? s to run the "
                     r"corpus\)", " ".join(section.split()))


def test_the_ids_the_readme_names_exist() -> None:
    import fnmatch

    from conformance.scenario import load_corpus
    from uno_spec.loader import load_rules

    ids = [s.id for s in load_corpus().scenarios]
    rules = {r.id for r in load_rules()}
    named = 0
    for line in COMMANDS:
        words = shlex.split(line, comments=True)
        for flag, value in zip(words, words[1:], strict=False):
            if flag == "--id":
                assert fnmatch.filter(ids, value), line
                named += 1
        if words[1:3] == ["rules", "show"]:
            assert words[3] in rules, line
            named += 1
    assert named >= 3
