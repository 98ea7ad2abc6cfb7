"""``pagoda <command> --help`` prints help and exits 0, before any game is named."""

import argparse

import pytest

from pagoda.cli import main
from pagoda.server.serve import parser as serve_parser
from pagoda.server.serve import run as serve


@pytest.mark.parametrize("command", ["arena", "play"])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_command_help_without_a_game(command: str, flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, flag]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: pagoda {command} {{tichu,doudizhu}} ...")
    assert f"pagoda {command} GAME --help" in out


def serve_options() -> list[argparse.Action]:
    """The options of ``pagoda serve`` as its parser defines them (``--help`` included)."""
    return [a for a in serve_parser()._actions if a.option_strings]


def test_serve_s_parser_gives_every_option_help() -> None:
    options = serve_options()
    assert len(options) > 20  # the parser was read, not an empty list
    for action in options:
        text = action.help
        assert isinstance(text, str), action.option_strings
        assert text != argparse.SUPPRESS, action.option_strings
        assert text.strip(), action.option_strings


def help_entries(out: str) -> dict[str, str]:
    """The options section of a ``--help`` text: each option's invocation and its help (wrapped
    lines joined)."""
    entries: dict[str, list[str]] = {}
    last = ""
    for line in out.split("options:", 1)[1].splitlines():
        if line.startswith("  -"):
            last, _, text = line.strip().partition("  ")
            entries[last] = [text]
        elif line.startswith("   "):
            entries[last].append(line)
    return {k: " ".join(" ".join(v).split()) for k, v in entries.items()}


def test_serve_help_documents_every_option(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "500")  # no help wrapped: its words as the parser has them
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--help"])
    assert exit_info.value.code == 0
    shown = help_entries(capsys.readouterr().out)
    formatter = serve_parser()._get_formatter()
    expected = {
        formatter._format_action_invocation(a): " ".join(formatter._expand_help(a).split())
        for a in serve_options()
    }
    assert shown == expected
    assert all(shown.values())


@pytest.mark.parametrize(
    ("args", "wrong"), [(["--bot-workers", "-1"], "--bot-workers"), (["--bot-timeout", "0"], "--bot-timeout")]
)
def test_serve_refuses_bad_bot_options(
    args: list[str], wrong: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        serve(args)
    assert exit_info.value.code == 2
    assert wrong in capsys.readouterr().err
