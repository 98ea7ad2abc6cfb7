"""Train a small DouZero-style deep Monte Carlo agent for Dou Di Zhu on CPU, then measure it against random.

The agent scores (state, action) pairs with a numpy MLP: the input is the seat's observation and
one legal action's feature row (its cards and type, from ``env.legal_action_features()``), the
output the expected result of the round for that seat (+1 won, -1 lost). Every seat plays with the
same network during training (epsilon-greedy self-play, the auction included); after each round,
every (state, chosen action) pair is regressed on the round's final result, as in DouZero.

Evaluation: on the same deals, seat s is played once by the agent and once by a random player
(the two other seats random both times); the printed win rates and their 95% intervals compare
the two. Run:

    python examples/dmc_doudizhu.py --minutes 3
    python examples/dmc_doudizhu.py --smoke          # a few seconds, for the tests
"""

import argparse
import itertools
import math
import random
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from pagoda.envs import doudizhu_v0

Array = npt.NDArray[np.float32]


class MLP:
    """A 2-hidden-layer ReLU network with one output, trained by Adam on the squared error."""

    def __init__(self, n_in: int, hidden: int, seed: int, lr: float = 1e-3) -> None:
        rng = np.random.default_rng(seed)
        sizes = [n_in, hidden, hidden // 2, 1]
        self.w = [
            (rng.standard_normal((a, b)) * math.sqrt(2 / a)).astype(np.float32)
            for a, b in itertools.pairwise(sizes)
        ]
        self.b = [np.zeros(b, np.float32) for b in sizes[1:]]
        self.m = [np.zeros_like(p) for p in self.w + self.b]
        self.v = [np.zeros_like(p) for p in self.w + self.b]
        self.lr, self.t = lr, 0

    def forward(self, x: Array) -> tuple[Array, list[Array]]:
        acts = [x]
        for i, (w, b) in enumerate(zip(self.w, self.b, strict=True)):
            x = x @ w + b
            if i < len(self.w) - 1:
                x = np.maximum(x, 0)
            acts.append(x)
        return x[:, 0], acts

    def train(self, x: Array, y: Array) -> float:
        out, acts = self.forward(x)
        err = out - y
        grad = (2 * err / len(y))[:, None].astype(np.float32)
        gw: list[Array] = []
        gb: list[Array] = []
        for i in reversed(range(len(self.w))):
            gw.insert(0, acts[i].T @ grad)
            gb.insert(0, grad.sum(axis=0))
            if i:
                grad = (grad @ self.w[i].T) * (acts[i] > 0)
        self.t += 1
        for k, (p, g) in enumerate(zip(self.w + self.b, gw + gb, strict=True)):
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            p -= self.lr * mh / (np.sqrt(vh) + 1e-8)
        return float(np.mean(err * err))


def inputs(obs: npt.NDArray[np.int8], features: npt.NDArray[np.int8]) -> Array:
    """One row per legal action: the observation followed by the action's features."""
    rows = np.empty((len(features), len(obs) + features.shape[1]), np.float32)
    rows[:, : len(obs)] = obs
    rows[:, len(obs) :] = features
    return rows


def play_round(
    env: Any, seed: int, policies: dict[str, str], net: MLP, eps: float, rng: random.Random
) -> tuple[dict[str, float], list[tuple[str, Array]]]:
    """One round; ``policies`` maps each agent to ``net`` or ``random``. Returns results and pairs."""
    env.reset(seed=seed)
    chosen: list[tuple[str, Array]] = []
    results = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        results[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal, features = env.legal_action_features()
        if policies[agent] == "random" or rng.random() < eps:
            k = rng.randrange(len(legal))
            x = inputs(obs["observation"], features[k : k + 1]) if policies[agent] == "net" else None
        else:
            x_all = inputs(obs["observation"], features)
            k = int(np.argmax(net.forward(x_all)[0]))
            x = x_all[k : k + 1]
        if x is not None:
            chosen.append((agent, x))
        env.step(legal[k])
    return results, chosen


def interval(wins: int, n: int) -> tuple[float, float, float]:
    """The win rate and its 95% Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument(
        "--eval-rounds", type=int, default=600, help="deals to evaluate on (each played twice)"
    )
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--smoke", action="store_true", help="a few seconds of training and 30 deals")
    args = parser.parse_args(argv)
    seconds = 4.0 if args.smoke else args.minutes * 60
    eval_rounds = 30 if args.smoke else args.eval_rounds
    env = doudizhu_v0.env(preset=args.preset)
    env.reset(seed=args.seed)
    obs, *_ = env.last()
    _, features = env.legal_action_features()
    net = MLP(len(obs["observation"]) + features.shape[1], 256, args.seed)
    rng = random.Random(args.seed)
    selfplay = dict.fromkeys(env.possible_agents, "net")
    start = time.perf_counter()
    rounds = 0
    buffer_x: list[Array] = []
    buffer_y: list[float] = []
    loss = 0.0
    while time.perf_counter() - start < seconds:
        results, chosen = play_round(env, 10**6 + rounds, selfplay, net, 0.1, rng)
        rounds += 1
        for agent, x in chosen:
            buffer_x.append(x)
            buffer_y.append(1.0 if results[agent] > 0 else -1.0)
        if len(buffer_x) >= 256:
            order = list(range(len(buffer_x)))
            rng.shuffle(order)
            xs = np.concatenate(buffer_x)
            ys = np.array(buffer_y, np.float32)
            for i in range(0, len(order), 128):
                batch = order[i : i + 128]
                loss = net.train(xs[batch], ys[batch])
            buffer_x, buffer_y = [], []
        if rounds % 200 == 0:
            print(f"{time.perf_counter() - start:6.0f}s  {rounds} rounds  loss {loss:.3f}", flush=True)
    print(f"trained on {rounds} self-play rounds in {time.perf_counter() - start:.0f}s")
    agents = env.possible_agents
    wins = {"net": 0, "random": 0}
    for i in range(eval_rounds):
        seat = agents[i % len(agents)]
        for who in ("net", "random"):
            policies = dict.fromkeys(agents, "random")
            policies[seat] = who
            results, _ = play_round(env, i, policies, net, 0.0, random.Random(i))
            wins[who] += results[seat] > 0
    for who in ("net", "random"):
        p, lo, hi = interval(wins[who], eval_rounds)
        print(
            f"{who:>6} in the seat, random elsewhere: win rate {p:.3f}"
            f"  (95% CI {lo:.3f}-{hi:.3f}, {eval_rounds} deals)"
        )
    diff = (wins["net"] - wins["random"]) / eval_rounds
    print(f"agent - random: {diff:+.3f} win rate on the same deals")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
