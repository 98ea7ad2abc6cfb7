"""``pagoda train doudizhu``: deep Monte-Carlo self-play for the ``learned`` bot, the auction included.

Every episode is one round of ``classic`` (or ``--rules``) from a training seed (10,000,000 ×
(1 + ``--seed``) + the episode number: never a seed the project reports figures on). Each seat
is played by the networks being trained (with probability 1 − ``--heuristic``) or by the
``heuristic`` bot; the networks' seats take a random legal action with probability ``--epsilon``
(``--bid-epsilon`` in the auction), else the one they value highest. When the round is over,
every decision that had a choice (the heuristic's too) becomes one training row of its role's
network (the bidding network for the auction), its target the round's result for the seat
that took it: +1 won, −1 lost. The heuristic's scores are part of every row (its advice, see
:func:`pagoda.bots.doudizhu.learned.play_features`), so the networks learn where to follow it.
Rows go to a replay buffer per network (the last 65,536), and every 64 new rows train that
network one Adam step on a batch of 256 drawn from it.

Every ``--checkpoint-every`` episodes the model and Adam's state are written to ``--out`` (an npz,
atomically), and every ``--eval-every`` episodes one line is added to the curve (``--curve``,
JSON lines): the episodes, the seconds, each network's recent loss and the win rate against the
heuristic on ``--eval-deals`` fixed deals from seed 50,001, each played in both seatings with the
auction (the arena's WP, with its 95% interval). ``--resume CKPT`` goes on from a checkpoint (the
replay buffers start empty). ``--export CKPT`` writes a checkpoint's weights alone, in half
precision, to ``--out`` (the shipped file).

    pagoda train doudizhu --episodes 50000 --out ddz.npz --seed 0
    pagoda train doudizhu --episodes 80000 --out ddz.npz --resume ddz.npz
    pagoda train doudizhu --export ddz.npz --out src/pagoda/bots/doudizhu/learned_doudizhu.npz
"""

import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pagoda.arena.stats import summarize
from pagoda.bots.doudizhu.driver import play_round
from pagoda.bots.doudizhu.heuristic import HeuristicBot
from pagoda.bots.doudizhu.learned import (
    NETS,
    ROLES,
    LearnedBot,
    Model,
    bid_features,
    bid_width,
    play_features,
    play_width,
    role_of,
    supported,
)
from pagoda.doudizhu import Round, Rules, new_round, parse_rules
from pagoda.doudizhu.round import Phase
from pagoda.train.mlp import Array, Progress, Replay, checked, export, training_parser

#: the first deal of the curve's evaluation (deals 50,001 on: never trained on, never reported)
EVAL_SEED = 50_001
#: rows a replay buffer keeps, the batch of an Adam step, and the new rows between two steps
BUFFER, BATCH, EVERY = 65_536, 256, 64


def training_seed(seed: int, episode: int) -> int:
    """The deal seed of an episode: 10,000,000 × (1 + ``seed``) + ``episode``."""
    return 10_000_000 * (1 + seed) + episode


def episode(
    model: Model,
    deal_seed: int,
    rng: random.Random,
    rules: Rules,
    heuristic: float = 0.5,
    epsilon: float = 0.05,
    bid_epsilon: float = 0.1,
    engine: str = "auto",
) -> tuple[list[tuple[str, Array, int]], tuple[int, ...]]:
    """Play one training round; its decisions with a choice as (network, row, seat), and the score."""
    teacher = HeuristicBot()
    by_heuristic = [rng.random() < heuristic for _ in range(rules.players)]
    r: Any = new_round(deal_seed, rules, engine=engine)
    rows: list[tuple[str, Array, int]] = []
    for _ in range(10_000):
        if r.is_over:
            break
        seat = r.to_move
        legal = r.legal_actions(seat)
        if len(legal) == 1:
            r = r.apply(seat, legal[0])
            continue
        view = r.view(seat)
        auction = view.phase is Phase.AUCTION
        name = "bid" if auction else ROLES[role_of(view)]
        if auction:
            xs = bid_features(view, legal)
            hint = int(np.argmax(xs[:, -1]))  # the heuristic's bid is flagged in the rows
        else:
            scores = teacher.scores(view, legal)
            xs = play_features(view, legal, scores)
            hint = int(np.argmax(scores))  # the heuristic's own choice: its first best score
        if by_heuristic[seat]:
            k = hint
        elif rng.random() < (bid_epsilon if auction else epsilon):
            k = rng.randrange(len(legal))
        else:
            k = int(np.argmax(model.q(name, xs)))
        action, x = legal[k], xs[k]
        rows.append((name, x, seat))
        r = r.apply(seat, action)
    else:
        raise RuntimeError(f"the round of seed {deal_seed} did not end")
    return rows, tuple(r.score())


def evaluate(model: Model, deals: int, seed: int = EVAL_SEED, rules: Rules | None = None) -> dict[str, float]:
    """The arena's WP of the model against the heuristic: ``deals`` deals with the auction, both seatings."""
    rules = rules or parse_rules("classic")
    bot, other = LearnedBot(model), HeuristicBot()
    means = []
    for deal in range(seed, seed + deals):
        wins = 0.0
        for alone in (bot, other):
            seats = [alone, *([other if alone is bot else bot] * 2)]
            r = play_round(Round.new(deal, rules), seats, seed=deal)
            points = r.score()[0] if alone is bot else r.score()[1] + r.score()[2]
            wins += 1.0 if points > 0 else 0.5 if points == 0 else 0.0
        means.append(wins / 2)
    s = summarize(means)
    return {"wp": s.mean, "half_width": s.half_width}


