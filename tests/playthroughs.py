"""Playthrough files (as OpenSpiel keeps them): every step of a seeded random round, written out.

Each step of a file is a block::

    position <the state's position notation>
    view <seat> <that seat's view, in its text form>        (one line per seat)
    decision <seat> <kind> <count>: <action> | <action> ...   (one line per decision; long lists
                                                              show their first and last ones)
    action <seat> <the action taken>

and the file ends with the final position and the score. The files in tests/playthroughs/ are
the spec: tests/test_playthroughs.py regenerates each in memory and compares it line for line.
They change only on purpose::

    python -m tests.playthroughs            # rewrite every file after a deliberate rules change
"""

import random
import sys
from pathlib import Path

from tests.games import GAMES, new, pick

HERE = Path(__file__).parent / "playthroughs"
#: (game, preset, seed) of each file: every preset of both games, and the Tichu standard twice.
FILES = [
    *(("tichu", p, 1) for p in GAMES["tichu"].presets),
    ("tichu", "standard", 2),
    *(("doudizhu", p, 1) for p in GAMES["doudizhu"].presets),
]
#: A decision with more actions than this shows its first and last ones only (the exchange: 2,184).
SHOWN = 24


def name(game: str, preset: str, seed: int) -> str:
    """The file name of a playthrough."""
    return f"{game}-{preset}-{seed}.txt"


def generate(game: str, preset: str, seed: int) -> str:
    """The playthrough text of the round dealt from ``seed``, played by a generator seeded alike."""
    state = new(game, preset, seed)
    rng = random.Random(f"playthrough/{game}/{preset}/{seed}")
    seats = len(state.score()) if game == "doudizhu" else 4
    lines = [f"# {game} {preset}, seed {seed}: regenerate with `python -m tests.playthroughs`", ""]
    while not state.is_over:
        lines.append(f"position {state.position()}")
        lines.extend(f"view {s} {state.view(s)!r}" for s in range(seats))
        for d in state.decisions():
            texts = [str(a) for a in d.actions]
            if len(texts) > SHOWN:
                half = SHOWN // 2
                texts = [*texts[:half], "...", *texts[-half:]]
            lines.append(f"decision {d.seat} {d.kind} {len(d.actions)}: {' | '.join(texts)}")
        seat, action = pick(state, rng)
        lines.append(f"action {seat} {action}")
        lines.append("")
        state = state.apply(seat, action)
    lines.append(f"position {state.position()}")
    lines.append(f"score {' '.join(str(p) for p in state.score())}")
    return "\n".join(lines) + "\n"


def main() -> int:
    """Rewrite every playthrough file."""
    HERE.mkdir(exist_ok=True)
    for game, preset, seed in FILES:
        path = HERE / name(game, preset, seed)
        path.write_text(generate(game, preset, seed), encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
