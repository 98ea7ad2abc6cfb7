"""``pagoda train doudizhu``: deep Monte-Carlo self-play for the ``learned`` bot, the auction included.

Every episode is one round of ``classic`` (or ``--rules``) from a training seed (10,000,000 ×
(1 + ``--seed``) + the episode number: never a seed the project reports figures on). Each seat
is played by the networks being trained (with probability 1 − ``--heuristic``) or by the
``heuristic`` bot; the networks' seats take a random candidate with probability ``--epsilon``
(``--bid-epsilon`` in the auction), else the one they value highest. A decision's candidates are
the learned bot's (:func:`pagoda.bots.doudizhu.learned.consult`: every bid, or the heuristic's
best ``--width`` plays), and the heuristic's scores are part of every row (its advice, see
:func:`pagoda.bots.doudizhu.learned.play_features`), so the networks learn where to leave it.

Targets (``--targets``): with ``result`` every decision with a choice (the heuristic's too)
becomes one row of its role's network (the bidding network for the auction), its target the
round's result for the seat that took it: +1 won, −1 lost. With ``rollout`` every such decision
gives a row for each of its candidates, the target what that candidate gains over the
heuristic's choice when the heuristic plays the rest of the deal (the auction too) at every seat:
the two results' difference, halved (:func:`advantages`). That is one step of policy
improvement over the heuristic, measured on the real deal rather than guessed from one noisy
round; the rows see only the seat's view, so a network learns the gain expected over the deals
the view allows. The playouts run on the native core, with its port of the heuristic, when it
is built (``--engine``). With ``sampled`` a play decision's targets are the same gains measured
as the search measures them: each candidate's share of ``--samples`` deals (64 by default) drawn
consistently with the seat's view and played out (or solved) as the search plays them, less the
heuristic's choice's share (:func:`pagoda.bots.doudizhu.learned.sampled_gains`, what the bot's
``samples`` option weighs at play time); the auction's stay ``rollout``'s (the search does not
bid). A row then carries the mean of many deals' gains rather than one deal's, at the cost of
their playouts (some 75 times a rollout episode's time at 64 samples). The two kinds of gains share
their units, so a run may go on from one to the other (``--resume``; the checkpoint records the
switch); from ``result`` it may not.

``--bids-for WEIGHTS`` trains the bidding network alone, for a given play: the play networks of
WEIGHTS (a file, or several joined by ``+``, valued together as the bot does) value the learned
seats' play and stay as they are, ``--margin`` keeps the heuristic's play unless another beats it
by more (as the bot's ``margin``), and only the auction's decisions give rows. A bidding network
learned from earlier, weaker play would misjudge what a hand is worth to the play that follows;
this one learns the results of the play it will bid for. ``--resume`` starts it from a file's
bidding network.

Rows go to a replay buffer per network (the last 65,536); result targets train a network one
Adam step on a batch of 256 every 64 new rows, rollout targets (some 100 rows a round) every 256
by default, so that a row trains about once (``--every`` sets it). Episodes are played in blocks
of 16 (shorter where a block would pass a checkpoint or a curve point) with the networks as they
stand at the block's start, by ``--workers`` processes, and learned from in episode order: the
run is the same whatever the number of workers. A checkpoint remembers its targets; resuming it
on the other kind is refused.

Every ``--checkpoint-every`` episodes the model and Adam's state are written to ``--out`` (an npz,
atomically), and every ``--eval-every`` episodes one line is added to the curve (``--curve``,
JSON lines): the episodes, the seconds, each network's recent loss and the win rate against the
heuristic on ``--eval-deals`` fixed deals from seed 50,001, each played in both seatings with the
auction (the arena's WP, with its 95% interval; the networks play every candidate they value
highest, margin 0 unless ``--margin``). ``--resume CKPT`` goes on from a checkpoint (the replay
buffers start empty). ``--export CKPT`` writes a checkpoint's weights alone, in half precision,
to ``--out`` (a shipped file: the package ships three checkpoints of one run, valued together,
named by :data:`~pagoda.bots.doudizhu.learned.WEIGHTS`, and a bidding network trained for their
play, :data:`~pagoda.bots.doudizhu.learned.BIDS`).

    pagoda train doudizhu --episodes 50000 --out ddz.npz --seed 0
    pagoda train doudizhu --targets rollout --episodes 20000 --out ddz.npz --workers 2
    pagoda train doudizhu --targets sampled --samples 32 --episodes 30000 --out ddz.npz --resume ddz.npz
    pagoda train doudizhu --episodes 80000 --out ddz.npz --resume ddz.npz
    pagoda train doudizhu --export ddz.npz --out src/pagoda/bots/doudizhu/learned_doudizhu.npz
    pagoda train doudizhu --bids-for a.npz+b.npz --margin 0.05 --resume a.npz --out bids.npz --seed 1
"""

