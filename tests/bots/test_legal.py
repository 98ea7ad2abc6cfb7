"""Every bot returns one of its legal actions, in every phase and on every out-of-turn offer."""

import random
from collections.abc import Sequence

import pytest

from pagoda.bots import available, get_bot
from pagoda.bots.tichu import NO_BOMB, play_round
from pagoda.tichu import Action, Round, View
from pagoda.tichu.round import Phase


class Checked:
    """Wraps a bot: asserts each answer is legal and records what was asked."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.phases: set[Phase] = set()
        self.offers = 0

    def decide(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        action: Action = self.bot.decide(view, legal, rng)  # type: ignore[attr-defined]
        assert action in legal, f"{action} is not among {len(legal)} legal actions"
        self.phases.add(view.phase)
        if NO_BOMB in legal:
            self.offers += 1
        return action


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_fast_bots_only_play_legal_actions(name: str) -> None:
    seen: set[Phase] = set()
    offers = 0
    for seed in range(40):
        bots = [Checked(get_bot("tichu", name if s % 2 == 0 else "random")) for s in range(4)]
        r = play_round(Round.new(seed), bots, seed=seed)
        assert r.is_over
        for b in bots[::2]:
            seen |= b.phases
            offers += b.offers
    assert seen == {Phase.GRAND_TICHU, Phase.EXCHANGE, Phase.PLAY}
    assert offers > 0, "no out-of-turn bomb offer was met: pick more seeds"


def test_registry_levels() -> None:
    names = [s.name for s in available("tichu") if s.name in ("random", "heuristic", "search")]
    assert names == ["random", "heuristic", "search"]


def test_search_only_plays_legal_actions() -> None:
    checked = Checked(get_bot("tichu", "search:iterations=1:width=3"))
    for seed in range(2):
        bots = [checked, Checked(get_bot("tichu", "random"))] * 2
        assert play_round(Round.new(seed), bots, seed=seed).is_over
    assert Phase.PLAY in checked.phases


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_decide_is_deterministic_given_the_rng(name: str) -> None:
    from pagoda.bots.tichu import seat_rngs, step

    bot = get_bot("tichu", name)
    r = Round.new(9)
    rngs = seat_rngs(9)
    while not r.is_over:
        decision = r.decisions()[0]
        seat = decision.seat
        view, legal = r.view(seat), decision.actions
        assert bot.decide(view, legal, random.Random(3)) == bot.decide(view, legal, random.Random(3))
        r = step(r, [bot] * 4, rngs)
