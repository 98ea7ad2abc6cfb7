"""The learned Dou Di Zhu bot: its features see only the view, it plays only legal actions, its
backprop is the loss's gradient, training lowers the loss, its weights survive a round trip."""

import dataclasses
import json
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagoda import doudizhu as ddz
from pagoda.bots import get_bot
from pagoda.bots.doudizhu import play_round
from pagoda.bots.doudizhu.heuristic import HeuristicBot, best_first
from pagoda.bots.doudizhu.learned import (
    BID_MARGIN,
    BIDS,
    MARGIN,
    MLP,
    PRIOR,
    WEIGHTS,
    WIDTH,
    BidsFor,
    Choice,
    Ensemble,
    LearnedBot,
    Model,
    bid_features,
    bid_width,
    consult,
    play_features,
    play_width,
    shipped,
)
from pagoda.bots.doudizhu.search import SearchBot
from pagoda.cli import main
from pagoda.doudizhu import Action, View
from pagoda.doudizhu.cards import ONE, Cards, counts_of, size_of
from pagoda.doudizhu.round import deal
from pagoda.train.doudizhu import BLOCK, Trainer, advantages, episode, train, training_seed

SMALL = Model(hidden=(16, 8), seed=3)


class Checked:
    """Asserts every answer of the wrapped bot is one of the legal actions."""

    def __init__(self, bot: LearnedBot) -> None:
        self.bot = bot
        self.decisions = 0

    def decide(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        action = self.bot.decide(view, legal, rng)
        assert action in legal
        self.decisions += 1
        return action


def _redealt(r: ddz.Round, seat: int, rng: random.Random) -> ddz.Round:
    """The same round with the cards ``seat`` cannot see dealt anew: the other hands (and the kept
    cards while they are hidden, in the auction) shuffled between them, each keeping its size."""
    others = [s for s in range(3) if s != seat]
    masks = [r.hands[s] for s in others]
    if r.phase is ddz.Phase.AUCTION:
        masks.append(r.kitty)
    pool = [i for m in masks for i, n in enumerate(counts_of(m)) for _ in range(n)]
    rng.shuffle(pool)
    fresh, k = [], 0
    for m in masks:
        fresh.append(sum(ONE[i] for i in pool[k : k + size_of(m)]))
        k += size_of(m)
    hands = list(r.hands)
    for s, m in zip(others, fresh, strict=False):
        hands[s] = m
    setup = r.setup if r.phase is not ddz.Phase.AUCTION else dataclasses.replace(r.setup, kitty=fresh[-1])
    return r._replace(hands=tuple(hands), setup=setup)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40), st.integers(0, 2**32 - 1))
def test_features_and_decisions_ignore_the_hidden_cards(seed: int, steps: int, shuffle: int) -> None:
    heuristic, rng = HeuristicBot(), random.Random(seed)
    r = ddz.Round.new(seed)
    for _ in range(steps):
        if r.is_over:
            return
        r = r.apply(r.to_move, heuristic.decide(r.view(r.to_move), r.legal_actions(), rng))
    if r.is_over:
        return
    seat = r.to_move
    b = _redealt(r, seat, random.Random(shuffle))
    assert b.hand(seat) == r.hand(seat)
    legal = r.legal_actions(seat)
    assert b.legal_actions(seat) == legal
    features = bid_features if r.phase is ddz.Phase.AUCTION else play_features
    assert np.array_equal(features(r.view(seat), legal), features(b.view(seat), legal))
    bot = LearnedBot(SMALL)
    assert bot.decide(r.view(seat), legal, random.Random(1)) == bot.decide(
        b.view(seat), legal, random.Random(2)
    )


def test_the_bidding_features_and_bids_ignore_the_other_hands() -> None:
    d, _ = deal(11, 1, ddz.RULES["classic"])
    a = ddz.Round.from_deal([Cards(m) for m in d[:3]], Cards(d[3]), first=0, seed=11)
    b = ddz.Round.from_deal([Cards(d[1]), Cards(d[0]), Cards(d[2])], Cards(d[3]), first=0, seed=11)
    a, b = a.apply(0, "bid 1").apply(1, "pass"), b.apply(0, "bid 1").apply(1, "pass")
    assert a.hand(0) != b.hand(0)
    assert a.hand(2) == b.hand(2)
    legal = a.legal_actions(2)
    assert legal == b.legal_actions(2)
    assert len(legal) == 3
    fa, fb = bid_features(a.view(2), legal), bid_features(b.view(2), legal)
    assert fa.shape == (3, bid_width())
    assert np.array_equal(fa, fb)
    bot = LearnedBot(SMALL)
    assert bot.decide(a.view(2), legal, random.Random(1)) == bot.decide(b.view(2), legal, random.Random(2))