import json
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from pagoda.arena.stats import summarize
from pagoda.bots.doudizhu.driver import play_round
from pagoda.bots.doudizhu.heuristic import HeuristicBot
from pagoda.bots.doudizhu.learned import (
    NETS,
    WIDTH,
    BidsFor,
    LearnedBot,
    Model,
    Valuer,
    bid_width,
    consult,
    load_weights,
    play_width,
    sampled_gains,
    supported,
)
from pagoda.bots.doudizhu.search import SearchBot
from pagoda.doudizhu import Action, Round, Rules, new_round, parse_rules
from pagoda.doudizhu.native import NativeRound
from pagoda.train.mlp import Array, Progress, Replay, checked, export, training_parser

#: the first deal of the curve's evaluation (deals 50,001 on: never trained on, never reported)
EVAL_SEED = 50_001
#: what a row's target is (see the module's text)
TARGETS = ("result", "rollout", "sampled")
#: the targets that are gains over the heuristic's choice, in one unit: a run may go from one to another
GAINS = ("rollout", "sampled")
#: deals a decision's sampled targets are drawn on (``--samples``)
SAMPLES = 64
#: rows a replay buffer keeps, the batch of an Adam step, and the new rows between two steps
#: (rollout targets: a step every batch of new rows, see the module's text)
BUFFER, BATCH, EVERY = 65_536, 256, 64
#: episodes played with the same networks (by the workers) before any is learned from
BLOCK = 16

#: a training row: the network, the row, the seat, and its target (None: the round's result)
Row = tuple[str, Array, int, float | None]


def training_seed(seed: int, episode: int) -> int:
    """The deal seed of an episode: 10,000,000 × (1 + ``seed``) + ``episode``."""
    return 10_000_000 * (1 + seed) + episode


def won(points: int) -> int:
    """A seat's result: +1 won, −1 lost."""
    return 1 if points > 0 else -1


def advantages(r: Any, seat: int, candidates: Sequence[Action], advice: int) -> list[float]:
    """What each candidate gains for ``seat`` over the heuristic's choice (``candidates[advice]``)
    on the whole deal ``r``, the rest of the round (the auction too) played by the heuristic at
    every seat: the difference of the two results (+1 won, −1 lost), halved. On a native round
    the playouts are the native core's port of the heuristic (the same rounds, in one call each)."""
    if isinstance(r, NativeRound):
        results = [won(r.apply(seat, a).heuristic_playout().score()[seat]) for a in candidates]
    else:
        heuristic = [HeuristicBot()] * len(r.hands)
        results = [won(play_round(r.apply(seat, a), heuristic, seed=0).score()[seat]) for a in candidates]
    return [(v - results[advice]) / 2 for v in results]


def episode(
    model: Model,
    deal_seed: int,
    rng: random.Random,
    rules: Rules,
    heuristic: float = 0.5,
    epsilon: float = 0.05,
    bid_epsilon: float = 0.1,
    engine: str = "auto",
    targets: str = "result",
    width: int = WIDTH,
    play: Valuer | None = None,
    margin: float = 0.0,
    samples: int = SAMPLES,
) -> tuple[list[Row], tuple[int, ...]]:
    """Play one training round; the rows of its decisions with a choice (with ``targets="rollout"``
    a row for every candidate, with its target: :func:`advantages`; with ``"sampled"`` the play's
    targets are :func:`~pagoda.bots.doudizhu.learned.sampled_gains` on ``samples`` deals, the
    auction's :func:`advantages`), and the score. With ``play``
    the learned seats' play is valued by it and only the auction gives rows (``--bids-for``); a
    ``margin`` above 0 keeps the heuristic's play unless another beats it by more, as the bot does."""
    valuer: Valuer = model if play is None else BidsFor(model, play)
    learn = NETS if play is None else ("bid",)
    by_heuristic = [rng.random() < heuristic for _ in range(rules.players)]
    search = SearchBot() if targets == "sampled" else None
    r: Any = new_round(deal_seed, rules, engine=engine)
    rows: list[Row] = []
    for _ in range(10_000):
        if r.is_over:
            break
        seat = r.to_move
        legal = r.legal_actions(seat)
        if len(legal) == 1:
            r = r.apply(seat, legal[0])
            continue
        # a native round scores the play natively (consult reads no scores in the auction)
        view = r.view(seat)
        choice = consult(view, legal, width, r.heuristic_scores() if isinstance(r, NativeRound) else None)
        if by_heuristic[seat]:
            k = choice.advice
        elif rng.random() < (bid_epsilon if choice.net == "bid" else epsilon):
            k = rng.randrange(len(choice.candidates))
        else:
            q = valuer.q(choice.net, choice.rows)
            k = int(np.argmax(q))
            if margin > 0 and choice.net != "bid" and q[k] - q[choice.advice] <= margin:
                k = choice.advice
        if choice.net in learn and targets in GAINS:
            if search is not None and choice.net != "bid":
                gains = sampled_gains(search, view, choice, samples, rng).tolist()
            else:
                gains = advantages(r, seat, choice.candidates, choice.advice)
            rows.extend((choice.net, x, seat, y) for x, y in zip(choice.rows, gains, strict=True))
        elif choice.net in learn:
            rows.append((choice.net, choice.rows[k], seat, None))
        r = r.apply(seat, choice.candidates[k])
    else:
        raise RuntimeError(f"the round of seed {deal_seed} did not end")
    return rows, tuple(r.score())


