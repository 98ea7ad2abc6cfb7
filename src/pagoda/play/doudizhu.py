"""``pagoda play doudizhu [--rules "classic rob=true"] [--bots heuristic] [--seat N] [--record out.txt]``:
a match of Dou Di Zhu (any preset: classic, rob, four_player, laizi, rlcard, openspiel) against bots."""

from collections.abc import Sequence

from pagoda.play import bot_specs, launch, parser, seed_of


def run(argv: Sequence[str]) -> int:
    """Play a Dou Di Zhu match; returns the exit status."""
    rules_help = 'rules text: classic, "classic rob=true", four_player, laizi, rlcard, openspiel, ...'
    args = parser("doudizhu", __doc__.splitlines()[0], rules_help).parse_args(argv)
    from pagoda import doudizhu as ddz
    from pagoda.tui.doudizhu import DoudizhuUI
    from pagoda.tui.i18n import Catalog

    rules = ddz.parse_rules(args.rules or "classic")
    if not 0 <= args.seat < rules.players:
        raise SystemExit(f"--seat is 0-{rules.players - 1}")
    game = DoudizhuUI(
        Catalog(args.lang),
        human=args.seat,
        bots=bot_specs(args.bots, rules.players, args.seat),
        seed=seed_of(args.seed),
        rules=rules,
        record_path=args.record,
    )
    return launch(game, args.delay)
