"""``pagoda watch <record>``: replay a stored game in the terminal, step by step."""

import argparse
from collections.abc import Sequence


def run_watch(game: str, argv: Sequence[str]) -> int:
    """Open the record named in ``argv`` and step through it."""
    p = argparse.ArgumentParser(prog=f"pagoda watch {game}", description=__doc__.splitlines()[0])
    p.add_argument("record", help="a round or match record written by pagoda (play --record, demo ...)")
    p.add_argument("--step", type=int, default=0, help="start after this many actions (-1: the end)")
    p.add_argument(
        "--lang", default=None, choices=("en", "ko", "ja"), help="language (default: the locale's)"
    )
    args = p.parse_args(argv)
    from pagoda.tui.i18n import Catalog
    from pagoda.tui.watch import Replay, WatchApp, game_of

    with open(args.record, encoding="utf-8") as f:
        text = f.read()
    if game_of(text) != game:
        p.error(f"{args.record} is a record of {game_of(text)}, not of {game}")
    replay = Replay(Catalog(args.lang), text)
    WatchApp(replay, replay.total if args.step < 0 else args.step).run()
    return 0