@pytest.mark.parametrize(
    "preset", ["classic", "rlcard", "openspiel", "classic rob=true", "laizi", "four_player"]
)
def test_the_shipped_bot_plays_only_legal_actions(preset: str) -> None:
    rules = ddz.parse_rules(preset)
    for seed in range(1 if rules.players == 4 else 3):  # four seats: the heuristic's moves, slower
        bots = [Checked(get_bot("doudizhu", "learned")) for _ in range(rules.players)]
        r = play_round(ddz.Round.new(seed, rules), bots, seed=seed)
        assert r.is_over
        assert sum(r.score()) == 0
        assert sum(b.decisions for b in bots) >= 3


def test_the_backprop_is_the_gradient_of_the_loss() -> None:
    net = MLP([6, 7, 5, 1], seed=1, dtype=np.float64)
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal((9, 6)), rng.standard_normal(9)
    for b in net.b:  # biases off zero: a row whose units are all off would sit on the kink
        b += rng.uniform(0.1, 0.5, b.shape)
    _, grads = net.loss_grads(x, y)
    h = 1e-6
    for p, g in zip(net.params(), grads, strict=True):
        assert p.shape == g.shape
        for idx in np.ndindex(*p.shape):
            keep = p[idx]
            p[idx] = keep + h
            up, _ = net.loss_grads(x, y)
            p[idx] = keep - h
            down, _ = net.loss_grads(x, y)
            p[idx] = keep
            assert abs((up - down) / (2 * h) - g[idx]) < 1e-6 * max(1.0, abs(float(g[idx])))


def test_adam_lowers_the_loss_on_a_fixed_batch() -> None:
    net = MLP([play_width(), 32, 16, 1], seed=0)
    rng = np.random.default_rng(5)
    x = (rng.random((64, play_width())) < 0.2).astype(np.float32)
    y = np.where(rng.random(64) < 0.5, 1.0, -1.0).astype(np.float32)
    first = net.loss_grads(x, y)[0]
    for _ in range(200):
        net.step(x, y, lr=3e-3)
    assert net.loss_grads(x, y)[0] < 0.2 * first


def test_self_play_rows_train_every_network() -> None:
    model = Model(hidden=(16, 8), seed=0)
    trainer = Trainer(model, seed=0)
    rules = ddz.RULES["classic"]
    for k in range(40):
        rows, score = episode(model, 10_000_000 + k, random.Random(k), rules, heuristic=0.5, engine="python")
        assert sum(score) == 0
        assert rows
        assert all(x.shape == ((bid_width(),) if n == "bid" else (play_width(),)) for n, x, _, _ in rows)
        assert all(target is None for *_, target in rows)  # the round's result, taken when learned
        trainer.learn(rows, score)
    assert set(trainer.losses) == {"landlord", "down", "up"}  # 256 rows before the first step
    assert 0 < trainer.replay["bid"].count < 256


def _heuristic_result(r: ddz.Round, seat: int) -> int:
    """+1 when ``seat`` wins ``r`` played out by the heuristic at every seat, else -1."""
    return 1 if play_round(r, [HeuristicBot()] * 3, seed=0).score()[seat] > 0 else -1


def test_rollout_targets_are_each_candidate_s_heuristic_playout_less_the_heuristic_s_choice() -> None:
    rules = ddz.RULES["classic"]
    heuristic, rng = HeuristicBot(), random.Random(0)
    checked = {"bid": 0, "play": 0}
    for seed in range(6):
        r: Any = ddz.new_round(seed, rules, engine="python")
        fast: Any = ddz.new_round(seed, rules, engine="native")
        for _ in range(12):  # the auction and the first plays
            seat = r.to_move
            legal = r.legal_actions(seat)
            if len(legal) > 1:
                choice = consult(r.view(seat), legal)
                gains = advantages(r, seat, choice.candidates, choice.advice)
                assert gains[choice.advice] == 0.0
                # each by hand: the heuristic at all three seats to the end, +1 won, -1 lost
                base = _heuristic_result(r.apply(seat, choice.candidates[choice.advice]), seat)
                assert gains == [
                    (_heuristic_result(r.apply(seat, a), seat) - base) / 2 for a in choice.candidates
                ]
                # the native core's playouts (training's) give the same gains
                assert advantages(fast, seat, choice.candidates, choice.advice) == gains
                checked["bid" if choice.net == "bid" else "play"] += 1
            action = heuristic.decide(r.view(seat), legal, rng)
            r, fast = r.apply(seat, action), fast.apply(seat, action)
    assert checked["bid"] >= 6
    assert checked["play"] >= 6


