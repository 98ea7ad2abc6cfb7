"""``pagoda play tichu [--bots heuristic] [--seat N] [--rules bsw] [--record out.txt]``: a match to
1000 against three bots in the terminal."""

from collections.abc import Sequence

from pagoda.play import bot_specs, launch, parser, seed_of


def run(argv: Sequence[str]) -> int:
    """Play a Tichu match; returns the exit status."""
    args = parser("tichu", __doc__.splitlines()[0], 'rules text, e.g. "standard" or "bsw"').parse_args(argv)
    from pagoda.tichu import Rules
    from pagoda.tui.i18n import Catalog
    from pagoda.tui.tichu import TichuUI

    if not 0 <= args.seat < 4:
        raise SystemExit("--seat is 0-3")
    game = TichuUI(
        Catalog(args.lang),
        human=args.seat,
        bots=bot_specs(args.bots, 4, args.seat),
        seed=seed_of(args.seed),
        rules=Rules.parse(args.rules) if args.rules else None,
        record_path=args.record,
    )
    return launch(game, args.delay)
