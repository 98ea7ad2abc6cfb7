"""``pagoda bench doudizhu [--engine python|native] [--compare]``: random 3-player games per second
and the median time to list every lead of a fresh 20-card hand, for pagoda and (``--compare``, with
the ``compare`` extra) RLCard's game, DouZero's GameEnv and OpenSpiel's C++ engine, side by side in
one process on one core.

Every engine plays uniformly random legal actions; pagoda and OpenSpiel include the auction (RLCard
and DouZero have none). Lead listing times one call per hand on hands none of them has seen.

``--engine native`` adds the native core: through the per-action API (``NativeRound``, the same
loop as the Python engine) and through the batched call (whole rounds in one native call), with
the Python engine run alternately in the same window (``--repeats`` rounds of the alternation;
medians and ranges). Its lead listing is timed through one batched call over every hand (the time
divided by the number of hands) and per call from Python.
"""

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from pagoda import doudizhu as ddz
from pagoda.doudizhu.cards import RANK_CHARS, counts_of
from pagoda.doudizhu.round import deal


def landlord_hands(count: int, seed: int = 12345) -> list[int]:
    """Fresh 20-card hands (a seat's 17 and the 3 kept cards) from seeded deals."""
    rules = ddz.RULES["classic"]
    out = []
    for i in range(count):
        d, _ = deal(seed + i, 1, rules)
        out.append(d[0] + d[rules.players])
    return out


def median_ms(fn: Callable[[Any], object], items: list[Any]) -> float:
    """The median time of ``fn(item)`` over ``items``, in milliseconds."""
    times = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def games_per_second(play_one: Callable[[int], object], seconds: float) -> float:
    """Random games per second, playing games with seeds 0, 1, ... for about ``seconds``."""
    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds or n < 5:
        play_one(n)
        n += 1
    return n / (time.perf_counter() - start)


# -- pagoda ------------------------------------------------------------------------------------


def pagoda_game(seed: int) -> None:
    """One random classic round with the auction."""
    rng = random.Random(seed)
    r = ddz.Round.new(seed)
    while not r.is_over:
        seat = r.to_move
        r = r.apply(seat, rng.choice(r.legal_actions(seat)))


def pagoda_leads(hand: int) -> object:
    """Every lead of a packed hand."""
    return ddz.plays(hand)


# -- the other engines (imported only with --compare) -----------------------------------------


def _text(hand: int) -> str:
    return "".join(RANK_CHARS[i] * n for i, n in enumerate(counts_of(hand)))


def rlcard_setup() -> tuple[Callable[[int], object], Callable[[int], object]]:
    """RLCard's game and lead listing."""
    import numpy as np
    from rlcard.games.doudizhu.game import DoudizhuGame  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from rlcard.games.doudizhu.judger import DoudizhuJudger  # type: ignore[import-not-found, import-untyped, unused-ignore]

    def game(seed: int) -> None:
        g = DoudizhuGame()
        g.np_random = np.random.RandomState(seed)
        rng = random.Random(seed)
        state, _ = g.init_game()
        while not g.is_over():
            state, _ = g.step(rng.choice(state["actions"]))

    def leads(hand: int) -> object:
        return DoudizhuJudger.playable_cards_from_hand(_text(hand))

    return game, leads


_DOUZERO_CARD = dict(enumerate([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]))


def _douzero_cards(hand: int) -> list[int]:
    return [_DOUZERO_CARD[i] for i, n in enumerate(counts_of(hand)) for _ in range(n)]


def douzero_setup() -> tuple[Callable[[int], object], Callable[[int], object]]:
    """DouZero's GameEnv (random agents) and lead listing."""
    from douzero.env.game import GameEnv  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from douzero.env.move_generator import MovesGener  # type: ignore[import-not-found, import-untyped, unused-ignore]

    class RandomAgent:
        def __init__(self, rng: random.Random) -> None:
            self.rng = rng

        def act(self, infoset: Any) -> Any:
            return self.rng.choice(infoset.legal_actions)

    rules = ddz.RULES["classic"]

    def game(seed: int) -> None:
        rng = random.Random(seed)
        d, _ = deal(seed, 1, rules)
        agent = RandomAgent(rng)
        env = GameEnv({"landlord": agent, "landlord_up": agent, "landlord_down": agent})
        env.card_play_init(
            {
                "landlord": sorted(_douzero_cards(d[0] + d[3])),
                "landlord_down": sorted(_douzero_cards(d[1])),
                "landlord_up": sorted(_douzero_cards(d[2])),
                "three_landlord_cards": sorted(_douzero_cards(d[3])),
            }
        )
        while not env.game_over:
            env.step()

    def leads(hand: int) -> object:
        return MovesGener(_douzero_cards(hand)).gen_moves()

    return game, leads


def openspiel_setup(hands: int) -> tuple[Callable[[int], object], Callable[[Any], object], list[Any]]:
    """OpenSpiel's engine, and fresh landlord states at their first lead (20 cards)."""
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

    game_def = pyspiel.load_game("dou_dizhu")

    def advance(seed: int, stop_at_play: bool) -> Any:
        rng = random.Random(seed)
        state = game_def.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            legal = state.legal_actions()
            if stop_at_play and not state.action_to_string(state.current_player(), legal[-1]).startswith(
                "Bid"
            ):
                return state
            state.apply_action(rng.choice(legal))
        return None

    def game(seed: int) -> None:
        advance(seed, False)

    states: list[Any] = []
    seed = 0
    while len(states) < hands:
        s = advance(10**6 + seed, True)
        seed += 1
        if s is not None:
            states.append(s)

    def leads(state: Any) -> object:
        return state.legal_actions()

    return game, leads, states


