"""``pagoda train tichu``: deep Monte-Carlo self-play for the ``learned`` Tichu bot.

Every episode is one round of ``standard`` Tichu from a training seed (10,000,000 × (1 +
``--seed``) + the episode number: never a seed the project reports figures on). Each seat is
played by the network being trained (with probability 1 − ``--club``) or by the ``club`` bot;
the network's seats take a random candidate with probability ``--epsilon``, else the one it
values highest. The calls, the exchange and the rest the network does not weigh are club's
(:func:`pagoda.bots.tichu.learned.consult`). When the round is over, every decision the network
weighs (club's seats' too) becomes one training row, its target the round's result for the
seat's team (:func:`pagoda.bots.tichu.learned.target`). Club's choice is part of every row, so
the network learns where to leave club's play. With ``--targets rollout`` every decision the
network weighs gives a row for each of its candidates instead, the target what that candidate
gains over club's choice on the whole deal, the rest of the round played by club at every seat
(:func:`advantages`: one step of policy improvement over club, measured rather than guessed from
one noisy round). The candidates' features see only the seat's view, so the network learns the
gain expected over the deals that view allows. Rows go to a replay buffer (the last 65,536), and
every 64 new rows train the network one Adam step on a batch of 256 drawn from it; rollout
targets, some 320 rows a round, take a step every 256 new rows instead, so that a row trains the
network about once (four times over the last 200 rounds overfit their noise: the network's
values came to no better than chance on fresh decisions). A checkpoint remembers its targets;
resuming it on the other kind is refused.

Every ``--checkpoint-every`` episodes the model and Adam's state are written to ``--out`` (an npz,
atomically), and every ``--eval-every`` episodes one line is added to the curve (``--curve``,
JSON lines): the episodes, the seconds, the recent loss, and the points per round and win rate
against club on ``--eval-deals`` fixed deals from seed 50,001, each played in both seatings (the
arena's mirrored pairs, with 95% intervals). The checkpoint with the best points so far is also
written to ``--best`` (default: ``--out`` with ``-best.npz``). ``--resume CKPT`` goes on from a
checkpoint (the replay buffer starts empty). ``--export CKPT`` writes a checkpoint's weights
alone, in half precision, to ``--out`` (the shipped file).

    pagoda train tichu --episodes 30000 --out tichu.npz --seed 0
    pagoda train tichu --targets rollout --episodes 60000 --out tichu.npz --seed 0
    pagoda train tichu --episodes 60000 --out tichu.npz --resume tichu.npz
    pagoda train tichu --export tichu-best.npz --out src/pagoda/bots/tichu/learned_tichu.npz
"""

import json
import random
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

from pagoda.arena.stats import summarize
from pagoda.bots.tichu.club import ClubBot
from pagoda.bots.tichu.driver import play_round, seat_rngs
from pagoda.bots.tichu.learned import LearnedBot, Model, consult, target, width
from pagoda.bots.tichu.search import native_values
from pagoda.bots.tichu.solver import round_value
from pagoda.native import engine_name
from pagoda.tichu import Action, Round
from pagoda.train.mlp import Array, Progress, Replay, checked, export, training_parser

#: the first deal of the curve's evaluation (deals 50,001 on: never trained on, never reported)
EVAL_SEED = 50_001
#: what a row's target is (see the module's text)
TARGETS = ("result", "rollout")
#: rows the replay buffer keeps, the batch of an Adam step, and the new rows between two steps
#: (rollout targets: a step every batch of new rows, see the module's text)
BUFFER, BATCH, EVERY = 65_536, 256, 64


def training_seed(seed: int, episode: int) -> int:
    """The deal seed of an episode: 10,000,000 × (1 + ``seed``) + ``episode``."""
    return 10_000_000 * (1 + seed) + episode


def advantages(r: Round, seat: int, candidates: Sequence[Action], advice: int) -> list[float]:
    """What each candidate gains over club's choice (``candidates[advice]``) for ``seat``'s team
    on the whole deal ``r``, the round played out by club at every seat after it (on the native
    core when built): the two values' :func:`~pagoda.bots.tichu.learned.target`."""
    team = seat & 1
    grands = r.view(seat).grand_calls
    if engine_name() == "native":
        values = native_values(r, seat, candidates, team, grands)
    else:
        club = [ClubBot()] * 4
        values = [
            float(round_value(play_round(r.apply(seat, a), club, seed=0), team, grands)) for a in candidates
        ]
    return [target(round(v), round(values[advice])) for v in values]


