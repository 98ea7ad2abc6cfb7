"""What the learned bots' training shares: a numpy perceptron with its backprop and Adam, a replay
buffer, a progress bar and the checkpoint files.

The perceptron is all a learned bot needs at play time (numpy alone); the rest serves
``pagoda train <game>``. A checkpoint is a compressed npz: a JSON ``meta`` (the feature layout's
version among it) and each network's parameters ``<net>/p<k>``, with Adam's moments
``<net>/m<k>``, ``<net>/v<k>`` and step ``<net>/t`` when it is kept for ``--resume``.

>>> net = MLP([3, 4, 1], seed=0)
>>> x, y = np.ones((8, 3), np.float32), np.full(8, 0.5, np.float32)
>>> net.step(x, y) > net.step(x, y)
True
"""

import argparse
import io
import itertools
import json
import math
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float32]
Grads = list[npt.NDArray[Any]]


class MLP:
    """A ReLU perceptron with one output, its hand-written backprop and an Adam optimizer.

    >>> net = MLP([3, 4, 1], seed=0)
    >>> net.forward(np.zeros((2, 3), np.float32)).shape
    (2,)
    """

    def __init__(self, sizes: Sequence[int], seed: int = 0, dtype: Any = np.float32) -> None:
        rng = np.random.default_rng(seed)
        self.sizes = list(sizes)
        self.w = [
            (rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(dtype)
            for a, b in itertools.pairwise(self.sizes)
        ]
        self.b = [np.zeros(b, dtype) for b in self.sizes[1:]]
        self.m = [np.zeros_like(p) for p in self.params()]
        self.v = [np.zeros_like(p) for p in self.params()]
        self.t = 0

    def params(self) -> list[npt.NDArray[Any]]:
        """The weights then the biases, layer by layer."""
        return [*self.w, *self.b]

    def _layers(self, x: npt.NDArray[Any]) -> list[npt.NDArray[Any]]:
        acts = [x]
        last = len(self.w) - 1
        for i, (w, b) in enumerate(zip(self.w, self.b, strict=True)):
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0)
            acts.append(x)
        return acts

    def forward(self, x: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """The output for each row of ``x``."""
        out: npt.NDArray[Any] = self._layers(x)[-1][:, 0]
        return out

    def loss_grads(self, x: npt.NDArray[Any], y: npt.NDArray[Any]) -> tuple[float, Grads]:
        """The mean squared error on ``(x, y)`` and its gradient for every parameter (as :meth:`params`)."""
        acts = self._layers(x)
        err = acts[-1][:, 0] - y
        grad = (2.0 * err / len(y))[:, None].astype(x.dtype)
        gw: Grads = [np.empty(0)] * len(self.w)
        gb: Grads = [np.empty(0)] * len(self.b)
        for i in reversed(range(len(self.w))):
            gw[i] = acts[i].T @ grad
            gb[i] = grad.sum(axis=0)
            if i:
                grad = (grad @ self.w[i].T) * (acts[i] > 0)
        return float(np.mean(err * err)), [*gw, *gb]

    def step(self, x: Array, y: Array, lr: float = 1e-3) -> float:
        """One Adam step on the squared error of ``(x, y)``; returns the loss before the step."""
        loss, grads = self.loss_grads(x, y)
        self.t += 1
        b1, b2 = 0.9, 0.999
        c1, c2 = 1 - b1**self.t, 1 - b2**self.t
        for k, (p, g) in enumerate(zip(self.params(), grads, strict=True)):
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            p -= lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + 1e-8)
        return loss


@dataclass(slots=True)
class Replay:
    """A ring buffer of one network's training rows and targets."""

    width: int
    size: int = 65_536
    x: Array = field(init=False)
    y: Array = field(init=False)
    count: int = 0
    fresh: int = 0

    def __post_init__(self) -> None:
        self.x = np.zeros((self.size, self.width), np.float32)
        self.y = np.zeros(self.size, np.float32)

    def add(self, row: Array, target: float) -> None:
        """Keep one row (the oldest goes once the buffer is full)."""
        k = self.count % self.size
        self.x[k] = row
        self.y[k] = target
        self.count += 1
        self.fresh += 1

    def batch(self, rng: np.random.Generator, n: int = 256) -> tuple[Array, Array]:
        """``n`` rows drawn uniformly from those kept."""
        idx = rng.integers(0, min(self.count, self.size), n)
        return self.x[idx], self.y[idx]


class Progress:
    """A one-line progress bar on stderr: done of total, rate, the time left and a note."""

    def __init__(self, total: int, start: int = 0, enabled: bool = True, width: int = 30) -> None:
        self.total, self.start, self.enabled, self.width = total, start, enabled, width
        self.began = time.perf_counter()
        self.shown = 0.0

    def update(self, done: int, note: str = "", force: bool = False) -> None:
        """Redraw (at most twice a second unless ``force``)."""
        now = time.perf_counter()
        if not self.enabled or (not force and now - self.shown < 0.5):
            return
        self.shown = now
        rate = (done - self.start) / max(now - self.began, 1e-9)
        left = (self.total - done) / rate if rate > 0 else float("inf")
        filled = int(self.width * done / max(1, self.total))
        bar = "#" * filled + "." * (self.width - filled)
        eta = f"{left / 60:.1f} min left" if left != float("inf") else "--"
        line = f"\r[{bar}] {done}/{self.total} episodes, {rate:.1f}/s, {eta} {note}"
        print(line, end="", file=sys.stderr, flush=True)
        if done >= self.total:
            print(file=sys.stderr)