def native_game(seed: int) -> None:
    """One random classic round with the auction, on the native core's per-action API."""
    from pagoda.doudizhu.native import NativeRound

    rng = random.Random(seed)
    r = NativeRound.new(seed)
    while not r.is_over:
        seat = r.to_move
        r = r.apply(seat, rng.choice(r.legal_actions(seat)))


def native_batched_gps(seconds: float) -> float:
    """Random classic rounds per second through the batched native call (chunks of 2,000)."""
    from pagoda.doudizhu.native import play_random

    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds or n == 0:
        play_random(2000, seed=n)
        n += 2000
    return n / (time.perf_counter() - start)


def native_leads_amortised_ms(hands: list[int]) -> float:
    """The time per hand of listing every lead of ``hands`` in one native call, in milliseconds."""
    from pagoda.doudizhu.native import lead_counts

    lead_counts(hands[:10])  # load the extension and its tables
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        lead_counts(hands)
        best = min(best, time.perf_counter() - start)
    return best / len(hands) * 1e3


def _native_leads(hand: int) -> object:
    from pagoda.doudizhu.native import legal_plays

    return legal_plays(hand, None, ddz.RULES["classic"])


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.0f} ({min(values):.0f}..{max(values):.0f})"


def run_native(args: argparse.Namespace, hands: list[int]) -> int:
    """The native core beside the Python engine (and OpenSpiel with --compare), alternated."""
    from pagoda.native import describe

    print(describe())
    runners: list[tuple[str, Callable[[], float]]] = [
        ("python", lambda: games_per_second(pagoda_game, args.seconds)),
        ("native", lambda: games_per_second(native_game, args.seconds)),
        ("native batched", lambda: native_batched_gps(args.seconds)),
    ]
    if args.compare:
        try:
            game, _, _ = openspiel_setup(1)
            runners.append(("OpenSpiel", lambda: games_per_second(game, args.seconds)))
        except ImportError as e:
            print(f"OpenSpiel: not installed ({e}); install the compare extra")
    results: dict[str, list[float]] = {name: [] for name, _ in runners}
    for _ in range(args.repeats):
        for name, measure in runners:
            results[name].append(measure())
    print(f"{'engine':<16} {'games/s median (range)':>26}   x python   x OpenSpiel")
    py = statistics.median(results["python"])
    spiel = statistics.median(results["OpenSpiel"]) if "OpenSpiel" in results else None
    for name, values in results.items():
        med = statistics.median(values)
        vs = f"x{med / spiel:.2f}" if spiel else "-"
        print(f"{name:<16} {_spread(values):>26}   x{med / py:<8.2f} {vs}")
    py_ms = median_ms(pagoda_leads, hands)
    one_ms = median_ms(_native_leads, hands)
    batch_ms = native_leads_amortised_ms(hands)
    print(f"lead listing of a fresh 20-card hand ({len(hands)} hands):")
    print(f"  python per call median   {py_ms * 1e3:8.2f} us")
    print(f"  native per call median   {one_ms * 1e3:8.2f} us (from Python, one call per hand)")
    print(f"  native batched, per hand {batch_ms * 1e3:8.2f} us (one call over all hands, best of 5)")
    return 0


def run(argv: list[str]) -> int:
    """Print games/s and lead-listing medians (pagoda alone, or side by side with --compare)."""
    parser = argparse.ArgumentParser(prog="pagoda bench doudizhu", description=__doc__.splitlines()[0])
    parser.add_argument("--compare", action="store_true", help="also RLCard, DouZero, OpenSpiel")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of random games per engine")
    parser.add_argument("--hands", type=int, default=2000, help="fresh 20-card hands to list leads of")
    parser.add_argument("--engine", choices=("python", "native"), default="python", help="rules engine")
    parser.add_argument("--repeats", type=int, default=3, help="alternations with --engine native")
    args = parser.parse_args(argv)
    hands = landlord_hands(args.hands)
    if args.engine == "native":
        return run_native(args, hands)
    rows: list[tuple[str, float, float]] = []
    rows.append(("pagoda", games_per_second(pagoda_game, args.seconds), median_ms(pagoda_leads, hands)))
    if args.compare:
        for name, setup in (("RLCard", rlcard_setup), ("DouZero", douzero_setup)):
            try:
                game, leads = setup()
            except ImportError as e:
                print(f"{name}: not installed ({e}); install the compare extra")
                continue
            rows.append((name, games_per_second(game, args.seconds), median_ms(leads, hands)))
        try:
            game, state_leads, states = openspiel_setup(args.hands)
            rows.append(("OpenSpiel", games_per_second(game, args.seconds), median_ms(state_leads, states)))
        except ImportError as e:
            print(f"OpenSpiel: not installed ({e}); install the compare extra")
    base = {name: (gps, ms) for name, gps, ms in rows}
    print(f"{'engine':<10} {'games/s':>10} {'lead listing ms':>16}   vs pagoda (games/s, lead ms)")
    ours_gps, ours_ms = base["pagoda"]
    for name, gps, ms in rows:
        print(f"{name:<10} {gps:>10.0f} {ms:>16.4f}   x{ours_gps / gps:.2f}, x{ms / ours_ms:.2f}")
    return 0