def _replayed(
    seed: int, rules: ddz.Rules, gains: Callable[[Any, int, View, Any], list[float]]
) -> tuple[list[tuple[str, float]], Any]:
    """The heuristic's round of ``seed`` played again: every decision with a choice gives its
    network and ``gains(round, seat, view, choice)``, one per candidate (consult's) in order; and
    the finished round."""
    r: Any = ddz.new_round(seed, rules)
    expected: list[tuple[str, float]] = []
    while not r.is_over:
        seat = r.to_move
        legal = r.legal_actions(seat)
        if len(legal) > 1:
            view = r.view(seat)
            choice = consult(view, legal)
            expected.extend((choice.net, y) for y in gains(r, seat, view, choice))
            r = r.apply(seat, choice.candidates[choice.advice])
        else:
            r = r.apply(seat, legal[0])
    return expected, r


def test_rollout_episodes_give_a_row_for_every_candidate_with_its_gain() -> None:
    model = Model(hidden=(16, 8), seed=0)
    rules = ddz.RULES["classic"]
    rows, score = episode(model, 10_000_000, random.Random(0), rules, heuristic=1.0, targets="rollout")
    # the heuristic at every seat: replaying its round, every decision with a choice gives one row
    # per candidate (consult's), in order, with that candidate's gain
    expected, r = _replayed(
        10_000_000, rules, lambda r, seat, _, choice: advantages(r, seat, choice.candidates, choice.advice)
    )
    assert [(n, y) for n, _, _, y in rows] == expected
    assert tuple(r.score()) == score
    assert {y for _, y in expected} <= {-1.0, 0.0, 1.0}


def test_sampled_episodes_give_each_play_candidate_its_share_of_sampled_deals_won() -> None:
    # the heuristic at every seat (no exploration draws): each decision of the play gives one row
    # per candidate, its target the share of 4 deals it wins less the heuristic's choice's share,
    # the deals drawn from the episode's rng after its three seat draws, as the search draws them;
    # the auction's rows keep the played-out gains (the search does not bid)
    rules = ddz.RULES["classic"]
    rows, score = episode(
        Model(hidden=(8,)), 10_000_001, random.Random(5), rules, heuristic=1.0, targets="sampled", samples=4
    )
    rng, search = random.Random(5), SearchBot()
    for _ in range(3):
        rng.random()

    def by_hand(r: Any, seat: int, view: View, choice: Choice) -> list[float]:
        if choice.net == "bid":
            return advantages(r, seat, choice.candidates, choice.advice)
        won = [0] * len(choice.candidates)
        for _ in range(4):
            for k, value in enumerate(search.sample(view, choice.candidates, rng, rules)):
                won[k] += value > 0
        return [(w - won[choice.advice]) / 4 for w in won]

    expected, r = _replayed(10_000_001, rules, by_hand)
    assert [(n, y) for n, _, _, y in rows] == expected
    assert tuple(r.score()) == score
    play = [y for n, y in expected if n != "bid"]
    assert set(play) <= {k / 4 for k in range(-4, 5)}
    assert len(play) >= 20
    # quarters the one true deal's playout cannot give: the targets are shares of deals
    assert {y for y in play if y not in (-1.0, 0.0, 1.0)}


def test_a_run_goes_on_from_one_kind_of_gains_to_the_other_but_not_from_results(tmp_path: Path) -> None:
    gains, results = str(tmp_path / "gains.npz"), str(tmp_path / "results.npz")
    quiet: dict[str, Any] = {"hidden": (8,), "eval_every": 0, "progress": False, "heuristic": 1.0}
    train(2, gains, targets="rollout", **quiet)
    more = train(3, gains, resume=gains, targets="sampled", samples=2, **quiet)
    assert more.meta["targets"] == "sampled"
    assert more.meta["earlier_targets"] == [{"targets": "rollout", "to": 2}]
    train(2, results, **quiet)
    with pytest.raises(ValueError, match="was trained on targets 'result', not 'sampled'"):
        train(3, results, resume=results, targets="sampled", samples=2, **quiet)
    assert Model.load(results).meta["episodes"] == 2


