"""The ``pagoda`` command: ``pagoda demo tichu``, ``pagoda bench <game>``.

Each subcommand lives in its own module and is imported only when it runs, so the command starts
fast and a missing optional extra only matters to the subcommand that needs it.
"""

import argparse
import importlib
import sys
from collections.abc import Sequence

GAMES = ("tichu", "doudizhu")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``pagoda`` command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="pagoda", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="watch four bots play a round, printed in the notation")
    demo.add_argument("game", choices=GAMES)
    demo.add_argument("rest", nargs=argparse.REMAINDER, help="options of the demo")
    bench = sub.add_parser("bench", help="measure the speed of a rules core")
    bench.add_argument("game", choices=GAMES)
    bench.add_argument("rest", nargs=argparse.REMAINDER, help="options of the benchmark")
    args = parser.parse_args(argv)
    module = importlib.import_module(f"pagoda.{args.command}.{args.game}")
    status: int = module.run(args.rest)
    return status


if __name__ == "__main__":
    sys.exit(main())