def evaluate(
    model: Valuer, deals: int, seed: int = EVAL_SEED, rules: Rules | None = None, margin: float = 0.0
) -> dict[str, float]:
    """The arena's WP of the model against the heuristic: ``deals`` deals with the auction, both
    seatings. The networks play every candidate they value highest (margin 0 unless given)."""
    rules = rules or parse_rules("classic")
    bot, other = LearnedBot(model, margin=margin, bid_margin=0.0), HeuristicBot()
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

    def __init__(self, model: Model, seed: int = 0, lr: float = 1e-3, every: int = EVERY) -> None:
        self.model = model
        self.lr = lr
        self.every = every
        self.replay = {n: Replay(bid_width() if n == "bid" else play_width(), BUFFER) for n in NETS}
        self.losses: dict[str, float] = {}
        self.np_rng = np.random.default_rng(seed)

    def learn(self, rows: Sequence[Row], score: Sequence[int]) -> None:
        """Add an episode's rows (targets: their own, else +1 won, -1 lost) and take the Adam steps
        now due."""
        for name, x, seat, gain in rows:
            self.replay[name].add(x, float(won(score[seat])) if gain is None else gain)
        for name, buf in self.replay.items():
            while buf.fresh >= self.every and buf.count >= BATCH:
                buf.fresh -= self.every
                x, y = buf.batch(self.np_rng, BATCH)
                loss = self.model.nets[name].step(x, y, self.lr)
                old = self.losses.get(name)
                self.losses[name] = loss if old is None else 0.98 * old + 0.02 * loss


#: a worker's copy of the networks, and how to play its episodes (set in each worker)
_WORKER: dict[str, Any] = {}


def _weights(model: Model) -> dict[str, tuple[list[Array], list[Array]]]:
    return {name: (net.w, net.b) for name, net in model.nets.items()}


def _start_worker(hidden: Sequence[int], settings: dict[str, Any]) -> None:
    play = load_weights(settings["bids_for"]) if settings["bids_for"] else None
    _WORKER.update(model=Model(hidden=hidden), settings=settings, play=play)


def _play(
    job: tuple[dict[str, tuple[list[Array], list[Array]]] | None, int],
) -> tuple[list[Row], tuple[int, ...]]:
    """Play episode ``number`` with the given weights (None: the worker's own, unchanged)."""
    weights, number = job
    model: Model = _WORKER["model"]
    if weights is not None:
        for name, (w, b) in weights.items():
            model.nets[name].w, model.nets[name].b = w, b
    s = _WORKER["settings"]
    rng = random.Random(f"pagoda-train/{s['seed']}/{number}")
    return episode(
        model,
        training_seed(s["seed"], number),
        rng,
        s["rules"],
        s["heuristic"],
        s["epsilon"],
        s["bid_epsilon"],
        s["engine"],
        s["targets"],
        s["width"],
        _WORKER["play"],
        s["margin"],
        s["samples"],
    )


