"""The search bot's determinizations keep every public fact and use no hidden card."""

import random

import pytest

from pagoda.bots import get_bot
from pagoda.bots.tichu import seat_rngs, step
from pagoda.bots.tichu.search import SearchBot, determinize, misfits, native_values, read_facts
from pagoda.bots.tichu.tree import Node, Tree
from pagoda.tichu import Round
from pagoda.tichu.native import from_reference
from pagoda.tichu.round import Phase


def _positions(seeds: range, every: int = 7, bot: str = "heuristic") -> list[Round]:
    """Play-phase positions from rounds of ``bot`` at every seat, one every ``every`` decisions."""
    out = []
    bots = [get_bot("tichu", bot)] * 4
    for seed in seeds:
        r = Round.new(seed)
        rngs = seat_rngs(seed)
        n = 0
        while not r.is_over:
            r = step(r, bots, rngs)
            n += 1
            if r.phase is Phase.PLAY and not r.is_over and n % every == 0:
                out.append(r)
    return out


def test_determinizations_keep_public_facts() -> None:
    rng = random.Random(5)
    positions = _positions(range(6))
    assert len(positions) > 30
    for r in positions:
        seat = r.to_move
        view = r.view(seat)
        facts = read_facts(view)
        for _ in range(3):
            d = determinize(view, rng)
            assert d.hand_mask(seat) == view.hand  # own hand fixed
            for s in range(4):
                assert d.hand_mask(s) & view.played == 0  # played cards are in no hand
                assert d.hand_mask(s).bit_count() == view.hand_sizes[s]  # unseen count per seat
                assert facts.known[s] & ~d.hand_mask(s) == 0  # own gifts stay with receivers
                assert not any(
                    d.hand_mask(s) >> (2 + (rank - 2) * 4) & 0xF
                    for rank in range(2, 15)
                    if facts.voids[s] >> rank & 1
                )
            dv = d.view(seat)
            for name in (
                "hand_sizes",
                "to_move",
                "top",
                "top_seat",
                "trick",
                "passed",
                "wish",
                "out",
                "won",
                "played",
                "tichu_calls",
            ):
                assert getattr(dv, name) == getattr(view, name), name
            assert sum(d.hand_mask(s) for s in range(4)) | view.played == (1 << 56) - 1


@pytest.mark.parametrize("policy", ["club", "heuristic"])
def test_the_deal_itself_fits_the_record_of_the_bot_that_played_it(policy: str) -> None:
    # rounds of `policy` at every seat: on the real deal, every play and pass of the other team
    # is the bot's own choice (0 misfits, on both engines); drawn deals mostly are not
    rng = random.Random(11)
    positions = [r for r in _positions(range(3), every=6, bot=policy) if len(r.view(r.to_move).events) > 30]
    assert len(positions) >= 10
    drawn = []
    for r in positions:
        seat = r.to_move
        view = r.view(seat)
        facts = read_facts(view)
        for engine in ("native", "python"):
            assert misfits(view, facts, r, policy, engine) == 0
        for _ in range(2):
            det = determinize(view, rng)
            count = misfits(view, facts, det, policy, "native")
            assert misfits(view, facts, det, policy, "python") == count  # the engines agree
            drawn.append(count)
    assert sum(c > 0 for c in drawn) > len(drawn) // 2, drawn  # the count tells deals apart
    assert max(drawn) >= 3


def test_a_small_misfit_keeps_the_deals_that_fit_the_record_best() -> None:
    # misfit=1e-6 weighs a deal with one misfit more than the best a millionth (and skips those
    # with two more): each candidate's mean is the plain mean over the best-fitting deals
    position = next(
        r
        for r in _positions(range(1), every=4, bot="club")
        if len(r.view(r.to_move).events) >= 30 and len(r.legal_actions(r.to_move)) >= 3
    )
    seat = position.to_move
    view, legal = position.view(seat), position.legal_actions(seat)
    assert sum(view.hand_sizes) > 10  # rolled out, not solved
    weighed = SearchBot(iterations=16, width=4, misfit=1e-6)
    candidates = weighed.candidates(view, legal)
    assert len(candidates) >= 2
    scored = weighed.evaluate(view, candidates, random.Random(7))
    rng, facts, draws = random.Random(7), read_facts(view), []
    for _ in range(16):  # the same draws as evaluate's
        det = determinize(view, rng)
        rng.getrandbits(32)
        values = native_values(det, seat, candidates, seat & 1, view.grand_calls, "club")
        draws.append((misfits(view, facts, det), values))
    fewest = min(count for count, _ in draws)
    best = [values for count, values in draws if count == fewest]
    assert len(best) < 16  # some draws fit worse, and count for nothing
    for i, s in enumerate(scored):
        assert s.mean == pytest.approx(sum(v[i] for v in best) / len(best), abs=1e-3)


