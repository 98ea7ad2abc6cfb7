"""``pagoda <command> --help`` prints help and exits 0, before any game is named."""

import pytest

from pagoda.cli import main
from pagoda.server.serve import run as serve


@pytest.mark.parametrize("command", ["arena", "play"])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_command_help_without_a_game(command: str, flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, flag]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: pagoda {command} {{tichu,doudizhu}} ...")
    assert f"pagoda {command} GAME --help" in out


def test_serve_help_documents_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    options = [
        "--host", "--port", "--db", "--data-dir", "--client", "--allow-origin", "--grace", "--bomb-window",
        "--bot-delay", "--bot-workers", "--bot-timeout", "--bot-module", "--max-message",
        "--sqlite-synchronous", "--ws-deflate", "--redis", "--lease", "--tables-per-address",
        "--header-timeout", "--body-timeout", "--keep-alive",
    ]  # fmt: skip
    for option in options:
        assert f"  {option} " in out or f"  {option}," in out, option
    # Every option has a sentence of help, not just its name.
    lines = out.split("options:", 1)[1].splitlines()
    helped = [line for line in lines if line.strip() and not line.strip().startswith("-")]
    assert len(helped) >= len(options)


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