def test_rollout_training_steps_every_256_rows_and_any_worker_count_trains_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--eval-every", "0", "--hidden", "8", "--no-progress", "--heuristic", "1.0", "--seed", "3"]
    one, two = str(tmp_path / "one.npz"), str(tmp_path / "two.npz")
    episodes = 2 * BLOCK + 3  # two whole blocks and a short one
    assert (
        main(
            ["train", "doudizhu", "--targets", "rollout", "--episodes", str(episodes), "--out", one, *common]
        )
        == 0
    )
    assert (
        main(
            [
                "train",
                "doudizhu",
                "--targets",
                "rollout",
                "--episodes",
                str(episodes),
                "--out",
                two,
                "--workers",
                "2",
                *common,
            ]
        )
        == 0
    )
    a, b = Model.load(one), Model.load(two)
    assert a.meta["targets"] == b.meta["targets"] == "rollout"
    rows: dict[str, int] = {}
    for k in range(episodes):
        seed = training_seed(3, k)
        for name, *_ in episode(
            Model(hidden=(8,)), seed, random.Random(k), ddz.RULES["classic"], 1.0, targets="rollout"
        )[0]:
            rows[name] = rows.get(name, 0) + 1
    for name in a.nets:
        # a step every 256 new rows of a network, once it holds 256: its rows // 256 steps
        assert a.nets[name].t == b.nets[name].t == rows.get(name, 0) // 256
        for p, q in zip(a.nets[name].params(), b.nets[name].params(), strict=True):
            assert np.array_equal(p, q)
    with pytest.raises(SystemExit):
        main(["train", "doudizhu", "--episodes", str(episodes + 1), "--out", one, "--resume", one, *common])
    assert "was trained on targets 'rollout', not 'result'" in capsys.readouterr().err


def test_the_margin_keeps_the_heuristic_s_choice_unless_the_networks_are_sure() -> None:
    # a margin no network reaches plays exactly the heuristic's rounds, the auction included
    for seed in range(3):
        sure_bot = LearnedBot(SMALL, margin=1e9, bid_margin=1e9)
        sure = play_round(ddz.Round.new(seed), [sure_bot] * 3, seed=seed)
        plain = play_round(ddz.Round.new(seed), [HeuristicBot()] * 3, seed=seed)
        assert sure.view(0).history == plain.view(0).history
    bot = get_bot("doudizhu", "learned:margin=0.25:width=3:bid_margin=0.5")
    assert isinstance(bot, LearnedBot)
    assert (bot.margin, bot.width, bot.bid_margin) == (0.25, 3, 0.5)
    assert LearnedBot(SMALL, margin=0.125).bid_margin == BID_MARGIN  # the auction's own margin
    # by default the shipped networks' margin and width (docs/strength.md)
    default = get_bot("doudizhu", "learned")
    assert isinstance(default, LearnedBot)
    assert (default.margin, default.width, default.bid_margin) == (MARGIN, WIDTH, BID_MARGIN)
    for option, bad, says in (
        ("margin", "wide", "margin must be a number, 0 or more, not wide"),
        ("margin", -1, "margin must be a number, 0 or more, not -1"),
        ("width", 0, "width must be a number, 1 or more, not 0"),
        ("width", "2.5", "width must be a number, 1 or more, not 2.5"),
        ("bid_margin", "x", "bid_margin must be a number, 0 or more, not x"),
    ):
        with pytest.raises(ValueError, match=says):
            get_bot("doudizhu", f"learned:{option}={bad}")


def _plays(seeds: range, mover: Any) -> Iterator[tuple[View, Sequence[Action], Action]]:
    """Every play decision with a choice in the rounds of ``seeds`` played by ``mover`` at all
    seats: the view, the legal actions and the action ``mover`` took."""
    for seed in seeds:
        r = ddz.Round.new(seed)
        while not r.is_over:
            seat = r.to_move
            legal = r.legal_actions(seat)
            view = r.view(seat)
            action = mover.decide(view, legal, random.Random(0))
            if r.phase is ddz.Phase.PLAY and len(legal) > 1:
                yield view, legal, action
            r = r.apply(seat, action)