class Trainer:
    """The training state: the model, its replay buffers, the recent losses."""

    def __init__(self, model: Model, seed: int = 0, lr: float = 1e-3) -> None:
        self.model = model
        self.lr = lr
        self.replay = {n: Replay(bid_width() if n == "bid" else play_width(), BUFFER) for n in NETS}
        self.losses: dict[str, float] = {}
        self.np_rng = np.random.default_rng(seed)

    def learn(self, rows: Sequence[tuple[str, Array, int]], score: Sequence[int]) -> None:
        """Add an episode's rows (targets: +1 won, -1 lost) and take the Adam steps now due."""
        for name, x, seat in rows:
            self.replay[name].add(x, 1.0 if score[seat] > 0 else -1.0)
        for name, buf in self.replay.items():
            while buf.fresh >= EVERY and buf.count >= BATCH:
                buf.fresh -= EVERY
                x, y = buf.batch(self.np_rng, BATCH)
                loss = self.model.nets[name].step(x, y, self.lr)
                old = self.losses.get(name)
                self.losses[name] = loss if old is None else 0.98 * old + 0.02 * loss


def train(
    episodes: int,
    out: str,
    seed: int = 0,
    resume: str | None = None,
    rules: str = "classic",
    heuristic: float = 0.5,
    epsilon: float = 0.05,
    bid_epsilon: float = 0.1,
    lr: float = 1e-3,
    hidden: Sequence[int] = (256, 128),
    checkpoint_every: int = 2000,
    eval_every: int = 2500,
    eval_deals: int = 100,
    curve: str | None = None,
    engine: str = "auto",
    progress: bool = True,
    log: Callable[[str], None] | None = None,
) -> Model:
    """Train (or go on training) to ``episodes`` episodes in all; checkpoints to ``out``."""
    the_rules = parse_rules(rules)
    if not supported(the_rules) or the_rules.rob:
        raise ValueError(
            f"rules {rules!r}: the learned bot trains on three seats, one pack, bids, no wild cards"
        )
    model = Model.load(resume) if resume else Model(hidden=hidden, seed=seed)
    done = int(model.meta.get("episodes", 0))
    trainer = Trainer(model, seed=seed + done, lr=lr)
    bar = Progress(episodes, done, progress)
    spent = float(model.meta.get("seconds", 0.0))
    began = time.perf_counter()

    def checkpoint() -> None:
        model.meta.update(episodes=done, seconds=spent + time.perf_counter() - began, rules=rules, seed=seed)
        model.save(out)

    def curve_point() -> None:
        point = {
            "episodes": done,
            "seconds": round(spent + time.perf_counter() - began, 1),
            "loss": {k: round(v, 4) for k, v in sorted(trainer.losses.items())},
            **{k: round(v, 4) for k, v in evaluate(model, eval_deals, rules=the_rules).items()},
            "eval": f"{eval_deals} deals from seed {EVAL_SEED}, both seatings, auction, vs heuristic",
        }
        if curve:
            with open(curve, "a", encoding="utf-8") as f:
                f.write(json.dumps(point) + "\n")
        if log:
            log(json.dumps(point))

    while done < episodes:
        rng = random.Random(f"pagoda-train/{seed}/{done}")
        rows, score = episode(
            model, training_seed(seed, done), rng, the_rules, heuristic, epsilon, bid_epsilon, engine
        )
        trainer.learn(rows, score)
        done += 1
        losses = " ".join(f"{k} {v:.3f}" for k, v in sorted(trainer.losses.items()))
        bar.update(done, losses, force=done == episodes)
        if done % checkpoint_every == 0 or done == episodes:
            checkpoint()
        if eval_every and (done % eval_every == 0 or done == episodes):
            curve_point()
    checkpoint()
    return model


def run(argv: Sequence[str]) -> int:
    """Run ``pagoda train doudizhu`` from the command line."""
    parser = training_parser(
        "pagoda train doudizhu",
        (__doc__ or "").splitlines()[0],
        checkpoint_every=2000,
        eval_every=2500,
        eval_deals=100,
    )
    parser.add_argument("--rules", default="classic", help="rules preset (three seats, one pack, bids)")
    parser.add_argument("--heuristic", type=float, default=0.5, help="chance a seat is the heuristic's")
    parser.add_argument("--epsilon", type=float, default=0.05, help="exploration in play")
    parser.add_argument("--bid-epsilon", type=float, default=0.1, help="exploration in the auction")
    parser.add_argument("--engine", default="auto", choices=("auto", "native", "python"), help="rules engine")
    args = parser.parse_args(argv)
    if args.export:
        return export(parser, args, Model.load)
    hidden, curve = checked(parser, args)
    if not 0.0 <= args.heuristic <= 1.0:
        parser.error(f"--heuristic is a probability, not {args.heuristic}")
    try:
        train(
            args.episodes,
            args.out,
            seed=args.seed,
            resume=args.resume,
            rules=args.rules,
            heuristic=args.heuristic,
            epsilon=args.epsilon,
            bid_epsilon=args.bid_epsilon,
            lr=args.lr,
            hidden=hidden,
            checkpoint_every=args.checkpoint_every,
            eval_every=args.eval_every,
            eval_deals=args.eval_deals,
            curve=curve,
            engine=args.engine,
            progress=not args.no_progress,
            log=lambda line: print("\n" + line, file=sys.stderr, flush=True),
        )
    except ValueError as e:
        parser.error(str(e))
    print(f"wrote {args.out} and {curve}")
    return 0


__all__ = [
    "EVAL_SEED",
    "Progress",
    "Replay",
    "Trainer",
    "episode",
    "evaluate",
    "run",
    "train",
    "training_seed",
]
