"""``pagoda load`` is the load script behind the ``pagoda`` command."""

import pytest

from pagoda.cli import main


def test_pagoda_load_refuses_a_server_off_loopback(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["load", "--url", "http://192.168.1.2:8000"])
    assert exit_info.value.code == 2
    assert "192.168.1.2" in capsys.readouterr().err


def test_pagoda_load_help_names_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["load", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "--tables" in out
    assert "--think" in out