def test_the_bot_plays_one_of_the_heuristic_s_best_width_plays_or_the_pass() -> None:
    heuristic = HeuristicBot()
    bot = LearnedBot(Model(hidden=(16, 8), seed=9), margin=0.0, width=2)
    seen = 0
    for view, legal, _ in _plays(range(4), heuristic):
        allowed = {legal[k] for k in best_first(heuristic.scores(view, legal), legal, 2)}
        assert bot.decide(view, legal, random.Random(0)) in allowed
        seen += len(legal) > len(allowed)
    assert seen >= 20  # decisions where some legal action was not a candidate


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    model = Model(hidden=(16, 8), seed=4)
    rng = np.random.default_rng(0)
    x = rng.random((5, play_width())).astype(np.float32)
    model.nets["up"].step(x, np.ones(5, np.float32))
    model.meta["episodes"] = 7
    path = str(tmp_path / "m.npz")
    model.save(path)
    back = Model.load(path)
    assert back.meta == model.meta
    for name in model.nets:
        assert np.array_equal(
            back.q(name, x if name != "bid" else x[:, : bid_width()]),
            model.q(name, x if name != "bid" else x[:, : bid_width()]),
        )
    assert back.nets["up"].t == 1
    assert np.array_equal(back.nets["up"].m[0], model.nets["up"].m[0])
    model.save(path, optimizer=False, half=True)
    half = Model.load(path)
    assert half.nets["up"].t == 0
    assert np.allclose(half.q("up", x), model.q("up", x), atol=2e-2)


def test_weights_joined_by_plus_are_valued_as_the_mean_of_their_models(tmp_path: Path) -> None:
    one, two = Model(hidden=(16, 8), seed=1), Model(hidden=(16, 8), seed=2)
    paths = [str(tmp_path / "one.npz"), str(tmp_path / "two.npz")]
    one.save(paths[0])
    two.save(paths[1])
    x = np.random.default_rng(3).random((4, play_width())).astype(np.float32)
    bot = get_bot("doudizhu", f"learned:weights={paths[0]}+{paths[1]}")
    assert isinstance(bot, LearnedBot)
    assert isinstance(bot.model, Ensemble)
    for name in ("landlord", "down", "up"):
        mean = (one.q(name, x) + two.q(name, x)) / 2
        assert np.allclose(bot.model.q(name, x), mean, rtol=1e-6)
        assert not np.allclose(one.q(name, x), two.q(name, x))  # the members differ: the mean is neither
    # one model alone is itself, and an ensemble of one model twice values as it does
    assert isinstance(get_bot("doudizhu", f"learned:weights={paths[0]}").model, Model)
    assert np.array_equal(Ensemble([one, one]).q("up", x), one.q("up", x))
    # its decisions are those of the bot given the ensemble itself
    given = LearnedBot(Ensemble([one, two]))
    for view, legal, _ in _plays(range(2), HeuristicBot()):
        assert bot.decide(view, legal, random.Random(0)) == given.decide(view, legal, random.Random(0))
    for bad in (f"{paths[0]}+", f"{paths[0]}++{paths[1]}"):
        with pytest.raises(ValueError, match="name an empty file"):
            get_bot("doudizhu", f"learned:weights={bad}")
    with pytest.raises(ValueError, match="at least one model"):
        Ensemble([])


def test_weights_of_another_layout_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.npz"
    np.savez_compressed(path, meta=np.asarray(json.dumps({"features": 0, "hidden": [8]})))
    with pytest.raises(ValueError, match="feature layout 0"):
        Model.load(str(path))


def test_the_shipped_weights_are_small_and_their_departures_few() -> None:
    # their speed is measured where speed belongs, in the arena's decision times (docs/strength.md)
    # three checkpoints of one run, each well under a megabyte, valued together, and a bidding
    # network trained for their play
    folder = Path(__file__).parents[3] / "src" / "pagoda" / "bots" / "doudizhu"
    assert len(WEIGHTS) == 3
    assert all((folder / name).stat().st_size < 1_000_000 for name in (*WEIGHTS, BIDS))
    both = shipped()
    assert LearnedBot().model is both
    assert isinstance(both.play, Ensemble)
    assert [m.meta["episodes"] for m in both.play.members] == [360_000, 320_000, 400_000]
    assert isinstance(both.bids, Model)
    assert both.bids.meta["bids_for"] == "+".join(f"src/pagoda/bots/doudizhu/{name}" for name in WEIGHTS)
    assert both.bids.meta["episodes"] == 440_000  # 80,000 rounds on from the 360,000-round file
    xb = np.random.default_rng(6).random((3, bid_width())).astype(np.float32)
    assert np.array_equal(both.q("bid", xb), both.bids.q("bid", xb))
    assert not np.allclose(both.q("bid", xb), both.play.q("bid", xb))  # not the members' own bids
    heuristic = HeuristicBot()
    taken = [
        (action, heuristic.decide(view, legal, random.Random(0)))
        for view, legal, action in _plays(range(3), LearnedBot())
    ]
    plays, differ = len(taken), sum(mine != its for mine, its in taken)
    # the networks choose among the heuristic's best six; they leave its choice in a minority of plays
    assert plays > 30
    assert 0 < differ < plays / 2


