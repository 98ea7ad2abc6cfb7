"""The learned Tichu bot: it plays whole rounds legally and fast, decides from the view alone, its
weights load (and another layout is refused), its backprop is the loss's gradient, and the
train command writes checkpoints, a curve, resumes and exports half precision."""

import dataclasses
import json
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

import pagoda.train.tichu as training
from pagoda.bots import get_bot
from pagoda.bots.tichu import ClubBot, play_round
from pagoda.bots.tichu.learned import (
    FEATURES_VERSION,
    MARGIN,
    WEIGHTS,
    LearnedBot,
    Model,
    consult,
    shipped,
    target,
    width,
)
from pagoda.bots.tichu.search import determinize
from pagoda.bots.tichu.solver import round_value
from pagoda.cli import main
from pagoda.tichu import Action, Round, View
from pagoda.tichu.round import Phase
from pagoda.train.mlp import MLP
from pagoda.train.tichu import Trainer, advantages, episode

SMALL = Model(hidden=(16, 8), seed=3)


class Checked:
    """Asserts every answer of the wrapped bot is one of the legal actions."""

    def __init__(self, bot: LearnedBot) -> None:
        self.bot = bot

    def decide(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        action = self.bot.decide(view, legal, rng)
        assert action in legal
        return action


@pytest.mark.parametrize("seed", range(3))
def test_the_bot_plays_whole_rounds_legally(seed: int) -> None:
    bots = [Checked(LearnedBot(SMALL)), ClubBot()] * 2
    r = play_round(Round.new(seed), bots, seed=seed)
    assert r.is_over
    assert sum(r.score()) % 5 == 0


def test_the_shipped_bot_is_registered_and_plays_a_whole_round() -> None:
    # its speed is measured where speed belongs, in the arena's decision times (docs/strength.md)
    bot = get_bot("tichu", "learned")
    assert isinstance(bot, LearnedBot)
    checked, club, answers = Checked(bot), ClubBot(), []  # (the bot's action, club's) at every decision

    class Both:
        def decide(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
            action = checked.decide(view, legal, rng)
            answers.append((action, club.decide(view, legal, random.Random(0))))
            return action

    assert play_round(Round.new(11), [Both()] * 4, seed=11).is_over
    # it leaves club's play only where its network is sure (about 3% of the decisions it weighs)
    differ = sum(mine != clubs for mine, clubs in answers)
    assert len(answers) > 20
    assert differ <= 0.1 * len(answers)


@pytest.mark.parametrize("seed", range(4))
def test_decisions_read_only_the_view(seed: int) -> None:
    rng, club = random.Random(seed), ClubBot()
    r, checked = Round.new(seed), 0
    while not r.is_over:
        decision = r.decisions()[0]
        seat = decision.seat
        view = r.view(seat)
        if r.phase is Phase.PLAY and len(decision.actions) > 1 and rng.random() < 0.2:
            other = determinize(view, random.Random(seed * 100 + checked))
            # determinize does not rebuild the exchange's record: the view's own is put back
            seen = dataclasses.replace(
                other.view(seat), given=view.given, received=view.received, events=view.events
            )
            assert seen == view
            if any(other.hand_mask(s) != r.hand_mask(s) for s in range(4)):
                a = LearnedBot(SMALL).decide(view, decision.actions, random.Random(0))
                b = LearnedBot(SMALL).decide(seen, other.legal_actions(seat), random.Random(0))
                assert str(a) == str(b)
                checked += 1
        r = r.apply(seat, club.decide(view, decision.actions, rng))
    assert checked > 0


def test_rows_are_as_wide_as_the_network_and_flag_club_s_choice() -> None:
    r = Round.new(4)
    club = ClubBot()
    while (
        r.phase is not Phase.PLAY
        or consult(r.view(r.to_move), r.legal_actions(r.to_move), club, random.Random()).rows is None
    ):
        d = r.decisions()[0]
        r = r.apply(d.seat, club.decide(r.view(d.seat), d.actions, random.Random()))
    choice = consult(r.view(r.to_move), r.legal_actions(r.to_move), club, random.Random())
    assert choice.rows is not None
    assert choice.rows.shape == (len(choice.candidates), width())
    assert choice.rows[:, -1].tolist() == [float(i == choice.advice) for i in range(len(choice.candidates))]


def test_the_shipped_weights_load_and_another_layout_is_refused(tmp_path: Path) -> None:
    model = shipped()
    assert model.meta["features"] == FEATURES_VERSION
    assert model.net.sizes[0] == width()
    other = Model(hidden=(4,))
    other.meta["features"] = FEATURES_VERSION + 1
    path = tmp_path / "other.npz"
    other.save(str(path))
    with pytest.raises(
        ValueError, match=f"feature layout {FEATURES_VERSION + 1}.*reads layout {FEATURES_VERSION}"
    ):
        Model.load(str(path))
    assert WEIGHTS == "learned_tichu.npz"


def test_the_backprop_is_the_gradient_of_the_loss() -> None:
    net = MLP([5, 4, 3, 1], seed=1, dtype=np.float64)
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal((7, 5)), rng.standard_normal(7)
    _, grads = net.loss_grads(x, y)
    for p, g in zip(net.params(), grads, strict=True):
        for index in list(np.ndindex(p.shape))[:6]:
            old = p[index]
            p[index] = old + 1e-6
            up = net.loss_grads(x, y)[0]
            p[index] = old - 1e-6
            down = net.loss_grads(x, y)[0]
            p[index] = old
            assert g[index] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-7)


def test_self_play_rows_train_the_network() -> None:
    model = Model(hidden=(8,), seed=0)
    trainer = Trainer(model, seed=0)
    for k in range(6):
        rows, score = episode(model, 10_000_000 + k, random.Random(k))
        assert rows
        assert sum(score) % 5 == 0
        trainer.learn(rows, score)
    assert trainer.loss is not None
    assert trainer.replay.count > 256


def first_weighed_decision(seed: int, at_least: int) -> tuple[Round, int, list[Action], int]:
    """The round of ``seed`` played by club to the first decision the network weighs with at
    least ``at_least`` candidates: the round, the seat, the candidates and club's choice's index."""
    r, club = Round.new(seed), ClubBot()
    while not r.is_over:
        decision = r.decisions()[0]
        seat, view = decision.seat, r.view(decision.seat)
        choice = consult(view, decision.actions, club, random.Random(0))
        if r.phase is Phase.PLAY and choice.rows is not None and len(choice.candidates) >= at_least:
            return r, seat, list(choice.candidates), choice.advice
        r = r.apply(seat, club.decide(view, decision.actions, random.Random(0)))
    raise AssertionError(f"no decision with {at_least} candidates in the round of seed {seed}")


@pytest.mark.parametrize("seed", range(3))
def test_rollout_targets_are_each_candidate_s_club_playout_less_club_s_choice(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    r, seat, candidates, advice = first_weighed_decision(seed, 4)
    team, grands = seat & 1, r.view(seat).grand_calls
    gains = advantages(r, seat, candidates, advice)
    assert gains[advice] == 0.0
    # each one by hand on the Python core: club at all four seats, seed 0, then target(ours, club's)
    values = [
        round_value(play_round(r.apply(seat, a), [ClubBot()] * 4, seed=0), team, grands) for a in candidates
    ]
    assert gains == [target(v, values[advice]) for v in values]
    # without the native core the same numbers come from the Python playouts
    monkeypatch.setattr(training, "engine_name", lambda: "python")
    assert advantages(r, seat, candidates, advice) == gains


def test_rollout_episodes_give_a_row_for_every_candidate_with_its_gain() -> None:
    model = Model(hidden=(8,), seed=0)
    rows, score = episode(model, 10_000_000, random.Random(0), targets="rollout")
    assert sum(score) % 5 == 0
    assert all(y is not None for _, _, y in rows)
    # club's own choice gains nothing over itself; the others gain or lose something somewhere
    advised = [y for x, _, y in rows if x[-1] == 1.0]
    assert advised
    assert set(advised) == {0.0}
    assert any(y != 0.0 for x, _, y in rows if x[-1] == 0.0)
    assert len(rows) > len(advised)  # more than one candidate per decision, on the whole
    trainer = Trainer(model, seed=0)
    trainer.learn(rows, score)
    assert trainer.replay.count == len(rows)
    # a step every 64 new rows, or (rollout targets) every 256: rows // 64 and rows // 256 steps
    assert model.net.t == len(rows) // 64
    once = Model(hidden=(8,), seed=0)
    Trainer(once, seed=0, every=256).learn(rows, score)
    assert once.net.t == len(rows) // 256 >= 1


def test_a_checkpoint_keeps_its_targets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.npz"
    common = ["--out", str(out), "--hidden", "8", "--eval-every", "0", "--no-progress"]
    assert main(["train", "tichu", "--targets", "rollout", "--club", "1.0", "--episodes", "2", *common]) == 0
    # the command's rollout training steps every 256 rows: the two episodes' rows // 256 steps
    # (club at every seat: the rows do not depend on the network)
    rows = 0
    for k in range(2):
        rng = random.Random(f"pagoda-train-tichu/0/{k}")
        rows += len(episode(Model(hidden=(8,)), training.training_seed(0, k), rng, 1.0, targets="rollout")[0])
    assert Model.load(str(out)).net.t == rows // 256 >= 1
    assert Model.load(str(out)).meta["targets"] == "rollout"
    before = out.read_bytes()
    with pytest.raises(SystemExit) as e:
        main(["train", "tichu", "--episodes", "4", "--resume", str(out), *common])
    assert e.value.code == 2
    assert "was trained on targets 'rollout', not 'result'" in capsys.readouterr().err
    assert out.read_bytes() == before
    with pytest.raises(SystemExit):
        main(["train", "tichu", "--targets", "advice", "--episodes", "2", *common])


def test_the_margin_keeps_club_s_choice_unless_the_network_is_sure() -> None:
    # a margin no network reaches (its values are points / 200) plays exactly club's round
    sure = [LearnedBot(SMALL, margin=1e9) for _ in range(4)]
    assert (
        play_round(Round.new(5), sure, seed=5).record
        == play_round(Round.new(5), [ClubBot()] * 4, seed=5).record
    )
    bot = get_bot("tichu", "learned:margin=0.25")
    assert isinstance(bot, LearnedBot)
    assert bot.margin == 0.25
    # by default the shipped network's margin, chosen on tuning deals (docs/strength.md): 10 points
    assert get_bot("tichu", "learned").margin == LearnedBot().margin == MARGIN == 0.05
    for bad in ("-1", "nan", "wide"):
        with pytest.raises(ValueError, match=f"margin must be a number, 0 or more, not {bad}"):
            LearnedBot(SMALL, margin=bad)


def test_the_train_command_checkpoints_resumes_and_exports(tmp_path: Path) -> None:
    out, curve, shipped_file = tmp_path / "t.npz", tmp_path / "t.jsonl", tmp_path / "s.npz"
    common = ["--out", str(out), "--hidden", "8", "--eval-deals", "1", "--no-progress"]
    assert main(["train", "tichu", "--episodes", "20", "--eval-every", "20", *common]) == 0
    point = json.loads(curve.read_text().splitlines()[-1])
    assert point["episodes"] == 20
    assert {"points", "win_rate", "loss"} <= set(point)
    assert (tmp_path / "t-best.npz").exists()
    assert (
        main(["train", "tichu", "--episodes", "24", "--eval-every", "0", "--resume", str(out), *common]) == 0
    )
    assert Model.load(str(out)).meta["episodes"] == 24
    assert main(["train", "tichu", "--export", str(out), "--out", str(shipped_file)]) == 0
    data = np.load(shipped_file)
    assert data["play/p0"].dtype == np.float16
    assert "play/m0" not in data
    with pytest.raises(SystemExit):
        main(["train", "tichu", "--out", str(out), "--club", "2"])


@pytest.mark.parametrize("game", ["tichu", "doudizhu"])
def test_both_trainers_refuse_bad_options_by_name(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the options every trainer takes are read and checked in one place (pagoda.train.mlp)
    out = str(tmp_path / "x.npz")
    refused = {
        "--episodes 0": "--episodes must be at least 1, not 0",
        "--checkpoint-every 0": "--checkpoint-every must be at least 1, not 0",
        "--hidden 8,x": "--hidden takes widths like 256,128, not '8,x'",
        f"--export {tmp_path / 'missing.npz'}": "cannot export",
    }
    for options, says in refused.items():
        with pytest.raises(SystemExit) as e:
            main(["train", game, "--out", out, *options.split()])
        assert e.value.code == 2
        assert says in capsys.readouterr().err
    assert not (tmp_path / "x.npz").exists()