def save_nets(
    path: str, nets: Mapping[str, MLP], meta: Mapping[str, Any], optimizer: bool = True, half: bool = False
) -> None:
    """Write networks and ``meta`` as a compressed npz (atomically); ``optimizer`` keeps Adam's
    state for ``--resume``, ``half`` stores the parameters in half precision (a shipped file)."""
    arrays: dict[str, Any] = {"meta": np.asarray(json.dumps(dict(meta)))}
    for name, net in nets.items():
        for k, p in enumerate(net.params()):
            arrays[f"{name}/p{k}"] = p.astype(np.float16) if half else p
            if optimizer:
                arrays[f"{name}/m{k}"] = net.m[k]
                arrays[f"{name}/v{k}"] = net.v[k]
        if optimizer:
            arrays[f"{name}/t"] = np.asarray(net.t)
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        np.savez_compressed(f, **arrays)
    os.replace(tmp, path)


def read_nets(source: str | bytes, version: int) -> tuple[dict[str, Any], Any]:
    """The ``meta`` and arrays of a file written by :func:`save_nets` (a path, or its bytes);
    refuses one whose feature layout is not ``version``."""
    data = np.load(io.BytesIO(source) if isinstance(source, bytes) else source, allow_pickle=False)
    meta: dict[str, Any] = json.loads(str(data["meta"]))
    if meta.get("features") != version:
        raise ValueError(
            f"weights of feature layout {meta.get('features')!r}; this bot reads layout {version}"
        )
    return meta, data


def load_nets(nets: Mapping[str, MLP], data: Any) -> None:
    """Fill ``nets`` (already of the right sizes) from :func:`read_nets`'s arrays, in full precision."""
    for name, net in nets.items():
        n = len(net.params())
        params = [data[f"{name}/p{k}"].astype(np.float32) for k in range(n)]
        for k, (have, got) in enumerate(zip(net.params(), params, strict=True)):
            if have.shape != got.shape:
                raise ValueError(f"{name} parameter {k} has shape {got.shape}, expected {have.shape}")
        half = len(net.w)
        net.w, net.b = params[:half], params[half:]
        if f"{name}/t" in data:
            net.m = [data[f"{name}/m{k}"] for k in range(n)]
            net.v = [data[f"{name}/v{k}"] for k in range(n)]
            net.t = int(data[f"{name}/t"])


class Checkpoint(Protocol):
    """A trainer's model as its command line exports it."""

    meta: dict[str, Any]

    def save(self, path: str, optimizer: bool = True, half: bool = False) -> None: ...


def training_parser(
    prog: str, description: str, checkpoint_every: int, eval_every: int, eval_deals: int
) -> argparse.ArgumentParser:
    """A trainer's command line with the options every ``pagoda train <game>`` takes (its game's own
    are added after them), with the game's defaults for the checkpoints and the curve."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(
        "--episodes", type=int, default=20_000, help="episodes in all (a resumed run counts its own)"
    )
    parser.add_argument("--out", required=True, help="the checkpoint to write (npz)")
    parser.add_argument("--seed", type=int, default=0, help="the training seed (deals, exploration, weights)")
    parser.add_argument("--resume", metavar="CKPT", help="go on from this checkpoint")
    parser.add_argument(
        "--export", metavar="CKPT", help="write CKPT's weights alone, half precision, to --out"
    )
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's step size")
    parser.add_argument("--hidden", default="256,128", help="hidden layer widths (a new model only)")
    parser.add_argument(
        "--checkpoint-every", type=int, default=checkpoint_every, help="episodes between checkpoints"
    )
    parser.add_argument(
        "--eval-every", type=int, default=eval_every, help="episodes between curve points (0: none)"
    )
    parser.add_argument(
        "--eval-deals", type=int, default=eval_deals, help="deals of each curve point's evaluation"
    )
    parser.add_argument("--curve", help="the curve file (JSON lines; default: --out with .jsonl)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def export(parser: argparse.ArgumentParser, args: argparse.Namespace, load: Any) -> int:
    """``--export``: the checkpoint's weights alone, half precision, to ``--out``."""
    try:
        model: Checkpoint = load(args.export)
    except (OSError, ValueError) as e:
        parser.error(f"cannot export {args.export}: {e}")
    model.save(args.out, optimizer=False, half=True)
    print(f"wrote {args.out}: {model.meta.get('episodes', 0)} episodes of training")
    return 0


def checked(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[list[int], str]:
    """The common options checked (an error names the one that is wrong): the hidden widths and
    the curve's path."""
    for name, value in (("--episodes", args.episodes), ("--checkpoint-every", args.checkpoint_every)):
        if value < 1:
            parser.error(f"{name} must be at least 1, not {value}")
    if args.eval_every and args.eval_deals < 1:
        parser.error(f"--eval-deals must be at least 1, not {args.eval_deals}")
    try:
        hidden = [int(h) for h in args.hidden.split(",")]
    except ValueError:
        parser.error(f"--hidden takes widths like 256,128, not {args.hidden!r}")
    return hidden, args.curve or (args.out.removesuffix(".npz") + ".jsonl")


__all__ = [
    "MLP",
    "Array",
    "Grads",
    "Progress",
    "Replay",
    "checked",
    "export",
    "load_nets",
    "read_nets",
    "save_nets",
    "training_parser",
]