def test_the_train_command_writes_a_checkpoint_a_curve_and_the_shipped_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, curve = tmp_path / "ddz.npz", tmp_path / "curve.jsonl"
    model = train(12, str(out), hidden=(8,), eval_every=6, eval_deals=1, curve=str(curve), progress=False)
    assert model.meta["episodes"] == 12
    points = [json.loads(line) for line in curve.read_text().splitlines()]
    assert [p["episodes"] for p in points] == [6, 12]
    assert 0.0 <= points[-1]["wp"] <= 1.0
    more = train(15, str(out), resume=str(out), eval_every=0, progress=False)
    assert more.meta["episodes"] == 15
    shipped = tmp_path / "w.npz"
    assert main(["train", "doudizhu", "--export", str(out), "--out", str(shipped)]) == 0
    assert Model.load(str(shipped)).meta["episodes"] == 15
    # --bid-from: the play networks of the checkpoint, the bidding network of another file
    other = tmp_path / "other.npz"
    Model(hidden=(8,), seed=5).save(str(other))
    mixed = tmp_path / "mixed.npz"
    argv = ["train", "doudizhu", "--export", str(out), "--bid-from", str(other), "--out", str(mixed)]
    assert main(argv) == 0
    got, play, bids = (Model.load(str(p)) for p in (mixed, shipped, other))
    assert got.meta["bid_from"] == str(other)
    x = np.random.default_rng(0).random((4, play_width())).astype(np.float32)
    xb = x[:, : bid_width()]
    assert np.allclose(got.q("bid", xb), bids.q("bid", xb), atol=2e-2)
    assert not np.allclose(got.q("bid", xb), play.q("bid", xb), atol=2e-2)
    for name in ("landlord", "up", "down"):
        assert np.array_equal(got.q(name, x), play.q(name, x))
    # networks of other layers do not mix, and nothing is written
    wide = tmp_path / "wide.npz"
    Model(hidden=(16,), seed=5).save(str(wide))
    refused = tmp_path / "refused.npz"
    with pytest.raises(SystemExit):
        main(["train", "doudizhu", "--export", str(out), "--bid-from", str(wide), "--out", str(refused)])
    assert "its layers [8] are not --bid-from's [16]" in capsys.readouterr().err
    assert not refused.exists()


def test_the_train_command_refuses_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "x.npz")
    for bad, says in (
        (["--episodes", "0"], "--episodes must be at least 1"),
        (["--heuristic", "2"], "--heuristic is a probability"),
        (["--rules", "four_player"], "three seats, one pack"),
        (["--hidden", "a,b"], "--hidden takes widths"),
        (["--width", "0"], "--width must be at least 1, not 0"),
        (["--workers", "0"], "--workers must be at least 1, not 0"),
        (["--every", "0"], "--every must be at least 1, not 0"),
        (["--samples", "0", "--targets", "sampled"], "--samples must be at least 1, not 0"),
        (["--samples", "8"], "--samples goes with --targets sampled, not result"),
        (["--samples", "8", "--targets", "rollout"], "--samples goes with --targets sampled, not rollout"),
        (["--bid-epsilon", "-0.5"], "--bid-epsilon is a probability"),
        (["--bid-from", out], "--bid-from goes with --export"),
        (["--export", out, "--bid-from", str(tmp_path / "none.npz")], "cannot read --bid-from"),
        (["--margin", "-0.1"], "--margin must be 0 or more, not -0.1"),
        (["--bids-for", str(tmp_path / "none.npz")], f"cannot read --bids-for {tmp_path / 'none.npz'}"),
        (["--bids-for", out + "+"], "name an empty file"),
    ):
        with pytest.raises(SystemExit):
            main(["train", "doudizhu", "--out", out, *bad])
        assert says in capsys.readouterr().err
    assert not Path(out).exists()


def test_bids_for_values_the_auction_by_one_model_and_the_play_by_another() -> None:
    bids, play = Model(hidden=(8,), seed=1), Model(hidden=(8,), seed=2)
    both = BidsFor(bids, play)
    x = np.random.default_rng(1).random((3, play_width())).astype(np.float32)
    assert np.array_equal(both.q("bid", x[:, : bid_width()]), bids.q("bid", x[:, : bid_width()]))
    for name in ("landlord", "up", "down"):
        assert np.array_equal(both.q(name, x), play.q(name, x))
        assert not np.array_equal(both.q(name, x), bids.q(name, x))


