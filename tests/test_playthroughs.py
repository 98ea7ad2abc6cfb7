"""The playthrough files (tests/playthroughs/) are what the cores do, step by step, line for line."""

import pytest

from tests.playthroughs import FILES, HERE, generate, name


@pytest.mark.parametrize(("game", "preset", "seed"), FILES)
def test_the_playthrough_file_is_what_the_core_does(game: str, preset: str, seed: int) -> None:
    path = HERE / name(game, preset, seed)
    want = path.read_text(encoding="utf-8").splitlines()
    got = generate(game, preset, seed).splitlines()
    for number, (w, g) in enumerate(zip(want, got, strict=False), 1):
        assert g == w, f"{path.name} line {number} differs (on purpose? python -m tests.playthroughs)"
    assert len(got) == len(want), f"{path.name}: {len(got)} lines made, {len(want)} in the file"
