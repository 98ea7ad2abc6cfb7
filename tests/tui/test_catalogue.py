"""The Korean and Japanese catalogues say everything the English one says, with the same fields."""

import string

import pytest

from pagoda.tui.i18n import CATALOGUES, EN, Catalog, detect_lang


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_complete(lang: str) -> None:
    table = CATALOGUES[lang]
    assert set(table) == set(EN)
    for key, text in EN.items():
        assert table[key].strip(), key
        assert _fields(table[key]) == _fields(text), key


@pytest.mark.parametrize("lang", ["en", "ko", "ja"])
def test_every_message_formats(lang: str) -> None:
    tr = Catalog(lang)
    values = {"n": 1, "seat": 2, "us": 3, "them": 4, "value": 1.5, "points": 5}
    for key, text in EN.items():
        fields = _fields(text)
        tr(key, **{f: values.get(f, "x") for f in fields})


def test_locale() -> None:
    assert detect_lang({"LANG": "ko_KR.UTF-8"}) == "ko"
    assert detect_lang({"LC_ALL": "ja_JP.UTF-8", "LANG": "ko_KR.UTF-8"}) == "ja"
    assert detect_lang({"LANG": "fr_FR.UTF-8"}) == "en"
    assert detect_lang({}) == "en"
    assert Catalog("ja")("you") == "あなた"


@pytest.mark.parametrize("lang", ["en", "ko", "ja"])
def test_prompts_fit_a_line_of_80(lang: str) -> None:
    from rich.cells import cell_len

    for key, text in CATALOGUES[lang].items():
        if key.startswith(("prompt_", "help_")):
            assert cell_len(text) <= 80, key
