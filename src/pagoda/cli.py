"""The ``pagoda`` command: ``pagoda <command> <game> [options]``.

Each command lives in a module ``pagoda.<command>.<game>`` with a ``run(argv) -> int`` and is
imported only when it runs, so the command starts fast and a missing optional extra only
matters to the command that needs it.
"""

import argparse
import importlib
import sys
from collections.abc import Sequence

GAMES = ("tichu", "doudizhu")
COMMANDS = {
    "demo": "watch bots play a round, printed in the notation",
    "bench": "measure the speed of a rules core",
    "arena": "pit bots against each other on seeded, mirrored deals",
    "advise": "rank the actions of a position with their estimated value",
    "play": "play a match against bots in the terminal",
    "watch": "step through a stored game record in the terminal",
    "train": "train a learned bot by self-play, with checkpoints and a curve",
}


def _record_game(path: str) -> str | None:
    """The game of a record file, from its ``[Game ...]`` header (``pagoda watch <record>``)."""
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("[Game "):
                    game = line.split('"')[1]
                    return game.removesuffix("-match") if game.removesuffix("-match") in GAMES else None
    except (OSError, IndexError, UnicodeDecodeError):
        return None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``pagoda`` command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="pagoda", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    commands = {}
    for command, text in COMMANDS.items():
        p = sub.add_parser(command, help=text, description=text, add_help=False)
        p.add_argument("game", choices=GAMES, help="the game: " + ", ".join(GAMES))
        p.add_argument(
            "rest",
            nargs=argparse.REMAINDER,
            help=f"options of the command (see pagoda {command} GAME --help)",
        )
        commands[command] = p
    serve = sub.add_parser("serve", help="run the game server (needs the server extra)", add_help=False)
    serve.add_argument("rest", nargs=argparse.REMAINDER, help="options of the server (see --help)")
    load = sub.add_parser("load", help="load-test servers on loopback (server extra)", add_help=False)
    load.add_argument("rest", nargs=argparse.REMAINDER, help="options of the load test (see --help)")
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["serve"]:
        from pagoda.server.serve import run

        return run(args_list[1:])
    if args_list[:1] == ["load"]:
        from pagoda.server.load import main as load_main

        return load_main(args_list[1:])
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) >= 2 and argv[0] in commands and argv[1] in ("-h", "--help"):
        # The command's own help, before a game is named (each game's options: GAME --help).
        print(commands[argv[0]].format_help(), end="")
        return 0
    if len(argv) >= 2 and argv[0] == "watch" and argv[1] not in GAMES:
        game = _record_game(argv[1])
        if game is not None:
            argv.insert(1, game)
    args = parser.parse_args(argv)
    try:
        module = importlib.import_module(f"pagoda.{args.command}.{args.game}")
    except ModuleNotFoundError as e:
        if not e.name or not e.name.startswith(f"pagoda.{args.command}"):
            raise
        parser.error(f"'{args.command}' is not available for {args.game} yet")
    status: int = module.run(args.rest)
    return status


if __name__ == "__main__":
    sys.exit(main())
