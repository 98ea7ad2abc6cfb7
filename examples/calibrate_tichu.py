"""Calibrate the club bot's Tichu call on self-play: how often a hand goes out first, by shape.

Four ``club`` bots that never call play seeded deals; for every seat the 14-card hand it holds
after the exchange is read as (combinations, controls) and the table prints, per value of
``combinations - controls``, how often such a hand went out first. A call wins +100 then and
loses -100 otherwise, so it pays where that rate is above one half.

    PYTHONPATH=src python examples/calibrate_tichu.py 1 999
"""

import sys
from collections import defaultdict

from pagoda.bots.tichu import ClubBot, play_round
from pagoda.bots.tichu.hand import min_combos
from pagoda.bots.tichu.heuristic import hand_controls
from pagoda.tichu import Round
from pagoda.tichu.round import Phase


def main(first: int, last: int) -> None:
    """Play deals ``first..last`` and print the first-out rate per loser count."""
    bot = ClubBot(tichu_max=0, grand_threshold=99)
    table: dict[float, list[int]] = defaultdict(lambda: [0, 0])
    for seed in range(first, last + 1):
        hands: dict[int, int] = {}

        r = Round.new(seed)
        bots = [bot] * 4
        # play to the first play decision, reading the hands after the exchange
        while r.phase is not Phase.PLAY:
            d = r.decisions()[0]
            r = r.apply(d.seat, bot.decide(r.view(d.seat), d.actions, None))  # type: ignore[arg-type]
        for s in range(4):
            hands[s] = r.view(s).hand
        r = play_round(r, bots, seed=seed)
        for s, hand in hands.items():
            key = min_combos(hand) - hand_controls(hand)
            table[key][0] += 1
            table[key][1] += int(r.out[0] == s)
    print("losers  hands  first-out  ev/call")
    for key in sorted(table):
        n, won = table[key]
        p = won / n
        print(f"{key:6.2f}  {n:5d}  {100 * p:8.1f}%  {200 * p - 100:+7.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
