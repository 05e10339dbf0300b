"""Bad input on the command line gives one clear line on stderr and a non-zero exit, never a
traceback (docs audit)."""

from __future__ import annotations

import pytest

from uno_cli.main import main


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["simulate", "--ruleset", "nope", "--games", "1", "--no-progress"],
         "unknown ruleset 'nope'"),
        (["simulate", "--ruleset", "classic-official+nope", "--games", "1", "--no-progress"],
         "unknown variant 'nope'"),
    ],
)
def test_unknown_ruleset_is_one_line(argv: list[str], needle: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1
    assert lines[0].startswith("uno-fsm simulate: ")
    assert needle in lines[0]


def test_other_exceptions_still_propagate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only spec errors are turned into one line; a bug still shows its traceback."""
    import argparse

    from uno_cli import main as main_module

    def boom(args: argparse.Namespace) -> int:
        raise RuntimeError("a bug")

    def parser(argv: object = None) -> argparse.ArgumentParser:
        p = argparse.ArgumentParser()
        p.set_defaults(handler=boom, command="x")
        return p

    monkeypatch.setattr(main_module, "build_parser", parser)
    with pytest.raises(RuntimeError, match="a bug"):
        main([])