def test_a_bids_for_episode_plays_as_the_bot_and_learns_from_the_auction_alone() -> None:
    bids, play = Model(hidden=(8,), seed=1), Model(hidden=(16, 8), seed=3)
    rules = ddz.RULES["classic"]
    for k in range(4):
        seed = training_seed(1, k)
        rows, score = episode(
            bids,
            seed,
            random.Random(k),
            rules,
            heuristic=0.0,
            epsilon=0.0,
            bid_epsilon=0.0,
            play=play,
            margin=0.05,
        )
        # no exploration, every seat learned: the round the bot plays with these bids and this play
        bot = LearnedBot(BidsFor(bids, play), margin=0.05, bid_margin=0.0)
        r = play_round(ddz.Round.new(seed, rules), [bot] * 3, seed=seed)
        assert score == tuple(r.score())
        # a row for each decision of the auction with a choice (replayed), none for the play
        replay, choices = ddz.Round.new(seed, rules), 0
        for seat, text in r.view(0).history:
            if replay.phase is ddz.Phase.AUCTION:
                choices += len(replay.legal_actions(seat)) > 1
            replay = replay.apply(seat, next(a for a in replay.legal_actions(seat) if str(a) == text))
        assert [n for n, *_ in rows] == ["bid"] * choices
        assert choices >= 1