def test_misfit_option() -> None:
    assert SearchBot().misfit == 1.0
    for bad in ("0", "1.5", "-0.2"):
        with pytest.raises(ValueError, match=f"misfit must be above 0 and at most 1, not {float(bad)}"):
            get_bot("tichu", f"search:misfit={bad}")


def test_search_decide_is_deterministic_given_the_rng() -> None:
    bot = get_bot("tichu", "search:iterations=2:width=4:search_cards=0")
    for r in _positions(range(2), every=11)[:6]:
        seat = r.to_move
        view, legal = r.view(seat), r.legal_actions(seat)
        a = bot.decide(view, legal, random.Random(42))
        b = bot.decide(view, legal, random.Random(42))
        assert a == b
        assert a in legal


@pytest.mark.parametrize("policy", ["club", "heuristic"])
def test_search_leaves_early_decisions_to_the_bot_it_searches_over(policy: str) -> None:
    # with search_cards=28 only decisions with at most 28 cards in all hands are searched
    bot = get_bot("tichu", f"search:iterations=2:search_cards=28:policy={policy}")
    base = get_bot("tichu", policy)
    early = [r for r in _positions(range(2), every=5) if sum(len(r.hand(s)) for s in range(4)) > 28]
    assert len(early) >= 10
    differ = 0
    for r in early:
        seat = r.to_move
        view, legal = r.view(seat), r.legal_actions(seat)
        assert bot.decide(view, legal, random.Random(1)) == base.decide(view, legal, random.Random(1))
        differ += get_bot("tichu", "club").decide(view, legal, random.Random(1)) != get_bot(
            "tichu", "heuristic"
        ).decide(view, legal, random.Random(1))
    assert differ >= 1  # the two bots differ on these positions, so the policy is read


def test_search_policy_option() -> None:
    assert get_bot("tichu", "search").policy == "club"  # the strongest fast bot
    assert get_bot("tichu", "search").search_cards == 0  # the whole round
    with pytest.raises(ValueError, match="policy must be club or heuristic, not 'learned'"):
        get_bot("tichu", "search:policy=learned")


def test_search_rollout_engine_option() -> None:
    assert get_bot("tichu", "search:rollouts=python").rollouts == "python"
    with pytest.raises(ValueError, match="rollouts must be auto, native or python, not 'rust'"):
        get_bot("tichu", "search:rollouts=rust")


def test_search_rolls_out_in_python_without_the_native_core(monkeypatch: pytest.MonkeyPatch) -> None:
    import pagoda.native

    monkeypatch.setattr(pagoda.native, "available", lambda: False)
    assert get_bot("tichu", "search").rollouts == "python"
    with pytest.raises(RuntimeError, match="the native core is not built"):
        get_bot("tichu", "search:rollouts=native")


def _depth(node: Node) -> int:
    return 1 + max((_depth(c) for c in node.children.values()), default=0)


def test_ismcts_grows_a_tree_over_the_decisions_that_follow() -> None:
    bot = get_bot("tichu", "search:method=ismcts:iterations=30:per_deal=4")
    searched = 0
    for r in _positions(range(3), every=9):
        seat = r.to_move
        view, legal = r.view(seat), r.legal_actions(seat)
        candidates = bot.candidates(view, legal)
        if len(candidates) < 2 or sum(view.hand_sizes) <= bot.solve_cards:
            continue
        tree = Tree(seat, candidates, view.grand_calls, bot.width, bot.explore)
        rng = random.Random(5)
        for _ in range(30):
            tree.iterate(from_reference(determinize(view, rng)))
        # every iteration passes the root once and adds one node
        assert tree.root.visits == 30 == sum(c.visits for c in tree.root.children.values())
        assert set(tree.root.children) <= set(candidates)
        assert _depth(tree.root) >= 3  # past the root's moves: the next decisions are searched
        scored = bot.evaluate(view, candidates, random.Random(5))
        assert sum(s.samples for s in scored) == 120  # 30 deals, 4 iterations each
        choice = bot.decide(view, legal, random.Random(5))
        assert choice == bot.decide(view, legal, random.Random(5))  # a function of the rng
        assert choice in legal
        searched += 1
    assert searched >= 5


def test_ismcts_options() -> None:
    assert get_bot("tichu", "search").method == "pimc"
    with pytest.raises(ValueError, match="method must be pimc or ismcts, not 'mcts'"):
        get_bot("tichu", "search:method=mcts")
    with pytest.raises(ValueError, match="per_deal must be at least 1, not 0"):
        get_bot("tichu", "search:method=ismcts:per_deal=0")
    with pytest.raises(ValueError, match="method=ismcts needs the native rollouts"):
        get_bot("tichu", "search:method=ismcts:rollouts=python")