def episode(
    model: Model,
    deal_seed: int,
    rng: random.Random,
    club: float = 0.5,
    epsilon: float = 0.05,
    targets: str = "result",
) -> tuple[list[tuple[Array, int, float | None]], tuple[int, int]]:
    """Play one training round; the rows of the decisions the network weighs, each with its
    seat and, with ``targets="rollout"``, its target (:func:`advantages`: a row for every
    candidate), and the round's score (team 0, team 1)."""
    advisor = ClubBot()
    by_club = [rng.random() < club for _ in range(4)]
    rngs = seat_rngs(deal_seed)
    r = Round.new(deal_seed)
    rows: list[tuple[Array, int, float | None]] = []
    for _ in range(5000):
        if r.is_over:
            break
        decision = r.decisions()[0]
        seat = decision.seat
        choice = consult(r.view(seat), decision.actions, advisor, rngs[seat])
        if choice.action is not None:
            r = r.apply(seat, choice.action)
            continue
        assert choice.rows is not None
        if by_club[seat]:
            k = choice.advice
        elif rng.random() < epsilon:
            k = rng.randrange(len(choice.candidates))
        else:
            k = int(np.argmax(model.q(choice.rows)))
        if targets == "rollout":
            gains = advantages(r, seat, choice.candidates, choice.advice)
            rows.extend((x, seat, y) for x, y in zip(choice.rows, gains, strict=True))
        else:
            rows.append((choice.rows[k], seat, None))
        r = r.apply(seat, choice.candidates[k])
    else:
        raise RuntimeError(f"the round of seed {deal_seed} did not end")
    score = r.score()
    return rows, (score[0], score[1])


def evaluate(model: Model, deals: int, seed: int = EVAL_SEED) -> dict[str, float]:
    """The model against club on ``deals`` deals, each in both seatings (the arena's pairs): the
    points per round it gains and its win rate, each with its 95% half-width. The network plays
    every candidate it values highest (margin 0): the curve is the network's own strength."""
    bot, club = LearnedBot(model, margin=0.0), ClubBot()
    diffs, wins = [], []
    for deal in range(seed, seed + deals):
        diff = win = 0.0
        for team in (0, 1):
            seats = [bot if s & 1 == team else club for s in range(4)]
            score = play_round(Round.new(deal), seats, seed=deal).score()
            d = score[team] - score[1 - team]
            diff += d / 2
            win += (1.0 if d > 0 else 0.5 if d == 0 else 0.0) / 2
        diffs.append(diff)
        wins.append(win)
    p, w = summarize(diffs), summarize(wins)
    return {"points": p.mean, "points_hw": p.half_width, "win_rate": w.mean, "win_hw": w.half_width}


class Trainer:
    """The training state: the model, its replay buffer, the recent loss."""

    def __init__(self, model: Model, seed: int = 0, lr: float = 1e-3, every: int = EVERY) -> None:
        self.model = model
        self.lr = lr
        self.every = every
        self.replay = Replay(width(), BUFFER)
        self.loss: float | None = None
        self.np_rng = np.random.default_rng(seed)

    def learn(self, rows: Sequence[tuple[Array, int, float | None]], score: Sequence[int]) -> None:
        """Add an episode's rows (targets: their own, else the seat's team's result) and take the
        Adam steps now due."""
        for row, seat, gain in rows:
            team = seat & 1
            self.replay.add(row, target(score[team], score[1 - team]) if gain is None else gain)
        buf = self.replay
        while buf.fresh >= self.every and buf.count >= BATCH:
            buf.fresh -= self.every
            x, y = buf.batch(self.np_rng, BATCH)
            loss = self.model.net.step(x, y, self.lr)
            self.loss = loss if self.loss is None else 0.98 * self.loss + 0.02 * loss