def test_training_the_bids_for_a_play_leaves_the_play_networks_as_they_were(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start, play, out = tmp_path / "start.npz", tmp_path / "play.npz", tmp_path / "bids.npz"
    Model(hidden=(8,), seed=4).save(str(start))
    Model(hidden=(8,), seed=5).save(str(play))
    argv = [
        "train",
        "doudizhu",
        "--resume",
        str(start),
        "--out",
        str(out),
        "--eval-every",
        "0",
        "--no-progress",
    ]
    assert main([*argv, "--episodes", "300", "--bids-for", f"{play}+{play}", "--lr", "1e-2"]) == 0
    before, after = Model.load(str(start)), Model.load(str(out))
    assert after.meta["bids_for"] == f"{play}+{play}"
    assert after.meta["bid_targets"] == "result"
    assert after.nets["bid"].t > 0  # the bidding network stepped ...
    assert not np.array_equal(after.nets["bid"].w[0], before.nets["bid"].w[0])
    for name in ("landlord", "up", "down"):  # ... and no other
        assert after.nets[name].t == 0
        for p, q in zip(after.nets[name].params(), before.nets[name].params(), strict=True):
            assert np.array_equal(p, q)
    # going on without --bids-for would train its play networks for another play: refused
    with pytest.raises(SystemExit):
        main([*argv, "--episodes", "310", "--resume", str(out)])
    assert f"{out} trained its bidding network alone, for {play}+{play}: go on with --bids-for" in (
        capsys.readouterr().err
    )


def test_bids_from_another_file_bid_while_the_weights_play(tmp_path: Path) -> None:
    play, bids = Model(hidden=(16, 8), seed=1), Model(hidden=(16, 8), seed=2)
    paths = {"play": str(tmp_path / "play.npz"), "bids": str(tmp_path / "bids.npz")}
    play.save(paths["play"])
    bids.save(paths["bids"])
    bot = get_bot("doudizhu", f"learned:weights={paths['play']}:bids={paths['bids']}:margin=0:bid_margin=0")
    assert isinstance(bot, LearnedBot)
    assert isinstance(bot.model, BidsFor)
    given = LearnedBot(BidsFor(bids, play), margin=0.0, bid_margin=0.0)
    alone = LearnedBot(play, margin=0.0, bid_margin=0.0)
    seen = {"auction": 0, "play": 0, "bid differs": 0}
    for seed in range(4):
        r = ddz.Round.new(seed)
        while not r.is_over:
            seat, legal = r.to_move, r.legal_actions(r.to_move)
            view = r.view(seat)
            action = bot.decide(view, legal, random.Random(0))
            assert action == given.decide(view, legal, random.Random(0))
            if len(legal) > 1 and r.phase is ddz.Phase.AUCTION:
                seen["auction"] += 1
                seen["bid differs"] += action != alone.decide(view, legal, random.Random(0))
            elif len(legal) > 1:
                seen["play"] += 1
                assert action == alone.decide(view, legal, random.Random(0))  # the play is the weights'
            r = r.apply(seat, action)
    assert seen["auction"] >= 4
    assert seen["play"] >= 20
    assert seen["bid differs"] >= 1  # the file's bids are not the weights' own
    # with no weights named, the shipped networks play and the file bids
    shipped_play = get_bot("doudizhu", f"learned:bids={paths['bids']}")
    assert isinstance(shipped_play.model, BidsFor)
    assert shipped_play.model.play is shipped()
    xb = np.random.default_rng(4).random((3, bid_width())).astype(np.float32)
    assert np.array_equal(shipped_play.model.q("bid", xb), bids.q("bid", xb))
    with pytest.raises(FileNotFoundError, match=r"none\.npz"):
        get_bot("doudizhu", f"learned:bids={tmp_path / 'none.npz'}")


def test_with_samples_the_bot_weighs_each_candidate_s_sampled_wins_against_the_heuristic_s_choice() -> None:
    # prior 0: the networks count for nothing, so the bot plays the candidate that wins the most of
    # the sampled deals, the heuristic's choice unless another wins more of them; the deals are
    # drawn from the bot's rng as the search draws them (determinize, then a rollout or the solver)
    bot = LearnedBot(SMALL, margin=0.0, samples=8, prior=0)
    search = SearchBot(iterations=1)
    seen = {"decisions": 0, "not the heuristic's": 0}
    for view, legal, _ in _plays(range(3), HeuristicBot()):
        choice = consult(view, legal, bot.width)
        if len(choice.candidates) < 2:
            continue
        rng = random.Random(11)
        deals = [search.sample(view, choice.candidates, rng, view.rules) for _ in range(8)]
        wins = [sum(v > 0 for v in column) for column in zip(*deals, strict=True)]
        best = max(range(len(wins)), key=wins.__getitem__)  # the first of the most
        expected = choice.candidates[best if wins[best] > wins[choice.advice] else choice.advice]
        assert bot.decide(view, legal, random.Random(11)) == expected
        seen["decisions"] += 1
        seen["not the heuristic's"] += expected != choice.candidates[choice.advice]
    assert seen["decisions"] >= 30
    assert seen["not the heuristic's"] >= 3


def test_a_prior_of_many_deals_plays_as_the_networks_alone() -> None:
    for seed in range(2):
        weighed = LearnedBot(SMALL, margin=0.0, samples=2, prior=1e12)
        alone = LearnedBot(SMALL, margin=0.0)
        a = play_round(ddz.Round.new(seed), [weighed] * 3, seed=seed)
        b = play_round(ddz.Round.new(seed), [alone] * 3, seed=seed)
        assert a.view(0).history == b.view(0).history
    bot = get_bot("doudizhu", "learned:samples=64:prior=4")
    assert isinstance(bot, LearnedBot)
    assert (bot.samples, bot.prior) == (64, 4.0)
    default = get_bot("doudizhu", "learned")
    assert isinstance(default, LearnedBot)
    assert (default.samples, default.prior) == (0, PRIOR)  # the networks alone by default
    for option, bad, says in (
        ("samples", "-1", "samples must be a number, 0 or more, not -1"),
        ("samples", "many", "samples must be a number, 0 or more, not many"),
        ("samples", "2.5", "samples must be a number, 0 or more, not 2.5"),
        ("prior", "-3", "prior must be a number, 0 or more, not -3"),
    ):
        with pytest.raises(ValueError, match=says):
            get_bot("doudizhu", f"learned:{option}={bad}")


def test_the_search_bids_with_the_bidding_network_and_plays_as_with_the_heuristic_s_bids() -> None:
    learned, heuristic = LearnedBot(), HeuristicBot()
    registered = get_bot("doudizhu", "search:iterations=2")
    before = get_bot("doudizhu", "search:iterations=2:bids=heuristic")
    assert (registered.bids, before.bids) == ("learned", "heuristic")
    seen = {"auction": 0, "bid differs": 0, "play": 0}
    for seed in range(6):
        r = ddz.Round.new(seed, rules=ddz.RULES["classic"])
        while not r.is_over:
            seat, legal = r.to_move, r.legal_actions(r.to_move)
            view = r.view(seat)
            action = registered.decide(view, legal, random.Random(seed))
            if len(legal) > 1 and r.phase is ddz.Phase.AUCTION:
                seen["auction"] += 1
                hint = heuristic.decide(view, legal, random.Random(0))
                assert action == learned.decide(view, legal, random.Random(0))
                assert before.decide(view, legal, random.Random(0)) == hint
                seen["bid differs"] += action != hint
            elif len(legal) > 1:
                seen["play"] += 1
                # the same samples drawn, the same play
                assert action == before.decide(view, legal, random.Random(seed))
            r = r.apply(seat, action)
    assert seen["auction"] >= 6
    assert seen["play"] >= 20
    assert seen["bid differs"] >= 1  # the network does not bid as the heuristic does
    with pytest.raises(ValueError, match="option bids must be heuristic or learned, not 'rlcard'"):
        get_bot("doudizhu", "search:bids=rlcard")
