"""Type stubs of the native extension (kept in step with native/src/python/)."""

__version__: str

# ---------------------------------------------------------------------------- Dou Di Zhu
# (native/src/python/doudizhu.rs; used through pagoda.doudizhu.native)

from typing import Any

import numpy as np
import numpy.typing as npt

class DdzCore:
    @staticmethod
    def from_fields(
        rules: tuple[Any, ...],
        phase: int,
        to_move: int,
        hands: list[int],
        kitty: int,
        top: tuple[int, int, int, int, int, int] | None,
        top_seat: int,
        passes: int,
        doubles: int,
        play_counts: list[int],
        winner: int,
        landlord: int,
        bid: int,
        bidder: int,
        first: int,
        deal_no: int,
        wild: int,
        auction: list[tuple[int, str]],
        bombs_left: list[int],
        history: list[tuple[int, str]],
    ) -> DdzCore: ...
    def fields(self) -> tuple[Any, ...]: ...
    def legal(self, seat: int) -> tuple[Any, ...]: ...
    def apply(self, seat: int, action: object) -> DdzCore | None: ...
    @property
    def to_move(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def phase(self) -> int: ...
    def score(self) -> tuple[int, ...]: ...
    def rollouts(self, k: int, seed: int) -> npt.NDArray[np.int64]: ...
    def nbytes(self) -> int: ...

def ddz_register(play: Any, bid: Any, pass_: Any, call: Any, rob: Any) -> None: ...
def ddz_play_random(rules: tuple[Any, ...], rounds: int, seed: int) -> tuple[npt.NDArray[np.int64], int]: ...
def ddz_lead_counts(rules: tuple[Any, ...], hands: list[int], wild: int) -> npt.NDArray[np.uint32]: ...
def ddz_legal_plays(
    rules: tuple[Any, ...],
    hand: int,
    on: tuple[int, int, int, int, int, int] | None,
    wild: int = -1,
    bombs: bool = True,
) -> tuple[Any, ...]: ...