def train(
    episodes: int,
    out: str,
    seed: int = 0,
    resume: str | None = None,
    club: float = 0.5,
    epsilon: float = 0.05,
    targets: str = "result",
    lr: float = 1e-3,
    hidden: Sequence[int] = (256, 128),
    checkpoint_every: int = 1000,
    eval_every: int = 2000,
    eval_deals: int = 50,
    curve: str | None = None,
    best: str | None = None,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
) -> Model:
    """Train (or go on training) to ``episodes`` episodes in all; checkpoints to ``out``."""
    if targets not in TARGETS:
        raise ValueError(f"targets must be one of {', '.join(TARGETS)}, not {targets!r}")
    model = Model.load(resume) if resume else Model(hidden=hidden, seed=seed)
    trained_on = model.meta.setdefault("targets", targets if not resume else "result")
    if trained_on != targets:
        raise ValueError(f"{resume} was trained on targets {trained_on!r}, not {targets!r}")
    done = int(model.meta.get("episodes", 0))
    trainer = Trainer(model, seed=seed + done, lr=lr, every=BATCH if targets == "rollout" else EVERY)
    bar = Progress(episodes, done, progress)
    spent = float(model.meta.get("seconds", 0.0))
    began = time.perf_counter()
    best_path = best or out.removesuffix(".npz") + "-best.npz"

    def checkpoint(path: str = out) -> None:
        model.meta.update(episodes=done, seconds=spent + time.perf_counter() - began, seed=seed)
        model.save(path)

    def curve_point() -> None:
        result = evaluate(model, eval_deals)
        top = model.meta.get("best_points")
        better = top is None or result["points"] > top
        point = {
            "episodes": done,
            "seconds": round(spent + time.perf_counter() - began, 1),
            "loss": None if trainer.loss is None else round(trainer.loss, 4),
            **{k: round(v, 4) for k, v in result.items()},
            "best": better,
            "eval": f"{eval_deals} deals from seed {EVAL_SEED}, both seatings, vs club",
        }
        if better:
            model.meta.update(best_points=result["points"], best_episodes=done)
            checkpoint(best_path)
        if curve:
            with open(curve, "a", encoding="utf-8") as f:
                f.write(json.dumps(point) + "\n")
        if log:
            log(json.dumps(point))

    while done < episodes:
        rng = random.Random(f"pagoda-train-tichu/{seed}/{done}")
        rows, score = episode(model, training_seed(seed, done), rng, club, epsilon, targets)
        trainer.learn(rows, score)
        done += 1
        note = "" if trainer.loss is None else f"loss {trainer.loss:.3f}"
        bar.update(done, note, force=done == episodes)
        if eval_every and (done % eval_every == 0 or done == episodes):
            curve_point()
        if done % checkpoint_every == 0 or done == episodes:
            checkpoint()
    checkpoint()
    return model


def run(argv: Sequence[str]) -> int:
    """Run ``pagoda train tichu`` from the command line."""
    parser = training_parser(
        "pagoda train tichu",
        (__doc__ or "").splitlines()[0],
        checkpoint_every=1000,
        eval_every=2000,
        eval_deals=50,
    )
    parser.add_argument("--club", type=float, default=0.5, help="chance a seat is the club bot's")
    parser.add_argument("--epsilon", type=float, default=0.05, help="exploration")
    parser.add_argument(
        "--targets",
        choices=TARGETS,
        default="result",
        help="result: the round's result for the decision taken; rollout: every candidate's gain "
        "over club's choice, the deal played out by club",
    )
    parser.add_argument("--best", help="the best checkpoint by the curve (default: --out with -best.npz)")
    args = parser.parse_args(argv)
    if args.export:
        return export(parser, args, Model.load)
    hidden, curve = checked(parser, args)
    for name, p in (("--club", args.club), ("--epsilon", args.epsilon)):
        if not 0.0 <= p <= 1.0:
            parser.error(f"{name} is a probability, not {p}")
    try:
        train(
            args.episodes,
            args.out,
            seed=args.seed,
            resume=args.resume,
            club=args.club,
            epsilon=args.epsilon,
            targets=args.targets,
            lr=args.lr,
            hidden=hidden,
            checkpoint_every=args.checkpoint_every,
            eval_every=args.eval_every,
            eval_deals=args.eval_deals,
            curve=curve,
            best=args.best,
            progress=not args.no_progress,
            log=lambda line: print("\n" + line, file=sys.stderr, flush=True),
        )
    except (OSError, ValueError) as e:
        parser.error(str(e))
    print(f"wrote {args.out} and {curve}")
    return 0


__all__ = [
    "EVAL_SEED",
    "TARGETS",
    "Trainer",
    "advantages",
    "episode",
    "evaluate",
    "run",
    "train",
    "training_seed",
]