def _blocks(
    model: Model,
    first: int,
    last: int,
    workers: int,
    settings: dict[str, Any],
    stops: Sequence[int] = (),
    play: Valuer | None = None,
) -> Iterator[list[tuple[list[Row], tuple[int, ...]]]]:
    """The episodes ``first`` to ``last`` − 1, a block at a time, each block played with the
    networks as they stand when it starts (the caller learns from a block before the next). A
    block holds :data:`BLOCK` episodes, fewer where it would pass a multiple of one of ``stops``
    (the checkpoints and the curve's points are taken between blocks)."""
    pool = None
    if workers > 1:
        context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
        pool = context.Pool(workers, _start_worker, (model.hidden, settings))
    else:
        _WORKER.update(model=model, settings=settings, play=play)  # played here, with the networks themselves
    try:
        begin = first
        while begin < last:
            end = min([last, begin + BLOCK, *((begin // k + 1) * k for k in stops if k)])
            numbers = range(begin, end)
            begin = end
            if pool is None:
                yield [_play((None, n)) for n in numbers]
            else:
                weights = _weights(model)
                yield pool.map(_play, [(weights, n) for n in numbers], chunksize=1)
    finally:
        if pool is not None:
            pool.terminate()


def train(
    episodes: int,
    out: str,
    seed: int = 0,
    resume: str | None = None,
    rules: str = "classic",
    heuristic: float = 0.5,
    epsilon: float = 0.05,
    bid_epsilon: float = 0.1,
    targets: str = "result",
    width: int = WIDTH,
    workers: int = 1,
    every: int | None = None,
    lr: float = 1e-3,
    hidden: Sequence[int] = (256, 128),
    checkpoint_every: int = 2000,
    eval_every: int = 2500,
    eval_deals: int = 100,
    curve: str | None = None,
    engine: str = "auto",
    progress: bool = True,
    log: Callable[[str], None] | None = None,
    bids_for: str | None = None,
    margin: float = 0.0,
    samples: int = SAMPLES,
) -> Model:
    """Train (or go on training) to ``episodes`` episodes in all; checkpoints to ``out``. With
    ``bids_for`` (weights, or several joined by ``+``) only the bidding network trains, for the
    play of those networks, which value the learned seats' play and stay as they are."""
    the_rules = parse_rules(rules)
    if not supported(the_rules) or the_rules.rob:
        raise ValueError(
            f"rules {rules!r}: the learned bot trains on three seats, one pack, bids, no wild cards"
        )
    if targets not in TARGETS:
        raise ValueError(f"targets must be one of {', '.join(TARGETS)}, not {targets!r}")
    model = Model.load(resume) if resume else Model(hidden=hidden, seed=seed)
    play = load_weights(bids_for) if bids_for else None
    if bids_for:
        model.meta.update(bids_for=bids_for, bid_targets=targets)
    elif model.meta.get("bids_for"):
        raise ValueError(
            f"{resume} trained its bidding network alone, for {model.meta['bids_for']}: go on with --bids-for"
        )
    else:
        trained_on = model.meta.setdefault("targets", targets if not resume else "result")
        if trained_on != targets and not {trained_on, targets} <= set(GAINS):
            raise ValueError(f"{resume} was trained on targets {trained_on!r}, not {targets!r}")
        if trained_on != targets:  # gains of another kind, in the same units: the run goes on
            model.meta["targets"] = targets
            model.meta.setdefault("earlier_targets", []).append(
                {"targets": trained_on, "to": model.meta["episodes"]}
            )
    valuer: Valuer = model if play is None else BidsFor(model, play)
    done = int(model.meta.get("episodes", 0))
    if every is None:
        every = BATCH if targets in GAINS else EVERY
    trainer = Trainer(model, seed=seed + done, lr=lr, every=every)
    bar = Progress(episodes, done, progress)
    spent = float(model.meta.get("seconds", 0.0))
    began = time.perf_counter()
    settings = {
        "seed": seed,
        "rules": the_rules,
        "heuristic": heuristic,
        "epsilon": epsilon,
        "bid_epsilon": bid_epsilon,
        "engine": engine,
        "targets": targets,
        "width": width,
        "bids_for": bids_for,
        "margin": margin,
        "samples": samples,
    }

    def checkpoint() -> None:
        model.meta.update(episodes=done, seconds=spent + time.perf_counter() - began, rules=rules, seed=seed)
        model.save(out)

    def curve_point() -> None:
        point = {
            "episodes": done,
            "seconds": round(spent + time.perf_counter() - began, 1),
            "loss": {k: round(v, 4) for k, v in sorted(trainer.losses.items())},
            **{
                k: round(v, 4)
                for k, v in evaluate(valuer, eval_deals, rules=the_rules, margin=margin).items()
            },
            "eval": f"{eval_deals} deals from seed {EVAL_SEED}, both seatings, auction, vs heuristic",
        }
        if curve:
            with open(curve, "a", encoding="utf-8") as f:
                f.write(json.dumps(point) + "\n")
        if log:
            log(json.dumps(point))

    for block in _blocks(model, done, episodes, workers, settings, (checkpoint_every, eval_every), play):
        for rows, score in block:
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


def _mixed(parser: Any, bid_from: str) -> Callable[[str], Model]:
    """A loader of a checkpoint whose bidding network is replaced by ``bid_from``'s."""
    try:
        bids = Model.load(bid_from)
    except (OSError, ValueError) as e:
        parser.error(f"cannot read --bid-from {bid_from}: {e}")

    def load(path: str) -> Model:
        model = Model.load(path)
        if model.hidden != bids.hidden:
            raise ValueError(f"its layers {model.hidden} are not --bid-from's {bids.hidden}")
        model.nets["bid"] = bids.nets["bid"]
        model.meta["bid_from"] = bid_from
        return model

    return load


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
    parser.add_argument(
        "--targets",
        choices=TARGETS,
        default="result",
        help="result: the round's result for the decision taken; rollout: every candidate's gain "
        "over the heuristic's choice, the deal played out by the heuristic; sampled: the same gain "
        "in the play as the share of --samples deals consistent with the seat's view",
    )
    parser.add_argument(
        "--samples",
        type=int,
        help=f"with --targets sampled: the deals a decision's targets are drawn on (default {SAMPLES})",
    )
    parser.add_argument("--width", type=int, default=WIDTH, help="the heuristic's best plays weighed")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the episodes")
    parser.add_argument(
        "--every",
        type=int,
        help="a network's new rows between two Adam steps (default 64; rollout and sampled targets 256)",
    )
    parser.add_argument("--engine", default="auto", choices=("auto", "native", "python"), help="rules engine")
    parser.add_argument(
        "--bids-for",
        metavar="WEIGHTS",
        help="train the bidding network alone, for the play of these weights (a file, or several "
        "joined by '+'): their play networks value the learned seats' play and stay as they are",
    )
    parser.add_argument(
        "--margin",
        type=float,
        default=0.0,
        help="the learned seats play the heuristic's choice unless another beats it by more (default 0)",
    )
    parser.add_argument(
        "--bid-from",
        metavar="CKPT",
        help="with --export: the bidding network from this checkpoint or weights file, the play "
        "networks from --export's",
    )
    args = parser.parse_args(argv)
    if args.bid_from and not args.export:
        parser.error("--bid-from goes with --export: it names where the exported bidding network comes from")
    if args.export:
        return export(parser, args, _mixed(parser, args.bid_from) if args.bid_from else Model.load)
    hidden, curve = checked(parser, args)
    for name, p in (
        ("--heuristic", args.heuristic),
        ("--epsilon", args.epsilon),
        ("--bid-epsilon", args.bid_epsilon),
    ):
        if not 0.0 <= p <= 1.0:
            parser.error(f"{name} is a probability, not {p}")
    if args.samples is not None and args.targets != "sampled":
        parser.error(f"--samples goes with --targets sampled, not {args.targets}")
    samples = SAMPLES if args.samples is None else args.samples
    if args.margin < 0:
        parser.error(f"--margin must be 0 or more, not {args.margin}")
    if args.bids_for:
        try:
            load_weights(args.bids_for)
        except (OSError, ValueError) as e:
            parser.error(f"cannot read --bids-for {args.bids_for}: {e}")
    for name, n in (
        ("--width", args.width),
        ("--workers", args.workers),
        ("--every", 1 if args.every is None else args.every),
        ("--samples", samples),
    ):
        if n < 1:
            parser.error(f"{name} must be at least 1, not {n}")
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
            targets=args.targets,
            width=args.width,
            workers=args.workers,
            every=args.every,
            lr=args.lr,
            hidden=hidden,
            checkpoint_every=args.checkpoint_every,
            eval_every=args.eval_every,
            eval_deals=args.eval_deals,
            curve=curve,
            engine=args.engine,
            bids_for=args.bids_for,
            margin=args.margin,
            samples=samples,
            progress=not args.no_progress,
            log=lambda line: print("\n" + line, file=sys.stderr, flush=True),
        )
    except (OSError, ValueError) as e:
        parser.error(str(e))
    print(f"wrote {args.out} and {curve}")
    return 0


__all__ = [
    "BLOCK",
    "EVAL_SEED",
    "GAINS",
    "SAMPLES",
    "TARGETS",
    "Progress",
    "Replay",
    "Trainer",
    "advantages",
    "episode",
    "evaluate",
    "run",
    "train",
    "training_seed",
    "won",
]
